// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, connection roles (spec 3, 8.3): the first connection is the
 * control channel, the next N + 2 from the same host are the data channels
 * in order, anything else is turned away with 219.
 * Its own program, build/tests/core_roles_test, on the fixture every core
 * test program shares (core_fixture.h).
 */
#include <sys/socket.h>

#include "core_fixture.h"

static inline struct acp_peer ipv4_peer(u8 last)
{
	struct acp_peer p = { .family = AF_INET, .addr = { 10, 0, 0, last } };

	return p;
}

/* A connection turned away: 296 bytes of status 219, then EOF. */
static inline void expect_busy(struct __test_metadata *_metadata,
			       FIXTURE_DATA(core) *self, struct acp_conn *c)
{
	struct sep_target_status_msg s;
	u8 junk[64] = { 1 };

	ASSERT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, hello_on(_metadata, self, c, 24, &s));
	check_status_layout(_metadata, &s, VT_COMM_DATA_CHANNEL_UNAVAILABLE);
	EXPECT_TRUE(acp_conn_eof(c));
	EXPECT_EQ(sizeof(junk), acp_conn_input(c, junk, sizeof(junk)));
	tc_out_reset(&self->out);
	EXPECT_EQ(0, tc_drain(c, &self->out, 0));
}

TEST_F(core, data_channels_follow_control_in_order)
{
	struct sep_control_first_msg h = tc_hello(24);
	u8 junk[4096];

	open_session(_metadata, self);
	ASSERT_EQ(FAKE_NCPUS + 2, self->ndata);
	memset(junk, 0xa5, sizeof(junk));
	for (u32 i = 0; i < self->ndata; i++) {
		struct acp_conn *d = self->data[i];

		/* The test host's hello and anything else: swallowed. */
		EXPECT_TRUE(acp_conn_writable(d));
		EXPECT_EQ(sizeof(h), acp_conn_input(d, &h, sizeof(h)));
		EXPECT_EQ(sizeof(junk), acp_conn_input(d, junk, sizeof(junk)));
		tc_out_reset(&self->out);
		EXPECT_EQ(0, tc_drain(d, &self->out, 0));
		EXPECT_FALSE(acp_conn_eof(d));
	}
	/* The control channel is undisturbed. */
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
}

/* A data channel's hello is readable at once, before any input, in pieces. */
TEST_F(core, data_hello_is_readable_in_pieces)
{
	struct sep_data_first_msg m;
	struct acp_conn *d;
	u8 got[8];

	self->ctl = new_conn(self);
	acp_conn_attach(self->ctl, &(struct acp_peer){ 0 });
	d = new_conn(self);
	acp_conn_use(d);	/* its first read */
	for (u32 i = 0; i < sizeof(got); i++) {
		const void *p;

		ASSERT_EQ(sizeof(got) - i, acp_conn_peek(d, &p));
		got[i] = *(const u8 *)p;
		acp_conn_consume(d, 1);
	}
	memcpy(&m, got, sizeof(m));
	EXPECT_EQ(SEP_PROTO_VERSION, m.proto_version);
	EXPECT_EQ(SEP_DATA_CPU, m.data_type);
	EXPECT_EQ(0, m.data_id);
	EXPECT_FALSE(acp_conn_eof(d));
}

/* The test host connects everything before any hello (spec 3.1). */
TEST_F(core, explicit_peers_attach_before_hello)
{
	struct acp_peer a = ipv4_peer(1);
	struct sep_target_status_msg s;

	self->ctl = new_conn(self);
	acp_conn_attach(self->ctl, &a);
	for (u32 i = 0; i < FAKE_NCPUS + 2; i++) {
		self->data[i] = new_conn(self);
		acp_conn_attach(self->data[i], &a);
		/* A second attach changes nothing. */
		acp_conn_attach(self->data[i], &(struct acp_peer){ 0 });
	}
	self->ndata = FAKE_NCPUS + 2;
	for (u32 i = 0; i < self->ndata; i++)
		check_data_first(_metadata, self, self->data[i], i);
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, self->ctl, 24, &s));
	EXPECT_EQ(FAKE_NCPUS, s.hardware_info.num_cpus);
	EXPECT_EQ(FAKE_NCPUS, query(_metadata, self, SEP_CMD_NUM_CORES, 4));
}

