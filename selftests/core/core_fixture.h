/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fixture every protocol-core test program shares: a fake machine
 * (fake_target.c) behind one struct acp_target, connections driven the way
 * a transport would (wire.c), and the helpers tests build on.
 *
 * Each core_*_test.c is its own kselftest program: it includes this header
 * once, before its tests, and ends with TEST_HARNESS_MAIN. The helpers are
 * static inline here, not in a .c file of their own, because they use the
 * harness's ASSERT/EXPECT macros: kselftest_harness.h defines global
 * symbols (__active_test, __run_test, ...), so a program can have only one
 * translation unit that includes it. FIXTURE_SETUP/TEARDOWN are defined
 * here for the same reason (the harness names them core_setup and
 * core_teardown in the program's test unit).
 */
#ifndef ACA_TEST_CORE_FIXTURE_H
#define ACA_TEST_CORE_FIXTURE_H

#include <stdlib.h>

#include "kselftest_harness.h"
#include "../common/status_check.h"
#include "../../driver/core/internal.h"
#include "fake_target.h"
#include "wire.h"

#define MAX_CONNS	256
#define OUT_CAP		(2u << 20)

FIXTURE(core) {
	struct fake f;
	struct acp_ops ops;
	struct acp_target t;
	struct acp_conn conns[MAX_CONNS];
	u32 nconns;
	struct tc_out out;		/* what the last request brought back */
	struct tc_resp r;		/* the last response */
	size_t frag;			/* input fragment size of cmd(); 0: whole */
	struct acp_conn *ctl;		/* the session opened by open_session() */
	struct acp_conn *data[FAKE_MAX_CPUS + 2];
	u32 ndata;
	u8 *ecb, *uncore_ecb;		/* the spec's vectors */
	/* new_conn() opens without CAP_PERFMON (acp_conn_set_privileged). */
	bool unprivileged;
	/* ...for a person kallsyms hides kernel addresses from. */
	bool kernel_addresses_hidden;
	size_t ecb_len, uncore_ecb_len;
};

FIXTURE_SETUP(core)
{
	fake_init(&self->f, FAKE_NCPUS);
	self->ops = fake_ops;
	acp_target_init(&self->t, &self->ops, &self->f);
	self->out.buf = malloc(OUT_CAP);
	self->out.cap = OUT_CAP;
	ASSERT_NE(NULL, self->out.buf);
}

/* Every test ends with nothing left allocated. */
FIXTURE_TEARDOWN(core)
{
	for (u32 i = 0; i < self->nconns; i++)
		acp_conn_release(&self->conns[i]);
	acp_target_fini(&self->t);
	free(self->out.buf);
	free(self->ecb);
	free(self->uncore_ecb);
	EXPECT_EQ(0, self->f.live) TH_LOG("allocations leaked");
	EXPECT_EQ(0, self->f.live_bytes);
	EXPECT_FALSE(self->f.bad_free) TH_LOG("free() of a foreign pointer");
	EXPECT_FALSE(self->f.running) TH_LOG("sampling left running");
	EXPECT_EQ(0, self->f.misuse) TH_LOG("sampler called out of order");
}

/* ---- helpers ---- */

static inline struct acp_conn *new_conn(FIXTURE_DATA(core) *self)
{
	struct acp_conn *c;

	if (self->nconns == MAX_CONNS) {
		fprintf(stderr, "# more than %d connections in one test\n", MAX_CONNS);
		abort();
	}
	c = &self->conns[self->nconns++];
	/* The conn is its own ctx: wake() records which one it was. */
	acp_conn_init(c, &self->t, c, NULL);
	/* Opened with CAP_PERFMON, unless the test says otherwise. */
	acp_conn_set_privileged(c, !self->unprivileged);
	acp_conn_set_kernel_addresses(c, !self->kernel_addresses_hidden);
	return c;
}

/* Start over with an @ncpus machine, checking the old one leaked nothing. */
static inline void reinit(struct __test_metadata *_metadata,
			  FIXTURE_DATA(core) *self, u32 ncpus)
{
	for (u32 i = 0; i < self->nconns; i++)
		acp_conn_release(&self->conns[i]);
	self->nconns = 0;
	self->ctl = NULL;
	self->ndata = 0;
	acp_target_fini(&self->t);
	ASSERT_EQ(0, self->f.live);
	ASSERT_FALSE(self->f.bad_free);
	ASSERT_FALSE(self->f.running);
	ASSERT_EQ(0, self->f.misuse);
	fake_init(&self->f, ncpus);
	acp_target_init(&self->t, &self->ops, &self->f);
}

/* Say a hello of @msg_size on @c: exactly a status message must come back. */
static inline s32 hello_on(struct __test_metadata *_metadata,
			   FIXTURE_DATA(core) *self, struct acp_conn *c,
			   u32 msg_size, struct sep_target_status_msg *st)
{
	struct sep_control_first_msg h = tc_hello(msg_size);

	tc_out_reset(&self->out);
	ASSERT_EQ(0, tc_feed(c, &h, sizeof(h), self->frag, &self->out));
	tc_drain(c, &self->out, 0);
	ASSERT_EQ(sizeof(*st), self->out.total);
	memcpy(st, self->out.buf, sizeof(*st));
	EXPECT_EQ(sizeof(*st), st->msg_size);
	return st->status;
}

/* Data channel @k of the session: its 8-byte hello, readable at once. */
static inline void check_data_first(struct __test_metadata *_metadata,
				    FIXTURE_DATA(core) *self,
				    struct acp_conn *c, u32 k)
{
	struct sep_data_first_msg m;
	u32 n = self->f.ncpus;

	tc_out_reset(&self->out);
	ASSERT_EQ(sizeof(m), tc_drain(c, &self->out, 0));
	memcpy(&m, self->out.buf, sizeof(m));
	EXPECT_EQ(SEP_PROTO_VERSION, m.proto_version);
	EXPECT_EQ(k < n ? SEP_DATA_CPU : k == n ? SEP_DATA_UNCORE : SEP_DATA_MODULE,
		  m.data_type) TH_LOG("data channel %u", k);
	EXPECT_EQ(k < n ? k : 0, m.data_id) TH_LOG("data channel %u", k);
	EXPECT_FALSE(acp_conn_eof(c));
}

/* A control channel with status 0 and all its N + 2 data channels. */
static inline void open_session(struct __test_metadata *_metadata,
				FIXTURE_DATA(core) *self)
{
	struct sep_target_status_msg st;

	self->ctl = new_conn(self);
	ASSERT_EQ(0, hello_on(_metadata, self, self->ctl, sizeof(struct sep_control_first_msg), &st));
	self->ndata = self->f.ncpus + 2;
	for (u32 i = 0; i < self->ndata; i++) {
		self->data[i] = new_conn(self);
		check_data_first(_metadata, self, self->data[i], i);
	}
}

/* Spec 4.1: the response header, and a payload only on success. */
static inline void check_framing(struct __test_metadata *_metadata,
				 const struct tc_resp *r, u32 id, u64 asked)
{
	ASSERT_TRUE(r->got) TH_LOG("command %u: no response", id);
	EXPECT_EQ(sizeof(r->h), r->h.header_size);
	EXPECT_EQ(SEP_PROTO_VERSION, r->h.proto_version);
	EXPECT_EQ(id, r->h.command_id);
	EXPECT_EQ(0, r->h.to_target_data_size);
	EXPECT_EQ(0, r->h.reserved1);
	EXPECT_EQ(0, r->h.reserved2);
	if (r->h.status == VT_SUCCESS) {
		EXPECT_EQ(asked, r->h.from_target_data_size) TH_LOG("command %u", id);
		EXPECT_EQ(asked, r->len) TH_LOG("command %u: payload", id);
	} else {
		EXPECT_EQ(0, r->h.from_target_data_size) TH_LOG("command %u", id);
		EXPECT_EQ(0, r->len) TH_LOG("command %u: payload on failure", id);
	}
}

/* Run a command on the session's control channel; returns its status. */
static inline s32 cmd(struct __test_metadata *_metadata,
		      FIXTURE_DATA(core) *self, u32 id, const void *in,
		      u64 in_len, u64 out_len)
{
	ASSERT_NE(NULL, self->ctl);
	ASSERT_EQ(0, tc_cmd(self->ctl, &self->out, id, in, in_len, out_len,
			    self->frag, &self->r));
	check_framing(_metadata, &self->r, id, out_len);
	return self->r.h.status;
}

static inline s32 cmd_u32(struct __test_metadata *_metadata,
			  FIXTURE_DATA(core) *self, u32 id, u32 val)
{
	return cmd(_metadata, self, id, &val, sizeof(val), 0);
}

static inline u32 resp_u32(const FIXTURE_DATA(core) *self, size_t off)
{
	u32 v;

	memcpy(&v, self->r.data + off, sizeof(v));
	return v;
}

static inline u64 resp_u64(const FIXTURE_DATA(core) *self, size_t off)
{
	u64 v;

	memcpy(&v, self->r.data + off, sizeof(v));
	return v;
}

/* A command that answers one value of @size bytes (asked exactly). */
static inline u64 query(struct __test_metadata *_metadata,
			FIXTURE_DATA(core) *self, u32 id, u32 size)
{
	u64 v = 0;

	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, id, NULL, 0, size))
		TH_LOG("command %u", id);
	memcpy(&v, self->r.data, size < 8 ? size : 8);
	return v;
}

