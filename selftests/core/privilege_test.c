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
	"refused: the connection's user lacks CAP_PERFMON (aca(4) SECURITY); connect through aca-relay's local socket as a user who has it, or from a host the relay admits with --allow, or load aca with group_perfmon=1 and join the group of /dev/aca"

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

/*
 * The PMU's state (issue 32): counters, event selects, fixed counters and
 * their control, PERF_METRICS, global status/control/overflow, PEBS, LBR
 * and DEBUGCTL, first and last of each range. Written out from the SDM's
 * architectural MSRs, not from msr.c's table.
 */
static const u32 pmu_state[] = {
	0xc1, 0xc8,		/* IA32_PMC0, IA32_PMC7 */
	0x186, 0x18d,		/* IA32_PERFEVTSEL0, 7 */
	0x1a6, 0x1a7,		/* MSR_OFFCORE_RSP_0, 1 */
	0x1c8,			/* MSR_LBR_SELECT */
	0x1d9,			/* IA32_DEBUGCTL */
	0x309, 0x30c,		/* IA32_FIXED_CTR0, 3 */
	0x329,			/* MSR_PERF_METRICS */
	0x38d,			/* IA32_FIXED_CTR_CTRL */
	0x38e, 0x38f, 0x390,	/* IA32_PERF_GLOBAL_STATUS, CTRL, OVF_CTRL */
	0x3f1,			/* IA32_PEBS_ENABLE */
	0x3f6, 0x3f7,		/* MSR_PEBS_LD_LAT, MSR_PEBS_FRONTEND */
	0x4c1, 0x4c8,		/* IA32_A_PMC0, 7 */
};

/* What any user learns from CPUID and sysfs anyway. */
static const u32 platform_facts[] = {
	0x17,			/* IA32_PLATFORM_ID */
	0xce,			/* MSR_PLATFORM_INFO */
	0x1a4,			/* MSR_MISC_FEATURE_CONTROL */
	0x345,			/* IA32_PERF_CAPABILITIES */
	0x606,			/* MSR_RAPL_POWER_UNIT */
};

TEST_F(core, read_msr_of_the_pmu_state_is_refused_without_cap_perfmon)
{
	self->unprivileged = true;
	open_session(_metadata, self);
	for (size_t i = 0; i < ARRAY_SIZE(pmu_state); i++) {
		u32 logs = self->f.nlogs;

		fake_set_msr(&self->f, pmu_state[i], 0x1234);
		EXPECT_EQ(VT_MSR_ACCESS_ERROR, cmd(_metadata, self, SEP_CMD_READ_MSR,
						   &pmu_state[i], 4, 8 * FAKE_NCPUS))
			TH_LOG("MSR 0x%x", pmu_state[i]);
		EXPECT_EQ(0, self->r.len);
		EXPECT_EQ(logs + 1, self->f.nlogs) TH_LOG("MSR 0x%x", pmu_state[i]);
	}
	EXPECT_EQ(ARRAY_SIZE(pmu_state),
		  fake_log_count(&self->f, "the PMU's state: the connection's user lacks CAP_PERFMON"));
}

TEST_F(core, read_msr_of_the_pmu_state_answers_a_privileged_session)
{
	open_session(_metadata, self);
	for (size_t i = 0; i < ARRAY_SIZE(pmu_state); i++) {
		fake_set_msr(&self->f, pmu_state[i], 0x5000 + i);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR,
					  &pmu_state[i], 4, 8 * FAKE_NCPUS))
			TH_LOG("MSR 0x%x", pmu_state[i]);
		EXPECT_EQ(0x5000 + i, resp_u64(self, 8 * (FAKE_NCPUS - 1)));
	}
}

TEST_F(core, read_msr_of_platform_facts_answers_an_unprivileged_session)
{
	self->unprivileged = true;
	open_session(_metadata, self);
	for (size_t i = 0; i < ARRAY_SIZE(platform_facts); i++) {
		fake_set_msr(&self->f, platform_facts[i], 0x7000 + i);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR,
					  &platform_facts[i], 4, 8 * FAKE_NCPUS))
			TH_LOG("MSR 0x%x", platform_facts[i]);
		EXPECT_EQ(0x7000 + i, resp_u64(self, 0));
	}
}

