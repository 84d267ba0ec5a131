// SPDX-License-Identifier: GPL-2.0-only
/* TCP plumbing of aca-host: TARGET[:PORT] parsing, whole sends and receives. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "host.h"

/* "host", "host:port", "[v6]:port" */
static int split_target(const char *target, char *host, size_t hlen,
			char *port, size_t plen)
{
	const char *colon;

	snprintf(port, plen, "%d", SEP_TCP_PORT);
	if (target[0] == '[') {
		const char *end = strchr(target, ']');

		if (!end || (size_t)(end - target - 1) >= hlen)
			return -1;
		snprintf(host, hlen, "%.*s", (int)(end - target - 1), target + 1);
		if (end[1] == ':')
			snprintf(port, plen, "%s", end + 2);
		return 0;
	}
	colon = strrchr(target, ':');
	if (colon && strchr(target, ':') == colon) {
		snprintf(host, hlen, "%.*s", (int)(colon - target), target);
		snprintf(port, plen, "%s", colon + 1);
	} else {
		snprintf(host, hlen, "%s", target);
	}
	return 0;
}

int host_connect(const char *target, int timeout_s)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	struct timeval tv = { .tv_sec = timeout_s };
	char host[256], port[16];
	int fd = -1, one = 1, err;

	if (split_target(target, host, sizeof(host), port, sizeof(port))) {
		fprintf(stderr, "aca-host: bad target '%s'\n", target);
		return -1;
	}
	err = getaddrinfo(host, port, &hints, &res);
	if (err) {
		fprintf(stderr, "aca-host: %s: %s\n", target, gai_strerror(err));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		fprintf(stderr, "aca-host: cannot connect to %s: %s\n", target,
			strerror(errno));
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

int host_send(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* Returns 0 on a full buffer, -1 on error or a short stream (EOF). */
int host_recv(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

void close_quietly(int fd)
{
	if (fd >= 0)
		close(fd);
}
