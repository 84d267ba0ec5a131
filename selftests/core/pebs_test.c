// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, PEBS record areas (spec 5.7, 6.13): the record rebuilt
 * from what perf handed the handler, checked field by field against the
 * kernel's own record layouts (struct pebs_record_core, _nhm, _hsw and
 * _skl of arch/x86/events/intel/ds.c, extracted at build time from
 * linux-source-6.12); the latency, eventing IP and TSC extras; the areas'
 * bounds at DESC_NEXT and what DEV_CONFIG asks for.
 */
#include <limits.h>
#include <stdio.h>

#include "core_fixture.h"
#include "ksrc.h"

#define MAX_FIELDS	32

/* A PEBS record struct of ds.c: its U64 fields' names, in order. */
struct krecord {
	char names[MAX_FIELDS][16];
	u32 n;
};

/* "struct @name {" then lines "u64 a, b, c;" up to "};". */
static bool kload_record(const struct ksrc *k, const char *name, struct krecord *r)
{
	char head[64];
	const char *p, *end;

	snprintf(head, sizeof(head), "struct %s {", name);
	p = strstr(k->text, head);
	end = p ? strstr(p, "};") : NULL;
	if (!end)
		return false;
	r->n = 0;
	for (p = strchr(p, '{') + 1; p < end; ) {
		size_t len;

		p += strspn(p, " \t\n,;");
		if (p >= end)
			break;
		if (!strncmp(p, "u64", 3) && strchr(" \t", p[3])) {
			p += 3;
			continue;
		}
		len = strcspn(p, " \t\n,;");
		if (!len || len >= sizeof(r->names[0]) || r->n == MAX_FIELDS)
			return false;
		memcpy(r->names[r->n], p, len);
		r->names[r->n++][len] = 0;
		p += len;
	}
	return r->n > 0;
}

/* What the test's sample says each field holds: -1 for a name it does not know. */
static s64 expected(const struct acp_pebs_record *s, const char *field)
{
	static const char *const gprs[ACP_PEBS_GPRS] = {
		"ax", "bx", "cx", "dx", "si", "di", "bp", "sp",
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	};

	for (u32 i = 0; i < ACP_PEBS_GPRS; i++)
		if (!strcmp(field, gprs[i]))
			return s->gprs[i];
	if (!strcmp(field, "flags"))
		return s->flags;
	if (!strcmp(field, "ip"))
		return s->ip;
	if (!strcmp(field, "status"))
		return s->status;
	if (!strcmp(field, "dla"))
		return s->dla;
	if (!strcmp(field, "dse"))
		return s->dse;
	if (!strcmp(field, "lat"))
		return s->lat;
	if (!strcmp(field, "real_ip"))
		return s->real_ip;
	if (!strcmp(field, "tsx_tuning"))
		return s->tsx_tuning;
	if (!strcmp(field, "tsc"))
		return s->tsc;
	return -1;
}

/* Every field a different value, none 0. */
static struct acp_pebs_record sample(void)
{
	struct acp_pebs_record s = {
		.flags = 0x246, .ip = 0xffffffff81000123ull, .status = 1ull << 33,
		.dla = 0x7ffd12345678ull, .dse = 0xd5e, .lat = 321,
		.real_ip = 0xffffffff81000120ull, .tsx_tuning = 0x75c, .tsc = 0x123456789abcull,
	};

	for (u32 i = 0; i < ACP_PEBS_GPRS; i++)
		s.gprs[i] = 0x1000 + i;
	return s;
}

static struct krecord records[4];
static const char *const record_names[] = {
	"pebs_record_core", "pebs_record_nhm", "pebs_record_hsw", "pebs_record_skl",
};

static void load_records(struct __test_metadata *_metadata)
{
	char path[PATH_MAX];
	struct ksrc k;

	tc_ksrc_file(path, sizeof(path), "arch/x86/events/intel/ds.c");
	ASSERT_TRUE(ksrc_load(&k, path)) TH_LOG("cannot read %s", path);
	for (u32 i = 0; i < ARRAY_SIZE(records); i++) {
		ASSERT_TRUE(kload_record(&k, record_names[i], &records[i]))
			TH_LOG("no struct %s in %s", record_names[i], path);
	}
	ksrc_free(&k);
}

