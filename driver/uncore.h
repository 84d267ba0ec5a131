/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Uncore counting (uncore.c): a collection's counters and ring, in its
 * @unc slot (NULL: none), under aca_lock.
 */
#ifndef ACA_UNCORE_H
#define ACA_UNCORE_H

#include <linux/types.h>

struct acp_config;
struct aca_ring;
struct aca_uncore;

int aca_uncore_configure(struct aca_uncore **unc, const struct acp_config *cfg);
int aca_uncore_start(struct aca_uncore *u, const struct acp_config *cfg, bool paused);
void aca_uncore_pause(struct aca_uncore *u, bool pause);
void aca_uncore_stop(struct aca_uncore *u);
void aca_uncore_finish(struct aca_uncore **unc);
struct aca_ring *aca_uncore_ring(struct aca_uncore *u);

#endif /* ACA_UNCORE_H */
