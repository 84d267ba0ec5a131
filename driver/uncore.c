// SPDX-License-Identifier: GPL-2.0-only
/*
 * Uncore counting (spec 7.2): a collection's uncore events (the core's
 * translation of uncore ECBs for the target's uncore perf PMUs, pmus.c,
 * core/uncore.c), counted once per die and read every unc_timer_interval
 * ms into uncore records on the uncore channel's ring.
 *
 * A collection's counters are per die (Linux's uncore boxes are; a
 * Skylake-SP has one per package), on the die's first online CPU at
 * START. The worker is the uncore ring's one producer until STOP, which
 * cancels it, writes the last round itself and finalizes the ring: each
 * round reads every counter (perf_event_read_value(), a cross-call to
 * its CPU) and writes one record per device and die.
 */
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "core/core.h"
#include "params.h"
#include "pmus.h"
#include "ring.h"
#include "target.h"
#include "tsc.h"
#include "uncore.h"

#define ACA_UNC_RING_PAGES_MIN	16
/* unc_timer_interval: 0 is the default; each round costs a cross-call per counter. */
#define ACA_UNC_DEFAULT_MS	10
#define ACA_UNC_MIN_MS		10
#define ACA_UNC_MAX_MS		60000

/* ---- a collection's uncore counters ---- */

struct aca_uncore {
	struct aca_ring *ring;		/* the uncore channel's */
	struct aca_unc_event_set {
		struct acp_unc_event *evs;	/* a copy of the configuration's */
		u32 nevs, nunits, ndevices;
		int *unit_cpu;			/* die -> the CPU its counters are on, or -1 */
		struct perf_event **pe;		/* [die * nevs + i], NULL: not counted there */
		bool *lost;			/* [die * nevs + i]: once found not counting */
		u32 *rec_size;			/* device -> its records' size */
		u8 *rec;			/* the round's record */
	} set;
	unsigned int period_ms;
	/*
	 * A round and PAUSE or RESUME exclude each other: a round that read
	 * a counter off while RESUME was still turning it on (or PAUSE
	 * turning it off) would take it for lost for the rest of the
	 * collection.
	 */
	struct mutex round_lock;
	bool paused;			/* under aca_lock and round_lock */
	bool stopping;
	struct delayed_work work;
};

/*
 * Counter @k stopped counting while @counting: perf put it in error (a
 * pinned event it could not schedule) or off (its CPU went offline). Its
 * count no longer covers the collection, whatever comes after.
 */
static bool aca_unc_lost(const struct aca_unc_event_set *set, u32 k, bool counting)
{
	if (counting && READ_ONCE(set->pe[k]->state) < PERF_EVENT_STATE_INACTIVE)
		set->lost[k] = true;
	return set->lost[k];
}

/*
 * One round: a record per device and die, each counter's count since
 * START; @counting: not paused (a paused counter is off by design).
 */
static void aca_unc_round(struct aca_uncore *u, bool counting)
{
	const struct aca_unc_event_set *set = &u->set;
	u64 tsc = aca_tsc_now();

	for (u32 unit = 0; unit < set->nunits; unit++) {
		if (set->unit_cpu[unit] < 0)
			continue;
		for (u32 d = 0; d < set->ndevices; d++) {
			struct sep_unc_record_head *h = (void *)set->rec;
			u32 size = set->rec_size[d];
			bool any = false, valid = true;

			memset(set->rec, 0, size);
			for (u32 i = 0; i < set->nevs; i++) {
				const struct acp_unc_event *e = &set->evs[i];
				u32 k = unit * set->nevs + i;
				struct perf_event *pe = set->pe[k];
				u64 enabled = 0, running = 0, count = 0;

				if (e->device != d)
					continue;
				any = true;
				/* The one uncore group: group + 1. */
				*(u64 *)(set->rec + e->group_offset) = 1;
				h->descriptor_id = e->desc_id;
				if (pe)
					count = perf_event_read_value(pe, &enabled, &running);
				/* Not counted all along (no such box here, or not scheduled). */
				valid &= pe && !aca_unc_lost(set, k, counting) &&
					 running == enabled;
				/* The core checked both: aligned U64s after the head. */
				*(u64 *)(set->rec + e->record_offset) = count;
			}
			if (!any)
				continue;
			h->cpu_num = set->unit_cpu[unit];
			h->pkg_num = unit;
			h->flags = valid ? SEP_UNC_RECORD_VALID : 0;
			h->tsc = tsc;
			aca_ring_write(u->ring, set->rec, size, size);
		}
	}
}

static void aca_unc_work(struct work_struct *work)
{
	struct aca_uncore *u = container_of(to_delayed_work(work), struct aca_uncore, work);

	mutex_lock(&u->round_lock);
	if (!u->paused)
		aca_unc_round(u, true);
	mutex_unlock(&u->round_lock);
	if (!READ_ONCE(u->stopping))
		queue_delayed_work(system_unbound_wq, &u->work, msecs_to_jiffies(u->period_ms));
}

