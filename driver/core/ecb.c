// SPDX-License-Identifier: GPL-2.0-only
/*
 * ECB decoding (spec 6): from the register image a SEP host sends to the
 * events aca asks perf for. Only counter slots and their selects matter;
 * the global control registers belong to perf (spec 6.8).
 */
#include "internal.h"

#define MSR_FIXED_CTR_CTRL	0x38d
#define MSR_GLOBAL_CTRL		0x38f
#define MSR_OFFCORE_RSP_0	0x1a6
#define MSR_OFFCORE_RSP_1	0x1a7
#define MSR_LBR_SELECT		0x1c8
#define MSR_PEBS_LD_LAT		0x3f6
#define MSR_PEBS_FRONTEND	0x3f7

/*
 * Event select bits perf lets a raw event carry (spec 6.5, 6.8). AnyThread
 * is perf's to allow or refuse (PMU version 3 and up, CAP_PERFMON, as
 * START needs anyway). Bits 35:32 are event[11:8] on AMD (perf's amd
 * format: event config:0-7,32-35) and IN_TX, IN_TXCP on Intel, which
 * perf takes from a raw config too.
 */
#define EVTSEL_EVENT_UMASK	0x0000ffffull
#define EVTSEL_USR		BIT_ULL(16)
#define EVTSEL_OS		BIT_ULL(17)
#define EVTSEL_EDGE		BIT_ULL(18)
#define EVTSEL_ANY		BIT_ULL(21)
#define EVTSEL_INV		BIT_ULL(23)
#define EVTSEL_CMASK		0xff000000ull
#define EVTSEL_EVENT_HI		0xf00000000ull
#define EVTSEL_PERF_OWNED	(EVTSEL_EVENT_UMASK | EVTSEL_EDGE | EVTSEL_ANY | \
				 EVTSEL_INV | EVTSEL_CMASK | EVTSEL_EVENT_HI)

/* FIXED_CTR_CTRL nibble j: ring 0, rings > 0, AnyThread, PMI. */
#define FIXED_OS		BIT(0)
#define FIXED_USR		BIT(1)
#define FIXED_ANY		BIT(2)

/*
 * Counters an x86 PMU can have: IA32_PERF_GLOBAL_CTRL enables general
 * counter k with bit k (bits 0-31) and fixed counter j with bit 32 + j
 * (bits 32-47); Linux's INTEL_PMC_MAX_GENERIC and INTEL_PMC_MAX_FIXED.
 */
#define MAX_GP_COUNTERS		32
#define MAX_FIXED_COUNTERS	16

/* Fixed counter j as perf's raw encoding (spec 6.8 step 2). */
static const u64 fixed_config[] = { 0x00c0, 0x003c, 0x0300, 0x0400 };
/*
 * Precise fixed counter 0 where fixed counters can do PEBS (PEBS baseline,
 * Icelake on): INST_RETIRED.PREC_DIST, perf's pseudo-encoding for that
 * counter alone; 0x00c0 precise would go to a general counter instead.
 */
#define FIXED0_PREC_DIST	0x0100

/* The payload buffer comes from the allocator, so it is aligned for these. */
struct ecb_view {
	struct acp_target *t;
	const struct sep_ecb *hdr;
	const struct sep_event_reg *slots;
	u32 nslots;
	struct sep_drv_ioctl_status *st;
	u64 branch_type;	/* its PMU events' LBR filter; 0: no LBRs */
};

static bool slot(const struct ecb_view *v, u32 op, u32 i,
		 struct sep_event_reg *reg)
{
	const struct sep_pmu_operation *o = &v->hdr->operations[op];

	memset(reg, 0, sizeof(*reg));
	if (i >= o->register_len)
		return false;
	*reg = v->slots[o->register_start + i];
	return reg->event_reg_id.reg_id != 0;
}

/* Every section must lie inside the @nslots slots that were sent (core and uncore ECBs). */
bool acp_ecb_sections_fit(struct acp_target *t, const struct sep_ecb *hdr, u32 nslots)
{
	for (u32 op = 0; op < SEP_MAX_OPERATION_TYPES; op++) {
		const struct sep_pmu_operation *o = &hdr->operations[op];

		if (o->register_len &&
		    (u64)o->register_start + o->register_len > nslots) {
			acp_log(t, "ECB: section %u (%u+%u) beyond %u slots", op,
				o->register_start, o->register_len, nslots);
			return false;
		}
	}
	return true;
}

/*
 * Counter slot j is counter j (spec 6.2): a section longer than any PMU's
 * counters names counters that do not exist. Refused, not cut short.
 */
