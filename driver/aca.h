/* SPDX-License-Identifier: GPL-2.0-only */
/* aca.ko internals shared between its files. */
#ifndef ACA_H
#define ACA_H

#include "core/core.h"

#define ACA_VERSION	"0.1.0"

extern const struct acp_ops aca_kernel_ops;

int aca_device_init(void);
void aca_device_exit(void);
void aca_wake_conn(void *conn_ctx);

/* The one clock of every timestamp aca sends (GET_NORMALIZED_TSC). */
u64 aca_tsc_now(void);

#endif /* ACA_H */
