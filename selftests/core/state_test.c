// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, the driver state machine (spec 8.3 [IMPL]) and the
 * configuration of a collection (spec 5, 6): RESERVE -> INIT_DRIVER ->
 * configuration -> START -> PAUSE/RESUME -> STOP -> TERMINATE.
 * Its own program, build/tests/core_state_test, on the fixture every core
 * test program shares (core_fixture.h).
 */
#include "core_fixture.h"
#include "../../tools/aca-host/ecb.h"

#define ECB_SLOTS	22	/* of the core vector */

TEST_F(core, driver_state_follows_the_collection)
{
	open_session(_metadata, self);
	EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(SEP_STATE_RESERVED, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, init_driver(_metadata, self, 0));
	EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(SEP_STATE_RUNNING, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAUSE, NULL, 0, 0));
	EXPECT_EQ(SEP_STATE_PAUSED, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_RESUME, NULL, 0, 0));
	EXPECT_EQ(SEP_STATE_RUNNING, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
	EXPECT_EQ(SEP_STATE_STOPPED, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	open_session(_metadata, self);
	EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
}

TEST_F(core, init_driver_only_when_reserved)
{
	open_session(_metadata, self);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, init_driver(_metadata, self, 0));
	EXPECT_LT(0, fake_log_count(&self->f, "refused in state"));
	EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, init_driver(_metadata, self, 0));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, init_driver(_metadata, self, 0));
	EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
}

TEST_F(core, init_driver_refuses_emon_mode)
{
	static const u64 modes[] = {
		SEP_DRV_CFG_EMON_MODE,
		SEP_DRV_CFG_COUNTING_MODE | SEP_DRV_CFG_EMON_MODE | SEP_DRV_CFG_START_PAUSED,
	};

	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		u32 logs = fake_log_count(&self->f, "EMON mode");

		EXPECT_NE(VT_SUCCESS, init_driver(_metadata, self, modes[i]));
		EXPECT_EQ(logs + 1, fake_log_count(&self->f, "EMON mode"));
		EXPECT_EQ(SEP_STATE_RESERVED, driver_state(_metadata, self));
	}
	/* The test suite's sampling configuration (0x4400) is fine. */
	EXPECT_EQ(VT_SUCCESS, init_driver(_metadata, self, 0x4400));
	EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
}

/* Counting mode's timer: 10 ms to 60 s, or 0 (none); others refused, saying so. */
TEST_F(core, init_driver_bounds_the_emon_timer_of_counting_mode)
{
	static const s32 bad[] = { -1, 1, ACA_EMON_MS_MIN - 1, ACA_EMON_MS_MAX + 1, INT32_MIN };
	static const s32 good[] = { 0, ACA_EMON_MS_MIN, 100, ACA_EMON_MS_MAX };
	struct sep_drv_config dc;

	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	tc_drv_config(&dc, SEP_DRV_CFG_COUNTING_MODE);
	for (u32 i = 0; i < ARRAY_SIZE(bad); i++) {
		dc.emon_timer_interval = bad[i];
		EXPECT_EQ(VT_DRIVER_COMM_FAILED,
			  cmd(_metadata, self, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), 0))
			TH_LOG("emon_timer_interval %d", bad[i]);
		EXPECT_EQ(SEP_STATE_RESERVED, driver_state(_metadata, self));
	}
	EXPECT_EQ(ARRAY_SIZE(bad), fake_log_count(&self->f, "10 to 60000"));
	for (u32 i = 0; i < ARRAY_SIZE(good); i++) {
		/* A session each: INIT_DRIVER configures it. */
		reinit(_metadata, self, FAKE_NCPUS);
		open_session(_metadata, self);
		EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
		dc.emon_timer_interval = good[i];
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), 0))
			TH_LOG("emon_timer_interval %d", good[i]);
		EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
	}
}

/* DRV_CONFIG.size is not trusted; the payload length is (spec 5.2). */
TEST_F(core, init_driver_payload_length)
{
	static const u32 lens[] = { 0, 8, 63, 64, 104, 120, 200 };
	u8 buf[200];
	struct sep_drv_config dc;

	tc_drv_config(&dc, 0);
	memset(buf, 0, sizeof(buf));
	memcpy(buf, &dc, sizeof(dc));
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		u32 len = lens[i];

		open_session(_metadata, self);
		EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
		EXPECT_EQ(len < 64 ? VT_DRIVER_COMM_FAILED : VT_SUCCESS,
			  cmd(_metadata, self, SEP_CMD_INIT_DRIVER, buf, len, 0)) TH_LOG("%u bytes", len);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	}
}

/*
 * The configuration commands, in an order that works when CONFIGURED;
 * @expect is what each must answer (the uncore ones 183 where the others
 * succeed: the fixture's target has no uncore, spec 5.5).
 */
static inline void run_config_commands(struct __test_metadata *_metadata,
				       FIXTURE_DATA(core) *self, s32 expect)
{
	struct sep_drv_topology_info topo[FAKE_NCPUS];
	struct sep_event_desc desc = { .sample_size = 48 };
	struct sep_dev_unc_config unc = { .dispatch_id = 120, .device_type = 1 };
	struct sep_event_config ec, ecu;
	u32 two = 2, pmu = FAKE_NCPUS * 7 * 8;

	tc_topology(topo, FAKE_NCPUS);
	tc_event_config(&ec, false);
	tc_event_config(&ecu, true);
#define CFG(id, in, len) \
	EXPECT_EQ(expect, cmd(_metadata, self, id, in, len, 0)) TH_LOG("command %u", id)
	CFG(SEP_CMD_SET_CPU_TOPOLOGY, topo, sizeof(topo));
	CFG(SEP_CMD_NUM_DESCRIPTOR, &two, 4);
	CFG(SEP_CMD_DESC_NEXT, &desc, sizeof(desc));
	CFG(SEP_CMD_DESC_NEXT, &desc, sizeof(desc));
	CFG(SEP_CMD_EM_GROUPS, &ec, sizeof(ec));
	CFG(SEP_CMD_EM_CONFIG_NEXT, core_ecb(_metadata, self), 4720);
#define CFG_UNC(id, in, len) \
	EXPECT_EQ(expect == VT_SUCCESS ? VT_INVALID_DEVICE : expect, \
		  cmd(_metadata, self, id, in, len, 0)) TH_LOG("command %u", id)
	CFG_UNC(SEP_CMD_INIT_UNC, &unc, sizeof(unc));
	CFG_UNC(SEP_CMD_EM_GROUPS_UNC, &ecu, sizeof(ecu));
	CFG_UNC(SEP_CMD_EM_CONFIG_NEXT_UNC, uncore_ecb(_metadata, self), 2680);
	CFG(SEP_CMD_INIT_PMU, &pmu, 4);
	CFG(SEP_CMD_START, NULL, 0);
#undef CFG_UNC
#undef CFG
}

TEST_F(core, configuration_only_when_configured)
{
	static const enum acp_state wrong[] = { ACP_IDLE, ACP_RESERVED, ACP_RUNNING, ACP_PAUSED, ACP_STOPPED };

	for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		open_session(_metadata, self);
		goto_state(_metadata, self, wrong[i]);
		run_config_commands(_metadata, self, VT_DRIVER_COMM_FAILED);
		EXPECT_LT(0, fake_log_count(&self->f, "refused in state"));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	}
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	run_config_commands(_metadata, self, VT_SUCCESS);
	EXPECT_EQ(SEP_STATE_RUNNING, driver_state(_metadata, self));
}

/* INIT_NUM_DEV is sent before RESERVE (spec 5.1): these work everywhere. */
TEST_F(core, device_setup_and_queries_in_every_state)
{
	static const enum acp_state all[] = {
		ACP_IDLE, ACP_RESERVED, ACP_CONFIGURED, ACP_RUNNING, ACP_PAUSED, ACP_STOPPED,
	};
	struct sep_dev_config dev = { .dispatch_id = 2 };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		open_session(_metadata, self);
		goto_state(_metadata, self, all[i]);
		EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_INIT_NUM_DEV, 4));
		EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_SET_DEVICE_NUM_UNITS, 1));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT, &dev, sizeof(dev), 0));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO, &dev, 8, 0));
		EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
		EXPECT_EQ(FAKE_NCPUS, query(_metadata, self, SEP_CMD_NUM_CORES, 4));
		EXPECT_EQ(all[i] == ACP_IDLE ? SEP_RESERVE_OK : SEP_RESERVE_BUSY,
			  reserve(_metadata, self));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	}
}

