// SPDX-License-Identifier: GPL-2.0-only
/*
 * The overflow handler of the sampling's perf events (events.c makes them,
 * with it): in its CPU's interrupt, it writes a SampleRecordPC (spec 7.1)
 * into that CPU's ring (ring.c), with its callers (stack.c), branches and
 * PEBS areas when asked.
 */
#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/local.h>
#include <asm/local64.h>
#include <asm/ptrace.h>
#include <asm/segment.h>

#include "core/core.h"
#include "overflow.h"
#include "ring.h"
#include "sampler.h"
#include "stack.h"
#include "tsc.h"

/* The flat 32-bit user code descriptor of __USER32_CS (csd, spec 7.1). */
#define ACA_USER32_CS_DESC	0x00cffb000000ffffull

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
void aca_overflow(struct perf_event *event, struct perf_sample_data *data,
		  struct pt_regs *regs)
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
