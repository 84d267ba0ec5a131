// SPDX-License-Identifier: GPL-2.0-only
/*
 * copyrelay: make bench's baseline for aca-relay, a relay of the same shape
 * that copies. Each TCP connection accepted on PORT (all addresses: a port
 * the host forwards in) gets its own /dev/aca file, named to the module as
 * aca-relay names it (ACA_IOC_SET_PEER), and two threads: host to device
 * and device to host, each a plain read() into a buffer and a write() or
 * send() of it, 64 KiB at a time. The host's end of file (or an error)
 * becomes ACA_IOC_HANGUP, the device's a shutdown of the socket's sending
 * side, as in aca-relay. No parking of reconnects, no limits: one host,
 * one session at a time.
 *
 *   copyrelay PORT [DEVICE]
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../uapi/aca.h"

/* As aca-relay's pipes hold: 16 pages. */
#define CHUNK	(16 * 4096)

struct conn {
	int sock, dev;
	atomic_int ends;	/* directions done; the second closes */
};

static void conn_put(struct conn *c)
{
	if (atomic_fetch_add(&c->ends, 1) == 1) {
		close(c->dev);
		close(c->sock);
		free(c);
	}
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* copy FROM to TO until FROM's end of file; returns 0 there, else -1. */
static int copy(int from, int to)
{
	char buf[CHUNK];
	ssize_t n;

	for (;;) {
		n = read(from, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? -1 : 0;
		if (write_all(to, buf, (size_t)n))
			return -1;
	}
}

static void *up(void *arg)
{
	struct conn *c = arg;

	/* End or error, the host is done: the device ends, then down. */
	copy(c->sock, c->dev);
	ioctl(c->dev, ACA_IOC_HANGUP);
	conn_put(c);
	return NULL;
}

static void *down(void *arg)
{
	struct conn *c = arg;

	copy(c->dev, c->sock);
	shutdown(c->sock, SHUT_WR);
	conn_put(c);
	return NULL;
}

static int start(struct conn *c, void *(*fn)(void *))
{
	pthread_attr_t a;
	pthread_t t;
	int err;

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&t, &a, fn, c);
	pthread_attr_destroy(&a);
	return err;
}

static void conn_open(int sock, const struct sockaddr_in *peer,
		      const char *device)
{
	struct aca_peer p = { .family = AF_INET };
	struct conn *c = calloc(1, sizeof(*c));
	int one = 1;

	if (!c) {
		close(sock);
		return;
	}
	c->sock = sock;
	c->dev = open(device, O_RDWR | O_CLOEXEC);
	p.port = ntohs(peer->sin_port);
	memcpy(p.addr, &peer->sin_addr, 4);
	if (c->dev < 0 || ioctl(c->dev, ACA_IOC_SET_PEER, &p)) {
		fprintf(stderr, "copyrelay: %s: %s\n", device, strerror(errno));
		if (c->dev >= 0)
			close(c->dev);
		close(sock);
		free(c);
		return;
	}
	setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (start(c, up)) {
		close(c->dev);
		close(sock);
		free(c);
		return;
	}
	if (start(c, down)) {
		shutdown(sock, SHUT_RDWR);	/* up ends */
		conn_put(c);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET }, peer;
	const char *device = argc > 2 ? argv[2] : "/dev/aca";
	socklen_t len;
	int one = 1, l, s;
	long port;

	if (argc < 2 || argc > 3 ||
	    (port = strtol(argv[1], NULL, 10)) < 1 || port > 65535) {
		fprintf(stderr, "usage: copyrelay PORT [DEVICE]\n");
		return 2;
	}
	a.sin_port = htons((unsigned short)port);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 64)) {
		perror("copyrelay: listen");
		return 1;
	}
	for (;;) {
		len = sizeof(peer);
		s = accept4(l, (struct sockaddr *)&peer, &len, SOCK_CLOEXEC);
		if (s < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			perror("copyrelay: accept");
			return 1;
		}
		conn_open(s, &peer, device);
	}
}
