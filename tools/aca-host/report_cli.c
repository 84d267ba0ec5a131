// SPDX-License-Identifier: GPL-2.0-only
/* aca-host report: its command line (the report itself: report_load.c, report.c). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "args.h"
#include "flamegraph.h"
#include "host.h"
#include "report.h"
#include "report_cli.h"

enum {
	OPT_SORT = 512,
	OPT_FORMAT,
	OPT_FOLDED,
	OPT_FLAMEGRAPH,
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

int report_shared_option(const char *cmd, int c, const char *arg,
			 struct report_opts *o)
{
	char what[64];
	unsigned long v;

	switch (c) {
	case OPT_SYSROOT:
		o->sysroot = arg;
		return 0;
	case OPT_KALLSYMS:
		o->kallsyms = arg;
		return 0;
	case OPT_VMLINUX:
		o->vmlinux = arg;
		return 0;
	case OPT_PID:
		if (arg_number(cmd, "--pid", arg, 0, REPORT_MAX_PID, &v))
			return -1;
		o->only_pid = 1;
		o->pid = v;
		return 0;
	case OPT_TID:
		if (arg_number(cmd, "--tid", arg, 0, REPORT_MAX_PID, &v))
			return -1;
		o->only_tid = 1;
		o->tid = v;
		return 0;
	case OPT_COMMS:
		snprintf(what, sizeof(what), "%s: --comms", cmd);
		return name_list_parse(&o->comms, arg, what);
	case OPT_DSOS:
		snprintf(what, sizeof(what), "%s: --dsos", cmd);
		return name_list_parse(&o->dsos, arg, what);
	}
	return 1;
}

void report_raise_nofile(void)
{
	struct rlimit nofile;

	/* A system-wide collection needs more than the usual 1024. */
	if (!getrlimit(RLIMIT_NOFILE, &nofile) && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
}

void report_opts_free(struct report_opts *o)
{
	name_list_free(&o->comms);
	name_list_free(&o->dsos);
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

int report_out_command(const char *cmd, void (*help)(FILE *f), report_writer write,
		       int argc, char **argv)
{
	static const struct option opts[] = {
		REPORT_SHARED_OPTIONS,
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct report_opts o = { .warn = stderr };
	const char *out = NULL;
	int c, ret = 2;

	argv[0] = (char *)cmd;	/* getopt's messages name the command */
	while ((c = getopt_long(argc, argv, "s:p:o:h", opts, NULL)) != -1) {
		int err = report_shared_option(cmd, c, optarg, &o);

		if (err < 0)
			goto out;
		if (!err)
			continue;
		if (c == 'o') {
			out = optarg;
			continue;
		}
		if (c == 'h') {
			help(stdout);
			ret = 0;
		} else {
			help(stderr);
		}
		goto out;
	}
	if (optind + 1 != argc || !out || !out[0]) {
		fprintf(stderr, "%s: %s expected\n", cmd,
			optind + 1 != argc ? "one DIR" : "--out FILE");
		help(stderr);
		goto out;
	}
	report_raise_nofile();
	ret = write(argv[optind], &o, out, argc, argv);
out:
	report_opts_free(&o);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		REPORT_SHARED_OPTIONS,
		{ "top", required_argument, NULL, 't' },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static char cmd[] = "aca-host report";
	struct report_opts o = { .top = REPORT_DEFAULT_TOP, .warn = stderr };
	const char *flamegraph = NULL;
	struct report r;
	unsigned long v;
	int c, ret = 2;

	argv[0] = cmd;		/* getopt's messages name the command */
	while ((c = getopt_long(argc, argv, "s:t:p:h", opts, NULL)) != -1) {
		int err = report_shared_option(cmd, c, optarg, &o);

		if (err < 0)
			goto out;
		if (!err)
			continue;
		switch (c) {
		case 't':
			if (arg_number(cmd, "--top", optarg, 0, REPORT_MAX_TOP, &v))
				goto out;
			o.top = v;
			break;
		case OPT_SORT:
			if (sort_keys_parse(&o.sort, optarg, "aca-host report: --sort"))
				goto out;
			break;
		case OPT_FORMAT:
			if (parse_format(optarg, &o.format)) {
				fprintf(stderr, "%s: --format: '%s' is not text, csv or json\n",
					cmd, optarg);
				goto out;
			}
			break;
		case OPT_FOLDED:
			o.folded = 1;
			break;
		case OPT_FLAMEGRAPH:
			flamegraph = optarg;
			o.stacks = 1;
			break;
		case 'h':
			usage(stdout);
			ret = 0;
			goto out;
		default:
			usage(stderr);
			goto out;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "%s: one DIR expected\n", cmd);
		usage(stderr);
		goto out;
	}
	if (o.folded && (o.sort.n || o.format != REPORT_TEXT)) {
		fprintf(stderr, "%s: --folded prints the stacks alone: not with --sort or --format\n",
			cmd);
		goto out;
	}
	report_raise_nofile();
	ret = report_load(argv[optind], &o, &r);
	if (ret < 2 && flamegraph && write_flamegraph(&r, flamegraph, argv[optind]))
		ret = 2;
	else if (ret < 2)
		report_print(&r, &o, argv[optind], stdout);
	report_free(&r);
out:
	report_opts_free(&o);
	return ret;
}
