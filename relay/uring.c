// SPDX-License-Identifier: GPL-2.0-only
/* Submission helpers around the relay's single io_uring. */
#include <stdio.h>
#include <stdlib.h>

#include "relay.h"

struct io_uring_sqe *relay_sqe(struct relay *r)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);

	if (!sqe) {
		/* Queue full: push what is there and take a fresh slot. */
		io_uring_submit(&r->ring);
		sqe = io_uring_get_sqe(&r->ring);
	}
	if (!sqe) {
		log_err("io_uring submission queue stuck");
		exit(1);
	}
	return sqe;
}

/* Each listener has one accept in flight, tagged with its index. */
void relay_submit_accept(struct relay *r, unsigned int i)
{
	struct io_uring_sqe *sqe = relay_sqe(r);
	struct listener *l = &r->listen[i];

	l->peer_len = sizeof(l->peer);
	io_uring_prep_accept(sqe, l->fd, (struct sockaddr *)&l->peer,
			     &l->peer_len, SOCK_CLOEXEC);
	io_uring_sqe_set_data64(sqe, RELAY_TAG_ACCEPT + i);
}
