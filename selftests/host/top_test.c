// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host top against the scripted target of mock_target.c sending its
 * records during the collection (live): on a terminal (tmux, 120x40: keys
 * by send-keys, the screen by capture-pane) the hot function within 3 s,
 * q and ^C ending the collection cleanly, the view by process, --out DIR
 * saving what aca-host report reads; user code named as it runs when the
 * target describes its mappings on demand (MODULE_SNAPSHOT), at the end
 * when it cannot; and the plain snapshots when the output is no terminal. tmux is required (make deps installs it): a test
 * without it fails and says so.
 * Its own program, build/tests/host_top_test.
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "host_fixture.h"
#include "../../tools/aca-host/clock.h"
#include "spin_collection.h"

#define USER_SAMPLES	10	/* per CPU, in /mock/bin/app */
#define KERNEL_SAMPLES	200	/* per CPU: cpu0's all in mock_kernel_hot */
#define TOTAL		(2 * (USER_SAMPLES + KERNEL_SAMPLES))

/* A tmux server of our own (-L), one session running aca-host top. */
struct tmux {
	char sock[64];
	char status[4200];	/* the exit status of aca-host, written there */
	double started;
};

/* Run the shell command @fmt..., its stdout into @out (if not NULL); its status. */
static int sh(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int sh(char *out, size_t len, const char *fmt, ...)
{
	char cmdline[8192];
	va_list ap;
	FILE *p;
	size_t n = 0;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmdline, sizeof(cmdline), fmt, ap);
	va_end(ap);
	p = popen(cmdline, "r");
	if (!p)
		return -1;
	if (out) {
		while (n + 1 < len) {
			size_t k = fread(out + n, 1, len - 1 - n, p);

			if (!k)
				break;
			n += k;
		}
		out[n] = 0;
	} else {
		char sink[4096];

		while (fread(sink, 1, sizeof(sink), p))
			;
	}
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Whether tmux can be run: 127 is the shell's "not found". */
static int have_tmux(void)
{
	return sh(NULL, 0, "command -v tmux >/dev/null 2>&1") == 0;
}

/*
 * aca-host top TARGET @extra... in a fresh 120x40 tmux session, its
 * temporary directory below d->path (a kill leaves it); its pid goes to
 * d->path/pid, its exit status to d->path/status. Returns 0, or -1.
 */
static int tmux_top(struct host_dir *d, struct mock_target *m, struct tmux *t,
		    const char *extra)
{
	snprintf(t->sock, sizeof(t->sock), "aca-top-test-%d", (int)getpid());
	snprintf(t->status, sizeof(t->status), "%s/status", d->path);
	if (mock_start(m))
		return -1;
	t->started = host_now_s();
	return sh(NULL, 0, "env -u TMUX tmux -L %s -f /dev/null new-session -d -x 120 -y 40 "
		  "\"trap '' INT; cd '%s' && stty -g >stty.before && "
		  "TMPDIR='%s' sh -c 'echo \\$\\$ >pid.tmp; mv pid.tmp pid; "
		  "exec \\\"\\$0\\\" top 127.0.0.1:%d --eof-timeout 2 %s' '%s' 2>err; "
		  "echo \\$? >status.tmp; stty -g >stty.after; mv status.tmp status\"",
		  t->sock, d->path, d->path, m->port, extra ? extra : "",
		  synth_host_path()) ? -1 : 0;
}

/* The screen now. */
static void capture(const struct tmux *t, char *buf, size_t len)
{
	if (sh(buf, len, "tmux -L %s capture-pane -p 2>/dev/null", t->sock))
		buf[0] = 0;
}

/* Wait up to @s seconds from the start for @what on the screen: 0, or -1. */
static int screen_shows(const struct tmux *t, const char *what, double s, char *buf,
			size_t len)
{
	while (host_now_s() - t->started < s) {
		capture(t, buf, len);
		if (strstr(buf, what))
			return 0;
		host_sleep_s(0.1);
	}
	return -1;
}

static void keys(const struct tmux *t, const char *k)
{
	sh(NULL, 0, "tmux -L %s send-keys %s", t->sock, k);
}

/* aca-host's exit status, waited for up to 30 s; -1 if none. */
static int top_status(struct tmux *t)
{
	for (int i = 0; i < 300; i++) {
		size_t len;
		char *s = (char *)read_whole_file(t->status, 64, &len);

		if (s) {
			int st = atoi(s);

			free(s);
			return st;
		}
		host_sleep_s(0.1);
	}
	return -1;
}

static void tmux_end(struct tmux *t)
{
	sh(NULL, 0, "tmux -L %s kill-server 2>/dev/null", t->sock);
}

/* What aca-host top said on stderr (d->path/err). */
static void log_err(struct __test_metadata *_metadata, const struct host_dir *d)
{
	char path[4200];
	size_t len;
	char *err;

	snprintf(path, sizeof(path), "%s/err", d->path);
	err = (char *)read_whole_file(path, 1 << 20, &len);
	TH_LOG("aca-host top said: %s", err ? err : "(nothing)");
	free(err);
}

#define ASSERT_TMUX()								\
	ASSERT_TRUE(have_tmux()) {						\
		TH_LOG("tmux not installed: make deps installs tmux");	\
	}

FIXTURE(top) {
	struct host_dir d;
	struct mock_target m;
	struct tmux t;
	char screen[1 << 16];
};

FIXTURE_SETUP(top)
{
	host_dir_setup(_metadata, &self->d);
	memset(&self->m, 0, sizeof(self->m));
	self->m.live = MOCK_LIVE_ALL;
	self->m.samples_per_cpu = USER_SAMPLES;
	self->m.kernel_samples = KERNEL_SAMPLES;
	memset(&self->t, 0, sizeof(self->t));
}

FIXTURE_TEARDOWN(top)
{
	tmux_end(&self->t);
	host_dir_free(&self->d);
}

/*
 * @key (q, C-c): top exits 0 (what it said on stderr logged if not) and
 * the target saw the collection end cleanly (STOP, every channel ended,
 * TERMINATE).
 */
static void ends_cleanly_on(struct __test_metadata *_metadata, FIXTURE_DATA(top) *self,
			    const char *key)
{
	int st;

	keys(&self->t, key);
	st = top_status(&self->t);
	if (st)
		log_err(_metadata, &self->d);
	EXPECT_EQ(0, st);
	EXPECT_EQ(0, mock_join(&self->m)) {
		TH_LOG("target: %s", self->m.why);
	}
	EXPECT_TRUE(self->m.stop_seen);
	EXPECT_TRUE(self->m.terminate_seen);
}

/* The target's hot kernel function, named by it, on screen within 3 s. */
TEST_F_TIMEOUT(top, hot_function_on_screen_within_3_s, 60)
{
	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	EXPECT_EQ(0, screen_shows(&self->t, "mock_kernel_hot", 3.0, self->screen,
				  sizeof(self->screen))) {
		TH_LOG("screen after 3 s:\n%s", self->screen);
	}
	EXPECT_NE(NULL, strstr(self->screen, "by function"));
	keys(&self->t, "q");
	EXPECT_EQ(0, top_status(&self->t));
	mock_join(&self->m);
}

/* q: STOP, every channel to its end, TERMINATE, exit 0. */
TEST_F_TIMEOUT(top, q_stops_the_collection_cleanly, 60)
{
	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	ASSERT_EQ(0, screen_shows(&self->t, "samples", 10.0, self->screen,
				  sizeof(self->screen)));
	ends_cleanly_on(_metadata, self, "q");
}

/* The terminal's settings after q are those before, the screen ours again. */
TEST_F_TIMEOUT(top, q_restores_the_terminal, 60)
{
	char before[4200], after[4200];
	char *b, *a;
	size_t len;

	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	ASSERT_EQ(0, screen_shows(&self->t, "mock_kernel_hot", 10.0, self->screen,
				  sizeof(self->screen)));
	keys(&self->t, "q");
	ASSERT_EQ(0, top_status(&self->t));
	mock_join(&self->m);
	snprintf(before, sizeof(before), "%s/stty.before", self->d.path);
	snprintf(after, sizeof(after), "%s/stty.after", self->d.path);
	b = (char *)read_whole_file(before, 4096, &len);
	a = (char *)read_whole_file(after, 4096, &len);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, a);
	EXPECT_STREQ(b, a);
	free(b);
	free(a);
}

