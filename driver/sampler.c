// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sampling through the in-kernel perf_events API (spec 6.8): at START one
 * pinned counter per event of every configured group on every online CPU,
 * whose overflow handler writes a SampleRecordPC (spec 7.1) into that CPU's
 * ring (ring.c). The CPU's data channel reads the ring.
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
 * event at the rate the host asked for (see aca_sw_period()); so do a
 * CPU's events, from then on, when one is later found not sampling (the
 * watch, below).
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
 * Locking: the acp_ops entry points run under aca_lock (target.c), which
 * they assert. aca_coll changes only there, and additionally under
 * aca_sampler_lock, so the sysfs file reads it without aca_lock.
 */
#include <linux/bitmap.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/kstrtox.h>
#include <linux/kobject.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>
#include <asm/perf_regs.h>
#include <asm/ptrace.h>
#include <asm/segment.h>

#include "aca.h"
#include "stack.h"

/* Records larger than this are not a SampleRecordPC we can fill. */
#define ACA_MAX_RECORD		PAGE_SIZE

/* The flat 32-bit user code descriptor of __USER32_CS (csd, spec 7.1). */
#define ACA_USER32_CS_DESC	0x00cffb000000ffffull

/* One counter on one CPU. */
struct aca_sev {
	struct perf_event *pe;
	struct aca_ring *ring;
	u32 cpu;
	u32 event;		/* index in the collection's events[] */
	u32 group;		/* index in the collection's groups[] */
	u32 event_index;
	u32 size;		/* record size on the wire */
	u32 osid;
	s32 target_pid;		/* > 0: only this process */
	u32 cs_offset;		/* callstack area in the record; */
	u32 cs_size;		/* 0: none */
	bool kernel_stack;	/* its chains: the kernel callers, */
	bool user_stack;	/* the user ones */
	bool pebs;		/* a precise PMU event: regs' IP is the record's */
	bool pebs_record;	/* a precise core PMU event: PEBS areas filled */
	bool load_latency;	/* perf's weight is the PEBS record's latency */
	struct acp_pebs_areas pebs_areas;	/* spec 6.13, */
	u32 pebs_end;		/* their end in the record; 0: none */
	u32 lbr_offset;		/* LBR area in the record (spec 6.11); */
	u32 lbr_regs;		/* its U64s, 0: none */
	const struct acp_lbr_layout *lbr;	/* the collection's */
	u64 read;		/* counting mode: its count at the last read */
	atomic_long_t *trig;	/* a trigger event's: its CPU's count, */
	long trig_at;		/* the group switches at this one */
	struct aca_scratch *scratch;	/* its CPU's, with a callstack or LBR area */
};

/*
 * A record built with its callers and branches before it goes into the
 * ring: one per CPU, so that they need no room on the NMI stack. One
 * handler at a time uses it (@busy): another one interrupting it on the
 * CPU writes its record without them rather than wait.
 */
struct aca_scratch {
	local_t busy;
	u64 rec[ACA_MAX_RECORD / sizeof(u64)];
	struct acp_pebs_record pebs;	/* the PEBS areas' source */
};

/* A configured group, its events events[first..first + nevents). */
struct aca_group {
	u32 group_id;		/* its index in EM_GROUPS */
	u32 first;
	u32 nevents;
	u32 windows;		/* closed, kept or not */
	u32 turns;		/* ended (a pause splits one into windows) */
	u64 running_tsc;	/* their total */
};

struct aca_collection {
	struct aca_ring **rings;	/* by CPU id, NULL if offline */
	struct aca_sev *sevs;		/* by CPU, then as events[] */
	u32 nsev;
	u32 ncpus;			/* rings */
	bool sw;			/* cpu-clock fallback */
	bool armed;			/* events exist */
	bool unsynced;			/* events released since the last
					 * grace period (aca_handlers_done())
					 */
	bool counting_mode;		/* they count, never sample */
	u64 read_tsc;			/* counting mode: the last read */
	u32 emon_ms;			/* its timer's period; 0: none */
	u32 nchans;			/* CPU channels (N) */
	bool paused;
	struct acp_event *events;	/* every group's, from START */
	u32 nevents;
	struct acp_lbr_layout lbr;	/* LBR_INFO's, from START */
	/* Multiplexing, under aca_lock (see the top). */
	struct aca_group *groups;
	u32 ngroups;
	u32 active;			/* the group that samples, resumed */
	u64 on_tsc;			/* its open window; 0: none */
	u32 switch_ms;			/* the timer's period; 0: no timer */
	u32 switch_samples;		/* or after this many; 0: not so */
	atomic_long_t __percpu *trig;	/* trigger samples this turn; atomic:
					 * the switch resets them from afar
					 */
	u64 switches;
	struct aca_group_window *windows;	/* with 2+ groups */
	u32 nwindows;
	u32 windows_lost;
	u32 *errors;			/* by CPU: events found not sampling */
	unsigned long *sw_cpus;		/* CPUs switched to cpu-clock since
					 * their PMU event stopped
					 */
	struct aca_scratch **scratch;	/* by CPU id, with callstack or LBR areas only */
};

