// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, last branch records (spec 5.4a, 5.7, 6.11): an ECB's
 * LBR_SELECT as perf's branch filter, checked against the kernel's own
 * filter map (arch/x86/events/intel/lbr.c, extracted at build time from
 * linux-source-6.12 like the translation tests' tables); LBR_INFO and the
 * LBR area of a record, and the area filled from perf's branch stack.
 */
#include <limits.h>
#include <stdio.h>

#include "core_fixture.h"
#include "ksrc.h"

#define LBR_SELECT_SLOT		20	/* the core vector's OCR 4 (spec 6.11) */
#define NSELECT			1024	/* LBR_SELECT bits 0-9 */

/* perf's branch types by the names lbr.c's maps index them with. */
static const struct {
	const char *name;
	unsigned int shift;
} shifts[] = {
#define S(x) { "PERF_SAMPLE_BRANCH_" #x "_SHIFT", PERF_SAMPLE_BRANCH_##x##_SHIFT }
	S(USER), S(KERNEL), S(HV), S(ANY), S(ANY_CALL), S(ANY_RETURN), S(IND_CALL),
	S(ABORT_TX), S(IN_TX), S(NO_TX), S(COND), S(CALL_STACK), S(IND_JUMP), S(CALL),
	S(NO_FLAGS), S(NO_CYCLES), S(TYPE_SAVE), S(HW_INDEX), S(PRIV_SAVE),
#undef S
};

/*
 * The kernel's LBR_* macros and hsw_lbr_sel_map, as lbr.c defines them,
 * and the branch types its software filter refuses with CALL_STACK.
 */
struct kmap {
	struct ksrc src;
	s64 map[PERF_SAMPLE_BRANCH_MAX_SHIFT];
	s64 sel_mask, call_stack;
	u64 not_with_stack;
};

static int kshift(const char *name, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(shifts); i++)
		if (strlen(shifts[i].name) == n && !strncmp(shifts[i].name, name, n))
			return shifts[i].shift;
	return -1;
}

/*
 * intel_pmu_setup_sw_lbr_filter(): with CALL_STACK, a mask that already
 * holds more than the rings is EINVAL; the branch types it tests before
 * CALL_STACK are those that put something in the mask.
 */
static bool kload_sw_filter(struct kmap *k)
{
	static const char cond[] = "if (br_type & PERF_SAMPLE_BRANCH_";
	const char *f = strstr(k->src.text, "static int intel_pmu_setup_sw_lbr_filter(");
	const char *stack = f ? strstr(f, "if (br_type & PERF_SAMPLE_BRANCH_CALL_STACK)") : NULL;
	const char *check = stack ? strstr(stack, "if (mask & ~(X86_BR_USER | X86_BR_KERNEL))") : NULL;

	if (!check || !strstr(check, "return -EINVAL") || strstr(check, "return -EINVAL") - check > 80)
		return false;
	for (const char *p = strstr(f, cond); p && p < stack; p = strstr(p + 1, cond)) {
		const char *name = p + strlen("if (br_type & ");
		char shift[64];
		int sh;

		/* The flag PERF_SAMPLE_BRANCH_X is 1 << PERF_SAMPLE_BRANCH_X_SHIFT. */
		snprintf(shift, sizeof(shift), "%.*s_SHIFT", (int)strcspn(name, ")"), name);
		sh = kshift(shift, strlen(shift));

		if (sh < 0)
			return false;
		if (sh != PERF_SAMPLE_BRANCH_USER_SHIFT && sh != PERF_SAMPLE_BRANCH_KERNEL_SHIFT)
			k->not_with_stack |= 1ull << sh;
	}
	return k->not_with_stack != 0;
}

