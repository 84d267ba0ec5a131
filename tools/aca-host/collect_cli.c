// SPDX-License-Identifier: GPL-2.0-only
/* aca-host collect: its command line (the collection itself: collect.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "collect.h"
#include "ecb.h"
#include "host.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-host collect TARGET[:PORT] --duration S --out DIR\n"
		"                        [--event NAME | --ecb FILE] [--rate HZ]\n"
		"                        [--eof-timeout S]\n"
		"  Sample the target for S seconds and save every data channel in DIR:\n"
		"  cpuN.bin, uncore.bin, module.bin and collection.txt.\n"
		"  --event NAME   built-in ECB (default %s):\n", HOST_DEFAULT_EVENT);
	host_ecb_list(f);
	fprintf(f,
		"  --ecb FILE     send FILE as the ECB instead (e.g. a VTune bin_ecb.config)\n"
		"  --rate HZ      samples per second and CPU for --event (default 1000)\n"
		"  --eof-timeout S  how long every channel may take to end after STOP (30)\n");
}

static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 86400)
		return -1;
	*out = v;
	return 0;
}

int cmd_collect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "ecb", required_argument, NULL, 'b' },
		{ "rate", required_argument, NULL, 'r' },
		{ "eof-timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct collect_opts o = { .rate = 1000, .eof_timeout_s = 30 };
	unsigned long rate;
	char *end;
	double t;
	int c;

	while ((c = getopt_long(argc, argv, "d:o:e:b:r:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (parse_seconds(optarg, &o.duration)) {
				fprintf(stderr, "aca-host: --duration: '%s' is not a number of "
					"seconds (0 < S <= 86400)\n", optarg);
				return 2;
			}
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'e':
			o.event = optarg;
			break;
		case 'b':
			o.ecb_file = optarg;
			break;
		case 'r':
			rate = strtoul(optarg, &end, 10);
			if (*end || end == optarg || rate < 1 || rate > 100000) {
				fprintf(stderr, "aca-host: --rate: 1 to 100000 samples/s\n");
				return 2;
			}
			o.rate = rate;
			break;
		case 't':
			if (parse_seconds(optarg, &t)) {
				fprintf(stderr, "aca-host: --eof-timeout: '%s' is not a number of seconds\n",
					optarg);
				return 2;
			}
			o.eof_timeout_s = (int)(t + 0.999);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc || !o.out || !o.duration) {
		fprintf(stderr, "aca-host collect: %s\n", optind + 1 != argc ?
			"one TARGET expected" : !o.out ? "--out DIR is required" :
			"--duration S is required");
		usage(stderr);
		return 2;
	}
	o.target = argv[optind];
	if (o.event && o.ecb_file) {
		fprintf(stderr, "aca-host collect: --event and --ecb exclude each other\n");
		return 2;
	}
	if (!o.ecb_file && !o.event)
		o.event = HOST_DEFAULT_EVENT;
	if (o.event && !host_ecb_known(o.event)) {
		fprintf(stderr, "aca-host collect: unknown event '%s'; known events:\n",
			o.event);
		host_ecb_list(stderr);
		return 2;
	}
	return collect_run(&o);
}