/*
 * A PEBS area the size of each format's record gets that record: every
 * field where ds.c declares it; not a byte past the area. (What each field
 * holds, the sampler's aca_pebs_record() says: remote_test -f core_stub.)
 */
TEST_F(core, pebs_records_lie_as_ds_c_declares_each_format)
{
	struct acp_pebs_record s = sample();
	u32 fields = 0;

	load_records(_metadata);
	for (u32 f = 0; f < ARRAY_SIZE(records); f++) {
		const struct krecord *r = &records[f];
		struct acp_pebs_areas a = { .pebs_offset = 64, .pebs_size = r->n * 8 };
		u64 rec[64];

		memset(rec, 0xa5, sizeof(rec));
		acp_pebs_write((u8 *)rec, &a, &s);
		for (u32 i = 0; i < r->n; i++) {
			s64 want = expected(&s, r->names[i]);

			ASSERT_NE(-1, want) TH_LOG("%s: field %s unknown to aca", record_names[f],
						    r->names[i]);
			EXPECT_EQ((u64)want, rec[8 + i]) TH_LOG("%s.%s", record_names[f], r->names[i]);
			fields++;
		}
		EXPECT_EQ(0xa5a5a5a5a5a5a5a5ull, rec[7]);
		EXPECT_EQ(0xa5a5a5a5a5a5a5a5ull, rec[8 + r->n]) TH_LOG("%s", record_names[f]);
	}
	TH_LOG("%u fields of %u record formats checked against ds.c", fields,
	       (u32)ARRAY_SIZE(records));
}

/* Each format's record begins the next one's: one fill serves every size. */
TEST_F(core, each_pebs_format_extends_the_one_before)
{
	load_records(_metadata);
	for (u32 f = 1; f < ARRAY_SIZE(records); f++) {
		ASSERT_LT(records[f - 1].n, records[f].n);
		for (u32 i = 0; i < records[f - 1].n; i++)
			EXPECT_STREQ(records[f - 1].names[i], records[f].names[i]);
	}
	EXPECT_EQ(25, records[3].n);
}

/* A longer area (an adaptive record's size) holds the record, then zeros. */
TEST_F(core, pebs_area_past_the_record_stays_zero)
{
	struct acp_pebs_record s = sample();
	struct acp_pebs_areas a = { .pebs_offset = 48, .pebs_size = 400 };
	u8 rec[448] = { 0 };
	u64 tsc;

	acp_pebs_write(rec, &a, &s);
	memcpy(&tsc, rec + 48 + 24 * 8, 8);
	EXPECT_EQ(s.tsc, tsc);
	for (u32 i = 48 + 25 * 8; i < sizeof(rec); i++) {
		ASSERT_EQ(0, rec[i]) TH_LOG("byte %u", i);
	}
}

/*
 * The latency area: the bytes of the PEBS record the descriptor names
 * (SEP's usual: dla, dse, lat from offset 0x98), cut to the smaller size;
 * past the record, zeros.
 */
