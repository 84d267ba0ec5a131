// SPDX-License-Identifier: GPL-2.0-only
/* aca-host script: its command line (the output: script.c). */
#include <stdio.h>

#include "args.h"
#include "builtin.h"
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
	static const struct arg_opt opts[] = {
		ARG_REPORT_OPTS,
		ARG_HELP_OPT,
		{ 0 }
	};
	struct report_opts o = { .warn = stderr };
	const struct arg_cmd c = {
		.cmd = "aca-host script", .operand = "DIR", .opts = opts, .usage = usage,
		.report = &o,
	};
	const char *dir;
	int ret;

	dir = arg_parse(&c, argc, argv, &ret);
	if (dir) {
		report_raise_nofile();
		ret = script_print(dir, &o, stdout);
	}
	report_opts_free(&o);
	return ret;
}
