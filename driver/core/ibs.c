// SPDX-License-Identifier: GPL-2.0-only
/*
 * AMD IBS (spec 6.12 [ACA-EXT]): an ECB's DATA_GP slot naming an IBS
 * control register becomes an event of the target's ibs_op or ibs_fetch
 * perf PMU. The slot's value is the register as a driver would write it:
 * the maximum count (the sampling period in units of 16), the enable bit
 * and the option bits; perf takes the options as its config, named by
 * the PMU's format files, and the period as sample_period.
 */
#include "internal.h"

#define MSR_IBS_FETCH_CTL	0xc0011030
#define MSR_IBS_OP_CTL		0xc0011033

/* IbsFetchCtl: IbsFetchMaxCnt 15:0, IbsFetchEn 48. */
#define FETCH_MAX_CNT		0xffffull
#define FETCH_EN		BIT_ULL(48)
/* IbsOpCtl: IbsOpMaxCnt 15:0, IbsOpEn 17, IbsOpMaxCnt[22:16] at 26:20. */
#define OP_MAX_CNT		0xffffull
#define OP_EN			BIT_ULL(17)
#define OP_MAX_CNT_EXT		(0x7full << 20)

struct ibs_unit {
	u32 msr;
	const char *pmu;
	u64 en, max_cnt, max_cnt_ext;
};

static const struct ibs_unit units[] = {
	{ MSR_IBS_FETCH_CTL, "ibs_fetch", FETCH_EN, FETCH_MAX_CNT, 0 },
	{ MSR_IBS_OP_CTL, "ibs_op", OP_EN, OP_MAX_CNT, OP_MAX_CNT_EXT },
};

static const struct ibs_unit *ibs_unit(u32 msr)
{
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (units[i].msr == msr)
			return &units[i];
	return NULL;
}

bool acp_ibs_register(u32 msr)
{
	return !!ibs_unit(msr);
}

const char *acp_ibs_pmu_name(const struct acp_event *e)
{
	const struct ibs_unit *u = e->pmu_type ? ibs_unit(e->msr) : NULL;

	return u ? u->pmu : NULL;
}

/* Room for an IBS PMU's format files: cnt_ctl, rand_en, l3missonly and a few more. */
#define IBS_FORMATS_LEN		512

/* The config bits the PMU's format files name. */
static bool ibs_formats(struct acp_target *t, const struct ibs_unit *u, u32 *type, u64 *bits)
{
	/* The last byte stays 0: every format ends inside the buffer. */
	char formats[IBS_FORMATS_LEN] = { 0 };
	const char *f;

	*bits = 0;
	if (!t->ops->find_pmu ||
	    !t->ops->find_pmu(t->ctx, u->pmu, type, formats, sizeof(formats) - 1))
		return false;
	for (f = formats; f < formats + sizeof(formats) && *f; f += strlen(f) + 1) {
		u64 b[ACP_FORMAT_WORDS] = { 0 };

		/* IBS options are config bits; others (none today) stay refused. */
		if (acp_pmu_format_bits(f, b))
			*bits |= b[0];
	}
	return true;
}

/*
 * The event for IBS control register value @v: false, with a log line,
 * for a target without the PMU, a bit perf does not take or a maximum
 * count of 0. A value without the enable bit is no event (*@enabled
 * false, *@e untouched). A count past 16 bits is a period perf programs
 * as it is where IBS has IbsOpCntExt, and in chunks of its largest
 * elsewhere: the same period.
 */
bool acp_ibs_event(struct acp_target *t, u32 msr, u64 v, struct acp_event *e, bool *enabled)
{
	const struct ibs_unit *u = ibs_unit(msr);
	u64 options, cnt;
	u32 type;

	*enabled = u && (v & u->en);
	if (!*enabled)
		return !!u;
	if (acp_counting_mode(&t->cfg)) {
		acp_log(t, "ECB: %s samples; counting mode takes counters only", u->pmu);
		return false;
	}
	if (!ibs_formats(t, u, &type, &options)) {
		acp_log(t, "ECB: IBS register 0x%x, but the target has no perf PMU %s (%s)",
			msr, u->pmu, "AMD with IBS only");
		return false;
	}
	if (v & ~(u->en | u->max_cnt | u->max_cnt_ext | options)) {
		acp_log(t, "ECB: %s control 0x%llx sets bits %s (0x%llx)", u->pmu,
			(unsigned long long)v, "its PMU's format files do not name",
			(unsigned long long)(v & ~(u->en | u->max_cnt | u->max_cnt_ext | options)));
		return false;
	}
	cnt = (v & u->max_cnt) | ((v & u->max_cnt_ext) >> 20 << 16);
	if (!cnt) {
		acp_log(t, "ECB: %s control 0x%llx has no maximum count", u->pmu,
			(unsigned long long)v);
		return false;
	}
	e->pmu_type = type;
	e->config = v & options;
	e->period = cnt << 4;
	/* IBS tags every ring (perf: PERF_PMU_CAP_NO_EXCLUDE). */
	e->exclude_user = 0;
	e->exclude_kernel = 0;
	return true;
}

/*
 * [ACA-EXT] An IBS event of the local API (uapi ACA_EVENT_IBS_OP and
 * _FETCH): the PMU and its options checked as an ECB's. @config is perf's
 * config, options only; the caller sets the period. VT_SUCCESS,
 * VT_INVALID_DEVICE without the PMU, VT_BAD_PARAMETER for another bit.
 */
s32 acp_ibs_pmu_event(struct acp_target *t, bool fetch, u64 config, struct acp_event *e)
{
	const struct ibs_unit *u = ibs_unit(fetch ? MSR_IBS_FETCH_CTL : MSR_IBS_OP_CTL);
	u64 options;
	u32 type;

	if (!ibs_formats(t, u, &type, &options))
		return VT_INVALID_DEVICE;
	if (config & ~options)
		return VT_BAD_PARAMETER;
	e->msr = u->msr;
	e->pmu_type = type;
	e->config = config;
	e->exclude_user = 0;
	e->exclude_kernel = 0;
	return VT_SUCCESS;
}
