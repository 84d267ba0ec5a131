// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, malformed input: bad headers, absurd sizes, payloads out of
 * bounds, peers that vanish mid-request, and allocations that fail.
 * Its own program, build/tests/core_malformed_test, on the fixture every core
 * test program shares (core_fixture.h).
 */
#include "core_fixture.h"

/* Spec 4.1 rule 5: payload consumed, command skipped, status 218. */
TEST_F(core, wrong_header_size_is_not_compatible)
{
	static const u32 sizes[] = { 0, 24, 47, 49, 96, 0x30000000, ~0u };
	u8 payload[100];

	memset(payload, 0x30, sizeof(payload));
	open_session(_metadata, self);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (u32 n = 0; n <= sizeof(payload); n += sizeof(payload)) {
			struct sep_control_msg_header h = tc_header(SEP_CMD_RESERVE, n, 4);

			h.header_size = sizes[i];
			ASSERT_EQ(0, tc_request(self->ctl, &self->out, &h, payload, n, 7, &self->r));
			check_framing(_metadata, &self->r, SEP_CMD_RESERVE, 4);
			EXPECT_EQ(VT_COMM_NOT_COMPATIBLE, self->r.h.status)
				TH_LOG("header_size %u, payload %u", sizes[i], n);
			/* Even command 0: only a good header is silent. */
			h.command_id = SEP_CMD_NONE;
			ASSERT_EQ(0, tc_request(self->ctl, &self->out, &h, payload, n, 0, &self->r));
			check_framing(_metadata, &self->r, SEP_CMD_NONE, 4);
			EXPECT_EQ(VT_COMM_NOT_COMPATIBLE, self->r.h.status);
		}
	}
	/* The command was skipped: nothing reserved. The stream is in step. */
	EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
}

/*
 * Spec 13: a payload above the cap ends the session, and nothing of that
 * size is ever allocated.
 */
TEST_F(core, payload_above_the_cap_ends_the_session)
{
	static const u64 sizes[] = { ACP_MAX_PAYLOAD + 1ull, 1ull << 30, 1ull << 40, ~0ull };
	static const struct { u32 id, header_size; } reqs[] = {
		{ SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO, 48 },	/* no bound of its own */
		{ SEP_CMD_EM_CONFIG_NEXT, 48 },
		{ SEP_CMD_NONE, 48 },
		{ SEP_CMD_VERSION, 0 },
		{ 12345, 48 },
	};
	u8 junk[100] = { 0 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (size_t k = 0; k < sizeof(reqs) / sizeof(reqs[0]); k++) {
			struct sep_control_msg_header h = tc_header(reqs[k].id, sizes[i], 8);

			h.header_size = reqs[k].header_size;
			open_session(_metadata, self);
			goto_state(_metadata, self, ACP_RESERVED);
			self->f.nwoken = 0;
			ASSERT_EQ(0, tc_request(self->ctl, &self->out, &h, NULL, 0, 5, &self->r));
			check_framing(_metadata, &self->r, reqs[k].id, 8);
			EXPECT_EQ(VT_COMM_NOT_COMPATIBLE, self->r.h.status)
				TH_LOG("command %u, %llu bytes", reqs[k].id, (unsigned long long)sizes[i]);
			EXPECT_TRUE(acp_conn_eof(self->ctl));
			EXPECT_EQ(sizeof(junk), acp_conn_input(self->ctl, junk, sizeof(junk)));
			expect_eof(_metadata, self, self->ctl);
			EXPECT_EQ(0, self->out.total);
			for (u32 d = 0; d < self->ndata; d++)
				expect_eof(_metadata, self, self->data[d]);
			EXPECT_EQ(self->ndata, self->f.nwoken);
			EXPECT_EQ(0, self->f.live);
			EXPECT_GE(ACP_MAX_PAYLOAD, self->f.largest);
			EXPECT_LE(1, fake_log_count(&self->f, "session ended"));
		}
	}
	/* And the next host is served, with the reservation released. */
	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
}