static DEFINE_MUTEX(aca_sampler_lock);
static struct aca_collection *aca_coll;
static bool aca_pmu_ok;		/* a hardware counter could be created */

/*
 * CPU hotplug, without cpus_read_lock() around perf calls: perf takes the
 * hotplug lock itself inside them (a software event's
 * perf_swevent_init() and sw_perf_event_destroy() through
 * static_key_slow_inc()/dec(), the first branch-stack event through
 * static_branch_enable()), and a percpu-rwsem reader that takes it again
 * waits behind a pending writer: a deadlock with the hotplug of any CPU.
 * Instead, aca keeps its own view, under aca_replug_lock:
 *  - aca_up_cpus: the CPUs between aca's online callback (at
 *    CPUHP_AP_ONLINE_DYN, after perf's own at CPUHP_AP_PERF_ONLINE) and
 *    its teardown (before perf's). Where perf refuses a CPU's event for
 *    being offline (perf_event_create_kernel_counter(): -ENODEV, decided
 *    under the CPU context's mutex that its hotplug callbacks take), aca's
 *    teardown has run before, so the CPU is out of aca_up_cpus, or its
 *    online callback has run since, and the CPU is in aca_replug_cpus.
 *  - aca_replug_cpus: online again and waiting for its events: the
 *    replug work (below) makes them under aca_lock, after whatever held
 *    aca_lock when the CPU came back (START, the watch) is done.
 * A CPU whose events fail while in neither state of "up and settled"
 * (aca_cpu_raced()) lost a race with hotplug, not a PMU: it gets its
 * events when it is back. Events made just before a CPU goes down are
 * taken off it by perf (OFF state, out of its context) and made anew when
 * it comes back.
 */
static DEFINE_SPINLOCK(aca_replug_lock);
static struct cpumask aca_up_cpus;	/* online as perf knows it */
static struct cpumask aca_replug_cpus;	/* online again, events to make */

/* Whether @cpu is online as aca and perf know it. */
static bool aca_cpu_up(u32 cpu)
{
	bool up;

	spin_lock(&aca_replug_lock);
	up = cpumask_test_cpu(cpu, &aca_up_cpus);
	spin_unlock(&aca_replug_lock);
	return up;
}

/* Whether @cpu is offline, or back and waiting for the replug work. */
static bool aca_cpu_raced(u32 cpu)
{
	bool raced;

	spin_lock(&aca_replug_lock);
	raced = !cpumask_test_cpu(cpu, &aca_up_cpus) ||
		cpumask_test_cpu(cpu, &aca_replug_cpus);
	spin_unlock(&aca_replug_lock);
	return raced;
}

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

