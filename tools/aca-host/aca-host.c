// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host: talk to an aca target (or any SEP remote target) the way VTune
 * does, and print what it says. Its commands are the table below, one
 * builtin-NAME.c each (builtin.h): the table runs them and makes the usage.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "host.h"

static const struct builtin {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;	/* after the name in the usage */
	const char *help;	/* one line */
} builtins[] = {
	{ "hello", cmd_hello, "TARGET [--timeout S]",
	  "hand-shake with the target and print its status" },
	{ "info", cmd_info, "TARGET [--timeout S]",
	  "open a session with all channels and print what the target reports" },
	{ "ping", cmd_ping, "TARGET [--timeout S]",
	  "time 1000 round trips of a cheap command on the control channel" },
	{ "collect", cmd_collect, "TARGET --duration S --out DIR [--event NAME|--ecb FILE]",
	  "sample the target and save every data channel in DIR" },
	{ "report", cmd_report, "DIR [--sysroot PATH] [--pid PID] [--top N]",
	  "hotspots of a saved collection by process, module, function" },
	{ "script", cmd_script, "DIR [--sysroot PATH] [--pid PID]",
	  "the samples of a saved collection with their stacks, as perf script" },
	{ "perf-data", cmd_perf_data, "DIR --out FILE [--sysroot PATH] [--pid PID]",
	  "a saved collection as a perf.data file for perf report, annotate" },
	{ "pprof", cmd_pprof, "DIR --out FILE [--sysroot PATH] [--pid PID]",
	  "a saved collection as a gzipped pprof profile (go tool pprof)" },
	{ "stat", cmd_stat, "TARGET [-e NAME...] [-I MS] [--duration S] [-A] [-x SEP]",
	  "count events on every CPU of the target, as perf stat -a" },
	{ "top", cmd_top, "TARGET [--out DIR] [--sysroot PATH] [--duration S]",
	  "the target's hottest functions or processes, live (q stops)" },
};

#define NBUILTINS	(sizeof(builtins) / sizeof(builtins[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: aca-host COMMAND [OPTION...] TARGET[:PORT] | DIR\n"
		   "       aca-host --help | --version\n");
	for (size_t i = 0; i < NBUILTINS; i++)
		fprintf(f, "  %-7s %s\n          %s\n", builtins[i].name, builtins[i].args,
			builtins[i].help);
	fprintf(f, "TARGET is HOST[:PORT] (default port %d). aca-host COMMAND --help tells more.\n",
		SEP_TCP_PORT);
}

static int is(const char *arg, const char *s1, const char *s2)
{
	return !strcmp(arg, s1) || !strcmp(arg, s2);
}

int main(int argc, char **argv)
{
	const char *cmd = argc >= 2 ? argv[1] : "";

	for (size_t i = 0; i < NBUILTINS; i++)
		if (!strcmp(cmd, builtins[i].name))
			return builtins[i].run(argc - 1, argv + 1);
	if (argc == 2 && is(cmd, "-h", "--help")) {
		usage(stdout);
		return 0;
	}
	if (argc == 2 && is(cmd, "-V", "--version")) {
		printf("aca-host %s\n", ACA_VERSION);
		return 0;
	}
	if (argc >= 2)
		fprintf(stderr, "aca-host: unknown %s '%s'\n",
			cmd[0] == '-' ? "option" : "command", cmd);
	usage(stderr);
	return 2;
}
