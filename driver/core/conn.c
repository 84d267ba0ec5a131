// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-connection byte stream: reassembles the hello, request headers and
 * payloads from arbitrarily fragmented input, and queues one reply at a
 * time for the reader. Nothing the peer sends is trusted: sizes are checked
 * before anything is allocated for them.
 */
#include "internal.h"

static const u8 zero_page[4096];
/* Replies and closes, for session.c and dispatch.c: defined below. */
static const struct acp_conn_ops conn_ops;

void acp_conn_init(struct acp_conn *c, struct acp_target *t, void *ctx,
		   const void *opener)
{
	memset(c, 0, sizeof(*c));
	c->t = t;
	c->ctx = ctx;
	c->opener = opener;
	c->ops = &conn_ops;
	c->in = ACP_IN_HELLO;
}

void acp_conn_set_kernel_addresses(struct acp_conn *c, bool shown)
{
	c->kernel_addresses = shown;
}

void acp_conn_set_privileged(struct acp_conn *c, bool privileged)
{
	c->privileged = privileged;
}

void acp_conn_set_person(struct acp_conn *c, u64 person)
{
	c->person = person;
}

bool acp_conn_has_role(const struct acp_conn *c)
{
	return c->role != ACP_ROLE_NONE;
}

static bool out_empty(const struct acp_conn *c)
{
	const struct acp_out *o = &c->out;

	return o->head_off == o->head_len && o->data_off == o->data_len &&
	       !o->zeros;
}

static void out_reset(struct acp_conn *c)
{
	if (c->out.owned)
		acp_free(c->t, c->out.owned);
	memset(&c->out, 0, sizeof(c->out));
}

/* Queue a reply head (status message, response header or data hello). */
static void acp_queue(struct acp_conn *c, const void *head, u32 head_len)
{
	out_reset(c);
	memcpy(c->out.head, head, head_len);
	c->out.head_len = head_len;
}

/* Drop the queued reply: a STOP answer nobody waits for any more. */
static void acp_discard_output(struct acp_conn *c)
{
	out_reset(c);
}

/* No more output will be queued: EOF once the reader has it all. */
static void acp_close(struct acp_conn *c)
{
	c->closed = true;
	c->in = ACP_IN_NONE;
	if (c->payload) {
		acp_free(c->t, c->payload);
		c->payload = NULL;
	}
}

/*
 * A data channel of the session: its host's address, opened by whoever
 * opened the control channel (the relay opens every file of a session;
 * another process naming the same address does not join it), on behalf of
 * the same person (acp_conn_set_person(): another local user reaching the
 * relay from the same address does not join it either).
 */
static bool joins_session(const struct acp_target *t, const struct acp_conn *c)
{
	return t->ndata < t->nexpected && c->opener == t->control->opener &&
	       c->person == t->control->person &&
	       !memcmp(&t->peer, &c->peer, sizeof(c->peer));
}

bool acp_conn_attach(struct acp_conn *c, const struct acp_peer *peer)
{
	struct acp_target *t = c->t;

	if (c->role != ACP_ROLE_NONE)
		return false;
	c->peer = *peer;
	if (!t->control && !t->local_busy) {
		acp_session_begin(t, c);
	} else if (t->control && joins_session(t, c)) {
		acp_data_attach(t, c);
	} else if (!t->local_busy &&
		   acp_session_yield(t, c->privileged, c->privileged ?
				     "a privileged host" : "another host")) {
		acp_session_begin(t, c);
	} else {
		/* A second host: it gets its hello answered with "busy". */
		c->role = ACP_ROLE_BUSY;
	}
	return true;
}

static void attach_local(struct acp_conn *c)
{
	static const struct acp_peer local;

	acp_conn_attach(c, &local);
}

void acp_conn_use(struct acp_conn *c)
{
	if (c->role == ACP_ROLE_NONE)
		attach_local(c);
}

static void on_hello(struct acp_conn *c)
{
	struct sep_target_status_msg msg;
	s32 status = acp_check_hello(&c->in_buf.hello);

	if (status == VT_SUCCESS && c->role != ACP_ROLE_CONTROL)
		status = VT_COMM_DATA_CHANNEL_UNAVAILABLE;
	acp_build_status(c->t, status, &msg);
	acp_queue(c, &msg, sizeof(msg));
	if (status == VT_SUCCESS) {
		c->in = ACP_IN_HEADER;
		return;
	}
	if (c->role == ACP_ROLE_CONTROL)
		acp_session_end(c->t);
	acp_close(c);
}

