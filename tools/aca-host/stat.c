// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host stat: a counting-mode session (sep_cmd.h, "Counting mode").
 * The steps up to START and after STOP are collect's (collect.h), with
 * INIT_DRIVER asking for counting mode and one counting ECB. The data
 * channels are still opened and read to their end, as the target wants
 * (spec 13), into /dev/null: in counting mode the CPU channels carry
 * nothing and the module channel records nothing stat needs. Between
 * START and STOP, READ_AND_RESET every interval and once at the end: the
 * last read comes before STOP, the target answers it only while running.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "collect.h"
#include "ecb.h"
#include "host.h"
#include "stat.h"
#include "stat_out.h"

#define STOP_TIMEOUT_S		120		/* STOP waits for the drain */
#define EOF_TIMEOUT_S		30		/* every channel's end after STOP */
#define TICK_S			0.1		/* channels and ^C checked so often */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	interrupted = 1;
}

/* What one session keeps. */
struct stat_state {
	struct host_session s;
	struct collect_opts co;		/* collect's steps' view of the options */
	struct collect_result r;
	struct ecb_set ecbs;
	uint32_t order[HOST_MAX_COUNT_EVENTS];
	struct stat_counts iv, total;
	uint8_t *reply;
	size_t reply_len;
	struct stat_print p;
	double t0;			/* CLOCK_MONOTONIC at START */
};

/* The one counting ECB of the events asked for. */
static int build_ecb(const struct stat_opts *o, struct stat_state *st)
{
	struct host_count_event ev[HOST_MAX_COUNT_EVENTS];

	for (unsigned int i = 0; i < o->ev.n; i++)
		ev[i] = o->ev.e[i].ev;
	st->ecbs.ecb[0] = host_ecb_build_counting(ev, o->ev.n, st->order, &st->ecbs.len[0]);
	if (!st->ecbs.ecb[0]) {
		fprintf(stderr, "aca-host: cannot build the counting ECB\n");
		return -1;
	}
	st->ecbs.n = 1;
	return 0;
}

/* Why the set-up failed, where a counting target would have said more. */
static void explain_configure(const struct host_session *s)
{
	if (s->last_command == SEP_CMD_INIT_DRIVER && s->last_status == VT_DRIVER_COMM_FAILED)
		fprintf(stderr, "aca-host stat: INIT_DRIVER refused: the target does not "
			"support counting mode (a SEP driver, or an aca without it)\n");
	else if (s->last_command == SEP_CMD_EM_CONFIG_NEXT)
		fprintf(stderr, "aca-host stat: the target refused the counting group "
			"(a SEP driver, or an aca without software events, refuses them)\n");
}

static void explain_start(const struct stat_opts *o, const struct host_session *s)
{
	if (s->last_status != VT_DRIVER_COMM_FAILED)
		return;
	if (stat_events_need_pmu(&o->ev))
		fprintf(stderr, "aca-host stat: START refused: a hardware event needs a PMU; "
			"software events count everywhere (the target's kernel log says "
			"which event could not count)\n");
	else
		fprintf(stderr, "aca-host stat: START refused: the target could not count "
			"the events (its kernel log says why)\n");
}

/* Seconds since START: the CPUs' TSC ticks, or the host's clock without a TSC rate. */
static double elapsed(const struct stat_state *st)
{
	if (st->r.tsc_hz)
		return stat_counts_seconds(&st->total, st->r.tsc_hz);
	return host_now_s() - st->t0;
}

static int read_counts(struct stat_state *st)
{
	int status = host_command(&st->s, SEP_CMD_READ_AND_RESET, NULL, 0, st->reply,
				  st->reply_len);

	if (status) {
		if (status > 0)
			fprintf(stderr, "aca-host stat: READ_AND_RESET refused by the target: "
				"status %d%s\n", status, status == VT_DRIVER_COMM_FAILED ?
				" (not counting)" : "");
		return -1;
	}
	stat_counts_read(st->reply, &st->iv, &st->total);
	return 0;
}

/* The end of the next wait, in seconds since START; INFINITY: until ^C. */
static double next_read(const struct stat_opts *o, uint64_t reads)
{
	double t = o->interval_ms ? (double)(reads + 1) * o->interval_ms / 1000.0 : INFINITY;

	return o->duration && o->duration < t ? o->duration : t;
}