TEST_F(core, payload_at_the_cap_is_taken)
{
	u8 *big = calloc(1, ACP_MAX_PAYLOAD);

	ASSERT_NE(NULL, big);
	open_session(_metadata, self);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO,
				  big, ACP_MAX_PAYLOAD, 0));
	EXPECT_EQ(ACP_MAX_PAYLOAD, self->f.largest);
	/* Bounded commands refuse it, but the stream stays in step. */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_VERSION, big, ACP_MAX_PAYLOAD, 4));
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
	free(big);
}

TEST_F(core, reply_above_the_cap_is_refused)
{
	static const u32 ids[] = {
		SEP_CMD_VERSION, SEP_CMD_PAX_INFO, SEP_CMD_GET_SYS_CONFIG,
		SEP_CMD_GET_PLATFORM_INFO, SEP_CMD_TSC_SKEW_INFO, SEP_CMD_GET_PERF_CAPAB,
		SEP_CMD_READ_MSR, SEP_CMD_RESERVE, 200, SEP_CMD_TERMINATE,
	};
	static const u64 asks[] = { ACP_MAX_REPLY + 1ull, 1ull << 40, ~0ull };
	u32 msr = 0x38f;

	open_session(_metadata, self);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		for (size_t k = 0; k < sizeof(asks) / sizeof(asks[0]); k++) {
			bool in = ids[i] == SEP_CMD_READ_MSR;

			EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, ids[i], in ? &msr : NULL,
						  in ? 4 : 0, asks[k])) TH_LOG("command %u", ids[i]);
			EXPECT_EQ(48, self->r.total);
			EXPECT_GE(ACP_MAX_PAYLOAD, self->f.largest);
		}
	}
	/* Not reserved, not terminated. */
	EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
	EXPECT_FALSE(acp_conn_eof(self->ctl));
	/* The largest reply there is: zeros streamed, never allocated. */
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAX_INFO, NULL, 0, ACP_MAX_REPLY));
	EXPECT_EQ(48 + (u64)ACP_MAX_REPLY, self->r.total);
	EXPECT_TRUE(tc_all_zero(self->r.data, self->out.len - 48));
	EXPECT_GE(ACP_MAX_PAYLOAD, self->f.largest);
}