/*
 * A target that will not name kernel addresses (KERNEL_SYMBOLS refused):
 * the kernel samples by module, the header says why, the collection goes on
 * and ends cleanly; the refusal is said on stderr once the screen is left.
 */
TEST_F_TIMEOUT(top, kernel_unnamed_when_the_target_refuses_symbols, 60)
{
	char path[4200];
	size_t len;
	char *err;

	self->m.fail_command = ACA_CMD_KERNEL_SYMBOLS;
	self->m.fail_status = VT_DRIVER_COMM_FAILED;
	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	EXPECT_EQ(0, screen_shows(&self->t, "the target does not name them", 10.0,
				  self->screen, sizeof(self->screen))) {
		TH_LOG("screen:\n%s", self->screen);
	}
	EXPECT_EQ(0, screen_shows(&self->t, "(mock_mod)", 10.0, self->screen,
				  sizeof(self->screen)));
	EXPECT_EQ(NULL, strstr(self->screen, "mock_kernel_hot"));
	keys(&self->t, "q");
	EXPECT_EQ(0, top_status(&self->t));
	EXPECT_EQ(0, mock_join(&self->m));
	EXPECT_TRUE(self->m.terminate_seen);
	snprintf(path, sizeof(path), "%s/err", self->d.path);
	err = (char *)read_whole_file(path, 1 << 20, &len);
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "does not name kernel addresses"));
	free(err);
}