/* Spec 6.6: the test suite's ECB is CPU_CLK_UNHALTED.REF_TSC on fixed 2. */
TEST_F(core, core_vector_decodes_to_ref_tsc)
{
	const struct acp_event *e;

	for (int with_status = 0; with_status < 2; with_status++) {
		open_session(_metadata, self);
		goto_state(_metadata, self, ACP_CONFIGURED);
		EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
		/* With or without a DRV_IOCTL_STATUS asked for (spec 4.5). */
		EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self),
					       4720, with_status ? 48 : 0));
		if (with_status) {
			EXPECT_TRUE(tc_all_zero(self->r.data, 48));
		}
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
		ASSERT_EQ((u32)with_status + 1, self->f.nstart);
		EXPECT_FALSE(self->f.start_paused);
		ASSERT_EQ(1, self->f.start_ngroups);
		EXPECT_TRUE(self->f.start_groups[0].loaded);
		ASSERT_EQ(1, self->f.start_groups[0].nevents);
		e = started_event(self, 0, 0);
		EXPECT_EQ(1, e->fixed);
		EXPECT_EQ(2, e->counter);
		EXPECT_EQ(0x0300, e->config);
		EXPECT_EQ(0, e->config1);
		EXPECT_EQ(2200000, e->period);
		EXPECT_EQ(0, e->exclude_user);
		EXPECT_EQ(0, e->exclude_kernel);
		EXPECT_EQ(0, e->event_index);
		EXPECT_EQ(0, e->precise);
		EXPECT_EQ(0x30b, e->msr);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	}
	/* A status buffer smaller than DRV_IOCTL_STATUS: zeros of that size. */
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 8));
	EXPECT_TRUE(tc_all_zero(self->r.data, 8));
}

/* General counters (spec 6.5, 6.8 step 3), in a doctored copy of the vector. */
TEST_F(core, ecb_general_counters_decode)
{
	u8 ecb[4720];
	const struct acp_event *e;

	ecb_copy(_metadata, self, ecb);
	/* Enable fixed 2 and general counters 0 and 1. */
	ecb_set_slot(ecb, 0, 0x38f, 0x400000003ull, 0, 0, SEP_EVREG_GLOBAL);
	/* PMC0: event 0xc4, user only, 10000; precise. */
	ecb_set_slot(ecb, 5, 0x186, 0x004100c4, 0, 0, 0);
	ecb_set_slot(ecb, 12, 0xc1, 0xffffffffffffull - 10000 + 1, 0xffffffffffffull, 1,
		     SEP_EVREG_PRECISE | SEP_EVREG_IS_GP_REG);
	/* A_PMC1: offcore 0xb7/0x01 with edge, inv, cmask 0x1d; kernel only. */
	ecb_set_slot(ecb, 6, 0x187, 0x1dc601b7, 0, 0, 0);
	ecb_set_slot(ecb, 13, 0x4c2, (1ull << 48) - 50000, 0, 2, SEP_EVREG_IS_GP_REG);
	ecb_set_slot(ecb, 16, 0x1a6, 0x10001, 0, 0, 0);
	/* Counter 2 has a counter but is not enabled in GLOBAL_CTRL. */
	ecb_set_slot(ecb, 7, 0x188, 0x4300c0, 0, 0, 0);
	ecb_set_slot(ecb, 14, 0xc3, (1ull << 48) - 7, 0, 3, 0);

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, sizeof(ecb), 48));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(3, self->f.start_groups[0].nevents);
	e = started_event(self, 0, 0);
	EXPECT_EQ(1, e->fixed);
	EXPECT_EQ(2, e->counter);
	e = started_event(self, 0, 1);
	EXPECT_EQ(0, e->fixed);
	EXPECT_EQ(0, e->counter);
	EXPECT_EQ(0xc4, e->config);
	EXPECT_EQ(0, e->exclude_user);
	EXPECT_EQ(1, e->exclude_kernel);
	EXPECT_EQ(10000, e->period);
	EXPECT_EQ(1, e->event_index);
	EXPECT_EQ(1, e->precise);
	EXPECT_EQ(0, e->config1);
	e = started_event(self, 0, 2);
	EXPECT_EQ(0, e->fixed);
	EXPECT_EQ(1, e->counter);
	/* USR/OS/INT/EN belong to perf; event, umask, edge, inv, cmask pass. */
	EXPECT_EQ(0x1d8401b7, e->config);
	EXPECT_EQ(1, e->exclude_user);
	EXPECT_EQ(0, e->exclude_kernel);
	EXPECT_EQ(50000, e->period) TH_LOG("max_bits 0 means 48 bits");
	EXPECT_EQ(2, e->event_index);
	EXPECT_EQ(0x10001, e->config1);
	EXPECT_EQ(0x4c2, e->msr);
}

/* The first group's events as START hands them over, from a doctored vector. */
static inline const struct acp_group *
started_ecb(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self,
	    const u8 *ecb)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, 4720, 48));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	return &self->f.start_groups[0];
}

/* AnyThread (select bit 21, fixed nibble bit 2) is perf's to allow: it passes. */
TEST_F(core, ecb_anythread_reaches_perf)
{
	const struct acp_group *g;
	u8 ecb[4720];

	ecb_copy(_metadata, self, ecb);
	/* Fixed 1 with nibble 0xf (OS, USR, AnyThread, PMI); PMC0. */
	ecb_set_slot(ecb, 0, 0x38f, 0x200000001ull, 0, 0, SEP_EVREG_GLOBAL);
	ecb_set_slot(ecb, 4, 0x38d, 0xf0, 0, 0, SEP_EVREG_GLOBAL);
	ecb_set_slot(ecb, 10, 0x30a, (1ull << 48) - 2000003, 0, 1, SEP_EVREG_FIXED_REG);
	/* CPU_CLK_UNHALTED.THREAD_P_ANY: 0x3c, AnyThread, USR, OS, INT, EN. */
	ecb_set_slot(ecb, 5, 0x186, 0x73003c, 0, 0, 0);
	ecb_set_slot(ecb, 12, 0xc1, (1ull << 48) - 2000003, 0, 2, SEP_EVREG_IS_GP_REG);

	g = started_ecb(_metadata, self, ecb);
	ASSERT_EQ(2, g->nevents);
	EXPECT_EQ(1, g->events[0].fixed);
	EXPECT_EQ(0x20003c, g->events[0].config);
	EXPECT_EQ(0, g->events[0].exclude_user);
	EXPECT_EQ(0, g->events[0].exclude_kernel);
	EXPECT_EQ(0, g->events[1].fixed);
	EXPECT_EQ(0x20003c, g->events[1].config);
}

/*
 * A two-event group (fixed counter 1, PMC0 @pmc0_flags) started with
 * EVENT_CONFIG em_mode 1, em_factor 50, em_event_num @num.
 */
static const struct acp_group *started_triggers(struct __test_metadata *_metadata,
						FIXTURE_DATA(core) *self,
						u16 pmc0_flags, s32 num)
{
	struct sep_event_config ec;
	u8 ecb[4720];

	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 0, 0x38f, 0x200000001ull, 0, 0, SEP_EVREG_GLOBAL);
	ecb_set_slot(ecb, 4, 0x38d, 0xb0, 0, 0, SEP_EVREG_GLOBAL);
	ecb_set_slot(ecb, 10, 0x30a, (1ull << 48) - 2000003, 0, 1, SEP_EVREG_FIXED_REG);
	ecb_set_slot(ecb, 5, 0x186, 0x53003c, 0, 0, 0);
	ecb_set_slot(ecb, 12, 0xc1, (1ull << 48) - 2000003, 0, 2,
		     SEP_EVREG_IS_GP_REG | pmc0_flags);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	tc_event_config(&ec, false);
	ec.em_mode = SEP_EM_EVENT_BASED;
	ec.em_factor = 50;
	ec.em_event_num = num;
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), 0));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, 4720, 48));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	return &self->f.start_groups[0];
}

/* The entries flagged em_trigger (0x80) are a group's triggers, whatever em_event_num. */
TEST_F(core, em_trigger_entries_are_the_triggers)
{
	const struct acp_group *g = started_triggers(_metadata, self, SEP_EVREG_EM_TRIGGER, 0);

	ASSERT_EQ(2, g->nevents);
	EXPECT_EQ(0, g->events[0].trigger);
	EXPECT_EQ(1, g->events[1].trigger);
}