/* Every bounded payload, one byte short and one byte long: 159. */
/* Every command's payload bounds: one byte outside is 159 and changes nothing. */
TEST_F(core, payload_out_of_bounds_is_refused_and_changes_nothing)
{
	static const struct {
		u32 id, min, max, out;
		enum acp_state state;
	} cmds[] = {
		{ SEP_CMD_RESERVE, 0, 0, 4, ACP_IDLE },
		{ SEP_CMD_TERMINATE, 0, 0, 0, ACP_IDLE },
		{ SEP_CMD_PAUSE, 0, 0, 0, ACP_IDLE },
		{ SEP_CMD_RESUME, 0, 0, 0, ACP_IDLE },
		{ SEP_CMD_GET_DRIVER_STATE, 0, 0, 4, ACP_IDLE },
		{ SEP_CMD_VERSION, 0, 0, 4, ACP_IDLE },
		{ SEP_CMD_GET_DRV_SETUP_INFO, 0, 0, 32, ACP_IDLE },
		{ SEP_CMD_NUM_CORES, 0, 0, 4, ACP_IDLE },
		{ SEP_CMD_GET_NORMALIZED_TSC, 0, 0, 8, ACP_IDLE },
		{ SEP_CMD_GET_NORMALIZED_TSC_STANDALONE, 0, 0, 8, ACP_IDLE },
		{ SEP_CMD_TSC_SKEW_INFO, 0, 0, 32, ACP_IDLE },
		{ SEP_CMD_COLLECT_SYS_CONFIG, 0, 0, 4, ACP_IDLE },
		{ SEP_CMD_GET_SYS_CONFIG, 0, 0, 100, ACP_IDLE },
		{ SEP_CMD_KERNEL_CS, 0, 0, 4, ACP_IDLE },
		{ SEP_CMD_GET_NUM_CORE_CTRS, 0, 0, 4, ACP_IDLE },
		{ SEP_CMD_GET_PERF_CAPAB, 0, 0, 32, ACP_IDLE },
		{ SEP_CMD_GET_NUM_SAMPLES, 0, 0, 8, ACP_IDLE },
		{ SEP_CMD_GET_SAMPLE_DROP_INFO, 0, 0, 324, ACP_IDLE },
		{ SEP_CMD_GET_THREAD_COUNT, 0, 0, 4, ACP_IDLE },
		{ SEP_CMD_SET_OSID, 0, 4, 0, ACP_IDLE },
		{ SEP_CMD_PAX_INFO, 0, 0, 32, ACP_IDLE },
		{ SEP_CMD_CONTROL_DRIVER_LOG, 8, ACP_MAX_PAYLOAD, 0, ACP_IDLE },
		{ SEP_CMD_GET_DRIVER_LOG, 0, 0, 16, ACP_IDLE },
		{ SEP_CMD_READ_MSR, 4, 4, 32, ACP_IDLE },
		{ SEP_CMD_WRITE_MSR, 136, 136, 0, ACP_IDLE },
		{ SEP_CMD_INIT_NUM_DEV, 4, 4, 0, ACP_IDLE },
		{ SEP_CMD_SET_DEVICE_NUM_UNITS, 0, 4, 0, ACP_IDLE },
		{ SEP_CMD_INIT, 4080, 4080, 0, ACP_IDLE },
		{ SEP_CMD_INIT_DRIVER, 64, ACP_MAX_PAYLOAD, 0, ACP_RESERVED },
		{ SEP_CMD_SET_CPU_TOPOLOGY, 72, ACP_MAX_PAYLOAD, 0, ACP_CONFIGURED },
		{ SEP_CMD_NUM_DESCRIPTOR, 4, 4, 0, ACP_CONFIGURED },
		{ SEP_CMD_DESC_NEXT, 112, 112, 0, ACP_CONFIGURED },
		{ SEP_CMD_EM_GROUPS, 144, 144, 0, ACP_CONFIGURED },
		{ SEP_CMD_EM_CONFIG_NEXT, 1728, ACP_MAX_PAYLOAD, 0, ACP_CONFIGURED },
		{ SEP_CMD_INIT_PMU, 0, 4, 0, ACP_CONFIGURED },
		{ SEP_CMD_INIT_UNC, 4048, 4048, 0, ACP_CONFIGURED },
		{ SEP_CMD_EM_GROUPS_UNC, 144, 144, 0, ACP_CONFIGURED },
		{ SEP_CMD_EM_CONFIG_NEXT_UNC, 1728, ACP_MAX_PAYLOAD, 0, ACP_CONFIGURED },
		{ SEP_CMD_START, 0, 0, 0, ACP_CONFIGURED },
		{ SEP_CMD_STOP, 0, 0, 0, ACP_RUNNING },
	};
	static u8 zeros[8192];
	enum acp_state at = ACP_STOPPED;

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		u32 state;

		if (cmds[i].state != at) {
			if (self->ctl)
				acp_conn_release(self->ctl);
			open_session(_metadata, self);
			goto_state(_metadata, self, cmds[i].state);
			at = cmds[i].state;
		}
		state = driver_state(_metadata, self);
		if (cmds[i].min) {
			EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, cmds[i].id, zeros,
							     cmds[i].min - 1, cmds[i].out))
				TH_LOG("command %u, %u bytes", cmds[i].id, cmds[i].min - 1);
		}
		if (cmds[i].max < ACP_MAX_PAYLOAD) {
			EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, cmds[i].id, zeros,
							     cmds[i].max + 1, cmds[i].out))
				TH_LOG("command %u, %u bytes", cmds[i].id, cmds[i].max + 1);
		}
		/* A refused command changes nothing: not even TERMINATE ends. */
		EXPECT_EQ(state, driver_state(_metadata, self)) TH_LOG("command %u", cmds[i].id);
		EXPECT_FALSE(acp_conn_eof(self->ctl));
	}
	EXPECT_LT(0, fake_log_count(&self->f, "payload of"));
}