/* aca-host top's pid (d->path/pid), or -1. */
static pid_t top_pid(const struct host_dir *d)
{
	char path[4200];
	size_t len;
	char *s;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/pid", d->path);
	s = (char *)read_whole_file(path, 64, &len);
	pid = s ? atoi(s) : -1;
	free(s);
	return pid > 0 ? pid : -1;
}

/* SIGTERM kills, but the terminal's settings are put back first. */
TEST_F_TIMEOUT(top, sigterm_restores_the_terminal, 60)
{
	char before[4200], after[4200];
	char *b, *a;
	size_t len;
	pid_t pid;

	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	ASSERT_EQ(0, screen_shows(&self->t, "mock_kernel_hot", 10.0, self->screen,
				  sizeof(self->screen)));
	pid = top_pid(&self->d);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, kill(pid, SIGTERM));
	EXPECT_EQ(128 + SIGTERM, top_status(&self->t));
	mock_join(&self->m);
	snprintf(before, sizeof(before), "%s/stty.before", self->d.path);
	snprintf(after, sizeof(after), "%s/stty.after", self->d.path);
	b = (char *)read_whole_file(before, 4096, &len);
	a = (char *)read_whole_file(after, 4096, &len);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, a);
	EXPECT_STREQ(b, a);
	free(b);
	free(a);
}

/* ^C: the same clean end. */
TEST_F_TIMEOUT(top, sigint_stops_the_collection_cleanly, 60)
{
	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	ASSERT_EQ(0, screen_shows(&self->t, "samples", 10.0, self->screen,
				  sizeof(self->screen)));
	ends_cleanly_on(_metadata, self, "C-c");
}

/*
 * A second ^C while the first one's STOP waits (a channel that never
 * ends) kills, but the terminal's settings are put back first.
 */
