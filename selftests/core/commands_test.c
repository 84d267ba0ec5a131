// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, commands (spec 4, 9): every command of the dispatch table,
 * its response framing and the values it answers.
 * Its own program, build/tests/core_commands_test, on the fixture every core
 * test program shares (core_fixture.h).
 */
#include "core_fixture.h"
#include "cmd_table.h"

#define SETUP_BASE	(SEP_SETUP_NMI_MODE | SEP_SETUP_CPU_HOTPLUG_MODE | \
			 SEP_SETUP_TRACEPOINTS_AVAILABLE | \
			 SEP_SETUP_REGISTER_WHITELIST_DETECTED | \
			 (1ull << SEP_SETUP_DRV_TYPE_SHIFT))

/*
 * Every command of the dispatch table, one test each, in a state it is
 * meant for: a usual collection as a host sends it (spec 5.1). First the
 * queries and the commands allowed in any state, without a reservation;
 * then RESERVE to TERMINATE. A test's setup sends, in order, the steps
 * before its own that SET what later ones need (the sys config's size,
 * the devices, the reservation, the configuration, the collection's
 * state); each must be answered as the table says. The steps that only
 * ASK are sent by their own test alone, so a wrong answer fails one test.
 * Then the test sends its step: the status the table gives, with the
 * framing of spec 4.1 (a payload exactly as long as asked on success,
 * none otherwise).
 *
 * The refusals are always refused: WRITE_MSR (196: aca writes no register
 * for a host, spec 4.5) and, on the fixture's target, which has no uncore,
 * INIT_UNC, EM_GROUPS_UNC and EM_CONFIG_NEXT_UNC (183, spec 5.5). This
 * collection samples, so counting mode's READ_AND_RESET and
 * READ_SWITCH_GROUP are 159 (state_test.c counts).
 *
 * Each step is a row of steps[] (command, payload, reply asked, reply
 * asked per CPU, status, SETS or ASKS) and a variant of the command
 * fixture of the same name, in the same order.
 */
#define SYS_CONFIG_SIZE	(~0ull)	/* the reply COLLECT_SYS_CONFIG announced */
#define LOG_CONTROL	sizeof(struct sep_drv_log_control)
#define GROUP_TIMES	sizeof(struct aca_group_times_head)
#define OK		VT_SUCCESS

enum step_payload {
	IN_NONE, IN_FOUR, IN_TWO, IN_KADDR, IN_LOG, IN_MSR, IN_WRITE_MSR,
	IN_DEV, IN_SCAN, IN_DRV_CONFIG, IN_TOPOLOGY, IN_DESC, IN_EVENTS,
	IN_CORE_ECB, IN_LBR, IN_UNC, IN_UNC_EVENTS, IN_UNCORE_ECB,
};

enum step_kind { ASKS, SETS };

enum step_index {
	STEP_VERSION,
	STEP_GET_DRV_SETUP_INFO,
	STEP_NUM_CORES,
	STEP_GET_NORMALIZED_TSC,
	STEP_GET_NORMALIZED_TSC_STANDALONE,
	STEP_TSC_SKEW_INFO,
	STEP_GET_PLATFORM_INFO,
	STEP_COLLECT_SYS_CONFIG,
	STEP_GET_SYS_CONFIG,
	STEP_KERNEL_CS,
	STEP_GET_NUM_CORE_CTRS,
	STEP_GET_PERF_CAPAB,
	STEP_GET_NUM_SAMPLES,
	STEP_GET_SAMPLE_DROP_INFO,
	STEP_GET_THREAD_COUNT,
	STEP_SET_OSID,
	STEP_KERNEL_SYMBOLS,
	STEP_GROUP_TIMES,
	STEP_PAX_INFO,
	STEP_CONTROL_DRIVER_LOG,
	STEP_GET_DRIVER_LOG,
	STEP_READ_MSR,
	STEP_WRITE_MSR,
	STEP_INIT_NUM_DEV,
	STEP_SET_DEVICE_NUM_UNITS,
	STEP_INIT,
	STEP_SET_SCAN_UNCORE_TOPOLOGY_INFO,
	STEP_GET_DRIVER_STATE,
	STEP_PAUSE_UNRESERVED,
	STEP_RESUME_UNRESERVED,
	STEP_RESERVE,
	STEP_INIT_DRIVER,
	STEP_SET_CPU_TOPOLOGY,
	STEP_NUM_DESCRIPTOR,
	STEP_DESC_NEXT_FIRST,
	STEP_DESC_NEXT_SECOND,
	STEP_EM_GROUPS,
	STEP_EM_CONFIG_NEXT,
	STEP_INIT_PMU,
	STEP_LBR_INFO,
	STEP_INIT_UNC,
	STEP_EM_GROUPS_UNC,
	STEP_EM_CONFIG_NEXT_UNC,
	STEP_START,
	STEP_PAUSE_RUNNING,
	STEP_RESUME_PAUSED,
	STEP_SWITCH_GROUP,
	STEP_MODULE_SNAPSHOT,
	STEP_READ_AND_RESET,
	STEP_READ_SWITCH_GROUP,
	STEP_STOP,
	STEP_TERMINATE,
	NSTEPS
};

struct step {
	u32 id;
	enum step_payload in;
	u64 out, out_per_cpu;		/* the reply asked for */
	s32 status;
	enum step_kind kind;
};

