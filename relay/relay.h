/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca-relay: moves bytes between TCP connections and /dev/aca, one device
 * file per connection, with io_uring splice. It knows nothing of the protocol.
 */
#ifndef ACA_RELAY_H
#define ACA_RELAY_H

#include <liburing.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct relay;

/* One direction of a connection: in -> pipe -> out. */
struct pump {
	struct conn *conn;
	int in, out;
	int pipe[2];
	unsigned int pending;	/* bytes sitting in the pipe */
	bool busy;		/* a splice is in flight */
	bool eof;
};

struct conn {
	struct relay *relay;
	int sock, dev;
	struct pump up;		/* socket -> device */
	struct pump down;	/* device -> socket */
	bool closing;
	char peer[64];
};

/*
 * A listening socket and its one pending accept. Two by default (127.0.0.1
 * and ::1), one with --bind or --allow.
 */
#define RELAY_MAX_LISTEN	2

struct listener {
	int fd;
	struct sockaddr_storage peer;	/* filled by the pending accept */
	socklen_t peer_len;
};

struct relay {
	struct io_uring ring;
	struct listener listen[RELAY_MAX_LISTEN];
	unsigned int nlisten;
	const char *device;
	int verbose;
	unsigned int nconns;
	struct allow *allow;		/* NULL: everyone may connect */
};

/* log.c */
void log_msg(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define log_err(...)	log_msg(3, __VA_ARGS__)
#define log_info(...)	log_msg(6, __VA_ARGS__)

/* allow.c: --allow CIDR lists */
struct allow;
int allow_add(struct allow **list, const char *cidr);
bool allow_match(const struct allow *list, const struct sockaddr *sa);
void allow_free(struct allow *list);
void allow_format(const struct allow *list, char *buf, size_t len);
void addr_format(const struct sockaddr *sa, char *buf, size_t len);

/*
 * uring.c: SQE helpers. The user_data of a pump's splice is the pump pointer;
 * pointers are aligned, so small integers tag the other operations: a
 * cancel, and the accept of listener i (RELAY_TAG_ACCEPT + i).
 */
#define RELAY_TAG_CANCEL	1
#define RELAY_TAG_ACCEPT	2

struct io_uring_sqe *relay_sqe(struct relay *r);
void relay_submit_accept(struct relay *r, unsigned int i);

/* device.c: the device check at start, and open errors explained */
int dev_check(const char *path);
void dev_explain(char *buf, size_t len, const char *path, int err);

/* conn.c */
void conn_open(struct relay *r, int sock, const struct sockaddr *peer);
void pump_complete(struct pump *p, int res);

#endif /* ACA_RELAY_H */
