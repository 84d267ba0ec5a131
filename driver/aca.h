/* SPDX-License-Identifier: GPL-2.0-only */
/* aca.ko internals shared between its files. */
#ifndef ACA_H
#define ACA_H

#include "core/core.h"

#define ACA_VERSION	"0.1.0"

extern const struct acp_ops aca_kernel_ops;

int aca_device_init(void);
void aca_device_exit(void);

#endif /* ACA_H */
