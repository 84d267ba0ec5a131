// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sampling through the in-kernel perf_events API (spec 6.8): at START one
 * pinned counter per event of every configured group on every online CPU
 * (events.c), whose overflow handler (overflow.c) writes a SampleRecordPC
 * (spec 7.1) into that CPU's ring (ring.c). The CPU's data channel reads
 * the ring.
 *
 * Multiplexing: one group samples at a time, its events enabled on every
 * CPU and every other group's disabled. The next one takes over every
 * em_factor ms when EVENT_CONFIG says so (em_mode timer-based), after
 * em_factor samples of its trigger events on one CPU (em_mode event- or
 * trigger-based), and on SWITCH_GROUP. Each span a group sampled is a window: opened (TSC read)
 * before its first event is enabled, closed (TSC read) after its last is
 * disabled, so all its samples fall inside. GROUP_TIMES [ACA-EXT] answers
 * the windows; a group's running time is their total.
 *
 * Where the PMU cannot count the event (no PMU in a VM, counters taken) and
 * sw_clock allows it, every event falls back to the cpu-clock software
 * event at the rate the host asked for (see aca_sw_period(), events.c);
 * so do a CPU's events, from then on, when one is later found not sampling
 * (the watch, hotplug.c).
 *
 * Counting mode (collection_config bit 1): the same counters, counting
 * instead of sampling, and no cpu-clock stand-in (its counts would pass for
 * the event's). READ_AND_RESET reads the active group's on every CPU and
 * READ_SWITCH_GROUP then switches; no timer does. With emon_timer_interval
 * [ACA-EXT], a timer also reads them into each CPU's ring, the only
 * records a counting collection writes. An ECB may also name perf
 * software events [ACA-EXT], in either mode.
 *
 * When the host asks for call stacks (DEV_CONFIG enable bits, an EVENT_DESC
 * callstack area), a record is built with its callers (stack.c) in its
 * CPU's scratch buffer, then copied into the ring.
 *
 * Locking: the acp_ops entry points run under aca_lock (target.c, the
 * collection's lock), which they assert. The collection's sampling
 * changes only there, and additionally under its sampling_lock, so the
 * collection file reads it without aca_lock.
 */
#include <linux/bitmap.h>
#include <linux/cpu.h>
#include <linux/irq_work.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "collection.h"
#include "collection_file.h"
#include "core/core.h"
#include "emon.h"
#include "events.h"
#include "hotplug.h"
#include "inject.h"
#include "machine.h"
#include "memory.h"
#include "multiplex.h"
#include "params.h"
#include "ring.h"
#include "sampler.h"
#include "target.h"
#include "tsc.h"

static void aca_sampling_free(struct aca_sampling *c)
{
	if (!c)
		return;
	aca_release_events(c);
	for (u32 cpu = 0; c->rings && cpu < nr_cpu_ids; cpu++) {
		if (!c->rings[cpu])
			continue;
		aca_ring_detach(c->rings[cpu]);
		aca_ring_put(c->rings[cpu]);
	}
	for (u32 cpu = 0; c->scratch && cpu < nr_cpu_ids; cpu++) {
		if (!c->scratch[cpu])
			continue;
		kfree(c->scratch[cpu]);
		aca_memory_add(ACA_MEM_SCRATCH, -(long)sizeof(*c->scratch[cpu]));
	}
	kfree(c->scratch);
	kfree(c->rings);
	kfree(c->errors);
	free_percpu(c->trig);
	bitmap_free(c->sw_cpus);
	kvfree(c->sevs);
	kfree(c->events);
	kfree(c->groups);
	kvfree(c->windows);
	kfree(c);
}

/*
 * Events per CPU at most: every group's (up to ACP_MAX_GROUPS of
 * ACP_MAX_EVENTS), within what perf is asked to hold for one collection.
 */
#define ACA_MAX_CPU_EVENTS	256

/* The groups whose ECB arrived, in group order, and their events. */
static int aca_take_groups(struct aca_sampling *c, const struct acp_config *cfg)
{
	u32 n = 0, nev = 0;

	for (u32 i = 0; i < cfg->ngroups; i++) {
		if (cfg->groups[i].loaded && cfg->groups[i].nevents) {
			n++;
			nev += cfg->groups[i].nevents;
		}
	}
	if (!n)
		return -EINVAL;
	if (nev > ACA_MAX_CPU_EVENTS) {
		pr_notice_ratelimited("START: %u events in %u groups, at most %u: configure fewer\n",
				      nev, n, ACA_MAX_CPU_EVENTS);
		return -E2BIG;
	}
	c->groups = kcalloc(n, sizeof(*c->groups), GFP_KERNEL);
	c->events = kcalloc(nev, sizeof(*c->events), GFP_KERNEL);
	if (n > 1)
		c->windows = kvcalloc(ACA_GROUP_WINDOWS_MAX, sizeof(*c->windows),
				      GFP_KERNEL);
	if (!c->groups || !c->events || (n > 1 && !c->windows))
		return -ENOMEM;
	for (u32 i = 0; i < cfg->ngroups; i++) {
		const struct acp_group *g = &cfg->groups[i];
		struct aca_group *a = &c->groups[c->ngroups];

		if (!g->loaded || !g->nevents)
			continue;
		a->group_id = i;
		a->first = c->nevents;
		a->nevents = g->nevents;
		memcpy(c->events + c->nevents, g->events,
		       g->nevents * sizeof(*g->events));
		c->nevents += g->nevents;
		c->ngroups++;
	}
	return 0;
}

/*
 * The callstack area of @index's records, when the host asked for call
 * stacks and it lies in the record, after the base, aligned and with room
 * for its head and an address (as the protocol core checked).
 */
static void aca_setup_callstack(struct aca_sev *s, const struct acp_config *cfg)
{
	const struct sep_event_desc *d;
	u64 bits = cfg->have_dev ? cfg->dev.enable_bits : 0;

	s->kernel_stack = bits & SEP_DEV_CFG_COLLECT_KERNEL_CALLSTACKS;
	s->user_stack = bits & SEP_DEV_CFG_COLLECT_CALLSTACKS;
	if (s->event_index >= cfg->ndesc || !(s->kernel_stack || s->user_stack))
		return;
	d = &cfg->desc[s->event_index];
	/* The core's checks, again: the chain's bound is computed from them. */
	if (d->callstack_size >= sizeof(struct aca_callstack_head) + sizeof(u64) &&
	    d->callstack_offset >= sizeof(struct sep_sample_record_pc) &&
	    d->callstack_offset % 8 == 0 && d->callstack_size % 8 == 0 &&
	    d->callstack_offset <= s->size && d->callstack_size <= s->size - d->callstack_offset) {
		s->cs_offset = d->callstack_offset;
		s->cs_size = d->callstack_size;
	}
}

/*
 * The LBR area of @index's records, when INIT asked for LBRs and LBR_INFO
 * said what the area holds (the core checked that it lies in the record).
 */
static void aca_setup_lbr(struct aca_sev *s, struct aca_sampling *c,
			  const struct acp_config *cfg)
{
	const struct sep_event_desc *d;

	if (s->event_index >= cfg->ndesc || !acp_lbrs_asked(cfg) || !cfg->lbr.n)
		return;
	d = &cfg->desc[s->event_index];
	/* The core's checks, again: the handler writes where they say. */
	if (!d->lbr_num_regs || d->lbr_offset < sizeof(struct sep_sample_record_pc) ||
	    d->lbr_offset % 8 || d->lbr_offset + d->lbr_num_regs * 8ull > s->size ||
	    (s->cs_size && d->lbr_offset < s->cs_offset + s->cs_size &&
	     s->cs_offset < d->lbr_offset + d->lbr_num_regs * 8ull))
		return;
	s->lbr_offset = d->lbr_offset;
	s->lbr_regs = d->lbr_num_regs;
	s->lbr = &c->lbr;
}

/*
 * The PEBS areas of @index's records that INIT asked for (the core checked
 * them against the record, which START refuses past a page).
 */
static void aca_setup_pebs(struct aca_sev *s, const struct acp_config *cfg)
{
	if (acp_pebs_layout(cfg, s->event_index, &s->pebs_areas))
		s->pebs_end = acp_pebs_end(&s->pebs_areas);
}

/* Some event of @s's may fill a PEBS area, an LBR area or a callstack area. */
static bool aca_needs_scratch(const struct aca_sev *s)
{
	return s->cs_size || s->lbr_regs || s->pebs_end;
}

/* Per ring CPU, a scratch record for the events with a callstack, LBR or PEBS area. */
static int aca_alloc_scratch(struct aca_sampling *c)
{
	bool need = false;

	for (u32 i = 0; i < c->nsev; i++)
		need |= aca_needs_scratch(&c->sevs[i]);
	if (!need)
		return 0;
	c->scratch = kcalloc(nr_cpu_ids, sizeof(*c->scratch), GFP_KERNEL);
	if (!c->scratch)
		return -ENOMEM;
	for (u32 cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!c->rings[cpu])
			continue;
		c->scratch[cpu] = kzalloc_node(sizeof(*c->scratch[cpu]), GFP_KERNEL,
					       cpu_to_node(cpu));
		if (!c->scratch[cpu])
			return -ENOMEM;
		aca_memory_add(ACA_MEM_SCRATCH, sizeof(*c->scratch[cpu]));
	}
	for (u32 i = 0; i < c->nsev; i++)
		c->sevs[i].scratch = c->scratch[c->sevs[i].cpu];
	return 0;
}

/* Record size of @index: its descriptor's sample_size, at least 48. */
static u32 aca_record_size(const struct acp_config *cfg, u32 index)
{
	u32 size = index < cfg->ndesc ? cfg->desc[index].sample_size : 0;

	return max_t(u32, size, sizeof(struct sep_sample_record_pc));
}

static int aca_setup_sevs(struct aca_collection *coll, const struct acp_config *cfg)
{
	struct aca_sampling *c = coll->sampling;
	struct aca_sev *s = c->sevs;

	if (c->switch_samples) {
		c->trig = alloc_percpu(atomic_long_t);
		if (!c->trig)
			return -ENOMEM;
	}

	for (u32 cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!c->rings[cpu])
			continue;
		for (u32 i = 0, g = 0; i < c->nevents; i++, s++) {
			if (i == c->groups[g].first + c->groups[g].nevents)
				g++;
			s->ring = c->rings[cpu];
			s->cpu = cpu;
			s->event = i;
			s->group = g;
			s->event_index = c->events[i].event_index;
			s->size = aca_record_size(cfg, s->event_index);
			s->osid = cfg->osid;
			s->target_pid = cfg->drv.target_pid;
			if (s->size > ACA_MAX_RECORD) {
				pr_notice_ratelimited("START: descriptor %u asks for %u-byte samples, at most %lu supported\n",
						      s->event_index, s->size,
						      ACA_MAX_RECORD);
				return -EINVAL;
			}
			aca_setup_callstack(s, cfg);
			aca_setup_lbr(s, c, cfg);
			aca_setup_pebs(s, cfg);
			if (c->switch_samples && c->events[i].trigger) {
				s->trig = per_cpu_ptr(c->trig, cpu);
				s->trig_at = c->switch_samples;
				s->kick = &coll->mux_kick;
			}
		}
	}
	return aca_alloc_scratch(c);
}

