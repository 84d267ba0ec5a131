// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, data delivery (spec 3.3, 3.4, 13): every data channel
 * streams its bytes (CPU samples, module records) after its first message
 * and is woken when the machine says there are some; STOP stops the
 * counters, adds the final module records, waits until every data channel
 * is drained, only then answers and ends the channels. In delayed-transfer
 * mode nothing streams before STOP. Session end drops what is left.
 * Its own program, build/tests/core_data_test, on the fixture every core
 * test program shares (core_fixture.h).
 */
#include "core_fixture.h"

#define MODULE_CHAN	(FAKE_NCPUS + 1)

/* Read everything @c has now, @chunk bytes at a time; checks the pattern. */
static inline void expect_samples(struct __test_metadata *_metadata,
				  FIXTURE_DATA(core) *self, struct acp_conn *c,
				  u32 len, u8 seed, size_t chunk)
{
	tc_out_reset(&self->out);
	EXPECT_EQ(len, tc_drain(c, &self->out, chunk));
	ASSERT_EQ(len, self->out.total);
	for (u32 i = 0; i < len; i++)
		ASSERT_EQ((u8)(seed + i), self->out.buf[i]);
}

/* Send one request header without payload; true if all of it was taken. */
static inline bool send_request(FIXTURE_DATA(core) *self, u32 id, u64 out_len)
{
	struct sep_control_msg_header h = tc_header(id, 0, out_len);

	return acp_conn_input(self->ctl, &h, sizeof(h)) == sizeof(h);
}

/* The control's pending output, which must be exactly one response. */
static inline void expect_response(struct __test_metadata *_metadata,
				   FIXTURE_DATA(core) *self, u32 id,
				   u64 payload)
{
	struct sep_control_msg_header h;

	tc_out_reset(&self->out);
	ASSERT_EQ(sizeof(h) + payload, tc_drain(self->ctl, &self->out, 0));
	memcpy(&h, self->out.buf, sizeof(h));
	EXPECT_EQ(id, h.command_id);
	EXPECT_EQ(VT_SUCCESS, h.status);
	EXPECT_EQ(payload, h.from_target_data_size);
}

/* STOP sent: its answer is held back, and the control takes nothing. */
static inline void stop_pending(struct __test_metadata *_metadata,
				FIXTURE_DATA(core) *self)
{
	const void *p;

	ASSERT_TRUE(send_request(self, SEP_CMD_STOP, 0));
	EXPECT_TRUE(self->t.stop_pending);
	EXPECT_EQ(0, acp_conn_peek(self->ctl, &p));
	EXPECT_FALSE(acp_conn_writable(self->ctl));
	EXPECT_FALSE(acp_conn_eof(self->ctl));
}

TEST_F(core, cpu_channel_streams_its_samples_then_eof_after_stop)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	fake_add_samples(&self->f, 1, 100, 7);
	fake_add_samples(&self->f, 2, 48, 200);

	/* In pieces of any size, across the pieces the sampler gives. */
	expect_samples(_metadata, self, self->data[1], 100, 7, 7);
	EXPECT_FALSE(acp_conn_eof(self->data[1]));
	expect_samples(_metadata, self, self->data[0], 0, 0, 0);

	fake_add_samples(&self->f, 1, 60, 107);
	stop_pending(_metadata, self);
	EXPECT_EQ(1, self->f.nstop);
	/* Stopped, but samples are still unread: not over yet. */
	EXPECT_FALSE(acp_conn_eof(self->data[1]));
	EXPECT_FALSE(acp_conn_eof(self->data[2]));
	expect_samples(_metadata, self, self->data[1], 60, 107, 0);
	EXPECT_FALSE(acp_conn_eof(self->data[1]));	/* STOP not answered */
	expect_samples(_metadata, self, self->data[2], 48, 200, 5);
	/* The last byte read: STOP answers, every channel ends. */
	EXPECT_FALSE(self->t.stop_pending);
	EXPECT_EQ(1, fake_woken(&self->f, self->ctl));
	expect_response(_metadata, self, SEP_CMD_STOP, 0);
	for (u32 i = 0; i < self->ndata; i++) {
		EXPECT_TRUE(acp_conn_eof(self->data[i])) TH_LOG("channel %u", i);
	}
	EXPECT_EQ(0, self->f.nfinish);

	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	EXPECT_EQ(1, self->f.nfinish);
}