/* A control channel whose hello fails takes its early channels with it. */
TEST_F(core, failed_hello_ends_the_channels_accepted_before_it)
{
	struct acp_peer a = ipv4_peer(1);
	struct sep_target_status_msg s;

	self->ctl = new_conn(self);
	acp_conn_attach(self->ctl, &a);
	self->ndata = 3;
	for (u32 i = 0; i < self->ndata; i++) {
		self->data[i] = new_conn(self);
		acp_conn_attach(self->data[i], &a);
	}
	ASSERT_EQ(VT_COMM_NOT_COMPATIBLE, hello_on(_metadata, self, self->ctl, 3, &s));
	EXPECT_TRUE(acp_conn_eof(self->ctl));
	for (u32 i = 0; i < self->ndata; i++) {
		EXPECT_EQ(1, fake_woken(&self->f, self->data[i]));
		/* The data hello that was queued still goes out, then EOF. */
		tc_out_reset(&self->out);
		EXPECT_EQ(sizeof(struct sep_data_first_msg),
			  tc_drain(self->data[i], &self->out, 0));
		EXPECT_EQ(i, self->out.buf[6]);
		EXPECT_TRUE(acp_conn_eof(self->data[i]));
	}
	EXPECT_EQ(0, self->f.live);
	/* The same host tries again: a new session, channels from CPU 0. */
	open_session(_metadata, self);
}

TEST_F(core, other_host_is_busy_and_takes_no_channel)
{
	struct acp_peer a = ipv4_peer(1), b = ipv4_peer(2);
	struct acp_peer a6 = a;
	struct acp_conn *x, *y, *z;

	a6.family = AF_INET6;
	self->ctl = new_conn(self);
	acp_conn_attach(self->ctl, &a);
	self->data[0] = new_conn(self);
	acp_conn_attach(self->data[0], &a);
	/* Another host while the channels are being accepted: busy. */
	x = new_conn(self);
	acp_conn_attach(x, &b);
	y = new_conn(self);
	acp_conn_attach(y, &a6);
	z = new_conn(self);			/* local: another host too */
	expect_busy(_metadata, self, x);
	expect_busy(_metadata, self, y);
	expect_busy(_metadata, self, z);
	/* The session's next connection is still CPU 1. */
	self->data[1] = new_conn(self);
	acp_conn_attach(self->data[1], &a);
	check_data_first(_metadata, self, self->data[0], 0);
	check_data_first(_metadata, self, self->data[1], 1);
}

TEST_F(core, connection_after_the_channels_is_busy)
{
	struct sep_target_status_msg s;
	struct acp_conn *x, *y;
	const void *p;

	open_session(_metadata, self);
	x = new_conn(self);
	/* Nothing to read before its hello. */
	EXPECT_EQ(0, acp_conn_peek(x, &p));
	EXPECT_FALSE(acp_conn_eof(x));
	expect_busy(_metadata, self, x);
	/* Even a bad hello: the hello check comes first. */
	y = new_conn(self);
	EXPECT_EQ(VT_COMM_NOT_COMPATIBLE, hello_on(_metadata, self, y, 3, &s));
	EXPECT_TRUE(acp_conn_eof(y));
	/* The busy ones go away without disturbing the session. */
	acp_conn_hangup(x);
	acp_conn_release(x);
	acp_conn_release(y);
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
	for (u32 i = 0; i < self->ndata; i++) {
		EXPECT_FALSE(acp_conn_eof(self->data[i]));
	}
	EXPECT_EQ(0, self->f.nwoken);
}

