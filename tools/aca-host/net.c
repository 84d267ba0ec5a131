// SPDX-License-Identifier: GPL-2.0-only
/*
 * TCP plumbing of aca-host: TARGET[:PORT] parsing, connecting within a
 * deadline, whole sends and receives, the hello, and what to say when any
 * of it fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "host.h"

#define MAX_SYNCNT	127	/* the kernel's most SYN retries (MAX_TCP_SYNCNT) */

struct endpoint {
	char host[256];
	char port[8];
};

/* A port of TARGET:PORT: a decimal number from 1 to 65535. */
static int parse_port(const char *s, unsigned long *port)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*port = strtoul(s, &end, 10);
	return errno || *end || *port < 1 || *port > 65535 ? -1 : 0;
}

/*
 * "host", "host:port", "[v6]" or "[v6]:port" into @e; 0, or -1 with what
 * is wrong in @why.
 */
static int split_target(const char *target, struct endpoint *e, char *why,
			size_t len)
{
	const char *host = target, *port = NULL, *colon = strrchr(target, ':');
	unsigned long p = SEP_TCP_PORT;
	size_t n = strlen(target);

	if (target[0] == '[') {
		const char *end = strchr(target, ']');

		if (!end || (end[1] && end[1] != ':')) {
			snprintf(why, len, "an IPv6 address is written [ADDRESS] or [ADDRESS]:PORT");
			return -1;
		}
		host = target + 1;
		n = end - host;
		port = end[1] ? end + 2 : NULL;
	} else if (colon && strchr(target, ':') == colon) {
		n = colon - target;
		port = colon + 1;
	}
	if (!n || n >= sizeof(e->host)) {
		snprintf(why, len, n ? "host name too long" : "no host");
		return -1;
	}
	if (port && parse_port(port, &p)) {
		snprintf(why, len, "port '%.16s' is not a number from 1 to 65535", port);
		return -1;
	}
	snprintf(e->host, sizeof(e->host), "%.*s", (int)n, host);
	snprintf(e->port, sizeof(e->port), "%lu", p);
	return 0;
}

/* A TARGET starting with '/' is a relay's local socket (aca-relay --unix). */
static bool unix_target(const char *target)
{
	return target[0] == '/';
}

int host_check_target(const char *prefix, const char *target)
{
	struct endpoint e;
	char why[128];

	if (unix_target(target)) {
		if (strlen(target) < sizeof(((struct sockaddr_un *)0)->sun_path))
			return 0;
		fprintf(stderr, "%s: TARGET '%s': socket path too long\n", prefix, target);
		return -1;
	}
	if (!split_target(target, &e, why, sizeof(why)))
		return 0;
	fprintf(stderr, "%s: TARGET '%s': %s\n", prefix, target, why);
	return -1;
}

/* The end of a non-blocking connect(): 0, or its errno (ETIMEDOUT after @ms). */
static int wait_connected(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	double end = host_now_s() * 1e3 + ms;
	socklen_t len = sizeof(int);
	int err = 0, n;

	do {
		int left = (int)(end - host_now_s() * 1e3);

		if (left <= 0)
			return ETIMEDOUT;
		n = poll(&p, 1, left);
		if (n < 0 && errno != EINTR)
			return errno;
	} while (n <= 0);
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		return errno;
	return err;
}

