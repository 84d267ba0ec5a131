// SPDX-License-Identifier: GPL-2.0-only
/* Sample records with a callstack area ([ACA-EXT], struct aca_callstack_head). */
#ifdef ACA_HOST_TEST_UNIT

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

#endif /* ACA_HOST_TEST_UNIT */