TEST_F_TIMEOUT(top, second_sigint_kills_and_restores_the_terminal, 60)
{
	char before[4200], after[4200];
	char *b, *a;
	size_t len;
	pid_t pid;

	self->m.mode = MOCK_KEEP_CHANNEL_OPEN;
	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	ASSERT_EQ(0, screen_shows(&self->t, "samples", 10.0, self->screen,
				  sizeof(self->screen)));
	keys(&self->t, "C-c");
	for (int i = 0; i < 100 && !__atomic_load_n(&self->m.stop_seen, __ATOMIC_ACQUIRE); i++)
		usleep(100000);
	ASSERT_TRUE(__atomic_load_n(&self->m.stop_seen, __ATOMIC_ACQUIRE));
	usleep(300000);
	/* To aca-host alone: from the terminal it would end the pane's shell too. */
	pid = top_pid(&self->d);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, kill(pid, SIGINT));
	EXPECT_EQ(128 + SIGINT, top_status(&self->t));
	mock_join(&self->m);
	snprintf(before, sizeof(before), "%s/stty.before", self->d.path);
	snprintf(after, sizeof(after), "%s/stty.after", self->d.path);
	b = (char *)read_whole_file(before, 4096, &len);
	a = (char *)read_whole_file(after, 4096, &len);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, a);
	EXPECT_STREQ(b, a);
	free(b);
	free(a);
}

/* --out DIR: the collection saved as collect does, for aca-host report. */
TEST_F_TIMEOUT(top, out_dir_saves_a_collection_report_reads, 60)
{
	struct host_run run = { 0 };
	struct report_opts o = { 0 };
	char dir[4200];
	const char *args[] = { "report", dir, NULL };

	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, "--out c"));
	ASSERT_EQ(0, screen_shows(&self->t, "mock_kernel_hot", 10.0, self->screen,
				  sizeof(self->screen)));
	keys(&self->t, "q");
	ASSERT_EQ(0, top_status(&self->t));
	mock_join(&self->m);
	snprintf(dir, sizeof(dir), "%s/c", self->d.path);
	synth_run_host(self->d.path, args, &run);
	EXPECT_EQ(0, run.status) {
		TH_LOG("report said: %s", run.err ? run.err : "");
	}
	ASSERT_NE(NULL, run.out);
	EXPECT_NE(NULL, strstr(run.out, "mock_kernel_hot"));
	host_run_free(&run);
	EXPECT_EQ(0, report_load(dir, &o, &self->d.r));
	EXPECT_EQ(TOTAL, self->d.r.samples);
}

/* p: the view by process, the workload's process at the top. */
TEST_F_TIMEOUT(top, p_shows_the_view_by_process, 60)
{
	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	ASSERT_EQ(0, screen_shows(&self->t, "mock_kernel_hot", 10.0, self->screen,
				  sizeof(self->screen)));
	keys(&self->t, "p");
	self->t.started = host_now_s();
	EXPECT_EQ(0, screen_shows(&self->t, "4321 /mock/bin/app", 3.0, self->screen,
				  sizeof(self->screen))) {
		TH_LOG("screen:\n%s", self->screen);
	}
	EXPECT_NE(NULL, strstr(self->screen, "by process"));
	EXPECT_NE(NULL, strstr(self->screen, "  process\n"));
	EXPECT_EQ(NULL, strstr(self->screen, "mock_kernel_hot"));
	keys(&self->t, "q");
	EXPECT_EQ(0, top_status(&self->t));
	mock_join(&self->m);
}

/*
 * A target slow to name kernel code (4 s an answer) holds up neither the
 * screen nor the keys: p is shown within 1.5 s while an answer is awaited,
 * and the names come with it.
 */
