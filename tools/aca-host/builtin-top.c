// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host top: a collection (collect.c) shown live. Every channel goes to
 * a directory as collect saves it (--out DIR, or a temporary one removed
 * at the end); once a second the samples received so far are read back
 * and attributed as aca-host report does (report_load()), the kernel ones
 * named by the target itself (KERNEL_SYMBOLS, legal while it samples), the
 * user ones by the mappings the target describes when asked
 * (MODULE_SNAPSHOT: at START, and again when samples no mapping covers
 * keep coming), and the hottest functions or processes are drawn. On a terminal: its own
 * screen, keys read raw (termios), the terminal restored on every way out;
 * otherwise a plain snapshot per refresh. q (or ^C, or --duration) ends
 * the collection as collect's does: STOP, every channel to its end, the
 * closing queries, TERMINATE.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "args.h"
#include "builtin.h"
#include "collect.h"
#include "ecb.h"
#include "files.h"
#include "host.h"
#include "ksym_collect.h"
#include "report.h"
#include "util.h"

#define REFRESH_S	1.0		/* between two reads of the samples */
#define KSYM_TRIES	3		/* failed KERNEL_SYMBOLS asks in a row */
#define SNAP_GAP_S	2.0		/* at least between two MODULE_SNAPSHOTs */
#define SNAP_TRIES	3		/* failed MODULE_SNAPSHOT asks in a row */
#define HEADER_ROWS	6		/* above the table */

static const char cmd[] = "aca-host top";

struct top {
	const char *target;
	const char *dir;		/* where the channels go */
	struct report_opts ro;
	unsigned int rows;		/* table rows; 0: as the terminal allows */
	int by_process;			/* 'p'; 'f' back to functions */
	int tty_in, tty_out;
	int started;			/* the screen is ours */
	struct termios saved;
	int term_set;
	int saved_err;			/* stderr while the screen is ours */
	FILE *log;			/* what was said on it meanwhile */
	double last;			/* t of the last read, -1: none */
	int ksym_state;			/* 0: ask; 1: refused; -1: broken */
	unsigned int ksym_failed;	/* asks in a row that failed */
	struct ksym_known ksyms;	/* named so far: asked once each */
	struct ksym_ask ask;		/* the request whose answer is awaited */
	/*
	 * MODULE_SNAPSHOT: 0 ask (once at START, then, SNAP_GAP_S after the
	 * last ask, when a process that had none then has user samples no
	 * mapping covers); 1 refused (a stock target, an older aca, no
	 * privilege); -1 broken.
	 */
	int snap_state;
	unsigned int snap_failed;	/* asks in a row answered otherwise */
	int snap_asked;
	double snap_t;			/* t of the last ask */
	struct tally snap_pids;		/* pids with unmapped user samples then */
	struct report rep;
	int have_rep;
	struct record_layout layout;	/* the records', for a refresh */
	double t;
	int ended;			/* the table of the whole collection */
	int said_read_max;		/* a file past files_read_max() said */
};

static struct top *live;	/* for atexit() */
/* For a signal that kills: the settings to put back, whether to. */
static struct termios killed_saved;
static volatile sig_atomic_t killed_restore, killed_screen;

/* The terminal put back, async-signal-safe calls only. */
static void restore_on_kill(void)
{
	static const char leave[] = "\033[?25h\033[?1049l";

	if (killed_restore)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &killed_saved);
	if (killed_screen && write(STDOUT_FILENO, leave, sizeof(leave) - 1) < 0)
		killed_screen = 0;
}

/*
 * SIGTERM, SIGHUP, SIGQUIT while the screen is ours (and a second SIGINT,
 * through collect's on_kill): the terminal put back, then the signal's
 * default action.
 */
