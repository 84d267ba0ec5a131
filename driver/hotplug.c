// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU hotplug during a collection's sampling (sampler.c has the rest of
 * it): a CPU back online gets its events anew (the replug), and the watch
 * finds events that stopped sampling and mends their CPU.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "collection.h"
#include "core/core.h"
#include "events.h"
#include "hotplug.h"
#include "params.h"
#include "sampler.h"
#include "target.h"

/*
 * CPU hotplug, without cpus_read_lock() around perf calls: perf takes the
 * hotplug lock itself inside them (a software event's
 * perf_swevent_init() and sw_perf_event_destroy() through
 * static_key_slow_inc()/dec(), the first branch-stack event through
 * static_branch_enable()), and a percpu-rwsem reader that takes it again
 * waits behind a pending writer: a deadlock with the hotplug of any CPU.
 * Instead, aca keeps its own view, struct aca_hotplug of the collection
 * (coll->hp), under its lock:
 *  - @up: the CPUs between aca's online callback (at
 *    CPUHP_AP_ONLINE_DYN, after perf's own at CPUHP_AP_PERF_ONLINE) and
 *    its teardown (before perf's); aca_cpu_up() asks it. Where perf
 *    refuses a CPU's event for being offline
 *    (perf_event_create_kernel_counter(): -ENODEV, decided under the CPU
 *    context's mutex that its hotplug callbacks take), aca's teardown has
 *    run before, so the CPU is out of @up, or its online callback has run
 *    since, and the CPU is in @replug.
 *  - @replug: online again and waiting for its
 *    events: the replug work (below) makes them under aca_lock, after
 *    whatever held aca_lock when the CPU came back (START, the watch) is
 *    done.
 * A CPU whose events fail while in neither state of "up and settled"
 * (aca_cpu_raced()) lost a race with hotplug, not a PMU: it gets its
 * events when it is back. Events made just before a CPU goes down are
 * taken off it by perf (OFF state, out of its context) and made anew when
 * it comes back.
 */

/* Whether @cpu is online as aca and perf know it. */
bool aca_cpu_up(struct aca_hotplug *hp, u32 cpu)
{
	bool up;

	spin_lock(&hp->lock);
	up = cpumask_test_cpu(cpu, &hp->up);
	spin_unlock(&hp->lock);
	return up;
}

/* Whether @cpu is offline, or back and waiting for the replug work. */
bool aca_cpu_raced(struct aca_hotplug *hp, u32 cpu)
{
	bool raced;

	spin_lock(&hp->lock);
	raced = !cpumask_test_cpu(cpu, &hp->up) ||
		cpumask_test_cpu(cpu, &hp->replug);
	spin_unlock(&hp->lock);
	return raced;
}

/*
 * Under aca_lock (no cpus_read_lock(): see "without cpus_read_lock()"
 * above): @cpu's events made anew. -EAGAIN: the CPU is offline, or went
 * down meanwhile; it gets them when it is back (the replug work).
 */
static int aca_recreate_cpu(struct aca_collection *coll, u32 cpu)
{
	struct aca_sampling *c = coll->sampling;
	struct aca_sev *s;
	int ret = 0;

	lockdep_assert_held(&aca_lock);
	for (s = c->sevs; s < c->sevs + c->nsev; s++)
		if (s->cpu == cpu)
			aca_release_sev(c, s);
	/* The old events' handlers are done before their aca_sev are reused. */
	aca_handlers_done(c);
	if (!aca_cpu_up(&coll->hp, cpu))
		return -EAGAIN;
	for (s = c->sevs; !ret && s < c->sevs + c->nsev; s++) {
		if (s->cpu != cpu)
			continue;
		ret = aca_create_event(s, cpu, &c->events[s->event],
				       aca_cpu_clock(c, cpu), c->counting_mode);
		if (!ret && !c->paused && s->group == c->active)
			perf_event_enable(s->pe);
	}
	if (!ret)
		return 0;
	/* All of the CPU's events or none: a part would pass for the whole. */
	for (s = c->sevs; s < c->sevs + c->nsev; s++)
		if (s->cpu == cpu)
			aca_release_sev(c, s);
	aca_handlers_done(c);
	return aca_cpu_raced(&coll->hp, cpu) ? -EAGAIN : ret;
}

/*
 * CPU hotplug during a collection: perf takes a CPU's events off it when it
 * goes offline and never puts them back, so a CPU that comes back online
 * gets new ones (a CPU offline at START gets its first ones). The hotplug
 * callbacks run under the hotplug lock, which perf takes inside aca_lock
 * (in event creation and release: see "without cpus_read_lock()"
 * above): they only mark the CPU (@up, @replug) and leave the work to a
 * work item, which takes aca_lock as START does.
 *
 * The callbacks' state and their view: the module's one entry point from
 * CPU hotplug. aca_hp is set before the callbacks are registered, at the
 * collection's creation (the module's load), and the callbacks are
 * removed before the collection goes (the unload); cpuhp has no instance
 * argument for a state but its multi-instance one, whose adding under the
 * hotplug lock is not exported.
 */