TEST_F(core, latency_area_copies_its_bytes_of_the_pebs_record)
{
	struct acp_pebs_record s = sample();
	struct acp_pebs_areas a = {
		.lat_offset = 48, .lat_size = 24, .lat_from = 0x98, .lat_from_size = 24,
	};
	u64 rec[16] = { 0 };

	acp_pebs_write((u8 *)rec, &a, &s);
	EXPECT_EQ(s.dla, rec[6]);
	EXPECT_EQ(s.dse, rec[7]);
	EXPECT_EQ(s.lat, rec[8]);
	/* The host takes 8 bytes into a 24-byte area: the rest stays zero. */
	memset(rec, 0, sizeof(rec));
	a.lat_from_size = 8;
	acp_pebs_write((u8 *)rec, &a, &s);
	EXPECT_EQ(s.dla, rec[6]);
	EXPECT_EQ(0, rec[8]);
	/* From the TSC on, 16 bytes: the TSC, then what is past the record. */
	memset(rec, 0xff, sizeof(rec));
	memset(&rec[6], 0, 24);
	a.lat_from = 0xc0;
	a.lat_from_size = 16;
	acp_pebs_write((u8 *)rec, &a, &s);
	EXPECT_EQ(s.tsc, rec[6]);
	EXPECT_EQ(0, rec[7]);
	EXPECT_EQ(~0ull, rec[9]);
	/* Wholly past it. */
	memset(&rec[6], 0, 24);
	a.lat_from = 0x400;
	acp_pebs_write((u8 *)rec, &a, &s);
	EXPECT_EQ(0, rec[6]);
}

TEST_F(core, eventing_ip_and_pebs_tsc_are_u64s_at_their_offsets)
{
	struct acp_pebs_record s = sample();
	struct acp_pebs_areas a = { .eventing_ip_offset = 56, .tsc_offset = 72 };
	u64 rec[12] = { 0 };

	acp_pebs_write((u8 *)rec, &a, &s);
	EXPECT_EQ(s.real_ip, rec[7]);
	EXPECT_EQ(0, rec[8]);
	EXPECT_EQ(s.tsc, rec[9]);
	EXPECT_EQ(80, acp_pebs_end(&a));
}

/* A session in CONFIGURED with INIT's @enable_bits. */
static void pebs_session(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self,
			 u64 enable_bits)
{
	struct sep_dev_config dev = { .dispatch_id = 2, .results_offset = 48,
				      .max_gp_counters = 4, .enable_bits = enable_bits };

	open_session(_metadata, self);
	ASSERT_EQ(SEP_RESERVE_OK, reserve(_metadata, self));
	ASSERT_EQ(VT_SUCCESS, init_driver(_metadata, self, 0));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT, &dev, sizeof(dev), 0));
}

/*
 * PEBS areas out of place are left zero, with a log line: the descriptor
 * itself is taken (a host that never asks for PEBS data loses nothing).
 */
TEST_F(core, pebs_areas_outside_the_record_unaligned_or_on_other_areas_are_ignored)
{
	static const struct {
		struct sep_event_desc d;
		bool ok;
	} cases[] = {
		{ { .sample_size = 248, .pebs_offset = 48, .pebs_size = 200 }, true },
		{ { .sample_size = 248, .pebs_offset = 48, .pebs_size = 208 }, false },
		{ { .sample_size = 248, .pebs_offset = 40, .pebs_size = 200 }, false },
		{ { .sample_size = 256, .pebs_offset = 52, .pebs_size = 200 }, false },
		{ { .sample_size = 256, .pebs_offset = 48, .pebs_size = 196 }, false },
		{ { .sample_size = 256, .pebs_offset = 0xfffffff8u, .pebs_size = 16 }, false },
		{ { .sample_size = 256, .pebs_offset = 48, .pebs_size = 0xfffffff8u }, false },
		{ { .sample_size = 256, .pebs_offset = 48, .pebs_size = 200,
		    .callstack_offset = 240, .callstack_size = 16 }, false },
		{ { .sample_size = 264, .pebs_offset = 48, .pebs_size = 200,
		    .callstack_offset = 248, .callstack_size = 16 }, true },
		{ { .sample_size = 264, .pebs_offset = 64, .pebs_size = 200,
		    .lbr_offset = 48, .lbr_num_regs = 3 }, false },
		{ { .sample_size = 72, .latency_offset_in_sample = 48,
		    .latency_size_in_sample = 24, .latency_offset_in_pebs_record = 0x98,
		    .latency_size_from_pebs_record = 24 }, true },
		{ { .sample_size = 64, .latency_offset_in_sample = 48,
		    .latency_size_in_sample = 24 }, false },
		{ { .sample_size = 64, .latency_offset_in_sample = 0xffffffffu,
		    .latency_size_in_sample = 2 }, false },
		{ { .sample_size = 64, .eventing_ip_offset = 56 }, true },
		{ { .sample_size = 64, .eventing_ip_offset = 60 }, false },
		{ { .sample_size = 64, .eventing_ip_offset = 64 }, false },
		{ { .sample_size = 64, .eventing_ip_offset = 0xfffffff8u }, false },
		{ { .sample_size = 64, .pebs_tsc_offset = 56 }, true },
		{ { .sample_size = 64, .pebs_tsc_offset = 32 }, false },
		{ { .sample_size = 80, .pebs_tsc_offset = 56,
		    .callstack_offset = 48, .callstack_size = 16 }, false },
	};
	struct acp_pebs_areas a;
	u32 bad = 0;

	pebs_session(_metadata, self, ~0ull & ~SEP_DEV_CFG_ENABLE_ADAPTIVE_PEBS);
	ASSERT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR,
				      ARRAY_SIZE(cases)));
	for (u32 i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &cases[i].d,
					  sizeof(cases[i].d), 0))
			TH_LOG("case %u", i);
		EXPECT_EQ(cases[i].ok, acp_pebs_layout(&self->t.cfg, i, &a)) TH_LOG("case %u", i);
		bad += !cases[i].ok;
	}
	EXPECT_EQ(bad, fake_log_count(&self->f, "DESC_NEXT: PEBS"));
	EXPECT_EQ(bad, fake_log_count(&self->f, "left zero"));
}