static inline u32 driver_state(struct __test_metadata *_metadata,
			       FIXTURE_DATA(core) *self)
{
	return query(_metadata, self, SEP_CMD_GET_DRIVER_STATE, 4);
}

static inline const u8 *core_ecb(struct __test_metadata *_metadata,
				 FIXTURE_DATA(core) *self)
{
	if (!self->ecb)
		self->ecb = tc_load_vector(TC_CORE_ECB, &self->ecb_len);
	ASSERT_NE(NULL, self->ecb) TH_LOG("vector %s not found; set ACA_VECTORS", TC_CORE_ECB);
	ASSERT_EQ(4720, self->ecb_len);
	return self->ecb;
}

static inline const u8 *uncore_ecb(struct __test_metadata *_metadata,
				   FIXTURE_DATA(core) *self)
{
	if (!self->uncore_ecb)
		self->uncore_ecb = tc_load_vector(TC_UNCORE_ECB, &self->uncore_ecb_len);
	ASSERT_NE(NULL, self->uncore_ecb) TH_LOG("vector %s not found; set ACA_VECTORS", TC_UNCORE_ECB);
	ASSERT_EQ(2680, self->uncore_ecb_len);
	return self->uncore_ecb;
}

static inline s32 reserve(struct __test_metadata *_metadata,
			  FIXTURE_DATA(core) *self)
{
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_RESERVE, NULL, 0, 4));
	return resp_u32(self, 0);
}