/*
 * A reply buffer too small for the answer: 159, and the command not run.
 * Each command's smallest answer as protocol.md 4.4's table types it: a
 * U32 or S32 is 4 bytes, a U64 8, DRV_SETUP_INFO 32, DRV_PLATFORM_INFO
 * 15440, SAMPLE_DROP_INFO 324; TSC_SKEW_INFO and GET_PERF_CAPAB answer 8
 * bytes a CPU for as many CPUs as the buffer holds, so one CPU's 8 at least.
 */
TEST_F(core, reply_buffer_too_small_is_refused_and_builds_nothing)
{
	static const struct { u32 id, min; } cmds[] = {
		{ SEP_CMD_VERSION, 4 },				/* U32 */
		{ SEP_CMD_GET_DRV_SETUP_INFO, 32 },		/* DRV_SETUP_INFO */
		{ SEP_CMD_NUM_CORES, 4 },			/* S32 */
		{ SEP_CMD_GET_NORMALIZED_TSC, 8 },		/* U64 */
		{ SEP_CMD_GET_NORMALIZED_TSC_STANDALONE, 8 },	/* U64 */
		{ SEP_CMD_TSC_SKEW_INFO, 8 },			/* S64 of one CPU */
		{ SEP_CMD_GET_PLATFORM_INFO, 15440 },		/* DRV_PLATFORM_INFO */
		{ SEP_CMD_COLLECT_SYS_CONFIG, 4 },		/* U32 */
		{ SEP_CMD_KERNEL_CS, 4 },			/* S32 */
		{ SEP_CMD_GET_NUM_CORE_CTRS, 4 },		/* U32 */
		{ SEP_CMD_GET_PERF_CAPAB, 8 },			/* U64 of one CPU */
		{ SEP_CMD_GET_NUM_SAMPLES, 8 },			/* U64 */
		{ SEP_CMD_GET_SAMPLE_DROP_INFO, 324 },		/* SAMPLE_DROP_INFO */
		{ SEP_CMD_GET_THREAD_COUNT, 4 },		/* U32 */
		{ SEP_CMD_GET_DRIVER_STATE, 4 },		/* U32 */
		{ SEP_CMD_RESERVE, 4 },				/* S32 */
	};

	open_session(_metadata, self);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		for (u32 ask = 1; ask < cmds[i].min; ask = ask * 2 + 1) {
			EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, cmds[i].id, NULL, 0, ask))
				TH_LOG("command %u, %u bytes", cmds[i].id, ask);
		}
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, cmds[i].id, NULL, 0, cmds[i].min - 1));
	}
	EXPECT_EQ(1, self->f.nalloc) TH_LOG("nothing built for a refused command");
	EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
}

/* The host vanishes at any point of a request: nothing is left behind. */
TEST_F(core, peer_vanishes_mid_request)
{
	static const size_t cuts[] = { 0, 1, 47, 48, 49, 1000, 48 + 4719 };
	struct sep_control_msg_header h = tc_header(SEP_CMD_EM_CONFIG_NEXT, 4720, 48);
	u8 req[48 + 4720];

	memcpy(req, &h, 48);
	memcpy(req + 48, core_ecb(_metadata, self), 4720);
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		for (int hangup = 0; hangup < 2; hangup++) {
			open_session(_metadata, self);
			goto_state(_metadata, self, ACP_CONFIGURED);
			ASSERT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
			tc_out_reset(&self->out);
			ASSERT_EQ(0, tc_feed(self->ctl, req, cuts[i], 3, &self->out));
			EXPECT_EQ(0, self->out.total);
			if (hangup) {
				acp_conn_hangup(self->ctl);
				/* What was missing never comes: no response. */
				expect_eof(_metadata, self, self->ctl);
				EXPECT_EQ(0, self->out.total);
				EXPECT_EQ(0, self->f.live) TH_LOG("cut at %zu", cuts[i]);
			}
			acp_conn_release(self->ctl);
			EXPECT_EQ(0, self->f.live) TH_LOG("cut at %zu", cuts[i]);
			for (u32 d = 0; d < self->ndata; d++)
				expect_eof(_metadata, self, self->data[d]);
		}
	}
	/* Mid-hello, and mid-skip of a payload that is not wanted. */
	self->ctl = new_conn(self);
	acp_conn_input(self->ctl, "\x18\0\0", 3);
	acp_conn_release(self->ctl);
	EXPECT_EQ(0, self->f.live);
	open_session(_metadata, self);
	h = tc_header(SEP_CMD_VERSION, 4720, 4);
	h.header_size = 40;
	ASSERT_EQ(0, tc_feed(self->ctl, &h, 48, 0, &self->out));
	ASSERT_EQ(0, tc_feed(self->ctl, req, 2000, 0, &self->out));
	acp_conn_release(self->ctl);
	EXPECT_EQ(0, self->f.live);
}