TEST_F_TIMEOUT(top, keys_are_read_while_kernel_names_are_awaited, 60)
{
	self->m.ksym_delay_ms = 4000;
	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	/* The samples on screen: the first ask was sent at that refresh. */
	ASSERT_EQ(0, screen_shows(&self->t, "(mock_mod)", 10.0, self->screen,
				  sizeof(self->screen)));
	EXPECT_EQ(NULL, strstr(self->screen, "mock_kernel_hot"));
	keys(&self->t, "p");
	self->t.started = host_now_s();
	EXPECT_EQ(0, screen_shows(&self->t, "by process", 1.5, self->screen,
				  sizeof(self->screen))) {
		TH_LOG("screen:\n%s", self->screen);
	}
	keys(&self->t, "f");
	self->t.started = host_now_s();
	EXPECT_EQ(0, screen_shows(&self->t, "mock_kernel_hot", 10.0, self->screen,
				  sizeof(self->screen))) {
		TH_LOG("screen:\n%s", self->screen);
	}
	keys(&self->t, "q");
	EXPECT_EQ(0, top_status(&self->t));
	EXPECT_EQ(0, mock_join(&self->m));
	EXPECT_TRUE(self->m.stop_seen && self->m.terminate_seen);
}

/*
 * aca-host top of @m (started here) without a terminal, for @secs seconds,
 * with @opt @val if @opt: its run in d->run. Returns mock_join()'s status.
 */
static int top_plain(struct host_dir *d, struct mock_target *m, const char *secs,
		     const char *opt, const char *val)
{
	const char *args[] = { "top", NULL, "--duration", secs, "--eof-timeout", "2",
			       opt, val, NULL };
	char target[32];

	if (mock_start(m))
		return -1;
	snprintf(target, sizeof(target), "127.0.0.1:%d", m->port);
	args[1] = target;
	synth_run_host(d->path, args, &d->run);
	return mock_join(m);
}

/* No terminal: a plain snapshot per refresh, no escape sequence. */
TEST_F_TIMEOUT(dir, top_without_a_terminal_prints_snapshots, 60)
{
	struct mock_target m = { .live = MOCK_LIVE_ALL, .samples_per_cpu = USER_SAMPLES,
				 .kernel_samples = KERNEL_SAMPLES };

	EXPECT_EQ(0, top_plain(&self->d, &m, "2.5", NULL, NULL));
	EXPECT_EQ(0, self->d.run.status) {
		TH_LOG("top said: %s", self->d.run.err ? self->d.run.err : "");
	}
	ASSERT_NE(NULL, self->d.run.out);
	EXPECT_NE(NULL, strstr(self->d.run.out, "mock_kernel_hot"));
	EXPECT_NE(NULL, strstr(self->d.run.out, "by function"));
	EXPECT_EQ(NULL, strchr(self->d.run.out, '\033'));
	EXPECT_TRUE(m.stop_seen && m.terminate_seen);
}

/* --pid: the table of that process's samples alone, the header says so. */
TEST_F_TIMEOUT(dir, pid_shows_that_process_alone, 60)
{
	struct mock_target m = { .live = MOCK_LIVE_ALL, .samples_per_cpu = USER_SAMPLES,
				 .kernel_samples = KERNEL_SAMPLES };
	char want[64];

	ASSERT_EQ(4321, MOCK_PID);
	EXPECT_EQ(0, top_plain(&self->d, &m, "2.5", "--pid", "4321"));
	EXPECT_EQ(0, self->d.run.status) {
		TH_LOG("top said: %s", self->d.run.err ? self->d.run.err : "");
	}
	ASSERT_NE(NULL, self->d.run.out);
	snprintf(want, sizeof(want), "  %u samples  0.0%% kernel  by function  of pid 4321",
		 MOCK_CPUS * USER_SAMPLES);
	EXPECT_NE(NULL, strstr(self->d.run.out, want)) {
		TH_LOG("top printed:\n%s", self->d.run.out);
	}
	EXPECT_EQ(NULL, strstr(self->d.run.out, "mock_kernel_hot"));
	EXPECT_TRUE(m.stop_seen && m.terminate_seen);
}

