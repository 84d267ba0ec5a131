// SPDX-License-Identifier: GPL-2.0-only
/*
 * What aca-host says when a target cannot be talked to, one message each:
 * connection refused, connect timed out, closed before the status message
 * (a relay that dropped us), busy (status 219), a peer that is no SEP
 * target, and receive timeouts said as such; each answer and request
 * whole within its time, and no answer past the protocol's 16 MiB. All on
 * loopback.
 * Its own program, build/tests/host_net_test.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>

#include "host_fixture.h"
#include "../../driver/core/core.h"
#include "../../tools/aca-host/clock.h"
#include "../../tools/aca-host/host.h"
#include "../../tools/aca-host/session.h"

/* The host's limits are the protocol core's: what aca answers and takes. */
_Static_assert(HOST_MAX_REPLY == ACP_MAX_REPLY, "an answer's most: ACP_MAX_REPLY");
_Static_assert(HOST_MAX_REQUEST == ACP_MAX_PAYLOAD, "a request's most: ACP_MAX_PAYLOAD");

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* aca-host @command against 127.0.0.1:@port, @option before it if set. */
static int talk_to(FIXTURE_DATA(dir) *self, const char *command, int port,
		   const char *option, const char *value, char *target, size_t len)
{
	const char *args[] = { command, target, NULL, NULL, NULL };

	snprintf(target, len, "127.0.0.1:%d", port);
	if (option) {
		args[1] = option;
		args[2] = value;
		args[3] = target;
	}
	return synth_run_host(self->d.path, args, &self->d.run);
}

/* aca-host @command against @m; its exit status. */
static int talk_to_mock(FIXTURE_DATA(dir) *self, struct mock_target *m,
			const char *command, char *target, size_t len)
{
	int status;

	if (mock_start(m))
		return -1;
	status = talk_to(self, command, m->port, NULL, NULL, target, len);
	mock_join(m);
	return status;
}

static bool host_said(const struct host_run *r, const char *fmt, const char *target)
{
	char want[1024];

	snprintf(want, sizeof(want), fmt, target);
	if (r->err && strstr(r->err, want))
		return true;
	fprintf(stderr, "# wanted: %s\n# it said: %s\n", want, r->err ? r->err : "");
	return false;
}

TEST_F(dir, refused_connect_asks_whether_the_relay_runs)
{
	int fd, port = mock_refusing_port(&fd);
	char target[32];

	ASSERT_LT(0, port);
	EXPECT_EQ(1, talk_to(self, "hello", port, NULL, NULL, target, sizeof(target)));
	close(fd);
	EXPECT_TRUE(host_said(&self->d.run, "aca-host: %s: connection refused: nothing "
			 "listens there\naca-host: is aca-relay running on the target", target));
	EXPECT_TRUE(host_said(&self->d.run, "%s: connection refused: nothing listens "
			      "there\naca-host: is aca-relay running on the target (systemctl "
			      "start aca-relay), on this port (its --port, default 9321), and "
			      "serving other hosts (without --allow or --bind it listens on "
			      "loopback only", target));
}

/* A full accept queue drops our SYNs: only the deadline ends the connect. */
TEST_F(dir, connect_times_out_after_timeout_seconds)
{
	int fds[2], port = mock_full_listener(fds);
	char target[32];
	long t0, ms;

	ASSERT_LT(0, port);
	t0 = now_ms();
	EXPECT_EQ(1, talk_to(self, "hello", port, "--timeout", "1", target, sizeof(target)));
	ms = now_ms() - t0;
	close(fds[0]);
	close(fds[1]);
	EXPECT_TRUE(host_said(&self->d.run, "aca-host: %s: connect timed out after 1 s\n", target));
	EXPECT_LE(900, ms);
	EXPECT_GT(5000, ms);
}

TEST_F(dir, closed_before_status_points_at_the_relay_journal)
{
	struct mock_target m = { .hello = MOCK_HELLO_CLOSE };
	char target[32];

	EXPECT_EQ(1, talk_to_mock(self, &m, "hello", target, sizeof(target)));
	EXPECT_TRUE(host_said(&self->d.run, "aca-host: %s closed the connection before the "
			 "status message\n", target));
	EXPECT_TRUE(host_said(&self->d.run, "journalctl -u aca-relay%s", "\n"));
}