TEST_F(core, peer_vanishes_with_a_reply_unread)
{
	struct sep_control_msg_header h = tc_header(SEP_CMD_GET_PLATFORM_INFO, 0, 15440);
	const void *p;

	for (int hangup = 0; hangup < 2; hangup++) {
		open_session(_metadata, self);
		ASSERT_EQ(sizeof(h), acp_conn_input(self->ctl, &h, sizeof(h)));
		ASSERT_EQ(48, acp_conn_peek(self->ctl, &p));
		acp_conn_consume(self->ctl, 148);
		EXPECT_NE(0, acp_conn_peek(self->ctl, &p));
		if (hangup) {
			acp_conn_hangup(self->ctl);
			EXPECT_FALSE(acp_conn_eof(self->ctl));
			tc_out_reset(&self->out);
			EXPECT_EQ(15440 - 100, tc_drain(self->ctl, &self->out, 1000));
			EXPECT_TRUE(acp_conn_eof(self->ctl));
		}
		acp_conn_release(self->ctl);
		EXPECT_EQ(0, self->f.live);
	}
}

/*
 * Allocation failure injection: each allocation a command makes fails in
 * turn (the first nine), on a fresh session in a state the command is
 * meant for. Each failure answers VT_NO_MEMORY and leaves the state as it
 * was; with memory again the same command works; the session's end frees
 * everything. One test per command (the alloc fixture's variants), and one
 * that the commands together make at least 20 allocations that can fail.
 */
enum alloc_payload {
	A_NONE, A_IDS, A_MSR, A_LOG, A_DEV, A_DRV_CONFIG, A_TOPOLOGY, A_EVENTS,
	A_CORE_ECB, A_UNCORE_ECB,
};

struct alloc_case {
	u32 id;
	enum alloc_payload in;
	u64 in_len, out_len;
	enum acp_state state;
	bool groups;		/* EM_GROUPS first */
};

enum alloc_index {
	ALLOC_PLATFORM_INFO,
	ALLOC_PLATFORM_INFO_WITH_IDS,
	ALLOC_PERF_CAPAB,
	ALLOC_READ_MSR,
	ALLOC_SAMPLE_DROP_INFO,
	ALLOC_CONTROL_DRIVER_LOG,
	ALLOC_COLLECT_SYS_CONFIG,
	ALLOC_GET_SYS_CONFIG,
	ALLOC_INIT,
	ALLOC_INIT_DRIVER,
	ALLOC_SET_CPU_TOPOLOGY,
	ALLOC_EM_GROUPS,
	ALLOC_EM_CONFIG_NEXT,
	ALLOC_EM_CONFIG_NEXT_UNC,
	NALLOC
};

