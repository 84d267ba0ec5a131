// SPDX-License-Identifier: GPL-2.0-only
/* aca-host report: the hotspot tables (report.h) and the command line. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "host.h"
#include "report.h"

static double pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * n / of : 0.0;
}

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

void report_print(const struct report *r, const struct report_opts *o,
		  const char *dir, FILE *out)
{
	fprintf(out, "aca-host report: %s", dir);
	if (r->event[0])
		fprintf(out, " (%s, %u CPUs)", r->event, r->ncpus);
	if (r->written_by[0])
		fprintf(out, "\n%-12s %s", "written by", r->written_by);
	fprintf(out, "\n%-12s %10llu", "samples", (unsigned long long)r->all_samples);
	for (uint32_t i = 0; i < r->ncpus && i < 16; i++)
		fprintf(out, "%scpu%u %llu", i ? ", " : "  (", i,
			(unsigned long long)r->cpu_samples[i]);
	fprintf(out, "%s\n", !r->ncpus ? "" : r->ncpus > 16 ? ", ...)" : ")");
	/* From here on every figure is of the selected process only. */
	if (o->only_pid)
		fprintf(out, "%-12s %10llu  %6.2f%% of all, pid %u alone below\n", "pid filter",
			(unsigned long long)r->samples, pct(r->samples, r->all_samples),
			o->pid);
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
	table(&r->processes, "process", r, o->top, out);
	table(&r->modules, "module", r, o->top, out);
	table(&r->functions, "function", r, o->top, out);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-host report DIR [--sysroot PATH] [--top N] [--pid PID]\n"
		"  Hotspots of a collection saved by aca-host collect: samples by\n"
		"  process, by module and by function, most first.\n"
		"  --sysroot PATH  module paths of the target are found below PATH\n"
		"                  (default: as they are, on this machine)\n"
		"  --top N         rows per table, 0 to %d (default %d, 0: all)\n"
		"  --pid PID       only the samples of process PID, 0 to %d\n"
		"                  (percentages of those; 0: the idle task)\n"
		"Exit status: 0; 1 if some input was malformed (reported on stderr,\n"
		"the rest is still reported); 2 if there is nothing to report on, or\n"
		"on a usage error.\n",
		REPORT_MAX_TOP, REPORT_DEFAULT_TOP, REPORT_MAX_PID);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sysroot", required_argument, NULL, 's' },
		{ "top", required_argument, NULL, 't' },
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static char cmd[] = "aca-host report";
	struct report_opts o = { .top = REPORT_DEFAULT_TOP, .warn = stderr };
	struct report r;
	unsigned long v;
	int c, ret;

	argv[0] = cmd;		/* getopt's messages name the command */
	while ((c = getopt_long(argc, argv, "s:t:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o.sysroot = optarg;
			break;
		case 't':
			if (arg_number(cmd, "--top", optarg, 0, REPORT_MAX_TOP, &v))
				return 2;
			o.top = v;
			break;
		case 'p':
			if (arg_number(cmd, "--pid", optarg, 0, REPORT_MAX_PID, &v))
				return 2;
			o.only_pid = 1;
			o.pid = v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "%s: one DIR expected\n", cmd);
		usage(stderr);
		return 2;
	}
	ret = report_load(argv[optind], &o, &r);
	if (ret < 2)
		report_print(&r, &o, argv[optind], stdout);
	report_free(&r);
	return ret;
}