static bool kload_map(struct kmap *k, const char *path)
{
	const char *p, *end;

	memset(k, 0, sizeof(*k));
	if (!ksrc_load(&k->src, path) ||
	    !ksrc_eval(&k->src, "LBR_SEL_MASK", &k->sel_mask) ||
	    !ksrc_eval(&k->src, "LBR_CALL_STACK", &k->call_stack))
		return false;
	p = strstr(k->src.text, "hsw_lbr_sel_map[PERF_SAMPLE_BRANCH_MAX_SHIFT] = {");
	if (!p)
		return false;
	end = strstr(p, "};");
	/* Each "[NAME] = expression," of the initializer; unnamed entries are 0 (LBR_IGN). */
	for (p = strchr(p, '{') + 1; p && p < end; ) {
		const char *name = strchr(p, '['), *close, *eq, *comma;
		int sh;

		if (!name || name > end)
			break;
		close = strchr(name, ']');
		eq = strchr(close, '=');
		comma = strchr(eq, ',');
		if (!close || !eq || !comma || comma > end)
			return false;
		sh = kshift(name + 1, close - name - 1);
		if (sh < 0 || !ksrc_eval_n(&k->src, eq + 1, comma - eq - 1, &k->map[sh]))
			return false;
		p = comma + 1;
	}
	return kload_sw_filter(k);
}

/*
 * What intel_pmu_setup_hw_lbr_filter() programs for @type: the map's bits,
 * the suppress bits inverted, the call stack bit as it is; -1 if perf
 * refuses the type (either filter).
 */
static s64 perf_select(const struct kmap *k, u64 type)
{
	s64 mask = 0;

	if ((type & PERF_SAMPLE_BRANCH_CALL_STACK) && (type & k->not_with_stack))
		return -1;

	for (u32 i = 0; i < PERF_SAMPLE_BRANCH_MAX_SHIFT; i++) {
		if (!(type & (1ull << i)))
			continue;
		if (k->map[i] == -1)
			return -1;
		mask |= k->map[i];
	}
	return mask ^ (k->sel_mask & ~k->call_stack);
}

/* A session in CONFIGURED with INIT's collect_lbrs and one group. */
static void lbr_session(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self,
			u64 enable_bits, u64 collection_config)
{
	struct sep_dev_config dev = { .dispatch_id = 2, .results_offset = 48,
				      .max_gp_counters = 4, .enable_bits = enable_bits };

	open_session(_metadata, self);
	ASSERT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	ASSERT_EQ(VT_SUCCESS, init_driver(_metadata, self, collection_config));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT, &dev, sizeof(dev), 0));
	ASSERT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
}

TEST_F(core, lbr_select_values_translate_as_perf_programs_them)
{
	static bool programmable[NSELECT];
	char path[PATH_MAX];
	u32 nprog = 0, ntranslated = 0, nrefused = 0, mismatches = 0, missed = 0;
	u64 branch_bits = 0;
	struct kmap k;
	u8 ecb[4720];

	tc_ksrc_file(path, sizeof(path), "arch/x86/events/intel/lbr.c");
	ASSERT_TRUE(kload_map(&k, path))
		TH_LOG("cannot read hsw_lbr_sel_map and the software filter from %s", path);
	ASSERT_EQ(0x3ff, k.sel_mask);
	/* ANY, ANY_CALL, ANY_RETURN, IND_CALL, the three TX ones, COND. */
	ASSERT_EQ(8, __builtin_popcountll(k.not_with_stack));
	/* Every value perf programs for some branch_sample_type with a ring. */
	for (u32 i = 0; i < PERF_SAMPLE_BRANCH_MAX_SHIFT; i++)
		if (k.map[i] > 0 && i != PERF_SAMPLE_BRANCH_USER_SHIFT &&
		    i != PERF_SAMPLE_BRANCH_KERNEL_SHIFT)
			branch_bits |= 1ull << i;
	for (u64 sub = branch_bits;; sub = (sub - 1) & branch_bits) {
		for (u32 rings = 1; rings <= 3 && sub; rings++) {
			u64 type = sub | (rings & 1 ? PERF_SAMPLE_BRANCH_USER : 0) |
				   (rings & 2 ? PERF_SAMPLE_BRANCH_KERNEL : 0);
			s64 sel = perf_select(&k, type);

			if (sel < 0)
				continue;
			ASSERT_LT(sel, NSELECT);
			nprog += !programmable[sel];
			programmable[sel] = true;
		}
		if (!sub)
			break;
	}
	for (u32 sel = 0; sel < NSELECT; sel++) {
		s32 st;

		reinit(_metadata, self, FAKE_NCPUS);
		lbr_session(_metadata, self, SEP_DEV_CFG_COLLECT_LBRS, 0);
		ecb_copy(_metadata, self, ecb);
		ecb_set_slot(ecb, LBR_SELECT_SLOT, 0x1c8, sel, 0, 0, 0);
		st = send_ecb(_metadata, self, ecb, sizeof(ecb), 0);
		if (st != VT_SUCCESS) {
			nrefused++;
			EXPECT_EQ(1, fake_log_count(&self->f, "LBR_SELECT"));
			if (programmable[sel]) {
				missed++;
				ksft_print_msg("LBR_SELECT 0x%x: refused, perf programs it\n", sel);
			}
			continue;
		}
		ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
		ASSERT_LT(0, self->f.start_groups[0].nevents);
		for (u32 e = 0; e < self->f.start_groups[0].nevents; e++) {
			u64 type = started_event(self, 0, e)->branch_type;

			if (perf_select(&k, type) != sel) {
				mismatches++;
				ksft_print_msg("LBR_SELECT 0x%x: branch_sample_type 0x%llx, perf programs 0x%llx\n",
					       sel, (unsigned long long)type,
					       (unsigned long long)perf_select(&k, type));
			}
		}
		ntranslated++;
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
	}
	ksft_print_msg("LBR_SELECT values: %u, perf programs %u: translated %u, mismatches %u, refused %u (missed %u)\n",
		       NSELECT, nprog, ntranslated, mismatches, nrefused, missed);
	EXPECT_EQ(0, mismatches);
	EXPECT_EQ(0, missed);
	EXPECT_EQ(nprog, ntranslated);
	ksrc_free(&k.src);
}