/* The switch after samples: the handler's way to the switch work. */
static void aca_mux_kick_fn(struct irq_work *work);
/* Hard: on PREEMPT_RT a lazy one could sit on a CPU going offline. */
static struct irq_work aca_mux_kick = IRQ_WORK_INIT_HARD(aca_mux_kick_fn);

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
		irq_work_queue(&aca_mux_kick);
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
 * after the release has returned, as it does on 6.1 and 6.12 alike, with
 * preempt=full and on PREEMPT_RT. Every call of aca_overflow() is inside
 * an RCU read-side critical section: a software event's under
 * rcu_read_lock() with preemption off, cpu-clock's in its hrtimer's hard
 * IRQ, a PMU event's in its NMI (or in the cross-call, a large PEBS
 * buffer's drain), with interrupts off, which a grace period waits for
 * too (RCU's flavours are one since 4.20, PREEMPT_RT included). So once
 * every event that used an aca_sev is released and synchronize_rcu() has
 * returned (aca_handlers_done()), no call that may touch it, its ring, its
 * scratch record or the trigger counts is still running: only then are
 * they reused (aca_recreate_cpu()), finalized (STOP: aca_sampler_stop()
 * returns after it, before the core flushes the rings) or freed
 * (aca_collection_free()). A ring's wake-up that a handler queued before
 * is waited for by aca_ring_put().
 */
static void aca_release_sev(struct aca_collection *c, struct aca_sev *s)
{
	if (!s->pe)
		return;
	perf_event_release_kernel(s->pe);
	s->pe = NULL;
	c->unsynced = true;
}

/* Process context: no handler call of a released event is still running. */
static void aca_handlers_done(struct aca_collection *c)
{
	might_sleep();
	if (!c->unsynced)
		return;
	synchronize_rcu();
	c->unsynced = false;
}

/* Every event released, and their handlers done. */
static void aca_release_events(struct aca_collection *c)
{
	for (u32 i = 0; c->sevs && i < c->nsev; i++)
		aca_release_sev(c, &c->sevs[i]);
	c->armed = false;
	aca_handlers_done(c);
}

static void aca_collection_free(struct aca_collection *c)
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

static int aca_create_event(struct aca_sev *s, int cpu,
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
	if (e->pmu_type) {
		/*
		 * [ACA-EXT] IBS (spec 6.12): its own PMU, with or without a
		 * core PMU; it filters no ring (PERF_PMU_CAP_NO_EXCLUDE) and
		 * takes periods in units of 16.
		 */
		attr.type = e->pmu_type;
		attr.config = e->config;
		attr.sample_period = round_up(aca_hw_period(e->period), 16);
		attr.exclude_hv = 0;
	} else if (e->software) {
		/* [ACA-EXT] ECB software event: counts of its own unit. */
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = e->config;
		attr.sample_period = e->period;
		/* The clocks count ns: no faster than max_sample_rate. */
		if (e->config == PERF_COUNT_SW_CPU_CLOCK ||
		    e->config == PERF_COUNT_SW_TASK_CLOCK)
			attr.sample_period = max_t(u64, e->period,
						   NSEC_PER_SEC / aca_max_sample_rate);
	} else if (sw) {
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_CPU_CLOCK;
		attr.sample_period = aca_sw_period(e->period);
		/* REF_TSC and core cycles do not count while halted. */
		attr.exclude_idle = 1;
	} else {
		attr.type = PERF_TYPE_RAW;
		attr.config = e->config;
		attr.config1 = e->config1;
		attr.sample_period = aca_hw_period(e->period);
		attr.precise_ip = e->precise ? 1 : 0;
		if (s->pebs_record) {
			/*
			 * The record's registers, address and latency, from
			 * PEBS, one record a PMI (wakeup_events, below): the
			 * handler's TSC and task are the sample's.
			 */
			attr.sample_type |= PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_ADDR |
					    PERF_SAMPLE_WEIGHT;
			attr.sample_regs_intr = ACA_PEBS_REGS;
			/* perf's IP is then the eventing one (formats 2 on: exact). */
			if (s->pebs_areas.eventing_ip_offset)
				attr.precise_ip = 2;
		}
		/*
		 * Without a wakeup per sample, x86 batches precise samples in
		 * a large PEBS buffer (a sample_type within its flags, no
		 * frequency) and hands each to the handler at the drain, with
		 * registers rebuilt from it: no stack to walk, and the
		 * handler's TSC and task the drain's, not the sample's. Every
		 * precise event takes one PMI a sample.
		 */
		if (e->precise)
			attr.wakeup_events = 1;
		if (s->lbr_regs && e->branch_type) {
			attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
			attr.branch_sample_type = e->branch_type;
		}
	}
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
 * One counter per event on every CPU with a ring, disabled. A CPU taken
 * offline since INIT_DRIVER is skipped and reported, not a failed START:
 * its channel streams nothing. On failure, *@refused is the event perf
 * refused.
 */
static int aca_create_events(struct aca_collection *c, bool sw,
			     const struct acp_event **refused)
{
	struct aca_sev *s = c->sevs, *t;
	u32 offline = 0, first = 0;
	int ret = 0;

	/* No cpus_read_lock(): see aca_up_cpus. */
	for (u32 cpu = 0; cpu < nr_cpu_ids && !ret; cpu++) {
		if (!c->rings[cpu])
			continue;
		if (!aca_cpu_up(cpu)) {
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
		if (ret && aca_cpu_raced(cpu)) {
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

/*
 * Events per CPU at most: every group's (up to ACP_MAX_GROUPS of
 * ACP_MAX_EVENTS), within what perf is asked to hold for one collection.
 */
#define ACA_MAX_CPU_EVENTS	256

/* The groups whose ECB arrived, in group order, and their events. */
static int aca_take_groups(struct aca_collection *c, const struct acp_config *cfg)
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
 * How the groups switch (EVENT_CONFIG, spec 5.6), with more than one group
 * and when sampling: every em_factor ms (em_mode timer-based), or once a
 * CPU has taken em_factor samples of the active group's trigger events in
 * its turn (em_mode event- or trigger-based; the core marked the triggers).
 * Otherwise only SWITCH_GROUP switches.
 */
#define ACA_SWITCH_MS_DEFAULT	10
#define ACA_SWITCH_MS_MAX	60000

static void aca_switch_policy(struct aca_collection *c, const struct acp_config *cfg)
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
static void aca_setup_lbr(struct aca_sev *s, struct aca_collection *c,
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
static int aca_alloc_scratch(struct aca_collection *c)
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

static int aca_setup_sevs(struct aca_collection *c, const struct acp_config *cfg)
{
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
			}
		}
	}
	return aca_alloc_scratch(c);
}

/* The active group's events on every CPU, on or off. */
static void aca_enable_group(struct aca_collection *c, bool on)
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
static void aca_close_window(struct aca_collection *c, u64 off_tsc)
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
static void aca_enable(struct aca_collection *c, bool on)
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

static void aca_watch_events(struct aca_collection *c);

/*
 * The next group samples from now, or from resume when paused. Its events
 * are checked at once, as at START: one that got no counter would
 * otherwise pass its whole turn, counted as running, sampling nothing.
 */
static void aca_switch_group(struct aca_collection *c)
{
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
	aca_watch_events(c);
}

/* Some CPU has taken its switch_samples trigger samples in this turn. */
static bool aca_samples_reached(const struct aca_collection *c)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (c->trig && atomic_long_read(per_cpu_ptr(c->trig, cpu)) >= c->switch_samples)
			return true;
	return false;
}

/*
 * The switch work: the next group every switch_ms while sampling, or when
 * the handler found switch_samples reached (through aca_mux_kick). One
 * queued for an ended collection finds the next one's (or none) under
 * aca_lock: at worst a new collection's first turn is short; a kick that
 * finds the counts started again (SWITCH_GROUP came first) does nothing.
 */
static void aca_mux_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(aca_mux, aca_mux_fn);

/*
 * The active group's turn: switch_ms, plus what its ended turns ran short
 * of switch_ms each, or minus what they ran past it, within half to twice
 * switch_ms. A turn ended late (the delayed work fires on a jiffy, after
 * its kworker is scheduled, a vCPU may stall) or early (SWITCH_GROUP, a
 * pause) is made up by the group's next one: every group's running time
 * stays its turns times switch_ms, so round robin's shares stay equal
 * whatever the delays.
 */
static unsigned long aca_turn(const struct aca_collection *c)
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
	struct aca_collection *c;

	mutex_lock(&aca_lock);
	c = aca_coll;
	if (c && c->armed && c->switch_ms) {
		if (!c->paused)
			aca_switch_group(c);
		schedule_delayed_work(&aca_mux, aca_turn(c));
	} else if (c && c->armed && c->switch_samples && !c->paused &&
		   aca_samples_reached(c)) {
		aca_switch_group(c);
	}
	mutex_unlock(&aca_lock);
}

/* Hard IRQ (IRQ_WORK_HARD_IRQ, RT too), after the handler that queued it. */
static void aca_mux_kick_fn(struct irq_work *work)
{
	mod_delayed_work(system_wq, &aca_mux, 0);
}

/*
 * SWITCH_GROUP: non-zero when there is no other group. The switch timer
 * starts over, so the new group gets a whole turn.
 */
int aca_sampler_switch_group(void *ctx)
{
	struct aca_collection *c = aca_coll;

	lockdep_assert_held(&aca_lock);
	if (!c || !c->armed || c->ngroups < 2)
		return -EINVAL;
	aca_switch_group(c);
	if (c->switch_ms)
		mod_delayed_work(system_wq, &aca_mux, aca_turn(c));
	return 0;
}

/* GROUP_TIMES [ACA-EXT]: @buf, @len bytes zeroed, as sep_cmd.h says. */
void aca_sampler_group_times(void *ctx, void *buf, size_t len)
{
	struct aca_collection *c = aca_coll;
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
	struct aca_collection *c = aca_coll;
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
		aca_switch_group(c);
	return 0;
}

/*
 * [ACA-EXT] The EMON timer's reads (sep_cmd.h): each CPU ring gets the
 * active group's counts since the last read. The ring's producer, as
 * nothing samples in counting mode; perf_event_read_value() may sleep.
 */
static void aca_emon_write(struct aca_collection *c)
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

static void aca_emon_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(aca_emon, aca_emon_fn);

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
	unsigned long delay;
	struct aca_collection *c;
	u64 t0, spent = 0;

	mutex_lock(&aca_lock);
	c = aca_coll;
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
		schedule_delayed_work(&aca_emon, delay);
	}
	mutex_unlock(&aca_lock);
}