static const struct alloc_case alloc_cases[NALLOC] = {
	[ALLOC_PLATFORM_INFO] = { SEP_CMD_GET_PLATFORM_INFO, A_NONE, 0, 15440, ACP_IDLE },
	[ALLOC_PLATFORM_INFO_WITH_IDS] = {
		SEP_CMD_GET_PLATFORM_INFO, A_IDS, 8, 15440, ACP_IDLE },
	[ALLOC_PERF_CAPAB] = { SEP_CMD_GET_PERF_CAPAB, A_NONE, 0, 32, ACP_IDLE },
	[ALLOC_READ_MSR] = { SEP_CMD_READ_MSR, A_MSR, 4, 32, ACP_IDLE },
	[ALLOC_SAMPLE_DROP_INFO] = { SEP_CMD_GET_SAMPLE_DROP_INFO, A_NONE, 0, 324, ACP_IDLE },
	[ALLOC_CONTROL_DRIVER_LOG] = {
		SEP_CMD_CONTROL_DRIVER_LOG, A_LOG, sizeof(struct sep_drv_log_control),
		sizeof(struct sep_drv_log_control), ACP_IDLE },
	[ALLOC_COLLECT_SYS_CONFIG] = { SEP_CMD_COLLECT_SYS_CONFIG, A_NONE, 0, 4, ACP_IDLE },
	[ALLOC_GET_SYS_CONFIG] = { SEP_CMD_GET_SYS_CONFIG, A_NONE, 0, 4000, ACP_IDLE },
	[ALLOC_INIT] = { SEP_CMD_INIT, A_DEV, sizeof(struct sep_dev_config), 0, ACP_IDLE },
	[ALLOC_INIT_DRIVER] = {
		SEP_CMD_INIT_DRIVER, A_DRV_CONFIG, sizeof(struct sep_drv_config), 0,
		ACP_RESERVED },
	[ALLOC_SET_CPU_TOPOLOGY] = {
		SEP_CMD_SET_CPU_TOPOLOGY, A_TOPOLOGY,
		FAKE_NCPUS * sizeof(struct sep_drv_topology_info), 0, ACP_CONFIGURED },
	[ALLOC_EM_GROUPS] = {
		SEP_CMD_EM_GROUPS, A_EVENTS, sizeof(struct sep_event_config), 0,
		ACP_CONFIGURED },
	[ALLOC_EM_CONFIG_NEXT] = {
		SEP_CMD_EM_CONFIG_NEXT, A_CORE_ECB, 4720, 48, ACP_CONFIGURED, true },
	/* Its payload's allocation; with it, refused (183, spec 5.5). */
	[ALLOC_EM_CONFIG_NEXT_UNC] = {
		SEP_CMD_EM_CONFIG_NEXT_UNC, A_UNCORE_ECB, 2680, 0, ACP_CONFIGURED },
};

/* @c's request payload. */
static const void *alloc_payload(struct __test_metadata *_metadata,
				 FIXTURE_DATA(core) *self, const struct alloc_case *c)
{
	static const struct sep_drv_log_control log = {
		.command = SEP_DRV_LOG_CMD_ADJUST_VERBOSITY,
	};
	static const struct sep_dev_config dev = { .dispatch_id = 2 };
	static const u32 msr = 0x38f, ids[2] = { 2, 4 };
	static struct sep_drv_topology_info topo[FAKE_NCPUS];
	static struct sep_event_config ec;
	static struct sep_drv_config dc;

	switch (c->in) {
	case A_NONE:
		break;
	case A_IDS:
		return ids;
	case A_MSR:
		return &msr;
	case A_LOG:
		return &log;
	case A_DEV:
		return &dev;
	case A_DRV_CONFIG:
		tc_drv_config(&dc, 0);
		return &dc;
	case A_TOPOLOGY:
		tc_topology(topo, FAKE_NCPUS);
		return topo;
	case A_EVENTS:
		tc_event_config(&ec, false);
		return &ec;
	case A_CORE_ECB:
		return core_ecb(_metadata, self);
	case A_UNCORE_ECB:
		return uncore_ecb(_metadata, self);
	}
	return NULL;
}

/*
 * Fail @c's k-th allocation, k = 1, 2, ... until it makes no more (at most
 * nine); how many failed.
 */
