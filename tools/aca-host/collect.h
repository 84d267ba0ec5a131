/* SPDX-License-Identifier: GPL-2.0-only */
/* aca-host collect: one sampling collection, saved to a directory. */
#ifndef ACA_HOST_COLLECT_H
#define ACA_HOST_COLLECT_H

#include <stdint.h>

#include "channels.h"
#include "payload.h"
#include "session.h"

struct collect_opts {
	const char *target;
	const char *out;		/* directory */
	/*
	 * Built-in ECBs, one group each (none with ecb_file): group g samples
	 * events[g], all different; two or more take turns of switch_ms.
	 */
	const char *events[HOST_MAX_GROUPS];
	uint32_t nevents;
	uint32_t switch_ms;
	const char *ecb_file;
	double duration;		/* seconds between START and STOP */
	uint32_t rate;			/* samples/s per CPU asked for */
	int eof_timeout_s;		/* after STOP, for every channel's EOF */
	int timeout_s;			/* connecting, per connection */
	unsigned int call_depth;	/* callers per sample, 0: no call stacks */
};

struct collect_result {
	uint32_t ncpus;
	uint64_t tsc_hz;		/* from the status message */
	uint64_t sample_after;		/* 0 with --ecb */
	int sw_clock;			/* GET_DRV_SETUP_INFO: cpu-clock, no PMU */
	uint64_t start_tsc, stop_tsc;
	int started;			/* START succeeded */
	double elapsed;			/* host seconds, START to STOP */
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

/* collect.c: the whole collection; the exit status of aca-host collect. */
int collect_run(const struct collect_opts *o);

#endif /* ACA_HOST_COLLECT_H */
