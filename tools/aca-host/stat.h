/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca-host stat: counting mode, as perf stat -a [-I MS] counts. One
 * counting group of up to HOST_MAX_COUNT_EVENTS events (stat_events.h) is
 * started on every CPU of the target, read with READ_AND_RESET every
 * interval and at the end, and printed (stat_out.h).
 */
#ifndef ACA_HOST_STAT_H
#define ACA_HOST_STAT_H

#include <stdint.h>

#include "stat_events.h"

#define STAT_MIN_INTERVAL_MS	10
#define STAT_MAX_INTERVAL_MS	60000
#define STAT_MAX_DURATION_S	86400

struct stat_opts {
	const char *target;
	struct stat_events ev;		/* at least one */
	uint32_t interval_ms;		/* -I: print every so often; 0: at the end only */
	double duration;		/* seconds from START; 0: until SIGINT */
	int per_cpu;			/* -A */
	const char *sep;		/* -x SEP; NULL: human columns */
	int timeout_s;			/* --timeout, 0: none (host_answer_s()) */
};

/* The whole session; the exit status of aca-host stat (0, or 1 said). */
int stat_run(const struct stat_opts *o);

#endif /* ACA_HOST_STAT_H */