static bool counters_fit(const struct ecb_view *v)
{
	static const struct {
		u32 op, max;
		const char *what;
	} sections[] = {
		{ SEP_OP_DATA_FIXED, MAX_FIXED_COUNTERS, "fixed counter" },
		{ SEP_OP_CTRL_GP, MAX_GP_COUNTERS, "event select" },
		{ SEP_OP_DATA_GP, MAX_GP_COUNTERS, "general counter" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(sections); i++) {
		u32 len = v->hdr->operations[sections[i].op].register_len;

		if (len > sections[i].max) {
			acp_log(v->t, "ECB: %u %s slots, a PMU has at most %u",
				len, sections[i].what, sections[i].max);
			return false;
		}
	}
	return true;
}

/* Slot @i lies in section @op. */
static bool in_section(const struct ecb_view *v, u32 op, u32 i)
{
	const struct sep_pmu_operation *o = &v->hdr->operations[op];

	return i >= o->register_start && i - o->register_start < o->register_len;
}

static bool registers_allowed(const struct ecb_view *v)
{
	for (u32 i = 0; i < v->nslots; i++) {
		u32 msr = v->slots[i].event_reg_id.reg_id;

		/* [ACA-EXT] a software event's select names no MSR. */
		if (msr == ACA_SW_EVENT_SELECT && in_section(v, SEP_OP_CTRL_GP, i))
			continue;
		/* [ACA-EXT] an IBS control register is a sampler of its own. */
		if (acp_ibs_register(msr) && in_section(v, SEP_OP_DATA_GP, i))
			continue;
		if (msr && !acp_msr_allowed(msr)) {
			v->st->drv_status = VT_INVALID_PROG_INFO;
			v->st->reg_prog_type = SEP_REG_PROG_MSR;
			v->st->reg_key1 = msr;
			acp_log(v->t, "ECB: register 0x%x is not on the PMU allow-list", msr);
			return false;
		}
	}
	return true;
}

/* Value of a global register by address, or @dflt if the ECB lacks it. */
static u64 global_reg(const struct ecb_view *v, u32 msr, u64 dflt)
{
	struct sep_event_reg reg;

	for (u32 i = 0; i < v->hdr->operations[SEP_OP_GLOBAL_REGS].register_len; i++)
		if (slot(v, SEP_OP_GLOBAL_REGS, i, &reg) &&
		    reg.event_reg_id.reg_id == msr)
			return reg.reg_value;
	return dflt;
}

static u64 ocr_value(const struct ecb_view *v, u32 msr)
{
	struct sep_event_reg reg;

	if (!msr)
		return 0;

	for (u32 i = 0; i < v->hdr->operations[SEP_OP_OCR].register_len; i++)
		if (slot(v, SEP_OP_OCR, i, &reg) && reg.event_reg_id.reg_id == msr)
			return reg.reg_value;
	return 0;
}

/*
 * A counter's width mask must be 2^n - 1 with 1 <= n <= 48 (spec 6.4:
 * 0xFFFFFFFFFFFF for the usual 48 bits; 0, unset, means that); anything
 * else is not a counter width, and could make a period no PMU counts to.
 */
static bool counter_mask(const struct sep_event_reg *reg, u64 *mask)
{
	*mask = reg->max_bits ? reg->max_bits : ACP_COUNTER_MASK;
	return !(*mask & (*mask + 1)) && *mask <= ACP_COUNTER_MASK;
}

/*
 * Sample-after value: the counter is preloaded with -SAV (spec 6.5). At
 * most @mask, so below 2^48; 0 (reg_value 0) is no sample-after value.
 */
static u64 sample_after(const struct sep_event_reg *reg, u64 mask)
{
	return (mask + 1 - (reg->reg_value & mask)) & mask;
}

/*
 * IA32_PERF_GLOBAL_CTRL bit k enables general counter k, bit 32 + j fixed
 * counter j (spec 6.5). The section lengths, hence the counter numbers,
 * come from the peer; counters_fit() bounds them, and a counter that has
 * no enable bit would not count anyway.
 */
static bool counter_enabled(u64 global_ctrl, bool fixed, u32 i)
{
	if (i >= 32)
		return false;
	return global_ctrl & BIT_ULL(fixed ? 32 + i : i);
}

/*
 * The auxiliary MSR whose OCR slot value perf wants in config1 for an
 * event select (its event code, bits 35:32 included): offcore response
 * (0xB7, 0xBB; 0x2A, 0x2B from Golden Cove on), load latency (0xCD; 0xD0
 * on Gracemont) and the PEBS frontend filter (0xC6; 0xAD, 0xC2 from
 * Golden Cove on); 0 for none. perf reads config1 only for the event and
 * umask its model's extra registers name, and ignores it otherwise.
 */
static u32 aux_msr(u64 evtsel)
{
	switch (evtsel & (EVTSEL_EVENT_HI | 0xff)) {
	case 0xb7:
	case 0x2a:
		return MSR_OFFCORE_RSP_0;
	case 0xbb:
	case 0x2b:
		return MSR_OFFCORE_RSP_1;
	case 0xcd:
	case 0xd0:
		return MSR_PEBS_LD_LAT;
	case 0xc6:
	case 0xad:
	case 0xc2:
		return MSR_PEBS_FRONTEND;
	default:
		return 0;
	}
}

static bool add_event(const struct ecb_view *v, struct acp_group *g,
		      const struct sep_event_reg *reg, struct acp_event *e)
{
	u64 mask;

	e->event_index = reg->event_id_index;
	e->msr = reg->event_reg_id.reg_id;
	e->branch_type = e->software || e->pmu_type ? 0 : v->branch_type;
	e->precise = reg->flags & SEP_EVREG_PRECISE ? 1 : 0;
	e->trigger = reg->flags & SEP_EVREG_EM_TRIGGER ? 1 : 0;
	/* An IBS register holds its period, not a preload (ibs.c). */
	if (!e->pmu_type && !counter_mask(reg, &mask)) {
		acp_log(v->t, "ECB: counter 0x%x has width mask 0x%llx, not 2^n-1 with n 1..%u",
			e->msr, (unsigned long long)reg->max_bits, ACP_COUNTER_BITS);
		return false;
	}
	if (!e->pmu_type)
		e->period = sample_after(reg, mask);
	if (!e->period && !acp_counting_mode(&v->t->cfg)) {
		acp_log(v->t, "ECB: counter 0x%x has no sample-after value", e->msr);
		return false;
	}
	if (g->nevents >= ACP_MAX_EVENTS) {
		acp_log(v->t, "ECB: more than %u events in one group", ACP_MAX_EVENTS);
		return false;
	}
	g->events[g->nevents++] = *e;
	return true;
}

/* The target's fixed counters can sample precisely (PEBS baseline). */
static bool pebs_baseline(struct acp_target *t)
{
	u64 caps;

	return t->ops->rdmsr && t->ops->rdmsr(t->ctx, -1, MSR_PERF_CAPABILITIES, &caps) &&
	       (caps & PERF_CAP_PEBS_BASELINE);
}

static bool decode_fixed(const struct ecb_view *v, struct acp_group *g)
{
	u64 ctrl = global_reg(v, MSR_FIXED_CTR_CTRL, 0);
	u64 enabled = global_reg(v, MSR_GLOBAL_CTRL, ~0ull);
	struct sep_event_reg reg;

	for (u32 j = 0; j < v->hdr->operations[SEP_OP_DATA_FIXED].register_len; j++) {
		struct acp_event e = { .fixed = 1, .counter = j };
		u32 nibble;

		if (!slot(v, SEP_OP_DATA_FIXED, j, &reg) ||
		    !counter_enabled(enabled, true, j))
			continue;
		if (j >= ARRAY_SIZE(fixed_config)) {
			acp_log(v->t, "ECB: fixed counter %u is not supported", j);
			return false;
		}
		nibble = (ctrl >> (4 * j)) & 0xf;
		e.config = fixed_config[j];
		if (!j && (reg.flags & SEP_EVREG_PRECISE) && pebs_baseline(v->t))
			e.config = FIXED0_PREC_DIST;
		if (nibble & FIXED_ANY)
			e.config |= EVTSEL_ANY;
		e.exclude_kernel = !(nibble & FIXED_OS);
		e.exclude_user = !(nibble & FIXED_USR);
		if (!add_event(v, g, &reg, &e))
			return false;
	}
	return true;
}

/* [ACA-EXT] A software event's select (sep_cmd.h): its id and rings only. */
#define SW_SELECT_ID		0xffull

static bool software_event(const struct ecb_view *v,
			   const struct sep_event_reg *sel, struct acp_event *e)
{
	u64 id = sel->reg_value & SW_SELECT_ID;

	if ((sel->reg_value & ~(SW_SELECT_ID | EVTSEL_USR | EVTSEL_OS)) ||
	    id > ACA_SW_MAX) {
		acp_log(v->t, "ECB: software event select 0x%llx: %s 0..%u, %s",
			(unsigned long long)sel->reg_value, "bits 7:0 a software event",
			ACA_SW_MAX, "bits 16, 17 the rings, nothing else");
		return false;
	}
	e->software = 1;
	e->config = id;
	return true;
}

/* IBS samples one event a CPU: a second slot of a unit would never be scheduled. */
static bool ibs_unit_taken(const struct ecb_view *v, const struct acp_group *g, u32 msr)
{
	for (u32 i = 0; i < g->nevents; i++) {
		if (g->events[i].pmu_type && g->events[i].msr == msr) {
			acp_log(v->t, "ECB: IBS register 0x%x in two slots: %s", msr,
				"IBS samples one event a CPU");
			return true;
		}
	}
	return false;
}

static bool decode_gp(const struct ecb_view *v, struct acp_group *g)
{
	u64 enabled = global_reg(v, MSR_GLOBAL_CTRL, ~0ull);
	struct sep_event_reg reg, sel;

	for (u32 k = 0; k < v->hdr->operations[SEP_OP_DATA_GP].register_len; k++) {
		struct acp_event e = { .counter = k };
		bool on;

		if (!slot(v, SEP_OP_DATA_GP, k, &reg))
			continue;
		/* [ACA-EXT] IBS: its own enable bit, no select (spec 6.12). */
		if (acp_ibs_register(reg.event_reg_id.reg_id)) {
			u32 msr = reg.event_reg_id.reg_id;

			if (!acp_ibs_event(v->t, msr, reg.reg_value, &e, &on))
				return false;
			if (on && (ibs_unit_taken(v, g, msr) || !add_event(v, g, &reg, &e)))
				return false;
			continue;
		}
		if (!counter_enabled(enabled, false, k))
			continue;
		if (!slot(v, SEP_OP_CTRL_GP, k, &sel)) {
			acp_log(v->t, "ECB: general counter %u has no event select", k);
			return false;
		}
		e.exclude_user = !(sel.reg_value & EVTSEL_USR);
		e.exclude_kernel = !(sel.reg_value & EVTSEL_OS);
		if (sel.event_reg_id.reg_id == ACA_SW_EVENT_SELECT) {
			if (!software_event(v, &sel, &e))
				return false;
		} else {
			e.config = sel.reg_value & EVTSEL_PERF_OWNED;
			e.config1 = ocr_value(v, aux_msr(sel.reg_value));
			/* perf's sample weight is its latency (else TSX cycles). */
			e.load_latency = aux_msr(sel.reg_value) == MSR_PEBS_LD_LAT;
		}
		if (!add_event(v, g, &reg, &e))
			return false;
	}
	return true;
}

/*
 * The events whose samples count toward a switch after em_factor samples
 * (EVENT_CONFIG em_mode 1, 2): those whose entry has em_trigger; in a group
 * with none, its em_event_num'th event in ECB order (fixed counters first);
 * with no such event (em_event_num -1), every event of the group.
 */
static void mark_triggers(const struct acp_target *t, struct acp_group *g)
{
	s32 num = t->cfg.events.em_event_num;

	for (u32 i = 0; i < g->nevents; i++)
		if (g->events[i].trigger)
			return;
	if (num >= 0 && (u32)num < g->nevents) {
		g->events[num].trigger = 1;
		return;
	}
	for (u32 i = 0; i < g->nevents; i++)
		g->events[i].trigger = 1;
}

bool acp_ecb_decode(struct acp_target *t, const u8 *ecb, u64 len,
		    struct acp_group *g, struct sep_drv_ioctl_status *st)
{
	struct ecb_view v = { .t = t, .st = st };

	if (len < sizeof(*v.hdr))
		return false;
	v.hdr = (const struct sep_ecb *)ecb;
	v.slots = (const struct sep_event_reg *)(ecb + sizeof(*v.hdr));
	/* Slots are counted from the length, not num_entries (spec 6.5). */
	v.nslots = (len - sizeof(*v.hdr)) / sizeof(struct sep_event_reg);
	if (v.hdr->device_type != SEP_DEVICE_CORE &&
	    v.hdr->device_type != SEP_DEVICE_HETERO) {
		acp_log(t, "ECB: device type %u is not a core PMU", v.hdr->device_type);
		return false;
	}
	if (!acp_ecb_sections_fit(t, v.hdr, v.nslots) || !counters_fit(&v) ||
	    !registers_allowed(&v))
		return false;
	/* LBRs go with samples (spec 6.11): never in counting mode. */
	if (acp_lbrs_asked(&t->cfg) && !acp_counting_mode(&t->cfg) &&
	    !acp_lbr_branch_type(t, ocr_value(&v, MSR_LBR_SELECT), &v.branch_type))
		return false;
	memset(g, 0, sizeof(*g));
	if (!decode_fixed(&v, g) || !decode_gp(&v, g))
		return false;
	mark_triggers(t, g);
	g->loaded = true;
	return true;
}