static u32 fail_each_allocation(struct __test_metadata *_metadata,
				FIXTURE_DATA(core) *self, const struct alloc_case *c)
{
	s32 want = c->id == SEP_CMD_EM_CONFIG_NEXT_UNC ? VT_INVALID_DEVICE : VT_SUCCESS;
	const void *in = alloc_payload(_metadata, self, c);
	u32 failed = 0;

	for (u64 k = 1; k < 10; k++) {
		u32 state;
		s32 status;

		reinit(_metadata, self, FAKE_NCPUS);
		open_session(_metadata, self);
		goto_state(_metadata, self, c->state);
		if (c->groups) {
			ASSERT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
		}
		state = driver_state(_metadata, self);
		self->f.fail_at = self->f.nalloc + k;
		status = cmd(_metadata, self, c->id, in, c->in_len, c->out_len);
		self->f.fail_at = 0;
		if (!self->f.nfailed) {
			/* Past the command's last allocation. */
			EXPECT_EQ(want, status) TH_LOG("command %u", c->id);
			EXPECT_LT(1, k) TH_LOG("command %u allocates nothing", c->id);
			break;
		}
		failed++;
		EXPECT_EQ(VT_NO_MEMORY, status)
			TH_LOG("command %u, allocation %llu", c->id, (unsigned long long)k);
		EXPECT_EQ(state, driver_state(_metadata, self));
		/* Memory again: the same command works. */
		EXPECT_EQ(want, cmd(_metadata, self, c->id, in, c->in_len, c->out_len))
			TH_LOG("command %u after allocation %llu failed", c->id,
			       (unsigned long long)k);
		acp_conn_release(self->ctl);
		EXPECT_EQ(self->t.sysconfig ? 1 : 0, self->f.live);
	}
	return failed;
}

FIXTURE(alloc) {
	FIXTURE_DATA(core) core;
};

FIXTURE_VARIANT(alloc) {
	enum alloc_index c;
};

FIXTURE_VARIANT_ADD(alloc, get_platform_info) { .c = ALLOC_PLATFORM_INFO };
FIXTURE_VARIANT_ADD(alloc, get_platform_info_with_ids) { .c = ALLOC_PLATFORM_INFO_WITH_IDS };
FIXTURE_VARIANT_ADD(alloc, get_perf_capab) { .c = ALLOC_PERF_CAPAB };
FIXTURE_VARIANT_ADD(alloc, read_msr) { .c = ALLOC_READ_MSR };
FIXTURE_VARIANT_ADD(alloc, get_sample_drop_info) { .c = ALLOC_SAMPLE_DROP_INFO };
FIXTURE_VARIANT_ADD(alloc, control_driver_log) { .c = ALLOC_CONTROL_DRIVER_LOG };
FIXTURE_VARIANT_ADD(alloc, collect_sys_config) { .c = ALLOC_COLLECT_SYS_CONFIG };
FIXTURE_VARIANT_ADD(alloc, get_sys_config) { .c = ALLOC_GET_SYS_CONFIG };
FIXTURE_VARIANT_ADD(alloc, init) { .c = ALLOC_INIT };
FIXTURE_VARIANT_ADD(alloc, init_driver) { .c = ALLOC_INIT_DRIVER };
FIXTURE_VARIANT_ADD(alloc, set_cpu_topology) { .c = ALLOC_SET_CPU_TOPOLOGY };
FIXTURE_VARIANT_ADD(alloc, em_groups) { .c = ALLOC_EM_GROUPS };
FIXTURE_VARIANT_ADD(alloc, em_config_next) { .c = ALLOC_EM_CONFIG_NEXT };
FIXTURE_VARIANT_ADD(alloc, em_config_next_unc) { .c = ALLOC_EM_CONFIG_NEXT_UNC };

FIXTURE_SETUP(alloc)
{
	core_setup(_metadata, &self->core, NULL);
}

FIXTURE_TEARDOWN(alloc)
{
	core_teardown(_metadata, &self->core, NULL);
}

TEST_F(alloc, failure_answers_no_memory_and_recovers)
{
	fail_each_allocation(_metadata, &self->core, &alloc_cases[variant->c]);
}

/* The commands together have at least 20 allocations that can fail. */
TEST_F(core, allocation_failures_are_tried_at_20_points_at_least)
{
	u32 failed = 0;

	for (size_t i = 0; i < NALLOC; i++)
		failed += fail_each_allocation(_metadata, self, &alloc_cases[i]);
	EXPECT_LE(20, failed);
}

TEST_HARNESS_MAIN