static const struct step steps[NSTEPS] = {
	[STEP_VERSION] = { SEP_CMD_VERSION, IN_NONE, 4, 0, OK, ASKS },
	[STEP_GET_DRV_SETUP_INFO] = { SEP_CMD_GET_DRV_SETUP_INFO, IN_NONE, 32, 0, OK, ASKS },
	[STEP_NUM_CORES] = { SEP_CMD_NUM_CORES, IN_NONE, 4, 0, OK, ASKS },
	[STEP_GET_NORMALIZED_TSC] = { SEP_CMD_GET_NORMALIZED_TSC, IN_NONE, 8, 0, OK, ASKS },
	[STEP_GET_NORMALIZED_TSC_STANDALONE] = {
		SEP_CMD_GET_NORMALIZED_TSC_STANDALONE, IN_NONE, 8, 0, OK, ASKS },
	[STEP_TSC_SKEW_INFO] = { SEP_CMD_TSC_SKEW_INFO, IN_NONE, 32, 0, OK, ASKS },
	[STEP_GET_PLATFORM_INFO] = { SEP_CMD_GET_PLATFORM_INFO, IN_NONE, 15440, 0, OK, ASKS },
	[STEP_COLLECT_SYS_CONFIG] = { SEP_CMD_COLLECT_SYS_CONFIG, IN_NONE, 4, 0, OK, SETS },
	[STEP_GET_SYS_CONFIG] = { SEP_CMD_GET_SYS_CONFIG, IN_NONE, SYS_CONFIG_SIZE, 0, OK, ASKS },
	[STEP_KERNEL_CS] = { SEP_CMD_KERNEL_CS, IN_NONE, 4, 0, OK, ASKS },
	[STEP_GET_NUM_CORE_CTRS] = { SEP_CMD_GET_NUM_CORE_CTRS, IN_NONE, 4, 0, OK, ASKS },
	[STEP_GET_PERF_CAPAB] = { SEP_CMD_GET_PERF_CAPAB, IN_NONE, 0, 8, OK, ASKS },
	[STEP_GET_NUM_SAMPLES] = { SEP_CMD_GET_NUM_SAMPLES, IN_NONE, 8, 0, OK, ASKS },
	[STEP_GET_SAMPLE_DROP_INFO] = { SEP_CMD_GET_SAMPLE_DROP_INFO, IN_NONE, 324, 0, OK, ASKS },
	[STEP_GET_THREAD_COUNT] = { SEP_CMD_GET_THREAD_COUNT, IN_NONE, 4, 0, OK, ASKS },
	[STEP_SET_OSID] = { SEP_CMD_SET_OSID, IN_FOUR, 0, 0, OK, ASKS },
	[STEP_KERNEL_SYMBOLS] = {
		ACA_CMD_KERNEL_SYMBOLS, IN_KADDR, ACA_KSYM_SLOT_SIZE, 0, OK, ASKS },
	[STEP_GROUP_TIMES] = { ACA_CMD_GROUP_TIMES, IN_NONE, GROUP_TIMES, 0, OK, ASKS },
	[STEP_PAX_INFO] = { SEP_CMD_PAX_INFO, IN_NONE, 32, 0, OK, ASKS },
	[STEP_CONTROL_DRIVER_LOG] = {
		SEP_CMD_CONTROL_DRIVER_LOG, IN_LOG, LOG_CONTROL, 0, OK, ASKS },
	[STEP_GET_DRIVER_LOG] = { SEP_CMD_GET_DRIVER_LOG, IN_NONE, 64, 0, OK, ASKS },
	[STEP_READ_MSR] = { SEP_CMD_READ_MSR, IN_MSR, 0, 8, OK, ASKS },
	[STEP_WRITE_MSR] = { SEP_CMD_WRITE_MSR, IN_WRITE_MSR, 0, 0, VT_MSR_ACCESS_ERROR, ASKS },
	[STEP_INIT_NUM_DEV] = { SEP_CMD_INIT_NUM_DEV, IN_FOUR, 0, 0, OK, SETS },
	[STEP_SET_DEVICE_NUM_UNITS] = { SEP_CMD_SET_DEVICE_NUM_UNITS, IN_FOUR, 0, 0, OK, SETS },
	[STEP_INIT] = { SEP_CMD_INIT, IN_DEV, 0, 0, OK, SETS },
	[STEP_SET_SCAN_UNCORE_TOPOLOGY_INFO] = {
		SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO, IN_SCAN, 0, 0, OK, ASKS },
	[STEP_GET_DRIVER_STATE] = { SEP_CMD_GET_DRIVER_STATE, IN_NONE, 4, 0, OK, ASKS },
	[STEP_PAUSE_UNRESERVED] = { SEP_CMD_PAUSE, IN_NONE, 0, 0, OK, ASKS },
	[STEP_RESUME_UNRESERVED] = { SEP_CMD_RESUME, IN_NONE, 0, 0, OK, ASKS },
	[STEP_RESERVE] = { SEP_CMD_RESERVE, IN_NONE, 4, 0, OK, SETS },
	[STEP_INIT_DRIVER] = { SEP_CMD_INIT_DRIVER, IN_DRV_CONFIG, 0, 0, OK, SETS },
	[STEP_SET_CPU_TOPOLOGY] = { SEP_CMD_SET_CPU_TOPOLOGY, IN_TOPOLOGY, 0, 0, OK, SETS },
	[STEP_NUM_DESCRIPTOR] = { SEP_CMD_NUM_DESCRIPTOR, IN_TWO, 0, 0, OK, SETS },
	[STEP_DESC_NEXT_FIRST] = { SEP_CMD_DESC_NEXT, IN_DESC, 0, 0, OK, SETS },
	[STEP_DESC_NEXT_SECOND] = { SEP_CMD_DESC_NEXT, IN_DESC, 0, 0, OK, SETS },
	[STEP_EM_GROUPS] = { SEP_CMD_EM_GROUPS, IN_EVENTS, 0, 0, OK, SETS },
	[STEP_EM_CONFIG_NEXT] = { SEP_CMD_EM_CONFIG_NEXT, IN_CORE_ECB, 48, 0, OK, SETS },
	[STEP_INIT_PMU] = { SEP_CMD_INIT_PMU, IN_FOUR, 0, 0, OK, SETS },
	[STEP_LBR_INFO] = { SEP_CMD_LBR_INFO, IN_LBR, 0, 0, OK, SETS },
	[STEP_INIT_UNC] = { SEP_CMD_INIT_UNC, IN_UNC, 0, 0, VT_INVALID_DEVICE, ASKS },
	[STEP_EM_GROUPS_UNC] = {
		SEP_CMD_EM_GROUPS_UNC, IN_UNC_EVENTS, 0, 0, VT_INVALID_DEVICE, ASKS },
	[STEP_EM_CONFIG_NEXT_UNC] = {
		SEP_CMD_EM_CONFIG_NEXT_UNC, IN_UNCORE_ECB, 48, 0, VT_INVALID_DEVICE, ASKS },
	[STEP_START] = { SEP_CMD_START, IN_NONE, 0, 0, OK, SETS },
	[STEP_PAUSE_RUNNING] = { SEP_CMD_PAUSE, IN_NONE, 0, 0, OK, SETS },
	[STEP_RESUME_PAUSED] = { SEP_CMD_RESUME, IN_NONE, 0, 0, OK, SETS },
	[STEP_SWITCH_GROUP] = { SEP_CMD_SWITCH_GROUP, IN_NONE, 0, 0, OK, ASKS },
	[STEP_MODULE_SNAPSHOT] = { ACA_CMD_MODULE_SNAPSHOT, IN_NONE, 0, 0, OK, ASKS },
	[STEP_READ_AND_RESET] = {
		SEP_CMD_READ_AND_RESET, IN_NONE, 0, 16, VT_DRIVER_COMM_FAILED, ASKS },
	[STEP_READ_SWITCH_GROUP] = {
		SEP_CMD_READ_SWITCH_GROUP, IN_NONE, 0, 16, VT_DRIVER_COMM_FAILED, ASKS },
	[STEP_STOP] = { SEP_CMD_STOP, IN_NONE, 0, 0, OK, SETS },
	[STEP_TERMINATE] = { SEP_CMD_TERMINATE, IN_NONE, 0, 0, OK, ASKS },
};

/* The constant payloads; the others are made in step_payload(). */
static const u32 step_four = 4, step_two = 2, step_msr_global_ctrl = 0x38f;
static const u64 step_kernel_text = 0xffffffff81000000ull;
static const u8 step_scan[16];

static const struct sep_drv_log_control step_log_verbosity = {
	.command = SEP_DRV_LOG_CMD_ADJUST_VERBOSITY,
};

static const struct sep_event_reg step_perfevtsel0 = {
	.event_reg_id.reg_id = 0x186, .reg_value = 0x43003c,
};

static const struct sep_event_desc step_desc = { .sample_size = 48 };

static const struct sep_dev_config step_dev = {
	.dispatch_id = 2, .results_offset = 48, .max_gp_counters = 4,
	.enable_bits = SEP_DEV_CFG_COLLECT_LBRS,
};

static const struct {
	struct sep_lbr_info_head h;
	struct sep_lbr_entry e[3];
} step_lbr = {
	{ sizeof(step_lbr), 3 },
	{ { SEP_LBR_TOS, 0, 0x1c9 }, { SEP_LBR_FROM, 0, 0x680 }, { SEP_LBR_TO, 0, 0x6c0 } },
};

static const struct sep_dev_unc_config step_unc = {
	.dispatch_id = 120, .results_offset = 32, .device_type = 1,
};

FIXTURE(command) {
	FIXTURE_DATA(core) core;
	u32 sys_config_size;		/* what COLLECT_SYS_CONFIG answered */
	struct sep_drv_config dc;
	struct sep_drv_topology_info topo[FAKE_NCPUS];
	struct sep_event_config ec, ecu;
};

FIXTURE_VARIANT(command) {
	unsigned int step;		/* the step tested; those before, its setup */
};

FIXTURE_VARIANT_ADD(command, version) { .step = STEP_VERSION };
FIXTURE_VARIANT_ADD(command, get_drv_setup_info) { .step = STEP_GET_DRV_SETUP_INFO };
FIXTURE_VARIANT_ADD(command, num_cores) { .step = STEP_NUM_CORES };
FIXTURE_VARIANT_ADD(command, get_normalized_tsc) { .step = STEP_GET_NORMALIZED_TSC };
FIXTURE_VARIANT_ADD(command, get_normalized_tsc_standalone) {
	.step = STEP_GET_NORMALIZED_TSC_STANDALONE,
};