static void aca_publish(struct aca_collection *coll, struct aca_sampling *c)
{
	mutex_lock(&coll->sampling_lock);
	coll->sampling = c;
	mutex_unlock(&coll->sampling_lock);
}

void aca_sampler_finish(struct aca_collection *coll)
{
	struct aca_sampling *c = coll->sampling;

	lockdep_assert_held(&aca_lock);
	aca_publish(coll, NULL);
	aca_sampling_free(c);
}

/*
 * One ring of @data_pages per CPU of @cpus, so the memory is committed (or
 * refused) before anything starts.
 */
int aca_sampler_alloc(struct aca_collection *coll, unsigned int data_pages,
		      const struct cpumask *cpus)
{
	struct aca_sampling *c;
	int cpu;

	lockdep_assert_held(&aca_lock);
	aca_sampler_finish(coll);	/* one collection per session */
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->rings = kcalloc(nr_cpu_ids, sizeof(*c->rings), GFP_KERNEL);
	c->errors = kcalloc(nr_cpu_ids, sizeof(*c->errors), GFP_KERNEL);
	c->sw_cpus = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	if (!c->rings || !c->errors || !c->sw_cpus)
		goto fail;
	for_each_cpu(cpu, cpus) {
		c->rings[cpu] = aca_ring_alloc(data_pages, cpu_to_node(cpu));
		if (!c->rings[cpu])
			goto fail;
		c->ncpus++;
	}
	aca_publish(coll, c);
	return 0;
fail:
	pr_notice_ratelimited("cannot allocate %u-page rings for %u CPUs: lower ring_pages\n",
			      data_pages, cpumask_weight(cpus));
	aca_sampling_free(c);
	return -ENOMEM;
}

