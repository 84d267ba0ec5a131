// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, MODULE_SNAPSHOT (spec 4.8, an aca extension): while a
 * collection samples or is paused, a privileged session has the machine
 * add the module records of every live process to the module channel
 * (module_snapshot()), which streams them as it does the others, before
 * STOP's; 213 for an unprivileged session before any other check, 159 in
 * another state, on a machine without the op or when the op fails, each
 * without a call or with a line that says why.
 * Its own program, build/tests/core_snapshot_test, on the fixture every
 * core test program shares (core_fixture.h).
 */
#include "core_fixture.h"

#define MODULE_CHAN	(FAKE_NCPUS + 1)

static inline s32 snapshot(struct __test_metadata *_metadata,
			   FIXTURE_DATA(core) *self)
{
	return cmd(_metadata, self, ACA_CMD_MODULE_SNAPSHOT, NULL, 0, 0);
}

/* What the module channel has now: @len bytes @seed, @seed + 1, ... */
static inline void expect_records(struct __test_metadata *_metadata,
				  FIXTURE_DATA(core) *self, u32 len, u8 seed)
{
	tc_out_reset(&self->out);
	EXPECT_EQ(len, tc_drain(self->data[MODULE_CHAN], &self->out, 0));
	for (u32 i = 0; i < len && i < self->out.total; i++)
		ASSERT_EQ((u8)(seed + i), self->out.buf[i]);
}

TEST_F(core, module_snapshot_streams_the_records_while_sampling)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	expect_records(_metadata, self, 0, 0);
	self->f.snapshot_bytes = 120;
	self->f.snapshot_seed = 7;
	EXPECT_EQ(VT_SUCCESS, snapshot(_metadata, self));
	EXPECT_EQ(1, self->f.nsnapshot);
	expect_records(_metadata, self, 120, 7);
	EXPECT_EQ(SPEC_STATE_RUNNING, driver_state(_metadata, self));
	EXPECT_EQ(0, self->f.misuse);
}

TEST_F(core, module_snapshot_works_while_paused)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_PAUSED);
	self->f.snapshot_bytes = 40;
	EXPECT_EQ(VT_SUCCESS, snapshot(_metadata, self));
	EXPECT_EQ(1, self->f.nsnapshot);
	expect_records(_metadata, self, 40, 0);
	EXPECT_EQ(SPEC_STATE_PAUSED, driver_state(_metadata, self));
}

/* A snapshot's records, then STOP's after them, then the end. */
TEST_F(core, module_snapshot_records_come_before_stops)
{
	struct sep_control_msg_header h;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	self->f.snapshot_bytes = 64;
	self->f.snapshot_seed = 1;
	self->f.finalize_bytes = 32;
	self->f.finalize_seed = 65;
	EXPECT_EQ(VT_SUCCESS, snapshot(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, snapshot(_metadata, self));
	EXPECT_EQ(2, self->f.nsnapshot);
	/* Unread until STOP: the snapshots', then STOP's, in order. */
	EXPECT_EQ(128, fake_unread(&self->f, MODULE_CHAN));
	tc_out_reset(&self->out);
	EXPECT_EQ(128, tc_drain(self->data[MODULE_CHAN], &self->out, 0));
	for (u32 i = 0; i < 128; i++)
		ASSERT_EQ((u8)(1 + i % 64), self->out.buf[i]);
	/* STOP's answer waits for its records to be read. */
	h = tc_header(SEP_CMD_STOP, 0, 0);
	ASSERT_EQ(sizeof(h), acp_conn_input(self->ctl, &h, sizeof(h)));
	EXPECT_EQ(1, self->f.nfinalize);
	EXPECT_TRUE(self->t.stop_pending);
	expect_records(_metadata, self, 32, 65);
	EXPECT_TRUE(acp_conn_eof(self->data[MODULE_CHAN]));
	tc_out_reset(&self->out);
	ASSERT_EQ(sizeof(h), tc_drain(self->ctl, &self->out, 0));
	memcpy(&h, self->out.buf, sizeof(h));
	EXPECT_EQ(SEP_CMD_STOP, h.command_id);
	EXPECT_EQ(VT_SUCCESS, h.status);
	EXPECT_EQ(2, self->f.nsnapshot);
}

/* Outside a collection: 159, and the machine is not asked. */
TEST_F(core, module_snapshot_outside_a_collection_answers_159)
{
	static const enum acp_state states[] = {
		ACP_IDLE, ACP_RESERVED, ACP_CONFIGURED, ACP_STOPPED,
	};

	for (u32 i = 0; i < ARRAY_SIZE(states); i++) {
		open_session(_metadata, self);
		goto_state(_metadata, self, states[i]);
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, snapshot(_metadata, self))
			TH_LOG("state %d", states[i]);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	}
	EXPECT_EQ(0, self->f.nsnapshot);
}

/* The records describe every process: a privileged session's only. */
TEST_F(core, unprivileged_module_snapshot_answers_no_admin_privilege)
{
	self->unprivileged = true;
	open_session(_metadata, self);
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE, snapshot(_metadata, self));
	/* Whatever its sizes. */
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE,
		  cmd(_metadata, self, ACA_CMD_MODULE_SNAPSHOT, NULL, 0, 8));
	EXPECT_EQ(0, self->f.nsnapshot);
	EXPECT_EQ(2, fake_log_count(&self->f,
				    "MODULE_SNAPSHOT refused: the connection's user lacks CAP_PERFMON (aca(4) SECURITY)"));
}

TEST_F(core, module_snapshot_takes_no_payload_and_gives_none)
{
	const u32 word = 0;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  cmd(_metadata, self, ACA_CMD_MODULE_SNAPSHOT, &word, 4, 0));
	EXPECT_EQ(0, self->f.nsnapshot);
	/* A reply asked is zeros: the command has none. */
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, ACA_CMD_MODULE_SNAPSHOT, NULL, 0, 8));
	EXPECT_EQ(0, resp_u64(self, 0));
	EXPECT_EQ(1, self->f.nsnapshot);
}

/* A stock target's answer, and the line that says why. */
TEST_F(core, module_snapshot_without_the_op_answers_159)
{
	self->ops.module_snapshot = NULL;
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, snapshot(_metadata, self));
	EXPECT_EQ(1, fake_log_count(&self->f,
				    "MODULE_SNAPSHOT: this target sends module records at STOP only"));
	EXPECT_EQ(SPEC_STATE_RUNNING, driver_state(_metadata, self));
}

/* Delayed transfer streams nothing before STOP: 159, the machine not asked. */
TEST_F(core, module_snapshot_in_delayed_transfer_answers_159)
{
	self->f.delayed = true;
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, snapshot(_metadata, self));
	EXPECT_EQ(0, self->f.nsnapshot);
	EXPECT_EQ(1, fake_log_count(&self->f,
				    "MODULE_SNAPSHOT: delayed transfer sends the records at STOP"));
	EXPECT_EQ(SPEC_STATE_RUNNING, driver_state(_metadata, self));
}

/* Counting mode has no module records: 159, still running. */
TEST_F(core, module_snapshot_the_machine_refuses_answers_159)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	self->f.snapshot_ret = -1;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, snapshot(_metadata, self));
	EXPECT_EQ(1, self->f.nsnapshot);
	EXPECT_EQ(1, fake_log_count(&self->f, "MODULE_SNAPSHOT: no module records in counting mode"));
	EXPECT_EQ(SPEC_STATE_RUNNING, driver_state(_metadata, self));
	expect_records(_metadata, self, 0, 0);
}

TEST_HARNESS_MAIN