TEST_F(dir, busy_target_says_another_session_is_active)
{
	struct mock_target m = { .hello = MOCK_HELLO_BUSY };
	char target[32];

	EXPECT_EQ(1, talk_to_mock(self, &m, "hello", target, sizeof(target)));
	EXPECT_TRUE(host_said(&self->d.run, "aca-host: %s is busy: status 219 "
			 "(VT_COMM_DATA_CHANNEL_UNAVAILABLE): another host's session "
			 "is active", target));
}

/* info goes through the same words as hello. */
TEST_F(dir, busy_target_says_the_same_to_info)
{
	struct mock_target m = { .hello = MOCK_HELLO_BUSY };
	char target[32];

	EXPECT_EQ(1, talk_to_mock(self, &m, "info", target, sizeof(target)));
	EXPECT_TRUE(host_said(&self->d.run, "aca-host: %s is busy: status 219", target));
}

TEST_F(dir, garbage_peer_is_not_a_sep_target)
{
	struct mock_target m = { .hello = MOCK_HELLO_GARBAGE };
	char target[32], fmt[128];

	EXPECT_EQ(1, talk_to_mock(self, &m, "hello", target, sizeof(target)));
	snprintf(fmt, sizeof(fmt), "aca-host: %%s is not a SEP remote target (got %zu "
		 "bytes that are not a status message)\n", strlen(MOCK_GARBAGE));
	EXPECT_TRUE(host_said(&self->d.run, fmt, target));
}

TEST_F(dir, wrong_msg_size_is_not_a_sep_target)
{
	struct mock_target m = { .hello = MOCK_HELLO_WRONG_SIZE };
	char target[32];

	EXPECT_EQ(1, talk_to_mock(self, &m, "info", target, sizeof(target)));
	EXPECT_TRUE(host_said(&self->d.run, "aca-host: %s is not a SEP remote target (got ", target));
	EXPECT_TRUE(host_said(&self->d.run, "%s bytes that are not a status message)\n", ""));
}

/* stderr into @path until stderr_back(); returns the stderr to restore. */
static int stderr_to(const char *path)
{
	int saved = dup(STDERR_FILENO), fd;

	fflush(stderr);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (saved < 0 || fd < 0 || dup2(fd, STDERR_FILENO) < 0)
		abort();
	close(fd);
	return saved;
}

/* Back to the harness's stderr; what was said meanwhile (malloc()ed). */
static char *stderr_back(int saved, const char *path)
{
	size_t len;

	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	return (char *)read_whole_file(path, 1 << 20, &len);
}

/* A socket whose peer never answers, with a 1 s receive timeout. */
static int silent_peer(int sv[2])
{
	struct timeval tv = { .tv_sec = 1 };

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	return setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/* Session @s on a silent peer (silent_peer()): its control connection. */
static int silent_session(struct host_session *s, int sv[2])
{
	if (silent_peer(sv))
		return -1;
	s->ctl = sv[0];
	return 0;
}

/*
 * The receive timeout of the status message (30 s in aca-host, 1 s here,
 * on the helper itself): said as a timeout, not as EAGAIN's strerror.
 */
TEST_F(dir, status_receive_timeout_is_said_as_a_timeout)
{
	struct sep_target_status_msg st;
	char path[4200], *text;
	int sv[2], saved, ret;

	ASSERT_EQ(0, silent_peer(sv));
	snprintf(path, sizeof(path), "%s/stderr", self->d.path);
	saved = stderr_to(path);
	ret = host_hello(sv[0], "127.0.0.1:9", &st);
	text = stderr_back(saved, path);
	close(sv[0]);
	close(sv[1]);
	EXPECT_EQ(-1, ret);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("aca-host: 127.0.0.1:9: timed out waiting for the status message (1 s)\n",
		     text);
	free(text);
}

/* And of a command's answer, the same way. */
TEST_F(dir, answer_receive_timeout_is_said_as_a_timeout)
{
	struct host_session *s = calloc(1, sizeof(*s));
	char path[4200], *text;
	int sv[2], saved, ret;

	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, silent_session(s, sv));
	snprintf(path, sizeof(path), "%s/stderr", self->d.path);
	saved = stderr_to(path);
	ret = host_command(s, SEP_CMD_VERSION, NULL, 0, NULL, 0);
	text = stderr_back(saved, path);
	close(sv[0]);
	close(sv[1]);
	free(s);
	EXPECT_EQ(-1, ret);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("aca-host: timed out waiting for the answer to command 51 (1 s)\n", text);
	free(text);
}