FIXTURE_VARIANT_ADD(command, tsc_skew_info) { .step = STEP_TSC_SKEW_INFO };
FIXTURE_VARIANT_ADD(command, get_platform_info) { .step = STEP_GET_PLATFORM_INFO };
FIXTURE_VARIANT_ADD(command, collect_sys_config) { .step = STEP_COLLECT_SYS_CONFIG };
FIXTURE_VARIANT_ADD(command, get_sys_config) { .step = STEP_GET_SYS_CONFIG };
FIXTURE_VARIANT_ADD(command, kernel_cs) { .step = STEP_KERNEL_CS };
FIXTURE_VARIANT_ADD(command, get_num_core_ctrs) { .step = STEP_GET_NUM_CORE_CTRS };
FIXTURE_VARIANT_ADD(command, get_perf_capab) { .step = STEP_GET_PERF_CAPAB };
FIXTURE_VARIANT_ADD(command, get_num_samples) { .step = STEP_GET_NUM_SAMPLES };
FIXTURE_VARIANT_ADD(command, get_sample_drop_info) { .step = STEP_GET_SAMPLE_DROP_INFO };
FIXTURE_VARIANT_ADD(command, get_thread_count) { .step = STEP_GET_THREAD_COUNT };
FIXTURE_VARIANT_ADD(command, set_osid) { .step = STEP_SET_OSID };
FIXTURE_VARIANT_ADD(command, kernel_symbols) { .step = STEP_KERNEL_SYMBOLS };
FIXTURE_VARIANT_ADD(command, group_times) { .step = STEP_GROUP_TIMES };
FIXTURE_VARIANT_ADD(command, pax_info) { .step = STEP_PAX_INFO };
FIXTURE_VARIANT_ADD(command, control_driver_log) { .step = STEP_CONTROL_DRIVER_LOG };
FIXTURE_VARIANT_ADD(command, get_driver_log) { .step = STEP_GET_DRIVER_LOG };
FIXTURE_VARIANT_ADD(command, read_msr) { .step = STEP_READ_MSR };
FIXTURE_VARIANT_ADD(command, write_msr) { .step = STEP_WRITE_MSR };
FIXTURE_VARIANT_ADD(command, init_num_dev) { .step = STEP_INIT_NUM_DEV };
FIXTURE_VARIANT_ADD(command, set_device_num_units) { .step = STEP_SET_DEVICE_NUM_UNITS };
FIXTURE_VARIANT_ADD(command, init) { .step = STEP_INIT };
FIXTURE_VARIANT_ADD(command, set_scan_uncore_topology_info) {
	.step = STEP_SET_SCAN_UNCORE_TOPOLOGY_INFO,
};

FIXTURE_VARIANT_ADD(command, get_driver_state) { .step = STEP_GET_DRIVER_STATE };
FIXTURE_VARIANT_ADD(command, pause_unreserved) { .step = STEP_PAUSE_UNRESERVED };
FIXTURE_VARIANT_ADD(command, resume_unreserved) { .step = STEP_RESUME_UNRESERVED };
FIXTURE_VARIANT_ADD(command, reserve) { .step = STEP_RESERVE };
FIXTURE_VARIANT_ADD(command, init_driver) { .step = STEP_INIT_DRIVER };
FIXTURE_VARIANT_ADD(command, set_cpu_topology) { .step = STEP_SET_CPU_TOPOLOGY };
FIXTURE_VARIANT_ADD(command, num_descriptor) { .step = STEP_NUM_DESCRIPTOR };
FIXTURE_VARIANT_ADD(command, desc_next_first) { .step = STEP_DESC_NEXT_FIRST };
FIXTURE_VARIANT_ADD(command, desc_next_second) { .step = STEP_DESC_NEXT_SECOND };
FIXTURE_VARIANT_ADD(command, em_groups) { .step = STEP_EM_GROUPS };
FIXTURE_VARIANT_ADD(command, em_config_next) { .step = STEP_EM_CONFIG_NEXT };
FIXTURE_VARIANT_ADD(command, init_pmu) { .step = STEP_INIT_PMU };
FIXTURE_VARIANT_ADD(command, lbr_info) { .step = STEP_LBR_INFO };
FIXTURE_VARIANT_ADD(command, init_unc) { .step = STEP_INIT_UNC };
FIXTURE_VARIANT_ADD(command, em_groups_unc) { .step = STEP_EM_GROUPS_UNC };
FIXTURE_VARIANT_ADD(command, em_config_next_unc) { .step = STEP_EM_CONFIG_NEXT_UNC };
FIXTURE_VARIANT_ADD(command, start) { .step = STEP_START };
FIXTURE_VARIANT_ADD(command, pause_running) { .step = STEP_PAUSE_RUNNING };
FIXTURE_VARIANT_ADD(command, resume_paused) { .step = STEP_RESUME_PAUSED };
FIXTURE_VARIANT_ADD(command, switch_group) { .step = STEP_SWITCH_GROUP };
FIXTURE_VARIANT_ADD(command, module_snapshot) { .step = STEP_MODULE_SNAPSHOT };
FIXTURE_VARIANT_ADD(command, read_and_reset) { .step = STEP_READ_AND_RESET };
FIXTURE_VARIANT_ADD(command, read_switch_group) { .step = STEP_READ_SWITCH_GROUP };
FIXTURE_VARIANT_ADD(command, stop) { .step = STEP_STOP };
FIXTURE_VARIANT_ADD(command, terminate) { .step = STEP_TERMINATE };

/* Step @s's request payload in *@in, its length returned. */
static u64 step_payload(struct __test_metadata *_metadata,
			FIXTURE_DATA(command) *self, const struct step *s,
			const void **in)
{
	switch (s->in) {
	case IN_NONE:
		*in = NULL;
		return 0;
	case IN_FOUR:
		*in = &step_four;
		return sizeof(step_four);
	case IN_TWO:
		*in = &step_two;
		return sizeof(step_two);
	case IN_KADDR:
		*in = &step_kernel_text;
		return sizeof(step_kernel_text);
	case IN_LOG:
		*in = &step_log_verbosity;
		return sizeof(step_log_verbosity);
	case IN_MSR:
		*in = &step_msr_global_ctrl;
		return sizeof(step_msr_global_ctrl);
	case IN_WRITE_MSR:
		*in = &step_perfevtsel0;
		return sizeof(step_perfevtsel0);
	case IN_DEV:
		*in = &step_dev;
		return sizeof(step_dev);
	case IN_SCAN:
		*in = step_scan;
		return sizeof(step_scan);
	case IN_DRV_CONFIG:
		*in = &self->dc;
		return sizeof(self->dc);
	case IN_TOPOLOGY:
		*in = self->topo;
		return sizeof(self->topo);
	case IN_DESC:
		*in = &step_desc;
		return sizeof(step_desc);
	case IN_EVENTS:
		*in = &self->ec;
		return sizeof(self->ec);
	case IN_CORE_ECB:
		*in = core_ecb(_metadata, &self->core);
		return 4720;
	case IN_LBR:
		*in = &step_lbr;
		return sizeof(step_lbr);
	case IN_UNC:
		*in = &step_unc;
		return sizeof(step_unc);
	case IN_UNC_EVENTS:
		*in = &self->ecu;
		return sizeof(self->ecu);
	case IN_UNCORE_ECB:
		*in = uncore_ecb(_metadata, &self->core);
		return 2680;
	}
	*in = NULL;
	return 0;
}

/* Send step @s; its status (the framing is checked by cmd()). */
static s32 send_step(struct __test_metadata *_metadata,
		     FIXTURE_DATA(command) *self, const struct step *s)
{
	u64 out = s->out + s->out_per_cpu * FAKE_NCPUS;
	const void *in;
	u64 in_len;
	s32 status;

	in_len = step_payload(_metadata, self, s, &in);
	if (s->out == SYS_CONFIG_SIZE)
		out = self->sys_config_size;
	status = cmd(_metadata, &self->core, s->id, in, in_len, out);
	if (s->id == SEP_CMD_COLLECT_SYS_CONFIG && status == VT_SUCCESS)
		self->sys_config_size = resp_u32(&self->core, 0);
	return status;
}

FIXTURE_SETUP(command)
{
	core_setup(_metadata, &self->core, NULL);
	tc_drv_config(&self->dc, 0);
	tc_topology(self->topo, FAKE_NCPUS);
	tc_event_config(&self->ec, false);
	tc_event_config(&self->ecu, true);
	open_session(_metadata, &self->core);
	for (unsigned int i = 0; i < variant->step; i++) {
		if (steps[i].kind != SETS)
			continue;
		ASSERT_EQ(steps[i].status, send_step(_metadata, self, &steps[i]))
			TH_LOG("step %u (command %u), before the one tested", i, steps[i].id);
	}
}

FIXTURE_TEARDOWN(command)
{
	core_teardown(_metadata, &self->core, NULL);
}