/* How many times @what is in @text. */
static int count_of(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/*
 * Each refresh reads the files whole: one past $ACA_HOST_READ_MAX (8 KiB
 * here, each CPU's 10,080 bytes) is left out, and the header says so in
 * the line above the columns; stderr once, at the end. Before, a refresh
 * read any file up to 4 GiB, every second.
 */
TEST_F_TIMEOUT(dir, top_says_which_files_it_leaves_out, 60)
{
	struct mock_target m = { .live = MOCK_LIVE_ALL, .samples_per_cpu = USER_SAMPLES,
				 .kernel_samples = KERNEL_SAMPLES };

	ASSERT_EQ(0, setenv("ACA_HOST_READ_MAX", "8K", 1));
	EXPECT_EQ(0, top_plain(&self->d, &m, "1.5", NULL, NULL));
	ASSERT_NE(NULL, self->d.run.out);
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.out, "\nleft out: the samples of 2 files of more "
			       "than 8192 bytes (ACA_HOST_READ_MAX)\n   samples        %  "
			       "function\n")) {
		TH_LOG("top printed:\n%s", self->d.run.out);
	}
	EXPECT_EQ(1, count_of(self->d.run.err, "more than aca-host reads of a file (8192 "
			      "bytes): the table leaves its samples out; ACA_HOST_READ_MAX="
			      "BYTES raises it\n")) {
		TH_LOG("top said: %s", self->d.run.err);
	}
}

/*
 * Each refresh asks KERNEL_SYMBOLS only of addresses no symbol named so
 * far holds and none was answered without: the 16 of mock_kernel_hot, the
 * 16 of mock_mod_fn and MOCK_KGAP once while sampling, and once more at
 * the end (collect's, every address), whatever the number of refreshes.
 */
TEST_F_TIMEOUT(dir, refreshes_ask_each_named_address_once, 60)
{
	struct mock_target m = { .live = MOCK_LIVE_ALL, .samples_per_cpu = USER_SAMPLES,
				 .kernel_samples = KERNEL_SAMPLES };

	EXPECT_EQ(0, top_plain(&self->d, &m, "3.5", NULL, NULL));
	EXPECT_EQ(0, self->d.run.status) {
		TH_LOG("top said: %s", self->d.run.err ? self->d.run.err : "");
	}
	/* 3 refreshes at least (a snapshot each), and the end's table. */
	ASSERT_NE(NULL, self->d.run.out);
	EXPECT_LE(4, count_of(self->d.run.out, "aca-host top 127.0.0.1:"));
	EXPECT_EQ(2 * (16 + 16), m.ksym_named);
	EXPECT_EQ(2 * (16 + 16 + 1), m.ksym_addrs) {
		TH_LOG("%d requests, %llu named", m.ksym_requests,
		       (unsigned long long)m.ksym_named);
	}
}

/*
 * A refresh asks 64 addresses at most, those most samples hold first:
 * with 300 more kernel addresses no symbol holds, one sample each (asked
 * again at every refresh), mock_kernel_hot and mock_mod_fn, whose
 * addresses are above those, are still named while the target samples.
 */
TEST_F_TIMEOUT(dir, refreshes_ask_the_hottest_addresses_first, 60)
{
	struct mock_target m = { .live = MOCK_LIVE_ALL, .samples_per_cpu = USER_SAMPLES,
				 .kernel_samples = KERNEL_SAMPLES, .unknown_kernel = 300 };
	const char *end, *hot, *mod;

	EXPECT_EQ(0, top_plain(&self->d, &m, "2.5", NULL, NULL));
	EXPECT_EQ(0, self->d.run.status) {
		TH_LOG("top said: %s", self->d.run.err ? self->d.run.err : "");
	}
	EXPECT_EQ(64, m.ksym_max_live_batch);
	ASSERT_NE(NULL, self->d.run.out);
	end = strstr(self->d.run.out, "at the end:");
	hot = strstr(self->d.run.out, "mock_kernel_hot");
	mod = strstr(self->d.run.out, "mock_mod_fn");
	ASSERT_NE(NULL, end);
	EXPECT_TRUE(hot && hot < end && mod && mod < end) {
		TH_LOG("top printed:\n%s", self->d.run.out);
	}
}