/*
 * The end of a test on a silent session: what it said (stderr back,
 * malloc()ed), both ends closed, @s owing nothing and in step (checked),
 * freed.
 */
static char *end_in_step(struct __test_metadata *_metadata, struct host_session *s,
			 int sv[2], int saved, const char *path)
{
	char *text = stderr_back(saved, path);

	close(sv[0]);
	close(sv[1]);
	EXPECT_EQ(0, s->owed);
	EXPECT_EQ(0, s->out_of_step);
	free(s);
	return text;
}

/* The target's side of @sv: an answer to @id with @len payload bytes. */
static int answer(int fd, uint32_t id, uint64_t len)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h),
		.proto_version = SEP_PROTO_VERSION,
		.command_id = id,
		.from_target_data_size = len,
	};
	char zeros[4096] = { 0 };

	if (write(fd, &h, sizeof(h)) != sizeof(h))
		return -1;
	for (; len; len -= len < sizeof(zeros) ? len : sizeof(zeros))
		if (write(fd, zeros, len < sizeof(zeros) ? len : sizeof(zeros)) < 0)
			return -1;
	return 0;
}

/*
 * An answer that comes after its command was given up on (a slow link):
 * the next command drops it, payload and all, and gets its own answer.
 */
TEST_F(dir, late_answer_is_dropped_before_the_next_one)
{
	struct host_session *s = calloc(1, sizeof(*s));
	uint32_t version = 0;
	char path[4200], *text;
	int sv[2], saved, first, second;

	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, silent_session(s, sv));
	snprintf(path, sizeof(path), "%s/stderr", self->d.path);
	saved = stderr_to(path);
	first = host_command(s, ACA_CMD_KERNEL_SYMBOLS, NULL, 0, NULL, 0);
	/* Late, with a payload the first command no longer waits for. */
	answer(sv[1], ACA_CMD_KERNEL_SYMBOLS, 3 * 4096 + 5);
	answer(sv[1], SEP_CMD_VERSION, sizeof(version));
	second = host_command(s, SEP_CMD_VERSION, NULL, 0, &version, sizeof(version));
	text = end_in_step(_metadata, s, sv, saved, path);
	EXPECT_EQ(-1, first);
	EXPECT_EQ(VT_SUCCESS, second) {
		TH_LOG("said: %s", text ? text : "");
	}
	free(text);
}

/*
 * A command whose wait for an older answer (one sent without waiting)
 * times out stays owed with it: once both come, the next command drops
 * both, checking each is the one expected, and gets its own.
 */
TEST_F(dir, answers_owed_past_a_timeout_are_dropped_in_order)
{
	struct host_session *s = calloc(1, sizeof(*s));
	uint32_t version = 0, cores = 0;
	char path[4200], *text;
	int sv[2], saved, sent, second, third;

	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, silent_session(s, sv));
	snprintf(path, sizeof(path), "%s/stderr", self->d.path);
	saved = stderr_to(path);
	sent = host_command_send(s, ACA_CMD_KERNEL_SYMBOLS, NULL, 0, 512);
	/* Neither answer within the timeout: both owed. */
	second = host_command(s, SEP_CMD_VERSION, NULL, 0, &version, sizeof(version));
	EXPECT_EQ(2, s->owed);
	answer(sv[1], ACA_CMD_KERNEL_SYMBOLS, 512);
	answer(sv[1], SEP_CMD_VERSION, sizeof(version));
	answer(sv[1], SEP_CMD_NUM_CORES, sizeof(cores));
	third = host_command(s, SEP_CMD_NUM_CORES, NULL, 0, &cores, sizeof(cores));
	text = end_in_step(_metadata, s, sv, saved, path);
	EXPECT_EQ(0, sent);
	EXPECT_EQ(-1, second);
	EXPECT_EQ(VT_SUCCESS, third) {
		TH_LOG("said: %s", text ? text : "");
	}
	free(text);
}

/*
 * host_answer_take() behind an older answer owed: a timeout while
 * dropping that one leaves both owed, counted once; then it takes its own.
 */
