// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, sample delivery (spec 3.3, 3.4, 13): a CPU data channel
 * streams its CPU's sample bytes after its first message, is woken when
 * the sampler says there are some, and after STOP reaches EOF only once
 * every byte is read. Session end drops what is left.
 * Part of core_test.c (see there); compiles to nothing on its own.
 */
#ifdef ACA_CORE_TEST_UNIT

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

TEST_F(core, cpu_channel_streams_its_samples_then_eof_after_stop)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	fake_add_samples(&self->f, 1, 100, 7);
	fake_add_samples(&self->f, 2, 48, 200);

	/* The sampler's wake-up reaches that CPU's channel only. */
	acp_data_ready(&self->t, 1);
	EXPECT_EQ(1, fake_woken(&self->f, self->data[1]));
	EXPECT_EQ(0, fake_woken(&self->f, self->data[2]));
	/* In pieces of any size, across the pieces the sampler gives. */
	expect_samples(_metadata, self, self->data[1], 100, 7, 7);
	EXPECT_FALSE(acp_conn_eof(self->data[1]));
	expect_samples(_metadata, self, self->data[0], 0, 0, 0);

	fake_add_samples(&self->f, 1, 60, 107);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
	EXPECT_EQ(1, self->f.nstop);
	/* Stopped, but samples are still unread: not over yet. */
	EXPECT_FALSE(acp_conn_eof(self->data[1]));
	EXPECT_FALSE(acp_conn_eof(self->data[2]));
	expect_samples(_metadata, self, self->data[1], 60, 107, 0);
	EXPECT_TRUE(acp_conn_eof(self->data[1]));
	expect_samples(_metadata, self, self->data[2], 48, 200, 5);
	EXPECT_TRUE(acp_conn_eof(self->data[2]));
	/* Empty CPU channels, uncore and module end at once. */
	EXPECT_TRUE(acp_conn_eof(self->data[0]));
	EXPECT_TRUE(acp_conn_eof(self->data[3]));
	EXPECT_TRUE(acp_conn_eof(self->data[FAKE_NCPUS]));
	EXPECT_TRUE(acp_conn_eof(self->data[FAKE_NCPUS + 1]));
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
	acp_conn_hangup(self->ctl);
	EXPECT_EQ(1, self->f.nstop);
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

/* Wake-ups for CPUs with no channel, or no session, go nowhere. */
TEST_F(core, data_ready_without_a_reader_is_harmless)
{
	acp_data_ready(&self->t, 0);
	open_session(_metadata, self);
	acp_data_ready(&self->t, FAKE_NCPUS);		/* the uncore channel */
	acp_data_ready(&self->t, FAKE_NCPUS + 1);	/* the module channel */
	acp_data_ready(&self->t, 1000);
	EXPECT_EQ(0, self->f.nwoken);
	acp_conn_release(self->data[2]);
	acp_data_ready(&self->t, 2);
	EXPECT_EQ(0, self->f.nwoken);
	acp_data_ready(&self->t, 3);
	EXPECT_EQ(1, fake_woken(&self->f, self->data[3]));
}

#endif /* ACA_CORE_TEST_UNIT */
