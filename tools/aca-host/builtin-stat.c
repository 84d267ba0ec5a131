// SPDX-License-Identifier: GPL-2.0-only
/* aca-host stat: its command line (the session itself: stat.c). */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "builtin.h"
#include "host.h"
#include "stat.h"

/* Messages start with it; getopt's too, as argv[0]. */
static const char cmd[] = "aca-host stat";

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
		"  --timeout S          give up connecting, or on an answer, after S seconds,\n"
		"                       1 to %d (default %d connecting, %d an answer)\n",
		STAT_MIN_INTERVAL_MS, STAT_MAX_INTERVAL_MS, STAT_MAX_DURATION_S,
		HOST_MAX_TIMEOUT_S, HOST_CONNECT_TIMEOUT_S, HOST_RECV_TIMEOUT_S);
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

enum {
	OPT_EVENT = ARG_OWN,
	OPT_INTERVAL,
	OPT_NO_AGGR,
	OPT_SEPARATOR,
};

/* One of stat's own options; 0, or the exit status 2 after a message. */
static int option(int id, const char *arg, void *own)
{
	struct stat_opts *o = own;
	unsigned long ms;

	switch (id) {
	case OPT_EVENT:
		return add_events(o, arg);
	case OPT_INTERVAL:
		if (arg_number(cmd, "--interval", arg, STAT_MIN_INTERVAL_MS,
			       STAT_MAX_INTERVAL_MS, &ms))
			return 2;
		o->interval_ms = ms;
		return 0;
	case OPT_NO_AGGR:
		o->per_cpu = 1;
		return 0;
	case OPT_SEPARATOR:
		if (!*arg) {
			fprintf(stderr, "%s: -x: an empty separator\n", cmd);
			return 2;
		}
		o->sep = arg;
		return 0;
	}
	usage(stderr);
	return 2;
}

int cmd_stat(int argc, char **argv)
{
	static const struct arg_opt opts[] = {
		{ "event", required_argument, 'e', OPT_EVENT },
		{ "interval", required_argument, 'I', OPT_INTERVAL },
		{ "interval-print", required_argument, 0, OPT_INTERVAL },
		{ "duration", required_argument, 0, ARG_DURATION },
		{ "no-aggr", no_argument, 'A', OPT_NO_AGGR },
		{ "field-separator", required_argument, 'x', OPT_SEPARATOR },
		{ "timeout", required_argument, 0, ARG_TIMEOUT },
		ARG_HELP_OPT,
		{ 0 }
	};
	struct stat_opts o = { .timeout_s = 0 };	/* 0: no --timeout */
	const struct arg_cmd c = {
		.cmd = cmd, .operand = "TARGET", .opts = opts, .usage = usage,
		.option = option, .own = &o, .timeout_s = &o.timeout_s,
		.duration = &o.duration, .max_duration = STAT_MAX_DURATION_S,
	};
	int ret;

	o.target = arg_parse(&c, argc, argv, &ret);
	if (!o.target)
		return ret;
	if (host_check_target(cmd, o.target))
		return 2;
	if (!o.ev.n && add_events(&o, STAT_DEFAULT_EVENTS))
		return 2;
	return stat_run(&o);
}
