// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a stranger may cost the relay, and for how long: descriptors (six
 * per connection: socket, device file, two pipes), connections, of them
 * those of one peer (an address, or a local user), an idle
 * connection's life before it says hello, a half-closed one's after the
 * device ended. A sweep every second (conn.c's conn_sweep()) closes what
 * limits_overstays() says overstays; accept backs off while the system has
 * no descriptor or memory to give. Calls run one way: conn.c and main.c
 * ask limits.c, which calls neither (tools/call-cycles).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "relay.h"

#define FDS_PER_CONN	6
#define FDS_SPARE	16	/* stdio, listeners, the ring, syslog */
#define BACKOFF_MIN_MS	50
#define BACKOFF_MAX_MS	1000
#define LOG_EVERY_MS	5000

/* At most one line per LOG_EVERY_MS for each kind of event. */
bool ratelimit_ok(struct ratelimit *rl, unsigned long *missed)
{
	uint64_t now = now_ms();

	if (rl->last_ms && now - rl->last_ms < LOG_EVERY_MS) {
		rl->missed++;
		return false;
	}
	rl->last_ms = now;
	*missed = rl->missed;
	rl->missed = 0;
	return true;
}

/* A session needs one connection per CPU, then uncore, module, control. */
static unsigned int session_conns(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return (n > 0 ? (unsigned int)n : 1) + 3;
}

/* Before the options: each may then be overridden. */
void limits_default(struct relay *r)
{
	/* A session, a second one being turned away, and a few strays. */
	r->lim.max_conns = 2 * session_conns() + 8;
	/*
	 * One peer: a session and those strays, so that one reconnecting
	 * again and again leaves another a session of the default above.
	 */
	r->lim.max_peer_conns = session_conns() + 8;
	r->lim.hello_timeout_ms = 10000;
	r->lim.user_timeout_ms = 120000;
	r->lim.keepalive_s = 120;
	r->lim.eof_grace_ms = 10000;
}

/*
 * The descriptor budget: the soft RLIMIT_NOFILE raised to the hard one,
 * then one session must fit, and --max-conns is lowered to what fits.
 */
int limits_apply(struct relay *r)
{
	unsigned int need = session_conns(), fit;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl)) {
		log_err("getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
		return -1;
	}
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			log_err("cannot raise RLIMIT_NOFILE to %llu: %s",
				(unsigned long long)rl.rlim_max, strerror(errno));
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	fit = rl.rlim_cur > FDS_SPARE ?
	      (rl.rlim_cur - FDS_SPARE) / FDS_PER_CONN : 0;
	if (fit < need) {
		log_err("RLIMIT_NOFILE is %llu: a session of this machine's %u connections needs %u descriptors (%u each); raise it (LimitNOFILE= in the unit, ulimit -n)",
			(unsigned long long)rl.rlim_cur, need,
			need * FDS_PER_CONN + FDS_SPARE, FDS_PER_CONN);
		return -1;
	}
	if (r->lim.max_conns > fit) {
		log_info("--max-conns %u lowered to %u: RLIMIT_NOFILE is %llu",
			 r->lim.max_conns, fit, (unsigned long long)rl.rlim_cur);
		r->lim.max_conns = fit;
	}
	return 0;
}

/* Every operation in flight has room for its completion. */
unsigned int relay_cq_entries(const struct relay *r)
{
	/*
	 * Per connection two polls in, two out and their four cancels (a
	 * multishot poll that finds the queue full ends, and conn.c arms it
	 * again) and a NOP a pump; per listener two; the tick and the
	 * parking bound.
	 */
	unsigned int want = 10 * r->lim.max_conns + 2 * RELAY_MAX_LISTEN + 8;
	unsigned int n = 512;

	while (n < want)
		n *= 2;
	return n;
}

void limits_arm_tick(struct relay *r)
{
	struct io_uring_sqe *sqe = relay_sqe(r);

	r->tick.tv_sec = 1;
	r->tick.tv_nsec = 0;
	io_uring_prep_timeout(sqe, &r->tick, 0, 0);
	io_uring_sqe_set_data64(sqe, RELAY_TAG_TICK);
}