TEST_F(command, answers_with_exact_framing)
{
	const struct step *s = &steps[variant->step];

	EXPECT_EQ(s->status, send_step(_metadata, self, s));
	/* TERMINATE's answer is the session's last word. */
	if (s->id == SEP_CMD_TERMINATE)
		expect_eof(_metadata, &self->core, self->core.ctl);
}

/*
 * No command the dispatch table knows is left out of the steps, and every
 * step has its row (command 0, never answered, is no step's).
 */
TEST(every_dispatched_command_is_a_step)
{
	bool pax = false;

	for (unsigned int i = 0; i < NSTEPS; i++) {
		EXPECT_NE(SEP_CMD_NONE, steps[i].id) TH_LOG("step %u has no row", i);
	}
	for (u32 id = 0; id < 128; id++) {
		bool stepped = false;

		if (!acp_find_command(id))
			continue;
		for (unsigned int i = 0; i < NSTEPS; i++)
			stepped |= steps[i].id == id;
		EXPECT_TRUE(stepped) TH_LOG("command %u is not covered", id);
	}
	for (unsigned int i = 0; i < NSTEPS; i++)
		pax |= steps[i].id == SEP_CMD_PAX_INFO;
	EXPECT_TRUE(pax);
	EXPECT_NE(NULL, acp_find_command(SEP_CMD_PAX_INFO));
	EXPECT_NE(NULL, acp_find_command(ACA_CMD_KERNEL_SYMBOLS));
}

TEST_F(core, version_is_5_17_5)
{
	open_session(_metadata, self);
	EXPECT_EQ(0x00051105, query(_metadata, self, SEP_CMD_VERSION, 4));
	EXPECT_EQ(5, self->r.data[0]);
	EXPECT_EQ(17, self->r.data[1]);
	EXPECT_EQ(5, self->r.data[2]);
	EXPECT_EQ(0, self->r.data[3]);
}

TEST_F(core, num_cores_is_the_number_of_cpus)
{
	static const u32 ncpus[] = { 1, 2, FAKE_NCPUS, 24 };

	for (size_t i = 0; i < sizeof(ncpus) / sizeof(ncpus[0]); i++) {
		reinit(_metadata, self, ncpus[i]);
		open_session(_metadata, self);
		EXPECT_EQ(ncpus[i], query(_metadata, self, SEP_CMD_NUM_CORES, 4));
		EXPECT_EQ(ncpus[i] + 2, self->ndata);
	}
}

TEST_F(core, normalized_tsc_never_goes_back)
{
	u64 last = 0;

	open_session(_metadata, self);
	for (int i = 0; i < 100; i++) {
		u32 id = i % 3 ? SEP_CMD_GET_NORMALIZED_TSC
			       : SEP_CMD_GET_NORMALIZED_TSC_STANDALONE;
		u64 tsc = query(_metadata, self, id, 8);

		EXPECT_LE(last, tsc) TH_LOG("call %d", i);
		EXPECT_NE(0, tsc);
		last = tsc;
	}
	/* Asked for more than 8: padded with zeros. */
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, 16));
	EXPECT_LE(last, resp_u64(self, 0));
	EXPECT_EQ(0, resp_u64(self, 8));
}

/* Exactly the length asked for, all zeros: one clock for all CPUs (9.6). */
TEST_F(core, tsc_skew_is_the_asked_length_of_zeros)
{
	static const u32 asks[] = { 8, 32, 64, 8 * 24 };

	open_session(_metadata, self);
	for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]); i++) {
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TSC_SKEW_INFO, NULL, 0, asks[i]));
		EXPECT_TRUE(tc_all_zero(self->r.data, asks[i]));
	}
	/* No reply buffer: nothing; one too small for one CPU: refused. */
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TSC_SKEW_INFO, NULL, 0, 0));
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TSC_SKEW_INFO, NULL, 0, 4));
}

TEST_F(core, setup_info_of_a_bare_machine)
{
	u64 modes;

	open_session(_metadata, self);
	modes = query(_metadata, self, SEP_CMD_GET_DRV_SETUP_INFO, 32);
	EXPECT_EQ(SETUP_BASE, modes);
	EXPECT_EQ(1, modes & SEP_SETUP_NMI_MODE);
	EXPECT_EQ(SEP_DRV_TYPE_PUBLIC, (modes & SEP_SETUP_DRV_TYPE_MASK) >> 21);
	EXPECT_EQ(0, modes & SEP_SETUP_PTI_MASK);
	EXPECT_EQ(0, modes & (SEP_SETUP_VMM_MODE | SEP_SETUP_VMM_VENDOR_MASK |
			      SEP_SETUP_VMM_GUEST_VM));
	EXPECT_EQ(0, modes & SEP_SETUP_PEBS_ACCESSIBLE);
	EXPECT_EQ(0, modes >> 24);
	EXPECT_TRUE(tc_all_zero(self->r.data + 8, 24));
}

/* Kernel page-table isolation: KPTI in bits 15:14. */
TEST_F(core, setup_info_reports_kpti)
{
	self->f.pti = true;
	open_session(_metadata, self);
	EXPECT_EQ(SETUP_BASE | (u64)SEP_PTI_KPTI << SEP_SETUP_PTI_SHIFT,
		  query(_metadata, self, SEP_CMD_GET_DRV_SETUP_INFO, 32));
}

/* A guest: vmm mode, guest, the vendor in bits 9:2 (unknown: none). */
TEST_F(core, setup_info_reports_the_hypervisor)
{
	u64 modes;

	self->f.hypervisor = true;
	open_session(_metadata, self);
	modes = query(_metadata, self, SEP_CMD_GET_DRV_SETUP_INFO, 32);
	EXPECT_EQ(SETUP_BASE | SEP_SETUP_VMM_MODE | SEP_SETUP_VMM_GUEST_VM |
		  (u64)SEP_VMM_KVM << SEP_SETUP_VMM_VENDOR_SHIFT, modes);

	memcpy(self->f.hv_sig, "VMwareVMware", 13);
	modes = query(_metadata, self, SEP_CMD_GET_DRV_SETUP_INFO, 32);
	EXPECT_EQ(SEP_VMM_VMWARE, (modes & SEP_SETUP_VMM_VENDOR_MASK) >> 2);

	memcpy(self->f.hv_sig, "TCGTCGTCGTCG", 13);
	modes = query(_metadata, self, SEP_CMD_GET_DRV_SETUP_INFO, 32);
	EXPECT_EQ(SETUP_BASE | SEP_SETUP_VMM_MODE | SEP_SETUP_VMM_GUEST_VM, modes);
}

/* The exact length is 32 (spec 9.2). */
TEST_F(core, setup_info_needs_32_bytes)
{
	open_session(_metadata, self);
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_DRV_SETUP_INFO, NULL, 0, 16));
}

TEST_F(core, platform_info_comes_from_the_msrs)
{
	struct sep_drv_platform_info pi;

	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PLATFORM_INFO, NULL, 0, 15440));
	memcpy(&pi, self->r.data, sizeof(pi));
	EXPECT_EQ(FAKE_PLATFORM_INFO, resp_u64(self, 0));
	EXPECT_EQ(0, pi.ddr_freq_index);
	EXPECT_EQ(1, self->r.data[16]);
	EXPECT_EQ(FAKE_MISC_FEATURE, resp_u64(self, 24));
	EXPECT_EQ(0, pi.ufs_freq);
	EXPECT_TRUE(tc_all_zero(pi.dimm_info, sizeof(pi.dimm_info)));
	EXPECT_EQ((FAKE_RAPL_UNIT >> 8) & 0x1f, resp_u64(self, 15400));
	EXPECT_TRUE(tc_all_zero(self->r.data + 15408, 32));
	/* The reply buffer is freed once sent: left is the channel table. */
	EXPECT_EQ(1, self->f.live);
}

/* With dispatch ids as input, and a bigger buffer: zero-padded; smaller: refused. */
TEST_F(core, platform_info_is_padded_to_the_asked_length)
{
	u32 ids[2] = { 2, 4 };

	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PLATFORM_INFO, ids, sizeof(ids), 20000));
	EXPECT_EQ(FAKE_PLATFORM_INFO, resp_u64(self, 0));
	EXPECT_TRUE(tc_all_zero(self->r.data + 15440, 20000 - 15440));
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PLATFORM_INFO, NULL, 0, 100));
}

