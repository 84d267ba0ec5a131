// SPDX-License-Identifier: GPL-2.0-only
/*
 * /dev/aca selftests, run as root inside a test VM with aca.ko loaded:
 * the node, its permissions, and one protocol connection per open file.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <libgen.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <netinet/in.h>

#include "once.h"	/* first: it includes kselftest_harness.h */
#include "../common/status_check.h"
#include "session.h"
#include "../../uapi/aca.h"
#include "../../driver/core/sep_cmd.h"

static int open_dev(int flags)
{
	return open(ACA_DEVICE_PATH, O_RDWR | O_CLOEXEC | flags);
}


/* Expected group of the node: ACA_EXPECT_GID, else root. */
static gid_t expected_gid(void)
{
	const char *g = getenv("ACA_EXPECT_GID");

	return g ? (gid_t)atoi(g) : 0;
}

TEST(node_is_char_device_0660)
{
	struct stat st;

	ASSERT_EQ(0, stat(ACA_DEVICE_PATH, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0660, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
	EXPECT_EQ(expected_gid(), st.st_gid);
}

TEST(module_reports_version)
{
	char buf[64] = { 0 };
	int fd = open("/sys/module/aca/version", O_RDONLY);

	ASSERT_LE(0, fd);
	ASSERT_LT(0, read(fd, buf, sizeof(buf) - 1));
	close(fd);
	EXPECT_NE(NULL, strchr(buf, '.'));
}

TEST(unprivileged_user_cannot_open)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* nobody:nogroup, no supplementary groups */
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		if (open_dev(0) >= 0)
			_exit(1);
		_exit(errno == EACCES ? 0 : 3);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST(open_close_many_times)
{
	int fds[64];

	for (int i = 0; i < 2000; i++) {
		int fd = open_dev(0);

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, close(fd));
	}
	/* Many connections at once are independent files. */
	for (int i = 0; i < 64; i++)
		ASSERT_LE(0, fds[i] = open_dev(0));
	for (int i = 0; i < 64; i++)
		ASSERT_EQ(0, close(fds[i]));
}

TEST(hello_gets_status_of_this_kernel)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	struct utsname u;
	int fd = open_dev(0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(hello), write(fd, &hello, sizeof(hello)));
	ASSERT_EQ(sizeof(s), read_full(fd, &s, sizeof(s)));
	check_status_layout(_metadata, &s, VT_SUCCESS);
	ASSERT_EQ(0, uname(&u));
	EXPECT_STREQ(u.release, s.os_info.release);
	EXPECT_EQ(0, strncmp(u.version, s.os_info.version, 63));
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_CONF), s.hardware_info.num_cpus);
	close(fd);
}

TEST(bad_hello_gets_218_then_eof)
{
	struct sep_control_first_msg hello = sep_hello(3);
	struct sep_target_status_msg s;
	char c;
	int fd = open_dev(0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(hello), write(fd, &hello, sizeof(hello)));
	ASSERT_EQ(sizeof(s), read_full(fd, &s, sizeof(s)));
	check_status_layout(_metadata, &s, VT_COMM_NOT_COMPATIBLE);
	EXPECT_EQ(0, read(fd, &c, 1));
	close(fd);
}

TEST(fragmented_hello)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	const char *p = (const char *)&hello;
	int fd = open_dev(0);

	ASSERT_LE(0, fd);
	for (size_t i = 0; i < sizeof(hello); i++)
		ASSERT_EQ(1, write(fd, p + i, 1));
	ASSERT_EQ(sizeof(s), read_full(fd, &s, sizeof(s)));
	check_status_layout(_metadata, &s, VT_SUCCESS);
	close(fd);
}

TEST(poll_and_nonblocking_read)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct pollfd pfd = { .events = POLLIN | POLLOUT };
	char buf[8];
	int fd = open_dev(O_NONBLOCK);

	ASSERT_LE(0, fd);
	pfd.fd = fd;
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLOUT, pfd.revents);
	EXPECT_EQ(-1, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(sizeof(hello), write(fd, &hello, sizeof(hello)));
	ASSERT_EQ(1, poll(&pfd, 1, 1000));
	/* A reply is pending: readable, and input waits for it to be read. */
	EXPECT_EQ(POLLIN, pfd.revents);
	EXPECT_EQ(-1, write(fd, &hello, sizeof(hello)));
	EXPECT_EQ(EAGAIN, errno);
	close(fd);
}

/*
 * SPLICE_F_NONBLOCK alone, on a blocking file and a blocking pipe, is
 * honoured both ways as O_NONBLOCK is (aca-relay relies on it: no splice
 * may wait): input the core cannot take yet, and a reply not there yet,
 * are -EAGAIN at once.
 */
TEST(splice_nonblock_flag_on_a_blocking_file)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	int fd = open_dev(0), in[2], out[2];
	ssize_t n;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(in));
	ASSERT_EQ(0, pipe(out));
	ASSERT_EQ(sizeof(hello), write(in[1], &hello, sizeof(hello)));
	/* Nothing to read yet. */
	EXPECT_EQ(-1, splice(fd, NULL, out[1], NULL, 4096, SPLICE_F_NONBLOCK));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(sizeof(hello), splice(in[0], NULL, fd, NULL, sizeof(hello),
					SPLICE_F_NONBLOCK));
	/* The reply is pending: input waits for it to be read. */
	ASSERT_EQ(sizeof(hello), write(in[1], &hello, sizeof(hello)));
	EXPECT_EQ(-1, splice(in[0], NULL, fd, NULL, sizeof(hello),
			     SPLICE_F_NONBLOCK));
	EXPECT_EQ(EAGAIN, errno);
	n = splice(fd, NULL, out[1], NULL, sizeof(s), SPLICE_F_NONBLOCK);
	ASSERT_EQ(sizeof(s), n);
	ASSERT_EQ(sizeof(s), read(out[0], &s, sizeof(s)));
	check_status_layout(_metadata, &s, VT_SUCCESS);
	/* Read whole: nothing more to read. */
	EXPECT_EQ(-1, splice(fd, NULL, out[1], NULL, 4096, SPLICE_F_NONBLOCK));
	EXPECT_EQ(EAGAIN, errno);
	close(in[0]);
	close(in[1]);
	close(out[0]);
	close(out[1]);
	close(fd);
}

/* A blocking reader of a file: it reads until it gets something. */
struct blocked_reader {
	int fd;
	ssize_t got;
	char buf[4096];
};

static void *read_blocking(void *arg)
{
	struct blocked_reader *b = arg;

	b->got = read(b->fd, b->buf, sizeof(b->buf));
	return NULL;
}

/* A hello written to the file a moment later: the blocked reader's answer. */
static void *hello_later(void *arg)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	int fd = *(int *)arg;

	usleep(3000000);
	if (write(fd, &hello, sizeof(hello)) != sizeof(hello))
		return (void *)1;
	return NULL;
}

/*
 * Another reader of the same file waits inside read(): a splice under
 * SPLICE_F_NONBLOCK does not wait for it, it is -EAGAIN at once.
 */
TEST(nonblocking_splice_beside_a_blocked_reader)
{
	struct blocked_reader b = { .got = -2 };
	struct timespec t0, t1;
	pthread_t reader, writer;
	int p[2];
	ssize_t n;
	double s;

	b.fd = open_dev(0);
	ASSERT_LE(0, b.fd);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pthread_create(&reader, NULL, read_blocking, &b));
	/* The reader is inside read(), the hello on its way. */
	usleep(300000);
	ASSERT_EQ(-2, b.got);
	ASSERT_EQ(0, pthread_create(&writer, NULL, hello_later, &b.fd));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = splice(b.fd, NULL, p[1], NULL, 4096, SPLICE_F_NONBLOCK);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	EXPECT_EQ(-1, n);
	EXPECT_EQ(EAGAIN, errno);
	/* Not after the reader got its answer, 3 s on. */
	EXPECT_GT(2.0, s);
	ASSERT_EQ(0, pthread_join(writer, NULL));
	ASSERT_EQ(0, pthread_join(reader, NULL));
	EXPECT_EQ(sizeof(struct sep_target_status_msg), b.got);
	close(p[0]);
	close(p[1]);
	close(b.fd);
}

TEST(hangup_drains_then_eof)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	char c;
	int fd = open_dev(0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(hello), write(fd, &hello, sizeof(hello)));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_HANGUP));
	ASSERT_EQ(sizeof(s), read_full(fd, &s, sizeof(s)));
	EXPECT_EQ(0, s.status);
	EXPECT_EQ(0, read(fd, &c, 1));
	EXPECT_EQ(-1, ioctl(fd, _IO(ACA_IOC_MAGIC, 0x7f)));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
}

/* The relay's data path: splice(2) both ways through pipes. */
TEST(splice_in_and_out)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	int in[2], out[2];
	int fd = open_dev(0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(in));
	ASSERT_EQ(0, pipe(out));
	ASSERT_EQ(sizeof(hello), write(in[1], &hello, sizeof(hello)));
	ASSERT_EQ(sizeof(hello), splice(in[0], NULL, fd, NULL, sizeof(hello), 0));
	ASSERT_EQ(sizeof(s), splice(fd, NULL, out[1], NULL, 65536, 0));
	ASSERT_EQ(sizeof(s), read_full(out[0], &s, sizeof(s)));
	check_status_layout(_metadata, &s, VT_SUCCESS);
	close(fd);
}

/* Number of CPU data channels the target announces. */
static int ncpus(void)
{
	return sysconf(_SC_NPROCESSORS_CONF);
}

static int hello_on(int fd, struct sep_target_status_msg *s)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));

	if (write(fd, &hello, sizeof(hello)) != sizeof(hello))
		return -1;
	return read_full(fd, s, sizeof(*s)) == sizeof(*s) ? 0 : -1;
}