static inline s32 init_driver(struct __test_metadata *_metadata,
			      FIXTURE_DATA(core) *self, u64 collection_config)
{
	struct sep_drv_config dc;

	tc_drv_config(&dc, collection_config);
	return cmd(_metadata, self, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), 0);
}

static inline s32 em_groups(struct __test_metadata *_metadata,
			    FIXTURE_DATA(core) *self, u32 ngroups)
{
	struct sep_event_config ec;

	tc_event_config(&ec, false);
	ec.num_groups = ngroups;
	return cmd(_metadata, self, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), 0);
}

static inline s32 send_ecb(struct __test_metadata *_metadata,
			   FIXTURE_DATA(core) *self, const void *ecb, u64 len,
			   u64 out_len)
{
	return cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT, ecb, len, out_len);
}

/*
 * GET_DRIVER_STATE's values, written out from Documentation/protocol.md
 * 8.1 (the reference's states, aca's mapped onto them), not taken from the
 * product: the tests' oracle for where a session is.
 */
#define SPEC_STATE_UNINITIALIZED	0	/* no reservation */
#define SPEC_STATE_RESERVED		1	/* RESERVE done */
#define SPEC_STATE_IDLE			2	/* configured: after INIT_DRIVER */
#define SPEC_STATE_PAUSED		3
#define SPEC_STATE_STOPPED		4	/* stopped, finalized */
#define SPEC_STATE_RUNNING		5	/* collecting */