/* Spec 9.3: the GET_SYS_CONFIG blob, parsed from its start. */
static inline void check_sys_config(struct __test_metadata *_metadata,
				    FIXTURE_DATA(core) *self, const u8 *blob,
				    u32 size, u32 ncpus, int offline)
{
	struct sep_vtsa_sys_info sys;
	struct sep_gen_array_hdr hdr;
	struct sep_node_info node;
	u64 off, sum = 0;

	ASSERT_GE(size, 248 + 168 * ncpus);
	memcpy(&sys, blob, sizeof(sys));
	EXPECT_EQ(72, sys.node_array.offset);
	EXPECT_EQ(0, sys.node_array.flags);
	EXPECT_EQ(~0ull, sys.min_app_address);
	EXPECT_EQ(~0ull, sys.max_app_address);
	EXPECT_EQ(FAKE_PAGE_SIZE, sys.page_size);
	EXPECT_EQ(FAKE_PAGE_SIZE, sys.allocation_granularity);

	memcpy(&hdr, blob + 72, sizeof(hdr));
	EXPECT_EQ(64, hdr.hdr_size);
	EXPECT_EQ(0, hdr.next_array.offset);
	EXPECT_EQ(1, hdr.array_num_entries);
	EXPECT_EQ(48, hdr.array_entry_size);
	EXPECT_EQ(SEP_GEN_ARRAY_NODE, hdr.array_type);
	EXPECT_EQ(0, hdr.array_subtype);

	memcpy(&node, blob + 136, sizeof(node));
	EXPECT_EQ(0xffffffff, node.node_type_from_shell);
	EXPECT_EQ(0xffffffff, node.node_id);
	EXPECT_EQ(ncpus, node.node_num_available);
	EXPECT_EQ(0xffffffff, node.node_num_used);
	EXPECT_EQ(FAKE_TOTAL_RAM, node.node_physical_memory);
	EXPECT_EQ(184, node.node_percpu_array.offset);

	memcpy(&hdr, blob + 184, sizeof(hdr));
	EXPECT_EQ(64, hdr.hdr_size);
	EXPECT_EQ(ncpus, hdr.array_num_entries);
	EXPECT_EQ(104, hdr.array_entry_size);
	EXPECT_EQ(SEP_GEN_ARRAY_PER_CPU, hdr.array_type);
	EXPECT_EQ(SEP_GEN_ARRAY_SUB_EM64T, hdr.array_subtype);

	off = 248 + 104ull * ncpus;
	for (u32 cpu = 0; cpu < ncpus; cpu++) {
		struct sep_gen_per_cpu p;
		u32 n = (int)cpu == offline ? 0 : FAKE_CPUID_ENTRIES;
		u32 k = 0;

		memcpy(&p, blob + 248 + 104 * cpu, sizeof(p));
		EXPECT_EQ(cpu, p.cpu_number);
		EXPECT_EQ(0xffffffff, p.cpu_speed_mhz);
		EXPECT_EQ(0xffffffff, p.cpu_fsb_mhz);
		EXPECT_EQ(0xffffffff, p.cpu_intel_processor_number);
		EXPECT_EQ(off, p.cpu_cpuid_array.offset) TH_LOG("cpu %u", cpu);
		EXPECT_EQ(0, p.cpu_cpuid_array.flags);
		EXPECT_EQ(0, p.cpu_tsc_offset);
		if (n) {
			EXPECT_EQ(FAKE_L2_KB, p.cpu_cache_L2);
			EXPECT_EQ(FAKE_L3_KB, p.cpu_cache_L3);
			EXPECT_EQ(FAKE_PLATFORM_ID, p.platform_id);
			EXPECT_EQ(cpu >> 2, p.cpu_package_num);
			EXPECT_EQ((cpu >> 1) & 1, p.cpu_core_num);
			EXPECT_EQ(cpu & 1, p.cpu_hw_thread_num);
			EXPECT_EQ(2, p.cpu_threads_per_core);
			EXPECT_EQ(1, p.cpu_num_modules);
			EXPECT_EQ(FAKE_PERFMON_VER, p.arch_perfmon_ver);
			EXPECT_EQ(FAKE_GP_COUNTERS, p.num_gp_counters);
			EXPECT_EQ(FAKE_FIXED_COUNTERS, p.num_fixed_counters);
		} else {
			/* Nothing known of an offline CPU. */
			EXPECT_EQ(0, p.cpu_cache_L2);
			EXPECT_EQ(0, p.platform_id);
			EXPECT_EQ(0, p.arch_perfmon_ver);
		}
		EXPECT_EQ(0, p.cpu_core_type);

		ASSERT_LE(off + 64, size);
		memcpy(&hdr, blob + off, sizeof(hdr));
		EXPECT_EQ(64, hdr.hdr_size);
		EXPECT_EQ(n, hdr.array_num_entries) TH_LOG("cpu %u", cpu);
		EXPECT_EQ(20, hdr.array_entry_size);
		EXPECT_EQ(SEP_GEN_ARRAY_CPUID, hdr.array_type);
		EXPECT_EQ(SEP_GEN_ARRAY_SUB_EM64T, hdr.array_subtype);
		off += 64;
		ASSERT_LE(off + 20ull * hdr.array_num_entries, size);
		/* Leaves in order, sub-leaves expanded, this CPU's own values. */
		for (u32 leaf = 0; n && leaf <= 0x80000008; leaf++) {
			u32 subs = leaf == 4 ? 5 : leaf == 0xb ? 3 : 1;

			if (leaf == 0xc)
				leaf = 0x80000000;
			for (u32 s = 0; s < subs; s++, k++) {
				struct sep_cpuid_x86 e;

				memcpy(&e, blob + off + 20 * k, sizeof(e));
				EXPECT_EQ(leaf, e.eax_input) TH_LOG("cpu %u entry %u", cpu, k);
				if (leaf == 0) {
					EXPECT_EQ(0x756e6547, e.ebx);
				} else if (leaf == 1) {
					EXPECT_EQ(FAKE_CPUID1_EAX, e.eax);
					EXPECT_EQ(cpu, e.ebx >> 24);
				} else if (leaf == 0xb) {
					EXPECT_EQ(cpu, e.edx);
				} else if (leaf == 0x80000000) {
					EXPECT_EQ(0x80000008, e.eax);
				}
			}
		}
		EXPECT_EQ(n, k);
		off += 20ull * hdr.array_num_entries;
		sum += hdr.array_num_entries;
	}
	EXPECT_EQ(off, size);
	EXPECT_EQ(248 + 168ull * ncpus + 20 * sum, size);
}

TEST_F(core, sys_config_is_built_once_and_cut_or_padded)
{
	u32 size;
	u64 nalloc;

	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_COLLECT_SYS_CONFIG, NULL, 0, 4));
	size = resp_u32(self, 0);
	EXPECT_EQ(248 + 168 * FAKE_NCPUS + 20 * FAKE_NCPUS * FAKE_CPUID_ENTRIES, size);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SYS_CONFIG, NULL, 0, size));
	check_sys_config(_metadata, self, self->r.data, size, FAKE_NCPUS, -1);

	/* Built once: asking again allocates nothing and answers the same. */
	nalloc = self->f.nalloc;
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_COLLECT_SYS_CONFIG, NULL, 0, 4));
	EXPECT_EQ(size, resp_u32(self, 0));
	EXPECT_EQ(nalloc, self->f.nalloc);
	/* More than the blob: zero-padded; less: cut. */
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SYS_CONFIG, NULL, 0, size + 100));
	check_sys_config(_metadata, self, self->r.data, size, FAKE_NCPUS, -1);
	EXPECT_TRUE(tc_all_zero(self->r.data + size, 100));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SYS_CONFIG, NULL, 0, 10));
	EXPECT_EQ(72, resp_u64(self, 8));

	/* It outlives sessions (one per driver lifetime). */
	acp_conn_release(self->ctl);
	EXPECT_EQ(1, self->f.live);
	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_COLLECT_SYS_CONFIG, NULL, 0, 4));
	EXPECT_EQ(size, resp_u32(self, 0));
}

TEST_F(core, sys_config_without_collect_and_with_an_offline_cpu)
{
	u32 n = 6, size = 248 + 168 * n + 20 * (n - 1) * FAKE_CPUID_ENTRIES;

	reinit(_metadata, self, n);
	self->f.offline_cpu = 2;
	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SYS_CONFIG, NULL, 0, size));
	check_sys_config(_metadata, self, self->r.data, size, n, 2);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_COLLECT_SYS_CONFIG, NULL, 0, 4));
	EXPECT_EQ(size, resp_u32(self, 0));
}