/* One command over a control fd; returns the response status. */
static int command(int fd, uint32_t id, void *out, uint64_t out_len)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h), .proto_version = SEP_PROTO_VERSION,
		.command_id = id, .from_target_data_size = out_len,
	};

	if (write(fd, &h, sizeof(h)) != sizeof(h) ||
	    read_full(fd, &h, sizeof(h)) != sizeof(h) || h.command_id != id)
		return -1;
	if (h.status == 0 && out_len &&
	    read_full(fd, out, out_len) != (ssize_t)out_len)
		return -1;
	return h.status;
}

static int set_peer(int fd, uint8_t last_octet)
{
	struct aca_peer p = { .family = AF_INET, .addr = { 10, 0, 0, last_octet } };

	return ioctl(fd, ACA_IOC_SET_PEER, &p);
}

/* Local files get roles in order: control, N CPU, uncore, module, busy. */
TEST(local_session_roles_and_teardown)
{
	int n = ncpus(), ctl = open_dev(0), busy, data[n + 2];
	struct sep_target_status_msg s;
	struct sep_data_first_msg first;
	uint32_t version;
	char c;

	ASSERT_LE(0, ctl);
	ASSERT_EQ(0, hello_on(ctl, &s));
	ASSERT_EQ(0, s.status);
	ASSERT_EQ(n, s.hardware_info.num_cpus);
	for (int i = 0; i < n + 2; i++) {
		data[i] = open_dev(0);
		ASSERT_LE(0, data[i]);
		ASSERT_EQ(sizeof(first), read_full(data[i], &first, sizeof(first)));
		EXPECT_EQ(SEP_PROTO_VERSION, first.proto_version);
		EXPECT_EQ(i < n ? SEP_DATA_CPU : i == n ? SEP_DATA_UNCORE : SEP_DATA_MODULE,
			  first.data_type);
		EXPECT_EQ(i < n ? i : 0, first.data_id);
		/* Hosts may talk on data channels; it is swallowed. */
		EXPECT_EQ(24, write(data[i], &s, 24));
	}
	busy = open_dev(0);
	ASSERT_LE(0, busy);
	ASSERT_EQ(0, hello_on(busy, &s));
	check_status_layout(_metadata, &s, VT_COMM_DATA_CHANNEL_UNAVAILABLE);
	EXPECT_EQ(0, read(busy, &c, 1));
	close(busy);

	ASSERT_EQ(0, command(ctl, SEP_CMD_VERSION, &version, 4));
	EXPECT_EQ(SEP_DRIVER_VERSION, version);
	ASSERT_EQ(0, command(ctl, SEP_CMD_TERMINATE, NULL, 0));
	EXPECT_EQ(0, read(ctl, &c, 1));
	for (int i = 0; i < n + 2; i++) {
		EXPECT_EQ(0, read(data[i], &c, 1));	/* woken, at EOF */
		close(data[i]);
	}
	close(ctl);
	/* The next session starts afresh. */
	ctl = open_dev(0);
	ASSERT_EQ(0, hello_on(ctl, &s));
	EXPECT_EQ(0, s.status);
	close(ctl);
}

/* The relay names each connection's peer; other addresses are turned away. */
TEST(peer_address_decides_roles)
{
	struct sep_target_status_msg s;
	struct sep_data_first_msg first;
	struct aca_peer bad = { .family = 99 };
	int ctl = open_dev(0), other = open_dev(0), data = open_dev(0);
	char c;

	ASSERT_LE(0, ctl);
	ASSERT_EQ(-1, ioctl(ctl, ACA_IOC_SET_PEER, &bad));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, set_peer(ctl, 1));
	ASSERT_EQ(-1, set_peer(ctl, 1));
	EXPECT_EQ(EBUSY, errno);
	ASSERT_EQ(0, hello_on(ctl, &s));
	EXPECT_EQ(0, s.status);
	ASSERT_EQ(0, set_peer(other, 2));
	ASSERT_EQ(0, hello_on(other, &s));
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, s.status);
	ASSERT_EQ(0, set_peer(data, 1));
	ASSERT_EQ(sizeof(first), read_full(data, &first, sizeof(first)));
	EXPECT_EQ(SEP_DATA_CPU, first.data_type);
	/* Control gone (as when the relay sees EOF): the channel ends. */
	ASSERT_EQ(0, ioctl(ctl, ACA_IOC_HANGUP));
	EXPECT_EQ(0, read(data, &c, 1));
	close(ctl);
	close(other);
	close(data);
}

/* ---- ACA_IOC_SET_CLIENT: who is behind a connection (issue 32) ---- */

static int set_client(int fd, int sock, uint32_t flags)
{
	struct aca_client cl = { .sock_fd = sock, .flags = flags };

	return ioctl(fd, ACA_IOC_SET_CLIENT, &cl);
}

/* READ_MSR of @msr on a fresh session of @fd: its status. */
static int session_read_msr(int fd, uint32_t msr)
{
	struct sep_target_status_msg s;
	uint64_t *vals = calloc(ncpus(), 8);
	int st;

	if (!vals || hello_on(fd, &s) || s.status) {
		free(vals);
		return -1;
	}
	st = command_io(fd, SEP_CMD_READ_MSR, &msr, 4, vals, 8ull * ncpus());
	free(vals);
	return st;
}

/* A connected local socket whose peer is a child running as @uid. */
static int local_peer_as(uid_t uid)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	socklen_t len = offsetof(struct sockaddr_un, sun_path) + 1 +
			snprintf(sun.sun_path + 1, sizeof(sun.sun_path) - 1,
				 "aca-device-test-%d", getpid());
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), s, status;
	pid_t pid;

	if (l < 0 || bind(l, (struct sockaddr *)&sun, len) || listen(l, 1))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int c = socket(AF_UNIX, SOCK_STREAM, 0);

		if (setresgid(uid, uid, uid) || setgroups(0, NULL) ||
		    setresuid(uid, uid, uid) ||
		    connect(c, (struct sockaddr *)&sun, len))
			_exit(1);
		_exit(0);
	}
	s = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	close(l);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		if (s >= 0)
			close(s);
		return -1;
	}
	return s;
}

TEST(set_client_refuses_what_is_no_client_socket)
{
	int fd = open_dev(0), p[2], sv[2], udp, lone;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	udp = socket(AF_INET, SOCK_DGRAM, 0);
	lone = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_LE(0, udp);
	ASSERT_LE(0, lone);
	EXPECT_EQ(-1, set_client(fd, p[0], 0));
	EXPECT_EQ(ENOTSOCK, errno);
	EXPECT_EQ(-1, set_client(fd, -1, 0));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, set_client(fd, udp, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, set_client(fd, lone, 0));
	EXPECT_EQ(ENOTCONN, errno);
	EXPECT_EQ(-1, set_client(fd, sv[0], 2));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, set_client(fd, sv[0], ACA_CLIENT_ADMITTED));
	EXPECT_EQ(EINVAL, errno);
	/* None of those used it up. */
	EXPECT_EQ(0, set_client(fd, sv[0], 0));
	close(fd);
	close(p[0]);
	close(p[1]);
	close(sv[0]);
	close(sv[1]);
	close(udp);
	close(lone);
}

TEST(set_client_is_once_and_before_the_role)
{
	int fd = open_dev(0), late = open_dev(0), sv[2];

	ASSERT_LE(0, fd);
	ASSERT_LE(0, late);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	EXPECT_EQ(0, set_client(fd, sv[0], 0));
	EXPECT_EQ(-1, set_client(fd, sv[0], 0));
	EXPECT_EQ(EBUSY, errno);
	ASSERT_EQ(0, set_peer(late, 1));
	EXPECT_EQ(-1, set_client(late, sv[0], 0));
	EXPECT_EQ(EBUSY, errno);
	close(fd);
	close(late);
	close(sv[0]);
	close(sv[1]);
}

/* Root (this test) behind a local socket keeps the opener's privilege. */
TEST(set_client_local_root_keeps_privilege)
{
	int fd = open_dev(0), sv[2];

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	ASSERT_EQ(0, set_client(fd, sv[0], 0));
	EXPECT_EQ(0, session_read_msr(fd, 0xc1));
	close(fd);
	close(sv[0]);
	close(sv[1]);
}

/* nobody behind a local socket: the PMU's state and energy are refused. */
TEST(set_client_local_nobody_is_unprivileged)
{
	int fd = open_dev(0), sock = local_peer_as(65534);
	int fd2 = open_dev(0);

	ASSERT_LE(0, fd);
	ASSERT_LE(0, fd2);
	ASSERT_LE(0, sock);
	ASSERT_EQ(0, set_client(fd, sock, 0));
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, session_read_msr(fd, 0xc1));
	close(fd);
	ASSERT_EQ(0, set_client(fd2, sock, 0));
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, session_read_msr(fd2, 0x611));
	close(fd2);
	close(sock);
}

/* TCP: unprivileged unless admitted; admitted, the opener's privilege. */
TEST(set_client_tcp_is_unprivileged_unless_admitted)
{
	int tcp = socket(AF_INET, SOCK_STREAM, 0), fd = open_dev(0);

	ASSERT_LE(0, tcp);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, set_client(fd, tcp, 0));
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, session_read_msr(fd, 0xc1));
	close(fd);
	fd = open_dev(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, set_client(fd, tcp, ACA_CLIENT_ADMITTED));
	EXPECT_EQ(0, session_read_msr(fd, 0xc1));
	close(fd);
	close(tcp);
}

