// SPDX-License-Identifier: GPL-2.0-only
/* The SEP commands for the tests and the fuzzer (see cmd_table.h). */
#include <stddef.h>

#include "cmd_table.h"

#define CMD(name, to, to_per_cpu, from, from_per_cpu) \
	{ SEP_CMD_##name, #name, to, to_per_cpu, from, from_per_cpu }

/* The REF_TSC and UNC_IMC test vectors (selftests/vectors): a usual ECB. */
#define CORE_ECB	4720
#define UNCORE_ECB	2680

const struct tc_command tc_commands[] = {
	CMD(NONE, 0, 0, 0, 0),
	/* The collection (spec 5.1), in the order a host sends it. */
	CMD(SET_OSID, 4, 0, 0, 0),
	CMD(VERSION, 0, 0, 4, 0),
	CMD(GET_DRV_SETUP_INFO, 0, 0, sizeof(struct sep_drv_setup_info), 0),
	CMD(COLLECT_SYS_CONFIG, 0, 0, 4, 0),
	/* What COLLECT_SYS_CONFIG answers for the fake machine (fake_target.h). */
	CMD(GET_SYS_CONFIG, 0, 0, 248, 168 + 20 * 27),
	CMD(GET_PLATFORM_INFO, 0, 0, sizeof(struct sep_drv_platform_info), 0),
	CMD(NUM_CORES, 0, 0, 4, 0),
	CMD(READ_MSR, 4, 0, 0, 8),
	CMD(GET_NORMALIZED_TSC, 0, 0, 8, 0),
	CMD(CONTROL_DRIVER_LOG, sizeof(struct sep_drv_log_control), 0,
	    sizeof(struct sep_drv_log_control), 0),
	CMD(INIT_NUM_DEV, 4, 0, 0, 0),
	CMD(RESERVE, 0, 0, 4, 0),
	CMD(INIT_DRIVER, sizeof(struct sep_drv_config), 0, 0, 0),
	CMD(SET_CPU_TOPOLOGY, 0, sizeof(struct sep_drv_topology_info), 0, 0),
	CMD(NUM_DESCRIPTOR, 4, 0, 0, 0),
	CMD(DESC_NEXT, sizeof(struct sep_event_desc), 0, 0, 0),
	CMD(INIT, sizeof(struct sep_dev_config), 0, 0, 0),
	CMD(EM_GROUPS, sizeof(struct sep_event_config), 0, 0, 0),
	CMD(EM_CONFIG_NEXT, CORE_ECB, 0, sizeof(struct sep_drv_ioctl_status), 0),
	CMD(SET_DEVICE_NUM_UNITS, 4, 0, 0, 0),
	/* UncoreCollectionTest's; aca refuses these three (183, spec 5.5). */
	CMD(INIT_UNC, sizeof(struct sep_dev_unc_config), 0, 0, 0),
	CMD(EM_GROUPS_UNC, sizeof(struct sep_event_config), 0, 0, 0),
	CMD(EM_CONFIG_NEXT_UNC, UNCORE_ECB, 0, sizeof(struct sep_drv_ioctl_status), 0),
	CMD(INIT_PMU, 4, 0, 0, 0),
	/* Skylake's 32 LBRs: TOS, then each entry's FROM, TO and INFO. */
	CMD(LBR_INFO, 8 + (1 + 3 * 32) * 8, 0, 0, 0),
	CMD(START, 0, 0, 0, 0),
	CMD(PAUSE, 0, 0, 0, 0),
	CMD(RESUME, 0, 0, 0, 0),
	CMD(SWITCH_GROUP, 0, 0, 0, 0),
	/* Counting mode's (sep_cmd.h): a TSC delta and one count per CPU. */
	CMD(READ_AND_RESET, 0, 0, 0, 16),
	CMD(READ_SWITCH_GROUP, 0, 0, 0, 16),
	CMD(STOP, 0, 0, 0, 0),
	CMD(TSC_SKEW_INFO, 0, 0, 0, 8),
	CMD(GET_NUM_SAMPLES, 0, 0, 8, 0),
	CMD(GET_SAMPLE_DROP_INFO, 0, 0, sizeof(struct sep_sample_drop_info), 0),
	CMD(TERMINATE, 0, 0, 0, 0),
	/* Everything else a host may ask. */
	CMD(GET_DRIVER_STATE, 0, 0, 4, 0),
	CMD(GET_NORMALIZED_TSC_STANDALONE, 0, 0, 8, 0),
	CMD(KERNEL_CS, 0, 0, 4, 0),
	CMD(GET_NUM_CORE_CTRS, 0, 0, 4, 0),
	CMD(GET_PERF_CAPAB, 0, 0, 0, 8),
	CMD(GET_THREAD_COUNT, 0, 0, 4, 0),
	CMD(PAX_INFO, 0, 0, 32, 0),
	CMD(GET_DRIVER_LOG, 0, 0, 64, 0),
	CMD(WRITE_MSR, sizeof(struct sep_event_reg), 0, 0, 0),
	CMD(SET_SCAN_UNCORE_TOPOLOGY_INFO, 0, 0, 0, 0),
	/* aca's own (spec 4.6): four addresses, a slot each. */
	{ ACA_CMD_KERNEL_SYMBOLS, "KERNEL_SYMBOLS", 4 * 8, 0, 4 * ACA_KSYM_SLOT_SIZE, 0 },
	/* The head and one group's time. */
	{ ACA_CMD_GROUP_TIMES, "GROUP_TIMES", 0, 0,
	  sizeof(struct aca_group_times_head) + sizeof(struct aca_group_time), 0 },
	{ ACA_CMD_MODULE_SNAPSHOT, "MODULE_SNAPSHOT", 0, 0, 0, 0 },
};

const unsigned int tc_ncommands = sizeof(tc_commands) / sizeof(tc_commands[0]);

const __u32 tc_unknown_ids[] = {
	SEP_CMD_SET_CPU_MASK, 18, 19, 20, 26, 36, 43, 89, 93, 95, 99,
	200, 997, 0x40086400, 0x41430000, 0x41430004, 0x7fffffff, 0x80000000, ~0u,
};

const unsigned int tc_nunknown_ids = sizeof(tc_unknown_ids) / sizeof(tc_unknown_ids[0]);

const struct tc_command *tc_find_command(__u32 id)
{
	for (unsigned int i = 0; i < tc_ncommands; i++)
		if (tc_commands[i].id == id)
			return &tc_commands[i];
	return NULL;
}

__u64 tc_command_to(const struct tc_command *c, __u32 ncpus)
{
	return c->to + (__u64)c->to_per_cpu * ncpus;
}

__u64 tc_command_from(const struct tc_command *c, __u32 ncpus)
{
	return c->from + (__u64)c->from_per_cpu * ncpus;
}
