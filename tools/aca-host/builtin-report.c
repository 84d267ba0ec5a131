// SPDX-License-Identifier: GPL-2.0-only
/* aca-host report: its command line (the report itself: report_load.c, report.c). */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "builtin.h"
#include "flamegraph.h"
#include "report.h"

static const char cmd[] = "aca-host report";

enum {
	OPT_TOP = ARG_OWN,
	OPT_SORT,
	OPT_FORMAT,
	OPT_FOLDED,
	OPT_FLAMEGRAPH,
};

/* What report's own options set. */
struct report_cmd {
	struct report_opts o;
	const char *flamegraph;		/* --flamegraph FILE */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-host report DIR [--sysroot PATH] [--kallsyms FILE]\n"
		"                           [--vmlinux FILE] [--top N] [--pid PID]\n"
		"                           [--tid TID] [--comms LIST] [--dsos LIST]\n"
		"                           [--sort KEYS] [--format text|csv|json]\n"
		"                           [--folded] [--flamegraph FILE]\n"
		"  Hotspots of a collection saved by aca-host collect: samples by\n"
		"  process, by module and by function, most first; with callers in\n"
		"  the records, the callers of the hottest functions too.\n"
		"  --sysroot PATH  module paths of the target are found below PATH\n"
		"                  (default: as they are, on this machine), and\n"
		"                  separate debug files below PATH/usr/lib/debug\n"
		"  --kallsyms FILE kernel and kernel module functions from FILE, a\n"
		"                  copy of the target's /proc/kallsyms (read as root)\n"
		"  --vmlinux FILE  kernel functions from FILE, the target kernel's\n"
		"                  image with symbols, placed where the kernel ran\n"
		"  --top N         rows per table, 0 to %d (default %d, 0: all)\n"
		"  --pid PID       only the samples of process PID, 0 to %d\n"
		"                  (percentages of those; 0: the idle task)\n"
		"  --tid TID       only the samples of thread TID\n"
		"  --comms LIST    only the samples of these comms (comma-separated)\n"
		"  --dsos LIST     only the samples in these dsos (comma-separated)\n"
		"  --sort KEYS     one table grouped by KEYS, comma-separated, of\n"
		"                  comm, pid, tid, dso, sym, srcline (perf report's)\n"
		"  --format F      text (default), or csv or json: the --sort table\n"
		"                  alone (default keys comm,dso,sym)\n"
		"  --folded        the stacks alone, folded for FlameGraph:\n"
		"                  comm;outermost;...;leaf COUNT\n"
		"  --flamegraph FILE  also write the stacks as an SVG flame graph\n"
		"Exit status: 0; 1 if some input was malformed (reported on stderr,\n"
		"the rest is still reported); 2 if there is nothing to report on, or\n"
		"on a usage error, or FILE cannot be written.\n",
		REPORT_MAX_TOP, REPORT_DEFAULT_TOP, REPORT_MAX_PID);
}

static int write_flamegraph(const struct report *r, const char *path, const char *dir)
{
	char title[4200];
	FILE *f = fopen(path, "w");
	int err;

	if (!f) {
		fprintf(stderr, "aca-host report: --flamegraph %s: %m\n", path);
		return -1;
	}
	snprintf(title, sizeof(title), "Flame Graph: %s%s%s", dir, r->event[0] ? ", " : "",
		 r->event);
	err = flamegraph_write(&r->stacks, title, f);
	if (fclose(f) || err) {
		fprintf(stderr, "aca-host report: --flamegraph %s: %s\n", path,
			err ? "out of memory" : "cannot write it");
		return -1;
	}
	return 0;
}

static int parse_format(const char *arg, enum report_format *f)
{
	if (!strcmp(arg, "text"))
		*f = REPORT_TEXT;
	else if (!strcmp(arg, "csv"))
		*f = REPORT_CSV;
	else if (!strcmp(arg, "json"))
		*f = REPORT_JSON;
	else
		return -1;
	return 0;
}

/* One of report's own options; 0, or the exit status 2 after a message. */
static int option(int id, const char *arg, void *own)
{
	struct report_cmd *rc = own;
	unsigned long v;

	switch (id) {
	case OPT_TOP:
		if (arg_number(cmd, "--top", arg, 0, REPORT_MAX_TOP, &v))
			return 2;
		rc->o.top = v;
		return 0;
	case OPT_SORT:
		return sort_keys_parse(&rc->o.sort, arg, "aca-host report: --sort") ? 2 : 0;
	case OPT_FORMAT:
		if (parse_format(arg, &rc->o.format)) {
			fprintf(stderr, "%s: --format: '%s' is not text, csv or json\n",
				cmd, arg);
			return 2;
		}
		return 0;
	case OPT_FOLDED:
		rc->o.folded = 1;
		return 0;
	case OPT_FLAMEGRAPH:
		rc->flamegraph = arg;
		rc->o.stacks = 1;
		return 0;
	}
	usage(stderr);
	return 2;
}

int cmd_report(int argc, char **argv)
{
	static const struct arg_opt opts[] = {
		ARG_REPORT_OPTS,
		{ "top", required_argument, 't', OPT_TOP },
		{ "sort", required_argument, 0, OPT_SORT },
		{ "format", required_argument, 0, OPT_FORMAT },
		{ "folded", no_argument, 0, OPT_FOLDED },
		{ "flamegraph", required_argument, 0, OPT_FLAMEGRAPH },
		ARG_HELP_OPT,
		{ 0 }
	};
	struct report_cmd rc = { .o = { .top = REPORT_DEFAULT_TOP, .warn = stderr } };
	struct report_opts *o = &rc.o;
	const struct arg_cmd c = {
		.cmd = cmd, .operand = "DIR", .opts = opts, .usage = usage,
		.option = option, .own = &rc, .report = o,
	};
	const char *dir;
	struct report r;
	int ret;

	dir = arg_parse(&c, argc, argv, &ret);
	if (!dir)
		goto out;
	ret = 2;
	if (o->folded && (o->sort.n || o->format != REPORT_TEXT)) {
		fprintf(stderr, "%s: --folded prints the stacks alone: not with --sort or --format\n",
			cmd);
		goto out;
	}
	report_raise_nofile();
	ret = report_load(dir, o, &r);
	if (ret < 2 && rc.flamegraph && write_flamegraph(&r, rc.flamegraph, dir))
		ret = 2;
	else if (ret < 2)
		report_print(&r, o, dir, stdout);
	report_free(&r);
out:
	report_opts_free(o);
	return ret;
}
