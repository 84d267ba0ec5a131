// SPDX-License-Identifier: GPL-2.0-only
/*
 * MSR access for READ_MSR/WRITE_MSR and ECB validation. aca programs the
 * PMU only through perf_events, so no MSR is ever written for a peer:
 * WRITE_MSR is refused. READ_MSR reaches only performance-monitoring
 * registers and a few read-only platform facts. Only a privileged session
 * (CAP_PERFMON, acp_conn_set_privileged()) reads the PMU's state and the
 * RAPL energy counters: the counters, their controls and status are the
 * counts and configuration of other users' perf events, which
 * perf_event_paranoid keeps from an unprivileged user; energy leaks what
 * other code does (kernels keep their powercap files for root since
 * CVE-2020-8694; perf's power events need CAP_PERFMON). Each READ_MSR
 * costs an IPI per CPU, so the target answers at most ACP_MSR_RATE a
 * second, in bursts of ACP_MSR_BURST, whichever connection asks (one
 * bucket per target: a peer that reconnects gets no fresh burst); beyond
 * that a READ_MSR is answered 196 at once, as every refusal is. Refusals
 * log why; the kernel's log function is rate-limited.
 */
#include "internal.h"

struct msr_range {
	u32 first, last;
	bool priv;		/* READ_MSR: privileged sessions only */
};

/*
 * What READ_MSR may read and an ECB may name, and which of them only a
 * privileged session may read (the facts: Intel SDM vol. 4, "Architectural
 * MSRs"; all of the PMU's counters, event selects, fixed counters and
 * their control, PERF_METRICS, the global status/control/overflow
 * registers, PEBS and LBR controls, DEBUGCTL). The platform facts and the
 * PMU's capabilities are what any user learns from CPUID and sysfs.
 */
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
	{ 0x329, 0x329, true },		/* MSR_PERF_METRICS */
	{ 0x345, 0x345, false },	/* IA32_PERF_CAPABILITIES */
	{ 0x38d, 0x390, true },		/* FIXED_CTR_CTRL, GLOBAL_STATUS/CTRL/OVF */
	{ 0x3f1, 0x3f1, true },		/* IA32_PEBS_ENABLE */
	{ 0x3f6, 0x3f7, true },		/* PEBS_LD_LAT, PEBS_FRONTEND */
	{ 0x4c1, 0x4c8, true },		/* IA32_A_PMC0..7 */
	{ 0x606, 0x606, false },	/* MSR_RAPL_POWER_UNIT: units, not energy */
};

/* RAPL energy status counters: READ_MSR only, privileged sessions only. */
static const u32 energy[] = {
	0x611,			/* MSR_PKG_ENERGY_STATUS */
	0x619,			/* MSR_DRAM_ENERGY_STATUS */
	0x639,			/* MSR_PP0_ENERGY_STATUS */
	0x641,			/* MSR_PP1_ENERGY_STATUS */
	0x64d,			/* MSR_PLATFORM_ENERGY_STATUS */
};

static const struct msr_range *find_range(u32 msr)
{
	for (size_t i = 0; i < ARRAY_SIZE(allowed); i++)
		if (msr >= allowed[i].first && msr <= allowed[i].last)
			return &allowed[i];
	return NULL;
}

bool acp_msr_allowed(u32 msr)
{
	return find_range(msr);
}

static bool energy_counter(u32 msr)
{
	for (size_t i = 0; i < ARRAY_SIZE(energy); i++)
		if (msr == energy[i])
			return true;
	return false;
}

/*
 * READ_MSR's token bucket, the target's (one session at a time asks, and
 * a peer that reconnects must not get a fresh burst): full
 * (ACP_MSR_BURST) at the first READ_MSR, a token back every
 * 1/ACP_MSR_RATE s of the TSC. A TSC read earlier than the last (another
 * CPU's) gives nothing back. False: none left now.
 */
static bool msr_token(struct acp_target *t)
{
	u64 now = t->ops->tsc_now(t->ctx);
	u64 per = t->ops->tsc_hz(t->ctx) / ACP_MSR_RATE;
	u64 n;

	if (!per)
		per = 1;
	if (!t->msr_bucket) {
		t->msr_bucket = true;
		t->msr_tokens = ACP_MSR_BURST;
		t->msr_refilled = now;
	}
	if (now < t->msr_refilled)
		t->msr_refilled = now;
	n = (now - t->msr_refilled) / per;
	if (n >= ACP_MSR_BURST - t->msr_tokens) {
		t->msr_tokens = ACP_MSR_BURST;
		t->msr_refilled = now;
	} else {
		t->msr_tokens += n;
		t->msr_refilled += n * per;
	}
	if (!t->msr_tokens)
		return false;
	t->msr_tokens--;
	return true;
}

/* U32 MSR address in; its value on each CPU, as many as fit, out. */
s32 acp_cmd_read_msr(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	u32 msr, n = t->ops->num_cpus(t->ctx);
	const struct msr_range *range;
	u64 *vals;

	memcpy(&msr, cmd->in, sizeof(msr));
	if (!msr_token(t)) {
		acp_log(t, "READ_MSR 0x%x refused: more than %u a second (bursts of %u)",
			msr, ACP_MSR_RATE, ACP_MSR_BURST);
		return VT_MSR_ACCESS_ERROR;
	}
	if (energy_counter(msr) && !t->privileged) {
		acp_log(t, "READ_MSR 0x%x refused: RAPL energy counters: %s; %s %s",
			msr, ACP_PRIV_WHO, ACP_PRIV_GRANT, ACP_PRIV_PARAM);
		return VT_MSR_ACCESS_ERROR;
	}
	range = find_range(msr);
	if (!energy_counter(msr) && !range) {
		acp_log(t, "READ_MSR 0x%x refused: not a performance-monitoring MSR", msr);
		return VT_MSR_ACCESS_ERROR;
	}
	if (range && range->priv && !t->privileged) {
		acp_log(t, "READ_MSR 0x%x refused: the PMU's state: %s; %s %s",
			msr, ACP_PRIV_WHO, ACP_PRIV_GRANT, ACP_PRIV_PARAM);
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