/* A reader blocked on a data channel is woken when the session ends. */
TEST(blocked_data_reader_wakes_at_session_end)
{
	struct sep_target_status_msg s;
	struct sep_data_first_msg first;
	int ctl = open_dev(0), data = open_dev(0), status;
	pid_t pid;

	ASSERT_EQ(0, hello_on(ctl, &s));
	ASSERT_EQ(sizeof(first), read_full(data, &first, sizeof(first)));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char c;

		close(ctl);	/* only the parent's copy may keep the session */
		_exit(read(data, &c, 1) == 0 ? 0 : 1);	/* blocks */
	}
	usleep(200 * 1000);
	close(ctl);	/* the session ends with its control file */
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(data);
}

/* ---- collection: START -> samples on the CPU channels -> STOP ---- */

#define MAX_CPUS		SESSION_MAX_CPUS




struct coll {
	int n;			/* CPU channels */
	int ctl;
	int data[MAX_CPUS + 2];
	uint64_t tsc_hz;
};

/* Hello, then all N+2 data channels with their first messages. */
static void coll_open(struct __test_metadata *_metadata, struct coll *c)
{
	struct sep_target_status_msg s;
	struct sep_data_first_msg first;

	c->n = ncpus();
	ASSERT_GE(MAX_CPUS, c->n);
	c->ctl = open_dev(0);
	ASSERT_LE(0, c->ctl);
	ASSERT_EQ(0, hello_on(c->ctl, &s));
	ASSERT_EQ(0, s.status);
	c->tsc_hz = s.hardware_info.tsc_freq;
	for (int i = 0; i < c->n + 2; i++) {
		c->data[i] = open_dev(0);
		ASSERT_LE(0, c->data[i]);
		ASSERT_EQ(sizeof(first), read_full(c->data[i], &first, sizeof(first)));
	}
}

static void coll_configure(struct __test_metadata *_metadata, struct coll *c)
{
	session_configure(_metadata, c->ctl, c->n, c->tsc_hz);
}

static uint64_t coll_tsc(struct coll *c)
{
	uint64_t tsc = 0;

	return command_io(c->ctl, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, &tsc, 8) ? 0 : tsc;
}



/* A data channel read to EOF by its own thread. */
struct channel {
	pthread_t thread;
	int fd;
	uint8_t *buf;
	size_t len, cap;
	int err;
};

static void *drain(void *arg)
{
	struct channel *ch = arg;

	for (;;) {
		ssize_t n;

		if (ch->cap - ch->len < 65536) {
			ch->cap = ch->cap * 2 + 65536;
			ch->buf = realloc(ch->buf, ch->cap);
			if (!ch->buf) {
				ch->err = ENOMEM;
				return NULL;
			}
		}
		n = read(ch->fd, ch->buf + ch->len, ch->cap - ch->len);
		if (n == 0)
			return NULL;
		if (n < 0) {
			ch->err = errno;
			return NULL;
		}
		ch->len += n;
	}
}

struct cpu_counts {
	uint64_t generated, written, dropped, held, errors;
};

/* The collection file (in debugfs); returns its event kind or NULL. */
#define COLLECTION_PATH	"/sys/kernel/debug/aca/collection"

static const char *collection_counts(struct cpu_counts *cc, int n)
{
	static char kind[32];
	char line[256];
	FILE *f = fopen(COLLECTION_PATH, "r");

	if (!f)
		return NULL;
	memset(cc, 0, n * sizeof(*cc));
	kind[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned int cpu;
		unsigned long long g, w, d, h = 0, e = 0;

		if (sscanf(line, "event %31s", kind) == 1)
			continue;
		if (sscanf(line, "cpu %u generated %llu written %llu dropped %llu held %llu errors %llu",
			   &cpu, &g, &w, &d, &h, &e) >= 4 && cpu < (unsigned int)n) {
			cc[cpu].generated = g;
			cc[cpu].written = w;
			cc[cpu].dropped = d;
			cc[cpu].held = h;
			cc[cpu].errors = e;
		}
	}
	fclose(f);
	return kind;
}