static void on_fatal(int sig)
{
	restore_on_kill();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_fatal(void)
{
	struct sigaction sa = { .sa_handler = on_fatal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-host top TARGET[:PORT] [--out DIR] [--sysroot PATH]\n"
		"                    [--event NAME | --ecb FILE] [--rate HZ] [--duration S]\n"
		"                    [-g | --call-graph fp[,N]] [--top N] [--pid PID]\n"
		"                    [--tid TID] [--comms LIST] [--timeout S]\n"
		"                    [--eof-timeout S]\n"
		"  Sample the target and show its hottest functions (or processes) live,\n"
		"  refreshed every second, until q, ^C or --duration; then stop the\n"
		"  collection cleanly (STOP, every channel ended, TERMINATE).\n"
		"  Keys: f by function (default), p by process, q quit.\n"
		"  --out DIR        also save the collection in DIR, as collect does\n"
		"  --sysroot PATH   the target's files are below PATH, for user names\n"
		"  --event NAME     built-in ECB (default %s)\n"
		"  --ecb FILE       send FILE as the ECB instead\n"
		"  --rate HZ        samples per second and CPU, 1 to 100000 (default 1000)\n"
		"  --duration S     stop after S seconds (at most 86400; default: at q)\n"
		"  -g, --call-graph fp[,N]\n"
		"                   record each sample's callers too, as collect does,\n"
		"                   for the collection --out keeps (the table counts\n"
		"                   where each sample was taken)\n"
		"  --top N          rows shown (default: as many as the terminal has, 20\n"
		"                   when the output is no terminal)\n"
		"  --pid PID, --tid TID, --comms LIST\n"
		"                   show only the samples of that process, thread or\n"
		"                   these comms (comma-separated), percentages of\n"
		"                   those; the target samples everything all the same\n"
		"  --timeout S      give up connecting, or on an answer, after S seconds,\n"
		"                   1 to %d (default %d connecting, %d an answer)\n"
		"  --eof-timeout S  how long every channel may take to end after STOP (30)\n"
		"  When the output is no terminal, each refresh prints a plain snapshot.\n",
		HOST_DEFAULT_EVENT, HOST_MAX_TIMEOUT_S, HOST_CONNECT_TIMEOUT_S,
		HOST_RECV_TIMEOUT_S);
}

/* The screen back as it was, stderr too, and what was said meanwhile. */
static void term_leave(struct top *tp)
{
	killed_restore = killed_screen = 0;
	if (tp->term_set) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &tp->saved);
		tp->term_set = 0;
	}
	if (tp->started && tp->tty_out) {
		/* cursor shown, the main screen back */
		fputs("\033[?25h\033[?1049l", stdout);
		fflush(stdout);
	}
	tp->started = 0;
	if (tp->saved_err >= 0) {
		char buf[4096];
		size_t n;

		fflush(stderr);
		dup2(tp->saved_err, STDERR_FILENO);
		close(tp->saved_err);
		tp->saved_err = -1;
		rewind(tp->log);
		while ((n = fread(buf, 1, sizeof(buf), tp->log)) > 0)
			fwrite(buf, 1, n, stderr);
	}
	if (tp->log) {
		fclose(tp->log);
		tp->log = NULL;
	}
}

static void leave_at_exit(void)
{
	if (live)
		term_leave(live);
}

/* Keys without Enter or echo (^C still a SIGINT), our own screen. */
static void term_enter(struct top *tp)
{
	tp->started = 1;
	if (tp->tty_in && !tcgetattr(STDIN_FILENO, &tp->saved)) {
		struct termios raw = tp->saved;

		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		killed_saved = tp->saved;
		if (!tcsetattr(STDIN_FILENO, TCSANOW, &raw))
			tp->term_set = killed_restore = 1;
	}
	if (!tp->tty_out)
		return;
	/* Messages would tear the screen: kept until it is left. */
	tp->log = tmpfile();
	if (tp->log) {
		fflush(stderr);
		tp->saved_err = dup(STDERR_FILENO);
		if (tp->saved_err >= 0)
			dup2(fileno(tp->log), STDERR_FILENO);
	}
	/* the alternate screen, cursor hidden */
	killed_screen = 1;
	fputs("\033[?1049h\033[?25l", stdout);
}

