// SPDX-License-Identifier: GPL-2.0-only
/*
 * Multiplexing a collection's groups (sampler.c makes them): one group
 * samples at a time, in windows, and the switch timer, the overflow
 * handler's kick and SWITCH_GROUP hand the turn to the next one.
 * GROUP_TIMES [ACA-EXT] answers the windows.
 */
#include <linux/irq_work.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/workqueue.h>

#include "collection.h"
#include "core/core.h"
#include "hotplug.h"
#include "multiplex.h"
#include "sampler.h"
#include "target.h"
#include "tsc.h"

/*
 * How the groups switch (EVENT_CONFIG, spec 5.6), with more than one group
 * and when sampling: every em_factor ms (em_mode timer-based), or once a
 * CPU has taken em_factor samples of the active group's trigger events in
 * its turn (em_mode event- or trigger-based; the core marked the triggers).
 * Otherwise only SWITCH_GROUP switches.
 */
#define ACA_SWITCH_MS_DEFAULT	10
#define ACA_SWITCH_MS_MAX	60000

void aca_switch_policy(struct aca_sampling *c, const struct acp_config *cfg)
{
	s32 mode = cfg->events.em_mode, factor = cfg->events.em_factor;

	c->switch_ms = 0;
	c->switch_samples = 0;
	if (c->ngroups < 2 || c->counting_mode || mode == SEP_EM_DISABLED)
		return;
	if (mode != SEP_EM_TIMER_BASED && mode != SEP_EM_EVENT_BASED &&
	    mode != SEP_EM_TRIGGER_BASED) {
		pr_notice_ratelimited("EM_GROUPS: em_mode %d is none of -1, 0, 1, 2: the groups switch every %u ms\n",
				      mode, ACA_SWITCH_MS_DEFAULT);
		c->switch_ms = ACA_SWITCH_MS_DEFAULT;
	} else if (factor <= 0) {
		pr_notice_ratelimited("EM_GROUPS: em_factor %d is no %s: the groups switch every %u ms\n",
				      factor,
				      mode == SEP_EM_TIMER_BASED ? "period" : "sample count",
				      ACA_SWITCH_MS_DEFAULT);
		c->switch_ms = ACA_SWITCH_MS_DEFAULT;
	} else if (mode == SEP_EM_TIMER_BASED) {
		c->switch_ms = min_t(u32, factor, ACA_SWITCH_MS_MAX);
	} else {
		c->switch_samples = factor;
	}
}

/* The active group's events on every CPU, on or off. */
static void aca_enable_group(struct aca_sampling *c, bool on)
{
	for (u32 i = 0; i < c->nsev; i++) {
		struct aca_sev *s = &c->sevs[i];

		/* Another group's, or its CPU was offline at START. */
		if (!s->pe || s->group != c->active)
			continue;
		if (on)
			perf_event_enable(s->pe);
		else
			perf_event_disable(s->pe);
	}
}

/* The active group's window closes at @off_tsc. */
static void aca_close_window(struct aca_sampling *c, u64 off_tsc)
{
	struct aca_group *g = &c->groups[c->active];
	struct aca_group_window *w;

	if (!c->on_tsc)
		return;
	g->windows++;
	g->running_tsc += off_tsc - c->on_tsc;
	if (c->windows && c->nwindows < ACA_GROUP_WINDOWS_MAX) {
		w = &c->windows[c->nwindows++];
		w->on_tsc = c->on_tsc;
		w->off_tsc = off_tsc;
		w->group = g->group_id;
	} else if (c->windows) {
		c->windows_lost++;
	}
	c->on_tsc = 0;
}

/*
 * Sampling on or off: the active group's events, its window opened
 * before the first is enabled and closed after the last is disabled.
 */
void aca_enable(struct aca_sampling *c, bool on)
{
	lockdep_assert_held(&aca_lock);
	if (on) {
		c->on_tsc = aca_tsc_now();
		aca_enable_group(c, true);
	} else {
		aca_enable_group(c, false);
		aca_close_window(c, aca_tsc_now());
	}
}

/*
 * The next group samples from now, or from resume when paused. Its events
 * are checked at once, as at START: one that got no counter would
 * otherwise pass its whole turn, counted as running, sampling nothing.
 */
void aca_switch_group(struct aca_collection *coll)
{
	struct aca_sampling *c = coll->sampling;
	unsigned int cpu;

	lockdep_assert_held(&aca_lock);
	c->groups[c->active].turns++;
	if (!c->paused)
		aca_enable(c, false);
	/*
	 * No trigger event is enabled: the counts start again from 0. (A
	 * software event's handler interrupted by the disabling IPI may
	 * still add one sample of the old turn.)
	 */
	for_each_possible_cpu(cpu)
		if (c->trig)
			atomic_long_set(per_cpu_ptr(c->trig, cpu), 0);
	c->active = (c->active + 1) % c->ngroups;
	c->switches++;
	if (c->paused)
		return;
	aca_enable(c, true);
	aca_watch_events(coll);
}