TEST_F(dir, answer_taken_after_an_older_one_timed_out)
{
	struct host_session *s = calloc(1, sizeof(*s));
	uint8_t slots[512];
	char path[4200], *text;
	int sv[2], saved, first, second;

	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, silent_session(s, sv));
	snprintf(path, sizeof(path), "%s/stderr", self->d.path);
	saved = stderr_to(path);
	EXPECT_EQ(-1, host_command(s, SEP_CMD_VERSION, NULL, 0, NULL, 0));
	EXPECT_EQ(0, host_command_send(s, ACA_CMD_KERNEL_SYMBOLS, NULL, 0, sizeof(slots)));
	first = host_answer_take(s, ACA_CMD_KERNEL_SYMBOLS, slots, sizeof(slots));
	EXPECT_EQ(2, s->owed);
	answer(sv[1], SEP_CMD_VERSION, 0);
	answer(sv[1], ACA_CMD_KERNEL_SYMBOLS, sizeof(slots));
	second = host_answer_take(s, ACA_CMD_KERNEL_SYMBOLS, slots, sizeof(slots));
	text = end_in_step(_metadata, s, sv, saved, path);
	EXPECT_EQ(-1, first);
	EXPECT_EQ(VT_SUCCESS, second) {
		TH_LOG("said: %s", text ? text : "");
	}
	free(text);
}

/* An answer cut short: no later answer can be told apart, none is asked. */
TEST_F(dir, answer_cut_short_stops_the_session)
{
	struct host_session *s = calloc(1, sizeof(*s));
	uint32_t version = 0;
	char path[4200], *text;
	int sv[2], saved, first, second;
	char buf[64];

	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, silent_session(s, sv));
	snprintf(path, sizeof(path), "%s/stderr", self->d.path);
	saved = stderr_to(path);
	/* The header's first 8 bytes, then nothing within the timeout. */
	ASSERT_EQ(8, write(sv[1], "\x30\0\0\0\x01\0\0\0", 8));
	first = host_command(s, SEP_CMD_VERSION, NULL, 0, &version, sizeof(version));
	second = host_command(s, SEP_CMD_VERSION, NULL, 0, &version, sizeof(version));
	text = stderr_back(saved, path);
	/* Only the first command went out. */
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	EXPECT_EQ(sizeof(struct sep_control_msg_header), read(sv[1], buf, sizeof(buf)));
	close(sv[0]);
	close(sv[1]);
	EXPECT_EQ(1, s->out_of_step);
	free(s);
	EXPECT_EQ(-1, first);
	EXPECT_EQ(-1, second);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "not sent, an earlier answer was cut short")) {
		TH_LOG("said: %s", text);
	}
	free(text);
}

/*
 * The target's side of a hostile answer, in a thread: the header of an
 * answer to @id saying @claimed bytes follow, then @sent zero bytes, each
 * @gap_ms apart when not 0 (a trickle), then, if @then_id, a whole answer
 * to it of @then_len bytes. Ends when done, at @stop, or when the host is
 * gone.
 */
struct hostile {
	int fd;
	uint32_t id;
	uint64_t claimed, sent;
	unsigned int gap_ms;
	uint32_t then_id;
	uint64_t then_len;
	volatile int stop;
	pthread_t thread;
};

static void *hostile_answer(void *arg)
{
	struct hostile *t = arg;
	struct sep_control_msg_header h = {
		.header_size = sizeof(h),
		.proto_version = SEP_PROTO_VERSION,
		.command_id = t->id,
		.from_target_data_size = t->claimed,
	};
	static const char zeros[65536];
	uint64_t left = t->sent;

	if (send(t->fd, &h, sizeof(h), MSG_NOSIGNAL) != sizeof(h))
		return NULL;
	while (left && !t->stop) {
		size_t n = t->gap_ms ? 1 : left < sizeof(zeros) ? left : sizeof(zeros);
		ssize_t k = send(t->fd, zeros, n, MSG_NOSIGNAL);

		if (k <= 0)
			return NULL;
		left -= k;
		if (t->gap_ms)
			usleep(t->gap_ms * 1000);
	}
	if (t->then_id && !t->stop)
		answer(t->fd, t->then_id, t->then_len);
	return NULL;
}

static int hostile_start(struct hostile *t)
{
	return pthread_create(&t->thread, NULL, hostile_answer, t);
}

/* A silent session (silent_session()) whose peer is a struct hostile's. */
struct hostile_run {
	struct host_session *s;
	int sv[2], saved;
	char path[4200];
};