/* @text into sysfs file @path; 0 or -1. */
static int write_sysfs(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * One collection on every CPU channel with CPU @off offline between
 * INIT_DRIVER and START (-1: none): bytes each CPU channel received.
 */
/* A thread per data channel of @c, draining it into @ch[]. */
static void coll_drain(struct __test_metadata *_metadata, struct coll *c,
		       struct channel *ch)
{
	for (int i = 0; i < c->n + 2; i++) {
		ch[i] = (struct channel){ .fd = c->data[i] };
		ASSERT_EQ(0, pthread_create(&ch[i].thread, NULL, drain, &ch[i]));
	}
}

/* STOP: answered once every channel is read to its end, without error. */
static void coll_stop(struct __test_metadata *_metadata, struct coll *c,
		      struct channel *ch)
{
	ASSERT_EQ(0, command_io(c->ctl, SEP_CMD_STOP, NULL, 0, NULL, 0));
	for (int i = 0; i < c->n + 2; i++) {
		ASSERT_EQ(0, pthread_join(ch[i].thread, NULL));
		EXPECT_EQ(0, ch[i].err);
	}
}

/* TERMINATE, then every file of the session closed. */
static void coll_end(struct __test_metadata *_metadata, struct coll *c,
		     struct channel *ch)
{
	EXPECT_EQ(0, command_io(c->ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	for (int i = 0; i < c->n + 2; i++) {
		free(ch[i].buf);
		close(c->data[i]);
	}
	close(c->ctl);
}

/*
 * One collection of a second with a spinner pinned to every CPU, each data
 * channel drained by a thread to its end, STOP answered once they all are:
 * the tests of the fixture each check one behaviour of what it gave. It is
 * made once for them all (once.h), by the setup of whichever runs first,
 * which also asks the session what the tests would ask it after STOP, then
 * ends it.
 */
ONCE_DEFINE(sampled_once, 64 << 20)

FIXTURE(sampled) {
	/* Plain data, kept whole for the later setups. */
	int n;				/* CPU channels */
	size_t len[MAX_CPUS + 2];	/* what each channel gave, in bytes */
	int err[MAX_CPUS + 2];		/* its read error, or 0 */
	struct cpu_counts cc[MAX_CPUS];	/* the collection file after STOP */
	pid_t spinners[MAX_CPUS];
	uint64_t tsc0, tsc1;		/* before START, after STOP */
	int num_samples_status;		/* GET_NUM_SAMPLES after STOP */
	uint64_t num_samples;
	int drops_status;		/* GET_SAMPLE_DROP_INFO after STOP */
	struct sep_sample_drop_info drops;
	int terminate_status;		/* TERMINATE, last */
	char kind_at_end[32];		/* the collection file's event then */
	/* Each setup's own: where the kept bytes of each channel are. */
	const uint8_t *buf[MAX_CPUS + 2];
};

/* The collection, its figures in @self and its channels kept in @o. */
static void collect(struct __test_metadata *_metadata,
		    FIXTURE_DATA(sampled) *self, struct once *o)
{
	static struct channel ch[MAX_CPUS + 2];	/* the threads', to their end */
	struct cpu_counts cc[MAX_CPUS];
	struct timespec t0, t1;
	const char *kind;
	struct coll c;

	coll_open(_metadata, &c);
	coll_configure(_metadata, &c);
	coll_drain(_metadata, &c, ch);
	self->n = c.n;
	self->tsc0 = coll_tsc(&c);
	ASSERT_NE(0, self->tsc0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	spin_all(self->spinners, c.n, 1000);
	ASSERT_EQ(0, wait_all(self->spinners, c.n));
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_STOP, NULL, 0, NULL, 0));
	self->tsc1 = coll_tsc(&c);
	for (int i = 0; i < c.n + 2; i++) {
		ASSERT_EQ(0, pthread_join(ch[i].thread, NULL));
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kind = collection_counts(self->cc, c.n);
	ASSERT_NE(NULL, kind);
	TH_LOG("event %s, STOP %.2f s after START", kind,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	/* What the tests would ask the session after STOP, asked now. */
	self->num_samples_status = command_io(c.ctl, SEP_CMD_GET_NUM_SAMPLES, NULL, 0,
					      &self->num_samples, 8);
	self->drops_status = command_io(c.ctl, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0,
					&self->drops, sizeof(self->drops));
	/* TERMINATE and every file closed: what is left of the session. */
	self->terminate_status = command_io(c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0);
	for (int i = 0; i < c.n + 2; i++)
		close(c.data[i]);
	close(c.ctl);
	kind = collection_counts(cc, c.n);
	snprintf(self->kind_at_end, sizeof(self->kind_at_end), "%s",
		 kind ? kind : "(no collection file)");
	for (int i = 0; i < c.n + 2; i++) {
		self->len[i] = ch[i].len;
		self->err[i] = ch[i].err;
	}
	once_put(_metadata, o, self, sizeof(*self));
	for (int i = 0; i < c.n + 2; i++) {
		once_put(_metadata, o, ch[i].buf, ch[i].len);
		free(ch[i].buf);
	}
}

FIXTURE_SETUP(sampled)
{
	size_t len;

	ONCE_SETUP(sampled_once, collect);
	for (int i = 0; i < self->n + 2; i++) {
		self->buf[i] = once_get(_metadata, sampled_once, &len);
		ASSERT_EQ(self->len[i], len) TH_LOG("channel %d", i);
	}
}

/* The session ended in the setup that made the collection. */
FIXTURE_TEARDOWN(sampled) {}

/* Every channel reaches EOF, after all its bytes, without a read error. */
TEST_F(sampled, every_channel_ends_without_error)
{
	for (int i = 0; i < self->n + 2; i++) {
		EXPECT_EQ(0, self->err[i]) TH_LOG("channel %d", i);
	}
}

/*
 * Each CPU channel: whole SampleRecordPC records of that CPU, in TSC order
 * within START..STOP, with the fields of spec 6.12 (raw pid and tid, a
 * 64-bit IP, no descriptor or OS id, the CS of the mode sampled).
 */
TEST_F(sampled, cpu_records_are_well_formed_and_in_order)
{
	for (int cpu = 0; cpu < self->n; cpu++) {
		const struct sep_sample_record_pc *r = (const void *)self->buf[cpu];
		size_t nrec = self->len[cpu] / sizeof(*r);
		uint64_t last = self->tsc0;

		EXPECT_EQ(0, self->len[cpu] % sizeof(*r));
		EXPECT_LT(0, nrec);
		for (size_t k = 0; k < nrec; k++, r++) {
			bool user = (r->ipsr >> 32) == 3;

			ASSERT_EQ(cpu, r->cpu_and_os & SEP_SAMPLE_CPU_NUM_MASK);
			ASSERT_EQ(0, r->descriptor_id);
			ASSERT_EQ(0, r->osid);
			ASSERT_LE(last, r->tsc);	/* one CPU: in order */
			ASSERT_GE(self->tsc1, r->tsc);
			last = r->tsc;
			ASSERT_EQ(SEP_SAMPLE_TID_IS_RAW | SEP_SAMPLE_IA64PC |
				  SEP_SAMPLE_PID_REC_INDEX_RAW, r->bit_fields2);
			ASSERT_EQ(3u << SEP_SAMPLE_CODE_MODE_SHIFT,
				  r->cpu_and_os & SEP_SAMPLE_CODE_MODE_MASK);
			ASSERT_EQ(user ? 0x33 : 0x10, r->cs);
			ASSERT_NE(0, r->iip);
		}
	}
}

/* The spinner pinned to a CPU ran most of the time: its samples are there. */
TEST_F(sampled, each_cpus_spinner_is_sampled_there)
{
	for (int cpu = 0; cpu < self->n; cpu++) {
		const struct sep_sample_record_pc *r = (const void *)self->buf[cpu];
		size_t nrec = self->len[cpu] / sizeof(*r), mine = 0;

		for (size_t k = 0; k < nrec; k++, r++) {
			if (r->pid_rec_index != (uint32_t)self->spinners[cpu])
				continue;
			/* One thread: its tid is its pid. */
			ASSERT_EQ(r->tid, r->pid_rec_index);
			mine++;
		}
		EXPECT_LT(0, mine) TH_LOG("cpu %d", cpu);
		TH_LOG("cpu %d: %zu samples, %zu of its spinner", cpu, nrec, mine);
	}
}

/* No uncore event was asked for: the uncore channel ends empty. */
TEST_F(sampled, uncore_channel_ends_empty)
{
	EXPECT_EQ(0, self->len[self->n]);
}

/* The module channel has records (their content: modrec_test). */
TEST_F(sampled, module_channel_has_records)
{
	EXPECT_LT(0, self->len[self->n + 1]);
}

/* GET_NUM_SAMPLES: the records every CPU channel gave. */
TEST_F(sampled, num_samples_is_the_records_received)
{
	uint64_t total = 0;

	for (int cpu = 0; cpu < self->n; cpu++)
		total += self->len[cpu] / sizeof(struct sep_sample_record_pc);
	ASSERT_EQ(0, self->num_samples_status);
	EXPECT_EQ(total, self->num_samples);
}

/*
 * GET_SAMPLE_DROP_INFO: one entry per CPU, as many as it holds; each CPU's
 * samples taken as the module counts them, none dropped.
 */
TEST_F(sampled, drop_info_counts_what_each_cpu_sampled)
{
	const struct sep_sample_drop_info *drops = &self->drops;
	int n = self->n;

	ASSERT_EQ(0, self->drops_status);
	EXPECT_EQ(n < SEP_MAX_SAMPLE_DROP_NODES ? n : SEP_MAX_SAMPLE_DROP_NODES, drops->size);
	for (int cpu = 0; cpu < n && cpu < SEP_MAX_SAMPLE_DROP_NODES; cpu++) {
		EXPECT_EQ(self->cc[cpu].generated, drops->drop_info[cpu].sampled);
		EXPECT_EQ(0, drops->drop_info[cpu].dropped);
	}
}

/* Per CPU, received + dropped == generated, exactly; nothing dropped. */
TEST_F(sampled, every_sample_generated_is_received)
{
	for (int cpu = 0; cpu < self->n; cpu++) {
		size_t got = self->len[cpu] / sizeof(struct sep_sample_record_pc);

		EXPECT_EQ(got, self->cc[cpu].written) TH_LOG("cpu %d", cpu);
		EXPECT_EQ(0, self->cc[cpu].dropped);
		EXPECT_EQ(got + self->cc[cpu].dropped, self->cc[cpu].generated);
	}
}

/*
 * TERMINATE and every file closed (by the setup, last): the session's rings
 * are gone.
 */
TEST_F(sampled, session_end_frees_its_rings)
{
	ASSERT_EQ(0, self->terminate_status);
	EXPECT_STREQ("none", self->kind_at_end);
}

static void collect_with_offline(struct __test_metadata *_metadata, int off,
				 size_t *bytes)
{
	static struct channel ch[MAX_CPUS + 2];
	char path[64];
	pid_t spinners[MAX_CPUS];
	struct coll c;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", off);
	coll_open(_metadata, &c);
	coll_configure(_metadata, &c);
	coll_drain(_metadata, &c, ch);
	if (off >= 0)
		ASSERT_EQ(0, write_sysfs(path, "0"));
	EXPECT_EQ(0, command_io(c.ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	/* Spinners on the CPUs that are online; affinity fails on the other. */
	spin_all(spinners, c.n, 700);
	wait_all(spinners, c.n);
	coll_stop(_metadata, &c, ch);
	for (int cpu = 0; cpu < c.n; cpu++)
		bytes[cpu] = ch[cpu].len;
	coll_end(_metadata, &c, ch);
	if (off >= 0)
		ASSERT_EQ(0, write_sysfs(path, "1"));
}

/*
 * A CPU taken offline between INIT_DRIVER and START does not fail START:
 * the other CPUs are sampled and its channel ends empty. Back online, it
 * is sampled again by the next session.
 */
TEST(cpu_offline_at_start_is_skipped_then_sampled_again)
{
	size_t bytes[MAX_CPUS];

	ASSERT_LE(2, ncpus()) TH_LOG("needs a second CPU to take offline");
	collect_with_offline(_metadata, 1, bytes);
	EXPECT_LT(0, bytes[0]);
	EXPECT_EQ(0, bytes[1]);
	collect_with_offline(_metadata, -1, bytes);
	EXPECT_LT(0, bytes[0]);
	EXPECT_LT(0, bytes[1]) TH_LOG("CPU 1, back online, is sampled again");
}

/*
 * A collection that samples every CPU, each channel drained into @ch[],
 * once a spinner per CPU has run 300 ms.
 */
static void coll_sampling(struct __test_metadata *_metadata, struct coll *c,
			  struct channel *ch, pid_t *spinners)
{
	coll_open(_metadata, c);
	coll_configure(_metadata, c);
	coll_drain(_metadata, c, ch);
	ASSERT_EQ(0, command_io(c->ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	spin_all(spinners, c->n, 300);
	wait_all(spinners, c->n);
}

/* Of the records channel @chan received (*@nrec), those after @tsc. */
static size_t samples_after(const struct channel *chan, uint64_t tsc,
			    size_t *nrec)
{
	const struct sep_sample_record_pc *r = (const void *)chan->buf;
	size_t after = 0;

	*nrec = chan->len / sizeof(*r);
	for (size_t k = 0; k < *nrec; k++)
		after += r[k].tsc > tsc;
	return after;
}

/*
 * A CPU taken offline during a collection and brought back is sampled
 * again in the same collection: perf drops an offline CPU's events, and
 * aca gives it new ones when it returns.
 */
TEST(cpu_back_online_mid_collection_is_sampled_again)
{
	static struct channel ch[MAX_CPUS + 2];
	const char *path = "/sys/devices/system/cpu/cpu1/online";
	pid_t spinners[MAX_CPUS];
	size_t after, nrec;
	uint64_t tsc_back;
	struct coll c;

	ASSERT_LE(2, ncpus()) TH_LOG("needs a second CPU to take offline");
	coll_sampling(_metadata, &c, ch, spinners);
	ASSERT_EQ(0, write_sysfs(path, "0"));
	usleep(300 * 1000);
	ASSERT_EQ(0, write_sysfs(path, "1"));
	tsc_back = coll_tsc(&c);
	ASSERT_NE(0, tsc_back);
	/* Long enough for the module's work item, however slow the VM. */
	spin_all(spinners, c.n, 2000);
	EXPECT_EQ(0, wait_all(spinners, c.n));
	coll_stop(_metadata, &c, ch);
	after = samples_after(&ch[1], tsc_back, &nrec);
	TH_LOG("CPU 1: %zu samples, %zu after it came back", nrec, after);
	EXPECT_LT(0, after);
	coll_end(_metadata, &c, ch);
}

/*
 * An event that stops sampling during a collection (perf leaves a pinned
 * event that got no counter in ERROR state, which takes a PMU to cause;
 * here the module's debugfs stand-in turns CPU 1's events off behind its
 * back) is found by the sampler's watch within a second and made anew:
 * CPU 1 is sampled again, and the collection file counts one error for
 * it, none for any other CPU.
 */
#define EVENT_OFF_PATH	"/sys/kernel/debug/aca/event_off"	/* a test build's */

TEST(event_not_sampling_is_made_anew)
{
	static struct channel ch[MAX_CPUS + 2];
	struct cpu_counts cc[MAX_CPUS];
	pid_t spinners[MAX_CPUS];
	size_t after, nrec;
	uint64_t tsc_off;
	struct coll c;

	ASSERT_LE(2, ncpus()) TH_LOG("needs a second CPU");
	ASSERT_EQ(0, access(COLLECTION_PATH, F_OK)) TH_LOG("debugfs is not mounted");
	ASSERT_EQ(0, access(EVENT_OFF_PATH, W_OK))
		TH_LOG("no %s: aca.ko was built without the test hooks "
		       "(tools/build-module --test-hooks)", EVENT_OFF_PATH);
	coll_sampling(_metadata, &c, ch, spinners);
	ASSERT_EQ(0, write_sysfs(EVENT_OFF_PATH, "1"));
	tsc_off = coll_tsc(&c);
	ASSERT_NE(0, tsc_off);
	/* Two watch periods, however slow the VM. */
	spin_all(spinners, c.n, 2500);
	EXPECT_EQ(0, wait_all(spinners, c.n));
	ASSERT_NE(NULL, collection_counts(cc, c.n));
	for (int cpu = 0; cpu < c.n; cpu++) {
		EXPECT_EQ(cpu == 1, cc[cpu].errors) TH_LOG("CPU %d", cpu);
	}
	coll_stop(_metadata, &c, ch);
	after = samples_after(&ch[1], tsc_off, &nrec);
	TH_LOG("CPU 1: %zu samples, %zu after its events were turned off", nrec, after);
	EXPECT_LT(0, after);
	coll_end(_metadata, &c, ch);
}

/*
 * poll() alone on a data channel that has read its first message, sleeping
 * on an empty ring since before START, learns of its samples during the
 * collection (the flush timer wakes it within a second), not at STOP:
 * polling binds the channel's ring.
 */
struct poller {
	int fd, n;
	short revents;
	double waited;
};

static void *poll_one(void *arg)
{
	struct poller *p = arg;
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	p->n = poll(&pfd, 1, 6000);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	p->revents = pfd.revents;
	p->waited = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	return NULL;
}

TEST(poll_on_a_data_channel_wakes_for_samples)
{
	static struct channel ch[MAX_CPUS + 2];
	pid_t spinners[MAX_CPUS];
	struct poller p;
	pthread_t poller;
	struct coll c;

	coll_open(_metadata, &c);
	coll_configure(_metadata, &c);
	p = (struct poller){ .fd = c.data[0] };
	ASSERT_EQ(0, pthread_create(&poller, NULL, poll_one, &p));
	usleep(500 * 1000);		/* asleep in poll() on an empty ring */
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	spin_all(spinners, c.n, 2500);
	ASSERT_EQ(0, pthread_join(poller, NULL));
	TH_LOG("poll returned %d after %.2f s", p.n, p.waited);
	EXPECT_EQ(1, p.n);
	EXPECT_TRUE(p.revents & POLLIN);
	EXPECT_GT(4.5, p.waited);	/* START after 0.5 s, then a flush */
	EXPECT_EQ(0, wait_all(spinners, c.n));
	coll_drain(_metadata, &c, ch);
	coll_stop(_metadata, &c, ch);
	coll_end(_metadata, &c, ch);
}

/* The control file closed mid-collection: sampling stops, channels end. */
TEST(collection_ends_with_control_file)
{
	struct cpu_counts cc[MAX_CPUS];
	pid_t spinners[MAX_CPUS];
	uint64_t generated = 0;
	const char *kind;
	struct coll c;
	char buf[4096];

	coll_open(_metadata, &c);
	coll_configure(_metadata, &c);
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	spin_all(spinners, c.n, 300);
	EXPECT_EQ(0, wait_all(spinners, c.n));
	kind = collection_counts(cc, c.n);
	ASSERT_NE(NULL, kind);
	EXPECT_STRNE("none", kind);
	for (int cpu = 0; cpu < c.n; cpu++)
		generated += cc[cpu].generated;
	EXPECT_LT(0, generated);

	close(c.ctl);	/* no STOP, no TERMINATE */
	kind = collection_counts(cc, c.n);
	EXPECT_STREQ("none", kind);	/* events released, rings freed */
	for (int i = 0; i < c.n + 2; i++) {
		ssize_t n;

		/* Whatever was still unread is gone with the session. */
		do {
			n = read(c.data[i], buf, sizeof(buf));
		} while (n > 0);
		EXPECT_EQ(0, n);
		close(c.data[i]);
	}
	/* The next host gets a fresh session. */
	coll_open(_metadata, &c);
	close(c.ctl);
	for (int i = 0; i < c.n + 2; i++)
		close(c.data[i]);
}

static uint64_t generated_total(int n)
{
	struct cpu_counts cc[MAX_CPUS];
	uint64_t sum = 0;

	if (!collection_counts(cc, n))
		return 0;
	for (int cpu = 0; cpu < n; cpu++)
		sum += cc[cpu].generated;
	return sum;
}

/* PAUSE disables the counters at once; RESUME brings them back. */
TEST(collection_pause_and_resume)
{
	static struct channel ch[MAX_CPUS + 2];
	pid_t spinners[MAX_CPUS];
	uint64_t paused, later;
	struct coll c;

	coll_open(_metadata, &c);
	coll_configure(_metadata, &c);
	/* STOP is answered once every channel is read to its end. */
	for (int i = 0; i < c.n + 2; i++) {
		ch[i] = (struct channel){ .fd = c.data[i] };
		ASSERT_EQ(0, pthread_create(&ch[i].thread, NULL, drain, &ch[i]));
	}
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_PAUSE, NULL, 0, NULL, 0));
	paused = generated_total(c.n);
	spin_all(spinners, c.n, 300);
	EXPECT_EQ(0, wait_all(spinners, c.n));
	EXPECT_EQ(paused, generated_total(c.n));
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_RESUME, NULL, 0, NULL, 0));
	spin_all(spinners, c.n, 300);
	EXPECT_EQ(0, wait_all(spinners, c.n));
	later = generated_total(c.n);
	EXPECT_LT(paused, later);
	TH_LOG("%llu samples before PAUSE, %llu after RESUME",
	       (unsigned long long)paused, (unsigned long long)later);
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_STOP, NULL, 0, NULL, 0));
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	for (int i = 0; i < c.n + 2; i++) {
		ASSERT_EQ(0, pthread_join(ch[i].thread, NULL));
		free(ch[i].buf);
		close(c.data[i]);
	}
	close(c.ctl);
}

/* Set /sys/module/aca/parameters/ring_pages; returns the old value or -1. */
static long set_ring_pages(long pages)
{
	const char *path = "/sys/module/aca/parameters/ring_pages";
	FILE *f = fopen(path, "r");
	long old = -1;

	if (!f || fscanf(f, "%ld", &old) != 1)
		old = -1;
	if (f)
		fclose(f);
	f = fopen(path, "w");
	if (!f)
		return -1;
	if (fprintf(f, "%ld\n", pages) < 0)
		old = -1;
	if (fclose(f))
		old = -1;
	return old;
}

/* A kind's bytes in /sys/module/aca/memory, or -1. */
static long memory_of(const char *kind)
{
	FILE *f = fopen("/sys/module/aca/memory", "r");
	char name[32];
	long bytes, found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%31s %ld", name, &bytes) == 2)
		if (!strcmp(name, kind))
			found = bytes;
	fclose(f);
	return found;
}

/* A numeric parameter of aca's, or -1. */
static long aca_param(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/aca/parameters/%s", name);
	f = fopen(path, "r");
	if (f && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

/* Up to 5 s for a kind's bytes to be @want. */
static long memory_settles(const char *kind, long want)
{
	long now = memory_of(kind);

	for (int i = 0; i < 100 && now != want; i++) {
		usleep(50 * 1000);
		now = memory_of(kind);
	}
	return now;
}

/*
 * /sys/module/aca/memory counts what a session holds: every ring's pages
 * from INIT_DRIVER (at least N sample rings of ring_pages + 1 pages, and
 * the module records'), every open file; all of it is given back when the
 * session's files are closed.
 */
TEST(memory_file_counts_a_sessions_rings_and_files)
{
	long page = sysconf(_SC_PAGESIZE), pages, rings0, files0, rings, files;
	struct coll c;

	pages = aca_param("ring_pages");
	ASSERT_LT(0, pages);
	rings0 = memory_of("rings");
	files0 = memory_of("files");
	ASSERT_LE(0, rings0);
	ASSERT_LE(0, files0);
	coll_open(_metadata, &c);
	files = memory_of("files");
	EXPECT_LE(files0 + (c.n + 3) * page, files);
	coll_configure(_metadata, &c);
	rings = memory_of("rings");
	TH_LOG("idle: rings %ld, files %ld; configured, %d CPUs of %ld pages: rings %ld, files %ld",
	       rings0, files0, c.n, pages, rings, files);
	EXPECT_LE(rings0 + c.n * (pages + 1) * page + 2 * page, rings);
	EXPECT_EQ(0, command_io(c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	for (int i = 0; i < c.n + 2; i++)
		close(c.data[i]);
	close(c.ctl);
	EXPECT_EQ(rings0, memory_settles("rings", rings0));
	EXPECT_EQ(files0, memory_settles("files", files0));
}

/* Check a CPU's stream: whole records, its CPU, TSCs in order in the window. */
static void check_stream(struct __test_metadata *_metadata, const uint8_t *buf,
			 size_t len, int cpu, uint64_t tsc0, uint64_t tsc1)
{
	const struct sep_sample_record_pc *r = (const void *)buf;
	uint64_t last = tsc0;

	ASSERT_EQ(0, len % sizeof(*r));
	for (size_t k = 0; k < len / sizeof(*r); k++, r++) {
		ASSERT_EQ(cpu, r->cpu_and_os & SEP_SAMPLE_CPU_NUM_MASK);
		ASSERT_LE(last, r->tsc);
		ASSERT_GE(tsc1, r->tsc);
		ASSERT_NE(0, r->iip);
		last = r->tsc;
	}
}

/*
 * splice() hands ring pages to the pipe by reference: while the pipe holds
 * them, the producer may not rewrite them, so with a two-page ring it drops
 * (and counts as "held") until the pipe is read; with a copy it never would.
 * What the pipe held is intact afterwards, and the accounting is exact.
 */
TEST(splice_gives_ring_pages_by_reference)
{
	static struct channel ch[MAX_CPUS + 2];
	static uint8_t got[1 << 20];
	struct cpu_counts cc[MAX_CPUS], mid[MAX_CPUS];
	size_t len = 0, nrec;
	uint64_t tsc0, tsc1;
	pid_t spinners[MAX_CPUS];
	long old_pages;
	int p[2];
	ssize_t n;
	struct coll c;

	old_pages = set_ring_pages(2);
	ASSERT_LT(0, old_pages);
	coll_open(_metadata, &c);
	coll_configure(_metadata, &c);	/* INIT_DRIVER: 2-page rings */
	ASSERT_LT(0, set_ring_pages(old_pages));
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, fcntl(p[0], F_SETFL, O_NONBLOCK));
	ASSERT_LE(1 << 20, fcntl(p[1], F_SETPIPE_SZ, 1 << 20));
	/* Every channel but CPU 0's is read as usual. */
	for (int i = 1; i < c.n + 2; i++) {
		ch[i] = (struct channel){ .fd = c.data[i] };
		ASSERT_EQ(0, pthread_create(&ch[i].thread, NULL, drain, &ch[i]));
	}
	tsc0 = coll_tsc(&c);
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	/*
	 * CPU 0's samples go to the pipe, which nobody reads for now, until
	 * the ring wrapped onto a page the pipe holds: rounds of 1.5 s (6 at
	 * most), for a guest its host starves gets fewer samples (a loaded
	 * 6.12-rt guest once took none in its first round's held pages).
	 */
	for (int round = 0; round < 6; round++) {
		spin_all(spinners, c.n, 1500);
		for (int i = 0; i < 150; i++) {
			n = splice(c.data[0], NULL, p[1], NULL, 65536, SPLICE_F_NONBLOCK);
			ASSERT_TRUE(n > 0 || (n < 0 && errno == EAGAIN));
			usleep(10000);
		}
		EXPECT_EQ(0, wait_all(spinners, c.n));
		ASSERT_NE(NULL, collection_counts(mid, c.n));
		if (mid[0].held)
			break;
	}
	/* Give the pages back; the ring is written again. */
	while ((n = read(p[0], got + len, sizeof(got) - len)) > 0)
		len += n;
	spin_all(spinners, c.n, 500);
	for (int i = 0; i < 50; i++) {
		n = splice(c.data[0], NULL, p[1], NULL, 65536, SPLICE_F_NONBLOCK);
		ASSERT_TRUE(n > 0 || (n < 0 && errno == EAGAIN));
		while ((n = read(p[0], got + len, sizeof(got) - len)) > 0)
			len += n;
		usleep(10000);
	}
	EXPECT_EQ(0, wait_all(spinners, c.n));
	/* The rest by read(), to EOF after STOP. */
	ch[0] = (struct channel){ .fd = c.data[0] };
	ASSERT_EQ(0, pthread_create(&ch[0].thread, NULL, drain, &ch[0]));
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_STOP, NULL, 0, NULL, 0));
	tsc1 = coll_tsc(&c);
	for (int i = 0; i < c.n + 2; i++) {
		ASSERT_EQ(0, pthread_join(ch[i].thread, NULL));
		EXPECT_EQ(0, ch[i].err);
	}
	ASSERT_GE(sizeof(got) - len, ch[0].len);
	memcpy(got + len, ch[0].buf, ch[0].len);
	len += ch[0].len;
	check_stream(_metadata, got, len, 0, tsc0, tsc1);
	for (int cpu = 1; cpu < c.n; cpu++)
		check_stream(_metadata, ch[cpu].buf, ch[cpu].len, cpu, tsc0, tsc1);

	ASSERT_NE(NULL, collection_counts(cc, c.n));
	nrec = len / sizeof(struct sep_sample_record_pc);
	TH_LOG("cpu 0: %zu records received, %llu generated, %llu dropped (%llu while the pipe held pages)",
	       nrec, (unsigned long long)cc[0].generated,
	       (unsigned long long)cc[0].dropped, (unsigned long long)mid[0].held);
	EXPECT_LT(0, mid[0].held);		/* reuse waited for the pipe */
	EXPECT_LT(mid[0].written, cc[0].written);	/* and resumed */
	EXPECT_EQ(nrec, cc[0].written);
	EXPECT_EQ(cc[0].generated, cc[0].written + cc[0].dropped);
	EXPECT_GE(cc[0].dropped, cc[0].held);
	for (int cpu = 1; cpu < c.n; cpu++)
		EXPECT_EQ(cc[cpu].generated,
			  ch[cpu].len / sizeof(struct sep_sample_record_pc) +
			  cc[cpu].dropped);

	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	for (int i = 0; i < c.n + 2; i++) {
		free(ch[i].buf);
		close(c.data[i]);
	}
	close(c.ctl);
	close(p[0]);
	close(p[1]);
}

/*
 * The collection file while a configured session has its rings: root's
 * only, one line per CPU with a ring (every online one), and never cut
 * short, however many CPUs (a seq_file, not a sysfs page).
 */

FIXTURE(collection_file) {
	struct coll c;
};

FIXTURE_SETUP(collection_file)
{
	coll_open(_metadata, &self->c);
	coll_configure(_metadata, &self->c);	/* INIT_DRIVER: the rings */
}

FIXTURE_TEARDOWN(collection_file)
{
	command_io(self->c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0);
	for (int i = 0; i < self->c.n + 2; i++)
		close(self->c.data[i]);
	close(self->c.ctl);
}

/* The whole file in reads of @chunk bytes; its length, or -1. */
static ssize_t read_collection(char *buf, size_t cap, size_t chunk)
{
	int fd = open(COLLECTION_PATH, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + len, chunk < cap - len ? chunk : cap - len)) > 0)
		len += n;
	close(fd);
	return n < 0 || len == cap ? -1 : (ssize_t)len;
}

/* /sys/devices/system/cpu/online ("0-3,5") as a set; how many, or -1. */
static int online_cpus(bool *online, int max)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int a, b, n = 0;
	char sep = ',';

	if (!f)
		return -1;
	memset(online, 0, max * sizeof(*online));
	while (sep == ',' && fscanf(f, "%d", &a) == 1) {
		b = a;
		if (fscanf(f, "%c", &sep) == 1 && sep == '-' &&
		    (fscanf(f, "%d", &b) != 1 || fscanf(f, "%c", &sep) != 1))
			sep = '\n';
		for (int cpu = a; cpu <= b && cpu < max; cpu++, n++)
			online[cpu] = true;
	}
	fclose(f);
	return n;
}

