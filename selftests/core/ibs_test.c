// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, AMD IBS (spec 6.12 [ACA-EXT]): an ECB's IBS control
 * register as an event of the target's ibs_op or ibs_fetch perf PMU,
 * checked against the kernel's own IBS driver (arch/x86/events/amd/ibs.c
 * and the IBS_* definitions of arch/x86/include/asm/perf_event.h,
 * extracted at build time from linux-source-6.12): every option the
 * PMUs' format files offer, with maximum counts across the range, must
 * START as an event perf takes and from which it programs the control
 * register the host wrote.
 */
#include <limits.h>
#include <stdio.h>

#include "core_fixture.h"
#include "ksrc.h"

#define MSR_IBS_FETCH_CTL	0xc0011030
#define MSR_IBS_OP_CTL		0xc0011033
#define DATA_GP0_SLOT		12	/* of the core vector (spec 6.6) */
#define GLOBAL_CTRL_SLOT	0
#define IBS_FETCH_TYPE		40
#define IBS_OP_TYPE		41
#define MAX_FORMATS		8

/* One IBS PMU as the kernel's driver defines it, every capability on (Zen 4). */
struct kibs {
	const char *name;		/* "ibs_fetch" */
	u32 msr, type;
	s64 config_mask, cnt_mask, enable_mask, max_period, ext_mask;
	const char *formats[MAX_FORMATS];	/* "config:57" */
	u32 nformats;
	u64 format_bits;
};

struct kibs_src {
	struct ksrc src;		/* ibs.c, then asm/perf_event.h */
	struct kibs pmu[2];		/* fetch, op */
};

/* The expression of field @field in the initializer at @block, to its comma. */
static bool kfield(const struct ksrc *k, const char *block, const char *field, s64 *v)
{
	const char *end = strstr(block, "};"), *p = strstr(block, field), *eq, *comma;

	if (!p || p > end || !(eq = strchr(p, '=')) || !(comma = strchr(eq, ',')))
		return false;
	return ksrc_eval_n(k, eq + 1, comma - eq - 1, v);
}

/* Every "perf_ibs_<unit>.<field> |= EXPR;" of the init functions, or'ed into *@v. */
static bool kcaps(const struct ksrc *k, const char *unit, const char *field, s64 *v)
{
	char want[64];

	snprintf(want, sizeof(want), "perf_ibs_%s.%s", unit, field);
	for (const char *p = strstr(k->text, want); p; p = strstr(p + 1, want)) {
		const char *q = p + strlen(want), *semi;
		s64 add;

		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "|=", 2))
			continue;
		semi = strchr(q, ';');
		if (!semi || !ksrc_eval_n(k, q + 2, semi - q - 2, &add))
			return false;
		*v |= add;
	}
	return true;
}

static bool kibs_load(struct kibs_src *ks)
{
	static const char *const units[] = { "fetch", "op" };
	char path[PATH_MAX];
	struct ksrc hdr;
	char *both;

	memset(ks, 0, sizeof(*ks));
	if (!ksrc_load(&ks->src, tc_ksrc_file(path, sizeof(path), "arch/x86/events/amd/ibs.c")))
		return false;
	if (!ksrc_load(&hdr, tc_ksrc_file(path, sizeof(path), "arch/x86/include/asm/perf_event.h")))
		return false;
	both = malloc(strlen(ks->src.text) + strlen(hdr.text) + 2);
	if (!both)
		return false;
	sprintf(both, "%s\n%s", ks->src.text, hdr.text);
	ksrc_free(&hdr);
	free(ks->src.text);
	ks->src.text = both;
	for (u32 i = 0; i < 2; i++) {
		struct kibs *u = &ks->pmu[i];
		char decl[64];
		const char *block;

		u->name = i ? "ibs_op" : "ibs_fetch";
		u->msr = i ? MSR_IBS_OP_CTL : MSR_IBS_FETCH_CTL;
		u->type = i ? IBS_OP_TYPE : IBS_FETCH_TYPE;
		snprintf(decl, sizeof(decl), "static struct perf_ibs perf_ibs_%s = {", units[i]);
		block = strstr(ks->src.text, decl);
		if (!block || !kfield(&ks->src, block, ".config_mask", &u->config_mask) ||
		    !kfield(&ks->src, block, ".cnt_mask", &u->cnt_mask) ||
		    !kfield(&ks->src, block, ".enable_mask", &u->enable_mask) ||
		    !kfield(&ks->src, block, ".max_period", &u->max_period) ||
		    !kcaps(&ks->src, units[i], "config_mask", &u->config_mask) ||
		    !kcaps(&ks->src, units[i], "cnt_mask", &u->cnt_mask) ||
		    !kcaps(&ks->src, units[i], "max_period", &u->max_period))
			return false;
		if (i && !ksrc_eval(&ks->src, "IBS_OP_MAX_CNT_EXT_MASK", &u->ext_mask))
			return false;
	}
	/*
	 * The format strings ("config:N") of PMU_FORMAT_ATTR and
	 * PMU_EVENT_ATTR_STRING, each the PMU's whose config takes bit N
	 * and whose count does not.
	 */
	for (const char *p = strstr(ks->src.text, "\"config:"); p; p = strstr(p + 1, "\"config:")) {
		u32 bit = strtoul(p + 8, NULL, 10);

		for (u32 i = 0; i < 2; i++) {
			struct kibs *u = &ks->pmu[i];

			if (bit < 64 && (u->config_mask & ~u->cnt_mask & (1ll << bit)) &&
			    u->nformats < MAX_FORMATS && !(u->format_bits & (1ull << bit))) {
				u->formats[u->nformats] = strndup(p + 1, strcspn(p + 1, "\""));
				u->format_bits |= 1ull << bit;
				u->nformats++;
			}
		}
	}
	return ks->pmu[0].nformats && ks->pmu[1].nformats;
}