/* START, a read every interval until the end, STOP. */
static int count(const struct stat_opts *o, struct stat_state *st)
{
	struct sigaction sa = { .sa_handler = on_sigint, .sa_flags = SA_RESETHAND };
	struct chan_set *cs = &st->r.chans;
	int err = 0, ended = 0;

	if (collect_cmd(&st->s, SEP_CMD_START, NULL, 0, NULL, 0, "START")) {
		explain_start(o, &st->s);
		return -1;
	}
	st->r.started = 1;
	st->t0 = host_now_s();
	/* A first ^C ends the count (and cleanly), a second one kills. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	for (uint64_t reads = 0; !ended; reads++) {
		double end = next_read(o, reads), t;

		while ((t = host_now_s() - st->t0) < end && !interrupted &&
		       chans_reading(cs) == cs->n)
			host_sleep_s(fmin(end - t, TICK_S));
		ended = interrupted || chans_reading(cs) != cs->n ||
			(o->duration && t >= o->duration);
		if (read_counts(st)) {
			err = -1;
			break;
		}
		if (o->interval_ms)
			stat_print_interval(&st->p, elapsed(st), &st->iv);
	}
	signal(SIGINT, SIG_DFL);
	if (!err)
		stat_print_totals(&st->p, elapsed(st), &st->total);
	for (uint32_t i = 0; i < cs->n; i++)
		cs->ch[i].early = atomic_load(&cs->ch[i].state) != CHAN_READING;
	/* The target flushes every channel before it answers (spec 13). */
	host_session_answer_within(&st->s, STOP_TIMEOUT_S);
	if (collect_cmd(&st->s, SEP_CMD_STOP, NULL, 0, NULL, 0, "STOP"))
		err = -1;
	host_session_answer_within(&st->s, 0);
	for (uint32_t i = 0; i < cs->n; i++) {
		if (!cs->ch[i].early)
			continue;
		fprintf(stderr, "aca-host stat: data channel %s ended during the count%s\n",
			cs->ch[i].name, cs->ch[i].error ? " with an error" : "");
		err = -1;
	}
	return err;
}

/* After STOP every channel must end. */
static int channels_end(struct stat_state *st)
{
	struct chan_set *cs = &st->r.chans;
	int err = 0;

	chans_wait(cs, EOF_TIMEOUT_S * 1000);
	for (uint32_t i = 0; i < cs->n; i++) {
		int state = atomic_load(&cs->ch[i].state);

		if (state == CHAN_EOF)
			continue;
		fprintf(stderr, "aca-host stat: data channel %s %s\n", cs->ch[i].name,
			state == CHAN_READING ? "did not end after STOP" : "failed");
		err = -1;
	}
	return err;
}

/* Everything between the open session and TERMINATE. */
static int session(const struct stat_opts *o, struct stat_state *st)
{
	st->r.ncpus = st->s.ncpus;
	st->r.tsc_hz = st->s.status.hardware_info.tsc_freq;
	st->reply_len = stat_reply_size(st->r.ncpus, o->ev.n);
	st->reply = malloc(st->reply_len);
	if (!st->reply || stat_counts_init(&st->iv, st->r.ncpus, o->ev.n) ||
	    stat_counts_init(&st->total, st->r.ncpus, o->ev.n)) {
		fprintf(stderr, "aca-host: out of memory\n");
		return -1;
	}
	if (!st->r.tsc_hz)
		fprintf(stderr, "aca-host stat: the target reports no TSC rate; "
			"times are the host's\n");
	/* Read every channel from now on, whatever happens next. */
	if (collect_open_files(&st->s, NULL, &st->r.chans) || chans_start(&st->r.chans))
		return -1;
	if (collect_configure(&st->s, &st->co, &st->ecbs, &st->r)) {
		explain_configure(&st->s);
		return -1;
	}
	if (count(o, st))
		return -1;
	return channels_end(st);
}

int stat_run(const struct stat_opts *o)
{
	struct stat_state *st = calloc(1, sizeof(*st));
	int ok = 0, opened = 0;

	if (!st) {
		fprintf(stderr, "aca-host: out of memory\n");
		return 1;
	}
	st->co = (struct collect_opts){ .target = o->target, .timeout_s = o->timeout_s,
					.counting = 1 };
	host_layout(&st->r.layout, 0);
	st->p = (struct stat_print){ .f = stdout, .sep = o->sep, .per_cpu = o->per_cpu,
				     .ev = &o->ev, .order = st->order };
	if (build_ecb(o, st) || collect_open_session(&st->s, &st->co))
		goto out;
	opened = 1;
	ok = !session(o, st);
	if (collect_terminate(&st->s))
		ok = 0;
	/* After TERMINATE nothing more comes: stragglers are cut off. */
	chans_wait(&st->r.chans, 5000);
	chans_stop(&st->r.chans);
out:
	collect_close_files(&st->r.chans);
	if (opened)
		for (uint32_t i = 0; i < st->s.ndata; i++)
			close(st->s.data[i]);
	collect_ecb_set_free(&st->ecbs);
	stat_counts_free(&st->iv);
	stat_counts_free(&st->total);
	free(st->reply);
	free(st);
	return ok ? 0 : 1;
}
