// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sampling's perf events, one pinned counter per event of every
 * configured group on every CPU with a ring (sampler.c makes them): their
 * attributes and periods, their creation with the overflow handler
 * (overflow.c), and their release, after which no call of the handler is
 * still running. And the load-time probe of the PMU (machine.c keeps what
 * it found).
 */
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/perf_regs.h>

#include "core/core.h"
#include "events.h"
#include "overflow.h"
#include "params.h"
#include "sampler.h"
#include "tsc.h"

/*
 * cpu-clock period giving the rate the host asked for: REF_TSC counts at
 * the TSC rate, so sample_after TSC ticks last sample_after / tsc_hz s.
 * Other events are assumed to count at the TSC rate too (an approximation:
 * there is nothing to count them with). Never faster than max_sample_rate.
 */
/*
 * Counters are at most 48 bits wide; a larger sample-after value is
 * clamped, and must be: a period with bit 63 set is negative to x86
 * perf's s64 arithmetic (perf_event_open() refuses it, the in-kernel API
 * does not), and sample_after * 1e9 / tsc_hz overflows the divide (a #DE
 * on x86) when the TSC runs below 1 GHz. The protocol core refuses such
 * values already (ACP_COUNTER_MASK); this holds whatever the caller.
 */
#define ACA_MAX_SAMPLE_AFTER	ACP_COUNTER_MASK

static u64 aca_sw_period(u64 sample_after)
{
	u64 ns = mul_u64_u64_div_u64(min(sample_after, ACA_MAX_SAMPLE_AFTER),
				     NSEC_PER_SEC, aca_tsc_hz());

	return max_t(u64, ns, NSEC_PER_SEC / aca_max_sample_rate);
}

/*
 * PMU periods: at most the counter width, and no faster than
 * max_sample_rate assuming TSC-rate counting (which also makes them >= 1).
 */
static u64 aca_hw_period(u64 sample_after)
{
	return max_t(u64, min(sample_after, ACA_MAX_SAMPLE_AFTER),
		     div_u64(aca_tsc_hz(), aca_max_sample_rate));
}

/* The PEBS record's registers, in perf_regs' numbering. */
#define ACA_PEBS_REGS	(GENMASK_ULL(PERF_REG_X86_SP, PERF_REG_X86_AX) | \
			 GENMASK_ULL(PERF_REG_X86_R15, PERF_REG_X86_R8))

/*
 * Lifetimes at the perf boundary. perf_event_release_kernel() takes an
 * event off its CPU (a cross-call to it, or directly when the CPU is
 * offline), so that no new call of its handler begins; a call already
 * begun may still be running, and perf frees its own event only after an
 * RCU grace period (call_rcu()). An [ACA-EXT] software event's handler
 * runs in task context with interrupts on (__perf_sw_event() disables
 * preemption only; do_perf_sw_event() walks the CPU's events under
 * rcu_read_lock()), so the cross-call that takes the event off
 * (perf_swevent_del(): hlist_del_rcu()) can interrupt it, and it resumes
 * after the release has returned, with preempt=full and on PREEMPT_RT.
 * Kernels with upstream's "perf: Fix __perf_event_overflow() vs
 * perf_remove_from_context() race" (6.1.167, 6.12.77 and later, Debian's
 * current 6.1 and 6.12 among them) call the handler with interrupts off
 * and skip an event no longer active, which closes that window; aca
 * builds against older ones too, so it does not rely on it. Every call of
 * aca_overflow() (overflow.c) is inside an RCU read-side critical section:
 * a software event's under rcu_read_lock() with preemption off,
 * cpu-clock's in its hrtimer's hard IRQ, a PMU event's in its NMI (or in
 * the cross-call, a large PEBS buffer's drain), with interrupts off, which
 * a grace period waits for too (RCU's flavours are one since 4.20,
 * PREEMPT_RT included). So once every event that used an aca_sev is
 * released and synchronize_rcu() has returned (aca_handlers_done()), no
 * call that may touch it, its ring, its scratch record or the trigger
 * counts is still running: only then are they reused (aca_recreate_cpu()),
 * finalized (STOP: aca_sampler_stop() returns after it, before the core
 * finalizes the rings) or freed (aca_sampling_free()). A ring's wake-up
 * that a handler queued before is waited for by aca_ring_put().
 */
void aca_release_sev(struct aca_sampling *c, struct aca_sev *s)
{
	if (!s->pe)
		return;
	perf_event_release_kernel(s->pe);
	s->pe = NULL;
	c->unsynced = true;
}

/* Process context: no handler call of a released event is still running. */
void aca_handlers_done(struct aca_sampling *c)
{
	might_sleep();
	if (!c->unsynced)
		return;
	synchronize_rcu();
	c->unsynced = false;
}

/* Every event released, and their handlers done. */
void aca_release_events(struct aca_sampling *c)
{
	for (u32 i = 0; c->sevs && i < c->nsev; i++)
		aca_release_sev(c, &c->sevs[i]);
	c->armed = false;
	aca_handlers_done(c);
}

/*
 * [ACA-EXT] IBS (spec 6.12): its own PMU, with or without a core PMU; it
 * filters no ring (PERF_PMU_CAP_NO_EXCLUDE) and takes periods in units of
 * 16.
 */
static void aca_ibs_attr(struct perf_event_attr *attr, const struct acp_event *e)
{
	attr->type = e->pmu_type;
	attr->config = e->config;
	attr->sample_period = round_up(aca_hw_period(e->period), 16);
	attr->exclude_hv = 0;
}

