// SPDX-License-Identifier: GPL-2.0-only
/*
 * One TCP connection and its /dev/aca file, joined by two splice pumps.
 * Bytes go socket -> pipe -> device and device -> pipe -> socket without
 * ever entering this process's memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "relay.h"
#include "../uapi/aca.h"

#define PUMP_CHUNK	(64 * 1024)

static void pump_splice(struct pump *p, int in, int out, unsigned int len)
{
	struct io_uring_sqe *sqe = relay_sqe(p->conn->relay);

	io_uring_prep_splice(sqe, in, -1, out, -1, len, SPLICE_F_MOVE);
	io_uring_sqe_set_data(sqe, p);
	p->busy = true;
}

/* pending == 0: the pipe is empty, refill it; else drain it. */
static void pump_next(struct pump *p)
{
	if (p->pending)
		pump_splice(p, p->pipe[0], p->out, p->pending);
	else
		pump_splice(p, p->in, p->pipe[1], PUMP_CHUNK);
}

static void conn_free(struct conn *c)
{
	struct pump *pumps[] = { &c->up, &c->down };

	if (c->prev)
		c->prev->next = c->next;
	else if (c->relay->conns == c)
		c->relay->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;

	for (int i = 0; i < 2; i++) {
		close(pumps[i]->pipe[0]);
		close(pumps[i]->pipe[1]);
	}
	close(c->dev);
	close(c->sock);
	c->relay->nconns--;
	if (c->relay->verbose)
		log_info("%s: closed", c->peer);
	free(c);
}

/* Cancel whatever is in flight; the last completion frees the connection. */
void conn_close(struct conn *c)
{
	struct pump *pumps[] = { &c->up, &c->down };

	c->closing = true;
	for (int i = 0; i < 2; i++) {
		if (pumps[i]->busy) {
			struct io_uring_sqe *sqe = relay_sqe(c->relay);

			io_uring_prep_cancel(sqe, pumps[i], 0);
			io_uring_sqe_set_data64(sqe, RELAY_TAG_CANCEL);
		}
	}
	if (!c->up.busy && !c->down.busy)
		conn_free(c);
}

static void pump_eof(struct pump *p)
{
	struct conn *c = p->conn;

	p->eof = true;
	if (p == &c->up) {
		/* The host sent its last byte: let the device finish. */
		if (ioctl(c->dev, ACA_IOC_HANGUP) < 0) {
			conn_close(c);
			return;
		}
	} else {
		/*
		 * The device is done: pass the end on, keep draining the host
		 * for --eof-grace (limits.c), then close.
		 */
		shutdown(c->sock, SHUT_WR);
		c->eof_ms = now_ms();
	}
	if (c->up.eof && c->down.eof)
		conn_close(c);
}

void pump_complete(struct pump *p, int res)
{
	struct conn *c = p->conn;

	p->busy = false;
	if (c->closing) {
		if (!c->up.busy && !c->down.busy)
			conn_free(c);
		return;
	}
	if (res == -EINTR || res == -EAGAIN) {
		pump_next(p);
		return;
	}
	if (res < 0) {
		if (c->relay->verbose)
			log_info("%s: %s", c->peer, strerror(-res));
		conn_close(c);
		return;
	}
	if (!p->pending) {
		if (!res) {
			pump_eof(p);
			return;
		}
		/* The device answered: whatever the role, the hello was whole. */
		if (p == &c->down)
			c->spoke = true;
		p->pending = res;
	} else if (!res) {
		conn_close(c);	/* a pipe that will not drain */
		return;
	} else {
		p->pending -= res;
	}
	pump_next(p);
}

static int pump_init(struct pump *p, struct conn *c, int in, int out)
{
	p->conn = c;
	p->in = in;
	p->out = out;
	return pipe2(p->pipe, O_CLOEXEC);
}

