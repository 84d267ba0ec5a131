/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiplexing: the groups' windows and the switch timer (multiplex.c). */
#ifndef ACA_MULTIPLEX_H
#define ACA_MULTIPLEX_H

#include <linux/types.h>

struct acp_config;
struct aca_collection;
struct aca_sampling;

void aca_switch_policy(struct aca_sampling *c, const struct acp_config *cfg);
void aca_enable(struct aca_sampling *c, bool on);
void aca_switch_group(struct aca_collection *coll);
bool aca_samples_reached(const struct aca_sampling *c);
void aca_mux_init(struct aca_collection *coll);
void aca_mux_exit(struct aca_collection *coll);
/* The acp_ops entry points of SWITCH_GROUP and GROUP_TIMES [ACA-EXT]. */
int aca_sampler_switch_group(void *ctx);
void aca_sampler_group_times(void *ctx, void *buf, size_t len);

#endif /* ACA_MULTIPLEX_H */
