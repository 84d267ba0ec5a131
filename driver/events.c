// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sampling's perf events, one pinned counter per event of every
 * configured group on every CPU with a ring (sampler.c makes them), and
 * their overflow handler, which writes a SampleRecordPC (spec 7.1) into that CPU's ring
 * (ring.c), with its callers, branches and PEBS areas when asked.
 */
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <asm/perf_regs.h>
#include <asm/ptrace.h>
#include <asm/segment.h>

#include "aca.h"
#include "events.h"
#include "sampler.h"
#include "stack.h"

/* The flat 32-bit user code descriptor of __USER32_CS (csd, spec 7.1). */
#define ACA_USER32_CS_DESC	0x00cffb000000ffffull

bool aca_pmu_ok;		/* a hardware counter could be created */

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
 * The PEBS record, from what perf decoded from it and handed the handler:
 * the registers (PERF_SAMPLE_REGS_INTR: perf took them from the record),
 * the data address and, for a load-latency event, the latency.
 */
static void aca_pebs_record(struct acp_pebs_record *p, const struct aca_sev *s,
			    struct perf_event *event, struct perf_sample_data *data,
			    struct pt_regs *regs, u64 tsc)
{
	int idx = event->hw.idx;

	memset(p, 0, sizeof(*p));
	p->flags = regs->flags & ~(u64)PERF_EFLAGS_EXACT;
	/* With precise_ip 2, perf's IP is the eventing one when it says exact. */
	if (s->pebs_areas.eventing_ip_offset && (regs->flags & PERF_EFLAGS_EXACT))
		p->real_ip = instruction_pointer(regs);
	p->ip = instruction_pointer(regs);
	p->gprs[0] = regs->ax;
	p->gprs[1] = regs->bx;
	p->gprs[2] = regs->cx;
	p->gprs[3] = regs->dx;
	p->gprs[4] = regs->si;
	p->gprs[5] = regs->di;
	p->gprs[6] = regs->bp;
	p->gprs[7] = regs->sp;
	p->gprs[8] = regs->r8;
	p->gprs[9] = regs->r9;
	p->gprs[10] = regs->r10;
	p->gprs[11] = regs->r11;
	p->gprs[12] = regs->r12;
	p->gprs[13] = regs->r13;
	p->gprs[14] = regs->r14;
	p->gprs[15] = regs->r15;
	p->status = idx >= 0 && idx < 64 ? BIT_ULL(idx) : 0;
	if (data->sample_flags & PERF_SAMPLE_ADDR)
		p->dla = data->addr;
	if (s->load_latency && (data->sample_flags & PERF_SAMPLE_WEIGHT_TYPE))
		p->lat = data->weight.full;
	p->tsc = tsc;
}

/* SampleRecordPC (spec 7.1) of the context @regs interrupted. */
static void aca_fill_record(struct sep_sample_record_pc *rec,
			    const struct aca_sev *s, struct pt_regs *regs)
{
	bool is64 = any_64bit_mode(regs);
	u32 mode = is64 ? SEP_MODE_64BIT : SEP_MODE_32BIT;

	rec->descriptor_id = s->event_index;
	rec->osid = s->osid;
	if (is64) {
		rec->iip = instruction_pointer(regs);
		/* The CS descriptor's DPL is the interrupted privilege level. */
		/* Without perf's exact marker, reserved bit 3 of RFLAGS. */
		rec->ipsr = (regs->flags & 0xffffffff & ~PERF_EFLAGS_EXACT) |
			    ((u64)(regs->cs & 3) << 32);
	} else {
		rec->eip = (u32)instruction_pointer(regs);
		rec->eflags = (u32)regs->flags & ~PERF_EFLAGS_EXACT;
		if (regs->cs == __USER32_CS) {
			rec->csd_low = (u32)ACA_USER32_CS_DESC;
			rec->csd_high = (u32)(ACA_USER32_CS_DESC >> 32);
		}
	}
	rec->cs = regs->cs;
	rec->cpu_and_os = (smp_processor_id() & SEP_SAMPLE_CPU_NUM_MASK) |
			  ((mode << SEP_SAMPLE_CODE_MODE_SHIFT) &
			   SEP_SAMPLE_CODE_MODE_MASK);
	rec->tid = task_pid_nr(current);
	rec->pid_rec_index = task_tgid_nr(current);
	/* Both ids are raw kernel ids, which the reference never said. */
	rec->bit_fields2 = ((s->event_index << SEP_SAMPLE_EVENT_INDEX_SHIFT) &
			    SEP_SAMPLE_EVENT_INDEX_MASK) |
			   SEP_SAMPLE_TID_IS_RAW | SEP_SAMPLE_PID_REC_INDEX_RAW |
			   (is64 ? SEP_SAMPLE_IA64PC : 0);
	rec->tsc = aca_tsc_sample();
}

