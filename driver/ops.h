/* SPDX-License-Identifier: GPL-2.0-only */
/* What the protocol core asks of the kernel: the acp_ops table (ops.c). */
#ifndef ACA_OPS_H
#define ACA_OPS_H

struct acp_ops;

extern const struct acp_ops aca_kernel_ops;

#endif /* ACA_OPS_H */