TEST_F(core, lbr_filter_is_left_out_without_collect_lbrs_in_counting_mode_and_for_software_events)
{
	u8 ecb[4720];

	/* The vector as it is: LBR_SELECT 0, collect_lbrs clear. */
	lbr_session(_metadata, self, 0, 0);
	ASSERT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(0, started_event(self, 0, 0)->branch_type);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));

	/* An LBR_SELECT no perf filter matches is not even read then. */
	reinit(_metadata, self, FAKE_NCPUS);
	lbr_session(_metadata, self, SEP_DEV_CFG_COLLECT_LBRS, SEP_DRV_CFG_COUNTING_MODE);
	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, LBR_SELECT_SLOT, 0x1c8, 0x1ff, 0, 0, 0);
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));

	/* LBR_SELECT 0 with collect_lbrs: every branch in every ring. */
	reinit(_metadata, self, FAKE_NCPUS);
	lbr_session(_metadata, self, SEP_DEV_CFG_COLLECT_LBRS, 0);
	ASSERT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL,
		  started_event(self, 0, 0)->branch_type);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));

	/* A software event ([ACA-EXT] select) gets none. */
	reinit(_metadata, self, FAKE_NCPUS);
	lbr_session(_metadata, self, SEP_DEV_CFG_COLLECT_LBRS, 0);
	ecb_copy(_metadata, self, ecb);
	/* General counter 0 enabled besides fixed counter 2, its select a software event. */
	ecb_set_slot(ecb, 0, 0x38f, 0x400000001ull, 0, 0, 0);
	ecb_set_slot(ecb, 5, ACA_SW_EVENT_SELECT, ACA_SW_CPU_CLOCK | (3 << 16), 0, 0, 0);
	ecb_set_slot(ecb, 12, 0xc1, 0xffffffff0000ull, 0, 0, 0);
	ASSERT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, sizeof(ecb), 0));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(2, self->f.start_groups[0].nevents);
	for (u32 e = 0; e < self->f.start_groups[0].nevents; e++) {
		const struct acp_event *ev = started_event(self, 0, e);

		EXPECT_EQ(ev->software ? 0 : PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
			  PERF_SAMPLE_BRANCH_KERNEL, ev->branch_type) TH_LOG("event %u", e);
	}
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
}

struct lbr_info {
	struct sep_lbr_info_head h;
	struct sep_lbr_entry e[ACP_MAX_LBR_REGS + 1];
};