/*
 * The sweep's question, once a second for each connection neither closing
 * nor parked (conn_sweep()): did it say nothing in time, or overstay its
 * device's end? True, with a line logged, if it is to be closed; closing
 * it is conn.c's, which limits.c never calls.
 */
bool limits_overstays(const struct relay *r, const struct conn *c, uint64_t now)
{
	static struct ratelimit rl;
	unsigned long missed;

	if (!c->spoke && now - c->opened_ms >= r->lim.hello_timeout_ms) {
		if (r->verbose || ratelimit_ok(&rl, &missed))
			log_info("%s: no hello within %u ms (--hello-timeout): closed",
				 c->peer, r->lim.hello_timeout_ms);
		return true;
	}
	if (c->eof_ms && now - c->eof_ms >= r->lim.eof_grace_ms) {
		if (r->verbose)
			log_info("%s: still open %u ms after the device ended (--eof-grace): closed",
				 c->peer, r->lim.eof_grace_ms);
		return true;
	}
	return false;
}

/* The connections open (closing and parked ones too) counted against @key. */
static unsigned int peer_conns(const struct relay *r, const struct peer_key *key)
{
	unsigned int n = 0;

	for (const struct conn *c = r->conns; c; c = c->next)
		n += !memcmp(&c->key, key, sizeof(*key));
	return n;
}

/*
 * Room for one more connection, from @key's peer? Else it is closed at
 * once (by the caller, before the device is opened), with a line at most
 * every 5 s for each of the two limits.
 */
bool limits_admit(struct relay *r, const struct peer_key *key,
		  const char *peer)
{
	static struct ratelimit rl, rl_peer;
	unsigned long missed;
	unsigned int n;
	char who[64];

	if (r->nconns >= r->lim.max_conns) {
		if (ratelimit_ok(&rl, &missed))
			log_err("%s: refused: %u connections open (--max-conns %u); %lu more refused since the last line",
				peer, r->nconns, r->lim.max_conns, missed);
		return false;
	}
	n = peer_conns(r, key);
	if (n < r->lim.max_peer_conns)
		return true;
	if (ratelimit_ok(&rl_peer, &missed)) {
		peer_key_format(key, who, sizeof(who));
		log_err("%s: refused: %u connections open from %s (--max-peer-conns %u: raise it if one host needs more); %lu more refused since the last line",
			peer, n, who, r->lim.max_peer_conns, missed);
	}
	return false;
}

/*
 * accept failed: a connection reset or a signal before it was accepted is
 * retried at once; anything else (out of descriptors or memory: EMFILE,
 * ENFILE, ENOBUFS, ENOMEM; or an error that may persist) after a back-off
 * doubling up to a second, so the relay never spins, with one line at
 * most every 5 s.
 */
void limits_accept_failed(struct relay *r, unsigned int i, int err)
{
	static struct ratelimit rl;
	struct listener *l = &r->listen[i];
	struct io_uring_sqe *sqe;
	unsigned long missed;

	if (err == ECONNABORTED || err == EINTR || err == EAGAIN ||
	    err == EPROTO) {
		if (r->verbose)
			log_info("accept: %s", strerror(err));
		relay_submit_accept(r, i);
		return;
	}
	l->backoff_ms = l->backoff_ms ? 2 * l->backoff_ms : BACKOFF_MIN_MS;
	if (l->backoff_ms > BACKOFF_MAX_MS)
		l->backoff_ms = BACKOFF_MAX_MS;
	if (ratelimit_ok(&rl, &missed))
		log_err("accept: %s (%u connections open): retrying in %u ms; %lu more since the last line",
			strerror(err), r->nconns, l->backoff_ms, missed);
	l->retry.tv_sec = l->backoff_ms / 1000;
	l->retry.tv_nsec = (long long)(l->backoff_ms % 1000) * 1000000;
	sqe = relay_sqe(r);
	io_uring_prep_timeout(sqe, &l->retry, 0, 0);
	io_uring_sqe_set_data64(sqe, RELAY_TAG_RETRY + i);
}

void limits_accepted(struct relay *r, unsigned int i)
{
	r->listen[i].backoff_ms = 0;
}
