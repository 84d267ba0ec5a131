/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca-relay: moves bytes between TCP connections and /dev/aca, one device
 * file per connection, with splice(2) issued inline on non-blocking
 * descriptors and io_uring saying when they are ready: one thread, no
 * io-wq worker. It knows nothing of the protocol's contents: it never reads
 * the bytes it moves. What it knows of a session is the module's rule that
 * a host's connections get their roles in order (ACA_IOC_SET_PEER), so a
 * new connection waits until those its host already closed have ended
 * (conn.c: parked connections).
 */
#ifndef ACA_RELAY_H
#define ACA_RELAY_H

#include <liburing.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>

#include "../uapi/aca.h"

struct relay;

/*
 * Whom a connection counts against for --max-peer-conns (limits.c): a local
 * peer's user (SO_PEERCRED), or a TCP peer's address: an IPv4 address, an
 * IPv6 /64 (one host's addresses: SLAAC, temporary addresses), and all of
 * loopback as one, since any local user may connect from any address of
 * 127.0.0.0/8 or from ::1. Zeroed, then filled: compared whole (memcmp).
 */
struct peer_key {
	int family;		/* AF_UNIX, AF_INET or AF_INET6 */
	uid_t uid;		/* AF_UNIX */
	unsigned char addr[16];	/* AF_INET: 4 bytes; AF_INET6: the /64 */
};

/*
 * One direction of a connection: in -> pipe -> out, by splice(2) from the
 * relay's own thread, never blocking (conn.c). in is read only while the
 * pipe is empty, so the pipe holds at most one splice's bytes.
 */
struct pump {
	struct conn *conn;
	int in, out;
	int pipe[2];
	unsigned int pending;	/* bytes sitting in the pipe */
	bool polling;		/* the multishot POLLIN on in is armed */
	bool waiting;		/* out said EAGAIN: a POLLOUT on it is armed */
	bool eof;		/* in ended: it is read no more */
	bool resuming;		/* its budget spent: a NOP says when to go on */
};

struct conn {
	struct relay *relay;
	struct conn *prev, *next;	/* relay->conns */
	int sock, dev;
	struct pump up;		/* socket -> device */
	struct pump down;	/* device -> socket */
	bool closing;
	bool spoke;		/* the device has answered (a hello was whole) */
	bool parked;		/* accepted, waiting for its role (conn.c) */
	bool overdue;		/* a parked one gave up waiting for its end */
	struct conn *park_next;	/* relay->parked, oldest first */
	uint64_t parked_ms;	/* when parked (now_ms()) */
	uint64_t opened_ms;	/* when started: its role given (now_ms()) */
	uint64_t eof_ms;	/* when the device ended, 0: not yet */
	struct aca_peer addr;	/* for ACA_IOC_SET_PEER */
	bool local;		/* from the local socket (--unix) */
	uid_t uid;		/* local: the peer's (SO_PEERCRED) */
	struct peer_key key;	/* whom it counts against (--max-peer-conns) */
	char peer[64];
};

/*
 * A listening socket and its one pending accept. By default the local
 * socket (--unix) and 127.0.0.1 and ::1; with --bind or --allow one TCP
 * socket.
 */
#define RELAY_MAX_LISTEN	3

struct listener {
	int fd;
	bool local;			/* the AF_UNIX one (local.c) */
	struct sockaddr_storage peer;	/* filled by the pending accept */
	socklen_t peer_len;
	unsigned int backoff_ms;	/* after EMFILE and friends, 0: none */
	struct __kernel_timespec retry;	/* the pending retry's timeout */
};

/*
 * The limits of limits.c, each an option (aca-relay(8) gives the
 * defaults): what one stranger may hold, and for how long.
 */
struct limits {
	unsigned int max_conns;		/* 0 until set: from the CPU count */
	unsigned int max_peer_conns;	/* of one peer_key: from the CPU count */
	unsigned int hello_timeout_ms;	/* until the device first answers */
	unsigned int user_timeout_ms;	/* TCP_USER_TIMEOUT */
	unsigned int keepalive_s;	/* probes after SEC/2, every SEC/12 */
	unsigned int eof_grace_ms;	/* after the device's EOF */
};