/*
 * The CPU of a whole "cpu N generated G written W dropped D held H errors E
 * wakeups K reads R read_bytes B max_wait_us M" line, or -1.
 */
static int cpu_line(const char *line)
{
	unsigned long long g, w, d, h, e, k, r, b, m;
	int cpu, end = 0;

	if (sscanf(line, "cpu %d generated %llu written %llu dropped %llu held %llu errors %llu "
		   "wakeups %llu reads %llu read_bytes %llu max_wait_us %llu%n",
		   &cpu, &g, &w, &d, &h, &e, &k, &r, &b, &m, &end) != 10 || line[end])
		return -1;
	return cpu;
}

TEST_F(collection_file, is_root_only_0400)
{
	struct stat st;

	ASSERT_EQ(0, stat(COLLECTION_PATH, &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(0400, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
}

/*
 * Twice root's: debugfs's top directory is 0700 (the kernel's default,
 * which tools/vm/guest-init keeps), and the file within it 0400.
 */
TEST_F(collection_file, unprivileged_reader_gets_eacces)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* nobody:nogroup, no supplementary groups, no capabilities */
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		if (open(COLLECTION_PATH, O_RDONLY) >= 0)
			_exit(1);
		_exit(errno == EACCES ? 0 : 3);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(collection_file, one_line_per_online_cpu_in_order)
{
	static char buf[1 << 20];
	bool online[MAX_CPUS];
	int n = online_cpus(online, MAX_CPUS), lines = 0, last = -1;
	ssize_t len = read_collection(buf, sizeof(buf) - 1, sizeof(buf));
	char kind[32], *line, *save;
	size_t width = 0;

	ASSERT_LT(0, len);
	ASSERT_EQ(sysconf(_SC_NPROCESSORS_ONLN), n);
	buf[len] = 0;
	line = strtok_r(buf, "\n", &save);
	ASSERT_NE(NULL, line);
	ASSERT_EQ(1, sscanf(line, "event %31s", kind));
	EXPECT_STRNE("none", kind);
	while ((line = strtok_r(NULL, "\n", &save))) {
		int cpu = cpu_line(line);

		ASSERT_LT(last, cpu) TH_LOG("line '%s'", line);
		ASSERT_GT(MAX_CPUS, cpu);
		EXPECT_TRUE(online[cpu]) TH_LOG("cpu %d is not online", cpu);
		/* Every CPU line is as long as the first. */
		if (!lines)
			width = strlen(line);
		EXPECT_EQ(width, strlen(line));
		last = cpu;
		lines++;
	}
	EXPECT_EQ(n, lines);
	TH_LOG("event %s, %d CPU lines, %zd bytes", kind, lines, len);
}

TEST_F(collection_file, ends_with_the_last_cpus_whole_line)
{
	static char buf[1 << 20];
	bool online[MAX_CPUS];
	ssize_t len = read_collection(buf, sizeof(buf) - 1, sizeof(buf));
	int highest = -1;
	char *last;

	ASSERT_LT(1, len);
	ASSERT_LT(0, online_cpus(online, MAX_CPUS));
	for (int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (online[cpu])
			highest = cpu;
	EXPECT_EQ('\n', buf[len - 1]);
	buf[len - 1] = 0;
	last = strrchr(buf, '\n');
	ASSERT_NE(NULL, last);
	EXPECT_EQ(highest, cpu_line(last + 1)) TH_LOG("last line '%s'", last + 1);
}

/*
 * A read() of a page or more ends at the end of a line (seq_file: the line
 * that does not fit waits for the next read), and the lines of all the
 * reads are the whole file's.
 */
TEST_F(collection_file, page_reads_return_whole_lines)
{
	static char whole[1 << 20], buf[1 << 20];
	ssize_t len = read_collection(whole, sizeof(whole), sizeof(whole));
	int fd = open(COLLECTION_PATH, O_RDONLY | O_CLOEXEC);
	size_t page = getpagesize(), got = 0;
	int reads = 0;
	ssize_t n;

	ASSERT_LT(0, len);
	ASSERT_LE(0, fd);
	while (got < sizeof(buf) && (n = read(fd, buf + got, page)) > 0) {
		EXPECT_EQ('\n', buf[got + n - 1]) TH_LOG("read %d: %zd bytes", reads, n);
		got += n;
		reads++;
	}
	EXPECT_EQ(0, n);
	EXPECT_EQ(len, got);
	EXPECT_EQ(0, memcmp(whole, buf, len));
	close(fd);
}

/* Read in pieces of any size, the (unchanging) text is the same. */
TEST_F(collection_file, small_reads_give_the_same_text)
{
	static char whole[1 << 20], pieces[1 << 20];
	ssize_t len = read_collection(whole, sizeof(whole), sizeof(whole));

	ASSERT_LT(0, len);
	for (size_t chunk = 1; chunk < 300; chunk += 37) {
		ASSERT_EQ(len, read_collection(pieces, sizeof(pieces), chunk));
		EXPECT_EQ(0, memcmp(whole, pieces, len)) TH_LOG("%zu-byte reads", chunk);
	}
}

/* ---- who may join a session; poll() gives no role ---- */

/*
 * Another process naming the session's address is a second host: no data
 * channel (no first message), 219 on its hello, then EOF. The session's
 * own next file is still its first data channel.
 */
TEST(other_process_cannot_join_by_peer_address)
{
	struct sep_target_status_msg s;
	struct sep_data_first_msg first;
	int ctl = open_dev(0), data, status;
	pid_t pid;
	char c;

	ASSERT_LE(0, ctl);
	ASSERT_EQ(0, set_peer(ctl, 7));
	ASSERT_EQ(0, hello_on(ctl, &s));
	ASSERT_EQ(0, s.status);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct sep_control_first_msg hello = sep_hello(sizeof(hello));
		int fd = open_dev(O_NONBLOCK);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (fd < 0 || set_peer(fd, 7))
			_exit(10);
		if (read(fd, &first, sizeof(first)) != -1 || errno != EAGAIN)
			_exit(11);	/* a data channel's first message */
		if (set_peer(fd, 7) != -1 || errno != EBUSY)
			_exit(12);
		if (write(fd, &hello, sizeof(hello)) != sizeof(hello))
			_exit(13);
		if (poll(&pfd, 1, 2000) != 1 ||
		    read(fd, &s, sizeof(s)) != sizeof(s))
			_exit(14);
		if (s.status != VT_COMM_DATA_CHANNEL_UNAVAILABLE)
			_exit(15);
		if (poll(&pfd, 1, 2000) != 1 || read(fd, &c, 1) != 0)
			_exit(16);	/* then EOF */
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	data = open_dev(0);
	ASSERT_LE(0, data);
	ASSERT_EQ(0, set_peer(data, 7));
	ASSERT_EQ(sizeof(first), read_full(data, &first, sizeof(first)));
	EXPECT_EQ(SEP_DATA_CPU, first.data_type);
	EXPECT_EQ(0, first.data_id);
	ASSERT_EQ(0, ioctl(ctl, ACA_IOC_HANGUP));
	EXPECT_EQ(0, read(data, &c, 1));
	close(data);
	close(ctl);
}

/*
 * poll() on a fresh file is a query: the target stays free for a real
 * host, and the polled file takes its role only at its first read.
 */
TEST(poll_on_fresh_file_leaves_the_session_free)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	struct sep_data_first_msg first;
	int q = open_dev(O_NONBLOCK), ctl = open_dev(O_NONBLOCK);
	struct pollfd pfd = { .fd = q, .events = POLLIN | POLLOUT };
	uint32_t version;
	char c;

	ASSERT_LE(0, q);
	ASSERT_LE(0, ctl);
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(1, poll(&pfd, 1, 0));
		EXPECT_EQ(POLLOUT, pfd.revents);
	}
	/* A real host: its hello is answered as a control channel's. */
	ASSERT_EQ(sizeof(hello), write(ctl, &hello, sizeof(hello)));
	pfd.fd = ctl;
	pfd.events = POLLIN;
	ASSERT_EQ(1, poll(&pfd, 1, 2000));
	ASSERT_EQ(sizeof(s), read(ctl, &s, sizeof(s)));
	check_status_layout(_metadata, &s, VT_SUCCESS);
	/* The polled file's first read makes it data channel 0. */
	ASSERT_EQ(sizeof(first), read(q, &first, sizeof(first)));
	EXPECT_EQ(SEP_DATA_CPU, first.data_type);
	EXPECT_EQ(0, first.data_id);
	/* The session works. */
	ASSERT_EQ(0, fcntl(ctl, F_SETFL, 0));
	ASSERT_EQ(0, command(ctl, SEP_CMD_VERSION, &version, 4));
	EXPECT_EQ(SEP_DRIVER_VERSION, version);
	ASSERT_EQ(0, command(ctl, SEP_CMD_TERMINATE, NULL, 0));
	pfd.fd = q;
	ASSERT_EQ(1, poll(&pfd, 1, 2000));
	EXPECT_EQ(0, read(q, &c, 1));
	close(q);
	close(ctl);
}

/* ---- privilege: the opener's CAP_PERFMON, decided at open() ---- */

#include <linux/capability.h>
#include <sys/syscall.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON		38
#endif
#define GROUP_PERFMON_PARAM	"/sys/module/aca/parameters/group_perfmon"

/*
 * Drop CAP_SYS_ADMIN, and CAP_PERFMON unless @keep_perfmon, from every set
 * of this process (raw capset: no libcap). The uid stays 0, so the
 * root-owned node still opens.
 */
static int drop_caps(bool keep_perfmon)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	int drop[2] = { CAP_SYS_ADMIN, CAP_PERFMON };

	if (syscall(SYS_capget, &h, d))
		return -1;
	for (int i = 0; i < (keep_perfmon ? 1 : 2); i++) {
		uint32_t bit = 1u << (drop[i] % 32);

		d[drop[i] / 32].effective &= ~bit;
		d[drop[i] / 32].permitted &= ~bit;
		d[drop[i] / 32].inheritable &= ~bit;
	}
	return syscall(SYS_capset, &h, d);
}

static int ready_within(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/*
 * In a child: drop capabilities as drop_caps(@keep_perfmon) (unless
 * @keep_all), open a session with all its data channels, then RESERVE and
 * INIT_DRIVER, which must answer @want. Module records must then arrive
 * on the module channel if and only if INIT_DRIVER succeeded; without
 * success START must answer 213 too. Exits 0 if all held, else the step.
 */
static void privilege_child(bool keep_all, bool keep_perfmon, int want)
{
	struct sep_target_status_msg s;
	struct sep_data_first_msg first;
	struct sep_drv_config dc;
	int n = ncpus(), ctl, data[MAX_CPUS + 2], st;
	uint32_t version = 0;
	int32_t busy = -1;
	char buf[256];

	if (!keep_all && drop_caps(keep_perfmon))
		_exit(10);
	if (n > MAX_CPUS)
		_exit(11);
	ctl = open_dev(0);
	if (ctl < 0 || hello_on(ctl, &s) || s.status != 0)
		_exit(12);		/* the handshake needs no privilege */
	/* A data channel takes its role at its first read, not at poll(). */
	for (int i = 0; i < n + 2; i++) {
		data[i] = open_dev(0);
		if (data[i] < 0 ||
		    read_full(data[i], &first, sizeof(first)) != sizeof(first))
			_exit(13);
	}
	if (command(ctl, SEP_CMD_VERSION, &version, 4) ||
	    version != SEP_DRIVER_VERSION)
		_exit(14);
	if (command_io(ctl, SEP_CMD_RESERVE, NULL, 0, &busy, 4) || busy)
		_exit(15);
	host_drv_config(&dc);
	st = command_io(ctl, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), NULL, 0);
	if (st != want) {
		fprintf(stderr, "# INIT_DRIVER answered %d, want %d\n", st, want);
		_exit(16);
	}
	if (want == 0) {
		/* The kernel's and modules' layout: records at once. */
		if (!ready_within(data[n + 1], 5000) ||
		    read(data[n + 1], buf, sizeof(buf)) <= 0)
			_exit(17);
	} else {
		if (ready_within(data[n + 1], 500))
			_exit(18);	/* a module record came */
		if (command(ctl, SEP_CMD_START, NULL, 0) != VT_NO_ADMIN_PRIVILEGE)
			_exit(19);
		if (ready_within(data[n + 1], 200))
			_exit(20);
	}
	if (command(ctl, SEP_CMD_TERMINATE, NULL, 0))
		_exit(21);
	for (int i = 0; i < n + 2; i++)
		close(data[i]);
	close(ctl);
	_exit(0);
}

static int run_privilege_child(bool keep_all, bool keep_perfmon, int want)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid)
		privilege_child(keep_all, keep_perfmon, want);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int write_param(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, val, strlen(val));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static bool param_is_y(const char *path)
{
	char c = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = 0;
		close(fd);
	}
	return c == 'Y';
}