/* The ECB allow-list is unchanged: privilege is READ_MSR's alone. */
TEST_F(core, pmu_state_msrs_stay_in_the_ecb_allow_list)
{
	for (size_t i = 0; i < ARRAY_SIZE(pmu_state); i++) {
		EXPECT_TRUE(acp_msr_allowed(pmu_state[i]))
			TH_LOG("MSR 0x%x", pmu_state[i]);
	}
}

/*
 * READ_MSR's rate (issue 32; aca(4)): 100 at once, then 50 a second, for
 * the target as a whole; over it, 196 at once and a log line.
 */
#define MSR_BURST	100
#define MSR_RATE	50

static s32 read_platform_id(struct __test_metadata *_metadata,
			    FIXTURE_DATA(core) *self)
{
	u32 msr = 0x17;

	return cmd(_metadata, self, SEP_CMD_READ_MSR, &msr, 4, 8);
}

TEST_F(core, read_msr_answers_a_burst_then_refuses)
{
	open_session(_metadata, self);
	self->f.tsc_frozen = true;
	for (int i = 0; i < MSR_BURST; i++) {
		ASSERT_EQ(VT_SUCCESS, read_platform_id(_metadata, self)) TH_LOG("read %d", i);
	}
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, read_platform_id(_metadata, self));
	EXPECT_EQ(0, self->r.len);
	EXPECT_EQ(1, fake_log_count(&self->f, "refused: more than 50 a second (bursts of 100)"));
	/* The session goes on: other commands answer. */
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
}

TEST_F(core, read_msr_refills_at_its_rate)
{
	open_session(_metadata, self);
	self->f.tsc_frozen = true;
	for (int i = 0; i < MSR_BURST; i++)
		read_platform_id(_metadata, self);
	ASSERT_EQ(VT_MSR_ACCESS_ERROR, read_platform_id(_metadata, self));
	/* A tenth of a second gives back five. */
	self->f.tsc += FAKE_TSC_HZ / 10;
	for (int i = 0; i < MSR_RATE / 10; i++) {
		EXPECT_EQ(VT_SUCCESS, read_platform_id(_metadata, self)) TH_LOG("read %d", i);
	}
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, read_platform_id(_metadata, self));
	/* An hour gives back no more than a burst. */
	self->f.tsc += FAKE_TSC_HZ * 3600;
	for (int i = 0; i < MSR_BURST; i++) {
		EXPECT_EQ(VT_SUCCESS, read_platform_id(_metadata, self)) TH_LOG("read %d", i);
	}
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, read_platform_id(_metadata, self));
}

/* Refused reads count too: each still asks the module to decide. */
TEST_F(core, read_msr_refusals_spend_the_burst)
{
	u32 counter = 0xc1, logs;

	self->unprivileged = true;
	open_session(_metadata, self);
	self->f.tsc_frozen = true;
	logs = self->f.nlogs;
	for (int i = 0; i < MSR_BURST; i++)
		cmd(_metadata, self, SEP_CMD_READ_MSR, &counter, 4, 8);
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, read_platform_id(_metadata, self));
	EXPECT_EQ(logs + MSR_BURST + 1, self->f.nlogs);	/* one per refusal */
}

/* The target's: a peer that ends its session and opens another gets no fresh burst. */
TEST_F(core, read_msr_rate_outlives_the_connection)
{
	open_session(_metadata, self);
	self->f.tsc_frozen = true;
	for (int i = 0; i < MSR_BURST; i++)
		read_platform_id(_metadata, self);
	ASSERT_EQ(VT_MSR_ACCESS_ERROR, read_platform_id(_metadata, self));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	open_session(_metadata, self);
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, read_platform_id(_metadata, self));
}

/* A TSC read earlier than the last (another CPU's) gives no token back. */
TEST_F(core, read_msr_earlier_tsc_refills_nothing)
{
	open_session(_metadata, self);
	self->f.tsc_frozen = true;
	self->f.tsc += FAKE_TSC_HZ;
	for (int i = 0; i < MSR_BURST; i++)
		read_platform_id(_metadata, self);
	ASSERT_EQ(VT_MSR_ACCESS_ERROR, read_platform_id(_metadata, self));
	self->f.tsc -= FAKE_TSC_HZ / 2;
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, read_platform_id(_metadata, self));
	/* Time from there on counts again: a tenth of a second, five tokens. */
	self->f.tsc += FAKE_TSC_HZ / 10;
	EXPECT_EQ(VT_SUCCESS, read_platform_id(_metadata, self));
}

TEST_HARNESS_MAIN
