/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca-host stat's counts: the READ_AND_RESET reply (sep_cmd.h, counting
 * mode) decoded, summed, and printed as perf stat -a -I prints them.
 *
 * Human (without -x), the header once, then per interval and event:
 *   #           time             counts unit events
 *        1.000123456          1,234.56 msec task-clock
 *        1.000123456                 42      context-switches
 * "%16.9f %18s %-4s %s": seconds since START, the count with thousands
 * separators (task-clock and cpu-clock: msec with 2 decimals, unit msec;
 * the unit is empty otherwise), the event as given. With -A (per CPU) a
 * CPU column, "%-7s", after the time: a line per CPU ("CPU0") and then
 * the sum ("all"); the header names it CPU.
 * With -x SEP, no header and no padding: TIME SEP COUNT SEP UNIT SEP EVENT
 * ("%.9f"; a count without separators, msec with 2 decimals), and with -A
 * TIME SEP CPUn SEP COUNT SEP UNIT SEP EVENT per CPU before the sum line.
 * At the end, the whole run's counts the same way: human, a "# total"
 * line and then the lines of every event, the time the run's seconds;
 * -x, the lines with "total" for the time.
 */
#ifndef ACA_HOST_STAT_OUT_H
#define ACA_HOST_STAT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stat_events.h"

/* One READ_AND_RESET's worth: N TSC deltas, then N * n counts, in ECB order. */
struct stat_counts {
	uint32_t ncpus, n;
	uint64_t *tsc;			/* [cpu]: TSC ticks */
	uint64_t *count;		/* [cpu * n + k]: the ECB's k-th event */
};

/* Arrays for @ncpus CPUs and @n events, zeroed; 0, or -1 (no memory). */
int stat_counts_init(struct stat_counts *c, uint32_t ncpus, uint32_t n);
void stat_counts_free(struct stat_counts *c);
/* Bytes to ask READ_AND_RESET for: N * 8 + N * n * 8. */
size_t stat_reply_size(uint32_t ncpus, uint32_t n);
/* The reply @reply (stat_reply_size() bytes) into @iv, and added to @total. */
void stat_counts_read(const void *reply, struct stat_counts *iv,
		      struct stat_counts *total);
/* Seconds @c spans: the most TSC ticks of a CPU, at @tsc_hz (> 0). */
double stat_counts_seconds(const struct stat_counts *c, uint64_t tsc_hz);

struct stat_print {
	FILE *f;
	const char *sep;		/* -x SEP; NULL: human columns */
	int per_cpu;			/* -A */
	const struct stat_events *ev;	/* printed in this order */
	const uint32_t *order;		/* ev->e[i]'s count is the ECB's order[i]-th */
	int header_done;
};

/* One interval's lines at @t seconds since START (the header first, once). */
void stat_print_interval(struct stat_print *p, double t, const struct stat_counts *c);
/* The whole run's lines, @t its seconds. */
void stat_print_totals(struct stat_print *p, double t, const struct stat_counts *c);

/*
 * @v with a comma every three digits (@group) or none; with @msec, @v is
 * nanoseconds, printed as milliseconds with 2 decimals.
 */
void stat_format_count(char *buf, size_t len, uint64_t v, int msec, int group);

#endif /* ACA_HOST_STAT_OUT_H */