/* INIT_DRIVER: the rings, of ring_pages. */
int aca_sampler_configure(struct aca_collection *coll, const struct acp_config *cfg)
{
	/*
	 * Every present CPU has a data channel, hence a ring: one offline now
	 * is sampled if it comes back during the collection.
	 */
	return aca_sampler_alloc(coll, READ_ONCE(aca_ring_pages), cpu_present_mask);
}

/* No event asks for a branch stack any more: true if one did. */
static bool aca_drop_lbrs(struct aca_sampling *c)
{
	bool had = false;

	for (u32 i = 0; i < c->nsev; i++) {
		had |= c->sevs[i].lbr_regs && c->events[c->sevs[i].event].branch_type;
		c->sevs[i].lbr_regs = 0;
	}
	return had;
}

/* What keeps asked-for LBR areas empty, said once a START (spec 6.11). */
static void aca_log_lbr(const struct aca_sampling *c, const struct acp_config *cfg)
{
	if (!acp_lbrs_asked(cfg) || acp_counting_mode(cfg))
		return;
	if (!cfg->lbr.n) {
		pr_notice_ratelimited("START: LBRs asked without LBR_INFO: LBR areas stay zero\n");
		return;
	}
	if (c->sw) {
		pr_notice_ratelimited("START: LBRs asked, but events sample with cpu-clock, which has no branch stack: LBR areas stay zero\n");
		return;
	}
	for (u32 i = 0; i < cfg->ndesc; i++)
		if (cfg->desc[i].lbr_num_regs && cfg->desc[i].lbr_num_regs != cfg->lbr.n)
			pr_notice_ratelimited("START: descriptor %u has %u LBR registers, LBR_INFO named %u: the first %u are filled, the rest zero\n",
					      i, cfg->desc[i].lbr_num_regs, cfg->lbr.n,
					      min_t(u32, cfg->desc[i].lbr_num_regs, cfg->lbr.n));
}