/* Samples never jump ahead of the channel's first message. */
TEST_F(core, first_message_comes_before_samples)
{
	struct sep_target_status_msg st;
	struct sep_data_first_msg m;
	struct acp_conn *d;

	self->ctl = new_conn(self);
	ASSERT_EQ(0, hello_on(_metadata, self, self->ctl, 24, &st));
	d = new_conn(self);
	fake_add_samples(&self->f, 0, 30, 1);
	tc_out_reset(&self->out);
	EXPECT_EQ(sizeof(m) + 30, tc_drain(d, &self->out, 3));
	memcpy(&m, self->out.buf, sizeof(m));
	EXPECT_EQ(SEP_PROTO_VERSION, m.proto_version);
	EXPECT_EQ(SEP_DATA_CPU, m.data_type);
	for (u32 i = 0; i < 30; i++)
		EXPECT_EQ((u8)(1 + i), self->out.buf[sizeof(m) + i]);
}

/* TERMINATE or the control gone: the rest is dropped, channels end now. */
TEST_F(core, session_end_drops_unread_samples)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	fake_add_samples(&self->f, 0, 96, 0);
	fake_add_samples(&self->f, 3, 96, 0);
	fake_add_samples(&self->f, MODULE_CHAN, 96, 0);
	acp_conn_hangup(self->ctl);
	EXPECT_EQ(1, self->f.nstop);
	EXPECT_EQ(0, self->f.nfinalize);	/* nobody wants final records */
	EXPECT_EQ(1, self->f.nfinish);
	for (u32 i = 0; i < self->ndata; i++) {
		expect_eof(_metadata, self, self->data[i]);
		EXPECT_EQ(0, self->out.total);
	}
	/* A finished session's channels ask the sampler nothing more. */
	fake_add_samples(&self->f, 0, 8, 0);
	expect_eof(_metadata, self, self->data[0]);
	EXPECT_EQ(0, self->out.total);
}

/*
 * A reader that takes a channel's stream without the core (the kernel's
 * file reads its bound ring) says when it has drained it: only then, and
 * only once every channel is drained, does STOP answer.
 */
TEST_F(core, stop_answers_once_a_stream_read_outside_the_core_is_drained)
{
	const void *p;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	fake_add_samples(&self->f, 1, 100, 7);
	stop_pending(_metadata, self);
	self->f.nwoken = 0;
	acp_conn_drained(self->data[1]);	/* not true yet */
	EXPECT_TRUE(self->t.stop_pending);
	/* Read past the core, as a bound ring is. */
	self->f.sample_off[1] += 100;
	EXPECT_TRUE(self->t.stop_pending);	/* the core cannot know */
	acp_conn_drained(self->ctl);		/* a control has no stream */
	EXPECT_TRUE(self->t.stop_pending);
	acp_conn_drained(self->data[1]);
	EXPECT_FALSE(self->t.stop_pending);
	EXPECT_EQ(1, fake_woken(&self->f, self->ctl));
	EXPECT_LT(0, acp_conn_peek(self->ctl, &p));
}

/*
 * A stream that may still grow after STOP (the kernel's module records,
 * written by a worker after finalize() returned) holds the answer while it
 * is empty, however often its reader asks, and until its last bytes are
 * read once it is final.
 */
TEST_F(core, stop_waits_for_a_stream_that_is_not_final)
{
	const void *p;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	self->f.growing[MODULE_CHAN] = true;
	self->f.nwoken = 0;
	stop_pending(_metadata, self);
	EXPECT_LT(0, self->f.nfinal);
	/* Empty but not final: not drained, so woken to read what comes. */
	EXPECT_EQ(1, fake_woken(&self->f, self->data[MODULE_CHAN]));
	for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++)
		EXPECT_EQ(0, fake_woken(&self->f, self->data[cpu]));
	expect_samples(_metadata, self, self->data[MODULE_CHAN], 0, 0, 0);
	acp_conn_drained(self->data[MODULE_CHAN]);
	EXPECT_TRUE(self->t.stop_pending);
	EXPECT_FALSE(acp_conn_eof(self->data[MODULE_CHAN]));
	EXPECT_EQ(0, acp_conn_peek(self->ctl, &p));

	/* Records come and are read; the stream is still not final. */
	fake_add_samples(&self->f, MODULE_CHAN, 64, 5);
	expect_samples(_metadata, self, self->data[MODULE_CHAN], 64, 5, 9);
	EXPECT_TRUE(self->t.stop_pending);
	EXPECT_FALSE(acp_conn_eof(self->data[MODULE_CHAN]));

	/* The last records, then final: the answer waits for their bytes. */
	fake_add_samples(&self->f, MODULE_CHAN, 24, 69);
	self->f.growing[MODULE_CHAN] = false;
	acp_conn_drained(self->data[MODULE_CHAN]);
	EXPECT_TRUE(self->t.stop_pending);
	EXPECT_EQ(0, fake_woken(&self->f, self->ctl));
	expect_samples(_metadata, self, self->data[MODULE_CHAN], 24, 69, 0);
	EXPECT_FALSE(self->t.stop_pending);
	EXPECT_EQ(1, fake_woken(&self->f, self->ctl));
	expect_response(_metadata, self, SEP_CMD_STOP, 0);
	for (u32 i = 0; i < self->ndata; i++) {
		EXPECT_TRUE(acp_conn_eof(self->data[i])) TH_LOG("channel %u", i);
	}
}

