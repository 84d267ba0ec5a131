/* SPDX-License-Identifier: GPL-2.0-only */
/* aca-host: a host-side client of the SEP remote protocol. */
#ifndef ACA_HOST_H
#define ACA_HOST_H

#include <stddef.h>

#include "../../driver/core/sep.h"

#ifndef ACA_VERSION		/* the Makefile gives driver/aca.h's */
#define ACA_VERSION		"unknown"
#endif

/*
 * --timeout S bounds every wait on the target: each connection, and each
 * answer whole (the status message, a data channel's first message, a
 * command's answer, header and payload, with any older one read before
 * it). Without it: HOST_CONNECT_TIMEOUT_S connecting, HOST_RECV_TIMEOUT_S
 * an answer. A target that trickles a byte now and then, each well within
 * the time, ends there too; so does one that takes no request.
 */
#define HOST_CONNECT_TIMEOUT_S	10	/* connecting, without --timeout */
#define HOST_MAX_TIMEOUT_S	3600	/* --timeout: at most */
#define HOST_RECV_TIMEOUT_S	30	/* each answer, whole, without --timeout */
/*
 * The protocol's own limits (driver/core/session.h's ACP_MAX_PAYLOAD and
 * ACP_MAX_REPLY, spec 4.1): a request's payload, an answer's. An answer
 * that says it carries more is no answer of a SEP target: never read, nor
 * allocated for.
 */
#define HOST_MAX_REQUEST	(1u << 20)
#define HOST_MAX_REPLY		(16u << 20)
/*
 * Draining what a target still sends before it closes a connection
 * (host_drain(); after TERMINATE every channel of a session), overall: a
 * target that trickles a byte now and then, each within the receive
 * timeout, ends there too.
 */
#define HOST_DRAIN_TIMEOUT_S	60

/* Why a target could not be talked to: host_explain() says each its way. */
enum host_fail {
	HOST_REFUSED,		/* connect: nothing listens there */
	HOST_CONNECT_TIMEOUT,	/* connect: no answer; detail: seconds */
	HOST_CONNECT_ERROR,	/* connect: any other error; detail: errno */
	HOST_CLOSED,		/* closed before the status message */
	HOST_STATUS_TIMEOUT,	/* no status message in time; detail: seconds */
	HOST_RECV_ERROR,	/* receiving it failed; detail: errno */
	HOST_NOT_SEP,		/* not a status message; detail: bytes got */
	HOST_BUSY,		/* status 219: another host's session */
	HOST_STATUS,		/* any other non-zero status; detail: it */
};

/* net.c */
/*
 * Check TARGET[:PORT] before using it; on a bad one, say why on stderr
 * (after @prefix, e.g. "aca-host hello") and return -1.
 */
int host_check_target(const char *prefix, const char *target);
/*
 * --timeout's seconds (@timeout_s; 0: not given) for connecting, and for
 * each answer.
 */
static inline int host_connect_s(int timeout_s)
{
	return timeout_s ? timeout_s : HOST_CONNECT_TIMEOUT_S;
}

static inline int host_answer_s(int timeout_s)
{
	return timeout_s ? timeout_s : HOST_RECV_TIMEOUT_S;
}

/*
 * Connect within @connect_s seconds (per address); the socket's receive
 * and send timeouts (SO_RCVTIMEO, SO_SNDTIMEO) then @answer_s, which
 * host_recv() and host_send() take as their deadlines. Returns the
 * socket, or -1 with the reason on stderr (host_explain()).
 */
int host_connect_timeout(const char *target, int connect_s, int answer_s);
/* The same with answers within HOST_RECV_TIMEOUT_S. */
int host_connect(const char *target, int timeout_s);
/*
 * @fd's receive (@opt SO_RCVTIMEO) or send (SO_SNDTIMEO) timeout in
 * seconds, 0: none; and the deadline it gives a wait that starts now
 * (host_now_s(), clock.h), 0: none.
 */
double host_sock_timeout(int fd, int opt);
double host_deadline(int fd, int opt);
/*
 * Send or receive @len bytes whole by @deadline (host_now_s(); 0: none,
 * each call then as long as the socket's timeout lets it). Returns 0, or
 * -1 with errno: EAGAIN the deadline (or the socket's timeout) passed,
 * 0 a short stream (receiving), else the error. *@got, if not NULL, says
 * how many bytes came.
 */
int host_send_until(int fd, const void *buf, size_t len, double deadline);
int host_recv_until(int fd, void *buf, size_t len, double deadline, size_t *got);
/*
 * The same, all of it within the socket's own timeout from now
 * (host_deadline()): overall, not per call.
 */
int host_send(int fd, const void *buf, size_t len);
int host_recv(int fd, void *buf, size_t len);
/*
 * Send the host hello on @fd and read the status message it answers
 * (spec 2). Returns 0 with any status in @st; -1 if no status message
 * came, said on stderr (host_explain()).
 */
int host_hello(int fd, const char *target, struct sep_target_status_msg *st);
/* The one message of each failure of enum host_fail, on stderr. */
void host_explain(const char *target, enum host_fail why, long detail);
/* A status message with a non-zero @status: busy, or refused. */
void host_explain_status(const char *target, int status);
/* A status of the target (VT_*) by name. */
const char *host_status_name(int status);
/*
 * Say on stderr why host_recv() of @what on @fd failed, from the errno
 * it left: "timed out waiting for WHAT (N s)", closed, or the error.
 */
void host_recv_failed(int fd, int err, const char *what);
void close_quietly(int fd);

#endif /* ACA_HOST_H */