/*
 * CPUID comes from the CPU or a hypervisor, not from the host, but a
 * hypervisor may report odd topology levels: a zero thread count with other
 * EBX bits set, a core level narrower than the SMT level. The blob is still
 * built, with no topology for such CPUs.
 */
TEST_F(core, sys_config_with_odd_topology_leaves)
{
	static const u32 odd[][2][2] = {
		{ { 1, 0x10000 }, { 2, 4 } },	/* 0 threads per core */
		{ { 2, 2 }, { 1, 4 } },		/* core shift < SMT shift */
		{ { 1, 2 }, { 0, 0 } },		/* no core level: ends leaf 0xB */
	};

	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		u32 n = FAKE_CPUID_ENTRIES - (i == 2);
		u32 size = 248 + (168 + 20 * n) * FAKE_NCPUS;

		reinit(_metadata, self, FAKE_NCPUS);
		self->f.odd_leaf_b = true;
		memcpy(self->f.odd_b, odd[i], sizeof(odd[i]));
		open_session(_metadata, self);
		ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_COLLECT_SYS_CONFIG, NULL, 0, 4));
		ASSERT_EQ(size, resp_u32(self, 0));
		ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SYS_CONFIG, NULL, 0, size));
		for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++) {
			struct sep_gen_per_cpu p;

			memcpy(&p, self->r.data + 248 + 104 * cpu, sizeof(p));
			EXPECT_EQ(1, p.cpu_threads_per_core) TH_LOG("case %zu", i);
			EXPECT_EQ(0, p.cpu_core_num);
			EXPECT_EQ(0, p.cpu_hw_thread_num);
			EXPECT_EQ(0, p.cpu_package_num);
			EXPECT_EQ(FAKE_L2_KB, p.cpu_cache_L2);
		}
	}
}

TEST_F(core, reserve_answers_busy_in_its_payload)
{
	open_session(_metadata, self);
	EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(SEP_STATE_RESERVED, driver_state(_metadata, self));
	EXPECT_EQ(SEP_RESERVE_BUSY, reserve(_metadata, self));
	EXPECT_EQ(SEP_STATE_RESERVED, driver_state(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, init_driver(_metadata, self, 0));
	EXPECT_EQ(SEP_RESERVE_BUSY, reserve(_metadata, self));
	EXPECT_EQ(SEP_STATE_IDLE, driver_state(_metadata, self));
}

TEST_F(core, num_samples_sums_every_cpu)
{
	open_session(_metadata, self);
	EXPECT_EQ(FAKE_WRITTEN(0) + FAKE_WRITTEN(1) + FAKE_WRITTEN(2) + FAKE_WRITTEN(3),
		  query(_metadata, self, SEP_CMD_GET_NUM_SAMPLES, 8));
}

/* Per CPU: the OS id, samples taken (written + dropped) and dropped. */
TEST_F(core, drop_info_counts_every_cpu)
{
	struct sep_sample_drop_info di;
	u32 osid = 7;

	open_session(_metadata, self);
	EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_SET_OSID, osid));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0, 324));
	memcpy(&di, self->r.data, sizeof(di));
	EXPECT_EQ(FAKE_NCPUS, di.size);
	for (u32 i = 0; i < SEP_MAX_SAMPLE_DROP_NODES; i++) {
		if (i < FAKE_NCPUS) {
			EXPECT_EQ(osid, di.drop_info[i].os_id);
			EXPECT_EQ(i, di.drop_info[i].cpu_id);
			EXPECT_EQ(FAKE_WRITTEN(i) + FAKE_DROPPED(i), di.drop_info[i].sampled);
			EXPECT_EQ(FAKE_DROPPED(i), di.drop_info[i].dropped);
		} else {
			EXPECT_TRUE(tc_all_zero(&di.drop_info[i], sizeof(di.drop_info[i])));
		}
	}
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0, 100));
}

/* More CPUs than the struct has room for: the first 20. */
TEST_F(core, drop_info_holds_the_first_20_cpus)
{
	struct sep_sample_drop_info di;

	reinit(_metadata, self, 24);
	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0, 400));
	memcpy(&di, self->r.data, sizeof(di));
	EXPECT_EQ(20, di.size);
	EXPECT_EQ(19, di.drop_info[19].cpu_id);
	EXPECT_EQ(0, di.drop_info[19].os_id) TH_LOG("a new session has no OS id");
	EXPECT_EQ(FAKE_WRITTEN(19) + FAKE_DROPPED(19), di.drop_info[19].sampled);
	EXPECT_TRUE(tc_all_zero(self->r.data + 324, 400 - 324));
}

/* Without a sampler there is nothing to count. */
TEST_F(core, sample_counts_are_zero_without_a_sampler)
{
	reinit(_metadata, self, 24);
	self->ops = fake_ops_nosampling;
	open_session(_metadata, self);
	EXPECT_EQ(0, query(_metadata, self, SEP_CMD_GET_NUM_SAMPLES, 8));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0, 324));
	EXPECT_EQ(20, resp_u32(self, 0));
	EXPECT_EQ(0, resp_u32(self, 4 + 16 * 5 + 8));
}

TEST_F(core, set_osid_takes_nothing_or_a_u32)
{
	u8 five[5] = { 0 };

	open_session(_metadata, self);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_OSID, NULL, 0, 0));
	EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_SET_OSID, 3));
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_OSID, five, 5, 0));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0, 324));
	EXPECT_EQ(3, resp_u32(self, 4));
}

TEST_F(core, pax_info_is_zeroed)
{
	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAX_INFO, NULL, 0, 32));
	EXPECT_TRUE(tc_all_zero(self->r.data, 32));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_PAX_INFO, NULL, 0, 0));
}

/* Set some categories, query the others: the reply has the values. */
TEST_F(core, control_driver_log_sets_and_queries_verbosity)
{
	struct sep_drv_log_control ctl = { .command = SEP_DRV_LOG_CMD_ADJUST_VERBOSITY };
	struct sep_drv_log_control got;

	open_session(_metadata, self);
	/* The test suite's request: no reply buffer, so no payload. */
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_CONTROL_DRIVER_LOG, &ctl, sizeof(ctl), 0));
	memset(ctl.data, SEP_LOG_VERBOSITY_QUERY, sizeof(ctl.data));
	ctl.data[0] = 3;
	ctl.data[5] = 7;
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_CONTROL_DRIVER_LOG, &ctl, sizeof(ctl), sizeof(ctl)));
	memcpy(&got, self->r.data, sizeof(got));
	EXPECT_EQ(SEP_DRV_LOG_CMD_ADJUST_VERBOSITY, got.command);
	EXPECT_EQ(3, got.data[0]);
	EXPECT_EQ(7, got.data[5]);
	EXPECT_EQ(0, got.data[1]);
	EXPECT_EQ(0, got.data[255]);
	/* A pure query keeps them; the default marker resets one. */
	memset(ctl.data, SEP_LOG_VERBOSITY_QUERY, sizeof(ctl.data));
	ctl.data[5] = SEP_LOG_VERBOSITY_DEFAULT;
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_CONTROL_DRIVER_LOG, &ctl, sizeof(ctl), sizeof(ctl)));
	memcpy(&got, self->r.data, sizeof(got));
	EXPECT_EQ(3, got.data[0]);
	EXPECT_EQ(0, got.data[5]);
}

/* QUERY_SIZE: no log buffer here. */
TEST_F(core, control_driver_log_query_size_is_zero)
{
	struct sep_drv_log_control ctl = { .command = SEP_DRV_LOG_CMD_QUERY_SIZE };

	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_CONTROL_DRIVER_LOG, &ctl, sizeof(ctl), sizeof(ctl)));
	EXPECT_EQ(SEP_DRV_LOG_CMD_QUERY_SIZE, resp_u32(self, 0));
	EXPECT_TRUE(tc_all_zero(self->r.data + 8, 256));
}

/* Only the command word and a bit: fine; less than 8 bytes: refused. */
TEST_F(core, control_driver_log_needs_8_bytes)
{
	struct sep_drv_log_control ctl = { .command = SEP_DRV_LOG_CMD_QUERY_SIZE };

	open_session(_metadata, self);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_CONTROL_DRIVER_LOG, &ctl, 8, 0));
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_CONTROL_DRIVER_LOG, &ctl, 7, 0));
}

