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

void relay_submit_accept(struct relay *r)
{
	struct io_uring_sqe *sqe = relay_sqe(r);

	r->peer_len = sizeof(r->peer);
	io_uring_prep_accept(sqe, r->listen_fd, (struct sockaddr *)&r->peer,
			     &r->peer_len, SOCK_CLOEXEC);
	io_uring_sqe_set_data64(sqe, RELAY_TAG_ACCEPT);
}
