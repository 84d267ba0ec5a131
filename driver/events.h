/* SPDX-License-Identifier: GPL-2.0-only */
/* The sampler's perf events and their overflow handler (events.c). */
#ifndef ACA_EVENTS_H
#define ACA_EVENTS_H

#include <linux/types.h>

struct acp_event;
struct aca_sampling;
struct aca_sev;

extern bool aca_pmu_ok;		/* a hardware counter could be created */

void aca_release_sev(struct aca_sampling *c, struct aca_sev *s);
void aca_handlers_done(struct aca_sampling *c);
void aca_release_events(struct aca_sampling *c);
int aca_create_event(struct aca_sev *s, int cpu,
		     const struct acp_event *e, bool sw, bool count);
void aca_probe_pmu(void);

#endif /* ACA_EVENTS_H */