/*
 * A stream read outside the core (a bound ring) that is empty when it
 * becomes final: nobody reads another byte, so whoever sees it become
 * final says so, and STOP answers then.
 */
TEST_F(core, stop_answers_when_an_empty_stream_becomes_final)
{
	const void *p;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	self->f.growing[MODULE_CHAN] = true;
	stop_pending(_metadata, self);
	/* Records come and are read past the core, as a bound ring is. */
	fake_add_samples(&self->f, MODULE_CHAN, 40, 1);
	self->f.sample_off[MODULE_CHAN] += 40;
	acp_conn_drained(self->data[MODULE_CHAN]);
	EXPECT_TRUE(self->t.stop_pending);
	EXPECT_EQ(0, acp_conn_peek(self->ctl, &p));

	self->f.growing[MODULE_CHAN] = false;
	self->f.nwoken = 0;
	EXPECT_TRUE(self->t.stop_pending);	/* the core cannot know */
	acp_conn_drained(self->ctl);		/* a control has no stream */
	EXPECT_TRUE(self->t.stop_pending);
	acp_conn_drained(self->data[MODULE_CHAN]);
	EXPECT_FALSE(self->t.stop_pending);
	EXPECT_EQ(1, fake_woken(&self->f, self->ctl));
	expect_response(_metadata, self, SEP_CMD_STOP, 0);
	for (u32 i = 0; i < self->ndata; i++) {
		EXPECT_TRUE(acp_conn_eof(self->data[i])) TH_LOG("channel %u", i);
	}
}

/* Without data_final() every stream is final once finalize() returned. */
TEST_F(core, streams_are_final_at_stop_without_data_final)
{
	self->ops.data_final = NULL;
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	self->f.growing[MODULE_CHAN] = true;	/* nobody asks */
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
	EXPECT_FALSE(self->t.stop_pending);
	EXPECT_EQ(0, self->f.nfinal);
	for (u32 i = 0; i < self->ndata; i++)
		EXPECT_TRUE(acp_conn_eof(self->data[i]));
}

/*
 * INIT_DRIVER creates the streams: readers that waited for one before look
 * again (the kernel's bind the channel's ring then).
 */
TEST_F(core, init_driver_wakes_every_data_channel)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RESERVED);
	self->f.nwoken = 0;
	ASSERT_EQ(VT_SUCCESS, init_driver(_metadata, self, 0));
	for (u32 i = 0; i < self->ndata; i++) {
		EXPECT_EQ(1, fake_woken(&self->f, self->data[i])) TH_LOG("channel %u", i);
	}
	EXPECT_EQ(0, fake_woken(&self->f, self->ctl));
}

/* The module channel streams records during the collection, like a CPU. */
TEST_F(core, module_channel_streams_its_records)
{
	u32 chan = ~0u;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(FAKE_NCPUS, self->t.cfg.ncpus);
	fake_add_samples(&self->f, MODULE_CHAN, 200, 3);	/* INIT_DRIVER's */
	EXPECT_TRUE(acp_conn_stream(self->data[MODULE_CHAN], &chan));
	EXPECT_EQ(MODULE_CHAN, chan);
	expect_samples(_metadata, self, self->data[MODULE_CHAN], 200, 3, 11);
	ASSERT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	ASSERT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	fake_add_samples(&self->f, MODULE_CHAN, 88, 50);	/* an exit */
	expect_samples(_metadata, self, self->data[MODULE_CHAN], 88, 50, 0);
	/* Nothing for the uncore channel: it only ends. */
	expect_samples(_metadata, self, self->data[FAKE_NCPUS], 0, 0, 0);
}

