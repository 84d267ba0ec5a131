// SPDX-License-Identifier: GPL-2.0-only
/*
 * MSR access for READ_MSR/WRITE_MSR and ECB validation. aca programs the
 * PMU only through perf_events, so no MSR is ever written for a peer:
 * WRITE_MSR is refused. READ_MSR reaches only performance-monitoring
 * registers and a few read-only platform facts; the RAPL energy counters
 * only for a privileged session (CAP_PERFMON: they leak what other code
 * does, so kernels keep their powercap files for root since
 * CVE-2020-8694, and perf's power events need CAP_PERFMON). Refusals
 * answer status 196 and log why; the kernel's log function is
 * rate-limited.
 */
#include "internal.h"

struct msr_range {
	u32 first, last;
};

/* What READ_MSR may read and an ECB may name. */
static const struct msr_range allowed[] = {
	{ 0x017, 0x017 },	/* IA32_PLATFORM_ID */
	{ 0x0c1, 0x0c8 },	/* IA32_PMC0..7 */
	{ 0x0ce, 0x0ce },	/* MSR_PLATFORM_INFO */
	{ 0x186, 0x18d },	/* IA32_PERFEVTSEL0..7 */
	{ 0x1a4, 0x1a4 },	/* MSR_MISC_FEATURE_CONTROL */
	{ 0x1a6, 0x1a7 },	/* MSR_OFFCORE_RSP_0/1 */
	{ 0x1c8, 0x1c8 },	/* MSR_LBR_SELECT */
	{ 0x1d9, 0x1d9 },	/* IA32_DEBUGCTL */
	{ 0x309, 0x30c },	/* IA32_FIXED_CTR0..3 */
	{ 0x329, 0x329 },	/* MSR_PERF_METRICS */
	{ 0x345, 0x345 },	/* IA32_PERF_CAPABILITIES */
	{ 0x38d, 0x390 },	/* FIXED_CTR_CTRL, GLOBAL_STATUS/CTRL/OVF */
	{ 0x3f1, 0x3f1 },	/* IA32_PEBS_ENABLE */
	{ 0x3f6, 0x3f7 },	/* PEBS_LD_LAT, PEBS_FRONTEND */
	{ 0x4c1, 0x4c8 },	/* IA32_A_PMC0..7 */
	{ 0x606, 0x606 },	/* MSR_RAPL_POWER_UNIT: units, not energy */
};

/* RAPL energy status counters: privileged sessions only. */
static const u32 energy[] = {
	0x611,			/* MSR_PKG_ENERGY_STATUS */
	0x619,			/* MSR_DRAM_ENERGY_STATUS */
	0x639,			/* MSR_PP0_ENERGY_STATUS */
	0x641,			/* MSR_PP1_ENERGY_STATUS */
	0x64d,			/* MSR_PLATFORM_ENERGY_STATUS */
};

bool acp_msr_allowed(u32 msr)
{
	for (size_t i = 0; i < ARRAY_SIZE(allowed); i++)
		if (msr >= allowed[i].first && msr <= allowed[i].last)
			return true;
	return false;
}

static bool energy_counter(u32 msr)
{
	for (size_t i = 0; i < ARRAY_SIZE(energy); i++)
		if (msr == energy[i])
			return true;
	return false;
}

/* U32 MSR address in; its value on each CPU, as many as fit, out. */
s32 acp_cmd_read_msr(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	u32 msr, n = t->ops->num_cpus(t->ctx);
	u64 *vals;

	memcpy(&msr, cmd->in, sizeof(msr));
	if (energy_counter(msr) && !t->privileged) {
		acp_log(t, "READ_MSR 0x%x refused: RAPL energy counters: %s; %s %s",
			msr, ACP_PRIV_WHO, ACP_PRIV_GRANT, ACP_PRIV_PARAM);
		return VT_MSR_ACCESS_ERROR;
	}
	if (!energy_counter(msr) && !acp_msr_allowed(msr)) {
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

/*
 * EVENT_REG in (reg_id @8, reg_value @48): always refused, whatever the
 * register. perf owns every counter and control register; a value written
 * behind its back would corrupt its counts or another user's. Nothing
 * else changes: the session stays in the state it was in.
 */
s32 acp_cmd_write_msr(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct sep_event_reg reg;

	memcpy(&reg, cmd->in, sizeof(reg));
	acp_log(cmd->t, "WRITE_MSR 0x%x refused: aca programs the PMU only through perf_events",
		reg.event_reg_id.reg_id);
	return VT_MSR_ACCESS_ERROR;
}