/* The driver log itself is empty: zeros of the asked length. */
TEST_F(core, driver_log_is_zeros_of_the_asked_length)
{
	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_DRIVER_LOG, NULL, 0, 1000));
	EXPECT_TRUE(tc_all_zero(self->r.data, 1000));
}

TEST_F(core, kernel_cs_is_the_kernel_code_segment)
{
	open_session(_metadata, self);
	EXPECT_EQ(SEP_KERNEL_CS, query(_metadata, self, SEP_CMD_KERNEL_CS, 4));
}

TEST_F(core, num_core_ctrs_is_the_general_counter_count)
{
	open_session(_metadata, self);
	EXPECT_EQ(FAKE_GP_COUNTERS, query(_metadata, self, SEP_CMD_GET_NUM_CORE_CTRS, 4));
}

/* No per-thread sampling: always 0, in any state. */
TEST_F(core, thread_count_is_zero)
{
	open_session(_metadata, self);
	EXPECT_EQ(0, query(_metadata, self, SEP_CMD_GET_THREAD_COUNT, 4));
	goto_state(_metadata, self, ACP_RUNNING);
	EXPECT_EQ(0, query(_metadata, self, SEP_CMD_GET_THREAD_COUNT, 4));
}

TEST_F(core, perf_capabilities_per_cpu)
{
	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PERF_CAPAB, NULL, 0, 8 * FAKE_NCPUS));
	for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++) {
		EXPECT_EQ(FAKE_PERF_CAPAB(cpu), resp_u64(self, 8 * cpu));
	}
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PERF_CAPAB, NULL, 0, 8 * FAKE_NCPUS + 16));
	EXPECT_EQ(FAKE_PERF_CAPAB(3), resp_u64(self, 24));
	EXPECT_TRUE(tc_all_zero(self->r.data + 8 * FAKE_NCPUS, 16));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PERF_CAPAB, NULL, 0, 8));
	EXPECT_EQ(FAKE_PERF_CAPAB(0), resp_u64(self, 0));
	EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PERF_CAPAB, NULL, 0, 4));
	/* An offline CPU reads as 0. */
	self->f.offline_cpu = 1;
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_GET_PERF_CAPAB, NULL, 0, 8 * FAKE_NCPUS));
	EXPECT_EQ(0, resp_u64(self, 8));
	EXPECT_EQ(FAKE_PERF_CAPAB(2), resp_u64(self, 16));
}

TEST_F(core, read_msr_allowed_per_cpu)
{
	u32 msr = 0x38f;

	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR, &msr, 4, 8 * FAKE_NCPUS));
	for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++) {
		EXPECT_EQ(FAKE_GLOBAL_CTRL(cpu), resp_u64(self, 8 * cpu));
	}
	/* Room for two CPUs: two values. */
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR, &msr, 4, 16));
	EXPECT_EQ(FAKE_GLOBAL_CTRL(1), resp_u64(self, 8));
	/* More room than CPUs: zero-padded. */
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR, &msr, 4, 8 * FAKE_NCPUS + 8));
	EXPECT_EQ(0, resp_u64(self, 8 * FAKE_NCPUS));
	/* No room at all: success, nothing sent. */
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR, &msr, 4, 0));
	/* Allowed but faulting: zeros. */
	msr = 0x4c1;
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR, &msr, 4, 8 * FAKE_NCPUS));
	EXPECT_TRUE(tc_all_zero(self->r.data, 8 * FAKE_NCPUS));
	msr = 0xce;
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR, &msr, 4, 8));
	EXPECT_EQ(FAKE_PLATFORM_INFO, resp_u64(self, 0));
}

TEST_F(core, read_msr_refused_outside_the_allow_list)
{
	static const u32 refused[] = { 0x10, 0x2be, 0x1b0, 0x0, 0xc0000080, 0xffffffff };

	open_session(_metadata, self);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		u32 logs = self->f.nlogs;

		EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR, &refused[i], 4, 8 * FAKE_NCPUS))
			TH_LOG("MSR 0x%x", refused[i]);
		EXPECT_EQ(logs + 1, self->f.nlogs);
		/* The test suite's READ_MSR of 0x2be has no reply buffer. */
		EXPECT_NE(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR, &refused[i], 4, 0));
	}
	EXPECT_LT(0, fake_log_count(&self->f, "READ_MSR 0x2be"));
	EXPECT_LT(0, fake_log_count(&self->f, "READ_MSR 0x10 "));
}

TEST_F(core, read_msr_of_rapl_energy_counters_is_refused_without_cap_perfmon)
{
	self->unprivileged = true;
	open_session(_metadata, self);
	for (size_t i = 0; i < ARRAY_SIZE(rapl_energy); i++) {
		fake_set_msr(&self->f, rapl_energy[i], 0x12345678);
		EXPECT_EQ(VT_MSR_ACCESS_ERROR, cmd(_metadata, self, SEP_CMD_READ_MSR,
						   &rapl_energy[i], 4, 8 * FAKE_NCPUS))
			TH_LOG("MSR 0x%x", rapl_energy[i]);
		EXPECT_EQ(0, self->r.len);
	}
}

TEST_F(core, read_msr_of_a_rapl_energy_counter_refused_logs_why)
{
	char needle[160];

	self->unprivileged = true;
	open_session(_metadata, self);
	for (size_t i = 0; i < ARRAY_SIZE(rapl_energy); i++) {
		u32 logs = self->f.nlogs;

		cmd(_metadata, self, SEP_CMD_READ_MSR, &rapl_energy[i], 4, 8 * FAKE_NCPUS);
		EXPECT_EQ(logs + 1, self->f.nlogs);
		snprintf(needle, sizeof(needle), "READ_MSR 0x%x refused: RAPL energy counters: the connection's user lacks CAP_PERFMON (aca(4) SECURITY)",
			 rapl_energy[i]);
		EXPECT_EQ(1, fake_log_count(&self->f, needle)) TH_LOG("%s", needle);
	}
}

/* The units register is no energy reading: GET_PLATFORM_INFO uses it too. */
TEST_F(core, read_msr_of_the_rapl_power_unit_still_answers)
{
	u32 msr = 0x606;

	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_READ_MSR, &msr, 4, 8 * FAKE_NCPUS));
	for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++) {
		EXPECT_EQ(FAKE_RAPL_UNIT, resp_u64(self, 8 * cpu));
	}
}

/*
 * Every register WRITE_MSR could once write (the performance-monitoring
 * ones: first and last of each former range) is refused with 196.
 */
static const u32 formerly_writable[] = {
	0x0c1, 0x0c8, 0x186, 0x18d, 0x1a6, 0x1a7, 0x1c8, 0x1d9, 0x309, 0x30c,
	0x38d, 0x38e, 0x38f, 0x390, 0x3f1, 0x3f6, 0x3f7, 0x4c1, 0x4c8,
};

TEST_F(core, write_msr_to_each_formerly_writable_register_is_refused)
{
	struct sep_event_reg reg = { .reg_value = 0 };

	open_session(_metadata, self);
	for (size_t i = 0; i < ARRAY_SIZE(formerly_writable); i++) {
		reg.event_reg_id.reg_id = formerly_writable[i];
		EXPECT_EQ(VT_MSR_ACCESS_ERROR, cmd(_metadata, self, SEP_CMD_WRITE_MSR,
						   &reg, sizeof(reg), 0))
			TH_LOG("MSR 0x%x", formerly_writable[i]);
	}
}

TEST_F(core, write_msr_makes_no_msr_write)
{
	struct sep_event_reg reg = { .reg_value = 0x43003c };

	open_session(_metadata, self);
	for (size_t i = 0; i < ARRAY_SIZE(formerly_writable); i++) {
		reg.event_reg_id.reg_id = formerly_writable[i];
		cmd(_metadata, self, SEP_CMD_WRITE_MSR, &reg, sizeof(reg), 0);
	}
	EXPECT_EQ(0, fake_find_msr(&self->f, 0x186)->val[0]);
	for (u32 cpu = 0; cpu < FAKE_NCPUS; cpu++) {
		EXPECT_EQ(FAKE_GLOBAL_CTRL(cpu), fake_find_msr(&self->f, 0x38f)->val[cpu]);
	}
}