TEST(group_perfmon_is_off_by_default_0644)
{
	struct stat st;

	ASSERT_EQ(0, stat(GROUP_PERFMON_PARAM, &st));
	EXPECT_EQ(0644, st.st_mode & 07777);
	EXPECT_FALSE(param_is_y(GROUP_PERFMON_PARAM));
}

/* Without CAP_PERFMON and CAP_SYS_ADMIN: 213, no module record, no START. */
TEST(opener_without_cap_perfmon_gets_init_driver_refused)
{
	ASSERT_FALSE(param_is_y(GROUP_PERFMON_PARAM));
	EXPECT_EQ(0, run_privilege_child(false, false, VT_NO_ADMIN_PRIVILEGE));
}

/* CAP_PERFMON alone (CAP_SYS_ADMIN dropped) is enough. */
TEST(opener_with_cap_perfmon_only_gets_a_working_init_driver)
{
	EXPECT_EQ(0, run_privilege_child(false, true, 0));
}

/* CAP_SYS_ADMIN (root as it is) is enough too. */
TEST(opener_with_all_capabilities_gets_a_working_init_driver)
{
	EXPECT_EQ(0, run_privilege_child(true, true, 0));
}

/* group_perfmon=1: whoever may open the node counts as CAP_PERFMON. */
TEST(group_perfmon_lets_an_opener_without_capabilities_init)
{
	ASSERT_EQ(0, write_param(GROUP_PERFMON_PARAM, "1"));
	EXPECT_EQ(0, run_privilege_child(false, false, 0));
	ASSERT_EQ(0, write_param(GROUP_PERFMON_PARAM, "0"));
	EXPECT_FALSE(param_is_y(GROUP_PERFMON_PARAM));
	/* Read at open(): the files opened from now on are refused again. */
	EXPECT_EQ(0, run_privilege_child(false, false, VT_NO_ADMIN_PRIVILEGE));
}