/* Without one, em_event_num picks the trigger, in ECB order (fixed counters first). */
TEST_F(core, em_event_num_is_the_trigger_without_em_trigger_entries)
{
	const struct acp_group *g = started_triggers(_metadata, self, 0, 0);

	ASSERT_EQ(2, g->nevents);
	EXPECT_EQ(1, g->events[0].trigger);
	EXPECT_EQ(0, g->events[1].trigger);
}

/* Neither: every event of the group counts. */
TEST_F(core, every_event_is_a_trigger_when_em_event_num_is_minus_1)
{
	const struct acp_group *g = started_triggers(_metadata, self, 0, -1);

	ASSERT_EQ(2, g->nevents);
	EXPECT_EQ(1, g->events[0].trigger);
	EXPECT_EQ(1, g->events[1].trigger);
}

TEST_F(core, every_event_is_a_trigger_when_em_event_num_is_past_the_group)
{
	const struct acp_group *g = started_triggers(_metadata, self, 0, 2);

	ASSERT_EQ(2, g->nevents);
	EXPECT_EQ(1, g->events[0].trigger);
	EXPECT_EQ(1, g->events[1].trigger);
}

/* Fixed counter 0, precise (INST_RETIRED.PREC_DIST's ECB), with @caps. */
static const struct acp_group *started_prec_dist(struct __test_metadata *_metadata,
						 FIXTURE_DATA(core) *self, u64 caps)
{
	u8 ecb[4720];

	fake_set_msr(&self->f, 0x345, caps);
	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 0, 0x38f, 1ull << 32, 0, 0, SEP_EVREG_GLOBAL);
	ecb_set_slot(ecb, 4, 0x38d, 0xb, 0, 0, SEP_EVREG_GLOBAL);
	ecb_set_slot(ecb, 9, 0x309, (1ull << 48) - 2000003, 0, 1,
		     SEP_EVREG_FIXED_REG | SEP_EVREG_PRECISE);
	return started_ecb(_metadata, self, ecb);
}

/* Where fixed counters can be precise (PEBS baseline), perf's 0x0100. */
TEST_F(core, ecb_precise_fixed_counter_0_is_prec_dist_with_pebs_baseline)
{
	const struct acp_group *g = started_prec_dist(_metadata, self, 1ull << 14);

	ASSERT_EQ(1, g->nevents);
	EXPECT_EQ(1, g->events[0].fixed);
	EXPECT_EQ(1, g->events[0].precise);
	EXPECT_EQ(0x0100, g->events[0].config);
}

/* Without it (Skylake and before), fixed counter 0 stays 0x00c0. */
TEST_F(core, ecb_precise_fixed_counter_0_without_pebs_baseline_is_inst_retired)
{
	const struct acp_group *g = started_prec_dist(_metadata, self, 0);

	ASSERT_EQ(1, g->nevents);
	EXPECT_EQ(1, g->events[0].precise);
	EXPECT_EQ(0x00c0, g->events[0].config);
}

/* An ECB for counting mode: PMC0 counts 0x5300c0 and has no sample-after value. */
static const struct acp_group *
counting_ecb(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self,
	     u32 select_reg, u64 select)
{
	u8 ecb[4720];

	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 0, 0x38f, 0x1, 0, 0, SEP_EVREG_GLOBAL);
	ecb_set_slot(ecb, 5, select_reg, select, 0, 0, 0);
	ecb_set_slot(ecb, 12, 0xc1, 0, 0, 1, SEP_EVREG_IS_GP_REG);
	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, init_driver(_metadata, self, SEP_DRV_CFG_COUNTING_MODE));
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	self->r.h.status = send_ecb(_metadata, self, ecb, 4720, 48);
	if (self->r.h.status == VT_SUCCESS)
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	return &self->f.start_groups[0];
}

/* Counting mode: a counter without a sample-after value counts. */
TEST_F(core, ecb_counter_without_sample_after_counts_in_counting_mode)
{
	const struct acp_group *g = counting_ecb(_metadata, self, 0x186, 0x5300c0);

	ASSERT_EQ(1, g->nevents);
	EXPECT_EQ(0x00c0, g->events[0].config);
	EXPECT_EQ(0, g->events[0].period);
	EXPECT_EQ(0, g->events[0].software);
}

/* Sampling mode still wants one: a counter that never overflows samples nothing. */
TEST_F(core, ecb_counter_without_sample_after_is_refused_when_sampling)
{
	u8 ecb[4720];

	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 0, 0x38f, 0x1, 0, 0, SEP_EVREG_GLOBAL);
	ecb_set_slot(ecb, 5, 0x186, 0x5300c0, 0, 0, 0);
	ecb_set_slot(ecb, 12, 0xc1, 0, 0, 1, SEP_EVREG_IS_GP_REG);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_NE(VT_SUCCESS, send_ecb(_metadata, self, ecb, 4720, 48));
	EXPECT_EQ(1, fake_log_count(&self->f, "no sample-after value"));
}

/* [ACA-EXT] The pseudo select names a perf software event, with its rings. */
TEST_F(core, ecb_software_event_select_is_a_software_event)
{
	const struct acp_group *g = counting_ecb(_metadata, self, ACA_SW_EVENT_SELECT,
						 ACA_SW_CONTEXT_SWITCHES | 0x10000);

	ASSERT_EQ(1, g->nevents);
	EXPECT_EQ(1, g->events[0].software);
	EXPECT_EQ(ACA_SW_CONTEXT_SWITCHES, g->events[0].config);
	EXPECT_EQ(0, g->events[0].exclude_user);
	EXPECT_EQ(1, g->events[0].exclude_kernel);
	EXPECT_EQ(0, g->events[0].config1);
}

/* Any other bit, or an id past the known ones, is refused. */
TEST_F(core, ecb_software_event_select_refuses_unknown_bits)
{
	static const u64 selects[] = { ACA_SW_MAX + 1, 0x30000 | 0x400000 | 1, 0xff };
	u8 ecb[4720];

	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, init_driver(_metadata, self, SEP_DRV_CFG_COUNTING_MODE));
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	for (size_t i = 0; i < ARRAY_SIZE(selects); i++) {
		ecb_copy(_metadata, self, ecb);
		ecb_set_slot(ecb, 0, 0x38f, 0x1, 0, 0, SEP_EVREG_GLOBAL);
		ecb_set_slot(ecb, 5, ACA_SW_EVENT_SELECT, selects[i], 0, 0, 0);
		ecb_set_slot(ecb, 12, 0xc1, 0, 0, 1, SEP_EVREG_IS_GP_REG);
		EXPECT_NE(VT_SUCCESS, send_ecb(_metadata, self, ecb, 4720, 48))
			TH_LOG("select 0x%llx", (unsigned long long)selects[i]);
		EXPECT_EQ(i + 1, fake_log_count(&self->f, "software event select"));
	}
}

/* The pseudo register is a select only: as a counter it is off the allow-list. */
TEST_F(core, ecb_software_event_select_only_in_the_select_section)
{
	u8 ecb[4720];

	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 12, ACA_SW_EVENT_SELECT, 0, 0, 1, SEP_EVREG_IS_GP_REG);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_NE(VT_SUCCESS, send_ecb(_metadata, self, ecb, 4720, 48));
	EXPECT_EQ(1, fake_log_count(&self->f, "register 0x41430100 is not on the PMU allow-list"));
}

/* Select bits 35:32 pass: AMD's event[11:8] (perf: event config:0-7,32-35). */
TEST_F(core, ecb_event_select_bits_35_to_32_reach_perf)
{
	const struct acp_group *g;
	u8 ecb[4720];

	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 0, 0x38f, 0x1, 0, 0, SEP_EVREG_GLOBAL);
	/* Zen 4 op_cache_hit_miss.all_op_cache_accesses: event 0x28f umask 7; PC. */
	ecb_set_slot(ecb, 5, 0x186, 0x2005b078full, 0, 0, 0);
	ecb_set_slot(ecb, 12, 0xc1, (1ull << 48) - 100003, 0, 1, SEP_EVREG_IS_GP_REG);

	g = started_ecb(_metadata, self, ecb);
	ASSERT_EQ(1, g->nevents);
	EXPECT_EQ(0x20000078full, g->events[0].config) TH_LOG("USR, OS, PC, INT, EN are perf's");
}

