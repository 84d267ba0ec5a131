// SPDX-License-Identifier: GPL-2.0-only
/* aca-host script: its command line (the output: script.c). */
#include <getopt.h>
#include <stdio.h>

#include "host.h"
#include "report_cli.h"
#include "script.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-host script DIR [--sysroot PATH] [--kallsyms FILE]\n"
		"                           [--vmlinux FILE] [--pid PID] [--tid TID]\n"
		"                           [--comms LIST] [--dsos LIST]\n"
		"  Every sample of a collection saved by aca-host collect, oldest\n"
		"  first, in perf script's format: a line COMM PID/TID [CPU] TIME:\n"
		"  PERIOD EVENT:, then one line ADDRESS SYMBOL+0xOFFSET (DSO) per\n"
		"  frame, the sample's own first, then an empty line. FlameGraph's\n"
		"  stackcollapse-perf.pl folds it as it folds perf script's.\n"
		"  --sysroot, --kallsyms, --vmlinux  where names come from, as for\n"
		"                  aca-host report\n"
		"  --pid PID, --tid TID, --comms LIST, --dsos LIST  only those\n"
		"                  samples, as for aca-host report\n"
		"Exit status: 0; 1 if some input was malformed (reported on stderr,\n"
		"the rest is still printed); 2 if there is nothing to print, or on a\n"
		"usage error.\n");
}

int cmd_script(int argc, char **argv)
{
	static const struct option opts[] = {
		REPORT_SHARED_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static char cmd[] = "aca-host script";
	struct report_opts o = { .warn = stderr };
	int c, ret = 2;

	argv[0] = cmd;		/* getopt's messages name the command */
	while ((c = getopt_long(argc, argv, "s:p:h", opts, NULL)) != -1) {
		int err = report_shared_option(cmd, c, optarg, &o);

		if (err < 0)
			goto out;
		if (!err)
			continue;
		if (c == 'h') {
			usage(stdout);
			ret = 0;
		} else {
			usage(stderr);
		}
		goto out;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "%s: one DIR expected\n", cmd);
		usage(stderr);
		goto out;
	}
	report_raise_nofile();
	ret = script_print(argv[optind], &o, stdout);
out:
	report_opts_free(&o);
	return ret;
}