static void kibs_free(struct kibs_src *ks)
{
	for (u32 i = 0; i < 2; i++)
		for (u32 j = 0; j < ks->pmu[i].nformats; j++)
			free((char *)ks->pmu[i].formats[j]);
	ksrc_free(&ks->src);
}

/*
 * perf_ibs_init() and perf_ibs_start(): the control register perf writes
 * for an event of @config sampling every @period, or -1 if perf refuses it.
 */
static s64 perf_programs(const struct kibs *u, u64 config, u64 period)
{
	u64 v = config;

	if ((config & ~u->config_mask) || (config & u->cnt_mask) || (period & 0xf) ||
	    period < 0x10 || period > (u64)u->max_period)
		return -1;
	v |= period & u->ext_mask;
	period &= ~(u64)u->ext_mask;
	return v | period >> 4 | u->enable_mask;
}

static void ibs_machine(FIXTURE_DATA(core) *self, const struct kibs_src *ks)
{
	for (u32 i = 0; i < 2; i++)
		fake_add_pmu(&self->f, ks->pmu[i].name, ks->pmu[i].type, ks->pmu[i].formats,
			     ks->pmu[i].nformats);
}

/* The core vector with only the IBS register @msr = @v in DATA_GP slot 0. */
static s32 send_ibs(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self, u8 *ecb,
		    u32 msr, u64 v)
{
	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, GLOBAL_CTRL_SLOT, 0x38f, 0, 0, 0, 0);
	ecb_set_slot(ecb, DATA_GP0_SLOT, msr, v, 0, 3, 0);
	return send_ecb(_metadata, self, ecb, 4720, 0);
}

static void ibs_session(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self,
			const struct kibs_src *ks, u64 collection_config)
{
	reinit(_metadata, self, FAKE_NCPUS);
	ibs_machine(self, ks);
	open_session(_metadata, self);
	ASSERT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	ASSERT_EQ(VT_SUCCESS, init_driver(_metadata, self, collection_config));
	ASSERT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
}

TEST_F(core, ibs_controls_translate_as_perf_programs_them)
{
	static const u64 counts[] = { 1, 2, 0x10, 0x1234, 0xffff, 0x10000, 0x12345, 0x7fffff };
	u32 checked = 0, mismatches = 0;
	struct kibs_src ks;
	u8 ecb[4720];

	ASSERT_TRUE(kibs_load(&ks)) TH_LOG("cannot read the IBS PMUs from build/ksrc");
	for (u32 i = 0; i < 2; i++) {
		const struct kibs *u = &ks.pmu[i];

		for (u64 opts = u->format_bits;; opts = (opts - 1) & u->format_bits) {
			for (u32 c = 0; c < ARRAY_SIZE(counts); c++) {
				u64 cnt = counts[c], v, want_period = cnt << 4;
				const struct acp_event *e = started_event(self, 0, 0);
				s32 st;

				/* Past 16 bits, only the op counter (its 7 more bits at 26:20). */
				if (cnt > 0xffff && !u->ext_mask)
					continue;
				v = opts | u->enable_mask | (cnt & 0xffff) | (cnt >> 16 << 20);
				ibs_session(_metadata, self, &ks, 0);
				st = send_ibs(_metadata, self, ecb, u->msr, v);
				checked++;
				if (st != VT_SUCCESS ||
				    cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0) != VT_SUCCESS) {
					mismatches++;
					ksft_print_msg("%s 0x%llx: refused\n", u->name,
						       (unsigned long long)v);
					continue;
				}
				if (self->f.start_groups[0].nevents != 1 || e->pmu_type != u->type ||
				    e->config != opts || e->period != want_period ||
				    e->exclude_user || e->exclude_kernel ||
				    perf_programs(u, e->config, e->period) != (s64)v) {
					mismatches++;
					ksft_print_msg("%s 0x%llx: type %u config 0x%llx period 0x%llx; perf writes 0x%llx\n",
						       u->name, (unsigned long long)v, e->pmu_type,
						       (unsigned long long)e->config,
						       (unsigned long long)e->period,
						       (unsigned long long)perf_programs(u, e->config,
											 e->period));
				}
				EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
			}
			if (!opts)
				break;
		}
	}
	ksft_print_msg("IBS controls: %u checked (ibs_fetch formats %u, ibs_op %u), mismatches %u\n",
		       checked, ks.pmu[0].nformats, ks.pmu[1].nformats, mismatches);
	EXPECT_EQ(0, mismatches);
	EXPECT_LE(40, checked);
	kibs_free(&ks);
}