/*
 * config1 is the OCR slot of the auxiliary MSR the event select uses:
 * offcore response (0xB7/0xBB, and 0x2A/0x2B on newer cores), load
 * latency (0xCD), the PEBS frontend filter (0xC6); by the whole event
 * code: AMD's 0x1CD is none of them.
 */
TEST_F(core, ecb_auxiliary_msrs_become_config1)
{
	static const struct {
		u64 evtsel;
		u64 config1;
	} cases[] = {
		{ 0x5301b7, 0x10001 }, { 0x5301bb, 0x20002 },
		{ 0x53012a, 0x10001 }, { 0x53012b, 0x20002 },
		{ 0x5301cd, 0x80 }, { 0x5301c6, 0x400206 },
		{ 0x5301c0, 0 }, { 0x1005301cdull, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct acp_group *g;
		u8 ecb[4720];

		ecb_copy(_metadata, self, ecb);
		ecb_set_slot(ecb, 0, 0x38f, 0x1, 0, 0, SEP_EVREG_GLOBAL);
		ecb_set_slot(ecb, 5, 0x186, cases[i].evtsel, 0, 0, 0);
		ecb_set_slot(ecb, 12, 0xc1, (1ull << 48) - 100003, 0, 1,
			     SEP_EVREG_IS_GP_REG);
		ecb_set_slot(ecb, 16, 0x1a6, 0x10001, 0, 0, 0);
		ecb_set_slot(ecb, 17, 0x1a7, 0x20002, 0, 0, 0);
		ecb_set_slot(ecb, 18, 0x3f6, 0x80, 0, 0, 0);
		ecb_set_slot(ecb, 19, 0x3f7, 0x400206, 0, 0, 0);
		reinit(_metadata, self, FAKE_NCPUS);
		g = started_ecb(_metadata, self, ecb);
		ASSERT_EQ(1, g->nevents);
		EXPECT_EQ(cases[i].evtsel & 0xf0000ffffull, g->events[0].config);
		EXPECT_EQ(cases[i].config1, g->events[0].config1)
			TH_LOG("event select 0x%llx", (unsigned long long)cases[i].evtsel);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
	}
}

TEST_F(core, ecb_with_a_register_off_the_allow_list_is_refused)
{
	static const u32 regs[] = { 0x10, 0x1b0, 0xc0000080, 0x2be };
	u8 ecb[4720];

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		char needle[32];

		ecb_copy(_metadata, self, ecb);
		/* The LBR select slot of the OCR section, or one no section names. */
		ecb_set_slot(ecb, i % 2 ? 20 : 21, regs[i], 0, 0, 0, 0);
		snprintf(needle, sizeof(needle), "register 0x%x", regs[i]);
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, ecb, sizeof(ecb), 48))
			TH_LOG("register 0x%x", regs[i]);
		EXPECT_EQ(1, fake_log_count(&self->f, needle));
	}
	/* Nothing was loaded: START has no events. */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(0, self->f.nstart);
}

TEST_F(core, ecb_sections_beyond_the_slots_are_refused)
{
	u8 ecb[4720], big[4720 + 2 * 136] = { 0 };

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	/* Cut after 12 slots: DATA_GP (12 + 4) is beyond them. */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  send_ecb(_metadata, self, core_ecb(_metadata, self), 1728 + 12 * 136, 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "beyond"));
	/* Only the header: every section is beyond. */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  send_ecb(_metadata, self, core_ecb(_metadata, self), 1728, 0));
	/* A partial slot does not count. */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  send_ecb(_metadata, self, core_ecb(_metadata, self), 4720 - 1, 0));
	/* Starts and lengths that overflow 32 bits. */
	ecb_copy(_metadata, self, ecb);
	ecb_set_op(ecb, SEP_OP_DATA_FIXED, 0xfffffffe, 3);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	ecb_copy(_metadata, self, ecb);
	ecb_set_op(ecb, SEP_OP_DATA_ALL, 9, 0xffffffff);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	ecb_copy(_metadata, self, ecb);
	ecb_set_op(ecb, SEP_OP_GLOBAL_REGS, ECB_SLOTS, 1);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	EXPECT_EQ(6, fake_log_count(&self->f, "beyond"));
	/* Extra slots beyond num_entries and size_of_allocation are fine. */
	memcpy(big, core_ecb(_metadata, self), 4720);
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, big, sizeof(big), 0));
}

TEST_F(core, malformed_ecbs_are_refused)
{
	u8 ecb[4720];

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	/* Before EM_GROUPS there is no group 0. */
	EXPECT_NE(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	/* Shorter than the header. */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, core_ecb(_metadata, self), 1727, 0));
	/* A group beyond EM_GROUPS. */
	ecb_copy(_metadata, self, ecb);
	ecb_set_u32(ecb, __builtin_offsetof(struct sep_ecb, group_id), 1);
	EXPECT_NE(VT_SUCCESS, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	ecb_set_u32(ecb, __builtin_offsetof(struct sep_ecb, group_id), ~0u);
	EXPECT_NE(VT_SUCCESS, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	/* Not a core PMU: the uncore vector through EM_CONFIG_NEXT. */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, uncore_ecb(_metadata, self), 2680, 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "device type 12"));
	/* A counter with no sample-after value. */
	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 11, 0x30b, 0, 0xffffffffffffull, 0, SEP_EVREG_FIXED_REG);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "sample-after"));
	/* A general counter without its event select. */
	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 0, 0x38f, 0x1, 0, 0, 0);
	ecb_set_slot(ecb, 12, 0xc1, 0xfff0, 0xffff, 0, 0);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "no event select"));
	/* Fixed counter 4 does not exist for perf. */
	ecb_copy(_metadata, self, ecb);
	ecb_set_op(ecb, SEP_OP_DATA_FIXED, 9, 5);
	ecb_set_slot(ecb, 13, 0x309, 0xfff0, 0xffff, 0, 0);
	ecb_set_slot(ecb, 0, 0x38f, 1ull << 36, 0, 0, 0);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "fixed counter 4"));
	/* Every counter disabled: accepted, but START has no event. */
	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 0, 0x38f, 0, 0, 0, SEP_EVREG_GLOBAL);
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(0, self->f.nstart);
	/* The good one still works after all that. */
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
}

/*
 * Counter sections as long as a PMU's counters can be (16 fixed, 32
 * general: IA32_PERF_GLOBAL_CTRL bits 32-47 and 0-31) are accepted; a
 * counter whose enable bit is clear is disabled, whatever its slot holds.
 */
TEST_F(core, ecb_counter_sections_up_to_the_pmu_limit_are_accepted)
{
	enum { SLOTS = 22 + 32 };
	static u8 ecb[sizeof(struct sep_ecb) + SLOTS * sizeof(struct sep_event_reg)];

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	for (u32 fixed = 0; fixed < 2; fixed++) {
		memset(ecb, 0, sizeof(ecb));
		ecb_copy(_metadata, self, ecb);
		/* GP 0 and fixed counter 2 enabled; GP 0 has no select. */
		ecb_set_slot(ecb, 0, 0x38f, 1ull << 34 | 0x1, 0, 0, SEP_EVREG_GLOBAL);
		ecb_set_op(ecb, fixed ? SEP_OP_DATA_FIXED : SEP_OP_DATA_GP, 22,
			   fixed ? 16 : 32);
		if (fixed) {
			ecb_set_slot(ecb, 22 + 2, 0x30b, (1ull << 48) - 2200000,
				     0xffffffffffffull, 0, SEP_EVREG_FIXED_REG);
			ecb_set_slot(ecb, 22 + 15, 0x309, 0xfff0, 0xffff, 0,
				     SEP_EVREG_FIXED_REG);
		} else {
			ecb_set_slot(ecb, 22 + 31, 0xc1, 0xfff0, 0xffff, 0, 0);
		}
		EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, sizeof(ecb), 0))
			TH_LOG("%s", fixed ? "16 fixed counters" : "32 general counters");
	}
	EXPECT_EQ(0, fake_log_count(&self->f, "not supported"));
	EXPECT_EQ(0, fake_log_count(&self->f, "no event select"));
	/* Only fixed counter 2 was taken. */
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(1, self->f.start_groups[0].nevents);
	EXPECT_EQ(0x30b, started_event(self, 0, 0)->msr);
}