/*
 * PEBS areas asked where no event fills them: without a PMU (cpu-clock),
 * or for events that are not precise. The host would find zeros only.
 */
static void aca_log_pebs(const struct aca_sampling *c)
{
	bool asked = false, filled = false;

	for (u32 i = 0; i < c->nsev; i++) {
		asked |= c->sevs[i].pebs_end != 0;
		filled |= c->sevs[i].pebs_record;
	}
	if (asked && !filled && !c->counting_mode)
		pr_notice_ratelimited("START: PEBS areas asked, but %s: PEBS areas stay zero\n",
				      c->sw ? "events sample with cpu-clock, which has no PEBS" :
				      "no event with such a descriptor is precise");
}

/*
 * One counter per event on every CPU with a ring, disabled. A CPU taken
 * offline since INIT_DRIVER is skipped and reported, not a failed START:
 * its channel streams nothing. On failure, *@refused is the event perf
 * refused.
 */
static int aca_create_events(struct aca_collection *coll, bool sw,
			     const struct acp_event **refused)
{
	struct aca_sampling *c = coll->sampling;
	struct aca_sev *s = c->sevs, *t;
	u32 offline = 0, first = 0;
	int ret = 0;

	/* No cpus_read_lock(): see "without cpus_read_lock()" in hotplug.c. */
	for (u32 cpu = 0; cpu < nr_cpu_ids && !ret; cpu++) {
		if (!c->rings[cpu])
			continue;
		if (!aca_cpu_up(&coll->hp, cpu)) {
			first = offline++ ? first : cpu;
			s += c->nevents;
			continue;
		}
		for (u32 i = 0; i < c->nevents && !ret; i++) {
			ret = aca_create_event(s + i, cpu, &c->events[i], sw,
					       c->counting_mode);
			*refused = &c->events[i];
		}
		/*
		 * The CPU went down meanwhile: none of its events (a part
		 * would pass for the whole); the replug work makes them
		 * when it is back, once START is done.
		 */
		if (ret && aca_cpu_raced(&coll->hp, cpu)) {
			for (t = s; t < s + c->nevents; t++)
				aca_release_sev(c, t);
			first = offline++ ? first : cpu;
			ret = 0;
		}
		s += c->nevents;
	}
	if (ret) {
		aca_release_events(c);
		return ret;
	}
	if (offline)
		pr_notice_ratelimited("START: %u CPU(s) offline since INIT_DRIVER, the first CPU %u: not sampled\n",
				      offline, first);
	c->armed = true;
	return 0;
}