/* Some CPU has taken its switch_samples trigger samples in this turn. */
bool aca_samples_reached(const struct aca_sampling *c)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (c->trig && atomic_long_read(per_cpu_ptr(c->trig, cpu)) >= c->switch_samples)
			return true;
	return false;
}

/*
 * The switch work (the collection's mux): the next group every switch_ms
 * while sampling, or when the handler found switch_samples reached
 * (through the collection's mux_kick). One queued for an ended session
 * finds the next one's (or none) under aca_lock: at worst a new session's
 * first turn is short; a kick that finds the counts started again
 * (SWITCH_GROUP came first) does nothing.
 */

/*
 * The active group's turn: switch_ms, plus what its ended turns ran short
 * of switch_ms each, or minus what they ran past it, within half to twice
 * switch_ms. A turn ended late (the delayed work fires on a jiffy, after
 * its kworker is scheduled, a vCPU may stall) or early (SWITCH_GROUP, a
 * pause) is made up by the group's next one: every group's running time
 * stays its turns times switch_ms, so round robin's shares stay equal
 * whatever the delays.
 */
static unsigned long aca_turn(const struct aca_sampling *c)
{
	const struct aca_group *g = &c->groups[c->active];
	u64 hz = aca_tsc_hz();
	s64 ms = c->switch_ms;

	if (hz)
		ms += (s64)g->turns * c->switch_ms -
		      (s64)div64_u64(g->running_tsc * 1000, hz);
	/* At least 1 ms: a turn of 0 would re-run the switch at once. */
	ms = clamp_t(s64, ms, max_t(s64, c->switch_ms / 2, 1), 2 * (s64)c->switch_ms);
	return msecs_to_jiffies(ms);
}

static void aca_mux_fn(struct work_struct *work)
{
	struct aca_collection *coll = container_of(to_delayed_work(work),
						   struct aca_collection, mux);
	struct aca_sampling *c;

	mutex_lock(&aca_lock);
	c = coll->sampling;
	if (c && c->armed && c->switch_ms) {
		if (!c->paused)
			aca_switch_group(coll);
		schedule_delayed_work(&coll->mux, aca_turn(c));
	} else if (c && c->armed && c->switch_samples && !c->paused &&
		   aca_samples_reached(c)) {
		aca_switch_group(coll);
	}
	mutex_unlock(&aca_lock);
}

/* Hard IRQ (IRQ_WORK_HARD_IRQ, RT too), after the handler that queued it. */
static void aca_mux_kick_fn(struct irq_work *work)
{
	struct aca_collection *coll = container_of(work, struct aca_collection,
						   mux_kick);

	mod_delayed_work(system_wq, &coll->mux, 0);
}

/* The collection's switch work and the handler's way to it. */
void aca_mux_init(struct aca_collection *coll)
{
	/* Hard: on PREEMPT_RT a lazy one could sit on a CPU going offline. */
	coll->mux_kick = IRQ_WORK_INIT_HARD(aca_mux_kick_fn);
	INIT_DELAYED_WORK(&coll->mux, aca_mux_fn);
}

/* Neither runs after this. */
void aca_mux_exit(struct aca_collection *coll)
{
	irq_work_sync(&coll->mux_kick);
	cancel_delayed_work_sync(&coll->mux);
}

/*
 * SWITCH_GROUP: non-zero when there is no other group. The switch timer
 * starts over, so the new group gets a whole turn.
 */
int aca_sampler_switch_group(void *ctx)
{
	struct aca_collection *coll = ctx;
	struct aca_sampling *c = coll->sampling;

	lockdep_assert_held(&aca_lock);
	if (!c || !c->armed || c->ngroups < 2)
		return -EINVAL;
	aca_switch_group(coll);
	if (c->switch_ms)
		mod_delayed_work(system_wq, &coll->mux, aca_turn(c));
	return 0;
}

/* GROUP_TIMES [ACA-EXT]: @buf, @len bytes zeroed, as sep_cmd.h says. */
void aca_sampler_group_times(void *ctx, void *buf, size_t len)
{
	struct aca_collection *coll = ctx;
	struct aca_sampling *c = coll->sampling;
	struct aca_group_times_head h = { 0 };
	u8 *p = buf, *end = p + len;

	lockdep_assert_held(&aca_lock);
	if (c && c->groups) {
		h.ngroups = c->ngroups;
		h.nwindows = c->nwindows;
		h.windows_lost = c->windows_lost;
		h.switch_ms = c->switch_ms;
		h.switches = c->switches;
	}
	if (len < sizeof(h))
		return;
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	for (u32 i = 0; i < h.ngroups && end - p >= sizeof(struct aca_group_time); i++) {
		struct aca_group_time t = {
			.group = c->groups[i].group_id,
			.windows = c->groups[i].windows,
			.running_tsc = c->groups[i].running_tsc,
		};

		memcpy(p, &t, sizeof(t));
		p += sizeof(t);
	}
	for (u32 i = 0; i < h.nwindows && end - p >= sizeof(*c->windows); i++) {
		memcpy(p, &c->windows[i], sizeof(*c->windows));
		p += sizeof(*c->windows);
	}
}