/* The core vector with one section @len slots long, in an ECB of 22 + 40. */
static inline s32 send_long_section(struct __test_metadata *_metadata,
				    FIXTURE_DATA(core) *self, u32 op, u32 len)
{
	enum { SLOTS = 22 + 40 };
	static u8 ecb[sizeof(struct sep_ecb) + SLOTS * sizeof(struct sep_event_reg)];

	memset(ecb, 0, sizeof(ecb));
	ecb_copy(_metadata, self, ecb);
	ecb_set_op(ecb, op, 22, len);
	return send_ecb(_metadata, self, ecb, sizeof(ecb), 0);
}

/* Slot j is counter j (spec 6.2): 17 fixed counters exist on no PMU. */
TEST_F(core, ecb_with_17_fixed_counter_slots_is_refused)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_long_section(_metadata, self, SEP_OP_DATA_FIXED, 17));
	EXPECT_EQ(1, fake_log_count(&self->f, "17 fixed counter slots"));
}

TEST_F(core, ecb_with_33_general_counter_slots_is_refused)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_long_section(_metadata, self, SEP_OP_DATA_GP, 33));
	EXPECT_EQ(1, fake_log_count(&self->f, "33 general counter slots"));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_long_section(_metadata, self, SEP_OP_CTRL_GP, 33));
	EXPECT_EQ(1, fake_log_count(&self->f, "33 event select slots"));
}

/* A refused long section loads nothing: START has no events. */
TEST_F(core, ecb_with_too_many_counter_slots_loads_nothing)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	send_long_section(_metadata, self, SEP_OP_DATA_FIXED, 17);
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(0, self->f.nstart);
}

/* The core vector with fixed counter 2 (slot 11) given @value and @mask. */
static inline s32 send_fixed2(struct __test_metadata *_metadata,
			      FIXTURE_DATA(core) *self, u32 group, u64 value,
			      u64 mask)
{
	u8 ecb[4720];

	ecb_copy(_metadata, self, ecb);
	ecb_set_u32(ecb, __builtin_offsetof(struct sep_ecb, group_id), group);
	ecb_set_slot(ecb, 11, 0x30b, value, mask, 0, SEP_EVREG_FIXED_REG | SEP_EVREG_LBR_VALUE);
	return send_ecb(_metadata, self, ecb, sizeof(ecb), 0);
}

/* max_bits is a counter width, 2^n - 1: any other mask is refused. */
TEST_F(core, ecb_counter_mask_not_2n_minus_1_is_refused)
{
	static const u64 masks[] = {
		0xfffffffffffeull, 0xf0f0ull, 0x8000ull, 0xffff0000ffffull,
		1ull << 48, 0x7ffffffffffeull,
	};

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	for (size_t i = 0; i < ARRAY_SIZE(masks); i++) {
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_fixed2(_metadata, self, 0, 0x1000, masks[i]))
			TH_LOG("mask 0x%llx", (unsigned long long)masks[i]);
	}
	EXPECT_EQ(ARRAY_SIZE(masks), fake_log_count(&self->f, "width mask"));
}

/* Counters are at most 48 bits wide: a 49-bit mask is refused. */
TEST_F(core, ecb_counter_mask_of_49_bits_is_refused)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  send_fixed2(_metadata, self, 0, 1, (1ull << 49) - 1));
	EXPECT_EQ(1, fake_log_count(&self->f, "width mask 0x1ffffffffffff"));
}

/*
 * A period with bit 63 set (a 64-bit mask; reg_value 1: SAV 2^64 - 1,
 * reg_value 2^63: SAV 2^63) is refused, not clamped: the host asked for
 * something no counter counts. (The kernel glue clamps anyway.)
 */
TEST_F(core, ecb_period_with_bit_63_is_refused)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_fixed2(_metadata, self, 0, 1, ~0ull));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  send_fixed2(_metadata, self, 0, 1ull << 63, ~0ull));
	EXPECT_EQ(2, fake_log_count(&self->f, "width mask"));
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(0, self->f.nstart);
}

/* Widths of 1 to 48 bits are fine; every period stays below 2^48. */
TEST_F(core, ecb_periods_stay_below_2_to_the_48)
{
	static const u32 bits[FAKE_MAX_GROUPS] = { 1, 20, 47, 48 };

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, FAKE_MAX_GROUPS));
	/* reg_value 1: the largest sample-after value, 2^n - 1. */
	for (u32 g = 0; g < FAKE_MAX_GROUPS; g++) {
		EXPECT_EQ(VT_SUCCESS,
			  send_fixed2(_metadata, self, g, 1, (1ull << bits[g]) - 1))
			TH_LOG("%u bits", bits[g]);
	}
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	for (u32 g = 0; g < FAKE_MAX_GROUPS; g++) {
		ASSERT_EQ(1, self->f.start_groups[g].nevents);
		EXPECT_EQ((1ull << bits[g]) - 1, started_event(self, g, 0)->period)
			TH_LOG("%u bits", bits[g]);
	}
	EXPECT_EQ(ACP_COUNTER_MASK, started_event(self, 3, 0)->period);
}

/* The spec's formula wraps reg_value 0 to a period of 0: refused. */
TEST_F(core, ecb_period_of_0_is_refused)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_fixed2(_metadata, self, 0, 0, 0xffffffffffffull));
	EXPECT_EQ(1, fake_log_count(&self->f, "no sample-after value"));
}

/*
 * An ECB refused halfway through its counters (fixed ones decoded, then a
 * general counter without its event select) leaves its group as it was:
 * empty if it had no ECB yet, the previous ECB's events if it had one.
 * START must never see a group half-decoded.
 */
TEST_F(core, refused_ecb_leaves_its_group_as_it_was)
{
	u8 ecb[4720];

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 2));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 0, 0x38f, 1ull << 34 | 0x1, 0, 0, SEP_EVREG_GLOBAL);
	ecb_set_slot(ecb, 12, 0xc1, 0xfff0, 0xffff, 0, 0);
	/* Group 0 had an ECB, group 1 none. */
	for (u32 group = 0; group < 2; group++) {
		ecb_set_u32(ecb, __builtin_offsetof(struct sep_ecb, group_id), group);
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	}
	EXPECT_EQ(2, fake_log_count(&self->f, "no event select"));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(2, self->f.start_ngroups);
	EXPECT_TRUE(self->f.start_groups[0].loaded);
	ASSERT_EQ(1, self->f.start_groups[0].nevents);
	EXPECT_EQ(0x30b, started_event(self, 0, 0)->msr);
	EXPECT_EQ(2200000, started_event(self, 0, 0)->period);
	EXPECT_FALSE(self->f.start_groups[1].loaded);
	EXPECT_EQ(0, self->f.start_groups[1].nevents);
}

TEST_F(core, em_groups_count_is_1_to_the_most_groups)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_BAD_PARAMETER, em_groups(_metadata, self, 0));
	EXPECT_EQ(VT_BAD_PARAMETER, em_groups(_metadata, self, ACP_MAX_GROUPS + 1));
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, ACP_MAX_GROUPS));
}

TEST_F(core, em_groups_payload_is_one_event_config)
{
	u8 big[sizeof(struct sep_event_config) + 1] = { 0 };
	struct sep_event_config ec;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	tc_event_config(&ec, false);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_EM_GROUPS, &ec, sizeof(ec) - 1, 0));
	memcpy(big, &ec, sizeof(ec));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_EM_GROUPS, big, sizeof(big), 0));
}

/* A new EM_GROUPS replaces the old groups; START takes every group. */
TEST_F(core, em_groups_again_replaces_the_groups)
{
	u8 ecb[4720];

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, ACP_MAX_GROUPS));
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 2));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	ecb_copy(_metadata, self, ecb);
	ecb_set_u32(ecb, __builtin_offsetof(struct sep_ecb, group_id), 1);
	ecb_set_slot(ecb, 11, 0x30b, (1ull << 48) - 1000, 0xffffffffffffull, 5, 0);
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(2, self->f.start_ngroups);
	EXPECT_EQ(2200000, started_event(self, 0, 0)->period);
	EXPECT_EQ(1000, started_event(self, 1, 0)->period);
	EXPECT_EQ(5, started_event(self, 1, 0)->event_index);
}

/* NUM_DESCRIPTOR gives the count of DESC_NEXTs; a new count starts over. */
TEST_F(core, desc_next_beyond_the_count_is_refused)
{
	struct sep_event_desc d = { .sample_size = 48 };

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, 2));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	/* A third of two. */
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	/* A new count starts over. */
	EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, 1));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
}

