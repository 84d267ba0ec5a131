// SPDX-License-Identifier: GPL-2.0-only
/*
 * MSR access for READ_MSR/WRITE_MSR and ECB validation: only performance
 * monitoring registers (and a few read-only platform facts) are reachable
 * from the network; anything else is refused with a log line.
 */
#include "internal.h"

struct msr_range {
	u32 first, last;
	bool writable;
};

static const struct msr_range allowed[] = {
	{ 0x017, 0x017, false },	/* IA32_PLATFORM_ID */
	{ 0x0c1, 0x0c8, true },		/* IA32_PMC0..7 */
	{ 0x0ce, 0x0ce, false },	/* MSR_PLATFORM_INFO */
	{ 0x186, 0x18d, true },		/* IA32_PERFEVTSEL0..7 */
	{ 0x1a4, 0x1a4, false },	/* MSR_MISC_FEATURE_CONTROL */
	{ 0x1a6, 0x1a7, true },		/* MSR_OFFCORE_RSP_0/1 */
	{ 0x1c8, 0x1c8, true },		/* MSR_LBR_SELECT */
	{ 0x1d9, 0x1d9, true },		/* IA32_DEBUGCTL */
	{ 0x309, 0x30c, true },		/* IA32_FIXED_CTR0..3 */
	{ 0x329, 0x329, false },	/* MSR_PERF_METRICS */
	{ 0x345, 0x345, false },	/* IA32_PERF_CAPABILITIES */
	{ 0x38d, 0x390, true },		/* FIXED_CTR_CTRL, GLOBAL_STATUS/CTRL/OVF */
	{ 0x3f1, 0x3f1, true },		/* IA32_PEBS_ENABLE */
	{ 0x3f6, 0x3f7, true },		/* PEBS_LD_LAT, PEBS_FRONTEND */
	{ 0x4c1, 0x4c8, true },		/* IA32_A_PMC0..7 */
	{ 0x606, 0x606, false },	/* MSR_RAPL_POWER_UNIT */
	{ 0x611, 0x611, false },	/* MSR_PKG_ENERGY_STATUS */
	{ 0x619, 0x619, false },	/* MSR_DRAM_ENERGY_STATUS */
	{ 0x639, 0x641, false },	/* PP0/PP1 energy status */
};

static const struct msr_range *find(u32 msr)
{
	for (size_t i = 0; i < ARRAY_SIZE(allowed); i++)
		if (msr >= allowed[i].first && msr <= allowed[i].last)
			return &allowed[i];
	return NULL;
}

bool acp_msr_allowed(u32 msr)
{
	return find(msr);
}

/* U32 MSR address in; its value on each CPU, as many as fit, out. */
s32 acp_cmd_read_msr(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	u32 msr, n = t->ops->num_cpus(t->ctx);
	u64 *vals;

	memcpy(&msr, cmd->in, sizeof(msr));
	if (!find(msr)) {
		acp_log(t, "READ_MSR 0x%x refused: not a performance-monitoring MSR", msr);
		return VT_MSR_ACCESS_ERROR;
	}
	if (n > cmd->out_len / 8)
		n = cmd->out_len / 8;
	if (!n)
		return VT_SUCCESS;
	vals = acp_reply_alloc(cmd, r, (u64)n * 8);
	if (!vals)
		return VT_NO_MEMORY;
	for (u32 cpu = 0; cpu < n; cpu++)
		if (!t->ops->rdmsr(t->ctx, cpu, msr, &vals[cpu]))
			vals[cpu] = 0;
	return VT_SUCCESS;
}

/* EVENT_REG in: reg_id and reg_value, written on every CPU. */
s32 acp_cmd_write_msr(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	const struct msr_range *range;
	struct sep_event_reg reg;
	u32 msr;

	memcpy(&reg, cmd->in, sizeof(reg));
	msr = reg.event_reg_id.reg_id;
	range = find(msr);
	if (!range || !range->writable) {
		acp_log(t, "WRITE_MSR 0x%x refused: not a writable performance-monitoring MSR",
			msr);
		return VT_MSR_ACCESS_ERROR;
	}
	for (u32 cpu = 0; cpu < t->ops->num_cpus(t->ctx); cpu++)
		if (!t->ops->wrmsr(t->ctx, cpu, msr, reg.reg_value) && !cpu)
			return VT_MSR_ACCESS_ERROR;
	return VT_SUCCESS;
}