static inline void check_session_ended(struct __test_metadata *_metadata,
				       FIXTURE_DATA(core) *self)
{
	struct sep_target_status_msg s;
	struct acp_conn *next[FAKE_NCPUS + 3];

	for (u32 i = 0; i < self->ndata; i++) {
		EXPECT_EQ(1, fake_woken(&self->f, self->data[i])) TH_LOG("channel %u", i);
		expect_eof(_metadata, self, self->data[i]);
	}
	EXPECT_EQ(0, fake_woken(&self->f, self->ctl));
	EXPECT_EQ(self->ndata, self->f.nwoken);
	EXPECT_EQ(0, self->f.live) TH_LOG("the session's memory is freed");
	/* A new host gets a new session with channels from CPU 0 again. */
	next[0] = new_conn(self);
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, next[0], 24, &s));
	for (u32 i = 0; i < FAKE_NCPUS + 2; i++) {
		next[i + 1] = new_conn(self);
		check_data_first(_metadata, self, next[i + 1], i);
	}
	self->ctl = next[0];
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
}

TEST_F(core, control_hangup_ends_session)
{
	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	acp_conn_hangup(self->ctl);
	EXPECT_TRUE(acp_conn_eof(self->ctl));
	check_session_ended(_metadata, self);
}

TEST_F(core, control_hangup_with_reply_pending_ends_after_it)
{
	struct sep_control_msg_header h = tc_header(SEP_CMD_VERSION, 0, 4);

	open_session(_metadata, self);
	ASSERT_EQ(sizeof(h), acp_conn_input(self->ctl, &h, sizeof(h)));
	acp_conn_hangup(self->ctl);
	EXPECT_FALSE(acp_conn_eof(self->ctl));
	tc_out_reset(&self->out);
	EXPECT_EQ(52, tc_drain(self->ctl, &self->out, 0));
	EXPECT_TRUE(acp_conn_eof(self->ctl));
	check_session_ended(_metadata, self);
}

TEST_F(core, control_release_ends_session)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	acp_conn_release(self->ctl);
	check_session_ended(_metadata, self);
}

TEST_F(core, released_data_channel_is_left_alone)
{
	open_session(_metadata, self);
	acp_conn_release(self->data[1]);
	EXPECT_EQ(0, self->f.nwoken);
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
	acp_conn_hangup(self->ctl);
	for (u32 i = 0; i < self->ndata; i++) {
		EXPECT_EQ(i == 1 ? 0 : 1, fake_woken(&self->f, self->data[i]));
		expect_eof(_metadata, self, self->data[i]);
	}
	/* Releasing again, after the session, is harmless. */
	acp_conn_release(self->data[1]);
	acp_conn_release(self->data[2]);
	acp_conn_release(self->ctl);
}

TEST_F(core, data_channel_hangup_ends_only_itself)
{
	open_session(_metadata, self);
	acp_conn_hangup(self->data[0]);
	expect_eof(_metadata, self, self->data[0]);
	for (u32 i = 1; i < self->ndata; i++) {
		EXPECT_FALSE(acp_conn_eof(self->data[i]));
	}
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(FAKE_NCPUS, query(_metadata, self, SEP_CMD_NUM_CORES, 4));
	/* At the end it is not woken again: it was over already. */
	acp_conn_hangup(self->ctl);
	EXPECT_EQ(0, fake_woken(&self->f, self->data[0]));
	EXPECT_EQ(self->ndata - 1, self->f.nwoken);
}