/* Without CAP_PERFMON the local API refuses a trace: EPERM. */
TEST(local_alloc_trace_without_cap_perfmon_is_eperm)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		struct aca_trace_alloc a = { 0 };
		int fd;

		if (drop_caps(false))
			_exit(10);
		fd = open_dev(0);
		if (fd < 0)
			_exit(11);
		if (ioctl(fd, ACA_IOC_ALLOC_TRACE, &a) != -1 || errno != EPERM)
			_exit(12);
		if (ioctl(fd, ACA_IOC_START) != -1 || errno != EPERM)
			_exit(13);
		close(fd);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * A session of @uid's, a user who may not sample, held through a local
 * socket as the relay holds one: its control file, or -1. (The same user
 * again, from this same opener, would join it as a data channel.)
 */
static int stranger_session(uid_t uid)
{
	struct sep_target_status_msg s;
	int fd = open_dev(0), sock = local_peer_as(uid);
	int ok = fd >= 0 && sock >= 0 && !set_client(fd, sock, 0) &&
		 !hello_on(fd, &s) && s.status == VT_SUCCESS;

	if (sock >= 0)
		close(sock);
	if (!ok && fd >= 0)
		close(fd);
	return ok ? fd : -1;
}

/* The session's end, as its host sees it: EOF on the control file. */
static bool ended(int fd)
{
	char c;

	return ready_within(fd, 1000) && read(fd, &c, 1) == 0;
}

