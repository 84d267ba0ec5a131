// SPDX-License-Identifier: GPL-2.0-only
/*
 * /dev/aca selftests, run as root inside a test VM with aca.ko loaded:
 * the node, its permissions, and one protocol connection per open file.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <netinet/in.h>

#include "../common/status_check.h"
#include "../../uapi/aca.h"
#include "../../uapi/aca_sep_cmd.h"

static int open_dev(int flags)
{
	return open(ACA_DEVICE_PATH, O_RDWR | O_CLOEXEC | flags);
}

static ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n <= 0)
			return n < 0 ? n : (ssize_t)got;
		got += n;
	}
	return got;
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

TEST_HARNESS_MAIN