/*
 * A host that vanishes without a FIN (cable, crash) would hold the target's
 * one session forever; keepalive turns that into an error (--keepalive SEC):
 * TCP_KEEPIDLE = max(1, SEC/2), TCP_KEEPINTVL = max(1, SEC/12),
 * TCP_KEEPCNT = 6, so idle + cnt * intvl ~= SEC (at most 6 s under it, from
 * the whole seconds; 7 to 11 s for SEC below 12).
 * One that stops reading (a zero window) would keep ring pages pinned in
 * the socket: TCP_USER_TIMEOUT ends a connection whose sent data stays
 * unacknowledged that long (--user-timeout).
 *
 * The two meet: with TCP_USER_TIMEOUT set, which it always is here, Linux
 * ignores TCP_KEEPCNT (tcp(7); tcp_keepalive_timer() in tcp_timer.c, 6.12).
 * Probes start after idle and go on every intvl; at each one the connection
 * is ended if a probe is out and the host has sent nothing for the user
 * timeout. So a silent host goes after max(idle + intvl, user-timeout),
 * rounded up to the next probe: about SEC when the two options are equal
 * (the defaults), about --user-timeout when that is longer, and from
 * idle + intvl (~7/12 SEC) on when it is shorter; not max(SEC, user-timeout).
 * While data is unacknowledged no probe is sent: the user timeout alone
 * decides. The values are in range (parse_limit()), so setsockopt cannot
 * refuse them on a TCP socket.
 */
static void keepalive(int sock, const struct limits *lim)
{
	unsigned int sec = lim->keepalive_s;
	int on = 1, cnt = 6;
	int idle = sec / 2 > 1 ? (int)(sec / 2) : 1;
	int intvl = sec / 12 > 1 ? (int)(sec / 12) : 1;

	setsockopt(sock, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	setsockopt(sock, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(sock, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(sock, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	setsockopt(sock, IPPROTO_TCP, TCP_USER_TIMEOUT, &lim->user_timeout_ms,
		   sizeof(lim->user_timeout_ms));
}

/* The module gives each connection its role by the host's address. */
static int set_peer(int dev, const struct sockaddr *sa)
{
	struct aca_peer p = { 0 };

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		p.family = AF_INET;
		p.port = ntohs(in->sin_port);
		memcpy(p.addr, &in->sin_addr, 4);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		p.port = ntohs(in6->sin6_port);
		if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
			p.family = AF_INET;
			memcpy(p.addr, &in6->sin6_addr.s6_addr[12], 4);
		} else {
			p.family = AF_INET6;
			memcpy(p.addr, &in6->sin6_addr, 16);
		}
	} else {
		errno = EAFNOSUPPORT;
		return -1;
	}
	return ioctl(dev, ACA_IOC_SET_PEER, &p);
}

void conn_open(struct relay *r, int sock, const struct sockaddr *peer)
{
	struct conn *c = calloc(1, sizeof(*c));
	int one = 1;

	if (!c) {
		log_err("out of memory accepting a connection");
		close(sock);
		return;
	}
	addr_format(peer, c->peer, sizeof(c->peer));
	c->relay = r;
	c->sock = sock;
	c->dev = open(r->device, O_RDWR | O_CLOEXEC);
	if (c->dev < 0) {
		char why[512];

		dev_explain(why, sizeof(why), r->device, errno);
		log_err("%s: %s", c->peer, why);
		close(sock);
		free(c);
		return;
	}
	if (set_peer(c->dev, peer)) {
		log_err("%s: cannot register the peer with %s: %s", c->peer,
			r->device, strerror(errno));
		close(c->dev);
		close(sock);
		free(c);
		return;
	}
	/* Control replies are small and latency-bound. */
	setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	keepalive(sock, &r->lim);
	c->up.pipe[0] = c->up.pipe[1] = c->down.pipe[0] = c->down.pipe[1] = -1;
	if (pump_init(&c->up, c, sock, c->dev) ||
	    pump_init(&c->down, c, c->dev, sock)) {
		log_err("%s: pipe: %s", c->peer, strerror(errno));
		r->nconns++;
		conn_free(c);
		return;
	}
	r->nconns++;
	c->opened_ms = now_ms();
	c->next = r->conns;
	if (c->next)
		c->next->prev = c;
	r->conns = c;
	if (r->verbose)
		log_info("%s: connected", c->peer);
	pump_next(&c->up);
	pump_next(&c->down);
}