/* @h's session, @t's end its peer's, stderr into the test's directory. */
static int hostile_open(FIXTURE_DATA(dir) *self, struct hostile_run *h, struct hostile *t)
{
	h->s = calloc(1, sizeof(*h->s));
	if (!h->s || silent_session(h->s, h->sv))
		return -1;
	t->fd = h->sv[1];
	snprintf(h->path, sizeof(h->path), "%s/stderr", self->d.path);
	h->saved = stderr_to(h->path);
	return 0;
}

/*
 * What was said (stderr back, malloc()ed), @t's thread stopped (once
 * started), both ends closed; h->s is left for the checks, to free.
 */
static char *hostile_close(struct hostile_run *h, struct hostile *t)
{
	char *text = stderr_back(h->saved, h->path);

	t->stop = 1;
	shutdown(t->fd, SHUT_RDWR);
	pthread_join(t->thread, NULL);
	close(h->sv[0]);
	close(h->sv[1]);
	return text;
}

/*
 * A late answer that says more follows than any answer can carry (the
 * protocol's 16 MiB) is no SEP target's: not read, the session out of
 * step. Before, drop_one() read all it said (up to 2^64 bytes), here 16
 * MiB and a byte, and the next command then got its answer.
 */
TEST_F_TIMEOUT(dir, late_answer_past_the_protocols_limit_is_not_read, 20)
{
	struct hostile t = { .id = ACA_CMD_KERNEL_SYMBOLS, .claimed = HOST_MAX_REPLY + 1ull,
			     .sent = HOST_MAX_REPLY + 1ull, .then_id = SEP_CMD_VERSION,
			     .then_len = 4 };
	struct hostile_run h;
	uint32_t version = 0;
	char *text, want[256];
	int first, second;

	ASSERT_EQ(0, hostile_open(self, &h, &t));
	first = host_command(h.s, ACA_CMD_KERNEL_SYMBOLS, NULL, 0, NULL, 0);
	ASSERT_EQ(0, hostile_start(&t));
	second = host_command(h.s, SEP_CMD_VERSION, NULL, 0, &version, sizeof(version));
	text = hostile_close(&h, &t);
	EXPECT_EQ(-1, first);
	EXPECT_EQ(-1, second);
	EXPECT_EQ(1, h.s->out_of_step);
	EXPECT_EQ(1, h.s->owed);	/* VERSION's, never read */
	free(h.s);
	ASSERT_NE(NULL, text);
	snprintf(want, sizeof(want), "aca-host: command 51: a late answer of %u says "
		 "16777217 bytes follow, more than the protocol's 16777216 "
		 "(from_target_data_size): not read", ACA_CMD_KERNEL_SYMBOLS);
	EXPECT_NE(NULL, strstr(text, want)) {
		TH_LOG("said: %s", text);
	}
	free(text);
}

/*
 * An answer's payload trickled, a byte every 100 ms, each well within the
 * 1 s receive timeout: the answer whole has that second, not each byte.
 * Before, the 64 bytes came in 6.4 s and the command succeeded.
 */
TEST_F_TIMEOUT(dir, answer_trickled_past_its_deadline_is_cut_off, 20)
{
	struct hostile t = { .id = SEP_CMD_VERSION, .claimed = 64, .sent = 64,
			     .gap_ms = 100 };
	struct hostile_run h;
	char *text, out[64];
	double t0, took;
	int ret;

	ASSERT_EQ(0, hostile_open(self, &h, &t));
	ASSERT_EQ(0, hostile_start(&t));
	t0 = host_now_s();
	ret = host_command(h.s, SEP_CMD_VERSION, NULL, 0, out, sizeof(out));
	took = host_now_s() - t0;
	text = hostile_close(&h, &t);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(1, h.s->out_of_step);
	free(h.s);
	EXPECT_LE(0.9, took);
	EXPECT_GT(3.0, took);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("aca-host: timed out waiting for the payload of command 51 (1 s)\n",
		     text);
	free(text);
}

/*
 * The same of a late answer the next command drops: its wait, dropping
 * included, has the one second. Before, dropping it took 6.4 s.
 */
