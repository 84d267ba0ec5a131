/* SPDX-License-Identifier: GPL-2.0-only */
/* Functions shared between the protocol core's own files. */
#ifndef ACA_CORE_INTERNAL_H
#define ACA_CORE_INTERNAL_H

#include "core.h"

s32 acp_check_hello(const u8 *bytes);

#endif /* ACA_CORE_INTERNAL_H */
