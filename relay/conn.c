// SPDX-License-Identifier: GPL-2.0-only
/*
 * One connection (TCP, or the local socket) and its /dev/aca file, joined
 * by two splice pumps.
 * Bytes go socket -> pipe -> device and device -> pipe -> socket without
 * ever entering this process's memory: the device's stream as ring pages
 * given to the pipe by reference, and from the pipe to the socket.
 *
 * No worker thread: every descriptor is non-blocking and each splice(2) is
 * the relay's own system call, made as soon as io_uring says a descriptor
 * is ready, and repeated until one end says EAGAIN. io_uring's SPLICE
 * would not do: the kernel runs every one of them, blocking, in an io-wq
 * worker (__io_splice_prep() forces it async). A pump's in has a multishot
 * POLLIN armed from the connection's start to its close; its out gets a
 * one-shot POLLOUT only once it said EAGAIN. Each wake-up of either runs
 * the pump (pump_run()), which moves what can move now.
 */
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "relay.h"
#include "../uapi/aca.h"

/* What one splice from in may take: the pipe's whole capacity, at most. */
#define PUMP_CHUNK	(64 * 1024)
/*
 * Splices a pump makes before the others get their turn: a peer that
 * keeps its socket full, into a device that takes everything (a data
 * channel's input is dropped), never makes in say EAGAIN, and would hold
 * the relay's only thread. Spent, the pump queues a NOP and goes on at its
 * completion, after those already queued.
 */
#define PUMP_BUDGET	16
/*
 * Pages by reference; the pipe's side never waits. The other end's own
 * flag counts too (since 6.5 a splice to or from a socket follows the
 * socket's O_NONBLOCK alone): every socket is accepted non-blocking and the
 * device opened so.
 */
#define PUMP_SPLICE	(SPLICE_F_MOVE | SPLICE_F_NONBLOCK)
/*
 * The host's direction carries commands, most of them small: a 2-page
 * pipe, where the default is 16 (the device's direction keeps those: a
 * due read of a 64-page ring is 16 pages). A big one (an uncore
 * configuration, a few hundred KiB) takes more splices, once a session.
 * Fewer pages of fs.pipe-user-pages-soft per connection (aca-relay(8)
 * LIMITS); a kernel that refuses keeps the default.
 */
#define PUMP_UP_PIPE	(2 * 4096)

static void park_remove(struct relay *r, struct conn *c);

static __u64 pump_tag(const struct pump *p, bool out)
{
	return (__u64)(uintptr_t)p | (out ? RELAY_POLL_OUT : 0);
}

/* Any poll still armed: its last completion will name the connection. */
static bool conn_busy(const struct conn *c)
{
	return c->up.polling || c->up.waiting || c->up.resuming ||
	       c->down.polling || c->down.waiting || c->down.resuming;
}

/* For the life of the connection, until its last completion has no F_MORE. */
static void pump_arm_in(struct pump *p)
{
	struct io_uring_sqe *sqe = relay_sqe(p->conn->relay);

	io_uring_prep_poll_multishot(sqe, p->in, POLLIN);
	io_uring_sqe_set_data64(sqe, pump_tag(p, false));
	p->polling = true;
}

/* Once out said EAGAIN with bytes in the pipe: one wake-up, then the pump. */
static void pump_arm_out(struct pump *p)
{
	struct io_uring_sqe *sqe = relay_sqe(p->conn->relay);

	io_uring_prep_poll_add(sqe, p->out, POLLOUT);
	io_uring_sqe_set_data64(sqe, pump_tag(p, true));
	p->waiting = true;
}

/* Its budget spent: go on once the completions queued before are done. */
static void pump_yield(struct pump *p)
{
	struct io_uring_sqe *sqe;

	if (p->resuming)
		return;
	sqe = relay_sqe(p->conn->relay);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, (__u64)(uintptr_t)p | RELAY_PUMP_RESUME);
	p->resuming = true;
}