/* Records smaller than a SampleRecordPC, too large, or unaligned: refused. */
TEST_F(core, desc_next_sample_size_is_0_or_48_to_4096_by_8)
{
	struct sep_event_desc d = { .sample_size = 48 };

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, 3));
	d.sample_size = 40;
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	d.sample_size = 4104;
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	d.sample_size = 52;
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	d.sample_size = 0;
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	d.sample_size = 4096;
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	d.sample_size = 56;
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
}

/*
 * [ACA-EXT] A callstack area lies after the 48-byte base, inside the
 * record, 8-byte aligned, with room for its head and an address.
 */
TEST_F(core, desc_next_callstack_area_lies_inside_the_record)
{
	static const struct { u32 size, offset, len; s32 status; } cases[] = {
		{ 112, 48, 64, VT_SUCCESS },		/* exactly to the end */
		{ 4096, 48, 4048, VT_SUCCESS },
		{ 112, 56, 16, VT_SUCCESS },
		{ 112, 40, 64, VT_BAD_PARAMETER },	/* over the base */
		{ 112, 52, 56, VT_BAD_PARAMETER },	/* unaligned */
		{ 112, 48, 68, VT_BAD_PARAMETER },	/* unaligned size, past the end */
		{ 112, 48, 72, VT_BAD_PARAMETER },	/* past the end */
		{ 112, 48, 8, VT_BAD_PARAMETER },	/* a head and no address */
		{ 0, 48, 16, VT_BAD_PARAMETER },	/* a 48-byte record has no room */
		{ 112, 0xfffffff8, 16, VT_BAD_PARAMETER },	/* offset + size wraps */
		{ 112, 48, 0xfffffff8, VT_BAD_PARAMETER },
		{ 112, 0, 0, VT_SUCCESS },		/* no area */
	};
	struct sep_event_desc d = { 0 };

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		d.sample_size = cases[i].size;
		d.callstack_offset = cases[i].offset;
		d.callstack_size = cases[i].len;
		EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, 1));
		EXPECT_EQ(cases[i].status,
			  cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0))
			TH_LOG("record %u, area %u at %u", cases[i].size, cases[i].len,
			       cases[i].offset);
	}
}

TEST_F(core, descriptor_payloads_are_exact_and_bounded)
{
	struct sep_event_desc d = { .sample_size = 48 };

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_BAD_PARAMETER, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, ACP_MAX_DESCRIPTORS + 1));
	EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, ACP_MAX_DESCRIPTORS));
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d) - 1, 0));
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, &d, 8, 0));
}

/* One entry per CPU, at most N; sent again, replaced, not added. */
TEST_F(core, cpu_topology_is_replaced_not_added)
{
	struct sep_drv_topology_info topo[FAKE_NCPUS + 4];
	long live;

	tc_topology(topo, FAKE_NCPUS + 4);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	live = self->f.live;
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_CPU_TOPOLOGY, topo, 72 * FAKE_NCPUS, 0));
	EXPECT_EQ(live + 1, self->f.live);
	/* Again: replaced, not added. One entry, extra bytes, more than N. */
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_CPU_TOPOLOGY, topo, 72, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_CPU_TOPOLOGY, topo, 72 * 2 + 10, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_CPU_TOPOLOGY, topo, sizeof(topo), 0));
	EXPECT_EQ(live + 1, self->f.live);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_SET_CPU_TOPOLOGY, topo, 71, 0));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_SET_CPU_TOPOLOGY, NULL, 0, 0));
}

TEST_F(core, init_pmu_takes_nothing_or_a_u32)
{
	u8 five[5] = { 0 };

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT_PMU, NULL, 0, 0));
	EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_INIT_PMU, FAKE_NCPUS * 7 * 8));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_INIT_PMU, five, 5, 0));
}

/*
 * Core events configured and started, on a session where uncore was
 * refused: the refusal leaves the session CONFIGURED (IDLE on the wire).
 */
static inline void expect_core_collection_starts(struct __test_metadata *_metadata,
						 FIXTURE_DATA(core) *self)
{
	EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(SEP_STATE_RUNNING, driver_state(_metadata, self));
	EXPECT_EQ(1, self->f.nstart);
}

/* A target without uncore (spec 5.5): 183 and why, not an empty channel. */
TEST_F(core, init_unc_is_refused_without_an_uncore_pmu)
{
	struct sep_dev_unc_config unc = { .dispatch_id = 120, .device_type = 1 };

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_INVALID_DEVICE, cmd(_metadata, self, SEP_CMD_INIT_UNC, &unc, sizeof(unc), 0));
	EXPECT_EQ(1, self->f.nlogs);
	EXPECT_EQ(1, fake_log_count(&self->f,
				    "INIT_UNC refused (183): aca collects no uncore events on this target"));
	EXPECT_EQ(1, fake_log_count(&self->f, "configure core events only"));
	expect_core_collection_starts(_metadata, self);
}

TEST_F(core, em_groups_unc_is_refused_without_an_uncore_pmu)
{
	struct sep_event_config ecu;

	tc_event_config(&ecu, true);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_INVALID_DEVICE, cmd(_metadata, self, SEP_CMD_EM_GROUPS_UNC, &ecu, sizeof(ecu), 0));
	EXPECT_EQ(1, self->f.nlogs);
	EXPECT_EQ(1, fake_log_count(&self->f, "EM_GROUPS_UNC refused (183)"));
	expect_core_collection_starts(_metadata, self);
}

/* No DRV_IOCTL_STATUS follows the refusal, asked or not (spec 4.1). */
TEST_F(core, em_config_next_unc_is_refused_without_an_uncore_pmu)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_INVALID_DEVICE, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC,
					 uncore_ecb(_metadata, self), 2680, 0));
	EXPECT_EQ(VT_INVALID_DEVICE, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC,
					 uncore_ecb(_metadata, self), 2680, 48));
	EXPECT_EQ(0, self->r.len);
	EXPECT_EQ(2, fake_log_count(&self->f, "EM_CONFIG_NEXT_UNC refused (183)"));
	expect_core_collection_starts(_metadata, self);
}

/* Malformed uncore requests are refused as any other is: 159, not 183. */
TEST_F(core, uncore_requests_of_a_wrong_size_are_refused_with_159)
{
	struct sep_dev_unc_config unc = { .dispatch_id = 120, .device_type = 1 };
	struct sep_event_config ecu;
	u8 big[sizeof(ecu) + 8] = { 0 };

	tc_event_config(&ecu, true);
	memcpy(big, &ecu, sizeof(ecu));
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  cmd(_metadata, self, SEP_CMD_INIT_UNC, &unc, sizeof(unc) - 1, 0));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  cmd(_metadata, self, SEP_CMD_EM_GROUPS_UNC, big, sizeof(big), 0));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC,
					     uncore_ecb(_metadata, self), 1000, 0));
	EXPECT_EQ(0, fake_log_count(&self->f, "refused (183)"));
	/* Uncore asked for alone is nothing to START. */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
}

TEST_F(core, start_needs_events)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "START without any event"));
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(0, self->f.nstart);
	EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
}

TEST_F(core, start_needs_a_sampler_that_starts)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	/* The sampler fails. */
	self->f.start_ret = -16;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(1, self->f.nstart);
	EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
	/* No sampler in this build. */
	self->ops.start = NULL;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "not available"));
	EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
	/* And once it works: RUNNING. */
	self->ops.start = fake_ops.start;
	self->f.start_ret = 0;
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(SEP_STATE_RUNNING, driver_state(_metadata, self));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(2, self->f.nstart);
}

TEST_F(core, start_paused_when_configured_so)
{
	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, init_driver(_metadata, self, SEP_DRV_CFG_START_PAUSED | 0x4400));
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(1, self->f.nstart);
	EXPECT_TRUE(self->f.start_paused);
	EXPECT_EQ(SEP_STATE_PAUSED, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_RESUME, NULL, 0, 0));
	EXPECT_EQ(1, self->f.nresume);
	EXPECT_EQ(SEP_STATE_RUNNING, driver_state(_metadata, self));
}

TEST_F(core, pause_and_resume_toggle)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAUSE, NULL, 0, 0));
	EXPECT_EQ(SEP_STATE_PAUSED, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAUSE, NULL, 0, 0));
	EXPECT_EQ(1, self->f.npause);
	EXPECT_EQ(SEP_STATE_PAUSED, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_RESUME, NULL, 0, 0));
	EXPECT_EQ(SEP_STATE_RUNNING, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_RESUME, NULL, 0, 0));
	EXPECT_EQ(1, self->f.nresume);
	EXPECT_EQ(SEP_STATE_RUNNING, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAUSE, NULL, 0, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_RESUME, NULL, 0, 0));
	EXPECT_EQ(2, self->f.npause);
	EXPECT_EQ(2, self->f.nresume);
}