/*
 * Kernel addresses the target cannot name, hotter one by one than any of
 * mock_kernel_hot's (100 of them, 20 samples each), are asked once: the
 * next asks reach mock_kernel_hot, named while the target samples.
 */
TEST_F_TIMEOUT(dir, addresses_without_a_symbol_are_asked_once, 60)
{
	struct mock_target m = { .live = MOCK_LIVE_ALL, .samples_per_cpu = USER_SAMPLES,
				 .kernel_samples = KERNEL_SAMPLES, .unknown_kernel = 100,
				 .unknown_hits = 20 };
	const char *end, *hot;

	EXPECT_EQ(0, top_plain(&self->d, &m, "4.5", NULL, NULL));
	EXPECT_EQ(0, self->d.run.status) {
		TH_LOG("top said: %s", self->d.run.err ? self->d.run.err : "");
	}
	ASSERT_NE(NULL, self->d.run.out);
	end = strstr(self->d.run.out, "at the end:");
	hot = strstr(self->d.run.out, "mock_kernel_hot");
	ASSERT_NE(NULL, end);
	EXPECT_TRUE(hot && hot < end) {
		TH_LOG("top printed:\n%s", self->d.run.out);
	}
}

/* A pid that is no number: a usage error, nothing asked of the target. */
TEST_F(dir, bad_pid_is_a_usage_error)
{
	const char *args[] = { "top", "127.0.0.1:1", "--pid", "app", NULL };

	synth_run_host(self->d.path, args, &self->d.run);
	EXPECT_EQ(2, self->d.run.status);
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, "--pid")) {
		TH_LOG("top said: %s", self->d.run.err);
	}
}

/*
 * A process that ran before START (no record of it until asked): its user
 * code named on screen within 3 s, by the mapping the target described
 * when top asked MODULE_SNAPSHOT right after START; asked once, the
 * samples all covered since.
 */
TEST_F_TIMEOUT(top, user_code_named_live_when_the_target_describes_mappings, 60)
{
	self->m.live = MOCK_LIVE_MAPPINGS_AT_STOP;
	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	EXPECT_EQ(0, screen_shows(&self->t, "app+0x1234 (app)", 3.0, self->screen,
				  sizeof(self->screen))) {
		TH_LOG("screen after 3 s:\n%s", self->screen);
	}
	EXPECT_EQ(NULL, strstr(self->screen, "unattributed"));
	ends_cleanly_on(_metadata, self, "q");
	EXPECT_EQ(1, self->m.snapshot_asks);
}

/*
 * The process started after the first walk (it described nothing of it):
 * its samples, unattributed, grow, and top asks again SNAP_GAP_S (2 s)
 * after; named then; q still ends the collection cleanly (STOP, every
 * channel ended, TERMINATE), no ask after STOP, none more once covered.
 */
TEST_F_TIMEOUT(top, q_ends_cleanly_after_asking_for_mappings_again, 60)
{
	self->m.live = MOCK_LIVE_MAPPINGS_AT_STOP;
	self->m.snapshot_empty = 1;
	ASSERT_TMUX();
	ASSERT_EQ(0, tmux_top(&self->d, &self->m, &self->t, NULL));
	EXPECT_EQ(0, screen_shows(&self->t, "unattributed: 20 samples", 3.0, self->screen,
				  sizeof(self->screen))) {
		TH_LOG("screen:\n%s", self->screen);
	}
	EXPECT_EQ(0, screen_shows(&self->t, "app+0x1234 (app)", 6.0, self->screen,
				  sizeof(self->screen))) {
		TH_LOG("screen after 6 s:\n%s", self->screen);
	}
	/* Two refreshes more: covered now, nothing to ask. */
	host_sleep_s(2.5);
	ends_cleanly_on(_metadata, self, "q");
	EXPECT_EQ(2, self->m.snapshot_asks);
}

/*
 * A target without MODULE_SNAPSHOT (159: a stock SEP driver, an older
 * aca; 213: no privilege), the process's mappings only at STOP: asked
 * once, never again; its samples counted unattributed while it samples,
 * named in the table printed at the end; the refusal said once on stderr.
 */
