/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A session's sampling, part of its collection (collection.h): its rings,
 * its events on every CPU and its groups, which sampler.c makes and
 * frees. The files that sample for it share it: events.c (its perf
 * events), overflow.c (their overflow handler), multiplex.c (the groups'
 * windows and the switch timer), emon.c (counting mode's reads and EMON
 * timer), hotplug.c (CPU hotplug, the watch), inject.c (the debugfs fault
 * injector, in a test build only) and collection_file.c
 * (/sys/kernel/debug/aca/collection).
 */
#ifndef ACA_SAMPLER_H
#define ACA_SAMPLER_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <asm/local.h>

#include "core/core.h"

/* Records larger than this are not a SampleRecordPC we can fill. */
#define ACA_MAX_RECORD		PAGE_SIZE

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
	long trig_at;		/* the group switches at this one, */
	struct irq_work *kick;	/* by this kick (the collection's mux_kick) */
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

struct aca_sampling {
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
	/* Multiplexing, under aca_lock (see sampler.c's top). */
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

/* Whether @c samples @cpu with cpu-clock. */
static inline bool aca_cpu_clock(const struct aca_sampling *c, u32 cpu)
{
	return c->sw || test_bit(cpu, c->sw_cpus);
}

/*
 * A collection's sampling (sampler.c), and its acp_ops entry points but
 * SWITCH_GROUP's and GROUP_TIMES' (multiplex.h) and the counting reads
 * (emon.h).
 */
struct aca_collection;
struct cpumask;
int aca_sampler_init(struct aca_collection *coll);
void aca_sampler_exit(struct aca_collection *coll);
int aca_sampler_configure(struct aca_collection *coll, const struct acp_config *cfg);
int aca_sampler_start(struct aca_collection *coll, const struct acp_config *cfg,
		      bool paused);
void aca_sampler_stop(struct aca_collection *coll);
void aca_sampler_pause(struct aca_collection *coll, bool pause);
void aca_sampler_counts(void *ctx, u32 cpu, u64 *written, u64 *dropped);
void aca_sampler_finish(struct aca_collection *coll);
/* The ring of @cpu in the current collection, or NULL. */
struct aca_ring *aca_sampler_ring(struct aca_collection *coll, u32 cpu);
/* For the local API (local.c). */
int aca_sampler_alloc(struct aca_collection *coll, unsigned int data_pages,
		      const struct cpumask *cpus);
int aca_sampler_start_local(struct aca_collection *coll,
			    const struct acp_config *cfg, bool cpu_clock);
bool aca_cpu_clock_core(struct aca_collection *coll, u32 cpu);

#endif /* ACA_SAMPLER_H */