int aca_sampler_start(struct aca_collection *coll, const struct acp_config *cfg,
		      bool paused)
{
	const struct acp_event *refused = NULL;
	struct aca_sampling *c;
	int ret;

	lockdep_assert_held(&aca_lock);
	if (!coll->sampling) {
		ret = aca_sampler_configure(coll, cfg);
		if (ret)
			return ret;
	}
	c = coll->sampling;
	if (c->sevs || c->groups)
		return -EBUSY;	/* one START per collection (spec 3.4) */
	ret = aca_take_groups(c, cfg);
	if (ret)
		return ret;
	c->nsev = c->ncpus * c->nevents;
	c->sevs = kvcalloc(c->nsev, sizeof(*c->sevs), GFP_KERNEL);
	if (!c->sevs)
		return -ENOMEM;
	c->lbr = cfg->lbr;
	aca_log_lbr(c, cfg);
	c->counting_mode = acp_counting_mode(cfg);
	aca_switch_policy(c, cfg);
	ret = aca_setup_sevs(coll, cfg);
	if (ret)
		return ret;

	c->nchans = min_t(u32, cfg->ncpus, nr_cpu_ids);
	ret = aca_create_events(coll, c->sw, &refused);
	if (ret && !c->sw && aca_drop_lbrs(c)) {
		/* No LBRs, LBRs taken (PT, BTS), a filter the model lacks. */
		pr_notice_ratelimited("START: perf refused event 0x%llx with a branch stack (%d): sampling without LBRs, LBR areas stay zero\n",
				      refused->config, ret);
		ret = aca_create_events(coll, false, &refused);
	}
	if (ret && c->counting_mode) {
		pr_notice_ratelimited("START: counting mode: perf refused %s event 0x%llx (%d); software events count without a PMU (aca-host stat -e task-clock)\n",
				      refused->software ? "software" : "PMU",
				      refused->config, ret);
		return ret;
	}
	/* cpu-clock stands in for a refused core PMU event, not an IBS one. */
	if (ret && !c->sw && aca_sw_clock && !refused->pmu_type) {
		/* Without any PMU, the load-time probe has said it once. */
		if (aca_machine_has_pmu())
			pr_notice_ratelimited("the PMU refused event 0x%llx (%d): sampling with cpu-clock at the requested rate instead\n",
					      refused->config, ret);
		c->sw = true;
		aca_log_lbr(c, cfg);
		ret = aca_create_events(coll, true, &refused);
	}
	if (ret) {
		pr_notice_ratelimited("START: cannot create the sampling events (%d)\n",
				      ret);
		return ret;
	}
	aca_log_pebs(c);
	c->paused = paused;
	c->read_tsc = aca_tsc_now();
	if (!paused)
		aca_enable(c, true);
	aca_watch_start(coll);
	/* [ACA-EXT] Counting mode's timer, its records on the CPU channels. */
	c->emon_ms = c->counting_mode && cfg->drv.emon_timer_interval > 0 ?
		     cfg->drv.emon_timer_interval : 0;
	if (c->emon_ms)
		aca_emon_start(coll);
	/* Counting mode's groups switch on READ_SWITCH_GROUP only. */
	if (c->switch_ms)
		mod_delayed_work(system_wq, &coll->mux,
				 msecs_to_jiffies(c->switch_ms));
	return 0;
}