struct relay {
	struct io_uring ring;
	struct listener listen[RELAY_MAX_LISTEN];
	unsigned int nlisten;
	const char *device;
	int verbose;
	unsigned int nconns;
	struct conn *conns;		/* every open connection */
	struct allow *allow;		/* NULL: everyone may connect */
	struct limits lim;
	struct __kernel_timespec tick;	/* the sweep's timeout */
	/* Connections waiting for their role, oldest first (conn.c). */
	struct conn *parked, **parked_tail;
	bool park_check;		/* something they wait for ended */
	bool park_armed;		/* the bound's timeout is in flight */
	struct __kernel_timespec park_ts;
};

/* log.c */
void log_msg(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define log_err(...)	log_msg(3, __VA_ARGS__)
#define log_info(...)	log_msg(6, __VA_ARGS__)

/*
 * allow.c: --allow CIDR lists. allow_match(): may the peer connect (an
 * empty list: anyone); a loopback peer only by an entry inside loopback
 * (127.0.0.0/8, ::1), never by a wider one (0.0.0.0/0, ::/0).
 */
struct allow;
int allow_add(struct allow **list, const char *cidr);
bool allow_match(const struct allow *list, const struct sockaddr *sa);
bool addr_is_loopback(const struct sockaddr *sa);
void allow_free(struct allow *list);
void allow_format(const struct allow *list, char *buf, size_t len);
void addr_format(const struct sockaddr *sa, char *buf, size_t len);
/* A TCP peer's key, a local user's, and the key for log lines. */
void peer_key_addr(struct peer_key *k, const struct sockaddr *sa);
void peer_key_uid(struct peer_key *k, uid_t uid);
void peer_key_format(const struct peer_key *k, char *buf, size_t len);

/*
 * uring.c: SQE helpers. The user_data of a pump's POLLIN is the pump
 * pointer, of its POLLOUT the pointer + RELAY_POLL_OUT, of the NOP that
 * resumes it once its budget is spent the pointer + RELAY_PUMP_RESUME
 * (pointers are aligned, the two low bits are free); small integers tag
 * the other operations: a cancel, the sweep's tick, the bound on parked
 * connections' wait, the accept of listener i (RELAY_TAG_ACCEPT + i) and
 * its retry after a back-off (RELAY_TAG_RETRY + i).
 */
#define RELAY_POLL_OUT		1
#define RELAY_PUMP_RESUME	2
#define RELAY_TAG_CANCEL	1
#define RELAY_TAG_TICK		2
#define RELAY_TAG_PARK		3
#define RELAY_TAG_ACCEPT	4
#define RELAY_TAG_RETRY		(RELAY_TAG_ACCEPT + RELAY_MAX_LISTEN)

struct io_uring_sqe *relay_sqe(struct relay *r);
void relay_submit_accept(struct relay *r, unsigned int i);

/* Monotonic milliseconds: when connections opened, ended, overstayed. */
static inline uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* limits.c */
struct ratelimit {		/* at most one line per 5 s for a kind of event */
	uint64_t last_ms;
	unsigned long missed;
};
bool ratelimit_ok(struct ratelimit *rl, unsigned long *missed);
void limits_default(struct relay *r);
int limits_apply(struct relay *r);
bool limits_overstays(const struct relay *r, const struct conn *c, uint64_t now);
void limits_arm_tick(struct relay *r);
bool limits_admit(struct relay *r, const struct peer_key *key,
		  const char *peer);
void limits_accept_failed(struct relay *r, unsigned int i, int err);
void limits_accepted(struct relay *r, unsigned int i);
/* Entries of the completion queue: every operation in flight fits. */
unsigned int relay_cq_entries(const struct relay *r);

/* device.c: the device check at start, and open errors explained */
int dev_check(const char *path);
void dev_explain(char *buf, size_t len, const char *path, int err);

/* local.c: the AF_UNIX listener */
int local_listen(const char *path, gid_t gid, bool dflt);
void local_peer(int sock, char *buf, size_t len, uid_t *uid);

/* conn.c */
/*
 * @peer: a TCP peer's address, NULL for a local one (@name; @key has its
 * uid); @key: whom it counts against; @admitted: the operator admitted it
 * (--allow).
 */
void conn_open(struct relay *r, int sock, const struct sockaddr *peer,
	       const char *name, const struct peer_key *key, bool admitted);
void conn_close(struct conn *c);
void conn_unpark(struct relay *r);
void conn_park_timeout(struct relay *r);
/* The sweep's tick: close what limits_overstays() names. */
void conn_sweep(struct relay *r);
void pump_polled(struct pump *p, bool out, int res, unsigned int flags);
void pump_resumed(struct pump *p);

#endif /* ACA_RELAY_H */
