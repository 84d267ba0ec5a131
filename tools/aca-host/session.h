/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A SEP remote session as a VTune host drives it: control channel, data
 * channels, request/response commands. Shared by aca-host and the selftests.
 */
#ifndef ACA_HOST_SESSION_H
#define ACA_HOST_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "../../driver/core/sep_cmd.h"

#define HOST_MAX_CHANNELS	1026

struct host_session {
	int ctl;
	struct sep_target_status_msg status;
	uint32_t ncpus;
	uint32_t ndata;
	int data[HOST_MAX_CHANNELS];
	struct sep_data_first_msg first[HOST_MAX_CHANNELS];
	/* The last command sent, and its status (-1: no valid answer). */
	uint32_t last_command;
	int last_status;
	/*
	 * The commands sent whose answers' headers are not read yet, the
	 * oldest first: one waited for, or ones given up on (no byte of the
	 * answer within HOST_RECV_TIMEOUT_S) or sent without waiting. The
	 * target answers in order, so a command reads and drops the older
	 * ones (checking each is the one expected) before its own.
	 * @out_of_step: an answer was cut short or not the one expected, no
	 * later one can be told apart: nothing more is sent.
	 */
#define HOST_OWED_MAX	16
	uint32_t owed_id[HOST_OWED_MAX];
	uint32_t owed;
	int out_of_step;
};

/*
 * Connect (each connection within @timeout_s seconds) and hand-shake; with
 * @with_data also open the N+2 data channels and read each one's first
 * message. Returns 0, or -1 with a message on stderr. A non-zero handshake
 * status is returned in s->status with 0 (and s->ctl still open).
 */
int host_session_open_timeout(struct host_session *s, const char *target,
			      int with_data, int timeout_s);
/* The same with the default timeout, HOST_CONNECT_TIMEOUT_S. */
int host_session_open(struct host_session *s, const char *target,
		      int with_data);

/*
 * One command: send the header and @in, read the response header and, on
 * success, exactly @out_len bytes into @out. Returns the status, or -1 on
 * a transport or framing error (message on stderr).
 */
int host_command(struct host_session *s, uint32_t id, const void *in,
		 uint64_t in_len, void *out, uint64_t out_len);

/*
 * A command whose answer is read later, so that the caller goes on
 * meanwhile (aca-host top's KERNEL_SYMBOLS): send it, 0 or -1 (said), its
 * answer then owed. host_answer_ready() says, without waiting, whether an
 * answer has begun to come (1; 0 not yet; -1 error): the oldest owed's.
 * With older answers owed (s->owed > 1), host_answer_drop() reads and
 * drops the oldest (0, or -1 said); else host_answer_take() reads it as
 * host_command() would have (its status). A command sent meanwhile drops
 * it unread.
 */
int host_command_send(struct host_session *s, uint32_t id, const void *in,
		      uint64_t in_len, uint64_t out_len);
int host_answer_ready(struct host_session *s);
int host_answer_drop(struct host_session *s);
int host_answer_take(struct host_session *s, uint32_t id, void *out, uint64_t out_len);

/*
 * Read @fd to EOF, what comes discarded, until @deadline (host_now_s(),
 * clock.h) at most: a target that stalls, or trickles bytes, is not waited
 * for past it. Past it, what is there already is still read (a few MiB at
 * most): an end behind it counts. Returns the bytes seen, or -1 (errno;
 * ETIMEDOUT: the deadline passed first).
 */
long long host_drain_until(int fd, double deadline);
/* The same within HOST_DRAIN_TIMEOUT_S (host.h) from now. */
long long host_drain(int fd);

/*
 * TERMINATE, wait for every data channel and then the control channel to
 * end, all within HOST_DRAIN_TIMEOUT_S, close everything.
 */
int host_session_close(struct host_session *s);

#endif /* ACA_HOST_SESSION_H */