TEST_F(core, pause_and_resume_elsewhere_are_successful_noops)
{
	static const enum acp_state states[] = { ACP_IDLE, ACP_RESERVED, ACP_CONFIGURED, ACP_STOPPED };
	static const u32 wire[] = {
		SEP_STATE_UNINITIALIZED, SEP_STATE_RESERVED, SEP_STATE_IDLE, SEP_STATE_STOPPED,
	};

	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		open_session(_metadata, self);
		goto_state(_metadata, self, states[i]);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAUSE, NULL, 0, 0));
		EXPECT_EQ(wire[i], driver_state(_metadata, self));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_RESUME, NULL, 0, 0));
		EXPECT_EQ(wire[i], driver_state(_metadata, self));
		EXPECT_EQ(0, self->f.npause + self->f.nresume);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	}
}

/* SWITCH_GROUP (spec 6.8): the sampler's next group, while collecting only. */
TEST_F(core, switch_group_while_collecting_asks_the_sampler)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SWITCH_GROUP, NULL, 0, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAUSE, NULL, 0, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SWITCH_GROUP, NULL, 0, 0));
	EXPECT_EQ(2, self->f.nswitch);
	EXPECT_EQ(SEP_STATE_PAUSED, driver_state(_metadata, self));
	EXPECT_EQ(0, self->f.misuse);
}

TEST_F(core, switch_group_with_one_group_is_refused)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	self->f.switch_ret = -1;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_SWITCH_GROUP, NULL, 0, 0));
	EXPECT_EQ(SEP_STATE_RUNNING, driver_state(_metadata, self));
	EXPECT_EQ(0, self->f.nswitch);
}

TEST_F(core, switch_group_before_start_or_after_stop_is_refused)
{
	static const enum acp_state states[] = { ACP_IDLE, ACP_CONFIGURED, ACP_STOPPED };

	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		open_session(_metadata, self);
		goto_state(_metadata, self, states[i]);
		EXPECT_EQ(VT_DRIVER_COMM_FAILED,
			  cmd(_metadata, self, SEP_CMD_SWITCH_GROUP, NULL, 0, 0));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	}
	EXPECT_EQ(0, self->f.nswitch);
}

/* Counting mode: READ_AND_RESET answers the sampler's reads, as much as asked. */
TEST_F(core, read_and_reset_answers_the_counts_asked)
{
	counting_ecb(_metadata, self, ACA_SW_EVENT_SELECT, ACA_SW_TASK_CLOCK | 0x30000);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_AND_RESET, NULL, 0, 40));
	EXPECT_EQ(0x0807060504030201ull, resp_u64(self, 0));
	EXPECT_EQ(0x2827262524232221ull, resp_u64(self, 32));
	EXPECT_EQ(1, self->f.nread);
	EXPECT_EQ(0, self->f.nread_next);
	EXPECT_EQ(0, self->f.misuse);
}

/* READ_SWITCH_GROUP reads, then moves on; both also while paused. */
TEST_F(core, read_switch_group_reads_then_switches)
{
	counting_ecb(_metadata, self, ACA_SW_EVENT_SELECT, ACA_SW_TASK_CLOCK | 0x30000);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAUSE, NULL, 0, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_SWITCH_GROUP, NULL, 0, 16));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_AND_RESET, NULL, 0, 0));
	EXPECT_EQ(2, self->f.nread);
	EXPECT_EQ(1, self->f.nread_next);
}

/*
 * aca-host stat's counting ECB (tools/aca-host/ecb.c) decodes to its events
 * in the order it expects the counts in: order[i] is event i's place.
 */
TEST_F(core, host_counting_ecb_decodes_in_the_order_aca_host_reads)
{
	static const struct host_count_event ev[] = {
		{ .sw = 1, .num = ACA_SW_PAGE_FAULTS },
		{ .sw = 0, .num = 2 },		/* fixed counter 2, REF_TSC */
		{ .sw = 1, .num = ACA_SW_TASK_CLOCK },
		{ .sw = 0, .num = 0 },		/* fixed counter 0, INST_RETIRED */
		{ .sw = 1, .num = ACA_SW_CONTEXT_SWITCHES },
	};
	u32 order[ARRAY_SIZE(ev)];
	const struct acp_group *g;
	size_t len;
	u8 *ecb = host_ecb_build_counting(ev, ARRAY_SIZE(ev), order, &len);

	ASSERT_NE(NULL, ecb);
	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, init_driver(_metadata, self, SEP_DRV_CFG_COUNTING_MODE));
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, len, 48));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	g = &self->f.start_groups[0];
	ASSERT_EQ(ARRAY_SIZE(ev), g->nevents);
	for (u32 i = 0; i < ARRAY_SIZE(ev); i++) {
		const struct acp_event *e = &g->events[order[i]];

		EXPECT_EQ(ev[i].sw, e->software) TH_LOG("event %u", i);
		EXPECT_EQ(!ev[i].sw, e->fixed) TH_LOG("event %u", i);
		EXPECT_EQ(ev[i].num, ev[i].sw ? e->config : e->counter) TH_LOG("event %u", i);
		EXPECT_EQ(0, e->period) TH_LOG("event %u", i);
		EXPECT_EQ(0, e->exclude_user | e->exclude_kernel) TH_LOG("event %u", i);
	}
	free(ecb);
}

/* Counting mode switches with READ_SWITCH_GROUP only: no count goes unread. */
TEST_F(core, switch_group_in_counting_mode_is_refused)
{
	counting_ecb(_metadata, self, ACA_SW_EVENT_SELECT, ACA_SW_TASK_CLOCK | 0x30000);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_SWITCH_GROUP, NULL, 0, 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "READ_SWITCH_GROUP (62) switches"));
	EXPECT_EQ(0, self->f.nswitch);
}

/* Beyond what a target can count (N CPUs of 1 + ACP_MAX_EVENTS U64s): zeros. */
TEST_F(core, read_and_reset_beyond_what_there_can_be_is_zeros)
{
	u64 most = (u64)self->f.ncpus * 8 * (1 + ACP_MAX_EVENTS);

	counting_ecb(_metadata, self, ACA_SW_EVENT_SELECT, ACA_SW_TASK_CLOCK | 0x30000);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_AND_RESET, NULL, 0, most + 64));
	EXPECT_EQ((u8)most, self->r.data[most - 1]);
	for (u64 i = most; i < most + 64; i++)
		EXPECT_EQ(0, self->r.data[i]);
}

/* A sampling collection has no counts: 159, and the log says why. */
TEST_F(core, read_and_reset_while_sampling_is_refused)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  cmd(_metadata, self, SEP_CMD_READ_AND_RESET, NULL, 0, 64));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  cmd(_metadata, self, SEP_CMD_READ_SWITCH_GROUP, NULL, 0, 64));
	EXPECT_EQ(2, fake_log_count(&self->f, "counting mode"));
	EXPECT_EQ(0, self->f.nread);
}

/* Outside a collection: 159 from the state table, the sampler not asked. */
TEST_F(core, read_and_reset_outside_a_collection_is_refused)
{
	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, init_driver(_metadata, self, SEP_DRV_CFG_COUNTING_MODE));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  cmd(_metadata, self, SEP_CMD_READ_AND_RESET, NULL, 0, 64));
	EXPECT_EQ(0, self->f.nread);
}

/* [ACA-EXT] GROUP_TIMES: at least its head asked; the sampler fills it. */
TEST_F(core, group_times_needs_room_for_its_head)
{
	struct aca_group_times_head h;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SWITCH_GROUP, NULL, 0, 0));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  cmd(_metadata, self, ACA_CMD_GROUP_TIMES, NULL, 0, sizeof(h) - 1));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, ACA_CMD_GROUP_TIMES, NULL, 0, sizeof(h)));
	EXPECT_EQ(1, resp_u32(self, offsetof(struct aca_group_times_head, ngroups)));
	EXPECT_EQ(1, resp_u64(self, offsetof(struct aca_group_times_head, switches)));
	EXPECT_EQ(0, self->f.misuse);
}