static s32 send_lbr_info(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self,
			 struct lbr_info *li, u32 n, u32 bytes)
{
	li->h.n = n;
	li->h.size = bytes;
	return cmd(_metadata, self, SEP_CMD_LBR_INFO, li, bytes, 0);
}

/*
 * TOS, then FROM, TO and INFO of entries 0..@depth-1: Skylake's list up to
 * its 32 entries, Arch LBR's registers beyond.
 */
static u32 lbr_info_list(struct lbr_info *li, u32 depth)
{
	bool arch = depth > 32;
	u32 n = 0;

	li->e[n++] = (struct sep_lbr_entry){ SEP_LBR_TOS, 0, 0x1c9 };
	for (u32 i = 0; i < depth; i++) {
		li->e[n++] = (struct sep_lbr_entry){ SEP_LBR_FROM, i, (arch ? 0x1500 : 0x680) + i };
		li->e[n++] = (struct sep_lbr_entry){ SEP_LBR_TO, i, (arch ? 0x1600 : 0x6c0) + i };
		li->e[n++] = (struct sep_lbr_entry){ SEP_LBR_INFO, i, (arch ? 0x1200 : 0xdc0) + i };
	}
	return n;
}

TEST_F(core, lbr_info_names_lbr_registers_only_and_needs_collect_lbrs)
{
	static struct lbr_info li;
	static const struct sep_lbr_entry bad[] = {
		{ 4, 0, 0x680 },		/* no such kind */
		{ SEP_LBR_FROM, 64, 0x680 },	/* beyond any LBR depth */
		{ SEP_LBR_TOS, 1, 0x1c9 },	/* TOS has no entry */
		{ SEP_LBR_FROM, 0, 0x6c0 },	/* a TO register as FROM */
		{ SEP_LBR_INFO, 0, 0x38f },	/* not an LBR register */
	};
	u32 n = lbr_info_list(&li, 32);

	lbr_session(_metadata, self, 0, 0);
	EXPECT_EQ(VT_BAD_PARAMETER, send_lbr_info(_metadata, self, &li, n, 8 + n * 8));
	EXPECT_EQ(1, fake_log_count(&self->f, "collect_lbrs"));

	reinit(_metadata, self, FAKE_NCPUS);
	lbr_session(_metadata, self, SEP_DEV_CFG_COLLECT_LBRS, 0);
	EXPECT_EQ(VT_SUCCESS, send_lbr_info(_metadata, self, &li, n, 8 + n * 8));
	EXPECT_EQ(97, self->t.cfg.lbr.n);
	EXPECT_EQ(32, self->t.cfg.lbr.depth);
	/* More entries than the payload holds, or than any LBR stack has. */
	EXPECT_EQ(VT_BAD_PARAMETER, send_lbr_info(_metadata, self, &li, n + 1, 8 + n * 8));
	n = lbr_info_list(&li, ACP_MAX_LBR_ENTRIES);
	EXPECT_EQ(VT_SUCCESS, send_lbr_info(_metadata, self, &li, n, 8 + n * 8));
	li.e[n] = li.e[1];
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_lbr_info(_metadata, self, &li, n + 1, 8 + (n + 1) * 8));
	for (u32 i = 0; i < ARRAY_SIZE(bad); i++) {
		n = lbr_info_list(&li, 4);
		li.e[n] = bad[i];
		EXPECT_EQ(VT_BAD_PARAMETER, send_lbr_info(_metadata, self, &li, n + 1, 8 + (n + 1) * 8))
			TH_LOG("entry %u", i);
	}
	EXPECT_EQ(ARRAY_SIZE(bad), fake_log_count(&self->f, "is not an LBR register"));
	/* The refusals left the last layout accepted. */
	EXPECT_EQ(3 * ACP_MAX_LBR_ENTRIES + 1, self->t.cfg.lbr.n);
}

