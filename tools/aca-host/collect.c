// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host collect: the sampling collection of spec 5.1, as the Intel test
 * host runs it, with every data channel read from the moment it is open
 * and saved (see collect_out.c for the files).
 */
#include <errno.h>
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
#include "files.h"
#include "groups.h"
#include "host.h"
#include "ksym_collect.h"
#include "payload.h"
#include "progress.h"

#define BUSY_RETRIES		20		/* 219 while a session ends */
#define STOP_TIMEOUT_S		120		/* STOP waits for the drain */

/*
 * SIGINT, from the moment the target holds a session for us to the end: a
 * first one ends the collection cleanly wherever it comes (before START:
 * no command more, then TERMINATE; during the wait: STOP now; after it:
 * nothing more to do), a second one kills, after the caller's on_kill.
 * in_setup says that the commands before START are still being sent.
 */
static volatile sig_atomic_t interrupted;
static int in_setup;
static void (*on_kill)(void);

static void on_sigint(int sig)
{
	if (!interrupted) {
		interrupted = 1;
		return;
	}
	if (on_kill)
		on_kill();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_sigint(void)
{
	struct sigaction sa = { .sa_handler = on_sigint, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

int collect_cmd(struct host_session *s, uint32_t id, const void *in,
		uint64_t in_len, void *out, uint64_t out_len, const char *name)
{
	int st;

	if (in_setup && interrupted) {
		fprintf(stderr, "aca-host: interrupted before START: %s not sent\n", name);
		return -1;
	}
	st = host_command(s, id, in, in_len, out, out_len);
	if (st < 0 && interrupted)
		fprintf(stderr, "aca-host: %s: interrupted\n", name);
	else if (st > 0)
		fprintf(stderr, "aca-host: %s refused by the target: status %d%s\n",
			name, st, st == VT_DRIVER_COMM_FAILED ?
			" (VT_DRIVER_COMM_FAILED: wrong state or bad payload)" : "");
	else if (st < 0)
		fprintf(stderr, "aca-host: %s: no valid answer\n", name);
	return st ? -1 : 0;
}

static int cmd_u32(struct host_session *s, uint32_t id, uint32_t v, const char *name)
{
	return collect_cmd(s, id, &v, sizeof(v), NULL, 0, name);
}

/* A target still tearing down the previous session answers 219 for a while. */
int collect_open_session(struct host_session *s, const struct collect_opts *o)
{
	for (int i = 0;; i++) {
		if (host_session_open_timeout(s, o->target, 1, o->timeout_s))
			return -1;
		if (s->status.status == VT_SUCCESS)
			return 0;
		close(s->ctl);
		if (s->status.status != VT_COMM_DATA_CHANNEL_UNAVAILABLE ||
		    i == BUSY_RETRIES) {
			host_explain_status(o->target, s->status.status);
			return -1;
		}
		host_sleep_s(0.25);
	}
}

void collect_ecb_set_free(struct ecb_set *e)
{
	for (uint32_t i = 0; i < e->n; i++)
		free(e->ecb[i]);
	e->n = 0;
}

/* EM_CONFIG_NEXT of group @g. */
static int send_ecb(struct host_session *s, const struct ecb_set *e, uint32_t g)
{
	struct sep_drv_ioctl_status st;

	memset(&st, 0, sizeof(st));
	/* With a status buffer the target can say which register it refused. */
	if (!host_command(s, SEP_CMD_EM_CONFIG_NEXT, e->ecb[g], e->len[g], &st,
			  sizeof(st)) && !st.drv_status)
		return 0;
	fprintf(stderr, "aca-host: EM_CONFIG_NEXT: the target refused the ECB");
	if (e->n > 1)
		fprintf(stderr, " of group %u", g);
	if (st.drv_status)
		fprintf(stderr, " (status %u, register type %u key 0x%llx)",
			st.drv_status, st.reg_prog_type, (unsigned long long)st.reg_key1);
	fprintf(stderr, "; its kernel log may say why\n");
	return -1;
}

/* Every event asked is an [ACA-EXT] IBS one (spec 6.12). */
static int only_ibs(const struct collect_opts *o)
{
	for (uint32_t i = 0; i < o->nevents; i++)
		if (!host_ibs_control(o->events[i], 1))
			return 0;
	return o->nevents && !o->ecb_file;
}

/* Spec 5.1 steps 1-20, minus the informational queries. */
int collect_configure(struct host_session *s, const struct collect_opts *o,
		      const struct ecb_set *ecbs, struct collect_result *r)
{
	struct sep_drv_topology_info *topo = NULL;
	struct sep_dev_config *dev = NULL;
	struct sep_event_config evc;
	struct sep_event_desc desc;
	struct sep_drv_setup_info setup;
	struct sep_drv_config drv;
	uint32_t version, ndesc = host_num_descriptors(ecbs->n);
	int32_t cores, busy = -1;
	int err = -1;

	if (collect_cmd(s, SEP_CMD_SET_OSID, NULL, 0, NULL, 0, "SET_OSID") ||
	    collect_cmd(s, SEP_CMD_VERSION, NULL, 0, &version, 4, "VERSION") ||
	    collect_cmd(s, SEP_CMD_GET_DRV_SETUP_INFO, NULL, 0, &setup, sizeof(setup),
		"GET_DRV_SETUP_INFO") ||
	    collect_cmd(s, SEP_CMD_NUM_CORES, NULL, 0, &cores, 4, "NUM_CORES"))
		return -1;
	/* IBS events sample on their own PMU, with or without a core one. */
	r->sw_clock = !!(setup.reserved2 & ACA_SETUP_SW_CLOCK) && !only_ibs(o);
	if ((uint32_t)cores != r->ncpus) {
		fprintf(stderr, "aca-host: NUM_CORES says %d CPUs, the status message %u\n",
			cores, r->ncpus);
		return -1;
	}
	if (cmd_u32(s, SEP_CMD_INIT_NUM_DEV, 1, "INIT_NUM_DEV") ||
	    collect_cmd(s, SEP_CMD_RESERVE, NULL, 0, &busy, 4, "RESERVE"))
		return -1;
	if (busy != SEP_RESERVE_OK) {
		fprintf(stderr, "aca-host: RESERVE: the target's sampling driver is busy (%d)\n",
			busy);
		return -1;
	}
	host_drv_config(&drv);
	if (o->counting)
		drv.collection_config |= SEP_DRV_CFG_COUNTING_MODE;
	topo = calloc(r->ncpus, sizeof(*topo));
	dev = calloc(1, sizeof(*dev));
	if (!topo || !dev) {
		fprintf(stderr, "aca-host: out of memory\n");
		goto out;
	}
	host_topology(topo, r->ncpus);
	host_event_desc(&desc);
	host_dev_config(dev);
	host_event_config(&evc);
	host_groups(&evc, ecbs->n, o->switch_ms, o->switch_samples);
	host_callstacks(&r->layout, &desc, dev, &evc);
	if (collect_cmd(s, SEP_CMD_INIT_DRIVER, &drv, sizeof(drv), NULL, 0, "INIT_DRIVER") ||
	    collect_cmd(s, SEP_CMD_SET_CPU_TOPOLOGY, topo, (uint64_t)r->ncpus * sizeof(*topo),
		NULL, 0, "SET_CPU_TOPOLOGY") ||
	    cmd_u32(s, SEP_CMD_NUM_DESCRIPTOR, ndesc, "NUM_DESCRIPTOR"))
		goto out;
	for (uint32_t i = 0; i < ndesc; i++)
		if (collect_cmd(s, SEP_CMD_DESC_NEXT, &desc, sizeof(desc), NULL, 0, "DESC_NEXT"))
			goto out;
	if (collect_cmd(s, SEP_CMD_INIT, dev, sizeof(*dev), NULL, 0, "INIT") ||
	    collect_cmd(s, SEP_CMD_EM_GROUPS, &evc, sizeof(evc), NULL, 0, "EM_GROUPS"))
		goto out;
	for (uint32_t g = 0; g < ecbs->n; g++)
		if (send_ecb(s, ecbs, g))
			goto out;
	if (cmd_u32(s, SEP_CMD_SET_DEVICE_NUM_UNITS, 1, "SET_DEVICE_NUM_UNITS") ||
	    cmd_u32(s, SEP_CMD_INIT_PMU, r->ncpus * 7 * 8, "INIT_PMU"))
		goto out;
	err = 0;
out:
	free(topo);
	free(dev);
	return err;
}

/* START, the wait with its progress line, STOP. */
static int run(struct host_session *s, const struct collect_opts *o,
	       struct collect_result *r)
{
	struct progress p;
	double t0, t;
	int err;

	if (collect_cmd(s, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, &r->start_tsc, 8,
		"GET_NORMALIZED_TSC") ||
	    collect_cmd(s, SEP_CMD_START, NULL, 0, NULL, 0, "START"))
		return -1;
	in_setup = 0;
	r->started = 1;
	t0 = host_now_s();
	r->start_s = t0;
	/* A first ^C ends the wait early (and cleanly), a second one kills. */
	progress_init(&p);
	while ((t = host_now_s() - t0) < o->duration && !interrupted &&
	       chans_reading(&r->chans) == r->chans.n) {
		if (o->tick) {
			if (o->tick(o->tick_arg, s, r, t))
				break;
		} else {
			progress_update(&p, t, o->duration,
					collect_samples_received(&r->chans,
								 r->layout.sample_size), "");
		}
		host_sleep_s(0.1);
	}
	r->interrupted = interrupted;
	for (uint32_t i = 0; i < r->chans.n; i++)
		r->chans.ch[i].early = atomic_load(&r->chans.ch[i].state) != CHAN_READING;
	if (!o->tick) {
		progress_update(&p, host_now_s() - t0, o->duration,
				collect_samples_received(&r->chans, r->layout.sample_size),
				"stopping");
		progress_done(&p);
	}
	r->sampled = host_now_s() - t0;
	/* The target flushes every channel before it answers (spec 13). */
	host_session_answer_within(s, STOP_TIMEOUT_S);
	err = collect_cmd(s, SEP_CMD_STOP, NULL, 0, NULL, 0, "STOP");
	r->elapsed = host_now_s() - t0;
	host_session_answer_within(s, 0);
	if (r->interrupted)
		fprintf(stderr, "aca-host: interrupted: stopped after %.1f s\n", r->elapsed);
	/* A channel may only end after STOP: before, the target gave up. */
	for (uint32_t i = 0; i < r->chans.n; i++) {
		if (!r->chans.ch[i].early)
			continue;
		fprintf(stderr, "aca-host: data channel %s ended during the collection%s\n",
			r->chans.ch[i].name, r->chans.ch[i].error ? " with an error" : "");
		err = -1;
	}
	return err;
}

/* After STOP: every channel must end, then the closing queries. */
static int finish(struct host_session *s, const struct collect_opts *o,
		  struct collect_result *r)
{
	uint32_t left;
	int err = 0;

	if (collect_cmd(s, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, &r->stop_tsc, 8,
		"GET_NORMALIZED_TSC"))
		err = -1;
	left = chans_wait(&r->chans, o->eof_timeout_s * 1000);
	r->all_eof = 1;
	for (uint32_t i = 0; i < r->chans.n; i++) {
		struct chan *c = &r->chans.ch[i];
		int state = atomic_load(&c->state);

		if (state == CHAN_EOF)
			continue;
		r->all_eof = 0;
		if (state == CHAN_READING)
			fprintf(stderr, "aca-host: data channel %s did not reach EOF within "
				"%d s after STOP (%llu bytes received)\n", c->name,
				o->eof_timeout_s, (unsigned long long)atomic_load(&c->bytes));
		else
			fprintf(stderr, "aca-host: data channel %s failed: %s\n", c->name,
				c->error ? strerror(c->error) : "aborted");
	}
	if (left)
		err = -1;
	r->queried = 1;
	if (collect_cmd(s, SEP_CMD_GET_NUM_SAMPLES, NULL, 0, &r->num_samples, 8,
		"GET_NUM_SAMPLES"))
		err = -1;
	else
		r->have_num_samples = 1;
	/* The reference answers 159 here (spec 9.9): not an error. */
	r->drop_status = host_command(s, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0,
				      &r->drops, sizeof(r->drops));
	if (r->drop_status < 0)
		err = -1;
	return err;
}

/*
 * After the data, before TERMINATE: every kernel address in the samples,
 * named by the target (KERNEL_SYMBOLS, an aca extension), into DIR/kallsyms.
 * A target that will not is said and is no failure.
 */
static void kernel_symbols(struct host_session *s, const struct collect_opts *o,
			   struct collect_result *r)
{
	struct record_layout l = {
		.size = r->layout.sample_size,
		.callstack_offset = r->layout.callstack_offset,
		.callstack_size = r->layout.callstack_size,
	};

	r->kernel_symbols = ksym_collect(s, o->out, r->ncpus, &l);
	if (r->kernel_symbols < 0)
		r->complete = 0;
}

/* TERMINATE; the target then closes the control channel. */
int collect_terminate(struct host_session *s)
{
	int st = host_command(s, SEP_CMD_TERMINATE, NULL, 0, NULL, 0);
	long long rest = st == VT_SUCCESS ? host_drain(s->ctl) : -1;

	if (st)
		fprintf(stderr, "aca-host: TERMINATE failed (status %d)\n", st);
	else if (rest < 0 && errno == ETIMEDOUT)
		fprintf(stderr, "aca-host: the control channel did not end within %d s of "
			"TERMINATE\n", HOST_DRAIN_TIMEOUT_S);
	else if (rest)
		fprintf(stderr, "aca-host: the control channel did not end after TERMINATE\n");
	close(s->ctl);
	s->ctl = -1;
	return st || rest ? -1 : 0;
}

/* The ECB of --ecb FILE, as group 0 alone. */
static int load_ecb_file(const struct collect_opts *o, struct ecb_set *e)
{
	char why[128];
	size_t len;
	/* A request's payload: the target ends a session sent more. */
	uint8_t *ecb = read_whole_file(o->ecb_file, HOST_MAX_REQUEST, &len);

	if (!ecb) {
		fprintf(stderr, "aca-host: %s: %s\n", o->ecb_file,
			read_failed(why, sizeof(why), errno, len, HOST_MAX_REQUEST,
				    "a request may carry"));
		return -1;
	}
	if (len < sizeof(struct sep_ecb)) {
		fprintf(stderr, "aca-host: %s: %zu bytes, an ECB has at least %zu\n",
			o->ecb_file, len, sizeof(struct sep_ecb));
		free(ecb);
		return -1;
	}
	e->ecb[0] = ecb;
	e->len[0] = len;
	e->n = 1;
	return 0;
}

/* The built-in ECB of each --event, group g sampling o->events[g]. */
static int build_ecbs(const struct collect_opts *o, struct collect_result *r,
		      struct ecb_set *e)
{
	r->sample_after = host_sample_after(r->tsc_hz, o->rate);
	for (e->n = 0; e->n < o->nevents; e->n++) {
		e->ecb[e->n] = host_ecb_build_group(o->events[e->n], r->sample_after,
						    e->n, &e->len[e->n]);
		if (!e->ecb[e->n]) {
			fprintf(stderr, "aca-host: cannot build the ECB of %s\n",
				o->events[e->n]);
			collect_ecb_set_free(e);
			return -1;
		}
	}
	return 0;
}

/*
 * After the closing queries: when each group sampled (GROUP_TIMES, an aca
 * extension), into DIR/groups.txt. A target without it (159: a SEP driver,
 * an older aca) leaves none, and that is no failure.
 */
static void group_times(struct host_session *s, const struct collect_opts *o,
			struct collect_result *r)
{
	size_t len = groups_reply_size();
	uint8_t *buf = malloc(len);
	int st;

	if (!buf) {
		fprintf(stderr, "aca-host: out of memory\n");
		r->complete = 0;
		return;
	}
	st = host_command(s, ACA_CMD_GROUP_TIMES, NULL, 0, buf, len);
	if (st < 0)
		r->complete = 0;
	else if (st && o->nevents > 1)
		fprintf(stderr, "aca-host: note: the target keeps no group times (status %d): "
			"no %s/" GROUPS_FILE ", report cannot scale the counts\n", st, o->out);
	else if (!st && groups_write(o->out, buf, len, o->events, o->nevents, r->tsc_hz))
		r->complete = 0;
	else if (!st)
		r->groups_written = 1;
	free(buf);
}

int collect_run(const struct collect_opts *o)
{
	struct host_session *s = calloc(1, sizeof(*s));
	struct collect_result *r = calloc(1, sizeof(*r));
	struct ecb_set ecbs = { .n = 0 };
	int ok = 0, session = 0;

	if (!s || !r) {
		fprintf(stderr, "aca-host: out of memory\n");
		goto out;
	}
	host_layout(&r->layout, o->call_depth);
	r->kernel_symbols = -1;
	/* A file ECB is checked before the target is bothered. */
	if (o->ecb_file && load_ecb_file(o, &ecbs))
		goto out;
	if (collect_open_session(s, o))
		goto out;
	session = 1;
	in_setup = 1;
	on_kill = o->on_kill;
	catch_sigint();
	r->ncpus = s->ncpus;
	r->tsc_hz = s->status.hardware_info.tsc_freq;
	/* Only a target that answered gets a directory (or DIR.old). */
	if (collect_prepare_out(o->out))
		goto end;
	/* Read every channel from now on, whatever happens next. */
	if (collect_open_files(s, o->out, &r->chans) || chans_start(&r->chans))
		goto end;
	if (!r->tsc_hz && !o->ecb_file)
		fprintf(stderr, "aca-host: the target reports no TSC rate; assuming 2.2 GHz\n");
	if ((!ecbs.n && build_ecbs(o, r, &ecbs)) || collect_configure(s, o, &ecbs, r) ||
	    run(s, o, r))
		goto end;
	r->complete = !finish(s, o, r);
	group_times(s, o, r);
	if (r->all_eof)
		kernel_symbols(s, o, r);
end:
	in_setup = 0;
	if (session && collect_terminate(s))
		r->complete = 0;
	/* After TERMINATE nothing more comes: stragglers are cut off. */
	if (chans_wait(&r->chans, 5000))
		r->all_eof = 0;
	chans_stop(&r->chans);
	if (r->chans.n)
		ok = !collect_report(s, o, r) && r->complete && r->all_eof;
	collect_close_files(&r->chans);
	for (uint32_t i = 0; i < s->ndata; i++)
		close(s->data[i]);
	if (!ok)
		fprintf(stderr, "aca-host: collection %s\n",
			r->complete ? "incomplete: see above" : "failed");
out:
	signal(SIGINT, SIG_DFL);
	in_setup = 0;
	collect_ecb_set_free(&ecbs);
	free(s);
	free(r);
	return ok ? 0 : 1;
}