/*
 * Spec 13's order: counters stopped, final module records added, every
 * channel read to its end, then the STOP answer; no byte of any data
 * channel is left when the answer becomes readable.
 */
TEST_F(core, stop_answers_after_every_channel_is_drained)
{
	const void *p;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++)
		fake_add_samples(&self->f, cpu, 40 + 8 * cpu, cpu);
	self->f.finalize_bytes = 160;
	self->f.finalize_seed = 90;
	self->f.nwoken = 0;
	stop_pending(_metadata, self);
	EXPECT_STREQ("sf", self->f.calls);	/* stop, then final records */
	EXPECT_EQ(160, fake_unread(&self->f, MODULE_CHAN));
	/* Every channel with something left is woken to send it. */
	for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++)
		EXPECT_EQ(1, fake_woken(&self->f, self->data[cpu]));
	EXPECT_EQ(1, fake_woken(&self->f, self->data[MODULE_CHAN]));
	EXPECT_EQ(0, fake_woken(&self->f, self->ctl));

	/* Channel by channel, in pieces: the answer waits for the last byte. */
	for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++) {
		expect_samples(_metadata, self, self->data[cpu], 40 + 8 * cpu,
			       cpu, 13);
		EXPECT_TRUE(self->t.stop_pending);
		EXPECT_EQ(0, acp_conn_peek(self->ctl, &p));
	}
	for (u32 got = 0; got < 159;) {
		u32 n = acp_conn_peek(self->data[MODULE_CHAN], &p);

		ASSERT_LT(0, n);
		n = n < 159 - got ? n : 159 - got;
		acp_conn_consume(self->data[MODULE_CHAN], n);
		got += n;
	}
	EXPECT_TRUE(self->t.stop_pending);
	EXPECT_EQ(0, acp_conn_peek(self->ctl, &p));
	EXPECT_EQ(1, acp_conn_peek(self->data[MODULE_CHAN], &p));
	acp_conn_consume(self->data[MODULE_CHAN], 1);
	/* It arrived with the one byte that was missing. */
	EXPECT_FALSE(self->t.stop_pending);
	EXPECT_EQ(1, fake_woken(&self->f, self->ctl));
	for (u32 i = 0; i < self->ndata; i++)
		EXPECT_EQ(0, fake_unread(&self->f, i));
	expect_response(_metadata, self, SEP_CMD_STOP, 0);
	for (u32 i = 0; i < self->ndata; i++) {
		EXPECT_TRUE(acp_conn_eof(self->data[i])) TH_LOG("channel %u", i);
	}
	EXPECT_TRUE(acp_conn_writable(self->ctl));
	EXPECT_EQ(SEP_STATE_STOPPED, driver_state(_metadata, self));
}

/* Nothing left anywhere: STOP answers at once, as before. */
TEST_F(core, stop_with_everything_read_answers_at_once)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_STOPPED);
	EXPECT_FALSE(self->t.stop_pending);
	EXPECT_EQ(0, fake_woken(&self->f, self->ctl));
	for (u32 i = 0; i < self->ndata; i++)
		EXPECT_TRUE(acp_conn_eof(self->data[i]));
}

/* A data channel's first message unread counts as not drained. */
TEST_F(core, stop_waits_for_unread_first_messages)
{
	struct sep_target_status_msg st;
	struct acp_conn *d;

	self->ctl = new_conn(self);
	ASSERT_EQ(0, hello_on(_metadata, self, self->ctl, 24, &st));
	d = new_conn(self);
	acp_conn_attach(d, &(struct acp_peer){ 0 });
	goto_state(_metadata, self, ACP_RUNNING);
	stop_pending(_metadata, self);
	tc_out_reset(&self->out);
	EXPECT_EQ(sizeof(struct sep_data_first_msg), tc_drain(d, &self->out, 0));
	EXPECT_FALSE(self->t.stop_pending);
	expect_response(_metadata, self, SEP_CMD_STOP, 0);
	EXPECT_TRUE(acp_conn_eof(d));
}

