// SPDX-License-Identifier: GPL-2.0-only
/* aca-host collect: its command line (the collection itself: collect.c). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "collect.h"
#include "ecb.h"
#include "host.h"

/* Messages start with it; getopt's too, as argv[0]. */
static char cmd[] = "aca-host collect";

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
		"  --timeout S      give up connecting after S seconds, 1 to %d (default %d)\n"
		"  --eof-timeout S  how long every channel may take to end after STOP (30)\n",
		HOST_MAX_SWITCH_MS, HOST_DEFAULT_SWITCH_MS, HOST_MAX_SWITCH_SAMPLES,
		HOST_DEFAULT_CALL_DEPTH, (unsigned int)HOST_MAX_CALL_DEPTH,
		HOST_MAX_TIMEOUT_S, HOST_CONNECT_TIMEOUT_S);
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

/* One option; 0, or the exit status 2 after a message. */
static int option(int c, struct collect_opts *o)
{
	unsigned long rate, ms, n;
	double t;

	switch (c) {
	case 'd':
		return arg_seconds(cmd, "--duration", optarg, 86400, &o->duration) ? 2 : 0;
	case 'o':
		o->out = optarg;
		return 0;
	case 'e':
		return add_event(optarg, o);
	case 'S':
		if (arg_number(cmd, "--switch-ms", optarg, 1, HOST_MAX_SWITCH_MS, &ms))
			return 2;
		o->switch_ms = ms;
		o->switch_ms_set = 1;
		return 0;
	case 'N':
		if (arg_number(cmd, "--switch-samples", optarg, 1, HOST_MAX_SWITCH_SAMPLES, &n))
			return 2;
		o->switch_samples = n;
		return 0;
	case 'b':
		o->ecb_file = optarg;
		return 0;
	case 'r':
		if (arg_number(cmd, "--rate", optarg, 1, 100000, &rate))
			return 2;
		o->rate = rate;
		return 0;
	case 'g':
		o->call_depth = HOST_DEFAULT_CALL_DEPTH;
		return 0;
	case 'G':
		return arg_call_graph(cmd, optarg, &o->call_depth) ? 2 : 0;
	case 'T':
		return arg_timeout(cmd, optarg, &o->timeout_s) ? 2 : 0;
	case 't':
		if (arg_seconds(cmd, "--eof-timeout", optarg, 86400, &t))
			return 2;
		o->eof_timeout_s = (int)ceil(t);
		return 0;
	}
	usage(stderr);
	return 2;
}

/* What the options leave to check: 0, or the exit status 2 after a message. */
static int check(struct collect_opts *o, int argc, char **argv)
{
	if (optind + 1 != argc || !o->out || !o->duration) {
		fprintf(stderr, "%s: %s\n", cmd, optind + 1 != argc ?
			"one TARGET expected" : !o->out ? "--out DIR is required" :
			"--duration S is required");
		usage(stderr);
		return 2;
	}
	o->target = argv[optind];
	if (host_check_target(cmd, o->target))
		return 2;
	if (o->switch_ms_set && o->switch_samples) {
		fprintf(stderr, "%s: --switch-ms and --switch-samples exclude each other\n", cmd);
		return 2;
	}
	if (o->nevents && o->ecb_file) {
		fprintf(stderr, "%s: --event and --ecb exclude each other\n", cmd);
		return 2;
	}
	if (!o->ecb_file && !o->nevents)
		o->events[o->nevents++] = HOST_DEFAULT_EVENT;
	for (uint32_t i = 0; i < o->nevents; i++) {
		if (host_ecb_known(o->events[i]))
			continue;
		fprintf(stderr, "%s: unknown event '%s'; known events:\n", cmd,
			o->events[i]);
		host_ecb_list(stderr);
		return 2;
	}
	return collect_check_out(o->out) ? 2 : 0;
}

int cmd_collect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "ecb", required_argument, NULL, 'b' },
		{ "rate", required_argument, NULL, 'r' },
		{ "switch-ms", required_argument, NULL, 'S' },
		{ "switch-samples", required_argument, NULL, 'N' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "eof-timeout", required_argument, NULL, 't' },
		{ "call-graph", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct collect_opts o = { .rate = 1000, .switch_ms = HOST_DEFAULT_SWITCH_MS,
				  .eof_timeout_s = 30,
				  .timeout_s = HOST_CONNECT_TIMEOUT_S };
	int c, ret;

	argv[0] = cmd;
	while ((c = getopt_long(argc, argv, "d:o:e:b:r:t:gh", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		ret = option(c, &o);
		if (ret)
			return ret;
	}
	ret = check(&o, argc, argv);
	return ret ? ret : collect_run(&o);
}
