// SPDX-License-Identifier: GPL-2.0-only
/* aca-host collect: its command line (the collection itself: collect.c). */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "builtin.h"
#include "collect.h"
#include "ecb.h"
#include "host.h"

/* Messages start with it; getopt's too, as argv[0]. */
static const char cmd[] = "aca-host collect";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-host collect TARGET[:PORT] --duration S --out DIR\n"
		"                        [--event NAME... | --ecb FILE] [--rate HZ]\n"
		"                        [--switch-ms MS | --switch-samples N]\n"
		"                        [-g | --call-graph fp[,N]] [--timeout S] [--eof-timeout S]\n"
		"  Sample the target for S seconds and save every data channel in DIR:\n"
		"  cpuN.bin, uncore.bin, module.bin and collection.txt. A previous\n"
		"  collection in DIR is moved to DIR.old first; any other non-empty DIR\n"
		"  is left alone and the command refused.\n"
		"  --duration S     seconds between START and STOP (at most 86400)\n"
		"  --event NAME     built-in ECB (default %s); given up to %u times\n"
		"                   (each a different event), each event is a group of\n"
		"                   its own and the groups take turns (multiplexing):\n",
		HOST_DEFAULT_EVENT, HOST_MAX_GROUPS);
	host_ecb_list(f);
	fprintf(f,
		"  --ecb FILE       send FILE as the ECB instead (e.g. a VTune bin_ecb.config)\n"
		"  --rate HZ        samples per second and CPU for --event, 1 to 100000\n"
		"                   (default 1000)\n"
		"  --switch-ms MS   with two or more --event, each group's turn in\n"
		"                   milliseconds, 1 to %u (default %u); when each sampled\n"
		"                   is saved in DIR/groups.txt\n"
		"  --switch-samples N\n"
		"                   instead, the next group's turn once a CPU has taken N\n"
		"                   samples in this one, 1 to %u\n"
		"  -g, --call-graph fp[,N]\n"
		"                   record each sample's callers too, kernel and user, by\n"
		"                   frame pointers: at most N (default %d, at most %u)\n"
		"  --timeout S      give up connecting, or on an answer, after S seconds,\n"
		"                   1 to %d (default %d connecting, %d an answer)\n"
		"  --eof-timeout S  how long every channel may take to end after STOP (30)\n",
		HOST_MAX_SWITCH_MS, HOST_DEFAULT_SWITCH_MS, HOST_MAX_SWITCH_SAMPLES,
		HOST_DEFAULT_CALL_DEPTH, (unsigned int)HOST_MAX_CALL_DEPTH,
		HOST_MAX_TIMEOUT_S, HOST_CONNECT_TIMEOUT_S, HOST_RECV_TIMEOUT_S);
}

/*
 * --event NAME once more: a group of its own. Never the same event twice:
 * the report names each group by its event, so the two could not be told
 * apart there.
 */
static int add_event(const char *name, struct collect_opts *o)
{
	if (o->nevents == HOST_MAX_GROUPS) {
		fprintf(stderr, "%s: --event given more than %u times\n", cmd,
			HOST_MAX_GROUPS);
		return 2;
	}
	for (uint32_t i = 0; i < o->nevents; i++)
		if (!strcmp(o->events[i], name)) {
			fprintf(stderr, "%s: --event %s given twice: the report names each "
				"group by its event, and could not tell these two apart\n",
				cmd, name);
			return 2;
		}
	o->events[o->nevents++] = name;
	return 0;
}

enum {
	OPT_EVENT = ARG_OWN,
	OPT_SWITCH_MS,
	OPT_SWITCH_SAMPLES,
};

/* One of collect's own options; 0, or the exit status 2 after a message. */
static int option(int id, const char *arg, void *own)
{
	struct collect_opts *o = own;
	unsigned long v;

	switch (id) {
	case OPT_EVENT:
		return add_event(arg, o);
	case OPT_SWITCH_MS:
		if (arg_number(cmd, "--switch-ms", arg, 1, HOST_MAX_SWITCH_MS, &v))
			return 2;
		o->switch_ms = v;
		o->switch_ms_set = 1;
		return 0;
	case OPT_SWITCH_SAMPLES:
		if (arg_number(cmd, "--switch-samples", arg, 1, HOST_MAX_SWITCH_SAMPLES, &v))
			return 2;
		o->switch_samples = v;
		return 0;
	}
	usage(stderr);
	return 2;
}

/* What the options leave to check: 0, or the exit status 2 after a message. */
static int check(struct collect_opts *o)
{
	if (!o->out || !o->duration) {
		fprintf(stderr, "%s: %s\n", cmd, !o->out ? "--out DIR is required" :
			"--duration S is required");
		usage(stderr);
		return 2;
	}
	if (host_check_target(cmd, o->target))
		return 2;
	if (o->switch_ms_set && o->switch_samples) {
		fprintf(stderr, "%s: --switch-ms and --switch-samples exclude each other\n", cmd);
		return 2;
	}
	return arg_check_events(cmd, o) || collect_check_out(o->out) ? 2 : 0;
}

int cmd_collect(int argc, char **argv)
{
	static const struct arg_opt opts[] = {
		{ "duration", required_argument, 'd', ARG_DURATION },
		{ "out", required_argument, 'o', ARG_OUT },
		{ "event", required_argument, 'e', OPT_EVENT },
		{ "ecb", required_argument, 'b', ARG_ECB },
		{ "rate", required_argument, 'r', ARG_RATE },
		{ "switch-ms", required_argument, 0, OPT_SWITCH_MS },
		{ "switch-samples", required_argument, 0, OPT_SWITCH_SAMPLES },
		{ "timeout", required_argument, 0, ARG_TIMEOUT },
		{ "eof-timeout", required_argument, 't', ARG_EOF_TIMEOUT },
		{ "call-graph", required_argument, 0, ARG_CALL_GRAPH },
		{ NULL, no_argument, 'g', ARG_CALLERS },
		ARG_HELP_OPT,
		{ 0 }
	};
	struct collect_opts o = { .rate = 1000, .switch_ms = HOST_DEFAULT_SWITCH_MS,
				  .eof_timeout_s = 30,
				  .timeout_s = 0 };	/* 0: no --timeout */
	const struct arg_cmd c = {
		.cmd = cmd, .operand = "TARGET", .opts = opts, .usage = usage,
		.option = option, .own = &o, .timeout_s = &o.timeout_s, .out = &o.out,
		.duration = &o.duration, .max_duration = 86400, .collect = &o,
	};
	int ret;

	o.target = arg_parse(&c, argc, argv, &ret);
	if (!o.target)
		return ret;
	ret = check(&o);
	return ret ? ret : collect_run(&o);
}
