// SPDX-License-Identifier: GPL-2.0-only
/* The host side of a SEP remote session (spec 2-4). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "clock.h"
#include "host.h"
#include "session.h"

/* Data channel @i: connected, and its first message read (spec 3.1). */
static int open_data_channel(struct host_session *s, const char *target,
			     uint32_t i, int timeout_s)
{
	char what[64];

	s->data[i] = host_connect_timeout(target, host_connect_s(timeout_s),
					  host_answer_s(timeout_s));
	if (s->data[i] < 0)
		return -1;
	if (host_recv(s->data[i], &s->first[i], sizeof(s->first[i]))) {
		int err = errno;

		snprintf(what, sizeof(what), "the first message of data channel %u", i);
		host_recv_failed(s->data[i], err, what);
	} else if (s->first[i].proto_version != SEP_PROTO_VERSION) {
		fprintf(stderr, "aca-host: data channel %u: first message of protocol %u, "
			"want %u\n", i, s->first[i].proto_version, SEP_PROTO_VERSION);
	} else {
		return 0;
	}
	close(s->data[i]);
	return -1;
}

int host_session_open_timeout(struct host_session *s, const char *target,
			      int with_data, int timeout_s)
{
	memset(s, 0, sizeof(*s));
	s->answer_s = host_answer_s(timeout_s);
	s->ctl = host_connect_timeout(target, host_connect_s(timeout_s), s->answer_s);
	if (s->ctl < 0)
		return -1;
	if (host_hello(s->ctl, target, &s->status))
		goto fail;
	if (s->status.status != VT_SUCCESS || !with_data)
		return 0;
	/* A data channel each, and the arrays of them, sized by it. */
	s->ncpus = s->status.hardware_info.num_cpus;
	if (!s->ncpus || s->ncpus > HOST_MAX_CHANNELS - 2) {
		fprintf(stderr, "aca-host: the status message says %u CPUs (num_cpus): "
			"aca-host takes 1 to %d, a data channel each\n", s->ncpus,
			HOST_MAX_CHANNELS - 2);
		goto fail;
	}
	/*
	 * The target types channels by the order it accepts them (spec
	 * 3.1). The Intel host connects them all at once and relies on the
	 * listen backlog keeping its order; a NAT on the way (QEMU's user
	 * networking in the tests) need not. So each channel is connected
	 * only once the previous one has been accepted and announced.
	 */
	for (s->ndata = 0; s->ndata < s->ncpus + 2; s->ndata++)
		if (open_data_channel(s, target, s->ndata, timeout_s))
			goto fail;
	return 0;
fail:
	for (uint32_t i = 0; i < s->ndata; i++)
		close(s->data[i]);
	s->ndata = 0;
	close(s->ctl);
	s->ctl = -1;		/* nothing for the caller to close */
	return -1;
}

int host_session_open(struct host_session *s, const char *target,
		      int with_data)
{
	return host_session_open_timeout(s, target, with_data, 0);
}

/* host_recv_failed() of what answers command @id. */
static void answer_failed(int fd, int err, uint32_t id, const char *what)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s %u", what, id);
	host_recv_failed(fd, err, buf);
}

/*
 * When the wait for an answer that begins now ends: the control channel's
 * receive timeout from now (host_answer_s(), STOP's longer one), for the
 * answer whole and any older one read before it. 0: none.
 */
static double answer_deadline(const struct host_session *s)
{
	return host_deadline(s->ctl, SO_RCVTIMEO);
}

/*
 * An answer's header into @h by @deadline. 0; -1 with errno as
 * host_recv() leaves it, the connection out of step when part of the
 * header came.
 */
static int recv_header(struct host_session *s, struct sep_control_msg_header *h,
		       double deadline)
{
	size_t got;

	if (!host_recv_until(s->ctl, h, sizeof(*h), deadline, &got))
		return 0;
	if (got)
		s->out_of_step = 1;
	return -1;
}

/* The oldest answer owed has come (its header read): no longer owed. */
static void owed_pop(struct host_session *s)
{
	memmove(s->owed_id, s->owed_id + 1, --s->owed * sizeof(*s->owed_id));
}

/*
 * Read and drop the oldest answer owed, which no command waits for any
 * more (said as before command @id), by @deadline. 0, or -1 (said): a
 * timeout before its first byte leaves it owed. Its payload is read only
 * up to the protocol's largest answer, HOST_MAX_REPLY: a header that says
 * more is no SEP target's, and the session is out of step.
 */