/* A request header is complete: decide what to do with its payload. */
static void on_header(struct acp_conn *c)
{
	const struct sep_control_msg_header *h = &c->in_buf.hdr;
	u64 n = h->to_target_data_size;

	c->payload_len = n;
	c->payload_got = 0;
	if (h->header_size != sizeof(*h) || h->command_id == SEP_CMD_NONE ||
	    n > ACP_MAX_PAYLOAD) {
		/* Answered (or not) once the payload is consumed. */
		c->skip_left = n;
		c->in = ACP_IN_SKIP;
		if (n > ACP_MAX_PAYLOAD)
			acp_dispatch(c);	/* refuses and ends the session */
		else if (!n)
			acp_dispatch(c);
		return;
	}
	if (n) {
		c->payload = acp_zalloc(c->t, n);
		if (!c->payload) {
			c->skip_left = n;	/* answered VT_NO_MEMORY */
			c->in = ACP_IN_SKIP;
			return;
		}
		c->in = ACP_IN_PAYLOAD;
		return;
	}
	acp_dispatch(c);
}

/* Collect bytes into the fixed-size unit being assembled. */
static size_t take_unit(struct acp_conn *c, const u8 *p, size_t len, u32 size)
{
	size_t n = size - c->in_len;

	if (n > len)
		n = len;
	memcpy(c->in_buf.bytes + c->in_len, p, n);
	c->in_len += n;
	if (c->in_len == size) {
		c->in_len = 0;
		if (c->in == ACP_IN_HELLO)
			on_hello(c);
		else
			on_header(c);
	}
	return n;
}

static size_t take_payload(struct acp_conn *c, const u8 *p, size_t len)
{
	u64 n = c->payload_len - c->payload_got;

	if (n > len)
		n = len;
	memcpy(c->payload + c->payload_got, p, n);
	c->payload_got += n;
	if (c->payload_got == c->payload_len)
		acp_dispatch(c);
	return n;
}

static size_t skip_payload(struct acp_conn *c, size_t len)
{
	u64 n = c->skip_left < len ? c->skip_left : len;

	c->skip_left -= n;
	if (!c->skip_left)
		acp_dispatch(c);
	return n;
}

bool acp_conn_writable(struct acp_conn *c)
{
	return c->in == ACP_IN_NONE || c->role == ACP_ROLE_DATA ||
	       out_empty(c);
}

size_t acp_conn_input(struct acp_conn *c, const void *buf, size_t len)
{
	if (c->role == ACP_ROLE_NONE)
		attach_local(c);
	if (!len || c->in == ACP_IN_NONE || c->role == ACP_ROLE_DATA)
		return len;	/* hosts may talk on data channels: drop it */
	if (!out_empty(c))
		return 0;

	switch (c->in) {
	case ACP_IN_HELLO:
		return take_unit(c, buf, len, sizeof(struct sep_control_first_msg));
	case ACP_IN_HEADER:
		return take_unit(c, buf, len, sizeof(struct sep_control_msg_header));
	case ACP_IN_PAYLOAD:
		return take_payload(c, buf, len);
	case ACP_IN_SKIP:
		return skip_payload(c, len);
	default:
		return len;
	}
}

/*
 * A data channel still attached to its session streams its bytes once its
 * first message is read; in delayed-transfer mode only from STOP on (spec
 * 3.3). A detached one (session over) has nothing more to give.
 */
static bool stream_chan(const struct acp_conn *c, u32 *chan)
{
	const struct acp_target *t = c->t;

	if (c->role != ACP_ROLE_DATA || !t->ops->data_peek ||
	    c->channel >= t->ndata || t->data[c->channel] != c)
		return false;
	if (t->delayed && t->state != ACP_STOPPED)
		return false;
	*chan = c->channel;
	return true;
}

/* The control's STOP response is queued but held back until the drain. */
static bool held_back(const struct acp_conn *c)
{
	return c->t->stop_pending && c->t->control == c;
}

bool acp_conn_stream(struct acp_conn *c, u32 *chan)
{
	return out_empty(c) && stream_chan(c, chan);
}

/*
 * Everything @c will ever have for its reader was read: replies, and a
 * stream that is final (asked first: then its last bytes are seen) and
 * empty.
 */
