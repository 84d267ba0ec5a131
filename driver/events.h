/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sampling's perf events (events.c): made with their overflow handler
 * (overflow.c), released, and the load-time probe of the PMU.
 */
#ifndef ACA_EVENTS_H
#define ACA_EVENTS_H

#include <linux/types.h>

struct acp_event;
struct aca_sampling;
struct aca_sev;

void aca_release_sev(struct aca_sampling *c, struct aca_sev *s);
void aca_handlers_done(struct aca_sampling *c);
void aca_release_events(struct aca_sampling *c);
int aca_create_event(struct aca_sev *s, int cpu,
		     const struct acp_event *e, bool sw, bool count);
int aca_probe_pmu(void);

#endif /* ACA_EVENTS_H */