/*
 * While STOP waits, the control channel parses nothing (back-pressure, as
 * with any unread reply); what was sent meanwhile is answered after it,
 * in order, with the collection's exact figures.
 */
TEST_F(core, requests_during_stop_wait_for_its_answer)
{
	struct sep_control_msg_header h = tc_header(SEP_CMD_GET_NUM_SAMPLES, 0, 8);
	u64 total = 0, n;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	fake_add_samples(&self->f, 0, 48, 0);
	stop_pending(_metadata, self);
	EXPECT_EQ(0, acp_conn_input(self->ctl, &h, sizeof(h)));
	expect_samples(_metadata, self, self->data[0], 48, 0, 0);
	/* STOP's answer first, then the next request is taken. */
	expect_response(_metadata, self, SEP_CMD_STOP, 0);
	EXPECT_EQ(sizeof(h), acp_conn_input(self->ctl, &h, sizeof(h)));
	expect_response(_metadata, self, SEP_CMD_GET_NUM_SAMPLES, 8);
	memcpy(&n, self->out.buf + sizeof(h), 8);
	for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++)
		total += FAKE_WRITTEN(cpu);
	EXPECT_EQ(total, n);
	/* The rings stay until the session ends: drop figures are exact. */
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SAMPLE_DROP_INFO,
				  NULL, 0, sizeof(struct sep_sample_drop_info)));
	for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++) {
		EXPECT_EQ(FAKE_WRITTEN(cpu) + FAKE_DROPPED(cpu),
			  resp_u32(self, 4 + 16 * cpu + 8));
		EXPECT_EQ(FAKE_DROPPED(cpu), resp_u32(self, 4 + 16 * cpu + 12));
	}
	EXPECT_EQ(0, self->f.nfinish);
}

/* Control EOF while STOP waits: the session ends, no answer comes. */
TEST_F(core, control_hangup_while_stop_waits_ends_the_session)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	fake_add_samples(&self->f, 1, 64, 0);
	fake_add_samples(&self->f, MODULE_CHAN, 64, 0);
	stop_pending(_metadata, self);
	acp_conn_hangup(self->ctl);
	EXPECT_FALSE(self->t.stop_pending);
	EXPECT_EQ(NULL, self->t.control);
	EXPECT_EQ(1, self->f.nstop);
	EXPECT_EQ(1, self->f.nfinish);
	EXPECT_STREQ("sfF", self->f.calls);
	expect_eof(_metadata, self, self->ctl);
	EXPECT_EQ(0, self->out.total);	/* no STOP answer */
	for (u32 i = 0; i < self->ndata; i++) {
		expect_eof(_metadata, self, self->data[i]);
		EXPECT_EQ(0, self->out.total);
	}
	/* The next host starts afresh. */
	reinit(_metadata, self, FAKE_NCPUS);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_STOPPED);
}

/* The control file closed while STOP waits: same, nothing leaks. */
TEST_F(core, control_release_while_stop_waits_ends_the_session)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_PAUSED);
	fake_add_samples(&self->f, 0, 64, 0);
	stop_pending(_metadata, self);
	acp_conn_release(self->ctl);
	EXPECT_EQ(NULL, self->t.control);
	EXPECT_EQ(1, self->f.nfinish);
	for (u32 i = 0; i < self->ndata; i++)
		expect_eof(_metadata, self, self->data[i]);
}

/*
 * Channels the host never connected, or closed, count as drained; one
 * connected after STOP answered gets what its ring still holds, then EOF.
 */