TEST_F(core, write_msr_refusal_logs_that_perf_owns_the_pmu)
{
	struct sep_event_reg reg = { .event_reg_id.reg_id = 0x38f };

	open_session(_metadata, self);
	cmd(_metadata, self, SEP_CMD_WRITE_MSR, &reg, sizeof(reg), 0);
	EXPECT_EQ(1, self->f.nlogs);
	EXPECT_EQ(1, fake_log_count(&self->f,
				    "WRITE_MSR 0x38f refused: aca programs the PMU only through perf_events"));
}

/* Registers that never were writable are refused the same way. */
TEST_F(core, write_msr_to_other_registers_is_refused)
{
	static const u32 refused[] = { 0x1b0, 0xce, 0x345, 0x10, 0x17, 0x611, 0x0,
				       0xc0000080, 0xffffffff };
	struct sep_event_reg reg = { .reg_value = 1 };

	open_session(_metadata, self);
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		reg.event_reg_id.reg_id = refused[i];
		EXPECT_EQ(VT_MSR_ACCESS_ERROR, cmd(_metadata, self, SEP_CMD_WRITE_MSR,
						   &reg, sizeof(reg), 0))
			TH_LOG("MSR 0x%x", refused[i]);
	}
	EXPECT_EQ(6, fake_find_msr(&self->f, 0x1b0)->val[0]);
}

/* A refused WRITE_MSR is only an answer: the collection goes on as before. */
TEST_F(core, write_msr_refusal_leaves_the_session_state)
{
	static const enum acp_state states[] = {
		ACP_IDLE, ACP_RESERVED, ACP_CONFIGURED, ACP_RUNNING, ACP_PAUSED, ACP_STOPPED,
	};
	struct sep_event_reg reg = { .event_reg_id.reg_id = 0x38f };

	for (size_t i = 0; i < ARRAY_SIZE(states); i++) {
		u32 before, nstart, nstop;

		open_session(_metadata, self);
		goto_state(_metadata, self, states[i]);
		before = driver_state(_metadata, self);
		nstart = self->f.nstart;
		nstop = self->f.nstop;
		EXPECT_EQ(VT_MSR_ACCESS_ERROR, cmd(_metadata, self, SEP_CMD_WRITE_MSR,
						   &reg, sizeof(reg), 0));
		EXPECT_EQ(before, driver_state(_metadata, self)) TH_LOG("state %d", states[i]);
		EXPECT_EQ(nstart, self->f.nstart);
		EXPECT_EQ(nstop, self->f.nstop);
		EXPECT_FALSE(acp_conn_eof(self->ctl));
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
		expect_eof(_metadata, self, self->ctl);
	}
}

/* Not one EVENT_REG: malformed, answered like any bad size (159). */
TEST_F(core, write_msr_of_the_wrong_size_is_malformed)
{
	struct sep_event_reg reg = { .event_reg_id.reg_id = 0x186 };

	open_session(_metadata, self);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_WRITE_MSR,
					     &reg, sizeof(reg) - 1, 0));
}

TEST_F(core, device_commands_any_state)
{
	struct sep_dev_config dev = { .dispatch_id = 2 };
	u8 big[1000] = { 0 };

	open_session(_metadata, self);
	EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_INIT_NUM_DEV, 4));
	EXPECT_EQ(VT_BAD_PARAMETER, cmd_u32(_metadata, self, SEP_CMD_INIT_NUM_DEV, 65));
	EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_INIT_NUM_DEV, ACP_MAX_DEVICES));
	EXPECT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_SET_DEVICE_NUM_UNITS, 4));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_DEVICE_NUM_UNITS, NULL, 0, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT, &dev, sizeof(dev), 0));
	EXPECT_EQ(0, fake_log_count(&self->f, "PEBS"));
	/* PEBS records are written in the legacy layout: adaptive PEBS is told so. */
	dev.enable_bits = SEP_DEV_CFG_PEBS_CAPTURE;
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT, &dev, sizeof(dev), 0));
	EXPECT_EQ(0, fake_log_count(&self->f, "PEBS"));
	dev.enable_bits = SEP_DEV_CFG_PEBS_CAPTURE | SEP_DEV_CFG_ENABLE_ADAPTIVE_PEBS;
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT, &dev, sizeof(dev), 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "adaptive PEBS"));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO, NULL, 0, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO, big, sizeof(big), 0));
}

/* Spec 4.2: whatever the reference driver does not know is 159, no payload. */
TEST_F(core, unknown_commands_fail_without_payload)
{
	const u32 *ids = tc_unknown_ids;
	u8 payload[16] = { 0 };

	open_session(_metadata, self);
	for (size_t i = 0; i < tc_nunknown_ids; i++) {
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, ids[i], NULL, 0, 8))
			TH_LOG("command %u", ids[i]);
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, ids[i], payload, sizeof(payload), 0));
	}
	EXPECT_LE(tc_nunknown_ids, fake_log_count(&self->f, "not supported"));
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
}

/*
 * The tests' table of commands (cmd_table.c), which the fuzzer draws its
 * requests from, names every command the core dispatches ...
 */
TEST_F(core, command_table_names_every_command_the_core_dispatches)
{
	for (u32 id = 0; id < 128; id++)
		if (acp_find_command(id)) {
			EXPECT_NE(NULL, tc_find_command(id)) TH_LOG("command %u", id);
		}
	EXPECT_NE(NULL, tc_find_command(SEP_CMD_PAX_INFO));
	EXPECT_NE(NULL, tc_find_command(ACA_CMD_KERNEL_SYMBOLS));
	for (u32 i = 0; i < tc_ncommands; i++) {
		if (tc_commands[i].id == SEP_CMD_NONE)
			continue;	/* eaten before dispatch (spec 4.1.6) */
		EXPECT_NE(NULL, acp_find_command(tc_commands[i].id))
			TH_LOG("%s", tc_commands[i].name);
	}
}

/* ... and its unknown ids are unknown to the core. */
TEST_F(core, command_table_unknown_ids_are_unknown_to_the_core)
{
	ASSERT_LT(0, tc_nunknown_ids);
	for (u32 i = 0; i < tc_nunknown_ids; i++) {
		EXPECT_EQ(NULL, acp_find_command(tc_unknown_ids[i])) TH_LOG("command %u", tc_unknown_ids[i]);
		EXPECT_EQ(NULL, tc_find_command(tc_unknown_ids[i]));
	}
}

/* Spec 4.1 rule 6: command 0 eats its payload and is never answered. */
TEST_F(core, command_zero_is_consumed_silently)
{
	u8 payload[100];
	struct sep_control_msg_header h;

	memset(payload, 0x30, sizeof(payload));
	open_session(_metadata, self);
	for (size_t frag = 0; frag <= 7; frag += 7) {
		self->frag = frag;
		h = tc_header(SEP_CMD_NONE, 0, 8);
		ASSERT_EQ(0, tc_request(self->ctl, &self->out, &h, NULL, 0, frag, &self->r));
		EXPECT_EQ(0, self->r.total);
		h = tc_header(SEP_CMD_NONE, sizeof(payload), 0);
		ASSERT_EQ(0, tc_request(self->ctl, &self->out, &h, payload, sizeof(payload), frag, &self->r));
		EXPECT_EQ(0, self->r.total);
		/* The payload did not turn into commands: the next one is answered. */
		EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
		EXPECT_EQ(52, self->r.total);
	}
}

TEST_F(core, terminate_answers_then_ends_the_session)
{
	struct sep_control_msg_header h = tc_header(SEP_CMD_VERSION, 0, 4);

	open_session(_metadata, self);
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	EXPECT_EQ(48, self->r.total);
	EXPECT_TRUE(acp_conn_eof(self->ctl));
	for (u32 i = 0; i < self->ndata; i++) {
		EXPECT_EQ(1, fake_woken(&self->f, self->data[i]));
		expect_eof(_metadata, self, self->data[i]);
	}
	/* Anything after it is swallowed unanswered. */
	EXPECT_EQ(sizeof(h), acp_conn_input(self->ctl, &h, sizeof(h)));
	expect_eof(_metadata, self, self->ctl);
	EXPECT_EQ(0, self->out.total);
	EXPECT_EQ(0, self->f.live);
	/* The next host finds the target free. */
	open_session(_metadata, self);
	EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
	EXPECT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
}

TEST_HARNESS_MAIN
