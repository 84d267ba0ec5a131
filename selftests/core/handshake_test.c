// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, handshake: hello in, status message out (spec 2).
 * Its own program, build/tests/core_handshake_test, on the fixture every core
 * test program shares (core_fixture.h).
 */
#include "core_fixture.h"

TEST_F(core, hello_gets_full_status)
{
	struct sep_target_status_msg s;
	struct acp_conn *c = new_conn(self);
	u8 raw[296];
	u32 v;
	u64 q;

	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, c, 24, &s));
	check_status_layout(_metadata, &s, VT_SUCCESS);
	EXPECT_STREQ(FAKE_SYSNAME, s.os_info.sysname);
	EXPECT_STREQ(FAKE_RELEASE, s.os_info.release);
	EXPECT_EQ(0, s.os_info.os_family);
	EXPECT_EQ(0, s.os_info.reserved1);
	EXPECT_EQ(0, s.collect_switch.reserved2);
	EXPECT_EQ(FAKE_NCPUS, s.hardware_info.num_cpus);
	EXPECT_EQ(6, s.hardware_info.family);
	EXPECT_EQ(0x9e, s.hardware_info.model);
	EXPECT_EQ(10, s.hardware_info.stepping);
	EXPECT_EQ(FAKE_TSC_HZ, s.hardware_info.tsc_freq);
	EXPECT_FALSE(acp_conn_eof(c));
	EXPECT_TRUE(acp_conn_writable(c));

	/* The same facts at the byte offsets of spec 2.2. */
	memcpy(raw, self->out.buf, sizeof(raw));
#define AT32(off) (memcpy(&v, raw + (off), 4), v)
#define AT64(off) (memcpy(&q, raw + (off), 8), q)
	EXPECT_EQ(296, AT32(0));
	EXPECT_EQ(6, AT32(4));
	EXPECT_EQ(0, AT32(8));
	EXPECT_EQ(0, AT32(12));
	EXPECT_EQ(0, AT64(16));
	EXPECT_EQ(48, AT32(24));
	EXPECT_EQ(200, AT32(28));
	EXPECT_EQ(248, AT32(32));
	EXPECT_EQ(8, AT32(36));
	EXPECT_EQ(256, AT32(40));
	EXPECT_EQ(40, AT32(44));
	EXPECT_EQ(0, memcmp(raw + 48 + 8, "Linux", 6));
	EXPECT_EQ(0, AT32(248));
	EXPECT_EQ(FAKE_NCPUS, AT32(256));
	EXPECT_EQ(6, AT32(260));
	EXPECT_EQ(0x9e, AT32(264));
	EXPECT_EQ(10, AT32(268));
	EXPECT_EQ(FAKE_TSC_HZ, AT64(272));
	EXPECT_EQ(0, AT64(280));
	EXPECT_EQ(0, AT64(288));
#undef AT32
#undef AT64
}

TEST_F(core, long_uname_is_truncated_not_overrun)
{
	static const char r64[] =
		"0123456789012345678901234567890123456789012345678901234567890123";
	static const char r63[] =
		"012345678901234567890123456789012345678901234567890123456789012";
	struct sep_target_status_msg s;
	size_t n;

	ASSERT_GT(strlen(FAKE_VERSION), 64);
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, new_conn(self), 24, &s));
	EXPECT_EQ(63, strlen(s.os_info.version));
	EXPECT_EQ(0, strncmp(FAKE_VERSION, s.os_info.version, 63));
	/* The field after it (the switch) is untouched. */
	EXPECT_EQ(0, s.collect_switch.flags);
	EXPECT_EQ(0, s.collect_switch.reserved2);

	/* 64 characters lose the last; 63 fit; NULL is empty; zero-filled. */
	reinit(_metadata, self, FAKE_NCPUS);
	self->f.sysname = NULL;
	self->f.release = r64;
	self->f.version = r63;
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, new_conn(self), 24, &s));
	EXPECT_TRUE(tc_all_zero(s.os_info.sysname, sizeof(s.os_info.sysname)));
	EXPECT_EQ(63, strlen(s.os_info.release));
	EXPECT_EQ(0, strncmp(r64, s.os_info.release, 63));
	EXPECT_STREQ(r63, s.os_info.version);
	reinit(_metadata, self, FAKE_NCPUS);
	self->f.release = "6.1";
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, new_conn(self), 24, &s));
	n = strlen(s.os_info.release);
	EXPECT_EQ(3, n);
	EXPECT_TRUE(tc_all_zero(s.os_info.release + n, sizeof(s.os_info.release) - n));
}