/* The local API's START (local.c): @cpu_clock samples with cpu-clock only. */
int aca_sampler_start_local(struct aca_collection *coll,
			    const struct acp_config *cfg, bool cpu_clock)
{
	int ret;

	if (coll->sampling && !coll->sampling->sevs)
		coll->sampling->sw = cpu_clock;
	ret = aca_sampler_start(coll, cfg, false);
	if (!ret)
		aca_inject_started(coll);
	return ret;
}

/*
 * STOP: no sample is written after this; the rings stay to be read. It
 * returns once every event is released and their handlers are done
 * (aca_release_events()): the core finalizes the rings after it (finalize),
 * and a session's end frees them (finish) right after it.
 */
void aca_sampler_stop(struct aca_collection *coll)
{
	struct aca_sampling *c = coll->sampling;

	lockdep_assert_held(&aca_lock);
	if (c && c->armed) {
		/*
		 * The EMON timer's last record: what was counted since its
		 * previous, paused or not (a pause keeps what counted before it).
		 */
		if (c->emon_ms)
			aca_emon_write(c);
		aca_enable(c, false);
		aca_release_events(c);
	}
}

void aca_sampler_pause(struct aca_collection *coll, bool pause)
{
	struct aca_sampling *c = coll->sampling;

	lockdep_assert_held(&aca_lock);
	if (c && c->armed) {
		/*
		 * A CPU got to switch_samples and the switch work found the
		 * group paused: the next one resumes (a switch while paused).
		 */
		if (!pause && c->paused && c->switch_samples && aca_samples_reached(c))
			aca_switch_group(coll);
		c->paused = pause;
		aca_enable(c, !pause);
	}
}

struct aca_ring *aca_sampler_ring(struct aca_collection *coll, u32 cpu)
{
	struct aca_sampling *c = coll->sampling;

	return c && cpu < nr_cpu_ids ? c->rings[cpu] : NULL;
}

/* Some event of @c is a core PMU one, for which cpu-clock may stand in. */
static bool aca_has_core_events(const struct aca_sampling *c)
{
	for (u32 i = 0; i < c->nevents; i++)
		if (!c->events[i].software && !c->events[i].pmu_type)
			return true;
	return false;
}

/* @cpu samples a core PMU event with cpu-clock (IBS and software events never do). */
bool aca_cpu_clock_core(struct aca_collection *coll, u32 cpu)
{
	struct aca_sampling *c = coll->sampling;

	lockdep_assert_held(&aca_lock);
	return c && cpu < nr_cpu_ids && aca_cpu_clock(c, cpu) && aca_has_core_events(c);
}

void aca_sampler_counts(void *ctx, u32 cpu, u64 *written, u64 *dropped)
{
	struct aca_ring *r = aca_sampler_ring(ctx, cpu);

	*written = 0;
	*dropped = 0;
	if (r)
		aca_ring_counts(r, written, dropped);
}

/*
 * A collection's sampling, before any session: its works, the hotplug
 * callbacks, the collection file and, in a test build, the fault injector
 * beside it in debugfs.
 */
int aca_sampler_init(struct aca_collection *coll)
{
	int ret;

	mutex_init(&coll->sampling_lock);
	aca_mux_init(coll);
	aca_emon_init(coll);
	ret = aca_hotplug_init(coll);
	if (ret)
		return ret;
	/* Optional, as debugfs is: without it only these files are missing. */
	aca_collection_file_init(coll);
	aca_inject_init(coll);
	return 0;
}

/* After the device is gone: no session exists, no handler can run. */
void aca_sampler_exit(struct aca_collection *coll)
{
	aca_collection_file_exit(coll);
	aca_hotplug_exit(coll);
	aca_emon_exit(coll);
	aca_mux_exit(coll);
	mutex_destroy(&coll->sampling_lock);
}
