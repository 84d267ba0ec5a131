// SPDX-License-Identifier: GPL-2.0-only
/* Progress line of aca-host collect. */
#include <stdio.h>
#include <unistd.h>

#include "progress.h"

void progress_init(struct progress *p)
{
	*p = (struct progress){ .tty = isatty(STDERR_FILENO), .last_line = -1 };
}

void progress_update(struct progress *p, double elapsed, double total,
		     uint64_t samples, const char *phase)
{
	/* The rate is over whole seconds: steadier than per-update deltas. */
	if (elapsed - p->rate_t >= 1.0) {
		p->rate = (samples - p->rate_n) / (elapsed - p->rate_t);
		p->rate_t = elapsed;
		p->rate_n = samples;
	}
	if (p->tty) {
		if (elapsed - p->last_line < 0.2)
			return;
	} else if (p->last_line >= 0 && elapsed - p->last_line < 1.0) {
		return;
	}
	p->last_line = elapsed;
	fprintf(stderr, "%scollect: %5.1f/%.0f s  %llu samples  %.0f/s%s%s%s",
		p->tty ? "\r" : "", elapsed, total, (unsigned long long)samples,
		p->rate, *phase ? "  " : "", phase, p->tty ? "\033[K" : "\n");
	p->shown = p->tty;
	fflush(stderr);
}

void progress_done(struct progress *p)
{
	if (p->shown)
		fputc('\n', stderr);
	p->shown = 0;
}