/* Base family only, model with its extended bits, stepping (spec 2.2). */
TEST_F(core, hello_reports_cpuid_family_model_stepping)
{
	static const struct { u32 eax, family, model, stepping; } cases[] = {
		{ 0x000906ea, 6, 0x9e, 10 },
		{ 0x00090672, 6, 0x97, 2 },
		{ 0x00800f11, 0xf, 0x01, 1 },	/* extended family not added */
		{ 0x00050654, 6, 0x55, 4 },
	};
	struct sep_target_status_msg s;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reinit(_metadata, self, 2);
		self->f.cpuid1_eax = cases[i].eax;
		ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, new_conn(self), 24, &s));
		EXPECT_EQ(2, s.hardware_info.num_cpus);
		EXPECT_EQ(cases[i].family, s.hardware_info.family);
		EXPECT_EQ(cases[i].model, s.hardware_info.model);
		EXPECT_EQ(cases[i].stepping, s.hardware_info.stepping);
	}
}

TEST_F(core, v3_hello_is_not_compatible_and_closes)
{
	struct sep_target_status_msg s;
	struct acp_conn *c = new_conn(self);
	u8 junk[100] = { 0 };

	/* A v3 hello starts with its protocol version (spec 1.4). */
	ASSERT_EQ(VT_COMM_NOT_COMPATIBLE, hello_on(_metadata, self, c, 3, &s));
	check_status_layout(_metadata, &s, VT_COMM_NOT_COMPATIBLE);
	EXPECT_TRUE(acp_conn_eof(c));
	/* Whatever follows is swallowed and produces nothing. */
	EXPECT_EQ(sizeof(junk), acp_conn_input(c, junk, sizeof(junk)));
	EXPECT_TRUE(acp_conn_eof(c));
	EXPECT_TRUE(acp_conn_writable(c));
	/* The failed control took no session with it: the next host is served. */
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, new_conn(self), 24, &s));
}

TEST_F(core, every_wrong_hello_size_is_refused)
{
	static const u32 sizes[] = { 0, 1, 3, 6, 23, 25, 48, 296, 0x18000000, ~0u };
	struct sep_target_status_msg s;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct acp_conn *c = new_conn(self);

		EXPECT_EQ(VT_COMM_NOT_COMPATIBLE,
			  hello_on(_metadata, self, c, sizes[i], &s)) TH_LOG("msg_size %u", sizes[i]);
		EXPECT_TRUE(acp_conn_eof(c));
		EXPECT_EQ(0, self->f.live) TH_LOG("a refused hello keeps no session");
	}
}

/* Spec 2.1: only msg_size is checked, not the protocol version. */
TEST_F(core, hello_protocol_version_is_not_checked)
{
	struct sep_control_first_msg h = tc_hello(24);
	struct sep_target_status_msg s;
	struct acp_conn *c = new_conn(self);

	h.proto_version = 3;
	h.per_cpu_buffer_size = 12345;
	h.reserved2 = ~0ull;
	ASSERT_EQ(0, tc_feed(c, &h, sizeof(h), 0, &self->out));
	tc_out_reset(&self->out);
	ASSERT_EQ(296, tc_drain(c, &self->out, 0));
	memcpy(&s, self->out.buf, sizeof(s));
	EXPECT_EQ(VT_SUCCESS, s.status);
	EXPECT_EQ(SEP_PROTO_VERSION, s.proto_version);
}