/* A data channel that outlives its session belongs to no later session. */
TEST_F(core, old_data_channel_does_not_touch_next_session)
{
	struct acp_conn *old_data0;

	open_session(_metadata, self);
	old_data0 = self->data[0];
	acp_conn_release(self->ctl);
	open_session(_metadata, self);
	acp_conn_release(old_data0);
	EXPECT_EQ(0, fake_woken(&self->f, self->data[0]));
	EXPECT_FALSE(acp_conn_eof(self->data[0]));
	acp_conn_hangup(self->ctl);
	expect_eof(_metadata, self, self->data[0]);
	EXPECT_EQ(1, fake_woken(&self->f, self->data[0]));
}

TEST_F(core, sessions_follow_each_other)
{
	for (int i = 0; i < 5; i++) {
		open_session(_metadata, self);
		EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
		expect_eof(_metadata, self, self->ctl);
		for (u32 k = 0; k < self->ndata; k++)
			expect_eof(_metadata, self, self->data[k]);
		EXPECT_EQ((u64)i + 1, self->t.sessions);
		EXPECT_EQ(0, self->f.live);
	}
}

/* No memory for a session: that host is answered 219, the next one served. */
TEST_F(core, session_without_memory_turns_host_away)
{
	struct sep_target_status_msg s;
	struct acp_conn *c = new_conn(self);

	self->f.fail_at = self->f.nalloc + 1;
	expect_busy(_metadata, self, c);
	EXPECT_EQ(1, self->f.nfailed);
	EXPECT_EQ(0, self->f.live);
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, new_conn(self), 24, &s));
}

/* ---- who may join a session: its opener; roles only on real use ---- */

/* A connection opened by @opener (another process, in the kernel). */
static inline struct acp_conn *new_conn_of(FIXTURE_DATA(core) *self,
					   const void *opener)
{
	struct acp_conn *c = new_conn(self);

	acp_conn_init(c, &self->t, c, opener);
	acp_conn_set_privileged(c, !self->unprivileged);
	return c;
}

TEST_F(core, other_opener_with_the_session_address_is_busy)
{
	static const int other;
	struct acp_peer a = ipv4_peer(1);
	struct acp_conn *x;

	self->ctl = new_conn(self);
	ASSERT_TRUE(acp_conn_attach(self->ctl, &a));
	x = new_conn_of(self, &other);
	ASSERT_TRUE(acp_conn_attach(x, &a));
	EXPECT_EQ(ACP_ROLE_BUSY, x->role);
	EXPECT_EQ(0, self->t.ndata);
	expect_busy(_metadata, self, x);
	/* The session's own opener still gets channel 0. */
	self->data[0] = new_conn(self);
	ASSERT_TRUE(acp_conn_attach(self->data[0], &a));
	check_data_first(_metadata, self, self->data[0], 0);
}

TEST_F(core, other_opener_takes_no_channel_of_a_local_session)
{
	static const int other;
	struct sep_target_status_msg s;
	struct acp_conn *x;

	self->ctl = new_conn(self);
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, self->ctl, 24, &s));
	x = new_conn_of(self, &other);
	tc_out_reset(&self->out);
	EXPECT_EQ(0, tc_drain(x, &self->out, 0));	/* no first message */
	EXPECT_EQ(ACP_ROLE_BUSY, x->role);
	EXPECT_EQ(0, self->t.ndata);
}

TEST_F(core, peer_is_given_once)
{
	struct acp_peer a = ipv4_peer(1), b = ipv4_peer(2);
	struct acp_conn *d, *u;
	u8 junk[4] = { 0 };

	self->ctl = new_conn(self);
	ASSERT_TRUE(acp_conn_attach(self->ctl, &a));
	EXPECT_FALSE(acp_conn_attach(self->ctl, &a));
	EXPECT_FALSE(acp_conn_attach(self->ctl, &b));
	EXPECT_EQ(ACP_ROLE_CONTROL, self->ctl->role);
	d = new_conn(self);
	ASSERT_TRUE(acp_conn_attach(d, &a));
	EXPECT_FALSE(acp_conn_attach(d, &b));
	EXPECT_EQ(ACP_ROLE_DATA, d->role);
	EXPECT_EQ(0, memcmp(&a, &d->peer, sizeof(a)));
	EXPECT_EQ(1, self->t.ndata);
	/* A connection that took its role by being used has its peer too. */
	u = new_conn(self);
	EXPECT_EQ(sizeof(junk), acp_conn_input(u, junk, sizeof(junk)));
	EXPECT_FALSE(acp_conn_attach(u, &a));
	EXPECT_EQ(ACP_ROLE_BUSY, u->role);
	EXPECT_EQ(1, self->t.ndata);
}

