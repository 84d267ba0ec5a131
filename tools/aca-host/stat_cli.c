// SPDX-License-Identifier: GPL-2.0-only
/* aca-host stat: its command line (the session itself: stat.c). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "host.h"
#include "stat.h"

/* Messages start with it; getopt's too, as argv[0]. */
static char cmd[] = "aca-host stat";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-host stat TARGET[:PORT] [-e NAME[,NAME...]]... [-I MS] [--duration S]\n"
		"                     [-A] [-x SEP] [--timeout S]\n"
		"  Count events on every CPU of the target, as perf stat -a: every MS\n"
		"  milliseconds with -I, and for the whole run at the end (after \"# total\",\n"
		"  or \"total\" lines with -x).\n"
		"  -e, --event NAME     an event to count, or several separated by commas;\n"
		"                       at most %u in all, none twice (default\n"
		"                       %s):\n",
		HOST_MAX_COUNT_EVENTS, STAT_DEFAULT_EVENTS);
	stat_events_list(f);
	fprintf(f,
		"  -I, --interval, --interval-print MS\n"
		"                       print the counts of every MS milliseconds, %u to %u\n"
		"  --duration S         stop after S seconds (at most %u); without it, at ^C\n"
		"  -A, --no-aggr        a line per CPU instead of their sum\n"
		"  -x, --field-separator SEP\n"
		"                       SEP-separated fields, without header, padding or\n"
		"                       thousands separators\n"
		"  --timeout S          give up connecting after S seconds, 1 to %d (default %d)\n",
		STAT_MIN_INTERVAL_MS, STAT_MAX_INTERVAL_MS, STAT_MAX_DURATION_S,
		HOST_MAX_TIMEOUT_S, HOST_CONNECT_TIMEOUT_S);
}

static int add_events(struct stat_opts *o, const char *list)
{
	char err[160];

	if (!stat_events_add(&o->ev, list, err, sizeof(err)))
		return 0;
	fprintf(stderr, "%s: -e %s: %s\n", cmd, list, err);
	if (!strncmp(err, "unknown", 7)) {
		fprintf(stderr, "known events:\n");
		stat_events_list(stderr);
	}
	return 2;
}

/* One option; 0, or the exit status 2 after a message. */
static int option(int c, struct stat_opts *o)
{
	unsigned long ms;

	switch (c) {
	case 'e':
		return add_events(o, optarg);
	case 'I':
		if (arg_number(cmd, "--interval", optarg, STAT_MIN_INTERVAL_MS,
			       STAT_MAX_INTERVAL_MS, &ms))
			return 2;
		o->interval_ms = ms;
		return 0;
	case 'd':
		return arg_seconds(cmd, "--duration", optarg, STAT_MAX_DURATION_S,
				   &o->duration) ? 2 : 0;
	case 'A':
		o->per_cpu = 1;
		return 0;
	case 'x':
		if (!*optarg) {
			fprintf(stderr, "%s: -x: an empty separator\n", cmd);
			return 2;
		}
		o->sep = optarg;
		return 0;
	case 'T':
		return arg_timeout(cmd, optarg, &o->timeout_s) ? 2 : 0;
	}
	usage(stderr);
	return 2;
}

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "interval", required_argument, NULL, 'I' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "duration", required_argument, NULL, 'd' },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct stat_opts o = { .timeout_s = HOST_CONNECT_TIMEOUT_S };
	int c, ret;

	argv[0] = cmd;
	while ((c = getopt_long(argc, argv, "e:I:Ax:h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		ret = option(c, &o);
		if (ret)
			return ret;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "%s: one TARGET expected\n", cmd);
		usage(stderr);
		return 2;
	}
	o.target = argv[optind];
	if (host_check_target(cmd, o.target))
		return 2;
	if (!o.ev.n && add_events(&o, STAT_DEFAULT_EVENTS))
		return 2;
	return stat_run(&o);
}
