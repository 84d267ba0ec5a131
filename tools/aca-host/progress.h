/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The progress line of a collection on stderr: rewritten in place with \r
 * on a terminal, one line per second otherwise (logs stay readable).
 */
#ifndef ACA_HOST_PROGRESS_H
#define ACA_HOST_PROGRESS_H

#include <stdint.h>

struct progress {
	int tty;
	double last_line;	/* elapsed time of the last line printed */
	double rate_t;		/* start of the current rate window */
	uint64_t rate_n;	/* samples at its start */
	double rate;		/* samples/s over the last full window */
	int shown;		/* something is on the current line */
};

void progress_init(struct progress *p);
/* @elapsed of @total seconds, @samples received so far; rate-limited. */
void progress_update(struct progress *p, double elapsed, double total,
		     uint64_t samples, const char *phase);
/* End the line (a terminal's cursor goes to the next line). */
void progress_done(struct progress *p);

#endif /* ACA_HOST_PROGRESS_H */