TEST_F(core, queries_give_no_role)
{
	struct sep_target_status_msg s;
	struct acp_conn *q;
	const void *p = NULL;
	u32 chan;

	q = new_conn(self);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(0, acp_conn_peek(q, &p));
		EXPECT_TRUE(acp_conn_writable(q));
		EXPECT_FALSE(acp_conn_eof(q));
		EXPECT_FALSE(acp_conn_stream(q, &chan));
	}
	EXPECT_EQ(ACP_ROLE_NONE, q->role);
	EXPECT_EQ(NULL, self->t.control);
	EXPECT_EQ(0, self->t.sessions);
	EXPECT_EQ(0, self->f.live);
	/* The target is free for a real host... */
	self->ctl = new_conn(self);
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, self->ctl, 24, &s));
	/* ...and the polled connection's first read makes it channel 0. */
	check_data_first(_metadata, self, q, 0);
}

/* ---- and the same person (acp_conn_set_person(); issue 32) ---- */

/* A connection of the session's opener, on behalf of @person. */
static inline struct acp_conn *new_conn_for(FIXTURE_DATA(core) *self,
					    u64 person)
{
	struct acp_conn *c = new_conn(self);

	acp_conn_set_person(c, person);
	return c;
}

/* Another local user, through the same relay and the same address. */
TEST_F(core, other_person_with_the_session_address_is_busy)
{
	struct acp_peer a = ipv4_peer(1);
	struct acp_conn *x;

	self->ctl = new_conn_for(self, 1000);
	ASSERT_TRUE(acp_conn_attach(self->ctl, &a));
	x = new_conn_for(self, 65534);
	ASSERT_TRUE(acp_conn_attach(x, &a));
	EXPECT_EQ(ACP_ROLE_BUSY, x->role);
	EXPECT_EQ(0, self->t.ndata);
	expect_busy(_metadata, self, x);
	/* The session's own person still gets channel 0. */
	self->data[0] = new_conn_for(self, 1000);
	ASSERT_TRUE(acp_conn_attach(self->data[0], &a));
	check_data_first(_metadata, self, self->data[0], 0);
	EXPECT_EQ(1, self->t.ndata);
}

TEST_F(core, other_person_takes_no_channel_of_a_local_session)
{
	struct sep_target_status_msg s;
	struct acp_conn *x;

	self->ctl = new_conn_for(self, 0);
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, self->ctl, 24, &s));
	x = new_conn_for(self, 1000);
	tc_out_reset(&self->out);
	EXPECT_EQ(0, tc_drain(x, &self->out, 0));	/* no first message */
	EXPECT_EQ(ACP_ROLE_BUSY, x->role);
	EXPECT_EQ(0, self->t.ndata);
}

/* The person given last, before the first use, is the one that counts. */
TEST_F(core, person_replaced_before_use_decides)
{
	struct acp_peer a = ipv4_peer(1);
	struct acp_conn *d;

	self->ctl = new_conn_for(self, 1000);
	ASSERT_TRUE(acp_conn_attach(self->ctl, &a));
	d = new_conn_for(self, 0);
	acp_conn_set_person(d, 1000);
	ASSERT_TRUE(acp_conn_attach(d, &a));
	EXPECT_EQ(ACP_ROLE_DATA, d->role);
	EXPECT_EQ(1, self->t.ndata);
}

TEST_HARNESS_MAIN