TEST_F_TIMEOUT(dir, late_answer_trickled_past_the_deadline_is_cut_off, 20)
{
	struct hostile t = { .id = ACA_CMD_KERNEL_SYMBOLS, .claimed = 64, .sent = 64,
			     .gap_ms = 100, .then_id = SEP_CMD_VERSION, .then_len = 4 };
	struct hostile_run h;
	uint32_t version = 0;
	int first, second;
	double t0, took;
	char *text;

	ASSERT_EQ(0, hostile_open(self, &h, &t));
	first = host_command(h.s, ACA_CMD_KERNEL_SYMBOLS, NULL, 0, NULL, 0);
	ASSERT_EQ(0, hostile_start(&t));
	t0 = host_now_s();
	second = host_command(h.s, SEP_CMD_VERSION, NULL, 0, &version, sizeof(version));
	took = host_now_s() - t0;
	text = hostile_close(&h, &t);
	EXPECT_EQ(-1, first);
	EXPECT_EQ(-1, second);
	EXPECT_EQ(1, h.s->out_of_step);
	free(h.s);
	EXPECT_GT(3.0, took);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "aca-host: timed out waiting for a late answer before "
			       "command 51 (1 s)\n")) {
		TH_LOG("said: %s", text);
	}
	free(text);
}

/* More than an answer can carry is never asked: nothing is sent. */
TEST_F(dir, answer_larger_than_the_protocol_allows_is_not_asked)
{
	struct host_session *s = calloc(1, sizeof(*s));
	char path[4200], *text, buf[64];
	int sv[2], saved, ret;

	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, silent_session(s, sv));
	snprintf(path, sizeof(path), "%s/stderr", self->d.path);
	saved = stderr_to(path);
	ret = host_command(s, SEP_CMD_GET_SYS_CONFIG, NULL, 0, buf, HOST_MAX_REPLY + 1ull);
	text = stderr_back(saved, path);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	EXPECT_EQ(-1, read(sv[1], buf, sizeof(buf)));
	close(sv[0]);
	close(sv[1]);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(0, s->owed);
	free(s);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("aca-host: command 30: not sent, 0 bytes in and 16777217 asked: the "
		     "protocol's most are 1048576 and 16777216\n", text);
	free(text);
}

/*
 * A target that takes no request: the send ends at --timeout's second,
 * as an answer's wait does. Before, host_connect() set no send timeout
 * and the send waited forever (the test's 20 s).
 */
TEST_F_TIMEOUT(dir, request_nobody_reads_times_out, 20)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	size_t len = 64u << 20;
	socklen_t alen = sizeof(a);
	char target[32], *big = calloc(1, len);
	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), fd, ret, err;
	double t0, took;

	ASSERT_NE(NULL, big);
	ASSERT_LE(0, lfd);
	/* Listening, never accepting: the kernel completes the connection. */
	ASSERT_EQ(0, bind(lfd, (struct sockaddr *)&a, sizeof(a)));
	ASSERT_EQ(0, listen(lfd, 4));
	ASSERT_EQ(0, getsockname(lfd, (struct sockaddr *)&a, &alen));
	snprintf(target, sizeof(target), "127.0.0.1:%d", ntohs(a.sin_port));
	fd = host_connect_timeout(target, 1, 1);
	ASSERT_LE(0, fd);
	t0 = host_now_s();
	ret = host_send(fd, big, len);
	err = errno;
	took = host_now_s() - t0;
	close(fd);
	close(lfd);
	free(big);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EAGAIN, err);
	EXPECT_GT(5.0, took);
}

/*
 * hello --timeout 1 of a target that trickles its status message, a byte
 * every 100 ms: timed out after that second, said so. Before, --timeout
 * was the connect's alone, and each byte came within the 30 s of a
 * receive: the whole message after 29 s.
 */
TEST_F_TIMEOUT(dir, status_message_trickled_past_timeout_is_cut_off, 20)
{
	struct mock_target m = { .hello = MOCK_HELLO_TRICKLE };
	char target[32];
	double t0, took;

	ASSERT_EQ(0, mock_start(&m));
	t0 = host_now_s();
	EXPECT_EQ(1, talk_to(self, "hello", m.port, "--timeout", "1", target, sizeof(target)));
	took = host_now_s() - t0;
	mock_join(&m);
	EXPECT_TRUE(host_said(&self->d.run, "aca-host: %s: timed out waiting for the status "
			      "message (1 s)\n", target));
	EXPECT_GT(5.0, took);
}

TEST_HARNESS_MAIN