static void aca_publish(struct aca_collection *c)
{
	mutex_lock(&aca_sampler_lock);
	aca_coll = c;
	mutex_unlock(&aca_sampler_lock);
}

void aca_sampler_finish(void *ctx)
{
	struct aca_collection *c = aca_coll;

	lockdep_assert_held(&aca_lock);
	aca_publish(NULL);
	aca_collection_free(c);
}

/*
 * One ring of @data_pages per CPU of @cpus, so the memory is committed (or
 * refused) before anything starts.
 */
int aca_sampler_alloc(unsigned int data_pages, const struct cpumask *cpus)
{
	struct aca_collection *c;
	int cpu;

	lockdep_assert_held(&aca_lock);
	aca_sampler_finish(NULL);	/* one collection per session */
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
	aca_publish(c);
	return 0;
fail:
	pr_notice_ratelimited("cannot allocate %u-page rings for %u CPUs: lower ring_pages\n",
			      data_pages, cpumask_weight(cpus));
	aca_collection_free(c);
	return -ENOMEM;
}

/* INIT_DRIVER: the rings, of ring_pages. */
int aca_sampler_configure(void *ctx, const struct acp_config *cfg)
{
	/*
	 * Every present CPU has a data channel, hence a ring: one offline now
	 * is sampled if it comes back during the collection.
	 */
	return aca_sampler_alloc(READ_ONCE(aca_ring_pages), cpu_present_mask);
}

