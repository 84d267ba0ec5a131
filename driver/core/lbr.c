// SPDX-License-Identifier: GPL-2.0-only
/*
 * Last branch records (spec 5.4a, 6.11): an ECB's LBR_SELECT becomes
 * perf's branch filter (branch_sample_type), LBR_INFO the layout of a
 * record's LBR area, and perf's branch stack is written into that area
 * as the LBR registers would hold it.
 */
#include "internal.h"

/*
 * LBR_SELECT (MSR 0x1C8), Haswell to Ice Lake: bits 0-8 each suppress
 * what they name (ring 0, rings > 0, then branch types), bit 9 makes the
 * LBRs a call stack. Arch LBR parts program their own register from the
 * same branch_sample_type.
 */
#define LBR_KERNEL		BIT(0)
#define LBR_USER		BIT(1)
#define LBR_JCC			BIT(2)
#define LBR_REL_CALL		BIT(3)
#define LBR_IND_CALL		BIT(4)
#define LBR_RETURN		BIT(5)
#define LBR_IND_JMP		BIT(6)
#define LBR_REL_JMP		BIT(7)
#define LBR_FAR			BIT(8)
#define LBR_CALL_STACK		BIT(9)
#define LBR_SUPPRESS_BITS	0x1ffu
#define LBR_RINGS		(LBR_KERNEL | LBR_USER)
#define LBR_ANY			(LBR_JCC | LBR_REL_CALL | LBR_IND_CALL | LBR_RETURN | \
				 LBR_IND_JMP | LBR_REL_JMP | LBR_FAR)

/*
 * The LBR_SELECT bits perf selects (before inverting the suppress bits)
 * for each branch type of branch_sample_type, Haswell on, and whether
 * perf takes the type with CALL_STACK (its software filter refuses the
 * types it tests before CALL_STACK, EINVAL).
 */
static const struct {
	u64 type;
	u32 select;
	bool with_call_stack;
} lbr_types[] = {
	{ PERF_SAMPLE_BRANCH_ANY, LBR_ANY, false },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, LBR_RETURN | LBR_FAR, false },
	{ PERF_SAMPLE_BRANCH_ANY_CALL, LBR_REL_CALL | LBR_IND_CALL | LBR_FAR, false },
	{ PERF_SAMPLE_BRANCH_IND_CALL, LBR_IND_CALL, false },
	{ PERF_SAMPLE_BRANCH_COND, LBR_JCC, false },
	{ PERF_SAMPLE_BRANCH_CALL_STACK,
	  LBR_REL_CALL | LBR_IND_CALL | LBR_RETURN | LBR_CALL_STACK, true },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, LBR_IND_JMP, true },
	{ PERF_SAMPLE_BRANCH_CALL, LBR_REL_CALL, true },
};

/* Subset @m of lbr_types[] is a branch_sample_type perf takes. */
static bool lbr_types_go_together(u32 m)
{
	bool stack = false, others = false;

	for (u32 i = 0; i < ARRAY_SIZE(lbr_types); i++) {
		if (!(m & BIT(i)))
			continue;
		stack |= lbr_types[i].type == PERF_SAMPLE_BRANCH_CALL_STACK;
		others |= !lbr_types[i].with_call_stack;
	}
	return !(stack && others);
}