/* The counters released and the set emptied: nothing counts, nothing is held. */
static void aca_unc_set_free(struct aca_unc_event_set *set)
{
	for (u32 i = 0; set->pe && i < set->nunits * set->nevs; i++)
		if (set->pe[i])
			perf_event_release_kernel(set->pe[i]);
	kfree(set->pe);
	kfree(set->lost);
	kfree(set->evs);
	kfree(set->unit_cpu);
	kfree(set->rec_size);
	kfree(set->rec);
	memset(set, 0, sizeof(*set));
}

/* The worker stopped for good: it re-arms itself until it sees @stopping. */
static void aca_unc_halt(struct aca_uncore *u)
{
	WRITE_ONCE(u->stopping, true);
	cancel_delayed_work_sync(&u->work);
}

static void aca_unc_free(struct aca_uncore *u)
{
	if (!u)
		return;
	aca_unc_set_free(&u->set);
	if (u->ring) {
		aca_ring_detach(u->ring);
		aca_ring_put(u->ring);
	}
	mutex_destroy(&u->round_lock);
	kfree(u);
}

/*
 * INIT_DRIVER (sampling mode, a target with uncore PMUs): the uncore
 * channel's ring, there before its reader binds it, ring_pages like a
 * CPU's; the counters come at START.
 */
int aca_uncore_configure(struct aca_uncore **unc, const struct acp_config *cfg)
{
	unsigned int pages = max_t(unsigned int, READ_ONCE(aca_ring_pages), ACA_UNC_RING_PAGES_MIN);
	struct aca_uncore *u;

	lockdep_assert_held(&aca_lock);
	aca_uncore_finish(unc);
	if (acp_counting_mode(cfg) || !aca_pmus_have("uncore_"))
		return 0;
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	mutex_init(&u->round_lock);
	INIT_DELAYED_WORK(&u->work, aca_unc_work);
	u->ring = aca_ring_alloc(pages, NUMA_NO_NODE);
	if (!u->ring) {
		mutex_destroy(&u->round_lock);
		kfree(u);
		return -ENOMEM;
	}
	*unc = u;
	return 0;
}

/* Each online die's first CPU (Linux's uncore boxes are per die). */
static int aca_unc_units(struct aca_unc_event_set *set)
{
	int cpu;

	set->nunits = 0;
	for_each_online_cpu(cpu)
		set->nunits = max_t(u32, set->nunits, topology_logical_die_id(cpu) + 1);
	set->unit_cpu = kmalloc_array(set->nunits, sizeof(*set->unit_cpu), GFP_KERNEL);
	if (!set->unit_cpu)
		return -ENOMEM;
	for (u32 unit = 0; unit < set->nunits; unit++)
		set->unit_cpu[unit] = -1;
	for_each_online_cpu(cpu) {
		int unit = topology_logical_die_id(cpu);

		if (unit >= 0 && set->unit_cpu[unit] < 0)
			set->unit_cpu[unit] = cpu;
	}
	return 0;
}

/*
 * Counter @i on every die: pinned, so it counts all along or reads as not
 * counted. A die perf refuses it on is logged and left out (its records
 * say not valid); refused on every die, it fails START.
 *
 * The type was looked up when the host configured the event: a PMU module
 * unloaded since frees it, and the next PMU registered may take it. No
 * kernel API makes an event of a PMU by name, so the event is made
 * disabled and its PMU's name checked before it is enabled: another PMU's
 * event_init() sees the configuration (and checks it as for any
 * perf_event_open()), but nothing of it ever counts.
 */
static int aca_unc_create(struct aca_unc_event_set *set, u32 i, bool paused)
{
	const struct acp_unc_event *e = &set->evs[i];
	int ret = -ENODEV;
	u32 made = 0;

	for (u32 unit = 0; unit < set->nunits; unit++) {
		struct perf_event_attr attr = {
			.type = e->type,
			.size = sizeof(attr),
			.config = e->config,
			.config1 = e->config1,
			.pinned = 1,
			.disabled = 1,
		};
		struct perf_event *pe;
		bool replaced;

		if (set->unit_cpu[unit] < 0)
			continue;
		pe = perf_event_create_kernel_counter(&attr, set->unit_cpu[unit], NULL, NULL, NULL);
		replaced = !IS_ERR(pe) && strcmp(pe->pmu->name ?: "", e->pmu);
		if (replaced) {
			pr_notice_ratelimited("START: perf type %u is PMU %s now, not %s: its module was reloaded since the configuration; configure again\n",
					      e->type, pe->pmu->name, e->pmu);
			perf_event_release_kernel(pe);
			pe = ERR_PTR(-ENODEV);
		}
		if (!IS_ERR(pe) && !paused)
			perf_event_enable(pe);
		/* Enabled but not scheduled (the box's counters taken): refused as well. */
		if (!IS_ERR(pe) && READ_ONCE(pe->state) == PERF_EVENT_STATE_ERROR) {
			perf_event_release_kernel(pe);
			pe = ERR_PTR(-EBUSY);
		}
		if (IS_ERR(pe)) {
			ret = PTR_ERR(pe);
			/* A replaced PMU said so above. */
			if (!replaced)
				pr_notice_ratelimited("START: perf refused %s config 0x%llx config1 0x%llx on CPU %d (%d)\n",
						      e->pmu, e->config, e->config1,
						      set->unit_cpu[unit], ret);
			continue;
		}
		set->pe[unit * set->nevs + i] = pe;
		made++;
	}
	return made ? 0 : ret;
}