/* Whether @c samples @cpu with cpu-clock. */
static bool aca_cpu_clock(const struct aca_collection *c, u32 cpu)
{
	return c->sw || test_bit(cpu, c->sw_cpus);
}

/*
 * Under aca_lock (no cpus_read_lock(): see aca_up_cpus): @cpu's events
 * made anew. -EAGAIN: the CPU is offline, or went down meanwhile; it gets
 * them when it is back (the replug work).
 */
static int aca_recreate_cpu(struct aca_collection *c, u32 cpu)
{
	struct aca_sev *s;
	int ret = 0;

	lockdep_assert_held(&aca_lock);
	for (s = c->sevs; s < c->sevs + c->nsev; s++)
		if (s->cpu == cpu)
			aca_release_sev(c, s);
	/* The old events' handlers are done before their aca_sev are reused. */
	aca_handlers_done(c);
	if (!aca_cpu_up(cpu))
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
	return aca_cpu_raced(cpu) ? -EAGAIN : ret;
}

/*
 * CPU hotplug during a collection: perf takes a CPU's events off it when it
 * goes offline and never puts them back, so a CPU that comes back online
 * gets new ones (a CPU offline at START gets its first ones). The hotplug
 * callbacks run under the hotplug lock, which perf takes inside aca_lock
 * (in event creation and release, aca_up_cpus): they only mark the CPU
 * and leave the work to a work item, which takes aca_lock as START does.
 */
static enum cpuhp_state aca_cpuhp;
static void aca_replug_fn(struct work_struct *work);
static DECLARE_WORK(aca_replug_work, aca_replug_fn);

static int aca_cpu_online(unsigned int cpu)
{
	spin_lock(&aca_replug_lock);
	cpumask_set_cpu(cpu, &aca_up_cpus);
	cpumask_set_cpu(cpu, &aca_replug_cpus);
	spin_unlock(&aca_replug_lock);
	schedule_work(&aca_replug_work);
	return 0;
}

/* Before perf's own teardown: see aca_up_cpus. */
static int aca_cpu_offline(unsigned int cpu)
{
	spin_lock(&aca_replug_lock);
	cpumask_clear_cpu(cpu, &aca_up_cpus);
	cpumask_clear_cpu(cpu, &aca_replug_cpus);
	spin_unlock(&aca_replug_lock);
	return 0;
}

/* Whether @cpu is back online and waiting for its events; @take: clear it. */
static bool aca_replug_pending(u32 cpu, bool take)
{
	bool was;

	spin_lock(&aca_replug_lock);
	was = take ? cpumask_test_and_clear_cpu(cpu, &aca_replug_cpus) :
		     cpumask_test_cpu(cpu, &aca_replug_cpus);
	spin_unlock(&aca_replug_lock);
	return was;
}