TEST_F(core, lbr_areas_that_leave_the_record_or_meet_the_callstack_area_are_refused)
{
	static const struct {
		u32 size, lbr_off, lbr_regs, cs_off, cs_size;
		bool ok;
	} cases[] = {
		{ 48 + 97 * 8, 48, 97, 0, 0, true },
		{ 48 + 97 * 8, 48, 98, 0, 0, false },		/* past the record */
		{ 48 + 97 * 8, 40, 97, 0, 0, false },		/* on the base */
		{ 48 + 98 * 8, 52, 97, 0, 0, false },		/* unaligned */
		{ 4096, 48, ACP_MAX_LBR_REGS + 1, 0, 0, false },
		{ 48 + 4 * 8 + 64, 48, 4, 80, 64, true },	/* LBRs, then call stack */
		{ 48 + 4 * 8 + 64, 112, 4, 48, 64, true },	/* call stack, then LBRs */
		{ 48 + 4 * 8 + 64, 48, 5, 80, 64, false },	/* overlapping */
		{ 48 + 4 * 8 + 64, 104, 4, 48, 64, false },
	};

	lbr_session(_metadata, self, SEP_DEV_CFG_COLLECT_LBRS, 0);
	for (u32 i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sep_event_desc d = {
			.sample_size = cases[i].size, .lbr_offset = cases[i].lbr_off,
			.lbr_num_regs = cases[i].lbr_regs, .callstack_offset = cases[i].cs_off,
			.callstack_size = cases[i].cs_size,
		};

		ASSERT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, 1));
		EXPECT_EQ(cases[i].ok ? VT_SUCCESS : VT_BAD_PARAMETER,
			  cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0))
			TH_LOG("case %u", i);
	}
	EXPECT_EQ(6, fake_log_count(&self->f, "LBR area"));
}

static struct perf_branch_entry branch(u64 from, u64 to, u32 mispred, u32 cycles)
{
	struct perf_branch_entry b = { .from = from, .to = to };

	b.mispred = mispred;
	b.predicted = !mispred;
	b.cycles = cycles;
	return b;
}

TEST(lbr_area_holds_the_branch_stack_as_the_lbrs_would)
{
	struct acp_lbr_layout l = { .n = 13, .depth = 4 };
	struct perf_branch_entry br[3] = {
		branch(0x401000, 0x402000, 0, 7),	/* the most recent */
		branch(0x403000, 0x404000, 1, 65535),
		branch(0xffffffff81000000ull, 0xffffffff81000100ull, 0, 1),
	};
	u64 area[14];

	/* TOS, then FROM/TO/INFO of entries 0..3. */
	l.kind[0] = SEP_LBR_TOS;
	for (u32 i = 0; i < 4; i++) {
		for (u32 kind = 0; kind < 3; kind++) {
			l.kind[1 + 3 * i + kind] = SEP_LBR_FROM + kind;
			l.index[1 + 3 * i + kind] = i;
		}
	}
	memset(area, 0xa5, sizeof(area));
	br[0].in_tx = 1;
	br[1].abort = 1;
	acp_lbr_fill(area, 13, &l, br, 3);
	EXPECT_EQ(3, area[0]);				/* TOS: entry 3, the newest */
	EXPECT_EQ(0x401000, area[1 + 3 * 3]);
	EXPECT_EQ(0x402000, area[2 + 3 * 3]);
	EXPECT_EQ((1ull << 62) | 7, area[3 + 3 * 3]);	/* in TSX, 7 cycles */
	EXPECT_EQ(0x403000, area[1 + 3 * 2]);
	EXPECT_EQ((1ull << 63) | (1ull << 61) | 0xffff, area[3 + 3 * 2]);
	EXPECT_EQ(0xffffffff81000000ull, area[1 + 3 * 1]);
	EXPECT_EQ(0xffffffff81000100ull, area[2 + 3 * 1]);
	EXPECT_EQ(1, area[3 + 3 * 1]);
	/* Entry 0 is older than the stack perf had: empty. */
	EXPECT_EQ(0, area[1]);
	EXPECT_EQ(0, area[2]);
	EXPECT_EQ(0, area[3]);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ull, area[13]);	/* past the area */

	/* An area shorter than the layout, a layout shorter than the area. */
	memset(area, 0xa5, sizeof(area));
	acp_lbr_fill(area, 2, &l, br, 3);
	EXPECT_EQ(3, area[0]);
	EXPECT_EQ(0, area[1]);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ull, area[2]);
	l.n = 1;
	acp_lbr_fill(area, 13, &l, br, 3);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ull, area[2]);
}

TEST_HARNESS_MAIN