static enum cpuhp_state aca_cpuhp;
static struct aca_hotplug *aca_hp;

static int aca_cpu_online(unsigned int cpu)
{
	struct aca_hotplug *hp = aca_hp;

	spin_lock(&hp->lock);
	cpumask_set_cpu(cpu, &hp->up);
	cpumask_set_cpu(cpu, &hp->replug);
	spin_unlock(&hp->lock);
	schedule_work(&hp->replug_work);
	return 0;
}

/* Before perf's own teardown: see @up, "without cpus_read_lock()" above. */
static int aca_cpu_offline(unsigned int cpu)
{
	struct aca_hotplug *hp = aca_hp;

	spin_lock(&hp->lock);
	cpumask_clear_cpu(cpu, &hp->up);
	cpumask_clear_cpu(cpu, &hp->replug);
	spin_unlock(&hp->lock);
	return 0;
}

/* Whether @cpu is back online and waiting for its events; @take: clear it. */
static bool aca_replug_pending(struct aca_hotplug *hp, u32 cpu, bool take)
{
	bool was;

	spin_lock(&hp->lock);
	was = take ? cpumask_test_and_clear_cpu(cpu, &hp->replug) :
		     cpumask_test_cpu(cpu, &hp->replug);
	spin_unlock(&hp->lock);
	return was;
}

/* Under aca_lock: new events for @cpu of the running collection. */
static void aca_replug_cpu(struct aca_collection *coll, u32 cpu)
{
	struct aca_sampling *c = coll->sampling;
	int ret;

	lockdep_assert_held(&aca_lock);
	if (!c || !c->armed || !c->rings[cpu])
		return;
	ret = aca_recreate_cpu(coll, cpu);
	if (ret == -EAGAIN)
		return;	/* down again: its events come when it is back */
	if (ret)
		pr_notice("CPU %u is back online but its events cannot be created (%d): not sampled\n",
			  cpu, ret);
	else
		pr_info("CPU %u is back online: sampled again\n", cpu);
}