static bool drained(const struct acp_conn *c)
{
	const struct acp_ops *ops = c->t->ops;
	const void *p;
	u32 chan;

	if (!out_empty(c))
		return false;
	if (!stream_chan(c, &chan))
		return true;
	if (ops->data_final && !ops->data_final(c->t->ctx, chan))
		return false;
	return !ops->data_peek(c->t->ctx, chan, &p);
}

/*
 * STOP answers once every data channel still attached has been read to the
 * end of its final stream (channels never connected, or closed, count as
 * drained), then the channels end (spec 3.4, 13). True if that happened.
 */
static bool stop_answer(struct acp_target *t)
{
	for (u32 i = 0; i < t->ndata; i++)
		if (t->data[i] && !drained(t->data[i]))
			return false;
	t->stop_pending = false;
	acp_close_data(t);
	return true;
}

static void acp_stop_wait(struct acp_target *t)
{
	t->stop_pending = true;
	if (stop_answer(t))
		return;
	/* Delayed transfer starts now; the final records came, or will. */
	for (u32 i = 0; i < t->ndata; i++)
		if (t->data[i] && !drained(t->data[i]))
			t->ops->wake(t->ctx, t->data[i]->ctx);
}

/* What session.c and dispatch.c call back through (internal.h). */
static const struct acp_conn_ops conn_ops = {
	.queue = acp_queue,
	.close = acp_close,
	.discard_output = acp_discard_output,
	.stop_wait = acp_stop_wait,
};

/*
 * A data channel was read, went away or became final: maybe STOP can
 * answer now.
 */
static void stop_progress(struct acp_target *t)
{
	if (t->stop_pending && stop_answer(t))
		t->ops->wake(t->ctx, t->control->ctx);
}

void acp_conn_drained(struct acp_conn *c)
{
	if (c->role == ACP_ROLE_DATA)
		stop_progress(c->t);
}

size_t acp_conn_peek(struct acp_conn *c, const void **data)
{
	struct acp_out *o = &c->out;
	u32 chan;
	u64 n;

	if (c->role == ACP_ROLE_NONE)
		return 0;	/* a query: no role before the first use */
	if (held_back(c))
		return 0;
	if (o->head_off < o->head_len) {
		*data = o->head + o->head_off;
		return o->head_len - o->head_off;
	}
	if (o->data_off < o->data_len) {
		*data = o->data + o->data_off;
		return o->data_len - o->data_off;
	}
	if (!o->zeros && stream_chan(c, &chan))
		return c->t->ops->data_peek(c->t->ctx, chan, data);
	n = o->zeros < sizeof(zero_page) ? o->zeros : sizeof(zero_page);
	*data = zero_page;
	return n;
}

/* Take @n bytes of the queued reply: head, then data, then zeros. */
static void consume_out(struct acp_conn *c, size_t n)
{
	struct acp_out *o = &c->out;
	u64 k;

	k = o->head_len - o->head_off < n ? o->head_len - o->head_off : n;
	o->head_off += k;
	n -= k;
	k = o->data_len - o->data_off < n ? o->data_len - o->data_off : n;
	o->data_off += k;
	n -= k;
	o->zeros -= o->zeros < n ? o->zeros : n;
	if (out_empty(c))
		out_reset(c);
}

void acp_conn_consume(struct acp_conn *c, size_t n)
{
	u32 chan;

	if (held_back(c))
		return;		/* nothing was shown */
	/* Whatever peek pointed at: the queued reply first, then the stream. */
	if (!out_empty(c))
		consume_out(c, n);
	else if (n && stream_chan(c, &chan))
		c->t->ops->data_consume(c->t->ctx, chan, n);
	if (c->role == ACP_ROLE_DATA)
		stop_progress(c->t);
}

void acp_conn_hangup(struct acp_conn *c)
{
	if (c->role == ACP_ROLE_CONTROL && c->t->control == c)
		acp_session_end(c->t);	/* as if TERMINATE had been sent */
	acp_close(c);
}

/* A data channel ends after STOP only once its stream is all read. */
bool acp_conn_eof(struct acp_conn *c)
{
	return c->closed && drained(c);
}

void acp_conn_release(struct acp_conn *c)
{
	struct acp_target *t = c->t;

	if (c->role == ACP_ROLE_CONTROL && t->control == c)
		acp_session_end(t);
	if (c->role == ACP_ROLE_DATA && c->channel < t->ndata &&
	    t->data[c->channel] == c) {
		t->data[c->channel] = NULL;
		stop_progress(t);	/* a channel gone counts as drained */
	}
	acp_close(c);
	out_reset(c);
}