/* START: a counting event per uncore counter and die, then the worker. */
int aca_uncore_start(struct aca_uncore *u, const struct acp_config *cfg, bool paused)
{
	struct aca_unc_event_set *set;
	u32 rec_max = 0, ms;
	int ret;

	lockdep_assert_held(&aca_lock);
	if (!u || !cfg->nunc)
		return 0;
	set = &u->set;
	aca_unc_set_free(set);	/* empty: a failed START freed its own */
	set->nevs = cfg->nunc;
	set->ndevices = cfg->nunc_devices;
	for (u32 i = 0; i < cfg->nunc; i++)
		rec_max = max_t(u32, rec_max, cfg->unc[i].rec_size);
	set->evs = kmemdup(cfg->unc, cfg->nunc * sizeof(*cfg->unc), GFP_KERNEL);
	set->rec_size = kcalloc(set->ndevices, sizeof(*set->rec_size), GFP_KERNEL);
	set->rec = kzalloc(rec_max, GFP_KERNEL);
	/*
	 * No cpus_read_lock() around perf's calls, which may take it again
	 * (see "without cpus_read_lock()" in hotplug.c): a die's CPU that
	 * goes down before its counter is made gets it refused, as any die
	 * perf refuses (logged, its records not valid); one that goes down
	 * after has its events moved to another CPU of the die by the uncore
	 * PMU itself.
	 */
	ret = set->evs && set->rec_size && set->rec ? aca_unc_units(set) : -ENOMEM;
	if (!ret) {
		set->pe = kcalloc(set->nunits * set->nevs, sizeof(*set->pe), GFP_KERNEL);
		set->lost = kcalloc(set->nunits * set->nevs, sizeof(*set->lost), GFP_KERNEL);
		ret = set->pe && set->lost ? 0 : -ENOMEM;
	}
	for (u32 i = 0; !ret && i < set->nevs; i++) {
		set->rec_size[set->evs[i].device] = set->evs[i].rec_size;
		ret = aca_unc_create(set, i, paused);
	}
	if (ret) {
		aca_unc_set_free(set);
		return ret;
	}
	ms = cfg->drv.unc_timer_interval ?: ACA_UNC_DEFAULT_MS;
	u->period_ms = clamp_t(u32, ms, ACA_UNC_MIN_MS, ACA_UNC_MAX_MS);
	if (u->period_ms != ms)
		pr_notice_ratelimited("uncore: unc_timer_interval %u ms read every %u ms (%u to %u)\n",
				      ms, u->period_ms, ACA_UNC_MIN_MS, ACA_UNC_MAX_MS);
	u->paused = paused;
	u->stopping = false;
	queue_delayed_work(system_unbound_wq, &u->work, msecs_to_jiffies(u->period_ms));
	return 0;
}

/* PAUSE and RESUME: no record while paused; the counts hold meanwhile. */
void aca_uncore_pause(struct aca_uncore *u, bool pause)
{
	struct aca_unc_event_set *set = u ? &u->set : NULL;

	lockdep_assert_held(&aca_lock);
	if (!set || !set->nevs)
		return;
	mutex_lock(&u->round_lock);
	u->paused = pause;
	for (u32 i = 0; i < set->nunits * set->nevs; i++) {
		if (!set->pe[i])
			continue;
		if (pause)
			perf_event_disable(set->pe[i]);
		else
			perf_event_enable(set->pe[i]);
	}
	mutex_unlock(&u->round_lock);
}

/*
 * STOP: the worker stopped, a last round written (paused or not: the
 * counts since the last round are in it), the counters released, the
 * ring final, and what it lost said.
 */
void aca_uncore_stop(struct aca_uncore *u)
{
	u64 written, lost;

	lockdep_assert_held(&aca_lock);
	if (!u)
		return;
	aca_unc_halt(u);
	if (u->set.nevs)
		aca_unc_round(u, !u->paused);
	aca_unc_set_free(&u->set);
	aca_ring_finalize(u->ring);
	aca_ring_counts(u->ring, &written, &lost);
	if (lost)
		pr_notice_ratelimited("uncore: %llu of %llu records lost: the uncore ring was full; %s\n",
				      lost, written + lost,
				      "read the uncore channel while collecting, or load aca with a larger ring_pages");
}

/* Session end: the counters and the ring freed, @unc emptied. */
void aca_uncore_finish(struct aca_uncore **unc)
{
	struct aca_uncore *u = *unc;

	lockdep_assert_held(&aca_lock);
	if (!u)
		return;
	aca_unc_halt(u);
	*unc = NULL;
	aca_unc_free(u);
}

struct aca_ring *aca_uncore_ring(struct aca_uncore *u)
{
	lockdep_assert_held(&aca_lock);
	return u ? u->ring : NULL;
}
