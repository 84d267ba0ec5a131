/* SPDX-License-Identifier: GPL-2.0-only */
/* aca-host collect: one sampling collection, saved to a directory. */
#ifndef ACA_HOST_COLLECT_H
#define ACA_HOST_COLLECT_H

#include <stdint.h>

#include "channels.h"
#include "payload.h"
#include "session.h"

struct collect_result;

struct collect_opts {
	const char *target;
	const char *out;		/* directory */
	/*
	 * Built-in ECBs, one group each (none with ecb_file): group g samples
	 * events[g], all different; two or more take turns of switch_ms, or
	 * of switch_samples samples on the CPU that first takes them.
	 */
	const char *events[HOST_MAX_GROUPS];
	uint32_t nevents;
	uint32_t switch_ms;
	int switch_ms_set;		/* --switch-ms given */
	uint32_t switch_samples;	/* 0: turns of switch_ms */
	const char *ecb_file;
	double duration;		/* seconds between START and STOP */
	uint32_t rate;			/* samples/s per CPU asked for */
	int eof_timeout_s;		/* after STOP, for every channel's EOF */
	int timeout_s;			/* --timeout, 0: none (host_answer_s()) */
	unsigned int call_depth;	/* callers per sample, 0: no call stacks */
	int counting;			/* INIT_DRIVER asks for counting mode (stat) */
	/*
	 * Called every 0.1 s between START and STOP instead of the progress
	 * line (aca-host top): non-zero ends the wait, STOP follows as
	 * after --duration. NULL: the progress line.
	 */
	int (*tick)(void *arg, struct host_session *s,
		    const struct collect_result *r, double t);
	void *tick_arg;
	/*
	 * Run by the second SIGINT, which kills, just before (aca-host top
	 * puts the terminal back): async-signal-safe calls only. NULL: none.
	 */
	void (*on_kill)(void);
};

struct collect_result {
	uint32_t ncpus;
	uint64_t tsc_hz;		/* from the status message */
	uint64_t sample_after;		/* 0 with --ecb */
	int sw_clock;			/* GET_DRV_SETUP_INFO: cpu-clock, no PMU;
					 * 0 when every event is IBS
					 */
	uint64_t start_tsc, stop_tsc;
	int started;			/* START succeeded */
	double elapsed;			/* host seconds, START to STOP */
	double sampled;			/* host seconds, START to STOP sent */
	double start_s;			/* CLOCK_MONOTONIC at START */
	int interrupted;		/* SIGINT ended the wait early */
	int queried;			/* the closing queries were asked */
	int have_num_samples;
	uint64_t num_samples;		/* GET_NUM_SAMPLES */
	int drop_status;		/* of GET_SAMPLE_DROP_INFO */
	struct sep_sample_drop_info drops;
	int complete;			/* every command succeeded */
	int all_eof;			/* every channel ended with EOF after STOP */
	struct chan_set chans;
	struct host_layout layout;	/* of the records asked for */
	long long kernel_symbols;	/* in DIR/kallsyms (KERNEL_SYMBOLS); -1: not asked */
	int groups_written;		/* DIR/groups.txt (GROUP_TIMES) */
};

/* collect_out.c: where the streams go and what is said about them. */
/*
 * May --out @dir be written? Absent, empty or a previous collection (which
 * collect_prepare_out() moves to DIR.old): 0. Anything else: -1, said.
 */
int collect_check_out(const char *dir);
/* Move a previous collection in @dir to DIR.old, create @dir: 0, or -1 said. */
int collect_prepare_out(const char *dir);
/* Each channel read into DIR/NAME.bin; with @dir NULL, into /dev/null. */
int collect_open_files(const struct host_session *s, const char *dir,
		       struct chan_set *cs);
void collect_close_files(struct chan_set *cs);
uint64_t collect_samples_received(struct chan_set *cs, uint32_t sample_size);
/*
 * Write DIR/collection.txt and print the summary on stdout. Returns 0 if the
 * sample accounting holds (or cannot be checked), -1 if it does not.
 */
int collect_report(const struct host_session *s, const struct collect_opts *o,
		   const struct collect_result *r);

/* The ECB of each group, group g's at g: one, or one per --event. */
struct ecb_set {
	uint8_t *ecb[HOST_MAX_GROUPS];
	size_t len[HOST_MAX_GROUPS];
	uint32_t n;
};

/* collect.c: the session steps, shared with aca-host stat (stat.c). */
/*
 * Command @id (@name in messages) that must succeed: 0; or -1, said on
 * stderr with its status (s->last_status).
 */
int collect_cmd(struct host_session *s, uint32_t id, const void *in,
		uint64_t in_len, void *out, uint64_t out_len, const char *name);
/* Hand-shake and open every data channel, retrying while the target is busy. */
int collect_open_session(struct host_session *s, const struct collect_opts *o);
/*
 * Spec 5.1 up to START: reserve, INIT_DRIVER (counting mode with
 * o->counting), topology, descriptors, INIT, EM_GROUPS, the ECBs,
 * INIT_PMU. Needs r->ncpus and r->layout; sets r->sw_clock.
 */
int collect_configure(struct host_session *s, const struct collect_opts *o,
		      const struct ecb_set *ecbs, struct collect_result *r);
/* TERMINATE, and the control channel's end; closes it. 0 or -1 said. */
int collect_terminate(struct host_session *s);
void collect_ecb_set_free(struct ecb_set *e);

/* collect.c: the whole collection; the exit status of aca-host collect. */
int collect_run(const struct collect_opts *o);

#endif /* ACA_HOST_COLLECT_H */