static int drop_one(struct host_session *s, uint32_t id, double deadline)
{
	struct sep_control_msg_header h;
	char sink[65536];
	uint64_t left;

	if (recv_header(s, &h, deadline)) {
		answer_failed(s->ctl, errno, id, "a late answer before command");
		return -1;
	}
	if (h.header_size != sizeof(h) || h.command_id != s->owed_id[0]) {
		s->out_of_step = 1;
		fprintf(stderr, "aca-host: command %u: a late answer of %u, %u expected\n",
			id, h.command_id, s->owed_id[0]);
		return -1;
	}
	owed_pop(s);
	if (h.from_target_data_size > HOST_MAX_REPLY) {
		s->out_of_step = 1;
		fprintf(stderr, "aca-host: command %u: a late answer of %u says %llu bytes "
			"follow, more than the protocol's %u (from_target_data_size): "
			"not read, nothing more is sent\n", id, h.command_id,
			(unsigned long long)h.from_target_data_size, HOST_MAX_REPLY);
		return -1;
	}
	for (left = h.from_target_data_size; left;) {
		size_t n = left < sizeof(sink) ? left : sizeof(sink);

		if (host_recv_until(s->ctl, sink, n, deadline, NULL)) {
			s->out_of_step = 1;
			answer_failed(s->ctl, errno, id, "a late answer before command");
			return -1;
		}
		left -= n;
	}
	return 0;
}

/*
 * Command @id's header and @in, whole within the control channel's send
 * timeout; 0, or -1 (said). A request cut short leaves the session out of
 * step: the target would take what comes next as its rest.
 */
static int send_command(struct host_session *s, uint32_t id, const void *in,
			uint64_t in_len, uint64_t out_len)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h),
		.proto_version = SEP_PROTO_VERSION,
		.command_id = id,
		.to_target_data_size = in_len,
		.from_target_data_size = out_len,
	};
	double deadline;

	if (s->out_of_step) {
		fprintf(stderr, "aca-host: command %u: not sent, an earlier answer was cut "
			"short (or was not the one expected, or a request was): the "
			"session is out of step\n", id);
		return -1;
	}
	if (s->owed == HOST_OWED_MAX) {
		fprintf(stderr, "aca-host: command %u: not sent, %u answers still owed\n",
			id, s->owed);
		return -1;
	}
	/* A target ends a session asked more (spec 4.1): never asked. */
	if (in_len > HOST_MAX_REQUEST || out_len > HOST_MAX_REPLY) {
		fprintf(stderr, "aca-host: command %u: not sent, %llu bytes in and %llu "
			"asked: the protocol's most are %u and %u\n", id,
			(unsigned long long)in_len, (unsigned long long)out_len,
			HOST_MAX_REQUEST, HOST_MAX_REPLY);
		return -1;
	}
	deadline = host_deadline(s->ctl, SO_SNDTIMEO);
	if (host_send_until(s->ctl, &h, sizeof(h), deadline) ||
	    (in_len && host_send_until(s->ctl, in, in_len, deadline))) {
		s->out_of_step = 1;
		if (errno == EAGAIN)
			fprintf(stderr, "aca-host: command %u: the target took no request "
				"within %.0f s\n", id, host_sock_timeout(s->ctl, SO_SNDTIMEO));
		else
			fprintf(stderr, "aca-host: command %u: connection lost: %s\n", id,
				strerror(errno));
		return -1;
	}
	/* Owed until its header is read. */
	s->owed_id[s->owed++] = id;
	return 0;
}

/* The answer to command @id, the only one owed, by @deadline: as host_command(). */
static int recv_answer(struct host_session *s, uint32_t id, void *out, uint64_t out_len,
		       double deadline)
{
	struct sep_control_msg_header h;

	if (recv_header(s, &h, deadline)) {
		answer_failed(s->ctl, errno, id, "the answer to command");
		return -1;
	}
	owed_pop(s);
	if (h.command_id != id || h.header_size != sizeof(h)) {
		s->out_of_step = 1;
		fprintf(stderr, "aca-host: command %u: answered as %u\n", id,
			h.command_id);
		return -1;
	}
	if (h.status != VT_SUCCESS) {
		if (h.from_target_data_size) {
			s->out_of_step = 1;
			fprintf(stderr, "aca-host: command %u: payload with status %d\n",
				id, h.status);
			return -1;
		}
		return h.status;
	}
	if (h.from_target_data_size != out_len) {
		s->out_of_step = 1;
		fprintf(stderr, "aca-host: command %u: %llu bytes, asked %llu\n", id,
			(unsigned long long)h.from_target_data_size,
			(unsigned long long)out_len);
		return -1;
	}
	if (out_len && host_recv_until(s->ctl, out, out_len, deadline, NULL)) {
		s->out_of_step = 1;
		answer_failed(s->ctl, errno, id, "the payload of command");
		return -1;
	}
	return VT_SUCCESS;
}