/* Refused IBS controls: the unit, the value, the log. */
static const struct {
	u32 msr;
	u64 v;
	const char *why;
} refused[] = {
	{ MSR_IBS_OP_CTL, (1ull << 17) | 0x100 | (1ull << 18), "format files do not name" },
	{ MSR_IBS_FETCH_CTL, (1ull << 48) | 0x100 | (1ull << 49), "format files do not name" },
	{ MSR_IBS_OP_CTL, 1ull << 17, "no maximum count" },
	{ MSR_IBS_FETCH_CTL, 1ull << 48, "no maximum count" },
};

TEST_F(core, ibs_controls_perf_cannot_take_are_refused)
{
	struct kibs_src ks;
	u8 ecb[4720];

	ASSERT_TRUE(kibs_load(&ks));
	for (u32 i = 0; i < ARRAY_SIZE(refused); i++) {
		ibs_session(_metadata, self, &ks, 0);
		EXPECT_EQ(VT_DRIVER_COMM_FAILED,
			  send_ibs(_metadata, self, ecb, refused[i].msr, refused[i].v))
			TH_LOG("case %u", i);
		EXPECT_EQ(1, fake_log_count(&self->f, refused[i].why)) TH_LOG("case %u", i);
	}

	/* A target without the PMU (an Intel one, or AMD without IBS). */
	reinit(_metadata, self, FAKE_NCPUS);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ibs(_metadata, self, ecb, MSR_IBS_OP_CTL,
						  (1ull << 17) | 0x100));
	EXPECT_EQ(1, fake_log_count(&self->f, "no perf PMU ibs_op"));

	/* Counting mode: IBS samples. */
	ibs_session(_metadata, self, &ks, SEP_DRV_CFG_COUNTING_MODE);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ibs(_metadata, self, ecb, MSR_IBS_OP_CTL,
						  (1ull << 17) | 0x100));
	EXPECT_EQ(1, fake_log_count(&self->f, "counting mode"));

	/* An IBS register anywhere but DATA_GP is off the allow-list. */
	ibs_session(_metadata, self, &ks, 0);
	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, 5, MSR_IBS_OP_CTL, (1ull << 17) | 0x100, 0, 0, 0);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, ecb, 4720, 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "allow-list"));

	/* One event a CPU: the same unit in two slots is refused, two units are not. */
	ibs_session(_metadata, self, &ks, 0);
	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, GLOBAL_CTRL_SLOT, 0x38f, 0, 0, 0, 0);
	ecb_set_slot(ecb, DATA_GP0_SLOT, MSR_IBS_OP_CTL, (1ull << 17) | 0x100, 0, 0, 0);
	ecb_set_slot(ecb, DATA_GP0_SLOT + 1, MSR_IBS_OP_CTL, (1ull << 17) | 0x200, 0, 1, 0);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_ecb(_metadata, self, ecb, 4720, 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "in two slots"));
	ecb_set_slot(ecb, DATA_GP0_SLOT + 1, MSR_IBS_FETCH_CTL, (1ull << 48) | 0x200, 0, 1, 0);
	EXPECT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, 4720, 0));

	/* Without its enable bit, no event: START has none. */
	ibs_session(_metadata, self, &ks, 0);
	EXPECT_EQ(VT_SUCCESS, send_ibs(_metadata, self, ecb, MSR_IBS_OP_CTL, 0x100));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	kibs_free(&ks);
}

TEST_F(core, ibs_events_sample_every_ring_and_take_no_branch_stack)
{
	struct sep_dev_config dev = { .dispatch_id = 2, .results_offset = 48,
				      .max_gp_counters = 4, .enable_bits = SEP_DEV_CFG_COLLECT_LBRS };
	struct kibs_src ks;
	u8 ecb[4720];

	ASSERT_TRUE(kibs_load(&ks));
	ibs_session(_metadata, self, &ks, 0);
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT, &dev, sizeof(dev), 0));
	/* The vector's REF_TSC event stays, with the IBS one beside it. */
	ecb_copy(_metadata, self, ecb);
	ecb_set_slot(ecb, DATA_GP0_SLOT, MSR_IBS_OP_CTL, (1ull << 17) | (1ull << 19) | 0x1000,
		     0, 3, 0);
	ASSERT_EQ(VT_SUCCESS, send_ecb(_metadata, self, ecb, 4720, 0));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(2, self->f.start_groups[0].nevents);
	for (u32 i = 0; i < 2; i++) {
		const struct acp_event *e = started_event(self, 0, i);

		if (e->pmu_type) {
			EXPECT_EQ(IBS_OP_TYPE, e->pmu_type);
			EXPECT_EQ(1ull << 19, e->config);
			EXPECT_EQ(0x10000, e->period);
			EXPECT_EQ(3, e->event_index);
			EXPECT_EQ(0, e->branch_type);
		} else {
			EXPECT_NE(0, e->branch_type);
		}
	}
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
	kibs_free(&ks);
}

TEST_HARNESS_MAIN