TEST_F_TIMEOUT(dir, user_code_named_at_the_end_when_mappings_come_at_stop, 60)
{
	static const int refusals[] = { VT_DRIVER_COMM_FAILED, VT_NO_ADMIN_PRIVILEGE };

	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		struct mock_target m = { .live = MOCK_LIVE_MAPPINGS_AT_STOP,
					 .samples_per_cpu = USER_SAMPLES,
					 .kernel_samples = KERNEL_SAMPLES,
					 .snapshot_status = refusals[i] };
		const char *args[] = { "top", NULL, "--duration", "3.5", "--eof-timeout",
				       "2", "--top", "100", NULL };
		char target[32];
		const char *end;

		ASSERT_EQ(0, mock_start(&m));
		snprintf(target, sizeof(target), "127.0.0.1:%d", m.port);
		args[1] = target;
		host_run_free(&self->d.run);
		synth_run_host(self->d.path, args, &self->d.run);
		EXPECT_EQ(0, mock_join(&m)) {
			TH_LOG("target: %s", m.why);
		}
		EXPECT_EQ(0, self->d.run.status) {
			TH_LOG("top said: %s", self->d.run.err ? self->d.run.err : "");
		}
		EXPECT_EQ(1, m.snapshot_asks) TH_LOG("status %d", refusals[i]);
		ASSERT_NE(NULL, self->d.run.out);
		end = strstr(self->d.run.out, "at the end:\n");
		ASSERT_NE(NULL, end) {
			TH_LOG("top printed: %s", self->d.run.out);
		}
		EXPECT_NE(NULL, strstr(self->d.run.out, "unattributed: 20 samples"));
		EXPECT_EQ(NULL, strstr(end, "unattributed"));
		EXPECT_NE(NULL, strstr(end, "app+0x1234 (app)"));
		EXPECT_NE(NULL, strstr(end, "mock_kernel_hot (vmlinux)"));
		ASSERT_NE(NULL, self->d.run.err);
		EXPECT_EQ(1, lines_with(self->d.run.err, "MODULE_SNAPSHOT")) {
			TH_LOG("top said: %s", self->d.run.err);
		}
		/* Kernel names asked with the records' layout from the first refresh. */
		EXPECT_EQ(0, lines_with(self->d.run.err, "kernel symbols:")) {
			TH_LOG("top said: %s", self->d.run.err);
		}
	}
}

/*
 * User code no walk names (a JIT's anonymous memory: every walk describes
 * nothing of it): asked at START, once more for the process that has
 * unmapped samples since, then not again for it, however long it samples.
 */
TEST_F_TIMEOUT(dir, code_no_walk_names_is_not_asked_for_again_and_again, 60)
{
	struct mock_target m = { .live = MOCK_LIVE_MAPPINGS_AT_STOP,
				 .samples_per_cpu = USER_SAMPLES,
				 .kernel_samples = KERNEL_SAMPLES,
				 .snapshot_empty = 1000 };
	const char *args[] = { "top", NULL, "--duration", "7.5", "--eof-timeout",
			       "2", "--top", "100", NULL };
	char target[32];

	ASSERT_EQ(0, mock_start(&m));
	snprintf(target, sizeof(target), "127.0.0.1:%d", m.port);
	args[1] = target;
	synth_run_host(self->d.path, args, &self->d.run);
	EXPECT_EQ(0, mock_join(&m)) {
		TH_LOG("target: %s", m.why);
	}
	EXPECT_EQ(0, self->d.run.status) {
		TH_LOG("top said: %s", self->d.run.err ? self->d.run.err : "");
	}
	EXPECT_EQ(2, m.snapshot_asks);
	EXPECT_NE(NULL, strstr(self->d.run.out ? self->d.run.out : "",
			       "unattributed: 20 samples"));
}

TEST_HARNESS_MAIN
