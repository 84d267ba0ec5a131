// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sample records with a callstack area ([ACA-EXT], struct aca_callstack_head);
 * module records with a build-id ([ACA-EXT], struct aca_mr_build_id).
 * Its own program, build/tests/host_records_test.
 */
#include "host_fixture.h"
#include "../../tools/aca-host/records.h"

#define CS_DEPTH	4
#define CS_RECORD	(48 + 8 + 8 * CS_DEPTH)

/* A record at @rec with @nk kernel then @nu user callers, from @first on. */
static void cs_record(uint8_t *rec, uint64_t ip, uint16_t nk, uint16_t nu,
		      uint32_t flags, uint64_t first)
{
	struct sep_sample_record_pc r = {
		.iip = ip, .bit_fields2 = SEP_SAMPLE_IA64PC, .tid = 7, .pid_rec_index = 7,
	};
	struct aca_callstack_head h = { .nkernel = nk, .nuser = nu, .flags = flags };

	memset(rec, 0, CS_RECORD);
	memcpy(rec, &r, sizeof(r));
	memcpy(rec + 48, &h, sizeof(h));
	for (unsigned int i = 0; i < nk + nu && i < CS_DEPTH; i++) {
		uint64_t a = first + i;

		memcpy(rec + 56 + 8 * i, &a, sizeof(a));
	}
}

static const struct record_layout cs_layout = {
	.size = CS_RECORD, .callstack_offset = 48, .callstack_size = 8 + 8 * CS_DEPTH,
};