/* One address within @ms: the socket, blocking again, or -1 with errno. */
static int connect_within(const struct addrinfo *ai, int ms)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int syncnt = MAX_SYNCNT, err;

	if (fd < 0)
		return -1;
	/* Our deadline ends the wait, not the kernel's SYN retries (~2 min). */
	setsockopt(fd, IPPROTO_TCP, TCP_SYNCNT, &syncnt, sizeof(syncnt));
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS)
		err = errno;
	else
		err = wait_connected(fd, ms);
	if (!err && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		err = errno;
	if (err) {
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/*
 * Every wait on @fd within @seconds: each answer whole (SO_RCVTIMEO, the
 * deadline host_recv() takes), each request whole (SO_SNDTIMEO).
 */
static void set_timeouts(int fd, int seconds)
{
	struct timeval tv = { .tv_sec = seconds };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static void explain_connect(const char *target, int err, int timeout_s)
{
	if (err == ECONNREFUSED)
		host_explain(target, HOST_REFUSED, 0);
	else if (err == ETIMEDOUT)
		host_explain(target, HOST_CONNECT_TIMEOUT, timeout_s);
	else
		host_explain(target, HOST_CONNECT_ERROR, err);
}

/*
 * The relay's local socket at @path: a local connect() answers at once
 * (ENOENT, EACCES, ECONNREFUSED) or is queued. The relay learns who we are
 * from the socket (SO_PEERCRED), so this is how a local user gets their
 * own privilege on this machine.
 */
static int connect_unix(const char *path, int answer_s)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, err;

	if (strlen(path) >= sizeof(sun.sun_path)) {
		fprintf(stderr, "aca-host: TARGET '%s': socket path too long\n", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof(sun))) {
		err = errno;
		if (fd >= 0)
			close(fd);
		fprintf(stderr, "aca-host: %s: %s%s\n", path, strerror(err),
			err == ENOENT || err == ECONNREFUSED ?
			" (is aca-relay running, with this --unix path?)" :
			err == EACCES ? " (the socket is for the group of /dev/aca; see aca-relay(8))" : "");
		return -1;
	}
	set_timeouts(fd, answer_s);
	return fd;
}

int host_connect_timeout(const char *target, int connect_s, int answer_s)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	int fd = -1, one = 1, err;
	struct endpoint e;
	char why[128];

	if (unix_target(target))
		return connect_unix(target, answer_s);
	if (split_target(target, &e, why, sizeof(why))) {
		fprintf(stderr, "aca-host: TARGET '%s': %s\n", target, why);
		return -1;
	}
	err = getaddrinfo(e.host, e.port, &hints, &res);
	if (err) {
		fprintf(stderr, "aca-host: %s: %s\n", target, gai_strerror(err));
		return -1;
	}
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = connect_within(ai, connect_s * 1000);
		err = errno;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		explain_connect(target, err, connect_s);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	set_timeouts(fd, answer_s);
	return fd;
}

int host_connect(const char *target, int timeout_s)
{
	return host_connect_timeout(target, timeout_s, HOST_RECV_TIMEOUT_S);
}

double host_sock_timeout(int fd, int opt)
{
	struct timeval tv = { 0 };
	socklen_t len = sizeof(tv);

	if (getsockopt(fd, SOL_SOCKET, opt, &tv, &len))
		return 0;
	return tv.tv_sec + tv.tv_usec / 1e6;
}

double host_deadline(int fd, int opt)
{
	double t = host_sock_timeout(fd, opt);

	return t > 0 ? host_now_s() + t : 0;
}

/*
 * Wait for @events on @fd until @deadline (0: none, no wait): 0 when it
 * may be tried, -1 with errno (EAGAIN: the deadline passed first).
 */
static int wait_for(int fd, short events, double deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;

	if (!deadline)
		return 0;
	do {
		double left = deadline - host_now_s();

		if (left <= 0) {
			errno = EAGAIN;
			return -1;
		}
		n = poll(&p, 1, (int)(left * 1000) + 1);
	} while (n == 0 || (n < 0 && errno == EINTR));
	return n < 0 ? -1 : 0;
}

int host_send_until(int fd, const void *buf, size_t len, double deadline)
{
	/* With a deadline no call blocks: a peer that reads slowly is cut off. */
	int flags = MSG_NOSIGNAL | (deadline ? MSG_DONTWAIT : 0);
	const char *p = buf;

	while (len) {
		ssize_t n;

		if (wait_for(fd, POLLOUT, deadline))
			return -1;
		n = send(fd, p, len, flags);
		if (n < 0 && (errno == EINTR || (deadline && errno == EAGAIN)))
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int host_recv_until(int fd, void *buf, size_t len, double deadline, size_t *got)
{
	int flags = deadline ? MSG_DONTWAIT : 0, ret = 0;
	char *p = buf;
	size_t have = 0;

	while (have < len) {
		ssize_t n;

		if (wait_for(fd, POLLIN, deadline)) {
			ret = -1;
			break;
		}
		n = recv(fd, p + have, len - have, flags);
		if (n < 0 && (errno == EINTR || (deadline && errno == EAGAIN)))
			continue;
		if (!n)
			errno = 0;
		if (n <= 0) {
			ret = -1;
			break;
		}
		have += n;
	}
	if (got)
		*got = have;
	return ret;
}

int host_send(int fd, const void *buf, size_t len)
{
	return host_send_until(fd, buf, len, host_deadline(fd, SO_SNDTIMEO));
}

int host_recv(int fd, void *buf, size_t len)
{
	return host_recv_until(fd, buf, len, host_deadline(fd, SO_RCVTIMEO), NULL);
}

/*
 * The status message, or as much of it as tells it is none: its first
 * field, msg_size, once that is wrong. Returns 0, or -1 with errno as
 * host_recv() leaves it; *@got bytes came either way.
 */
static int recv_status(int fd, struct sep_target_status_msg *st, size_t *got)
{
	/* All of it within the receive timeout: a trickle ends there too. */
	double deadline = host_deadline(fd, SO_RCVTIMEO);
	int flags = deadline ? MSG_DONTWAIT : 0;
	char *p = (char *)st;

	for (*got = 0; *got < sizeof(*st);) {
		ssize_t n;

		if (wait_for(fd, POLLIN, deadline))
			return -1;
		n = recv(fd, p + *got, sizeof(*st) - *got, flags);
		if (n < 0 && (errno == EINTR || (deadline && errno == EAGAIN)))
			continue;
		if (!n)
			errno = 0;
		if (n <= 0)
			return -1;
		*got += n;
		if (*got >= sizeof(st->msg_size) && st->msg_size != sizeof(*st))
			return 0;
	}
	return 0;
}

/* SO_RCVTIMEO of @fd in whole seconds (0: none). */
static long recv_timeout_s(int fd)
{
	double t = host_sock_timeout(fd, SO_RCVTIMEO);

	/* No libm: remote_test links the library without it. */
	return (long)t + (t > (long)t);
}

/* No whole status message: @err as recv_status() left errno, @got bytes. */
static void explain_no_status(int fd, const char *target, int err, size_t got)
{
	if (err == EAGAIN || err == EWOULDBLOCK)
		host_explain(target, HOST_STATUS_TIMEOUT, recv_timeout_s(fd));
	else if (got)
		host_explain(target, HOST_NOT_SEP, (long)got);
	else if (!err || err == ECONNRESET || err == EPIPE)
		host_explain(target, HOST_CLOSED, 0);
	else
		host_explain(target, HOST_RECV_ERROR, err);
}

int host_hello(int fd, const char *target, struct sep_target_status_msg *st)
{
	struct sep_control_first_msg hello = {
		.msg_size = sizeof(hello),
		.proto_version = SEP_PROTO_VERSION,
	};
	size_t got = 0;

	if (host_send(fd, &hello, sizeof(hello)) || recv_status(fd, st, &got)) {
		explain_no_status(fd, target, errno, got);
		return -1;
	}
	if (st->msg_size != sizeof(*st)) {
		host_explain(target, HOST_NOT_SEP, (long)got);
		return -1;
	}
	return 0;
}

const char *host_status_name(int status)
{
	switch (status) {
	case VT_SUCCESS: return "OK";
	case VT_DRIVER_COMM_FAILED: return "VT_DRIVER_COMM_FAILED";
	case VT_COMM_NOT_COMPATIBLE: return "VT_COMM_NOT_COMPATIBLE";
	case VT_COMM_DATA_CHANNEL_UNAVAILABLE: return "VT_COMM_DATA_CHANNEL_UNAVAILABLE (busy)";
	default: return "error";
	}
}

/* TARGET as HOST:PORT, the port said even when it was left out. */
static void target_name(const char *target, char *buf, size_t len)
{
	struct endpoint e;
	char why[128];

	if (unix_target(target) || split_target(target, &e, why, sizeof(why)))
		snprintf(buf, len, "%s", target);
	else
		snprintf(buf, len, strchr(e.host, ':') ? "[%s]:%s" : "%s:%s", e.host,
			 e.port);
}

void host_explain(const char *target, enum host_fail why, long detail)
{
	char t[300];

	target_name(target, t, sizeof(t));
	switch (why) {
	case HOST_REFUSED:
		fprintf(stderr, "aca-host: %s: connection refused: nothing listens there\n"
			"aca-host: is aca-relay running on the target (systemctl start "
			"aca-relay), on this port (its --port, default %d), and serving "
			"other hosts (without --allow or --bind it listens on loopback "
			"only: use --allow CIDR, or ssh -L)? A firewall rejecting the port "
			"looks the same.\n", t, SEP_TCP_PORT);
		break;
	case HOST_CONNECT_TIMEOUT:
		fprintf(stderr, "aca-host: %s: connect timed out after %ld s\n"
			"aca-host: nothing answered: is the address right, the target up, "
			"and no firewall dropping the port? (--timeout S waits longer)\n",
			t, detail);
		break;
	case HOST_CONNECT_ERROR:
		fprintf(stderr, "aca-host: cannot connect to %s: %s\n", t,
			strerror((int)detail));
		break;
	case HOST_CLOSED:
		fprintf(stderr, "aca-host: %s closed the connection before the status message\n"
			"aca-host: the relay accepted but dropped us: this host is not in its "
			"--allow, or it could not open /dev/aca; read the relay's journal on "
			"the target: journalctl -u aca-relay\n", t);
		break;
	case HOST_STATUS_TIMEOUT:
		fprintf(stderr, "aca-host: %s: timed out waiting for the status message (%ld s)\n",
			t, detail);
		break;
	case HOST_RECV_ERROR:
		fprintf(stderr, "aca-host: %s: no status message: %s\n", t,
			strerror((int)detail));
		break;
	case HOST_NOT_SEP:
		fprintf(stderr, "aca-host: %s is not a SEP remote target (got %ld bytes that "
			"are not a status message)\n", t, detail);
		break;
	case HOST_BUSY:
		fprintf(stderr, "aca-host: %s is busy: status %d (VT_COMM_DATA_CHANNEL_UNAVAILABLE): "
			"another host's session is active; try again once it ends\n", t,
			VT_COMM_DATA_CHANNEL_UNAVAILABLE);
		break;
	case HOST_STATUS:
		fprintf(stderr, "aca-host: %s refused the session: status %ld (%s)\n", t,
			detail, host_status_name((int)detail));
		break;
	}
}

void host_explain_status(const char *target, int status)
{
	host_explain(target, status == VT_COMM_DATA_CHANNEL_UNAVAILABLE ?
		     HOST_BUSY : HOST_STATUS, status);
}

void host_recv_failed(int fd, int err, const char *what)
{
	if (err == EAGAIN || err == EWOULDBLOCK)
		fprintf(stderr, "aca-host: timed out waiting for %s (%ld s)\n", what,
			recv_timeout_s(fd));
	else if (!err)
		fprintf(stderr, "aca-host: the target closed the connection before %s\n", what);
	else
		fprintf(stderr, "aca-host: receiving %s: %s\n", what, strerror(err));
}

void close_quietly(int fd)
{
	if (fd >= 0)
		close(fd);
}
