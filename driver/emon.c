// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counting mode, where the events sampler.c makes count instead of
 * sampling: READ_AND_RESET and READ_SWITCH_GROUP read the active group's
 * counts, and the [ACA-EXT] EMON timer reads them into each CPU's ring.
 */
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/workqueue.h>

#include "collection.h"
#include "core/core.h"
#include "emon.h"
#include "multiplex.h"
#include "ring.h"
#include "sampler.h"
#include "target.h"
#include "tsc.h"

/*
 * Counting mode's READ_AND_RESET / READ_SWITCH_GROUP (sep_cmd.h): into @buf
 * (@len bytes, zeroed), each CPU channel's TSC ticks since the last read,
 * then the active group's counts since then, by CPU. perf_event_read_value()
 * reads an event on its CPU (a cross-call) and may sleep: aca_lock is a
 * mutex. A CPU offline, or one whose events could not be made anew, counts
 * nothing (0); its TSC delta is still the session's.
 */
int aca_sampler_read_counts(void *ctx, bool next_group, void *buf, size_t len)
{
	struct aca_collection *coll = ctx;
	struct aca_sampling *c = coll->sampling;
	u64 *out = buf, now, enabled, running, total;
	size_t n = len / sizeof(u64), at;
	const struct aca_group *g;

	lockdep_assert_held(&aca_lock);
	if (!c || !c->armed || !c->counting_mode)
		return -EINVAL;
	g = &c->groups[c->active];
	now = aca_tsc_now();
	for (u32 cpu = 0; cpu < c->nchans && cpu < n; cpu++)
		out[cpu] = c->rings[cpu] ? now - c->read_tsc : 0;
	c->read_tsc = now;
	for (struct aca_sev *s = c->sevs; s < c->sevs + c->nsev; s++) {
		/* A CPU made present after the session began has no channel. */
		if (s->group != c->active || !s->pe || s->cpu >= c->nchans)
			continue;
		total = perf_event_read_value(s->pe, &enabled, &running);
		at = c->nchans + (size_t)s->cpu * g->nevents + (s->event - g->first);
		if (at < n)
			out[at] = total - s->read;
		s->read = total;
	}
	if (next_group && c->ngroups > 1)
		aca_switch_group(coll);
	return 0;
}

/*
 * [ACA-EXT] The EMON timer's reads (sep_cmd.h): each CPU ring gets the
 * active group's counts since the last read. The ring's producer, as
 * nothing samples in counting mode; perf_event_read_value() may sleep.
 */
void aca_emon_write(struct aca_sampling *c)
{
	const struct aca_group *g = &c->groups[c->active];
	u64 now = aca_tsc_now(), enabled, running, total;
	struct {
		struct aca_emon_record_head h;
		u64 counts[ACP_MAX_EVENTS];
	} r;
	struct aca_sev *s = c->sevs;

	lockdep_assert_held(&aca_lock);
	for (u32 cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!c->rings[cpu])
			continue;
		memset(&r, 0, sizeof(r));
		r.h.kind = ACA_EMON_RECORD_KIND;
		r.h.size = sizeof(r.h) + g->nevents * sizeof(u64);
		r.h.group = g->group_id;
		r.h.nevents = g->nevents;
		r.h.tsc = now;
		r.h.tsc_delta = now - c->read_tsc;
		for (u32 i = 0; i < g->nevents; i++) {
			struct aca_sev *e = &s[g->first + i];

			/* Offline since START, or not made anew: 0. */
			if (!e->pe)
				continue;
			total = perf_event_read_value(e->pe, &enabled, &running);
			r.counts[i] = total - e->read;
			e->read = total;
		}
		aca_ring_write(c->rings[cpu], &r, r.h.size, r.h.size);
		s += c->nevents;
	}
	c->read_tsc = now;
}

/*
 * A read takes a cross-call per event and CPU under aca_lock: up to 256
 * events on every CPU. However long one takes, the lock stays free at
 * least ACA_EMON_SLACK times as long before the next, so control, poll()
 * and open() are never starved on a large machine: the period stretches
 * (each record's TSC delta says by how much, so no count is lost).
 */
#define ACA_EMON_SLACK		4

/* Every emon_ms while counting; none while paused (nothing counts). */
static void aca_emon_fn(struct work_struct *work)
{
	struct aca_collection *coll = container_of(to_delayed_work(work),
						   struct aca_collection, emon);
	unsigned long delay;
	struct aca_sampling *c;
	u64 t0, spent = 0;

	mutex_lock(&aca_lock);
	c = coll->sampling;
	if (c && c->armed && c->emon_ms) {
		delay = msecs_to_jiffies(c->emon_ms);
		if (!c->paused) {
			t0 = ktime_get_ns();
			aca_emon_write(c);
			spent = ktime_get_ns() - t0;
		}
		if (nsecs_to_jiffies(spent * ACA_EMON_SLACK) > delay) {
			delay = nsecs_to_jiffies(spent * ACA_EMON_SLACK);
			pr_notice_ratelimited("EMON timer: a read of %u events on every CPU took %llu us; the next in %u ms, not %u ms, to leave the device lock free\n",
					      c->nevents, div_u64(spent, NSEC_PER_USEC),
					      jiffies_to_msecs(delay), c->emon_ms);
		}
		schedule_delayed_work(&coll->emon, delay);
	}
	mutex_unlock(&aca_lock);
}

void aca_emon_init(struct aca_collection *coll)
{
	INIT_DELAYED_WORK(&coll->emon, aca_emon_fn);
}

/* At START, with the period the host asked for. */
void aca_emon_start(struct aca_collection *coll)
{
	mod_delayed_work(system_wq, &coll->emon, msecs_to_jiffies(coll->sampling->emon_ms));
}

void aca_emon_exit(struct aca_collection *coll)
{
	cancel_delayed_work_sync(&coll->emon);
}