static u32 popcount(u32 m)
{
	u32 n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

/*
 * The branch_sample_type for which perf programs LBR_SELECT to @select
 * (spec 6.11): its rings, and the fewest branch types perf takes together
 * whose selections add up to exactly the branches @select keeps. False,
 * with a log line, when no branch_sample_type perf takes makes it program
 * that value.
 */
bool acp_lbr_branch_type(const struct acp_target *t, u64 select, u64 *type)
{
	u32 keep = ((u32)~select & LBR_SUPPRESS_BITS) | ((u32)select & LBR_CALL_STACK);
	u32 want = keep & ~LBR_RINGS, best = 0, nbest = ~0u;

	*type = 0;
	if (select & ~(u64)(LBR_SUPPRESS_BITS | LBR_CALL_STACK)) {
		acp_log(t, "ECB: LBR_SELECT 0x%llx sets bits above 9", (unsigned long long)select);
		return false;
	}
	if (!(keep & LBR_RINGS) || !want) {
		acp_log(t, "ECB: LBR_SELECT 0x%llx suppresses every %s: %s",
			(unsigned long long)select, want ? "ring" : "branch type",
			"no branch would be recorded");
		return false;
	}
	for (u32 m = 1; m < 1u << ARRAY_SIZE(lbr_types); m++) {
		u32 sel = 0;

		for (u32 i = 0; i < ARRAY_SIZE(lbr_types); i++)
			if (m & BIT(i))
				sel |= lbr_types[i].select;
		if (sel == want && popcount(m) < nbest && lbr_types_go_together(m)) {
			best = m;
			nbest = popcount(m);
		}
	}
	if (!best) {
		acp_log(t, "ECB: LBR_SELECT 0x%llx keeps branches perf cannot filter to (%s)",
			(unsigned long long)select,
			"relative jumps or far branches alone, calls without far ones, a call stack with more");
		return false;
	}
	for (u32 i = 0; i < ARRAY_SIZE(lbr_types); i++)
		if (best & BIT(i))
			*type |= lbr_types[i].type;
	if (keep & LBR_USER)
		*type |= PERF_SAMPLE_BRANCH_USER;
	if (keep & LBR_KERNEL)
		*type |= PERF_SAMPLE_BRANCH_KERNEL;
	return true;
}

/* The MSRs of each kind of LBR register, legacy and Arch LBR. */
static const struct {
	u16 kind;
	u32 first, last;
} lbr_msrs[] = {
	{ SEP_LBR_TOS, 0x1c9, 0x1c9 },		/* MSR_LBR_TOS */
	{ SEP_LBR_FROM, 0x040, 0x04f },		/* Core 2, Atom */
	{ SEP_LBR_FROM, 0x680, 0x69f },		/* MSR_LBR_NHM_FROM */
	{ SEP_LBR_FROM, 0x1500, 0x153f },	/* MSR_ARCH_LBR_FROM_0 */
	{ SEP_LBR_TO, 0x060, 0x06f },
	{ SEP_LBR_TO, 0x6c0, 0x6df },		/* MSR_LBR_NHM_TO */
	{ SEP_LBR_TO, 0x1600, 0x163f },		/* MSR_ARCH_LBR_TO_0 */
	{ SEP_LBR_INFO, 0xdc0, 0xddf },		/* MSR_LBR_INFO_0 */
	{ SEP_LBR_INFO, 0x1200, 0x123f },	/* MSR_ARCH_LBR_INFO_0 */
};

static bool lbr_register(const struct sep_lbr_entry *e)
{
	for (size_t i = 0; i < ARRAY_SIZE(lbr_msrs); i++)
		if (e->type == lbr_msrs[i].kind && e->reg_id >= lbr_msrs[i].first &&
		    e->reg_id <= lbr_msrs[i].last)
			return true;
	return false;
}

/*
 * LBR_INFO (spec 5.4a): the registers of a record's LBR area, in order.
 * aca reads none of them; they say what each U64 of the area holds.
 */
s32 acp_cmd_lbr_info(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_config *cfg = &cmd->t->cfg;
	struct acp_lbr_layout l = { 0 };
	struct sep_lbr_info_head h;
	const u8 *p = cmd->in + sizeof(h);

	if (!acp_lbrs_asked(cfg)) {
		acp_log(cmd->t, "LBR_INFO refused: %s",
			"INIT did not ask for LBRs (DEV_CONFIG collect_lbrs)");
		return VT_BAD_PARAMETER;
	}
	memcpy(&h, cmd->in, sizeof(h));
	if (h.n > ACP_MAX_LBR_REGS ||
	    h.n > (cmd->in_len - sizeof(h)) / sizeof(struct sep_lbr_entry)) {
		acp_log(cmd->t, "LBR_INFO: %u registers in %llu bytes, at most %u",
			h.n, (unsigned long long)cmd->in_len, ACP_MAX_LBR_REGS);
		return VT_BAD_PARAMETER;
	}
	for (u32 k = 0; k < h.n; k++) {
		struct sep_lbr_entry e;

		memcpy(&e, p + k * sizeof(e), sizeof(e));
		if (e.index >= ACP_MAX_LBR_ENTRIES || !lbr_register(&e) ||
		    (e.type == SEP_LBR_TOS && e.index)) {
			acp_log(cmd->t, "LBR_INFO: register %u (type %u, entry %u, MSR 0x%x) %s",
				k, e.type, e.index, e.reg_id, "is not an LBR register");
			return VT_BAD_PARAMETER;
		}
		l.kind[k] = e.type;
		l.index[k] = e.index;
		if (e.type != SEP_LBR_TOS && e.index >= l.depth)
			l.depth = e.index + 1;
	}
	l.n = h.n;
	l.depth = l.depth ? l.depth : 1;
	cfg->lbr = l;
	return VT_SUCCESS;
}

/* LBR_INFO's layout (Skylake on): cycles 15:0, abort 61, in TSX 62, mispredicted 63. */
static u64 lbr_info_word(const struct perf_branch_entry *b)
{
	return (u64)b->mispred << 63 | (u64)b->in_tx << 62 | (u64)b->abort << 61 |
	       (b->cycles & 0xffff);
}

/*
 * Fill an LBR area of @nregs U64s at @area from perf's branch stack @br
 * (@nr branches, most recent first). NMI context: no locks, no calls out.
 * Registers beyond the layout's stay as they are (zero).
 */
void acp_lbr_fill(u64 *area, u32 nregs, const struct acp_lbr_layout *l,
		  const struct perf_branch_entry *br, u64 nr)
{
	for (u32 k = 0; k < nregs && k < l->n; k++) {
		u32 j = l->depth - 1u - l->index[k];
		const struct perf_branch_entry *b = j < nr ? &br[j] : NULL;

		switch (l->kind[k]) {
		case SEP_LBR_TOS:
			area[k] = l->depth - 1u;
			break;
		case SEP_LBR_FROM:
			area[k] = b ? b->from : 0;
			break;
		case SEP_LBR_TO:
			area[k] = b ? b->to : 0;
			break;
		default:
			area[k] = b ? lbr_info_word(b) : 0;
			break;
		}
	}
}