/* Under aca_lock: new events for @cpu of the running collection. */
static void aca_replug_cpu(struct aca_collection *c, u32 cpu)
{
	int ret;

	lockdep_assert_held(&aca_lock);
	if (!c || !c->armed || !c->rings[cpu])
		return;
	ret = aca_recreate_cpu(c, cpu);
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
	mutex_lock(&aca_lock);
	for (u32 cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (aca_replug_pending(cpu, true))
			aca_replug_cpu(aca_coll, cpu);
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
#define ACA_WATCH_MS		1000
#define ACA_WATCH_RETRIES	8

static void aca_watch_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(aca_watch, aca_watch_fn);

/* The first event of @cpu's sampling group that is not sampling, or NULL. */
static struct aca_sev *aca_cpu_failed(struct aca_collection *c,
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
static void aca_mend_cpu(struct aca_collection *c, struct aca_sev *first,
			 struct aca_sev *bad)
{
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
	ret = aca_recreate_cpu(c, cpu);
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

static void aca_watch_events(struct aca_collection *c)
{
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
		 * (no cpus_read_lock(): see aca_up_cpus).
		 */
		bad = !aca_cpu_raced(cpu) ? aca_cpu_failed(c, first) : NULL;
		if (bad)
			aca_mend_cpu(c, first, bad);
	}
}

static void aca_watch_fn(struct work_struct *work)
{
	bool again;

	mutex_lock(&aca_lock);
	aca_watch_events(aca_coll);
	again = aca_coll && aca_coll->armed;
	mutex_unlock(&aca_lock);
	if (again)
		schedule_delayed_work(&aca_watch, msecs_to_jiffies(ACA_WATCH_MS));
}

/*
 * /sys/kernel/debug/aca/event_off (0200): writing a CPU number turns that
 * CPU's events of the running collection off behind the sampler's back, a
 * stand-in for a pinned event in ERROR state (which takes a PMU whose
 * counters are taken to cause): how the tests show that the watch finds
 * and mends such an event.
 */
static struct dentry *aca_debugfs;

static ssize_t event_off_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	struct aca_collection *c;
	unsigned int cpu;
	int ret = kstrtouint_from_user(ubuf, len, 0, &cpu);

	if (ret)
		return ret;
	mutex_lock(&aca_lock);
	c = aca_coll;
	ret = -ESRCH;
	for (u32 i = 0; c && c->armed && !c->paused && i < c->nsev; i++) {
		if (c->sevs[i].cpu == cpu && c->sevs[i].pe &&
		    c->sevs[i].group == c->active) {
			perf_event_disable(c->sevs[i].pe);
			ret = 0;
		}
	}
	mutex_unlock(&aca_lock);
	return ret ? ret : len;
}

static const struct file_operations aca_event_off_fops = {
	.owner = THIS_MODULE,
	.write = event_off_write,
	.llseek = noop_llseek,
};

/* No event asks for a branch stack any more: true if one did. */
static bool aca_drop_lbrs(struct aca_collection *c)
{
	bool had = false;

	for (u32 i = 0; i < c->nsev; i++) {
		had |= c->sevs[i].lbr_regs && c->events[c->sevs[i].event].branch_type;
		c->sevs[i].lbr_regs = 0;
	}
	return had;
}

/* What keeps asked-for LBR areas empty, said once a START (spec 6.11). */
static void aca_log_lbr(const struct aca_collection *c, const struct acp_config *cfg)
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
static void aca_log_pebs(const struct aca_collection *c)
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

int aca_sampler_start(void *ctx, const struct acp_config *cfg, bool paused)
{
	const struct acp_event *refused = NULL;
	struct aca_collection *c;
	int ret;

	lockdep_assert_held(&aca_lock);
	if (!aca_coll) {
		ret = aca_sampler_configure(ctx, cfg);
		if (ret)
			return ret;
	}
	c = aca_coll;
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
	ret = aca_setup_sevs(c, cfg);
	if (ret)
		return ret;

	c->nchans = min_t(u32, cfg->ncpus, nr_cpu_ids);
	ret = aca_create_events(c, c->sw, &refused);
	if (ret && !c->sw && aca_drop_lbrs(c)) {
		/* No LBRs, LBRs taken (PT, BTS), a filter the model lacks. */
		pr_notice_ratelimited("START: perf refused event 0x%llx with a branch stack (%d): sampling without LBRs, LBR areas stay zero\n",
				      refused->config, ret);
		ret = aca_create_events(c, false, &refused);
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
		if (aca_pmu_ok)
			pr_notice_ratelimited("the PMU refused event 0x%llx (%d): sampling with cpu-clock at the requested rate instead\n",
					      refused->config, ret);
		c->sw = true;
		aca_log_lbr(c, cfg);
		ret = aca_create_events(c, true, &refused);
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
	aca_watch_events(c);
	schedule_delayed_work(&aca_watch, msecs_to_jiffies(ACA_WATCH_MS));
	/* [ACA-EXT] Counting mode's timer, its records on the CPU channels. */
	c->emon_ms = c->counting_mode && cfg->drv.emon_timer_interval > 0 ?
		     cfg->drv.emon_timer_interval : 0;
	if (c->emon_ms)
		mod_delayed_work(system_wq, &aca_emon, msecs_to_jiffies(c->emon_ms));
	/* Counting mode's groups switch on READ_SWITCH_GROUP only. */
	if (c->switch_ms)
		mod_delayed_work(system_wq, &aca_mux,
				 msecs_to_jiffies(c->switch_ms));
	return 0;
}

/* The local API's START (local.c): @cpu_clock samples with cpu-clock only. */
int aca_sampler_start_local(const struct acp_config *cfg, bool cpu_clock)
{
	if (aca_coll && !aca_coll->sevs)
		aca_coll->sw = cpu_clock;
	return aca_sampler_start(NULL, cfg, false);
}

/*
 * STOP: no sample is written after this; the rings stay to be read. It
 * returns once every event is released and their handlers are done
 * (aca_release_events()): the core finalizes the rings after it (flush),
 * and a session's end frees them (finish) right after it.
 */
void aca_sampler_stop(void *ctx)
{
	struct aca_collection *c = aca_coll;

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

void aca_sampler_pause(void *ctx, bool pause)
{
	struct aca_collection *c = aca_coll;

	lockdep_assert_held(&aca_lock);
	if (c && c->armed) {
		/*
		 * A CPU got to switch_samples and the switch work found the
		 * group paused: the next one resumes (a switch while paused).
		 */
		if (!pause && c->paused && c->switch_samples && aca_samples_reached(c))
			aca_switch_group(c);
		c->paused = pause;
		aca_enable(c, !pause);
	}
}

struct aca_ring *aca_sampler_ring(u32 cpu)
{
	struct aca_collection *c = aca_coll;

	return c && cpu < nr_cpu_ids ? c->rings[cpu] : NULL;
}

/* Some event of @c is a core PMU one, for which cpu-clock may stand in. */
static bool aca_has_core_events(const struct aca_collection *c)
{
	for (u32 i = 0; i < c->nevents; i++)
		if (!c->events[i].software && !c->events[i].pmu_type)
			return true;
	return false;
}

/* @cpu samples a core PMU event with cpu-clock (IBS and software events never do). */
bool aca_sampler_cpu_clock(u32 cpu)
{
	struct aca_collection *c = aca_coll;

	lockdep_assert_held(&aca_lock);
	return c && cpu < nr_cpu_ids && aca_cpu_clock(c, cpu) && aca_has_core_events(c);
}

void aca_sampler_counts(void *ctx, u32 cpu, u64 *written, u64 *dropped)
{
	struct aca_ring *r = aca_sampler_ring(cpu);

	*written = 0;
	*dropped = 0;
	if (r)
		aca_ring_counts(r, written, dropped);
}

/*
 * /sys/module/aca/collection (0400): the current (or last stopped)
 * collection of this session, for tests and operators: the event kind,
 * then per CPU with a ring the samples the handler generated, wrote to the
 * ring and dropped because the ring was full, and of those how many
 * because a page was still held by a pipe or socket. generated == written
 * + dropped always holds once sampling has stopped; the host receives
 * exactly the written ones.
 *
 * A line per CPU does not fit one page on a large machine, so this is a
 * binary attribute: each read() formats only the lines it covers, at the
 * offset asked for, with no limit on the file's size. A CPU line's length
 * depends on nothing that changes (the CPU column is as wide as the
 * largest possible CPU id, each count 20 digits, as wide as any u64), so
 * where a line starts follows from the lines before it, and a read() ends
 * at the end of a line unless its buffer is smaller than one: every line
 * is read whole from one moment, even while the counts grow between two
 * reads. (sysfs_emit() is for one-page show() buffers, not these.)
 */
#define ACA_COLL_LINE_FMT \
	"cpu %*u generated %20llu written %20llu dropped %20llu held %20llu errors %20u\n"
/* Room for the longest line: the format's text, a 10-digit CPU, 5 counts. */
#define ACA_COLL_LINE_MAX	(sizeof(ACA_COLL_LINE_FMT) + 10 + 5 * 20)

static int aca_coll_line(char *line, int width, u32 cpu, struct aca_ring *r,
			 u32 errors)
{
	u64 written = 0, lost = 0, generated = 0, held = 0;

	if (r) {
		aca_ring_counts(r, &written, &lost);
		generated = local64_read(&r->generated);
		held = local64_read(&r->held);
	}
	return scnprintf(line, ACA_COLL_LINE_MAX, ACA_COLL_LINE_FMT, width,
			 cpu, generated, written, lost, held, errors);
}

/* The first CPU from @cpu on with a ring, or nr_cpu_ids. */
static u32 aca_next_ring(const struct aca_collection *c, u32 cpu)
{
	while (c && cpu < nr_cpu_ids && !c->rings[cpu])
		cpu++;
	return c ? cpu : nr_cpu_ids;
}

static ssize_t collection_read(struct file *file, struct kobject *kobj,
			       struct bin_attribute *attr, char *buf,
			       loff_t off, size_t count)
{
	char line[ACA_COLL_LINE_MAX];
	struct aca_collection *c;
	size_t n, line_len, len = 0, skip, part;
	int width;
	u32 cpu = 0;
	loff_t pos;

	width = snprintf(NULL, 0, "%u", nr_cpu_ids - 1);
	line_len = aca_coll_line(line, width, 0, NULL, 0);

	mutex_lock(&aca_sampler_lock);
	c = aca_coll;
	n = scnprintf(line, sizeof(line), "event %s\n",
		      !c ? "none" : c->sw ? "cpu-clock" : "pmu");
	/* line[] holds the n bytes at pos when the reader wants them. */
	for (pos = 0; len < count; cpu++) {
		if (pos + n > off) {
			skip = off > pos ? off - pos : 0;
			part = min(n - skip, count - len);
			if (part < n - skip && len)
				break;	/* end at the end of a line */
			memcpy(buf + len, line + skip, part);
			len += part;
		}
		cpu = aca_next_ring(c, cpu);
		if (cpu >= nr_cpu_ids)
			break;
		pos += n;
		n = line_len;
		if (pos + n > off) {
			n = aca_coll_line(line, width, cpu, c->rings[cpu],
					  READ_ONCE(c->errors[cpu]));
			WARN_ON_ONCE(n != line_len);
		}
	}
	mutex_unlock(&aca_sampler_lock);
	return len;
}

static BIN_ATTR_ADMIN_RO(collection, 0);

/*
 * Whether the PMU can sample at all, so hosts learn before START that the
 * cpu-clock fallback will be used (GET_DRV_SETUP_INFO): one disabled
 * cycles counter, created and released at load.
 */
static void aca_probe_pmu(void)
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

/* Sampling will fall back to cpu-clock (as far as the load-time probe knows). */
bool aca_sampler_fallback(void *ctx)
{
	return !aca_pmu_ok;
}

int aca_sampler_init(void)
{
	int ret;

	aca_probe_pmu();
	/*
	 * No CPU is half-way up or down while the hotplug lock is held:
	 * every online one is up as perf knows it (aca_up_cpus).
	 */
	cpus_read_lock();
	cpumask_copy(&aca_up_cpus, cpu_online_mask);
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN, "aca:online",
						   aca_cpu_online, aca_cpu_offline);
	cpus_read_unlock();
	if (ret < 0)
		return ret;
	aca_cpuhp = ret;
	ret = sysfs_create_bin_file(&THIS_MODULE->mkobj.kobj,
				    &bin_attr_collection);
	if (ret)
		goto err_cpuhp;
	/* Optional: without debugfs, only the tests' stand-in is missing. */
	aca_debugfs = debugfs_create_dir("aca", NULL);
	debugfs_create_file("event_off", 0200, aca_debugfs, NULL,
			    &aca_event_off_fops);
	return 0;

err_cpuhp:
	cpuhp_remove_state_nocalls(aca_cpuhp);
	return ret;
}

/* After the device is gone: no collection exists, no handler can run. */
void aca_sampler_exit(void)
{
	debugfs_remove_recursive(aca_debugfs);
	sysfs_remove_bin_file(&THIS_MODULE->mkobj.kobj, &bin_attr_collection);
	cpuhp_remove_state_nocalls(aca_cpuhp);
	cancel_work_sync(&aca_replug_work);
	cancel_delayed_work_sync(&aca_watch);
	cancel_delayed_work_sync(&aca_emon);
	irq_work_sync(&aca_mux_kick);
	cancel_delayed_work_sync(&aca_mux);
}
