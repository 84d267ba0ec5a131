// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host: talk to an aca target (or any SEP remote target) the way VTune
 * does, and print what it says.
 *   aca-host hello TARGET[:PORT]   handshake and print the target status
 *   aca-host info TARGET[:PORT]    a whole session: every fact the target gives
 *   aca-host ping TARGET[:PORT]    the control channel's round trip
 *   aca-host collect TARGET ...     a sampling collection saved to a directory
 *   aca-host report DIR ...         hotspots of a saved collection
 *   aca-host script DIR ...         its samples and stacks, as perf script
 *   aca-host perf-data DIR ...      it as a perf.data file, for perf's tools
 *   aca-host pprof DIR ...          it as a pprof profile, for go tool pprof
 *   aca-host stat TARGET ...        counts of events, as perf stat -a
 *   aca-host top TARGET ...         the hottest functions, live, as it samples
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "host.h"

/* A command with a TARGET and --timeout alone: hello, info, ping. */
struct target_cmd {
	const char *name;
	const char *what;		/* what it does, for its usage */
	int (*run)(const char *target, int timeout_s);
};

static void usage(FILE *f)
{
	fprintf(f, "usage: aca-host COMMAND [OPTION...] TARGET[:PORT] | DIR\n"
		   "       aca-host --help | --version\n"
		   "  hello   TARGET [--timeout S]\n"
		   "          hand-shake with the target and print its status\n"
		   "  info    TARGET [--timeout S]\n"
		   "          open a session with all channels, print what the target\n"
		   "          reports (CPUs, TSC, topology, ...), terminate cleanly\n"
		   "  ping    TARGET [--timeout S]\n"
		   "          time 1000 round trips of a cheap command on the control channel\n"
		   "  collect TARGET --duration S --out DIR [--event NAME|--ecb FILE]\n"
		   "          sample the target and save every data channel in DIR\n"
		   "  report  DIR [--sysroot PATH] [--pid PID] [--top N]\n"
		   "          hotspots of a saved collection by process, module, function\n"
		   "  script  DIR [--sysroot PATH] [--pid PID]\n"
		   "          the samples of a saved collection with their stacks, as perf script\n"
		   "  perf-data DIR --out FILE [--sysroot PATH] [--pid PID]\n"
		   "          a saved collection as a perf.data file for perf report, annotate\n"
		   "  pprof   DIR --out FILE [--sysroot PATH] [--pid PID]\n"
		   "          a saved collection as a gzipped pprof profile (go tool pprof)\n"
		   "  stat    TARGET [-e NAME...] [-I MS] [--duration S] [-A] [-x SEP]\n"
		   "          count events on every CPU of the target, as perf stat -a\n"
		   "  top     TARGET [--out DIR] [--sysroot PATH] [--duration S]\n"
		   "          the target's hottest functions or processes, live (q stops)\n"
		   "TARGET is HOST[:PORT] (default port %d). aca-host COMMAND --help tells more.\n",
		SEP_TCP_PORT);
}

static void target_cmd_usage(const struct target_cmd *c, FILE *f)
{
	fprintf(f, "usage: aca-host %s [--timeout S] TARGET[:PORT]\n"
		   "  %s\n"
		   "  --timeout S  give up connecting after S seconds, 1 to %d (default %d)\n"
		   "  TARGET is a host name or address, [ADDRESS]:PORT for IPv6 (default\n"
		   "  port %d).\n",
		c->name, c->what, HOST_MAX_TIMEOUT_S, HOST_CONNECT_TIMEOUT_S, SEP_TCP_PORT);
}

static int run_target_cmd(const struct target_cmd *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int timeout_s = HOST_CONNECT_TIMEOUT_S, opt;
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "aca-host %s", c->name);
	argv[0] = cmd;		/* getopt's messages name the command */
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (arg_timeout(cmd, optarg, &timeout_s))
				return 2;
			break;
		case 'h':
			target_cmd_usage(c, stdout);
			return 0;
		default:
			target_cmd_usage(c, stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "%s: one TARGET expected\n", cmd);
		target_cmd_usage(c, stderr);
		return 2;
	}
	if (host_check_target(cmd, argv[optind]))
		return 2;
	return c->run(argv[optind], timeout_s);
}

static int is(const char *arg, const char *s1, const char *s2)
{
	return !strcmp(arg, s1) || !strcmp(arg, s2);
}

int main(int argc, char **argv)
{
	static const struct target_cmd hello = {
		"hello", "Hand-shake with the target and print its status message.",
		cmd_hello,
	}, info = {
		"info", "Open a whole session (every channel), print what the target\n"
			"  reports (CPUs, TSC, topology, platform), and end it cleanly.",
		cmd_info,
	}, ping = {
		"ping", "Hand-shake, then time 1000 GET_NORMALIZED_TSC round trips on the\n"
			"  control channel, one at a time; print the smallest, median, 99th\n"
			"  percentile and largest, in microseconds.",
		cmd_ping,
	};
	const char *cmd = argc >= 2 ? argv[1] : "";

	if (!strcmp(cmd, "hello"))
		return run_target_cmd(&hello, argc - 1, argv + 1);
	if (!strcmp(cmd, "info"))
		return run_target_cmd(&info, argc - 1, argv + 1);
	if (!strcmp(cmd, "ping"))
		return run_target_cmd(&ping, argc - 1, argv + 1);
	if (!strcmp(cmd, "collect"))
		return cmd_collect(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "script"))
		return cmd_script(argc - 1, argv + 1);
	if (!strcmp(cmd, "perf-data"))
		return cmd_perf_data(argc - 1, argv + 1);
	if (!strcmp(cmd, "pprof"))
		return cmd_pprof(argc - 1, argv + 1);
	if (!strcmp(cmd, "stat"))
		return cmd_stat(argc - 1, argv + 1);
	if (!strcmp(cmd, "top"))
		return cmd_top(argc - 1, argv + 1);
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
