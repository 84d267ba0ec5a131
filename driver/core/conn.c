// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-connection byte stream: reassembles fixed-size units from arbitrarily
 * fragmented input and queues replies for the reader.
 */
#include "core.h"
#include "internal.h"

void acp_conn_init(struct acp_conn *c, const struct acp_ops *ops, void *ctx)
{
	memset(c, 0, sizeof(*c));
	c->ops = ops;
	c->ctx = ctx;
	c->phase = ACP_HELLO;
}

size_t acp_conn_peek(const struct acp_conn *c, const void **data)
{
	*data = c->out + c->out_head;
	return c->out_tail - c->out_head;
}

void acp_conn_consume(struct acp_conn *c, size_t n)
{
	if (n > c->out_tail - c->out_head)
		n = c->out_tail - c->out_head;
	c->out_head += n;
	if (c->out_head == c->out_tail) {
		c->out_head = 0;
		c->out_tail = 0;
	}
}

void acp_conn_hangup(struct acp_conn *c)
{
	c->phase = ACP_CLOSING;
}

bool acp_conn_writable(const struct acp_conn *c)
{
	return c->phase == ACP_CLOSING || c->out_head == c->out_tail;
}

bool acp_conn_eof(const struct acp_conn *c)
{
	return c->phase == ACP_CLOSING && c->out_head == c->out_tail;
}

/* Queue a reply; callers only queue into an empty buffer. */
static void queue_out(struct acp_conn *c, const void *buf, size_t len)
{
	if (len > ACP_OUT_CAP - c->out_tail)
		return;
	memcpy(c->out + c->out_tail, buf, len);
	c->out_tail += len;
}

static void answer_hello(struct acp_conn *c)
{
	struct sep_target_status_msg msg;
	s32 status = acp_check_hello(c->in);

	acp_build_status(c, status, &msg);
	queue_out(c, &msg, sizeof(msg));
	/* A refused host gets its status, then the connection ends. */
	c->phase = status == VT_SUCCESS ? ACP_OPEN : ACP_CLOSING;
}

size_t acp_conn_input(struct acp_conn *c, const void *buf, size_t len)
{
	const u8 *p = buf;
	size_t want, n;

	if (!acp_conn_writable(c))
		return 0;
	if (c->phase != ACP_HELLO)
		return len;	/* commands arrive with the control plane */

	want = sizeof(struct sep_control_first_msg) - c->in_len;
	n = len < want ? len : want;
	memcpy(c->in + c->in_len, p, n);
	c->in_len += n;
	if (c->in_len == sizeof(struct sep_control_first_msg)) {
		answer_hello(c);
		c->in_len = 0;
	}
	return n;
}
