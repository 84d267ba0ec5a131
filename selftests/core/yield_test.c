// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, a session that yields the target (issue 49): an
 * unprivileged session cannot sample, only hold the target, so it ends
 * at once for a host or a local trace that may sample, and for anyone
 * once its control channel has sent no request for session_idle_s; a
 * privileged session never yields. The host that held it sees its
 * control channel end, and the log says who took the target and why.
 * Its own program, build/tests/core_yield_test, on the fixture every core
 * test program shares (core_fixture.h).
 */
#include "core_fixture.h"

#define IDLE_S	60

#define YIELD_PRIV_LOG \
	"a privileged host, which may sample, ended the unprivileged host session"
#define YIELD_IDLE_LOG \
	"another host ended the unprivileged host session: no request for"

/* An unprivileged session, its clock stopped; session_idle_s IDLE_S. */
static inline void unprivileged_session(struct __test_metadata *_metadata,
					FIXTURE_DATA(core) *self)
{
	self->f.session_idle_s = IDLE_S;
	self->f.tsc_frozen = true;
	self->unprivileged = true;
	open_session(_metadata, self);
}

static inline void idle_for(FIXTURE_DATA(core) *self, u64 s)
{
	self->f.tsc += s * FAKE_TSC_HZ;
}

/* A new host's hello, privileged or not: its status. */
static inline s32 new_host(struct __test_metadata *_metadata,
			   FIXTURE_DATA(core) *self, bool privileged)
{
	struct sep_target_status_msg st;
	struct acp_conn *c;

	self->unprivileged = !privileged;
	c = new_conn(self);
	return hello_on(_metadata, self, c, sizeof(struct sep_control_first_msg), &st);
}

/* The session that held the target: every channel of it ended. */
static inline void expect_ended(struct __test_metadata *_metadata,
				FIXTURE_DATA(core) *self)
{
	expect_eof(_metadata, self, self->ctl);
	for (u32 i = 0; i < self->ndata; i++)
		expect_eof(_metadata, self, self->data[i]);
}

TEST_F(core, unprivileged_session_yields_to_a_privileged_host)
{
	unprivileged_session(_metadata, self);
	EXPECT_EQ(VT_SUCCESS, new_host(_metadata, self, true));
	expect_ended(_metadata, self);
	EXPECT_EQ(1, fake_log_count(&self->f, YIELD_PRIV_LOG));
}

/* The new session is privileged: it may reserve and configure. */
TEST_F(core, the_privileged_host_gets_a_whole_session)
{
	unprivileged_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, new_host(_metadata, self, true));
	self->ctl = &self->conns[self->nconns - 1];
	EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
}

TEST_F(core, unprivileged_session_holds_within_its_idle_limit)
{
	unprivileged_session(_metadata, self);
	idle_for(self, IDLE_S - 1);
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, new_host(_metadata, self, false));
	EXPECT_FALSE(acp_conn_eof(self->ctl));
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
}

TEST_F(core, idle_unprivileged_session_yields_to_any_host)
{
	unprivileged_session(_metadata, self);
	idle_for(self, IDLE_S);
	EXPECT_EQ(VT_SUCCESS, new_host(_metadata, self, false));
	expect_ended(_metadata, self);
	EXPECT_EQ(1, fake_log_count(&self->f, YIELD_IDLE_LOG));
	EXPECT_EQ(1, fake_log_count(&self->f, "session_idle_s is 60"));
}

TEST_F(core, a_request_restarts_the_idle_clock)
{
	unprivileged_session(_metadata, self);
	idle_for(self, IDLE_S - 10);
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
	idle_for(self, IDLE_S - 10);
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, new_host(_metadata, self, false));
	EXPECT_FALSE(acp_conn_eof(self->ctl));
}

TEST_F(core, no_idle_limit_when_it_is_zero)
{
	unprivileged_session(_metadata, self);
	self->f.session_idle_s = 0;
	idle_for(self, 1000000);
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, new_host(_metadata, self, false));
	EXPECT_FALSE(acp_conn_eof(self->ctl));
}

TEST_F(core, privileged_session_never_yields)
{
	self->f.session_idle_s = IDLE_S;
	self->f.tsc_frozen = true;
	open_session(_metadata, self);
	idle_for(self, 1000000);
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, new_host(_metadata, self, true));
	EXPECT_FALSE(acp_conn_eof(self->ctl));
	EXPECT_FALSE(acp_local_claim(&self->t));
	EXPECT_EQ(0, self->f.nlogs);
}

TEST_F(core, unprivileged_session_yields_to_a_local_trace)
{
	unprivileged_session(_metadata, self);
	ASSERT_TRUE(acp_local_claim(&self->t));
	expect_ended(_metadata, self);
	EXPECT_EQ(1, fake_log_count(&self->f, "a local trace, which may sample, ended"));
	/* Hosts are busy while the trace holds the sampler. */
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, new_host(_metadata, self, true));
	acp_local_release(&self->t);
}

/* What the old control channel still says is swallowed, unanswered. */
TEST_F(core, the_ended_session_answers_nothing_more)
{
	struct sep_control_msg_header h = tc_header(SEP_CMD_VERSION, 0, 4);

	unprivileged_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, new_host(_metadata, self, true));
	expect_eof(_metadata, self, self->ctl);
	EXPECT_EQ(sizeof(h), acp_conn_input(self->ctl, &h, sizeof(h)));
	tc_out_reset(&self->out);
	EXPECT_EQ(0, tc_drain(self->ctl, &self->out, 0));
}

TEST_HARNESS_MAIN