/* Asked more than there can be: the rest is zeros, not a 16 MiB allocation. */
TEST_F(core, group_times_beyond_what_there_can_be_is_zeros)
{
	u32 asked = ACP_MAX_REPLY;

	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_STOPPED);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, ACA_CMD_GROUP_TIMES, NULL, 0, asked));
	EXPECT_EQ(asked, self->r.len);
	EXPECT_GT(1u << 20, self->f.largest);
}

/* start/stop/pause are optional ops (START without start() fails). */
TEST_F(core, sampler_without_pause_op)
{
	self->ops.pause = NULL;
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAUSE, NULL, 0, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_RESUME, NULL, 0, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
	EXPECT_EQ(1, self->f.nstop);
}

TEST_F(core, stop_only_when_collecting)
{
	static const enum acp_state idle[] = { ACP_IDLE, ACP_RESERVED, ACP_CONFIGURED };

	for (size_t i = 0; i < sizeof(idle) / sizeof(idle[0]); i++) {
		open_session(_metadata, self);
		goto_state(_metadata, self, idle[i]);
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
		EXPECT_EQ(0, self->f.nstop);
		EXPECT_EQ(0, self->f.nwoken) TH_LOG("data channels stay open");
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
		self->f.nwoken = 0;
	}
}

TEST_F(core, stop_closes_the_data_channels)
{
	struct sep_target_status_msg s;

	for (int paused = 0; paused < 2; paused++) {
		open_session(_metadata, self);
		goto_state(_metadata, self, paused ? ACP_PAUSED : ACP_RUNNING);
		self->f.nstop = 0;
		self->f.nwoken = 0;
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
		EXPECT_EQ(1, self->f.nstop);
		EXPECT_EQ(SEP_STATE_STOPPED, driver_state(_metadata, self));
		for (u32 i = 0; i < self->ndata; i++) {
			EXPECT_EQ(1, fake_woken(&self->f, self->data[i]));
			expect_eof(_metadata, self, self->data[i]);
		}
		/* After STOP: queries yes, a second STOP or START no. */
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_NUM_SAMPLES, NULL, 0, 8));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TSC_SKEW_INFO, NULL, 0, 32));
		/* A connection now is busy: the channels are not reopened. */
		EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE,
			  hello_on(_metadata, self, new_conn(self), 24, &s));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
		EXPECT_EQ(1, self->f.nstop) TH_LOG("stopped once only");
		EXPECT_EQ(self->ndata, self->f.nwoken) TH_LOG("woken once only");
	}
}

TEST_F(core, terminate_from_every_state)
{
	static const enum acp_state states[] = {
		ACP_IDLE, ACP_RESERVED, ACP_CONFIGURED, ACP_RUNNING, ACP_PAUSED, ACP_STOPPED,
	};

	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		u32 stops;

		open_session(_metadata, self);
		goto_state(_metadata, self, states[i]);
		stops = self->f.nstop;
		self->f.nwoken = 0;
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0))
			TH_LOG("state %d", states[i]);
		expect_eof(_metadata, self, self->ctl);
		/* Sampling stops with it; a stopped one is not stopped again. */
		EXPECT_EQ(stops + (states[i] == ACP_RUNNING || states[i] == ACP_PAUSED),
			  self->f.nstop) TH_LOG("state %d", states[i]);
		for (u32 k = 0; k < self->ndata; k++)
			expect_eof(_metadata, self, self->data[k]);
		EXPECT_EQ(states[i] == ACP_STOPPED ? 0 : self->ndata, self->f.nwoken);
		EXPECT_EQ(0, self->f.live) TH_LOG("state %d: all configuration freed", states[i]);
		/* The reservation went with it. */
		open_session(_metadata, self);
		EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
		EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	}
}

/* Control lost while sampling: as TERMINATE, without a response. */
TEST_F(core, control_lost_while_running_stops_sampling)
{
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RUNNING);
	acp_conn_hangup(self->ctl);
	EXPECT_EQ(1, self->f.nstop);
	expect_eof(_metadata, self, self->ctl);
	EXPECT_EQ(0, self->out.total);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_PAUSED);
	acp_conn_release(self->ctl);
	EXPECT_EQ(2, self->f.nstop);
	EXPECT_EQ(0, self->f.live);
	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
}

/* Spec 5.1: CollectionTest and UncoreCollectionTest, as the host sends them. */
TEST_F(core, collection_sequence_of_the_test_suite)
{
	struct sep_drv_log_control log = { .command = SEP_DRV_LOG_CMD_ADJUST_VERBOSITY };
	struct sep_drv_topology_info topo[FAKE_NCPUS];
	struct sep_event_desc desc = { .sample_size = 48 };
	struct sep_dev_config dev = { .dispatch_id = 2, .results_offset = 48, .max_gp_counters = 4 };
	struct sep_dev_unc_config unc = { .dispatch_id = 120, .results_offset = 32, .device_type = 1 };
	struct sep_event_config ec, ecu;
	struct sep_drv_config dc;
	u32 msr = 0x2be, size;
	u64 tsc;

	tc_topology(topo, FAKE_NCPUS);
	tc_event_config(&ec, false);
	tc_event_config(&ecu, true);
	tc_drv_config(&dc, 0x4400);
	for (int uncore = 0; uncore < 2; uncore++) {
		open_session(_metadata, self);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_OSID, NULL, 0, 0));
		EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
		query(_metadata, self, SEP_CMD_GET_DRV_SETUP_INFO, 32);
		for (int i = 0; i < 4; i++) {
			size = query(_metadata, self, SEP_CMD_COLLECT_SYS_CONFIG, 4);
			EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SYS_CONFIG, NULL, 0, size));
			EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PLATFORM_INFO, NULL, 0, 15440));
		}
		EXPECT_EQ(FAKE_NCPUS, query(_metadata, self, SEP_CMD_NUM_CORES, 4));
		/* Any status will do for these two: no payload either way. */
		cmd(_metadata, self, SEP_CMD_READ_MSR, &msr, 4, 0);
		tsc = query(_metadata, self, SEP_CMD_GET_NORMALIZED_TSC, 8);
		EXPECT_LE(tsc, query(_metadata, self, SEP_CMD_GET_NORMALIZED_TSC, 8));
		cmd(_metadata, self, SEP_CMD_CONTROL_DRIVER_LOG, &log, sizeof(log), 0);
		EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_INIT_NUM_DEV, 4));
		EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), 0));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_CPU_TOPOLOGY, topo, sizeof(topo), 0));
		EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, 2));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &desc, sizeof(desc), 0));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &desc, sizeof(desc), 0));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT, &dev, sizeof(dev), 0));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), 0));
		EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
		EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_SET_DEVICE_NUM_UNITS, 4));
		if (uncore) {
			/* Refused (spec 5.5); the core events still START. */
			EXPECT_EQ(VT_INVALID_DEVICE,
				  cmd(_metadata, self, SEP_CMD_INIT_UNC, &unc, sizeof(unc), 0));
			EXPECT_EQ(VT_INVALID_DEVICE,
				  cmd(_metadata, self, SEP_CMD_EM_GROUPS_UNC, &ecu, sizeof(ecu), 0));
			EXPECT_EQ(VT_INVALID_DEVICE, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC,
							 uncore_ecb(_metadata, self), 2680, 0));
			EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_SET_DEVICE_NUM_UNITS, 1));
			EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
		}
		query(_metadata, self, SEP_CMD_GET_NORMALIZED_TSC, 8);
		EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_INIT_PMU, FAKE_NCPUS * 7 * 8));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
		for (u32 i = 0; i < self->ndata; i++)
			expect_eof(_metadata, self, self->data[i]);
		if (uncore) {
			query(_metadata, self, SEP_CMD_GET_NORMALIZED_TSC, 8);
			EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TSC_SKEW_INFO, NULL, 0, 32));
			size = query(_metadata, self, SEP_CMD_COLLECT_SYS_CONFIG, 4);
			EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SYS_CONFIG, NULL, 0, size));
			EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PLATFORM_INFO, NULL, 0, 15440));
			EXPECT_EQ(FAKE_NCPUS, query(_metadata, self, SEP_CMD_NUM_CORES, 4));
		}
		query(_metadata, self, SEP_CMD_GET_NUM_SAMPLES, 8);
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0, 324));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
		expect_eof(_metadata, self, self->ctl);
		EXPECT_EQ(1, self->f.live) TH_LOG("the cached sys-config blob only");
	}
}

TEST_HARNESS_MAIN
