/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca protocol core: one byte-stream state machine per connection.
 *
 * The caller (the /dev/aca file in the kernel, a test or the fuzzer in
 * userspace) pushes the peer's bytes in with acp_conn_input() and pulls the
 * reply bytes out with acp_conn_peek()/acp_conn_consume(). Everything the core
 * needs from the machine comes through struct acp_ops.
 */
#ifndef ACA_CORE_H
#define ACA_CORE_H

#include "env.h"
#include "../../uapi/aca_sep.h"

/* What the core asks of the machine it runs on. */
struct acp_ops {
	/* uname fields; the core truncates them to fit the wire. */
	const char *(*sysname)(void *ctx);
	const char *(*release)(void *ctx);
	const char *(*version)(void *ctx);
	/* Number of CPU data channels: highest present CPU id + 1. */
	u32 (*num_cpus)(void *ctx);
	/* CPUID of the calling CPU: regs = eax, ebx, ecx, edx. */
	void (*cpuid)(void *ctx, u32 leaf, u32 subleaf,
		      u32 regs[4]);
	u64 (*tsc_hz)(void *ctx);
};

enum acp_phase {
	ACP_HELLO,	/* collecting the 24-byte host hello */
	ACP_OPEN,	/* hello answered with status 0 */
	ACP_CLOSING,	/* no more input accepted; EOF once output drains */
};

/* Largest reply the core queues at once (a status message today). */
#define ACP_OUT_CAP	512

struct acp_conn {
	const struct acp_ops *ops;
	void *ctx;
	enum acp_phase phase;
	u32 in_len;
	u8 in[sizeof(struct sep_control_first_msg)];
	u32 out_head;
	u32 out_tail;
	u8 out[ACP_OUT_CAP];
};

void acp_conn_init(struct acp_conn *c, const struct acp_ops *ops, void *ctx);

/*
 * Feed peer bytes. Returns how many were consumed; fewer than @len means the
 * core wants its pending output read first (back-pressure), never an error.
 * Input after the connection is over is consumed and discarded.
 */
size_t acp_conn_input(struct acp_conn *c, const void *buf, size_t len);

/* Pending output: returns its length and points *@data at it. */
size_t acp_conn_peek(const struct acp_conn *c, const void **data);
void acp_conn_consume(struct acp_conn *c, size_t n);

/* The peer will send nothing more: end once pending output is read. */
void acp_conn_hangup(struct acp_conn *c);

/* True when acp_conn_input() will consume at least one byte. */
bool acp_conn_writable(const struct acp_conn *c);

/* True once the connection is over and every reply byte has been read. */
bool acp_conn_eof(const struct acp_conn *c);

/* Status message for a hello (exposed for tests). */
void acp_build_status(const struct acp_conn *c, s32 status,
		      struct sep_target_status_msg *msg);

#endif /* ACA_CORE_H */