static void conn_free(struct conn *c)
{
	struct pump *pumps[] = { &c->up, &c->down };

	if (c->parked)
		park_remove(c->relay, c);
	/* One a parked connection waited for may be this one. */
	c->relay->park_check = true;
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

/*
 * Cancel every poll armed; the last completion (a NOP queued too) frees
 * the connection, now if none is. The caller touches @c no more.
 */
void conn_close(struct conn *c)
{
	struct pump *pumps[] = { &c->up, &c->down };

	c->closing = true;
	for (int i = 0; i < 2; i++) {
		for (int out = 0; out < 2; out++) {
			struct io_uring_sqe *sqe;

			if (!(out ? pumps[i]->waiting : pumps[i]->polling))
				continue;
			sqe = relay_sqe(c->relay);
			io_uring_prep_cancel64(sqe, pump_tag(pumps[i], out), 0);
			io_uring_sqe_set_data64(sqe, RELAY_TAG_CANCEL);
		}
	}
	if (!conn_busy(c))
		conn_free(c);
}

/*
 * Once a second: close every connection that said nothing in time or
 * overstays its device's end (limits_overstays()), then the next tick.
 */
void conn_sweep(struct relay *r)
{
	uint64_t now = now_ms();
	struct conn *c, *next;

	for (c = r->conns; c; c = next) {
		next = c->next;
		if (!c->closing && !c->parked && limits_overstays(r, c, now))
			conn_close(c);
	}
	limits_arm_tick(r);
}

/* Cancel @p's POLLIN: in ended, nothing is read from it again. */
static void pump_disarm_in(struct pump *p)
{
	struct io_uring_sqe *sqe;

	if (!p->polling)
		return;
	sqe = relay_sqe(p->conn->relay);
	io_uring_prep_cancel64(sqe, pump_tag(p, false), 0);
	io_uring_sqe_set_data64(sqe, RELAY_TAG_CANCEL);
}

/* in ended (splice gave 0). The caller touches @p's connection no more. */
static void pump_eof(struct pump *p)
{
	struct conn *c = p->conn;

	p->eof = true;
	pump_disarm_in(p);
	if (p == &c->up) {
		/* The host sent its last byte: let the device finish. */
		if (ioctl(c->dev, ACA_IOC_HANGUP) < 0) {
			conn_close(c);
			return;
		}
		/* Its end is the device's now: a parked one may go on. */
		c->relay->park_check = true;
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

/* A splice failed: the connection is done. The caller touches it no more. */
static void pump_failed(struct pump *p, const char *what, int err)
{
	struct conn *c = p->conn;

	if (c->relay->verbose)
		log_info("%s: %s: %s", c->peer, what, strerror(err));
	conn_close(c);
}

/*
 * Move what can move now: empty the pipe into out, refill it from in,
 * again, until out or in says EAGAIN (a poll armed on it says when to go
 * on), in ends or PUMP_BUDGET splices are made (a NOP says when to go on).
 * Returns with the pipe empty unless out is waited for or the budget is
 * spent. It may close the connection: the caller touches it no more.
 */
static void pump_run(struct pump *p)
{
	struct conn *c = p->conn;
	unsigned int budget = PUMP_BUDGET;
	ssize_t n;

	while (!p->waiting) {
		if (!budget--) {
			pump_yield(p);
			return;
		}
		if (p->pending) {
			n = splice(p->pipe[0], NULL, p->out, NULL, p->pending,
				   PUMP_SPLICE);
			if (n > 0) {
				p->pending -= (unsigned int)n;
				continue;
			}
			if (n < 0 && errno == EAGAIN) {
				pump_arm_out(p);
				return;
			}
			if (n < 0 && errno == EINTR)
				continue;
			/* 0: a pipe that will not drain. */
			pump_failed(p, "splice out", n ? errno : EIO);
			return;
		}
		if (p->eof)
			return;
		n = splice(p->in, NULL, p->pipe[1], NULL, PUMP_CHUNK,
			   PUMP_SPLICE);
		if (n > 0) {
			/* The device answered: whatever the role, the hello was whole. */
			if (p == &c->down)
				c->spoke = true;
			p->pending = (unsigned int)n;
			continue;
		}
		if (!n) {
			pump_eof(p);
			return;
		}
		if (errno == EAGAIN)
			return;		/* the POLLIN on in says when */
		if (errno == EINTR)
			continue;
		pump_failed(p, "splice in", errno);
		return;
	}
}

/*
 * A completion of one of @p's polls: @out, the POLLOUT on its out; else the
 * multishot POLLIN on its in, still armed while @flags has F_MORE.
 */
void pump_polled(struct pump *p, bool out, int res, unsigned int flags)
{
	struct conn *c = p->conn;

	if (out)
		p->waiting = false;
	else if (!(flags & IORING_CQE_F_MORE))
		p->polling = false;
	if (c->closing) {
		if (!conn_busy(c))
			conn_free(c);
		return;
	}
	/* The POLLIN of an in that ended: cancelled (pump_disarm_in()). */
	if (!out && p->eof)
		return;
	if (res < 0) {
		pump_failed(p, out ? "poll out" : "poll in", -res);
		return;
	}
	/* A multishot poll may end by itself (a full completion queue). */
	if (!p->polling && !p->eof)
		pump_arm_in(p);
	pump_run(p);
}

/* The NOP queued when @p's budget was spent: its turn again. */
void pump_resumed(struct pump *p)
{
	struct conn *c = p->conn;

	p->resuming = false;
	if (c->closing) {
		if (!conn_busy(c))
			conn_free(c);
		return;
	}
	pump_run(p);
}

/*
 * Non-blocking ends, so that a splice never waits (the socket is accepted
 * non-blocking, the device opened so).
 */
static int pump_init(struct pump *p, struct conn *c, int in, int out)
{
	p->conn = c;
	p->in = in;
	p->out = out;
	return pipe2(p->pipe, O_CLOEXEC | O_NONBLOCK);
}

/* Its polls first, so that no wake-up after a splice's EAGAIN is missed. */
static void conn_run(struct conn *c)
{
	pump_arm_in(&c->up);
	pump_arm_in(&c->down);
	/* The polls are armed: closing cannot free @c before both run. */
	pump_run(&c->up);
	if (!c->closing)
		pump_run(&c->down);
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

/* The host's address, as ACA_IOC_SET_PEER takes it. */
static int peer_addr(struct aca_peer *p, const struct sockaddr *sa)
{
	memset(p, 0, sizeof(*p));
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		p->family = AF_INET;
		p->port = ntohs(in->sin_port);
		memcpy(p->addr, &in->sin_addr, 4);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		p->port = ntohs(in6->sin6_port);
		if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
			p->family = AF_INET;
			memcpy(p->addr, &in6->sin6_addr.s6_addr[12], 4);
		} else {
			p->family = AF_INET6;
			memcpy(p->addr, &in6->sin6_addr, 16);
		}
	} else {
		errno = EAFNOSUPPORT;
		return -1;
	}
	return 0;
}

/*
 * Reconnects. The module gives each connection its role when the relay
 * names its peer (ACA_IOC_SET_PEER), from the session as it stands then: a
 * control channel while there is none, else a data channel of the session
 * if it comes from the same address and still lacks some, else a second
 * host (Documentation/protocol.md 8.3). A host that closes its control
 * connection and at once connects again (aca-host hello, then collect)
 * must find its old session ended; but the relay may accept the new
 * connection before it has read the old one's EOF and said ACA_IOC_HANGUP,
 * and the module would make the new control connection a data channel of
 * the session that is ending.
 *
 * So a new connection gets its role only once no connection from the same
 * address (any port) is still being ended: one the relay is closing, or
 * one whose host has closed it (TCP holds its FIN or a reset: CLOSE_WAIT,
 * LAST_ACK, CLOSING, CLOSE) and that has not been read to its EOF, which
 * the relay answers with ACA_IOC_HANGUP (pump_eof()). The host closed
 * the old connection before it connected again, so TCP holds that FIN by
 * the time the new one is accepted. Until then the new one is parked
 * (accepted, its device open, nothing read or written): the old one's
 * last bytes reach the device (a final TERMINATE), then its hangup, then
 * the parked one gets its role. Connections from one address get their
 * roles in the order they were accepted: one that arrives while another of
 * its address is parked parks behind it. A parked connection waits at most
 * PARK_MAX_MS; then those it waited for are waited for no more (a line
 * logged, at most every 5 s) and it goes on. Nothing blocks the loop: the
 * end of a connection (its hangup, or its file closed) and the bound's
 * timeout (RELAY_TAG_PARK) set park_check, and run() then calls
 * conn_unpark(). Only connections from the parked one's address are
 * looked at, and only while one is parked.
 */
#define PARK_MAX_MS	2000

/* Local connections: one "address" per user (the module's person). */
static bool same_addr(const struct conn *a, const struct conn *b)
{
	if (a->local || b->local)
		return a->local && b->local && a->uid == b->uid;
	return a->addr.family == b->addr.family &&
	       !memcmp(a->addr.addr, b->addr.addr,
		       a->addr.family == AF_INET ? 4 : 16);
}

/*
 * Has the host closed its side? For TCP, one of the five states a socket is
 * in once the host's FIN has arrived (CLOSE_WAIT, LAST_ACK, CLOSING,
 * TIME_WAIT) or once it is gone altogether (CLOSE: a reset); a local
 * peer's socket is shut down for reading (POLLRDHUP).
 */
static bool host_closed(const struct conn *c)
{
	struct pollfd p = { .fd = c->sock, .events = POLLRDHUP };
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	int sock = c->sock;

	if (c->local)
		return poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP));
	if (getsockopt(sock, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return false;
	switch (ti.tcpi_state) {
	case TCP_CLOSE_WAIT:
	case TCP_LAST_ACK:
	case TCP_CLOSING:
	case TCP_TIME_WAIT:
	case TCP_CLOSE:
		return true;
	default:
		return false;
	}
}

/* Is @c, from @p's address, being ended, so that @p must wait for it? */
static bool ending(const struct conn *c, const struct conn *p)
{
	if (c == p || c->parked || c->overdue || !same_addr(c, p))
		return false;
	return c->closing || (!c->up.eof && host_closed(c));
}

/* Must @p wait? @give_up: no longer wait for those it waits for. */
static bool must_wait(struct relay *r, struct conn *p, bool give_up)
{
	bool wait = false;

	for (struct conn *c = r->conns; c; c = c->next) {
		if (!ending(c, p))
			continue;
		wait = true;
		if (!give_up)
			break;
		c->overdue = true;
	}
	return wait;
}

/* An older connection of @p's address is parked (@p is, or is to be). */
static bool parked_before(const struct relay *r, const struct conn *p)
{
	for (const struct conn *q = r->parked; q && q != p; q = q->park_next)
		if (same_addr(q, p))
			return true;
	return false;
}

/* The bound's timeout, for the oldest parked connection, if none is due. */
static void park_arm(struct relay *r)
{
	struct io_uring_sqe *sqe;
	uint64_t now = now_ms(), ms = 1;

	if (r->park_armed || !r->parked)
		return;
	if (r->parked->parked_ms + PARK_MAX_MS > now)
		ms = r->parked->parked_ms + PARK_MAX_MS - now;
	r->park_ts.tv_sec = (long long)(ms / 1000);
	r->park_ts.tv_nsec = (long long)(ms % 1000) * 1000000;
	sqe = relay_sqe(r);
	io_uring_prep_timeout(sqe, &r->park_ts, 0, 0);
	io_uring_sqe_set_data64(sqe, RELAY_TAG_PARK);
	r->park_armed = true;
}

static void park(struct relay *r, struct conn *c)
{
	c->parked = true;
	c->parked_ms = now_ms();
	c->park_next = NULL;
	if (!r->parked)
		r->parked_tail = &r->parked;
	*r->parked_tail = c;
	r->parked_tail = &c->park_next;
	if (r->verbose)
		log_info("%s: waits until the connections its host closed have ended",
			 c->peer);
	park_arm(r);
}

static void park_remove(struct relay *r, struct conn *c)
{
	struct conn **pp = &r->parked;

	while (*pp && *pp != c)
		pp = &(*pp)->park_next;
	if (!*pp)
		return;
	*pp = c->park_next;
	if (r->parked_tail == &c->park_next)
		r->parked_tail = pp;
	c->parked = false;
}

/* Its role, then its bytes: the connection starts. */
static void conn_start(struct conn *c)
{
	if (ioctl(c->dev, ACA_IOC_SET_PEER, &c->addr)) {
		log_err("%s: cannot register the peer with %s: %s", c->peer,
			c->relay->device, strerror(errno));
		conn_close(c);
		return;
	}
	c->opened_ms = now_ms();
	conn_run(c);
}

/* Start the parked connections that need wait no more, oldest first. */
void conn_unpark(struct relay *r)
{
	static struct ratelimit rl;
	struct conn **pp = &r->parked, *p;
	unsigned long missed;
	uint64_t now = now_ms();
	bool late;

	r->park_check = false;
	while ((p = *pp)) {
		late = now - p->parked_ms >= PARK_MAX_MS;
		if (parked_before(r, p) ||
		    (!late && must_wait(r, p, false))) {
			pp = &p->park_next;
			continue;
		}
		if (late && must_wait(r, p, true) &&
		    (r->verbose || ratelimit_ok(&rl, &missed)))
			log_info("%s: a connection its host had closed did not end within %u ms; role given anyway; %lu more since the last line",
				 p->peer, PARK_MAX_MS, r->verbose ? 0 : missed);
		park_remove(r, p);	/* *pp is the next one now */
		conn_start(p);
	}
	park_arm(r);
}

/* The bound's timeout: whoever waited too long goes on. */
void conn_park_timeout(struct relay *r)
{
	r->park_armed = false;
	r->park_check = true;
}

/*
 * Who is behind the connection, told to the module before any byte of it
 * reaches the device (ACA_IOC_SET_CLIENT): it lowers the file's privilege
 * (the relay's, as the opener) to the person's. If the module cannot be
 * told, the connection is closed: never served with the relay's privilege.
 */
static int set_client(struct conn *c, bool admitted)
{
	struct aca_client cl = {
		.sock_fd = c->sock,
		.flags = admitted ? ACA_CLIENT_ADMITTED : 0,
	};

	if (!ioctl(c->dev, ACA_IOC_SET_CLIENT, &cl))
		return 0;
	log_err("%s: closed: cannot tell %s who connected (ACA_IOC_SET_CLIENT): %s%s",
		c->peer, c->relay->device, strerror(errno),
		errno == ENOTTY ? " (the aca module is older than this relay: load the matching one)" : "");
	return -1;
}

void conn_open(struct relay *r, int sock, const struct sockaddr *peer,
	       const char *name, const struct peer_key *key, bool admitted)
{
	struct conn *c = calloc(1, sizeof(*c));
	int one = 1;

	if (!c) {
		log_err("out of memory accepting a connection");
		close(sock);
		return;
	}
	c->relay = r;
	c->sock = sock;
	c->key = *key;
	if (peer) {
		addr_format(peer, c->peer, sizeof(c->peer));
		if (peer_addr(&c->addr, peer)) {
			log_err("%s: cannot register the peer with %s: %s",
				c->peer, r->device, strerror(errno));
			close(sock);
			free(c);
			return;
		}
	} else {
		/* A local peer: ACA_IOC_SET_PEER's AF_UNIX, no address. */
		snprintf(c->peer, sizeof(c->peer), "%s", name);
		c->local = true;
		c->uid = key->uid;
		c->addr.family = AF_UNIX;
	}
	c->dev = open(r->device, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (c->dev < 0) {
		char why[512];

		dev_explain(why, sizeof(why), r->device, errno);
		log_err("%s: %s", c->peer, why);
		close(sock);
		free(c);
		return;
	}
	if (set_client(c, admitted)) {
		close(c->dev);
		close(sock);
		free(c);
		return;
	}
	if (!c->local) {
		/* Control replies are small and latency-bound. */
		setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		keepalive(sock, &r->lim);
	}
	c->up.pipe[0] = c->up.pipe[1] = c->down.pipe[0] = c->down.pipe[1] = -1;
	if (pump_init(&c->up, c, sock, c->dev) ||
	    pump_init(&c->down, c, c->dev, sock)) {
		log_err("%s: pipe: %s", c->peer, strerror(errno));
		r->nconns++;
		conn_free(c);
		return;
	}
	fcntl(c->up.pipe[1], F_SETPIPE_SZ, PUMP_UP_PIPE);
	r->nconns++;
	c->next = r->conns;
	if (c->next)
		c->next->prev = c;
	r->conns = c;
	if (r->verbose)
		log_info("%s: connected%s", c->peer,
			 c->local ? " (the local socket: its user's own privilege)" :
			 admitted ? " (admitted by --allow)" :
			 " (not admitted by --allow: unprivileged)");
	/* Reconnects (above): after the ends its host has already made. */
	if (must_wait(r, c, false) || parked_before(r, c))
		park(r, c);
	else
		conn_start(c);
}