/*
 * The callstack area at @area (s->cs_size bytes; past what this returns,
 * zeroed by the ring write, or by aca_overflow() when an LBR area follows):
 * the head, then the callers. Returns the bytes filled.
 */
static u32 aca_fill_callstack(u8 *area, const struct aca_sev *s,
			      struct pt_regs *regs)
{
	struct aca_callstack_head *h = (struct aca_callstack_head *)area;
	struct aca_chain chain = {
		.ips = (u64 *)(h + 1),
		.max = (s->cs_size - sizeof(*h)) / sizeof(u64),
	};

	h->nkernel = s->kernel_stack ? aca_stack_kernel(&chain, regs, s->pebs) : 0;
	h->nuser = s->user_stack ? aca_stack_user(&chain, regs) : 0;
	h->flags = chain.truncated ? ACA_CALLSTACK_TRUNCATED : 0;
	return sizeof(*h) + chain.n * sizeof(u64);
}

/*
 * NMI (PMU), hard-IRQ (cpu-clock), or wherever an [ACA-EXT] software event
 * fires (the scheduler with its locks held, a page fault), with preemption
 * off: no locks, no allocation, no sleeping. A write nested in another on
 * the same ring is lost (ring.c).
 */
static void aca_overflow(struct perf_event *event,
			 struct perf_sample_data *data, struct pt_regs *regs)
{
	struct aca_sev *s = event->overflow_handler_context;
	struct sep_sample_record_pc rec = { 0 };
	struct aca_scratch *sc = s->scratch;
	u8 *buf;
	u32 len;

	if (s->target_pid > 0 && task_tgid_nr(current) != s->target_pid)
		return;
	local64_inc(&s->ring->generated);
	/*
	 * Once: the count stays at trig_at or past it until a switch resets
	 * it, and the switch work, or RESUME when it found the group paused,
	 * switches whenever a CPU's has got there.
	 */
	if (s->trig && atomic_long_inc_return(s->trig) == s->trig_at)
		irq_work_queue(s->kick);
	aca_fill_record(&rec, s, regs);
	if (!(s->cs_size || s->lbr_regs || s->pebs_record) ||
	    local_cmpxchg(&sc->busy, 0, 1) != 0) {
		aca_ring_write(s->ring, &rec, sizeof(rec), s->size);
		return;
	}
	buf = (u8 *)sc->rec;
	memcpy(buf, &rec, sizeof(rec));
	/*
	 * Zero up to the callstack area, and over the LBR area wherever it
	 * lies (the core keeps the two apart); the ring zeroes what follows.
	 */
	len = s->cs_size ? s->cs_offset : sizeof(rec);
	if (s->lbr_regs)
		len = max(len, s->lbr_offset + s->lbr_regs * (u32)sizeof(u64));
	if (s->pebs_record)
		len = max(len, s->pebs_end);
	memset(buf + sizeof(rec), 0, len - sizeof(rec));
	if (s->pebs_record) {
		aca_pebs_record(&sc->pebs, s, event, data, regs, rec.tsc);
		acp_pebs_write(buf, &s->pebs_areas, &sc->pebs);
	}
	if (s->lbr_regs && (data->sample_flags & PERF_SAMPLE_BRANCH_STACK) && data->br_stack)
		acp_lbr_fill((u64 *)(buf + s->lbr_offset), s->lbr_regs, s->lbr,
			     data->br_stack->entries, data->br_stack->nr);
	if (s->cs_size)
		len = max(len, s->cs_offset + aca_fill_callstack(buf + s->cs_offset, s, regs));
	aca_ring_write(s->ring, buf, len, s->size);
	local_set(&sc->busy, 0);
}

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
 * aca_overflow() is inside
 * an RCU read-side critical section: a software event's under
 * rcu_read_lock() with preemption off, cpu-clock's in its hrtimer's hard
 * IRQ, a PMU event's in its NMI (or in the cross-call, a large PEBS
 * buffer's drain), with interrupts off, which a grace period waits for
 * too (RCU's flavours are one since 4.20, PREEMPT_RT included). So once
 * every event that used an aca_sev is released and synchronize_rcu() has
 * returned (aca_handlers_done()), no call that may touch it, its ring, its
 * scratch record or the trigger counts is still running: only then are
 * they reused (aca_recreate_cpu()), finalized (STOP: aca_sampler_stop()
 * returns after it, before the core finalizes the rings) or freed
 * (aca_collection_free()). A ring's wake-up that a handler queued before
 * is waited for by aca_ring_put().
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
 * cycles counter, created and released at load.
 */
void aca_probe_pmu(void)
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
	aca_pmu_ok = !IS_ERR(pe);
	if (aca_pmu_ok)
		perf_event_release_kernel(pe);
	else
		pr_info("no hardware PMU counter (%ld): collections will sample with cpu-clock%s\n",
			PTR_ERR(pe), aca_sw_clock ? "" : ", which sw_clock=N forbids");
}
