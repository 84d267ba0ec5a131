// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host-side selftests: talk TCP to aca-relay in a test VM (through a
 * forwarded loopback port) exactly as a VTune host would.
 *
 *   ACA_TARGET=127.0.0.1:19321   where the relay is reached
 *   ACA_EXPECT_SERIES=6.12       kernel series the target must report
 *   ACA_EXPECT_CPUS=2            CPU count the target must report
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../common/status_check.h"

#define READY_TIMEOUT_S	180

static struct sockaddr_in target(void)
{
	const char *t = getenv("ACA_TARGET");
	char host[64] = "127.0.0.1";
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int port = 9321;

	if (t && sscanf(t, "%63[^:]:%d", host, &port) < 1)
		port = 9321;
	sa.sin_port = htons(port);
	inet_pton(AF_INET, host, &sa.sin_addr);
	return sa;
}

static int connect_target(void)
{
	struct sockaddr_in sa = target();
	struct timeval tv = { .tv_sec = 30 };
	int one = 1;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	/* A wedged target fails the test instead of hanging it. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static ssize_t recv_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(fd, (char *)buf + got, len - got, 0);

		if (n <= 0)
			return n < 0 && !got ? n : (ssize_t)got;
		got += n;
	}
	return got;
}

static int send_all(int fd, const void *buf, size_t len)
{
	return send(fd, buf, len, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

/* Connect and hand-shake; returns the socket or -1. */
static int handshake(struct sep_target_status_msg *s, uint32_t msg_size)
{
	struct sep_control_first_msg hello = sep_hello(msg_size);
	int fd = connect_target();

	if (fd < 0)
		return -1;
	if (send_all(fd, &hello, sizeof(hello)) ||
	    recv_full(fd, s, sizeof(*s)) != sizeof(*s)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The VM may still be booting: the forwarded port accepts and then drops
 * connections until the relay listens. Wait for one good handshake.
 */
static int wait_for_target(void)
{
	static int ready;
	time_t end = time(NULL) + READY_TIMEOUT_S;
	struct sep_target_status_msg s;

	while (!ready && time(NULL) < end) {
		int fd = handshake(&s, sizeof(struct sep_control_first_msg));

		if (fd >= 0) {
			close(fd);
			ready = 1;
		} else {
			usleep(250 * 1000);
		}
	}
	return ready ? 0 : -1;
}

TEST(hello_gets_status_through_relay)
{
	const char *series = getenv("ACA_EXPECT_SERIES");
	const char *cpus = getenv("ACA_EXPECT_CPUS");
	struct sep_target_status_msg s;
	int fd;

	ASSERT_EQ(0, wait_for_target());
	fd = handshake(&s, sizeof(struct sep_control_first_msg));
	ASSERT_LE(0, fd);
	check_status_layout(_metadata, &s, VT_SUCCESS);
	if (series) {
		size_t n = strlen(series);

		EXPECT_EQ(0, strncmp(series, s.os_info.release, n));
		EXPECT_EQ('.', s.os_info.release[n]);
	}
	if (cpus)
		EXPECT_EQ(atoi(cpus), s.hardware_info.num_cpus);
	close(fd);
}

TEST(bad_hello_gets_218_and_close)
{
	struct sep_target_status_msg s;
	char c;
	int fd;

	ASSERT_EQ(0, wait_for_target());
	fd = handshake(&s, 3);
	ASSERT_LE(0, fd);
	check_status_layout(_metadata, &s, VT_COMM_NOT_COMPATIBLE);
	EXPECT_EQ(0, recv(fd, &c, 1, 0));
	close(fd);
}

TEST(fragmented_hello_over_tcp)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	const char *p = (const char *)&hello;
	int fd;

	ASSERT_EQ(0, wait_for_target());
	fd = connect_target();
	ASSERT_LE(0, fd);
	for (size_t i = 0; i < sizeof(hello); i++) {
		ASSERT_EQ(0, send_all(fd, p + i, 1));
		usleep(2000);
	}
	ASSERT_EQ(sizeof(s), recv_full(fd, &s, sizeof(s)));
	check_status_layout(_metadata, &s, VT_SUCCESS);
	close(fd);
}

TEST(concurrent_connections_are_independent)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	int fds[16];

	ASSERT_EQ(0, wait_for_target());
	for (int i = 0; i < 16; i++) {
		fds[i] = connect_target();
		ASSERT_LE(0, fds[i]);
	}
	for (int i = 15; i >= 0; i--)
		ASSERT_EQ(0, send_all(fds[i], &hello, sizeof(hello)));
	for (int i = 0; i < 16; i++) {
		ASSERT_EQ(sizeof(s), recv_full(fds[i], &s, sizeof(s)));
		EXPECT_EQ(0, s.status);
		close(fds[i]);
	}
}

TEST(half_close_still_gets_reply_then_eof)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	char c;
	int fd;

	ASSERT_EQ(0, wait_for_target());
	fd = connect_target();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, send_all(fd, &hello, sizeof(hello)));
	ASSERT_EQ(0, shutdown(fd, SHUT_WR));
	ASSERT_EQ(sizeof(s), recv_full(fd, &s, sizeof(s)));
	EXPECT_EQ(0, s.status);
	EXPECT_EQ(0, recv(fd, &c, 1, 0));
	close(fd);
}

TEST(vanished_peers_do_not_disturb_the_next)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	struct linger rst = { .l_onoff = 1, .l_linger = 0 };
	int fd;

	ASSERT_EQ(0, wait_for_target());
	for (int i = 0; i < 20; i++) {
		fd = connect_target();
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, send_all(fd, &hello, i % 24));
		if (i % 2)	/* half of them reset instead of closing */
			setsockopt(fd, SOL_SOCKET, SO_LINGER, &rst, sizeof(rst));
		close(fd);
	}
	fd = handshake(&s, sizeof(hello));
	ASSERT_LE(0, fd);
	check_status_layout(_metadata, &s, VT_SUCCESS);
	close(fd);
}

/* Wait out the VM's boot before the per-test timeouts start ticking. */
int main(int argc, char **argv)
{
	if (wait_for_target())
		fprintf(stderr, "# target %s never answered a hello\n",
			getenv("ACA_TARGET") ? getenv("ACA_TARGET") : "127.0.0.1:9321");
	return test_harness_run(argc, argv);
}
