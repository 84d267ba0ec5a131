// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, privilege (issue 10): a session is privileged when its
 * control connection was opened with CAP_PERFMON (acp_conn_set_privileged).
 * Unprivileged, the handshake and the information commands work, but
 * INIT_DRIVER and START answer VT_NO_ADMIN_PRIVILEGE (213) before anything
 * is configured or allocated, and RAPL energy counters are refused (196).
 * Its own program, build/tests/core_privilege_test, on the fixture every core
 * test program shares (core_fixture.h).
 */
#include "core_fixture.h"

#define PRIV_REFUSED_LOG \
	"refused: the process that opened /dev/aca lacks CAP_PERFMON; grant it (aca-relay.service has AmbientCapabilities=CAP_PERFMON) or load aca with group_perfmon=1"

/* An unprivileged session, reserved: what INIT_DRIVER comes after. */
static inline void unprivileged_reserved(struct __test_metadata *_metadata,
					 FIXTURE_DATA(core) *self)
{
	self->unprivileged = true;
	/* configure() would write module records: the kernel's layout. */
	self->f.configure_bytes = 64;
	open_session(_metadata, self);
	ASSERT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
}

TEST_F(core, unprivileged_init_driver_answers_no_admin_privilege)
{
	unprivileged_reserved(_metadata, self);
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE, init_driver(_metadata, self, 0));
	EXPECT_EQ(SEP_STATE_RESERVED, driver_state(_metadata, self));
}

TEST_F(core, unprivileged_init_driver_configures_and_allocates_nothing)
{
	long live;

	unprivileged_reserved(_metadata, self);
	live = self->f.live;
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE, init_driver(_metadata, self, 0));
	EXPECT_EQ(0, self->f.nconfigure) TH_LOG("rings configured");
	EXPECT_EQ(live, self->f.live) TH_LOG("memory kept for the session");
}

TEST_F(core, unprivileged_init_driver_produces_no_module_record)
{
	unprivileged_reserved(_metadata, self);
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE, init_driver(_metadata, self, 0));
	EXPECT_EQ(0, self->f.nsample_bytes[self->f.ncpus + 1]);
	/* The module channel has its first message, and nothing else. */
	tc_out_reset(&self->out);
	EXPECT_EQ(0, tc_drain(self->data[self->f.ncpus + 1], &self->out, 0));
	EXPECT_FALSE(acp_conn_eof(self->data[self->f.ncpus + 1]));
}

TEST_F(core, unprivileged_init_driver_logs_what_to_grant)
{
	unprivileged_reserved(_metadata, self);
	init_driver(_metadata, self, 0);
	EXPECT_EQ(1, fake_log_count(&self->f, "INIT_DRIVER " PRIV_REFUSED_LOG));
}

/* Before the state check: the host learns why, not "wrong state" (159). */
TEST_F(core, unprivileged_start_answers_no_admin_privilege)
{
	unprivileged_reserved(_metadata, self);
	init_driver(_metadata, self, 0);
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(0, self->f.nstart);
	EXPECT_FALSE(self->f.running);
	EXPECT_EQ(1, fake_log_count(&self->f, "START " PRIV_REFUSED_LOG));
	EXPECT_EQ(SEP_STATE_RESERVED, driver_state(_metadata, self));
}

TEST_F(core, unprivileged_session_keeps_hello_version_and_information)
{
	u32 n = FAKE_NCPUS, size;

	self->unprivileged = true;
	open_session(_metadata, self);	/* hello: status 0, all channels */
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
	EXPECT_EQ(n, query(_metadata, self, SEP_CMD_NUM_CORES, 4));
	EXPECT_EQ(0x10, query(_metadata, self, SEP_CMD_KERNEL_CS, 4));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_DRV_SETUP_INFO, NULL, 0, 32));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PLATFORM_INFO, NULL, 0, 15440));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_COLLECT_SYS_CONFIG, NULL, 0, 4));
	size = resp_u32(self, 0);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SYS_CONFIG, NULL, 0, size));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PERF_CAPAB, NULL, 0, 8 * n));
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(SEP_STATE_RESERVED, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	EXPECT_EQ(0, fake_log_count(&self->f, PRIV_REFUSED_LOG));
}

TEST_F(core, privileged_session_initialises_and_starts)
{
	self->f.configure_bytes = 64;
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	EXPECT_EQ(1, self->f.nconfigure);
	EXPECT_EQ(1, self->f.nstart);
	EXPECT_EQ(64, self->f.nsample_bytes[self->f.ncpus + 1]);
	EXPECT_EQ(0, fake_log_count(&self->f, PRIV_REFUSED_LOG));
}

/* The next session takes its own control connection's privilege. */
TEST_F(core, privilege_is_each_sessions_control_connections)
{
	self->unprivileged = true;
	open_session(_metadata, self);
	ASSERT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE, init_driver(_metadata, self, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));

	self->unprivileged = false;
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(1, self->f.nconfigure);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));

	self->unprivileged = true;
	open_session(_metadata, self);
	ASSERT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE, init_driver(_metadata, self, 0));
	EXPECT_EQ(1, self->f.nconfigure);
}

TEST_F(core, read_msr_of_rapl_energy_counters_answers_a_privileged_session)
{
	open_session(_metadata, self);
	for (size_t i = 0; i < ARRAY_SIZE(rapl_energy); i++) {
		fake_set_msr(&self->f, rapl_energy[i], 0x12345678 + i);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR,
					  &rapl_energy[i], 4, 8 * FAKE_NCPUS))
			TH_LOG("MSR 0x%x", rapl_energy[i]);
		EXPECT_EQ(0x12345678 + i, resp_u64(self, 0));
		EXPECT_EQ(0x12345678 + i, resp_u64(self, 8 * (FAKE_NCPUS - 1)));
	}
	EXPECT_EQ(0, fake_log_count(&self->f, "RAPL"));
}

/* Privileged or not, the ECB allow-list still has no energy counter. */
TEST_F(core, rapl_energy_counters_stay_out_of_the_ecb_allow_list)
{
	for (size_t i = 0; i < ARRAY_SIZE(rapl_energy); i++) {
		EXPECT_FALSE(acp_msr_allowed(rapl_energy[i]))
			TH_LOG("MSR 0x%x", rapl_energy[i]);
	}
}

TEST_HARNESS_MAIN