/*
 * The answer to command @id, the newest owed: the older ones read and
 * dropped first, all of them by one deadline (answer_deadline()). As
 * host_command(); on a timeout before an answer's first byte, that answer
 * and the ones after it stay owed; after it, the session is out of step.
 */
static int answer_of(struct host_session *s, uint32_t id, void *out, uint64_t out_len)
{
	double deadline = answer_deadline(s);

	while (s->owed > 1)
		if (drop_one(s, id, deadline))
			return -1;
	return recv_answer(s, id, out, out_len, deadline);
}

/* host_command() without its record in s->last_command and s->last_status. */
static int command(struct host_session *s, uint32_t id, const void *in,
		   uint64_t in_len, void *out, uint64_t out_len)
{
	if (send_command(s, id, in, in_len, out_len))
		return -1;
	return answer_of(s, id, out, out_len);
}

int host_command(struct host_session *s, uint32_t id, const void *in,
		 uint64_t in_len, void *out, uint64_t out_len)
{
	s->last_command = id;
	s->last_status = command(s, id, in, in_len, out, out_len);
	return s->last_status;
}

int host_command_send(struct host_session *s, uint32_t id, const void *in,
		      uint64_t in_len, uint64_t out_len)
{
	s->last_command = id;
	s->last_status = send_command(s, id, in, in_len, out_len);
	return s->last_status;
}

int host_answer_ready(struct host_session *s)
{
	struct pollfd p = { .fd = s->ctl, .events = POLLIN };
	int n;

	while ((n = poll(&p, 1, 0)) < 0 && errno == EINTR)
		;
	return n < 0 ? -1 : n > 0;
}

int host_answer_drop(struct host_session *s)
{
	return s->owed > 1 ? drop_one(s, s->owed_id[s->owed - 1], answer_deadline(s)) : -1;
}

int host_answer_take(struct host_session *s, uint32_t id, void *out, uint64_t out_len)
{
	if (!s->owed || s->owed_id[s->owed - 1] != id) {
		fprintf(stderr, "aca-host: command %u: its answer is not owed\n", id);
		return -1;
	}
	s->last_command = id;
	s->last_status = answer_of(s, id, out, out_len);
	return s->last_status;
}

int host_session_answer_within(struct host_session *s, int seconds)
{
	struct timeval tv = { .tv_sec = seconds > s->answer_s ? seconds : s->answer_s };

	return setsockopt(s->ctl, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/*
 * Reads past the deadline, of what is there already: a socket's buffers
 * (4 MiB at most), so that a target that still sends is cut off.
 */
#define DRAIN_LATE_READS	64

long long host_drain_until(int fd, double deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[65536];
	long long total = 0;
	int late = 0;

	for (;;) {
		double left = deadline - host_now_s();
		/* Each wait up to the deadline; the receive timeout plays no part. */
		int ready = poll(&p, 1, left > 0 ? (int)(left * 1000) + 1 : 0);

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0)
			return -1;
		if (ready) {
			ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

			if (!n)
				return total;
			if (n > 0)
				total += n;
			else if (errno != EINTR && errno != EAGAIN)
				return -1;
		}
		if (left <= 0 && (!ready || ++late == DRAIN_LATE_READS)) {
			errno = ETIMEDOUT;
			return -1;
		}
	}
}

long long host_drain(int fd)
{
	return host_drain_until(fd, host_now_s() + HOST_DRAIN_TIMEOUT_S);
}

int host_session_close(struct host_session *s)
{
	int status = host_command(s, SEP_CMD_TERMINATE, NULL, 0, NULL, 0);
	double end = host_now_s() + HOST_DRAIN_TIMEOUT_S;
	int ret = status == VT_SUCCESS ? 0 : -1;

	/* One deadline for them all: a session ends within it, or is cut off. */
	for (uint32_t i = 0; i < s->ndata; i++) {
		if (host_drain_until(s->data[i], end) < 0) {
			if (errno == ETIMEDOUT)
				fprintf(stderr, "aca-host: data channel %u did not end within "
					"%d s of TERMINATE\n", i, HOST_DRAIN_TIMEOUT_S);
			else
				fprintf(stderr, "aca-host: data channel %u did not end: %s\n",
					i, strerror(errno));
			ret = -1;
		}
		close(s->data[i]);
	}
	/* After TERMINATE the target closes the control channel too. */
	if (ret == 0) {
		long long rest = host_drain_until(s->ctl, end);

		if (rest < 0 && errno == ETIMEDOUT)
			fprintf(stderr, "aca-host: the control channel did not end within "
				"%d s of TERMINATE\n", HOST_DRAIN_TIMEOUT_S);
		if (rest)
			ret = -1;
	}
	close(s->ctl);
	return ret;
}
