/* SPDX-License-Identifier: GPL-2.0-only */
/* The dynamic perf PMUs aca uses by name (pmus.c): uncore boxes, IBS. */
#ifndef ACA_PMUS_H
#define ACA_PMUS_H

#include <linux/types.h>

void aca_pmus_init(void);
void aca_pmus_exit(void);
void aca_pmus_scan(void);
bool aca_pmus_have(const char *prefix);
bool aca_find_pmu(void *ctx, const char *name, u32 *type, char *formats, size_t len);

#endif /* ACA_PMUS_H */
