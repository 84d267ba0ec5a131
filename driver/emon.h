/* SPDX-License-Identifier: GPL-2.0-only */
/* Counting mode's reads and its EMON timer (emon.c). */
#ifndef ACA_EMON_H
#define ACA_EMON_H

#include <linux/types.h>

struct aca_collection;
struct aca_sampling;

void aca_emon_write(struct aca_sampling *c);
void aca_emon_init(struct aca_collection *coll);
void aca_emon_start(struct aca_collection *coll);
void aca_emon_exit(struct aca_collection *coll);
/* The acp_ops entry point of READ_AND_RESET and READ_SWITCH_GROUP. */
int aca_sampler_read_counts(void *ctx, bool next_group, void *buf, size_t len);

#endif /* ACA_EMON_H */
