// SPDX-License-Identifier: GPL-2.0-only
/* aca-host report: the hotspot tables (report.h); its command line: builtin-report.c. */
#include <stdlib.h>

#include "folded.h"
#include "report.h"
#include "report_views.h"
#include "util.h"

static void table(const struct tally *t, const char *what, const struct report *r,
		  unsigned int top, FILE *out)
{
	size_t n, shown;
	struct tally_entry *v = tally_sorted(t, &n);

	if (!v) {
		fprintf(out, "\n(out of memory)\n");
		return;
	}
	shown = top && top < n ? top : n;
	fprintf(out, "\nBy %s", what);
	if (shown < n)
		fprintf(out, " (top %zu of %zu)", shown, n);
	fprintf(out, "\n   samples        %%  %s\n", what);
	for (size_t i = 0; i < shown; i++)
		fprintf(out, "%10llu  %6.2f%%  %s\n", (unsigned long long)v[i].count,
			pct(v[i].count, r->samples), v[i].key);
	free(v);
}

/*
 * Multiplexed groups (DIR/groups.txt, two or more): each event's samples,
 * how long its group ran, and its count estimated as perf stat does.
 */
static void groups_table(const struct report *r, FILE *out)
{
	const struct group_times *gt = &r->groups;

	fprintf(out, "\nBy event (multiplexed: %u groups taking turns of %u ms, "
		"%llu switches, %u windows",
		gt->n, gt->switch_ms, (unsigned long long)gt->switches, gt->windows_kept);
	if (gt->windows_lost)
		fprintf(out, " and %u not kept", gt->windows_lost);
	fprintf(out, ")\n   samples   running    estimated count  event\n");
	for (uint32_t i = 0; i < gt->n; i++) {
		double share, est = report_group_estimate(r, i, &share);

		fprintf(out, "%10llu  %7.2f%%  ", (unsigned long long)r->group_samples[i],
			100.0 * share);
		if (est < 0)
			fprintf(out, "%17s  %s  (not counted)\n", "-", gt->g[i].event);
		else
			fprintf(out, "%17.0f  %s  (%.2f%%)\n", est, gt->g[i].event,
				100.0 * share);
	}
	/* The stand-ins sample at the rate asked: the estimate is of that rate. */
	if (r->cpu_clock)
		fprintf(out, "  (cpu-clock stand-ins, no PMU: each estimate is the count the "
			"rate asked for would give, not the event's)\n");
}

/* The filters of @o, and the share of the samples they keep. */
static void filters(const struct report *r, const struct report_opts *o, FILE *out)
{
	fprintf(out, "%-12s %10llu  %6.2f%% of all, alone below:", "filtered",
		(unsigned long long)r->samples, pct(r->samples, r->all_samples));
	if (o->only_pid)
		fprintf(out, " pid %u", o->pid);
	if (o->only_tid)
		fprintf(out, " tid %u", o->tid);
	for (size_t i = 0; i < o->comms.n; i++)
		fprintf(out, "%s%s", i ? "," : " comms ", o->comms.v[i]);
	for (size_t i = 0; i < o->dsos.n; i++)
		fprintf(out, "%s%s", i ? "," : " dsos ", o->dsos.v[i]);
	fputc('\n', out);
}

void report_print(const struct report *r, const struct report_opts *o,
		  const char *dir, FILE *out)
{
	/* Machine-readable and folded output: that alone. */
	if (o->folded) {
		if (folded_print(&r->stacks, out))
			fprintf(stderr, "aca-host report: out of memory\n");
		return;
	}
	if (o->format != REPORT_TEXT) {
		report_sorted(r, o, out);
		return;
	}
	fprintf(out, "aca-host report: %s", dir);
	if (r->event[0])
		fprintf(out, " (%s, %u CPUs)", r->event, r->ncpus);
	if (r->written_by[0])
		fprintf(out, "\n%-12s %s", "written by", r->written_by);
	if (r->default_kallsyms[0])
		fprintf(out, "\n%-12s %s (the target's, as collected; --kallsyms or "
			"--vmlinux to use another)", "kernel names", r->default_kallsyms);
	fprintf(out, "\n%-12s %10llu", "samples", (unsigned long long)r->all_samples);
	for (uint32_t i = 0; i < r->ncpus && i < 16; i++)
		fprintf(out, "%scpu%u %llu", i ? ", " : "  (", i,
			(unsigned long long)r->cpu_samples[i]);
	fprintf(out, "%s\n", !r->ncpus ? "" : r->ncpus > 16 ? ", ...)" : ")");
	/* From here on every figure is of the selected samples only. */
	if (o->only_pid && !o->only_tid && !o->comms.n && !o->dsos.n)
		fprintf(out, "%-12s %10llu  %6.2f%% of all, pid %u alone below\n", "pid filter",
			(unsigned long long)r->samples, pct(r->samples, r->all_samples),
			o->pid);
	else if (o->only_pid || o->only_tid || o->comms.n || o->dsos.n)
		filters(r, o, out);
	fprintf(out, "%-12s %10llu  %6.2f%% to a module, %llu (%.2f%%) to a function\n",
		"attributed", (unsigned long long)r->with_module,
		pct(r->with_module, r->samples), (unsigned long long)r->with_function,
		pct(r->with_function, r->samples));
	fprintf(out, "%-12s %10llu  %6.2f%%\n", "kernel mode", (unsigned long long)r->kernel,
		pct(r->kernel, r->samples));
	if (r->have_drops)
		fprintf(out, "%-12s %10llu  (on the target, not in the files)\n", "dropped",
			(unsigned long long)r->dropped);
	fprintf(out, "%-12s %10llu records\n", "modules", (unsigned long long)r->nmodules);
	if (r->errors)
		fprintf(out, "%-12s %10d  (see the messages on stderr)\n", "input errors",
			r->errors);
	if (r->groups.n > 1)
		groups_table(r, out);
	if (r->keys.n) {
		report_sorted(r, o, out);
	} else {
		table(&r->processes, "process", r, o->top, out);
		table(&r->modules, "module", r, o->top, out);
		table(&r->functions, "function", r, o->top, out);
	}
	if (r->callers.n)
		report_callers(r, o, out);
}
