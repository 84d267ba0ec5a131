/* SPDX-License-Identifier: GPL-2.0-only */
/* The one clock of every timestamp aca sends (tsc.c), and its rate in Hz. */
#ifndef ACA_TSC_H
#define ACA_TSC_H

#include <linux/types.h>

u64 aca_tsc_now(void);
u64 aca_tsc_hz(void);
u64 aca_tsc_sample(void);

#endif /* ACA_TSC_H */