TEST_F(core, unconnected_and_closed_channels_count_as_drained)
{
	struct sep_target_status_msg st;
	struct acp_conn *d[2], *late;
	struct sep_data_first_msg m;

	self->ctl = new_conn(self);
	ASSERT_EQ(0, hello_on(_metadata, self, self->ctl, 24, &st));
	for (u32 i = 0; i < 2; i++) {
		d[i] = new_conn(self);
		check_data_first(_metadata, self, d[i], i);
	}
	goto_state(_metadata, self, ACP_RUNNING);
	fake_add_samples(&self->f, 1, 32, 0);
	fake_add_samples(&self->f, 3, 32, 9);		/* nobody reads CPU 3 */
	self->f.finalize_bytes = 40;			/* nor the module channel */
	stop_pending(_metadata, self);
	/* CPU 1's reader goes away: its channel no longer holds STOP. */
	self->f.nwoken = 0;
	acp_conn_release(d[1]);
	EXPECT_FALSE(self->t.stop_pending);
	EXPECT_EQ(1, fake_woken(&self->f, self->ctl));
	expect_response(_metadata, self, SEP_CMD_STOP, 0);
	EXPECT_TRUE(acp_conn_eof(d[0]));

	/* Late channels: CPU 2 (nothing left), CPU 3 (its 32 bytes). */
	late = new_conn(self);
	tc_out_reset(&self->out);
	EXPECT_EQ(sizeof(m), tc_drain(late, &self->out, 0));
	EXPECT_TRUE(acp_conn_eof(late));
	late = new_conn(self);
	tc_out_reset(&self->out);
	EXPECT_EQ(sizeof(m) + 32, tc_drain(late, &self->out, 0));
	memcpy(&m, self->out.buf, sizeof(m));
	EXPECT_EQ(3, m.data_id);
	EXPECT_EQ(9, self->out.buf[sizeof(m)]);
	EXPECT_TRUE(acp_conn_eof(late));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
}

/*
 * A data channel first connected after STOP was answered is over before it
 * starts (spec 3.4: the host waits for EOF on every channel): its first
 * message, then EOF, and not before that message is read. Without data
 * streams, like core_fuzz's machine, whose model once missed this.
 */
TEST_F(core, channel_connected_after_stop_answer_ends_after_first_message)
{
	static const u8 junk[16] = "host talks here";
	struct sep_target_status_msg st;
	struct sep_data_first_msg m;
	struct acp_conn *late;
	const void *p;

	self->ops.data_peek = NULL;
	self->ops.data_consume = NULL;
	self->ctl = new_conn(self);
	ASSERT_EQ(0, hello_on(_metadata, self, self->ctl, 24, &st));
	for (u32 i = 0; i < FAKE_NCPUS + 1; i++)
		check_data_first(_metadata, self, new_conn(self), i);
	goto_state(_metadata, self, ACP_STOPPED);
	ASSERT_FALSE(self->t.stop_pending);

	late = new_conn(self);
	acp_conn_use(late);	/* its first read */
	EXPECT_EQ(sizeof(m), acp_conn_peek(late, &p));
	EXPECT_FALSE(acp_conn_eof(late));
	tc_out_reset(&self->out);
	ASSERT_EQ(sizeof(m), tc_drain(late, &self->out, 5));
	memcpy(&m, self->out.buf, sizeof(m));
	EXPECT_EQ(SEP_DATA_MODULE, m.data_type);
	EXPECT_TRUE(acp_conn_eof(late));
	/* What the host sends on it is dropped; it stays over. */
	EXPECT_EQ(sizeof(junk), acp_conn_input(late, junk, sizeof(junk)));
	EXPECT_EQ(0, acp_conn_peek(late, &p));
	EXPECT_TRUE(acp_conn_eof(late));
	/* The session itself goes on until the host ends it. */
	EXPECT_EQ(SEP_STATE_STOPPED, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
}

/* No data channel at all: STOP answers at once. */
TEST_F(core, stop_without_data_channels_answers_at_once)
{
	struct sep_target_status_msg st;

	self->ctl = new_conn(self);
	ASSERT_EQ(0, hello_on(_metadata, self, self->ctl, 24, &st));
	fake_add_samples(&self->f, 0, 48, 0);
	goto_state(_metadata, self, ACP_STOPPED);
	EXPECT_FALSE(self->t.stop_pending);
}

/* acp_conn_stream(): only once the queued bytes are read, only data. */
TEST_F(core, conn_stream_says_when_the_stream_comes_next)
{
	struct acp_conn *d;
	u32 chan = ~0u;

	open_session(_metadata, self);
	EXPECT_FALSE(acp_conn_stream(self->ctl, &chan));
	EXPECT_TRUE(acp_conn_stream(self->data[2], &chan));
	EXPECT_EQ(2, chan);
	/* A channel whose first message is unread: not yet. */
	reinit(_metadata, self, FAKE_NCPUS);
	self->ctl = new_conn(self);
	ASSERT_EQ(0, hello_on(_metadata, self, self->ctl, 24,
			      &(struct sep_target_status_msg){ 0 }));
	d = new_conn(self);
	acp_conn_attach(d, &(struct acp_peer){ 0 });
	EXPECT_FALSE(acp_conn_stream(d, &chan));
	tc_out_reset(&self->out);
	tc_drain(d, &self->out, 3);
	EXPECT_TRUE(acp_conn_stream(d, &chan));
	EXPECT_EQ(0, chan);
	/* Consuming stream bytes by hand, as splice does, is accounted. */
	fake_add_samples(&self->f, 0, 20, 0);
	acp_conn_consume(d, 20);
	EXPECT_EQ(0, fake_unread(&self->f, 0));
	EXPECT_EQ(0, self->f.misuse);
	/* Session over: the channel is detached, no stream any more. */
	acp_conn_hangup(self->ctl);
	EXPECT_FALSE(acp_conn_stream(d, &chan));
}

/* Delayed transfer (spec 3.3): switch bit 9, and nothing flows before STOP. */
TEST_F(core, delayed_transfer_holds_the_data_until_stop)
{
	struct sep_target_status_msg st;
	u32 chan;

	self->f.delayed = true;
	self->ctl = new_conn(self);
	ASSERT_EQ(0, hello_on(_metadata, self, self->ctl, 24, &st));
	EXPECT_EQ(SEP_SWITCH_DELAYED_TRANSFER, st.collect_switch.flags);
	EXPECT_TRUE(self->t.delayed);
	self->ndata = FAKE_NCPUS + 2;
	for (u32 i = 0; i < self->ndata; i++) {
		self->data[i] = new_conn(self);
		/* First messages still come at once. */
		check_data_first(_metadata, self, self->data[i], i);
	}
	goto_state(_metadata, self, ACP_RUNNING);
	fake_add_samples(&self->f, 0, 100, 1);
	fake_add_samples(&self->f, MODULE_CHAN, 80, 2);
	EXPECT_FALSE(acp_conn_stream(self->data[0], &chan));
	expect_samples(_metadata, self, self->data[0], 0, 0, 0);
	expect_samples(_metadata, self, self->data[MODULE_CHAN], 0, 0, 0);
	EXPECT_FALSE(acp_conn_eof(self->data[0]));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAUSE, NULL, 0, 0));
	expect_samples(_metadata, self, self->data[0], 0, 0, 0);

	/* STOP: the held data flows, then the answer. */
	self->f.finalize_bytes = 16;
	self->f.finalize_seed = 82;
	stop_pending(_metadata, self);
	EXPECT_EQ(1, fake_woken(&self->f, self->data[0]));
	EXPECT_EQ(1, fake_woken(&self->f, self->data[MODULE_CHAN]));
	EXPECT_TRUE(acp_conn_stream(self->data[0], &chan));
	expect_samples(_metadata, self, self->data[0], 100, 1, 0);
	EXPECT_TRUE(self->t.stop_pending);
	expect_samples(_metadata, self, self->data[MODULE_CHAN], 96, 2, 0);
	expect_response(_metadata, self, SEP_CMD_STOP, 0);
	for (u32 i = 0; i < self->ndata; i++)
		EXPECT_TRUE(acp_conn_eof(self->data[i]));
}

