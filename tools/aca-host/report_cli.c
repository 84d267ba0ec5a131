// SPDX-License-Identifier: GPL-2.0-only
/* aca-host report: its command line (the report itself: report_load.c, report.c). */
#include <getopt.h>
#include <stdio.h>
#include <sys/resource.h>

#include "args.h"
#include "host.h"
#include "report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-host report DIR [--sysroot PATH] [--kallsyms FILE]\n"
		"                           [--vmlinux FILE] [--top N] [--pid PID]\n"
		"  Hotspots of a collection saved by aca-host collect: samples by\n"
		"  process, by module and by function, most first.\n"
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
		"Exit status: 0; 1 if some input was malformed (reported on stderr,\n"
		"the rest is still reported); 2 if there is nothing to report on, or\n"
		"on a usage error.\n",
		REPORT_MAX_TOP, REPORT_DEFAULT_TOP, REPORT_MAX_PID);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sysroot", required_argument, NULL, 's' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "vmlinux", required_argument, NULL, 'v' },
		{ "top", required_argument, NULL, 't' },
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static char cmd[] = "aca-host report";
	struct report_opts o = { .top = REPORT_DEFAULT_TOP, .warn = stderr };
	struct rlimit nofile;
	struct report r;
	unsigned long v;
	int c, ret;

	argv[0] = cmd;		/* getopt's messages name the command */
	while ((c = getopt_long(argc, argv, "s:t:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o.sysroot = optarg;
			break;
		case 'k':
			o.kallsyms = optarg;
			break;
		case 'v':
			o.vmlinux = optarg;
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
	/*
	 * libdwfl keeps each binary and its debug file open for the whole
	 * report: a system-wide collection needs more than the usual 1024.
	 */
	if (!getrlimit(RLIMIT_NOFILE, &nofile) && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	ret = report_load(argv[optind], &o, &r);
	if (ret < 2)
		report_print(&r, &o, argv[optind], stdout);
	report_free(&r);
	return ret;
}
