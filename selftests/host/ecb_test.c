// SPDX-License-Identifier: GPL-2.0-only
/* Built-in ECBs: the spec's REF_TSC vector exactly, the others by field. */
#ifdef ACA_HOST_TEST_UNIT

#define VECTOR_SAV	2200000ull	/* spec 6.6 */

static const struct sep_event_reg *ecb_slot(const uint8_t *ecb, unsigned int i)
{
	return (const struct sep_event_reg *)(ecb + sizeof(struct sep_ecb)) + i;
}

TEST(ref_tsc_ecb_is_the_spec_vector)
{
	static const char *const names[] = {
		"bin_ecb.config_6_0_CPU_CLK_UNHALTED.REF_TSC",
		"bin_ecb.config_3_0_CPU_CLK_UNHALTED.REF_TSC",
	};
	size_t len, vlen;
	uint8_t *ecb = host_ecb_build("CPU_CLK_UNHALTED.REF_TSC", VECTOR_SAV, &len);

	ASSERT_NE(NULL, ecb);
	EXPECT_EQ(4720, len);
	for (int i = 0; i < 2; i++) {
		char where[4096];
		uint8_t *v = synth_vector(names[i], &vlen, where, sizeof(where));

		if (!v)
			free(ecb);
		/* The vectors are part of the repository: missing is a failure. */
		ASSERT_NE(NULL, v) TH_LOG("test vector %s: cannot read it", where);
		TH_LOG("comparing with %s", where);
		ASSERT_EQ(vlen, len);
		for (size_t k = 0; k < len; k++)
			if (ecb[k] != v[k]) {
				TH_LOG("first difference at byte %zu: built 0x%02x, vector 0x%02x",
				       k, ecb[k], v[k]);
				ASSERT_EQ(v[k], ecb[k]);
			}
		free(v);
	}
	free(ecb);
}

/* Counter j: its data slot, enable bit and control nibble; nothing else. */
static void check_fixed(struct __test_metadata *_metadata, const char *name,
			unsigned int j, uint64_t sav)
{
	size_t len;
	uint8_t *ecb = host_ecb_build(name, sav, &len);
	const struct sep_ecb *h = (const struct sep_ecb *)ecb;
	const struct sep_event_reg *data;

	ASSERT_NE(NULL, ecb);
	ASSERT_EQ(sizeof(*h) + 22 * sizeof(struct sep_event_reg), len);
	EXPECT_EQ(len, h->size_of_allocation);
	EXPECT_EQ(SEP_DEVICE_CORE, h->device_type);
	EXPECT_EQ(9, h->operations[SEP_OP_DATA_FIXED].register_start);
	EXPECT_EQ(3, h->operations[SEP_OP_DATA_FIXED].register_len);
	EXPECT_EQ(0x38f, ecb_slot(ecb, 0)->event_reg_id.reg_id);
	EXPECT_EQ(1ull << (32 + j), ecb_slot(ecb, 0)->reg_value);
	EXPECT_EQ(0x38d, ecb_slot(ecb, 4)->event_reg_id.reg_id);
	EXPECT_EQ(0xbull << (4 * j), ecb_slot(ecb, 4)->reg_value);
	for (unsigned int k = 0; k < 3; k++) {
		data = ecb_slot(ecb, 9 + k);
		if (k != j) {
			EXPECT_EQ(0, data->event_reg_id.reg_id);
			continue;
		}
		EXPECT_EQ(0x309 + j, data->event_reg_id.reg_id);
		EXPECT_EQ(SEP_REG_TYPE_DATA, data->reg_type);
		EXPECT_EQ(HOST_COUNTER_MASK, data->max_bits);
		/* What the target computes back from it (spec 6.5). */
		EXPECT_EQ(sav, (data->max_bits + 1 - data->reg_value) & data->max_bits);
	}
	free(ecb);
}

TEST(fixed_events_fill_their_counter)
{
	check_fixed(_metadata, "INST_RETIRED.ANY", 0, 1000);
	check_fixed(_metadata, "CPU_CLK_UNHALTED.THREAD", 1, 3000000);
	check_fixed(_metadata, "CPU_CLK_UNHALTED.REF_TSC", 2, 1);
	check_fixed(_metadata, "CPU_CLK_UNHALTED.REF_TSC", 2, HOST_COUNTER_MASK);
}

TEST(unknown_events_and_bad_periods_are_refused)
{
	size_t len;

	EXPECT_FALSE(host_ecb_known("CPU_CLK_UNHALTED.REF"));
	EXPECT_TRUE(host_ecb_known(HOST_DEFAULT_EVENT));
	EXPECT_EQ(NULL, host_ecb_build("BR_INST_RETIRED.ALL_BRANCHES", 1000, &len));
	EXPECT_EQ(NULL, host_ecb_build("INST_RETIRED.ANY", 0, &len));
	EXPECT_EQ(NULL, host_ecb_build("INST_RETIRED.ANY", HOST_COUNTER_MASK + 1, &len));
}

TEST(sample_after_gives_the_rate_at_the_tsc)
{
	EXPECT_EQ(2200000, host_sample_after(2200000000ull, 1000));
	EXPECT_EQ(3000000, host_sample_after(3000000000ull, 1000));
	/* Unknown TSC rate: the vector's 2.2 GHz. */
	EXPECT_EQ(2200000, host_sample_after(0, 1000));
	EXPECT_EQ(1, host_sample_after(10, 1000));
}

#endif /* ACA_HOST_TEST_UNIT */