/* Issue 49: a stranger cannot keep the target from those who may sample. */
TEST(unprivileged_session_yields_to_a_privileged_host)
{
	struct sep_target_status_msg s;
	int held = stranger_session(65534), root = open_dev(0);

	ASSERT_LE(0, held);
	ASSERT_LE(0, root);
	ASSERT_EQ(0, hello_on(root, &s));
	EXPECT_EQ(VT_SUCCESS, s.status);
	EXPECT_TRUE(ended(held));
	close(held);
	close(root);
}

TEST(unprivileged_session_yields_to_a_local_trace)
{
	struct aca_trace_alloc a = { 0 };
	int held = stranger_session(65534), root = open_dev(0);

	ASSERT_LE(0, held);
	ASSERT_LE(0, root);
	EXPECT_EQ(0, ioctl(root, ACA_IOC_ALLOC_TRACE, &a)) TH_LOG("errno %d", errno);
	EXPECT_TRUE(ended(held));
	EXPECT_EQ(0, ioctl(root, ACA_IOC_FREE_TRACE));
	close(held);
	close(root);
}

/* Another stranger waits session_idle_s (1 s here) for an idle one. */
TEST(idle_unprivileged_session_yields_after_session_idle_s)
{
	static const char param[] = "/sys/module/aca/parameters/session_idle_s";
	long old = aca_param("session_idle_s");
	int held, early, late;
	char buf[24];

	ASSERT_LE(0, old);
	ASSERT_EQ(0, write_param(param, "1"));
	held = stranger_session(65534);
	EXPECT_LE(0, held);
	early = stranger_session(65533);
	EXPECT_EQ(-1, early) TH_LOG("a second stranger got the target at once");
	usleep(1200000);
	late = stranger_session(65532);
	EXPECT_LE(0, late);
	EXPECT_TRUE(held >= 0 && ended(held));
	snprintf(buf, sizeof(buf), "%ld", old);
	EXPECT_EQ(0, write_param(param, buf));
	if (held >= 0)
		close(held);
	if (early >= 0)
		close(early);
	if (late >= 0)
		close(late);
}

/*
 * Issue 49: KERNEL_SYMBOLS names what /proc/kallsyms shows the session's
 * person, and gives empty slots where it shows zeros, at each
 * kptr_restrict: root (CAP_SYSLOG), and a root without CAP_SYSLOG (still
 * CAP_PERFMON: a session that may sample). perf_event_paranoid is 2 for
 * the test: at 0 or 1 with kptr_restrict 0, kallsyms shows anyone
 * addresses and aca, which cannot read that sysctl, still asks for
 * CAP_SYSLOG (client.c).
 */
#define KPTR_RESTRICT	"/proc/sys/kernel/kptr_restrict"
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/*
 * The address /proc/kallsyms shows this process for its first text
 * symbol (0: hidden; the per-CPU symbols before it are at 0 anyway).
 */
static uint64_t kallsyms_first(void)
{
	unsigned long long a = 0;
	char type[8];
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && fscanf(f, "%llx %7s %*[^\n]", &a, type) == 2)
		if (type[0] == 'T' || type[0] == 't')
			break;
	if (f)
		fclose(f);
	return a;
}

/* KERNEL_SYMBOLS of @addr on a new session: 1 named, 0 empty, -1 error. */
static int ksym_named(uint64_t addr)
{
	char slot[ACA_KSYM_SLOT_SIZE];
	struct sep_target_status_msg s;
	int fd = open_dev(0), st;

	if (fd < 0 || hello_on(fd, &s) || s.status) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	st = command_io(fd, ACA_CMD_KERNEL_SYMBOLS, &addr, 8, slot, sizeof(slot));
	close(fd);
	return st ? -1 : slot[0] != 0;
}

/* In a child without CAP_SYSLOG: kallsyms' view (bit 1), aca's (bit 0). */
static int ksym_views_without_syslog(uint64_t addr)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	uint32_t bit = 1u << (CAP_SYSLOG % 32);
	int status, named;
	pid_t pid = fork();

	if (!pid) {
		if (syscall(SYS_capget, &h, d))
			_exit(10);
		d[CAP_SYSLOG / 32].effective &= ~bit;
		d[CAP_SYSLOG / 32].permitted &= ~bit;
		if (syscall(SYS_capset, &h, d))
			_exit(11);
		named = ksym_named(addr);
		if (named < 0)
			_exit(12);
		_exit((kallsyms_first() ? 2 : 0) | named);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

FIXTURE(kptr) {
	long old_kptr, old_paranoid;
	uint64_t addr;		/* a kernel address, root's view at 1 */
};

FIXTURE_VARIANT(kptr) {
	const char *level;
	bool root_sees;
};

FIXTURE_VARIANT_ADD(kptr, zero) { .level = "0", .root_sees = true };
FIXTURE_VARIANT_ADD(kptr, one) { .level = "1", .root_sees = true };
FIXTURE_VARIANT_ADD(kptr, two) { .level = "2", .root_sees = false };

static long read_long(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (f && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

FIXTURE_SETUP(kptr)
{
	self->old_kptr = read_long(KPTR_RESTRICT);
	self->old_paranoid = read_long(PARANOID);
	ASSERT_LE(0, self->old_kptr);
	ASSERT_EQ(0, write_param(KPTR_RESTRICT, "1"));
	self->addr = kallsyms_first();
	ASSERT_NE(0, self->addr);
	ASSERT_EQ(0, write_param(PARANOID, "2"));
	ASSERT_EQ(0, write_param(KPTR_RESTRICT, variant->level));
}

FIXTURE_TEARDOWN(kptr)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%ld", self->old_kptr);
	write_param(KPTR_RESTRICT, buf);
	snprintf(buf, sizeof(buf), "%ld", self->old_paranoid);
	write_param(PARANOID, buf);
}

TEST_F(kptr, root_is_shown_what_kallsyms_shows_it)
{
	EXPECT_EQ(variant->root_sees, kallsyms_first() != 0);
	EXPECT_EQ(variant->root_sees, ksym_named(self->addr));
}

TEST_F(kptr, without_cap_syslog_nothing_is_named)
{
	int views = ksym_views_without_syslog(self->addr);

	ASSERT_LE(0, views);
	ASSERT_GT(10, views) TH_LOG("the child failed: %d", views);
	EXPECT_EQ(0, views & 2) TH_LOG("kallsyms showed it an address");
	EXPECT_EQ(0, views & 1) TH_LOG("KERNEL_SYMBOLS named it an address");
}

TEST_HARNESS_MAIN