/* The names the tests use (sep_cmd.h) are the spec's values. */
_Static_assert(SEP_STATE_UNINITIALIZED == SPEC_STATE_UNINITIALIZED, "spec 8.1");
_Static_assert(SEP_STATE_RESERVED == SPEC_STATE_RESERVED, "spec 8.1");
_Static_assert(SEP_STATE_IDLE == SPEC_STATE_IDLE, "spec 8.1");
_Static_assert(SEP_STATE_PAUSED == SPEC_STATE_PAUSED, "spec 8.1");
_Static_assert(SEP_STATE_STOPPED == SPEC_STATE_STOPPED, "spec 8.1");
_Static_assert(SEP_STATE_RUNNING == SPEC_STATE_RUNNING, "spec 8.1");

/*
 * From a fresh session (no reservation) as far as @state says, by the
 * commands of spec 8.2, each step's state as spec 8.1 names it; checked
 * with GET_DRIVER_STATE.
 */
static inline void goto_state(struct __test_metadata *_metadata,
			      FIXTURE_DATA(core) *self, enum acp_state state)
{
	u32 want = SPEC_STATE_UNINITIALIZED;

	if (state >= ACP_RESERVED) {
		ASSERT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
		want = SPEC_STATE_RESERVED;
	}
	if (state >= ACP_CONFIGURED) {
		ASSERT_EQ(VT_SUCCESS, init_driver(_metadata, self, 0));
		/* Its wake-ups of the data channels: data_test.c's. */
		self->f.nwoken = 0;
		want = SPEC_STATE_IDLE;
	}
	if (state >= ACP_RUNNING) {
		ASSERT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
		ASSERT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
		ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
		want = SPEC_STATE_RUNNING;
	}
	if (state == ACP_PAUSED) {
		ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAUSE, NULL, 0, 0));
		want = SPEC_STATE_PAUSED;
	}
	if (state == ACP_STOPPED) {
		ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
		want = SPEC_STATE_STOPPED;
	}
	ASSERT_EQ(want, driver_state(_metadata, self));
}

/* Every byte the connection still has, then it must be over. */
static inline void expect_eof(struct __test_metadata *_metadata,
			      FIXTURE_DATA(core) *self, struct acp_conn *c)
{
	tc_out_reset(&self->out);
	tc_drain(c, &self->out, 0);
	EXPECT_TRUE(acp_conn_eof(c));
}

/*
 * The RAPL energy status counters, from protocol.md 4.5 (READ_MSR): 0x611
 * package, 0x619 DRAM, 0x639/0x641 PP0/PP1, 0x64d platform.
 */
static const u32 rapl_energy[] = { 0x611, 0x619, 0x639, 0x641, 0x64d };

/* ---- doctoring the core vector's ECB (spec 6.1, 6.4) ---- */

static inline void ecb_set_slot(u8 *ecb, u32 slot, u32 reg, u64 value,
				u64 max_bits, u16 index, u16 flags)
{
	struct sep_event_reg r = {
		.reg_type = reg ? SEP_REG_TYPE_DATA : 0,
		.event_id_index = index,
		.event_reg_id.reg_id = reg,
		.reg_value = value,
		.flags = flags,
		.max_bits = max_bits,
	};

	memcpy(ecb + sizeof(struct sep_ecb) + slot * sizeof(r), &r, sizeof(r));
}

static inline void ecb_set_op(u8 *ecb, u32 op, u32 start, u32 len)
{
	struct sep_pmu_operation o = {
		.operation_type = op, .register_start = start, .register_len = len,
	};

	memcpy(ecb + __builtin_offsetof(struct sep_ecb, operations[op]), &o, sizeof(o));
}

static inline void ecb_set_u32(u8 *ecb, size_t off, u32 v)
{
	memcpy(ecb + off, &v, sizeof(v));
}

/* The last START's view of group @g, event @e. */
static inline const struct acp_event *started_event(FIXTURE_DATA(core) *self,
						    u32 g, u32 e)
{
	return &self->f.start_groups[g].events[e];
}

/* A copy of the core vector to doctor. */
static inline u8 *ecb_copy(struct __test_metadata *_metadata,
			   FIXTURE_DATA(core) *self, u8 *buf)
{
	memcpy(buf, core_ecb(_metadata, self), 4720);
	return buf;
}

#endif /* ACA_TEST_CORE_FIXTURE_H */
