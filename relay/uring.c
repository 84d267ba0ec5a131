// SPDX-License-Identifier: GPL-2.0-only
/* Submission helpers around the relay's single io_uring. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "relay.h"

/*
 * A free submission slot. The queue full, what is there is pushed to the
 * kernel; should that fail (no memory for the moment: the completion queue
 * has room for every operation, see relay_cq_entries()), it is tried again
 * until it works, a line logged each second: a transient error stalls the
 * relay, never ends it.
 */
struct io_uring_sqe *relay_sqe(struct relay *r)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
	unsigned int tries = 0;
	int err;

	while (!sqe) {
		err = io_uring_submit(&r->ring);
		sqe = io_uring_get_sqe(&r->ring);
		if (sqe)
			break;
		if (!(tries++ % 100))
			log_err("io_uring submission: %s; retrying",
				strerror(err < 0 ? -err : EBUSY));
		usleep(10000);
	}
	return sqe;
}

/*
 * Each listener has one accept in flight, tagged with its index; the
 * connection's socket is non-blocking, as every descriptor of the relay.
 */
void relay_submit_accept(struct relay *r, unsigned int i)
{
	struct io_uring_sqe *sqe = relay_sqe(r);
	struct listener *l = &r->listen[i];

	l->peer_len = sizeof(l->peer);
	io_uring_prep_accept(sqe, l->fd, (struct sockaddr *)&l->peer,
			     &l->peer_len, SOCK_CLOEXEC | SOCK_NONBLOCK);
	io_uring_sqe_set_data64(sqe, RELAY_TAG_ACCEPT + i);
}