static void aca_replug_fn(struct work_struct *work)
{
	struct aca_collection *coll = container_of(work, struct aca_collection,
						   hp.replug_work);

	mutex_lock(&aca_lock);
	for (u32 cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (aca_replug_pending(&coll->hp, cpu, true))
			aca_replug_cpu(coll, cpu);
	mutex_unlock(&aca_lock);
}

/*
 * Events that stop sampling. perf puts a pinned event that cannot get a
 * counter when it is scheduled in (counters taken by pinned users older
 * than it, such as the NMI watchdog, or more events than counters; at
 * START, at resume or when a CPU comes back) in ERROR state and leaves it
 * there, sampling nothing and saying nothing. Right after START and then
 * every ACA_WATCH_MS while the collection samples, every event of the
 * sampling group on an online CPU is checked (the others are off by
 * design): one below INACTIVE (in error, or off without the sampler
 * having turned it off) gets all its CPU's events made anew, every
 * group's, with
 * cpu-clock at the requested rate for the rest of the collection if it was
 * a PMU event and sw_clock allows, and a rate-limited log line. The
 * collection file counts it in the CPU's errors; after ACA_WATCH_RETRIES a
 * CPU is left as it is.
 */
#define ACA_WATCH_RETRIES	8

/* The first event of @cpu's sampling group that is not sampling, or NULL. */
static struct aca_sev *aca_cpu_failed(struct aca_sampling *c,
				      struct aca_sev *first)
{
	const struct aca_group *g = &c->groups[c->active];

	for (struct aca_sev *s = first + g->first;
	     s < first + g->first + g->nevents; s++)
		if (s->pe && READ_ONCE(s->pe->state) < PERF_EVENT_STATE_INACTIVE)
			return s;
	return NULL;
}

/* Under aca_lock: mend the CPU of @first, whose @bad failed. */
static void aca_mend_cpu(struct aca_collection *coll, struct aca_sev *first,
			 struct aca_sev *bad)
{
	struct aca_sampling *c = coll->sampling;
	u32 cpu = first->cpu, errors = c->errors[cpu] + 1;
	int state = READ_ONCE(bad->pe->state);
	const struct acp_event *e = &c->events[bad->event];
	bool was_clock = aca_cpu_clock(c, cpu);
	/*
	 * Counts of cpu-clock would pass for the event's: counting mode mends
	 * only. cpu-clock stands in for core PMU events only: an IBS event
	 * in error (one per CPU: another user holds IBS) stays IBS.
	 */
	bool to_clock = !was_clock && aca_sw_clock && !c->counting_mode &&
			!e->software && !e->pmu_type;
	const char *what = e->software ? "software" : e->pmu_type ? "IBS" :
			   was_clock ? "cpu-clock for" : "PMU";
	const char *held = e->pmu_type ? "another user holds IBS, which takes one event a CPU" :
					 "pinned users before it hold them";
	const char *done;
	int ret;

	WRITE_ONCE(c->errors[cpu], errors);
	if (to_clock)
		set_bit(cpu, c->sw_cpus);
	ret = aca_recreate_cpu(coll, cpu);
	if (ret == -EAGAIN) {
		/* It was going down: no failure; its events come when it is back. */
		WRITE_ONCE(c->errors[cpu], errors - 1);
		if (to_clock)
			clear_bit(cpu, c->sw_cpus);
		return;
	}
	if (ret)
		done = c->counting_mode ? "it cannot be made anew: CPU not counted" :
					  "it cannot be made anew: CPU not sampled";
	else if (to_clock)
		done = "sampling this CPU with cpu-clock at the requested rate instead";
	else if (errors < ACA_WATCH_RETRIES)
		done = "made anew";
	else
		done = "made anew for the last time";
	if (state == PERF_EVENT_STATE_ERROR)
		pr_notice_ratelimited("CPU %u: %s event 0x%llx is in error state (a pinned event that got no counter: %s); %s\n",
				      cpu, what, e->config, held, done);
	else
		pr_notice_ratelimited("CPU %u: %s event 0x%llx is not %s (perf state %d, not turned off by aca); %s\n",
				      cpu, what, e->config,
				      c->counting_mode ? "counting" : "sampling", state, done);
}

void aca_watch_events(struct aca_collection *coll)
{
	struct aca_sampling *c = coll->sampling;
	struct aca_sev *first, *bad;
	u32 cpu;

	lockdep_assert_held(&aca_lock);
	if (!c || !c->armed || c->paused || !c->nevents)
		return;
	for (first = c->sevs; first < c->sevs + c->nsev; first += c->nevents) {
		cpu = first->cpu;
		if (c->errors[cpu] >= ACA_WATCH_RETRIES)
			continue;
		/*
		 * A CPU offline, or back and not yet replugged, is not failed
		 * (no cpus_read_lock(): see "without cpus_read_lock()"
		 * above).
		 */
		bad = !aca_cpu_raced(&coll->hp, cpu) ? aca_cpu_failed(c, first) : NULL;
		if (bad)
			aca_mend_cpu(coll, first, bad);
	}
}

static void aca_watch_fn(struct work_struct *work)
{
	struct aca_collection *coll = container_of(to_delayed_work(work),
						   struct aca_collection, hp.watch);
	bool again;

	mutex_lock(&aca_lock);
	aca_watch_events(coll);
	again = coll->sampling && coll->sampling->armed;
	mutex_unlock(&aca_lock);
	if (again)
		schedule_delayed_work(&coll->hp.watch, msecs_to_jiffies(ACA_WATCH_MS));
}

/* START: the events checked at once, then every ACA_WATCH_MS. */
void aca_watch_start(struct aca_collection *coll)
{
	aca_watch_events(coll);
	schedule_delayed_work(&coll->hp.watch, msecs_to_jiffies(ACA_WATCH_MS));
}

/* The hotplug callbacks: 0, or a negative error. */
int aca_hotplug_init(struct aca_collection *coll)
{
	struct aca_hotplug *hp = &coll->hp;
	int ret;

	spin_lock_init(&hp->lock);
	INIT_WORK(&hp->replug_work, aca_replug_fn);
	INIT_DELAYED_WORK(&hp->watch, aca_watch_fn);
	aca_hp = hp;
	/*
	 * No CPU is half-way up or down while the hotplug lock is held:
	 * every online one is up as perf knows it (@up).
	 */
	cpus_read_lock();
	cpumask_copy(&hp->up, cpu_online_mask);
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN, "aca:online",
						   aca_cpu_online, aca_cpu_offline);
	cpus_read_unlock();
	if (ret < 0) {
		aca_hp = NULL;
		return ret;
	}
	aca_cpuhp = ret;
	return 0;
}

/* No callback runs after this, and no work it queued. */
void aca_hotplug_exit(struct aca_collection *coll)
{
	cpuhp_remove_state_nocalls(aca_cpuhp);
	aca_hp = NULL;
	cancel_work_sync(&coll->hp.replug_work);
	cancel_delayed_work_sync(&coll->hp.watch);
}
