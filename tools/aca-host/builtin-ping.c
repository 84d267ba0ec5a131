// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host ping: the control channel's round trip. After the hand-shake,
 * PING_COUNT GET_NORMALIZED_TSC commands (the cheapest the target
 * answers: no state, 8 bytes back), one at a time; prints the smallest,
 * median, 99th percentile and largest round trip, in microseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "args.h"
#include "builtin.h"
#include "host.h"
#include "session.h"

#define PING_COUNT	1000

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int ping(const char *target, int timeout_s)
{
	static double rtt[PING_COUNT];
	struct host_session s;
	uint64_t tsc;
	int st, ret = 0;

	if (host_session_open_timeout(&s, target, 0, timeout_s))
		return 1;
	if (s.status.status != VT_SUCCESS) {
		host_explain_status(target, s.status.status);
		host_session_close(&s);
		return 1;
	}
	for (int i = 0; i < PING_COUNT; i++) {
		double t0 = now_us();

		st = host_command(&s, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, &tsc,
				  sizeof(tsc));
		if (st) {
			fprintf(stderr, "aca-host: GET_NORMALIZED_TSC failed (status %d)\n", st);
			ret = 1;
			break;
		}
		rtt[i] = now_us() - t0;
	}
	if (host_session_close(&s))
		ret = 1;
	if (ret)
		return ret;
	qsort(rtt, PING_COUNT, sizeof(rtt[0]), by_value);
	printf("%d GET_NORMALIZED_TSC round trips: min %.0f us, p50 %.0f us, p99 %.0f us, max %.0f us\n",
	       PING_COUNT, rtt[0], rtt[PING_COUNT / 2], rtt[PING_COUNT * 99 / 100],
	       rtt[PING_COUNT - 1]);
	return 0;
}

static void usage(FILE *f)
{
	arg_target_usage(f, "aca-host ping",
			 "Hand-shake, then time 1000 GET_NORMALIZED_TSC round trips on the\n"
			 "  control channel, one at a time; print the smallest, median, 99th\n"
			 "  percentile and largest, in microseconds.");
}

int cmd_ping(int argc, char **argv)
{
	return arg_target_command("aca-host ping", usage, ping, argc, argv);
}