/* The mode is asked once per session, when it begins. */
TEST_F(core, delayed_transfer_is_read_at_session_start)
{
	struct sep_target_status_msg st;
	struct acp_conn *busy;

	open_session(_metadata, self);
	self->f.delayed = true;		/* too late for this session */
	EXPECT_FALSE(self->t.delayed);
	busy = new_conn(self);
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE,
		  hello_on(_metadata, self, busy, 24, &st));
	EXPECT_EQ(0, st.collect_switch.flags);
	acp_conn_hangup(self->ctl);
	self->ctl = new_conn(self);
	EXPECT_EQ(0, hello_on(_metadata, self, self->ctl, 24, &st));
	EXPECT_EQ(SEP_SWITCH_DELAYED_TRANSFER, st.collect_switch.flags);
}

/* fini() comes once, when the target goes, after the session's finish(). */
TEST_F(core, target_fini_tells_the_machine_last)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	for (u32 i = 0; i < self->nconns; i++)
		acp_conn_release(&self->conns[i]);
	self->nconns = 0;
	EXPECT_EQ(1, self->f.nfinish);
	EXPECT_EQ(0, self->f.nfini);
	acp_target_fini(&self->t);
	EXPECT_EQ(1, self->f.nfini);
	EXPECT_EQ(1, self->f.nfinish);
	acp_target_init(&self->t, &self->ops, &self->f);
}

TEST_HARNESS_MAIN