/* Any fragmentation of the hello, any read size: the same 296 bytes. */
TEST_F(core, fragmented_hello_matches_whole)
{
	struct sep_control_first_msg h = tc_hello(24);
	struct sep_target_status_msg whole, s;
	const u8 *p = (const u8 *)&h;

	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, new_conn(self), 24, &whole));
	for (size_t frag = 1; frag <= sizeof(h); frag++) {
		struct acp_conn *c;

		reinit(_metadata, self, FAKE_NCPUS);
		c = new_conn(self);
		for (size_t off = 0; off < sizeof(h); off += frag) {
			size_t n = sizeof(h) - off < frag ? sizeof(h) - off : frag;
			const void *d;

			/* Nothing comes out before the last byte is in. */
			ASSERT_EQ(0, acp_conn_peek(c, &d));
			ASSERT_EQ(n, acp_conn_input(c, p + off, n));
		}
		tc_out_reset(&self->out);
		ASSERT_EQ(296, tc_drain(c, &self->out, frag));
		memcpy(&s, self->out.buf, sizeof(s));
		EXPECT_EQ(0, memcmp(&whole, &s, sizeof(s))) TH_LOG("fragments of %zu", frag);
	}
}

TEST_F(core, input_waits_while_reply_is_unread)
{
	struct sep_control_first_msg h = tc_hello(24);
	struct sep_control_msg_header req = tc_header(SEP_CMD_VERSION, 0, 4);
	struct acp_conn *c = new_conn(self);
	const void *d;
	u8 two[96];

	ASSERT_EQ(sizeof(h), acp_conn_input(c, &h, sizeof(h)));
	EXPECT_FALSE(acp_conn_writable(c));
	EXPECT_EQ(0, acp_conn_input(c, &req, sizeof(req)));
	/* Partial reads keep the rest queued. */
	ASSERT_EQ(296, acp_conn_peek(c, &d));
	acp_conn_consume(c, 100);
	EXPECT_FALSE(acp_conn_writable(c));
	EXPECT_EQ(0, acp_conn_input(c, &req, sizeof(req)));
	ASSERT_EQ(196, acp_conn_peek(c, &d));
	acp_conn_consume(c, 196);
	EXPECT_TRUE(acp_conn_writable(c));
	EXPECT_EQ(0, acp_conn_peek(c, &d));
	/* A request and the next one in one write: the first is answered. */
	memcpy(two, &req, 48);
	memcpy(two + 48, &req, 48);
	EXPECT_EQ(48, acp_conn_input(c, two, sizeof(two)));
	ASSERT_EQ(48, acp_conn_peek(c, &d));
	acp_conn_consume(c, 48);
	ASSERT_EQ(4, acp_conn_peek(c, &d));
	acp_conn_consume(c, 4);
	EXPECT_EQ(48, acp_conn_input(c, two + 48, 48));
	tc_out_reset(&self->out);
	EXPECT_EQ(52, tc_drain(c, &self->out, 0));
}

TEST_F(core, hangup_ends_after_pending_output)
{
	struct sep_control_first_msg h = tc_hello(24);
	struct acp_conn *c = new_conn(self);

	acp_conn_input(c, &h, sizeof(h));
	acp_conn_hangup(c);
	EXPECT_FALSE(acp_conn_eof(c));
	tc_out_reset(&self->out);
	ASSERT_EQ(296, tc_drain(c, &self->out, 0));
	EXPECT_TRUE(acp_conn_eof(c));
	EXPECT_EQ(0, self->f.live) TH_LOG("the session ended with the hangup");
}

TEST_F(core, hangup_before_hello_is_eof_without_output)
{
	struct sep_control_first_msg h = tc_hello(24);
	struct sep_target_status_msg s;
	struct acp_conn *c = new_conn(self);

	acp_conn_input(c, &h, 10);
	acp_conn_hangup(c);
	EXPECT_TRUE(acp_conn_eof(c));
	tc_out_reset(&self->out);
	EXPECT_EQ(0, tc_drain(c, &self->out, 0));
	/* The rest of the hello changes nothing. */
	EXPECT_EQ(14, acp_conn_input(c, (u8 *)&h + 10, 14));
	EXPECT_EQ(0, tc_drain(c, &self->out, 0));
	EXPECT_TRUE(acp_conn_eof(c));
	ASSERT_EQ(VT_SUCCESS, hello_on(_metadata, self, new_conn(self), 24, &s));
}

TEST_HARNESS_MAIN
