/* SPDX-License-Identifier: GPL-2.0-only */
/* aca-host: a host-side client of the SEP remote protocol. */
#ifndef ACA_HOST_H
#define ACA_HOST_H

#include <stddef.h>

#include "../../driver/core/sep.h"

#ifndef ACA_VERSION		/* the Makefile gives driver/aca.h's */
#define ACA_VERSION		"unknown"
#endif

#define HOST_CONNECT_TIMEOUT_S	10	/* --timeout: connecting, by default */
#define HOST_MAX_TIMEOUT_S	3600	/* --timeout: at most */
#define HOST_RECV_TIMEOUT_S	30	/* each answer of the target */
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
 * Connect within @timeout_s seconds (per address), with every receive
 * then limited to HOST_RECV_TIMEOUT_S. Returns the socket, or -1 with
 * the reason on stderr (host_explain()).
 */
int host_connect(const char *target, int timeout_s);
int host_send(int fd, const void *buf, size_t len);
/*
 * Returns 0 on a full buffer, -1 on an error (errno), a receive timeout
 * (errno EAGAIN) or a short stream (errno 0).
 */
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