/* [ACA-EXT] An ECB's software event: counts of its own unit. */
static void aca_software_attr(struct perf_event_attr *attr,
			      const struct acp_event *e)
{
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = e->config;
	attr->sample_period = e->period;
	/* The clocks count ns: no faster than max_sample_rate. */
	if (e->config == PERF_COUNT_SW_CPU_CLOCK ||
	    e->config == PERF_COUNT_SW_TASK_CLOCK)
		attr->sample_period = max_t(u64, e->period,
					    NSEC_PER_SEC / aca_max_sample_rate);
}

/* cpu-clock standing in for a core PMU event, at the rate it asked for. */
static void aca_cpu_clock_attr(struct perf_event_attr *attr,
			       const struct acp_event *e)
{
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	attr->sample_period = aca_sw_period(e->period);
	/* REF_TSC and core cycles do not count while halted. */
	attr->exclude_idle = 1;
}

/* A core PMU event, precise or not, with its PEBS record and branch stack. */
static void aca_pmu_attr(struct perf_event_attr *attr, const struct aca_sev *s,
			 const struct acp_event *e)
{
	attr->type = PERF_TYPE_RAW;
	attr->config = e->config;
	attr->config1 = e->config1;
	attr->sample_period = aca_hw_period(e->period);
	attr->precise_ip = e->precise ? 1 : 0;
	if (s->pebs_record) {
		/*
		 * The record's registers, address and latency, from PEBS,
		 * one record a PMI (wakeup_events, below): the handler's TSC
		 * and task are the sample's.
		 */
		attr->sample_type |= PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_ADDR |
				     PERF_SAMPLE_WEIGHT;
		attr->sample_regs_intr = ACA_PEBS_REGS;
		/* perf's IP is then the eventing one (formats 2 on: exact). */
		if (s->pebs_areas.eventing_ip_offset)
			attr->precise_ip = 2;
	}
	/*
	 * Without a wakeup per sample, x86 batches precise samples in a large
	 * PEBS buffer (a sample_type within its flags, no frequency) and
	 * hands each to the handler at the drain, with registers rebuilt from
	 * it: no stack to walk, and the handler's TSC and task the drain's,
	 * not the sample's. Every precise event takes one PMI a sample.
	 */
	if (e->precise)
		attr->wakeup_events = 1;
	if (s->lbr_regs && e->branch_type) {
		attr->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr->branch_sample_type = e->branch_type;
	}
}

/*
 * @s's counter on @cpu for @e, disabled: IBS, an ECB's software event,
 * cpu-clock in its stead (@sw) or the core PMU event; counting only with
 * @count.
 */
int aca_create_event(struct aca_sev *s, int cpu,
		     const struct acp_event *e, bool sw, bool count)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.pinned = 1,
		.disabled = 1,
		.exclude_user = e->exclude_user,
		.exclude_kernel = e->exclude_kernel,
		.exclude_hv = 1,
	};
	struct perf_event *pe;

	/* A precise or IBS sample's IP is the instruction's, not regs' own. */
	s->pebs = e->pmu_type || (!sw && e->precise && !e->software);
	s->pebs_record = !sw && e->precise && !e->software && !e->pmu_type && s->pebs_end;
	s->load_latency = e->load_latency;
	s->read = 0;
	if (e->pmu_type)
		aca_ibs_attr(&attr, e);
	else if (e->software)
		aca_software_attr(&attr, e);
	else if (sw)
		aca_cpu_clock_attr(&attr, e);
	else
		aca_pmu_attr(&attr, s, e);
	if (count) {
		attr.sample_period = 0;
		attr.precise_ip = 0;
	}
	pe = perf_event_create_kernel_counter(&attr, cpu, NULL,
					      count ? NULL : aca_overflow, s);
	if (IS_ERR(pe))
		return PTR_ERR(pe);
	/*
	 * The type was looked up when the host configured the event: a PMU
	 * module unloaded since frees it, and the next PMU registered may
	 * take it. No kernel API makes an event of a PMU by name: the event
	 * is made disabled and released here unless its PMU is the one
	 * named, so another PMU's event_init() sees the configuration (and
	 * checks it as for any perf_event_open()), but nothing of it runs.
	 */
	if (e->pmu_type && strcmp(pe->pmu->name ?: "", acp_ibs_pmu_name(e) ?: "")) {
		pr_notice_ratelimited("START: perf type %u is PMU %s now, not %s: its module was reloaded since the configuration; configure again\n",
				      e->pmu_type, pe->pmu->name, acp_ibs_pmu_name(e) ?: "?");
		perf_event_release_kernel(pe);
		return -ENODEV;
	}
	s->pe = pe;
	return 0;
}

/*
 * Whether the PMU can sample at all, so hosts learn before START that the
 * cpu-clock fallback will be used (GET_DRV_SETUP_INFO): one disabled
 * cycles counter, created and released at load (aca_machine_init()).
 * Returns 0, or perf's error.
 */
int aca_probe_pmu(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.size = sizeof(attr),
		.sample_period = NSEC_PER_SEC,
		.pinned = 1,
		.disabled = 1,
	};
	struct perf_event *pe;
	int cpu = get_cpu();

	put_cpu();
	pe = perf_event_create_kernel_counter(&attr, cpu, NULL, aca_overflow,
					      NULL);
	if (IS_ERR(pe))
		return PTR_ERR(pe);
	perf_event_release_kernel(pe);
	return 0;
}
