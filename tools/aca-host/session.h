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
	 * Each answer's time, whole (host_answer_s(): --timeout, or
	 * HOST_RECV_TIMEOUT_S), as the control channel's receive timeout.
	 */
	int answer_s;
	/*
	 * The commands sent whose answers' headers are not read yet, the
	 * oldest first: one waited for, or ones given up on (no byte of the
	 * answer in its time) or sent without waiting. The target answers in
	 * order, so a command reads and drops the older ones (checking each
	 * is the one expected, and its payload within HOST_MAX_REPLY) before
	 * its own, all within its own time.
	 * @out_of_step: an answer was cut short, not the one expected or
	 * past HOST_MAX_REPLY, or a request cut short: no later answer can be
	 * told apart, nothing more is sent.
	 */
#define HOST_OWED_MAX	16
	uint32_t owed_id[HOST_OWED_MAX];
	uint32_t owed;
	int out_of_step;
};

/*
 * Connect and hand-shake, each wait within --timeout's @timeout_s (0: not
 * given; host_connect_s(), host_answer_s()); with @with_data also open the
 * N+2 data channels (N, the status message's num_cpus: 1 to
 * HOST_MAX_CHANNELS - 2) and read each one's first message. Returns 0, or
 * -1 with a message on stderr. A non-zero handshake status is returned in
 * s->status with 0 (and s->ctl still open).
 */
int host_session_open_timeout(struct host_session *s, const char *target,
			      int with_data, int timeout_s);
/* The same without --timeout. */
int host_session_open(struct host_session *s, const char *target,
		      int with_data);

/*
 * Each answer from now on within @seconds, or s->answer_s if that is more
 * (STOP's, which waits for every channel to drain): 0, or -1 (errno).
 * s->answer_s again with 0.
 */
int host_session_answer_within(struct host_session *s, int seconds);

/*
 * One command: send the header and @in (at most HOST_MAX_REQUEST bytes),
 * whole within the control channel's send timeout; read the response
 * header and, on success, exactly @out_len bytes (at most HOST_MAX_REPLY)
 * into @out, the answer whole within the control channel's receive
 * timeout (s->answer_s, or STOP's; older answers owed read and dropped
 * first, within the same time). Returns the status, or -1 on
 * a transport or framing error, or a timeout (message on stderr).
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
