/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiplexing: the groups' windows and the switch timer (multiplex.c). */
#ifndef ACA_MULTIPLEX_H
#define ACA_MULTIPLEX_H

#include <linux/irq_work.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct acp_config;
struct aca_collection;

/* The switch after samples: the handler's way to the switch work. */
extern struct irq_work aca_mux_kick;
/* The switch work. */
extern struct delayed_work aca_mux;

void aca_switch_policy(struct aca_collection *c, const struct acp_config *cfg);
void aca_enable(struct aca_collection *c, bool on);
void aca_switch_group(struct aca_collection *c);
bool aca_samples_reached(const struct aca_collection *c);

#endif /* ACA_MULTIPLEX_H */
