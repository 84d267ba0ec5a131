// SPDX-License-Identifier: GPL-2.0-only
/* Protocol core, handshake: hello in, status message out (spec 2). */
#include <string.h>

#include "kselftest_harness.h"
#include "../../driver/core/core.h"

#define LONG_VERSION "#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-11-01) x86_64 and more"

static const char *t_sysname(void *ctx) { return "Linux"; }
static const char *t_release(void *ctx) { return "6.12.117+deb12-amd64"; }
static const char *t_version(void *ctx) { return LONG_VERSION; }
static u32 t_num_cpus(void *ctx) { return 4; }
static u64 t_tsc_hz(void *ctx) { return 2112000000ull; }

/* CPUID(1).EAX of a Coffee Lake part: family 6, model 0x9e, stepping 10. */
static void t_cpuid(void *ctx, u32 leaf, u32 sub, u32 r[4])
{
	memset(r, 0, 4 * sizeof(*r));
	if (leaf == 1)
		r[0] = 0x000906ea;
}

static const struct acp_ops test_ops = {
	.sysname = t_sysname, .release = t_release, .version = t_version,
	.num_cpus = t_num_cpus, .cpuid = t_cpuid, .tsc_hz = t_tsc_hz,
};

static void make_hello(struct sep_control_first_msg *h, u32 size)
{
	memset(h, 0, sizeof(*h));
	h->msg_size = size;
	h->proto_version = SEP_PROTO_VERSION;
}

/* Drain all pending output into @buf; returns its length. */
static size_t drain(struct acp_conn *c, void *buf, size_t cap)
{
	const void *data;
	size_t n = acp_conn_peek(c, &data);

	if (n > cap)
		n = cap;
	memcpy(buf, data, n);
	acp_conn_consume(c, n);
	return n;
}

FIXTURE(conn) {
	struct acp_conn c;
	struct sep_control_first_msg hello;
	struct sep_target_status_msg status;
};

FIXTURE_SETUP(conn)
{
	acp_conn_init(&self->c, &test_ops, NULL);
	make_hello(&self->hello, sizeof(self->hello));
}

FIXTURE_TEARDOWN(conn) {}

TEST_F(conn, good_hello_gets_full_status)
{
	struct sep_target_status_msg *s = &self->status;

	ASSERT_EQ(sizeof(self->hello),
		  acp_conn_input(&self->c, &self->hello, sizeof(self->hello)));
	ASSERT_EQ(296, drain(&self->c, s, sizeof(*s)));
	EXPECT_EQ(296, s->msg_size);
	EXPECT_EQ(6, s->proto_version);
	EXPECT_EQ(0, s->status);
	EXPECT_EQ(48, s->os_info_offset);
	EXPECT_EQ(200, s->os_info_size);
	EXPECT_EQ(248, s->collect_switch_offset);
	EXPECT_EQ(8, s->collect_switch_size);
	EXPECT_EQ(256, s->hardware_info_offset);
	EXPECT_EQ(40, s->hardware_info_size);
	EXPECT_STREQ("Linux", s->os_info.sysname);
	EXPECT_STREQ("6.12.117+deb12-amd64", s->os_info.release);
	EXPECT_EQ(0, s->collect_switch.flags);
	EXPECT_EQ(4, s->hardware_info.num_cpus);
	EXPECT_EQ(6, s->hardware_info.family);
	EXPECT_EQ(0x9e, s->hardware_info.model);
	EXPECT_EQ(10, s->hardware_info.stepping);
	EXPECT_EQ(2112000000ull, s->hardware_info.tsc_freq);
	EXPECT_FALSE(acp_conn_eof(&self->c));
}

TEST_F(conn, long_uname_is_truncated_not_overrun)
{
	struct sep_target_status_msg *s = &self->status;

	acp_conn_input(&self->c, &self->hello, sizeof(self->hello));
	ASSERT_EQ(296, drain(&self->c, s, sizeof(*s)));
	EXPECT_EQ(63, strlen(s->os_info.version));
	EXPECT_EQ(0, strncmp(LONG_VERSION, s->os_info.version, 63));
	/* The field after it (the switch) must be untouched. */
	EXPECT_EQ(0, s->collect_switch.flags);
	EXPECT_EQ(0, s->collect_switch.reserved2);
}

TEST_F(conn, byte_by_byte_hello_matches_whole)
{
	struct sep_target_status_msg whole;
	const u8 *p = (const u8 *)&self->hello;
	struct acp_conn other;

	for (size_t i = 0; i < sizeof(self->hello); i++) {
		ASSERT_EQ(0, acp_conn_peek(&self->c, &(const void *){ 0 }));
		ASSERT_EQ(1, acp_conn_input(&self->c, p + i, 1));
	}
	ASSERT_EQ(296, drain(&self->c, &self->status, sizeof(self->status)));
	acp_conn_init(&other, &test_ops, NULL);
	acp_conn_input(&other, &self->hello, sizeof(self->hello));
	ASSERT_EQ(296, drain(&other, &whole, sizeof(whole)));
	EXPECT_EQ(0, memcmp(&whole, &self->status, sizeof(whole)));
}

TEST_F(conn, v3_hello_is_not_compatible_and_closes)
{
	u8 junk[100] = { 0 };

	make_hello(&self->hello, 3);	/* a v3 hello starts with its version */
	acp_conn_input(&self->c, &self->hello, sizeof(self->hello));
	ASSERT_EQ(296, drain(&self->c, &self->status, sizeof(self->status)));
	EXPECT_EQ(218, self->status.status);
	EXPECT_EQ(296, self->status.msg_size);
	EXPECT_TRUE(acp_conn_eof(&self->c));
	/* Whatever follows is swallowed and produces nothing. */
	EXPECT_EQ(sizeof(junk), acp_conn_input(&self->c, junk, sizeof(junk)));
	EXPECT_TRUE(acp_conn_eof(&self->c));
}

TEST_F(conn, input_waits_while_reply_is_unread)
{
	u8 more[8] = { 0 };

	acp_conn_input(&self->c, &self->hello, sizeof(self->hello));
	EXPECT_FALSE(acp_conn_writable(&self->c));
	EXPECT_EQ(0, acp_conn_input(&self->c, more, sizeof(more)));
	/* Partial reads keep the rest queued. */
	EXPECT_EQ(100, drain(&self->c, &self->status, 100));
	EXPECT_FALSE(acp_conn_writable(&self->c));
	EXPECT_EQ(196, drain(&self->c, (u8 *)&self->status + 100, 1000));
	EXPECT_TRUE(acp_conn_writable(&self->c));
	EXPECT_EQ(296, self->status.msg_size);
}

TEST_F(conn, hangup_ends_after_pending_output)
{
	acp_conn_input(&self->c, &self->hello, sizeof(self->hello));
	acp_conn_hangup(&self->c);
	EXPECT_FALSE(acp_conn_eof(&self->c));
	ASSERT_EQ(296, drain(&self->c, &self->status, sizeof(self->status)));
	EXPECT_TRUE(acp_conn_eof(&self->c));
}

TEST_F(conn, hangup_before_hello_is_eof_without_output)
{
	acp_conn_input(&self->c, &self->hello, 10);
	acp_conn_hangup(&self->c);
	EXPECT_TRUE(acp_conn_eof(&self->c));
	EXPECT_EQ(0, drain(&self->c, &self->status, sizeof(self->status)));
}

TEST_HARNESS_MAIN