TEST(callers_are_read_from_the_callstack_area)
{
	uint8_t buf[2 * CS_RECORD];
	struct sample_vec v = { 0 };
	char err[256] = "";

	cs_record(buf, 0xffffffff81000100ull, 2, 1, 0, 0x100);
	cs_record(buf + CS_RECORD, 0x401000, 0, 4, ACA_CALLSTACK_TRUNCATED, 0x200);
	ASSERT_EQ(0, records_parse_samples(buf, sizeof(buf), &cs_layout, &v, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(2, v.n);
	EXPECT_EQ(2, v.v[0].nkernel);
	EXPECT_EQ(1, v.v[0].nuser);
	EXPECT_EQ(0, v.v[0].truncated);
	EXPECT_EQ(0x100, v.chain[v.v[0].chain]);
	EXPECT_EQ(0x102, v.chain[v.v[0].chain + 2]);
	EXPECT_EQ(0, v.v[1].nkernel);
	EXPECT_EQ(4, v.v[1].nuser);
	EXPECT_EQ(1, v.v[1].truncated);
	EXPECT_EQ(0x203, v.chain[v.v[1].chain + 3]);
	EXPECT_EQ(0x401000, v.v[1].ip);
	sample_vec_free(&v);
}

/* A head counting more addresses than its area holds: an error, earlier records kept. */
TEST(callstack_longer_than_its_area_ends_the_stream)
{
	uint8_t buf[2 * CS_RECORD];
	struct sample_vec v = { 0 };
	char err[256] = "";

	cs_record(buf, 0x401000, 0, 1, 0, 0x100);
	cs_record(buf + CS_RECORD, 0x401000, 3, CS_DEPTH, 0, 0x200);
	EXPECT_EQ(-1, records_parse_samples(buf, sizeof(buf), &cs_layout, &v, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "a callstack of 7 addresses in an area for 4")) TH_LOG("%s", err);
	EXPECT_EQ(1, v.n);
	sample_vec_free(&v);
}

TEST(callstack_area_outside_the_record_is_refused)
{
	static const struct record_layout bad[] = {
		{ .size = 112, .callstack_offset = 40, .callstack_size = 16 },	/* over the base */
		{ .size = 112, .callstack_offset = 52, .callstack_size = 16 },	/* unaligned */
		{ .size = 112, .callstack_offset = 48, .callstack_size = 72 },	/* past the end */
		{ .size = 112, .callstack_offset = 48, .callstack_size = 4 },	/* no room for its head */
		{ .size = 112, .callstack_offset = SIZE_MAX - 7, .callstack_size = 16 },
		{ .size = 40 },							/* no base */
	};
	uint8_t buf[112] = { 0 };
	struct sample_vec v = { 0 };
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		EXPECT_EQ(-1, records_layout_check(&bad[i], err, sizeof(err))) TH_LOG("case %zu", i);
		EXPECT_EQ(-1, records_parse_samples(buf, sizeof(buf), &bad[i], &v, err, sizeof(err)));
		EXPECT_NE(0, err[0]);
	}
	EXPECT_EQ(0, v.n);
	sample_vec_free(&v);
}

/* ---- [ACA-EXT] build-ids after a module record's path ---- */

static const uint8_t test_bid[20] = {
	0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
	0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};

/* A record without and two with build-ids (20 bytes, and 1 after a 7-byte path). */
TEST(module_records_carry_build_ids)
{
	struct module_vec v = { 0 };
	struct sbuf b = { 0 };
	char err[256] = "";

	synth_module(&b, 9, 0x400000, 0x1000, 0, 0, SEP_MR_UNLOAD_TSC_LOADED, 0, "/x/none");
	synth_module_build_id(&b, 9, 0x500000, 0x2000, 0x1000, SEP_MR_EXE, "/x/twenty",
			      test_bid, 20, NULL, 0);
	synth_module_build_id(&b, 9, 0x600000, 0x1000, 0, 0, "/x/one!", test_bid + 3, 1,
			      NULL, 0);
	synth_module(&b, 9, 0x700000, 0x1000, 0, 0, SEP_MR_UNLOAD_TSC_LOADED, 0, "/x/after");
	/* 80 + 8 (/x/none) | 80 + 16 + 24 | 80 + 8 + 8 | 80 + 16 */
	ASSERT_EQ(88 + 120 + 96 + 96, b.len);
	ASSERT_EQ(0, records_parse_modules(b.p, b.len, &v, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(4, v.n);
	EXPECT_EQ(0, v.v[0].build_id_size);
	EXPECT_STREQ("/x/twenty", v.v[1].path);
	EXPECT_EQ(20, v.v[1].build_id_size);
	EXPECT_EQ(0, memcmp(test_bid, v.v[1].build_id, 20));
	EXPECT_EQ(0x500000, v.v[1].load);
	EXPECT_EQ(0x1000, v.v[1].page_offset);
	EXPECT_STREQ("/x/one!", v.v[2].path);
	EXPECT_EQ(1, v.v[2].build_id_size);
	EXPECT_EQ(0xef, v.v[2].build_id[0]);
	EXPECT_STREQ("/x/after", v.v[3].path);
	EXPECT_EQ(0, v.v[3].build_id_size);
	module_vec_free(&v);
	sbuf_free(&b);
}

/*
 * Malformed build-ids: the stream ends there with the reason, the record
 * before kept.
 */
TEST(malformed_build_ids_end_the_module_stream)
{
	static const struct {
		const char *magic;
		size_t size;
		int extra;
		const char *said;
	} bad[] = {
		{ "BX", 20, 0, "bytes 0x42 0x58 after the path are not a build-id's magic 'BI'" },
		{ "\0\0", 20, 0, "are not a build-id's magic" },
		{ NULL, 0, 0, "a build-id of 0 bytes (1 to 20)" },
		{ NULL, 21, 0, "a build-id of 21 bytes (1 to 20)" },
		{ NULL, 20, -8, "a build-id of 20 bytes at 96 does not fit in recLength 112" },
		{ NULL, 4, -6, "2 bytes after the path in recLength 98: not a build-id" },
		{ NULL, 20, 8, "recLength 128 is not that of a 20-byte build-id at 96" },
		{ NULL, 3, -1, "recLength 103 is not that of a 3-byte build-id at 96" },
	};
	uint8_t id[32];

	memset(id, 0xab, sizeof(id));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct module_vec v = { 0 };
		struct sbuf b = { 0 };
		char err[256] = "";

		synth_module(&b, 9, 0x400000, 0x1000, 0, 0, SEP_MR_UNLOAD_TSC_LOADED, 0, "/x/ok");
		synth_module_build_id(&b, 9, 0x500000, 0x1000, 0, 0, "/x/bad/path",
				      id, bad[i].size, bad[i].magic, bad[i].extra);
		EXPECT_EQ(-1, records_parse_modules(b.p, b.len, &v, err, sizeof(err)))
			TH_LOG("case %zu", i);
		EXPECT_NE(NULL, strstr(err, bad[i].said)) TH_LOG("case %zu: %s", i, err);
		EXPECT_NE(NULL, strstr(err, "record 1 at offset 88")) TH_LOG("case %zu: %s", i, err);
		ASSERT_EQ(1, v.n) TH_LOG("case %zu", i);
		EXPECT_STREQ("/x/ok", v.v[0].path);
		module_vec_free(&v);
		sbuf_free(&b);
	}
}

/* ---- [ACA-EXT] MODULE_SNAPSHOT: a mapping described more than once ---- */

#define LD	SEP_MR_UNLOAD_TSC_LOADED

/* @b parsed and merged; how many were dropped. */
static long long parse_merged(struct __test_metadata *_metadata, struct sbuf *b,
			      struct module_vec *v)
{
	char err[256] = "";

	memset(v, 0, sizeof(*v));
	if (records_parse_modules(b->p, b->len, v, err, sizeof(err))) {
		TH_LOG("%s", err);
		return -2;
	}
	return records_merge_repeats(v);
}

/*
 * Two snapshots and STOP describe the same live mappings (a kernel
 * thread's name with "now" as unload TSC each time): each once, in the
 * place of its last description.
 */
TEST(snapshot_and_stop_records_of_a_mapping_are_one)
{
	struct module_vec v;
	struct sbuf b = { 0 };

	for (int walk = 0; walk < 3; walk++) {
		synth_module(&b, 9, 0x400000, 0x1000, 0, 0, LD, SEP_MR_EXE, "/x/exe");
		synth_module_build_id(&b, 9, 0x500000, 0x2000, 0x1000, 0, "/x/lib",
				      test_bid, 20, NULL, 0);
		synth_module(&b, 9, 0x7fff0000, 0x2000, 0, 0, LD, 0, "[vdso]");
		synth_module(&b, 2, 0, 0, 0, 0, 1000 + walk, SEP_MR_EXE, "kthreadd");
	}
	/* Not repeats: another pid, another start, another build-id. */
	synth_module(&b, 10, 0x400000, 0x1000, 0, 0, LD, SEP_MR_EXE, "/x/exe");
	synth_module(&b, 9, 0x600000, 0x1000, 0, 0, LD, 0, "/x/exe");
	synth_module_build_id(&b, 9, 0x500000, 0x2000, 0x1000, 0, "/x/lib",
			      test_bid + 1, 20, NULL, 0);
	ASSERT_EQ(8, parse_merged(_metadata, &b, &v));
	ASSERT_EQ(7, v.n);
	EXPECT_STREQ("/x/exe", v.v[0].path);
	EXPECT_EQ(9, v.v[0].pid);
	EXPECT_STREQ("/x/lib", v.v[1].path);
	EXPECT_EQ(20, v.v[1].build_id_size);
	EXPECT_EQ(0x1000, v.v[1].page_offset);
	EXPECT_STREQ("[vdso]", v.v[2].path);
	EXPECT_STREQ("kthreadd", v.v[3].path);
	EXPECT_EQ(1002, v.v[3].unload_tsc);
	EXPECT_EQ(10, v.v[4].pid);
	EXPECT_EQ(0x600000, v.v[5].load);
	EXPECT_EQ(0xad, v.v[6].build_id[0]);
	module_vec_free(&v);
	sbuf_free(&b);
}

/*
 * A snapshot's still-loaded record, then the same mapping's munmap or exit
 * record: one mapping, which went at that TSC; the same file mapped there
 * again after it is another. Exit records repeated (same unload TSC) are
 * one; the same mapping unloaded twice (dlopen, dlclose, dlopen) is two.
 */
TEST(a_snapshot_mapping_that_went_keeps_its_unload_tsc)
{
	struct module_vec v;
	struct sbuf b = { 0 };

	synth_module(&b, 9, 0x500000, 0x1000, 0, 0, LD, 0, "/x/plugin");	/* snapshot */
	synth_module(&b, 9, 0x500000, 0x1000, 0, 0, 5000, 0, "/x/plugin");	/* munmap */
	synth_module(&b, 9, 0x500000, 0x1000, 0, 0, 5000, 0, "/x/plugin");	/* repeated */
	synth_module(&b, 9, 0x500000, 0x1000, 0, 0, 7000, 0, "/x/plugin");	/* again */
	synth_module(&b, 9, 0x500000, 0x1000, 0, 0, LD, 0, "/x/plugin");	/* snapshot */
	synth_module(&b, 9, 0x500000, 0x1000, 0, 0, LD, 0, "/x/plugin");	/* STOP */
	ASSERT_EQ(3, parse_merged(_metadata, &b, &v));
	ASSERT_EQ(3, v.n);
	EXPECT_EQ(5000, v.v[0].unload_tsc);
	EXPECT_EQ(7000, v.v[1].unload_tsc);
	EXPECT_EQ(LD, v.v[2].unload_tsc);
	module_vec_free(&v);
	sbuf_free(&b);
}

TEST_HARNESS_MAIN