/* START fills what DEV_CONFIG asks for, of the areas the descriptor has. */
TEST_F(core, pebs_layout_is_what_dev_config_asks_for)
{
	static const struct sep_event_desc d = {
		.sample_size = 288, .pebs_offset = 48, .pebs_size = 200,
		.latency_offset_in_sample = 248, .latency_size_in_sample = 24,
		.latency_offset_in_pebs_record = 0x98, .latency_size_from_pebs_record = 24,
		.eventing_ip_offset = 272, .pebs_tsc_offset = 280,
	};
	static const u64 bits[] = {
		SEP_DEV_CFG_PEBS_CAPTURE, SEP_DEV_CFG_LATENCY_CAPTURE,
		SEP_DEV_CFG_EVENTING_IP_CAPTURE, SEP_DEV_CFG_TSC_CAPTURE,
	};
	struct acp_pebs_areas a;

	pebs_session(_metadata, self, 0);
	ASSERT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, 2));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	EXPECT_FALSE(acp_pebs_layout(&self->t.cfg, 0, &a));
	EXPECT_FALSE(acp_pebs_layout(&self->t.cfg, 1, &a));
	for (u32 i = 0; i < ARRAY_SIZE(bits); i++) {
		self->t.cfg.dev.enable_bits = bits[i];
		ASSERT_TRUE(acp_pebs_layout(&self->t.cfg, 0, &a));
		EXPECT_EQ(i == 0 ? 200 : 0, a.pebs_size);
		EXPECT_EQ(i == 1 ? 24 : 0, a.lat_size);
		EXPECT_EQ(i == 2 ? 272 : 0, a.eventing_ip_offset);
		EXPECT_EQ(i == 3 ? 280 : 0, a.tsc_offset);
	}
	self->t.cfg.dev.enable_bits = ~0ull & ~SEP_DEV_CFG_ENABLE_ADAPTIVE_PEBS;
	ASSERT_TRUE(acp_pebs_layout(&self->t.cfg, 0, &a));
	EXPECT_EQ(288, acp_pebs_end(&a));
	/* Adaptive PEBS: its record and offsets are not the legacy ones. */
	self->t.cfg.dev.enable_bits = ~0ull;
	ASSERT_TRUE(acp_pebs_layout(&self->t.cfg, 0, &a));
	EXPECT_EQ(0, a.pebs_size);
	EXPECT_EQ(0, a.lat_size);
	EXPECT_EQ(272, a.eventing_ip_offset);
	EXPECT_EQ(280, a.tsc_offset);
}

TEST_HARNESS_MAIN