static void term_size(unsigned int *rows, unsigned int *cols)
{
	struct winsize w;

	*rows = 24;
	*cols = 80;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) && w.ws_row && w.ws_col) {
		*rows = w.ws_row;
		*cols = w.ws_col;
	}
}

/* One line, cut to @cols on a terminal; erased to its end. */
static void line(const struct top *tp, unsigned int cols, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void line(const struct top *tp, unsigned int cols, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (tp->tty_out) {
		if (cols < sizeof(buf))
			buf[cols] = 0;
		printf("%s\033[K\r\n", buf);
	} else {
		printf("%s\n", buf);
	}
}

/* What the table keeps of the samples, after the header's first line. */
static const char *shown_of(const struct report_opts *o)
{
	static char buf[64];
	size_t n = 0;

	buf[0] = '\0';
	if (o->only_pid)
		n += snprintf(buf + n, sizeof(buf) - n, "%s pid %u", n ? "," : "  of", o->pid);
	if (o->only_tid)
		n += snprintf(buf + n, sizeof(buf) - n, "%s tid %u", n ? "," : "  of", o->tid);
	if (o->comms.n)
		snprintf(buf + n, sizeof(buf) - n, "%s --comms", n ? "," : "  of");
	return buf;
}

static void draw(struct top *tp)
{
	const struct report *r = &tp->rep;
	const struct tally *t = tp->by_process ? &r->processes : &r->functions;
	const char *what = tp->by_process ? "process" : "function";
	unsigned int rows = 20, cols = 1000, shown;
	struct tally_entry *v = NULL;
	size_t n = 0;

	if (tp->tty_out) {
		term_size(&rows, &cols);
		rows = rows > HEADER_ROWS + 1 ? rows - HEADER_ROWS - 1 : 1;
		fputs("\033[H", stdout);
	}
	if (tp->rows)
		rows = tp->rows;
	if (tp->have_rep)
		v = tally_sorted(t, &n);
	shown = n < rows ? n : rows;
	line(tp, cols, "aca-host top %s  %.1f s  %llu samples  %.1f%% kernel  by %s%s",
	     tp->target, tp->t, (unsigned long long)r->samples, pct(r->kernel, r->samples),
	     what, shown_of(&tp->ro));
	line(tp, cols, "%s", tp->ended ? "(the collection has ended)" : tp->tty_in ?
	     "keys: f functions  p processes  q quit" : "(^C stops)");
	line(tp, cols, "kernel names: %s", r->default_kallsyms[0] ?
	     "the target's (KERNEL_SYMBOLS), as it samples" : tp->ksym_state > 0 ?
	     "none: the target does not name them ([kernel] by module)" : tp->ksym_state ?
	     "none: asking the target failed, see the end ([kernel] by module)" :
	     "none yet ([kernel] by module)");
	if (r->samples > r->with_module)
		line(tp, cols, "unattributed: %llu samples (user code is named once the "
		     "target sends its mappings: %s)",
		     (unsigned long long)(r->samples - r->with_module),
		     tp->snap_state ? "at STOP" : "asked, MODULE_SNAPSHOT");
	else
		line(tp, cols, "%s", "");
	if (r->past_read_max)
		line(tp, cols, "left out: the samples of %u file%s of more than %llu bytes "
		     "(" FILES_READ_MAX_ENV ")", r->past_read_max,
		     r->past_read_max == 1 ? "" : "s", (unsigned long long)files_read_max());
	else
		line(tp, cols, "%s", "");
	line(tp, cols, "   samples        %%  %s", what);
	for (unsigned int i = 0; i < shown; i++)
		line(tp, cols, "%10llu  %6.2f%%  %s", (unsigned long long)v[i].count,
		     pct(v[i].count, r->samples), v[i].key);
	free(v);
	if (tp->tty_out)
		fputs("\033[J", stdout);	/* the rest of the screen cleared */
	else
		putchar('\n');
	fflush(stdout);
}

/* The processes with unmapped user samples now, for the next ask. */
static void remember_unmapped_pids(struct top *tp)
{
	struct tally_entry *e;
	size_t n = 0;

	tally_free(&tp->snap_pids);
	e = tp->have_rep ? tally_sorted(&tp->rep.unmapped_pids, &n) : NULL;
	for (size_t i = 0; i < n; i++)
		tally_add(&tp->snap_pids, e[i].key, 1);
	free(e);
}

/* A process with unmapped user samples that had none at the last ask. */
static int new_unmapped_pid(const struct top *tp, const struct report *rep)
{
	struct tally_entry *e;
	size_t n = 0;
	int found = 0;

	e = tally_sorted(&rep->unmapped_pids, &n);
	for (size_t i = 0; i < n && !found; i++)
		found = !tally_get(&tp->snap_pids, e[i].key);
	free(e);
	return found;
}

/* The status a target refused MODULE_SNAPSHOT with, in words, once. */
static void say_snapshot_refused(int status)
{
	const char *why = status == VT_NO_ADMIN_PRIVILEGE ?
		"the session lacks CAP_PERFMON on the target" :
		"an older aca, or a SEP target that is not aca";

	fprintf(stderr, "aca-host: the target does not describe its processes' mappings "
		"while it samples (MODULE_SNAPSHOT: status %d, %s); user code is named "
		"by those it sends at STOP\n", status, why);
}

/*
 * Ask the target to describe every live process's mappings on the module
 * channel (they come a moment later: the next refresh reads them). 159
 * and 213 are a target that cannot or will not: never asked again, as a
 * session that broke while asking (a late reply would answer the next
 * command); another status is tried again, SNAP_TRIES times in a row.
 */
static void snapshot(struct top *tp, struct host_session *s, double t)
{
	int st = host_command(s, ACA_CMD_MODULE_SNAPSHOT, NULL, 0, NULL, 0);

	tp->snap_asked = 1;
	tp->snap_t = t;
	remember_unmapped_pids(tp);
	if (st < 0) {
		tp->snap_state = -1;
	} else if (st == VT_DRIVER_COMM_FAILED || st == VT_NO_ADMIN_PRIVILEGE) {
		say_snapshot_refused(st);
		tp->snap_state = 1;
	} else if (st) {
		if (++tp->snap_failed >= SNAP_TRIES) {
			fprintf(stderr, "aca-host: MODULE_SNAPSHOT: status %d %u times; not "
				"asked again\n", st, tp->snap_failed);
			tp->snap_state = -1;
		}
	} else {
		tp->snap_failed = 0;
	}
}

/*
 * What an ask of KERNEL_SYMBOLS came to (@got as ksym_ask_send() or
 * ksym_ask_take() return it). A failure of this host's own (reading the
 * samples, writing the names) is tried again at the next refresh, and
 * given up only after KSYM_TRIES in a row; a refusal or a broken session
 * at once.
 */
static void ksym_result(struct top *tp, long long got, int refused)
{
	if (got == KSYM_SESSION_BROKEN) {
		tp->ksym_state = -1;
	} else if (got < 0) {
		if (++tp->ksym_failed >= KSYM_TRIES)
			tp->ksym_state = -1;
	} else {
		tp->ksym_failed = 0;
		if (refused)
			tp->ksym_state = 1;
	}
}

/* The samples so far, read back and attributed; kernel ones named first. */
static void refresh(struct top *tp, struct host_session *s, const struct collect_result *r,
		    double t)
{
	struct record_layout *l = &tp->layout;
	struct report rep;
	int refused = 0;

	/*
	 * No collection.txt yet: the records are as START made them (with
	 * callers after -g), for the kernel addresses and the report alike.
	 */
	*l = (struct record_layout){
		.size = r->layout.sample_size,
		.callstack_offset = r->layout.callstack_offset,
		.callstack_size = r->layout.callstack_size,
	};
	tp->ro.layout = l;
	/*
	 * The answer to the last ask, if it came: the table counts where each
	 * sample was taken, named so far (the callers -g records are named
	 * once, at the end, by collect). Keys are read meanwhile: a loaded
	 * target answers late, on the link the samples take.
	 */
	if (tp->ask.n && host_answer_ready(s) > 0) {
		/* An older answer first (one a timeout gave up on): dropped. */
		if (s->owed > 1) {
			if (host_answer_drop(s))
				tp->ksym_state = -1;
		} else {
			long long got = ksym_ask_take(s, tp->dir, &tp->ksyms, &tp->ask,
						      &refused);

			ksym_result(tp, got, refused);
		}
	}
	/* A record half written: no matter here. */
	if (report_load(tp->dir, &tp->ro, &rep) == 2) {
		report_free(&rep);
		return;
	}
	if (tp->have_rep)
		report_free(&tp->rep);
	tp->rep = rep;
	tp->have_rep = 1;
	/* Said once, at the end (stderr waits while the screen is ours). */
	if (rep.past_read_max && !tp->said_read_max++)
		fprintf(stderr, "%s: %s: a file of the collection is more than aca-host "
			"reads of a file (%llu bytes): the table leaves its samples out; "
			FILES_READ_MAX_ENV "=BYTES raises it\n", cmd, tp->dir,
			(unsigned long long)files_read_max());
	/*
	 * User code no mapping covers, of a process that had none at the last
	 * ask: one new since, or one the walk missed. Code no walk can name
	 * (a JIT's anonymous memory) is not asked for again and again.
	 */
	if (!tp->snap_state && !tp->ask.n && t - tp->snap_t >= SNAP_GAP_S &&
	    new_unmapped_pid(tp, &rep))
		snapshot(tp, s, t);
	/* The next ask, answered at a later refresh. */
	if (!tp->ksym_state && !tp->ask.n)
		ksym_result(tp, ksym_ask_send(s, tp->dir, r->ncpus, l, &tp->ksyms, &tp->ask), 0);
}

static int tick(void *arg, struct host_session *s, const struct collect_result *r,
		double t)
{
	struct top *tp = arg;
	int redraw = 0;
	char c;

	if (!tp->started) {
		term_enter(tp);
		redraw = 1;
	}
	/* Right after START: the processes that already run. */
	if (!tp->snap_asked && !tp->snap_state)
		snapshot(tp, s, t);
	while (tp->tty_in && read(STDIN_FILENO, &c, 1) == 1) {
		if (c == 'q' || c == 'Q')
			return 1;
		if (c == 'p' || c == 'f') {
			tp->by_process = c == 'p';
			redraw = 1;
		}
	}
	tp->t = t;
	if (tp->last < 0 || t - tp->last >= REFRESH_S) {
		refresh(tp, s, r, t);
		tp->last = t;
		redraw = 1;
	}
	if (redraw)
		draw(tp);
	return 0;
}

/*
 * After TERMINATE, on the terminal's own screen: the whole collection's
 * table, every name known now (the process mappings STOP sent, on a target
 * without MODULE_SNAPSHOT the first; the kernel symbols of every sample).
 */
static void final(struct top *tp)
{
	struct report rep;

	if (!tp->have_rep || report_load(tp->dir, &tp->ro, &rep) == 2) {
		if (tp->have_rep)
			report_free(&rep);
		return;
	}
	report_free(&tp->rep);
	tp->rep = rep;
	tp->tty_out = 0;
	tp->ended = 1;
	if (!tp->rows)
		tp->rows = 20;
	printf("at the end:\n");
	draw(tp);
}

enum {
	OPT_EVENT = ARG_OWN,
	OPT_TOP,
};

/* What top's own options set. */
struct top_args {
	struct collect_opts *o;
	struct top *tp;
};

/* One of top's own options; 0, or the exit status 2 after a message. */
static int option(int id, const char *arg, void *own)
{
	struct top_args *a = own;
	struct collect_opts *o = a->o;
	unsigned long v;

	switch (id) {
	case OPT_EVENT:
		if (o->nevents) {
			fprintf(stderr, "%s: one --event\n", cmd);
			return 2;
		}
		o->events[o->nevents++] = arg;
		return 0;
	case OPT_TOP:
		if (arg_number(cmd, "--top", arg, 1, 1000, &v))
			return 2;
		a->tp->rows = v;
		return 0;
	}
	usage(stderr);
	return 2;
}

static int check(struct collect_opts *o)
{
	if (host_check_target(cmd, o->target))
		return 2;
	if (arg_check_events(cmd, o))
		return 2;
	return o->out && collect_check_out(o->out) ? 2 : 0;
}

int cmd_top(int argc, char **argv)
{
	static const struct arg_opt opts[] = {
		{ "out", required_argument, 'o', ARG_OUT },
		{ "sysroot", required_argument, 0, ARG_SYSROOT },
		{ "event", required_argument, 'e', OPT_EVENT },
		{ "ecb", required_argument, 'b', ARG_ECB },
		{ "rate", required_argument, 'r', ARG_RATE },
		{ "duration", required_argument, 'd', ARG_DURATION },
		{ "top", required_argument, 'n', OPT_TOP },
		{ "call-graph", required_argument, 0, ARG_CALL_GRAPH },
		{ "timeout", required_argument, 0, ARG_TIMEOUT },
		{ "eof-timeout", required_argument, 0, ARG_EOF_TIMEOUT },
		{ "pid", required_argument, 0, ARG_PID },
		{ "tid", required_argument, 0, ARG_TID },
		{ "comms", required_argument, 0, ARG_COMMS },
		{ NULL, no_argument, 'g', ARG_CALLERS },
		ARG_HELP_OPT,
		{ 0 }
	};
	struct collect_opts o = { .rate = 1000, .switch_ms = HOST_DEFAULT_SWITCH_MS,
				  .eof_timeout_s = 30, .duration = INFINITY,
				  .timeout_s = 0 };	/* 0: no --timeout */
	struct top tp = { .last = -1, .saved_err = -1 };
	struct top_args own = { &o, &tp };
	const struct arg_cmd c = {
		.cmd = cmd, .operand = "TARGET", .opts = opts, .usage = usage,
		.option = option, .own = &own, .timeout_s = &o.timeout_s, .out = &o.out,
		.duration = &o.duration, .max_duration = 86400, .collect = &o,
		.report = &tp.ro,
	};
	char tmp[4096] = "", tmpout[4200];
	const char *base = getenv("TMPDIR");
	int ret;

	o.target = arg_parse(&c, argc, argv, &ret);
	if (!o.target)
		return ret;
	ret = check(&o);
	if (ret)
		return ret;
	if (!o.out) {
		snprintf(tmp, sizeof(tmp), "%s/aca-top.XXXXXX", base && *base ? base : "/tmp");
		if (!mkdtemp(tmp)) {
			fprintf(stderr, "%s: %s: %s\n", cmd, tmp, strerror(errno));
			return 1;
		}
		snprintf(tmpout, sizeof(tmpout), "%s/c", tmp);
		o.out = tmpout;
	}
	tp.target = o.target;
	tp.dir = o.out;
	/* The table counts where each sample was taken: no callers to name. */
	tp.ro.leaves_only = 1;
	tp.tty_in = isatty(STDIN_FILENO);
	tp.tty_out = isatty(STDOUT_FILENO);
	o.tick = tick;
	o.tick_arg = &tp;
	o.on_kill = restore_on_kill;
	live = &tp;
	atexit(leave_at_exit);
	catch_fatal();
	ret = collect_run(&o);
	term_leave(&tp);
	live = NULL;
	final(&tp);
	if (tp.have_rep)
		report_free(&tp.rep);
	tally_free(&tp.snap_pids);
	ksym_known_free(&tp.ksyms);
	report_opts_free(&tp.ro);
	if (tmp[0]) {
		remove_tree(tmp);
		if (!ret)
			printf("(not saved: --out DIR keeps the collection)\n");
	}
	return ret;
}
