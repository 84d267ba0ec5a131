// SPDX-License-Identifier: GPL-2.0-only
/*
 * Built-in ECBs: the spec's REF_TSC vector exactly, the others by field.
 * Its own program, build/tests/host_ecb_test.
 */
#include "host_fixture.h"
#include "../../tools/aca-host/ecb.h"

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

/*
 * [ACA-EXT] IBS (spec 6.12): nothing enabled but the control register in
 * DATA_GP slot 0: its enable bit and the period / 16, as far as it holds.
 */
static void check_ibs(struct __test_metadata *_metadata, const char *name, uint32_t msr,
		      uint64_t sav, uint64_t want)
{
	size_t len;
	uint8_t *ecb = host_ecb_build_group(name, sav, 2, &len);
	const struct sep_ecb *h = (const struct sep_ecb *)ecb;
	const struct sep_event_reg *data;

	ASSERT_NE(NULL, ecb);
	EXPECT_EQ(0, ecb_slot(ecb, 0)->reg_value);	/* GLOBAL_CTRL */
	EXPECT_EQ(0, ecb_slot(ecb, 4)->reg_value);	/* FIXED_CTR_CTRL */
	for (unsigned int k = 0; k < 3; k++)
		EXPECT_EQ(0, ecb_slot(ecb, 9 + k)->event_reg_id.reg_id);
	data = ecb_slot(ecb, h->operations[SEP_OP_DATA_GP].register_start);
	EXPECT_EQ(msr, data->event_reg_id.reg_id);
	EXPECT_EQ(want, data->reg_value);
	EXPECT_EQ(want, host_ibs_control(name, sav));
	EXPECT_EQ(2, data->event_id_index);
	EXPECT_EQ(-1, host_ecb_fixed_counter(name));
	free(ecb);
}

TEST(ibs_events_fill_their_control_register)
{
	/* IbsOpEn 17; IbsOpMaxCnt 15:0, its bits 22:16 at 26:20. */
	check_ibs(_metadata, "ibs_op", 0xc0011033, 1000000, (1ull << 17) | 62500);
	check_ibs(_metadata, "ibs_op", 0xc0011033, 0x123450, (1ull << 17) | (1ull << 20) | 0x2345);
	check_ibs(_metadata, "ibs_op", 0xc0011033, 1ull << 40, (1ull << 17) | (0x7full << 20) | 0xffff);
	check_ibs(_metadata, "ibs_op", 0xc0011033, 1, (1ull << 17) | 1);
	/* IbsFetchEn 48; IbsFetchMaxCnt 15:0 only. */
	check_ibs(_metadata, "ibs_fetch", 0xc0011030, 1000000, (1ull << 48) | 62500);
	check_ibs(_metadata, "ibs_fetch", 0xc0011030, 1ull << 40, (1ull << 48) | 0xffff);
	EXPECT_EQ(0, host_ibs_control("CPU_CLK_UNHALTED.REF_TSC", 1000000));
	EXPECT_TRUE(host_ecb_known("ibs_op"));
}

TEST(unknown_events_are_refused)
{
	size_t len;

	EXPECT_FALSE(host_ecb_known("CPU_CLK_UNHALTED.REF"));
	EXPECT_TRUE(host_ecb_known(HOST_DEFAULT_EVENT));
	EXPECT_EQ(NULL, host_ecb_build("BR_INST_RETIRED.ALL_BRANCHES", 1000, &len));
}

TEST(bad_periods_are_refused)
{
	size_t len;

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

/*
 * Counting ECBs: task-clock, INST_RETIRED.ANY, context-switches and
 * CPU_CLK_UNHALTED.REF_TSC in one group, built once for the checks below.
 */
static const struct host_count_event mixed[] = {
	{ .sw = 1, .num = ACA_SW_TASK_CLOCK },
	{ .sw = 0, .num = 0 },
	{ .sw = 1, .num = ACA_SW_CONTEXT_SWITCHES },
	{ .sw = 0, .num = 2 },
};
#define NMIXED		4u
/* The counting layout: 5 global, 8 select, 3 fixed, 8 general, 5 OCR, status. */
#define CNT_CTRL_GP	5u
#define CNT_FIXED	13u
#define CNT_GP		16u
#define CNT_OCR		24u
#define CNT_SLOTS	30u

static uint8_t *mixed_ecb(uint32_t *order, size_t *len)
{
	return host_ecb_build_counting(mixed, NMIXED, order, len);
}

TEST(counting_ecb_sections_have_eight_general_slots)
{
	uint32_t order[NMIXED];
	size_t len;
	uint8_t *ecb = mixed_ecb(order, &len);
	const struct sep_ecb *h = (const struct sep_ecb *)ecb;

	ASSERT_NE(NULL, ecb);
	EXPECT_EQ(sizeof(*h) + CNT_SLOTS * sizeof(struct sep_event_reg), len);
	EXPECT_EQ(len, h->size_of_allocation);
	EXPECT_EQ(CNT_SLOTS - 1, h->num_entries);
	EXPECT_EQ(NMIXED, h->num_events);
	EXPECT_EQ(0, h->group_id);
	EXPECT_EQ(CNT_CTRL_GP, h->operations[SEP_OP_CTRL_GP].register_start);
	EXPECT_EQ(8, h->operations[SEP_OP_CTRL_GP].register_len);
	EXPECT_EQ(CNT_FIXED, h->operations[SEP_OP_DATA_FIXED].register_start);
	EXPECT_EQ(3, h->operations[SEP_OP_DATA_FIXED].register_len);
	EXPECT_EQ(CNT_GP, h->operations[SEP_OP_DATA_GP].register_start);
	EXPECT_EQ(8, h->operations[SEP_OP_DATA_GP].register_len);
	EXPECT_EQ(CNT_OCR, h->operations[SEP_OP_OCR].register_start);
	EXPECT_EQ(CNT_SLOTS - 1, h->operations[SEP_OP_GLOBAL_STATUS].register_start);
	EXPECT_EQ(0x38e, ecb_slot(ecb, CNT_SLOTS - 1)->event_reg_id.reg_id);
	free(ecb);
}

TEST(counting_ecb_software_events_use_the_pseudo_select)
{
	uint32_t order[NMIXED];
	size_t len;
	uint8_t *ecb = mixed_ecb(order, &len);
	const uint64_t usr_os = 3ull << 16;

	ASSERT_NE(NULL, ecb);
	/* General slot k: IA32_PMCk counting, ACA_SW_EVENT_SELECT naming the event. */
	EXPECT_EQ(ACA_SW_EVENT_SELECT, ecb_slot(ecb, CNT_CTRL_GP)->event_reg_id.reg_id);
	EXPECT_EQ(ACA_SW_TASK_CLOCK | usr_os, ecb_slot(ecb, CNT_CTRL_GP)->reg_value);
	EXPECT_EQ(ACA_SW_EVENT_SELECT, ecb_slot(ecb, CNT_CTRL_GP + 1)->event_reg_id.reg_id);
	EXPECT_EQ(ACA_SW_CONTEXT_SWITCHES | usr_os, ecb_slot(ecb, CNT_CTRL_GP + 1)->reg_value);
	EXPECT_EQ(0xc1, ecb_slot(ecb, CNT_GP)->event_reg_id.reg_id);
	EXPECT_EQ(0xc2, ecb_slot(ecb, CNT_GP + 1)->event_reg_id.reg_id);
	EXPECT_EQ(SEP_REG_TYPE_DATA, ecb_slot(ecb, CNT_GP)->reg_type);
	for (unsigned int k = 2; k < 8; k++) {
		EXPECT_EQ(0, ecb_slot(ecb, CNT_CTRL_GP + k)->event_reg_id.reg_id);
		EXPECT_EQ(0, ecb_slot(ecb, CNT_GP + k)->event_reg_id.reg_id);
	}
	free(ecb);
}

TEST(counting_ecb_counters_have_no_sample_after_value)
{
	static const unsigned int counters[] = { CNT_FIXED, CNT_FIXED + 2, CNT_GP, CNT_GP + 1 };
	uint32_t order[NMIXED];
	size_t len;
	uint8_t *ecb = mixed_ecb(order, &len);

	ASSERT_NE(NULL, ecb);
	EXPECT_EQ(0x309, ecb_slot(ecb, CNT_FIXED)->event_reg_id.reg_id);
	EXPECT_EQ(0, ecb_slot(ecb, CNT_FIXED + 1)->event_reg_id.reg_id);
	EXPECT_EQ(0x30b, ecb_slot(ecb, CNT_FIXED + 2)->event_reg_id.reg_id);
	for (unsigned int i = 0; i < 4; i++) {
		EXPECT_EQ(0, ecb_slot(ecb, counters[i])->reg_value);
		EXPECT_EQ(HOST_COUNTER_MASK, ecb_slot(ecb, counters[i])->max_bits);
	}
	free(ecb);
}

TEST(counting_ecb_enables_exactly_its_counters)
{
	uint32_t order[NMIXED];
	size_t len;
	uint8_t *ecb = mixed_ecb(order, &len);

	ASSERT_NE(NULL, ecb);
	/* Fixed 0 and 2 (bits 32, 34), general 0 and 1 (bits 0, 1). */
	EXPECT_EQ(0x38f, ecb_slot(ecb, 0)->event_reg_id.reg_id);
	EXPECT_EQ((1ull << 32) | (1ull << 34) | 3, ecb_slot(ecb, 0)->reg_value);
	/* Both rings, no PMI: nibbles 0 and 2. */
	EXPECT_EQ(0x38d, ecb_slot(ecb, 4)->event_reg_id.reg_id);
	EXPECT_EQ(0x303, ecb_slot(ecb, 4)->reg_value);
	free(ecb);
}

TEST(counting_ecb_order_is_fixed_then_general)
{
	uint32_t order[NMIXED];
	size_t len;
	uint8_t *ecb = mixed_ecb(order, &len);

	ASSERT_NE(NULL, ecb);
	/* Answer order: fixed 0, fixed 2, general 0 (task-clock), general 1. */
	EXPECT_EQ(2, order[0]);
	EXPECT_EQ(0, order[1]);
	EXPECT_EQ(3, order[2]);
	EXPECT_EQ(1, order[3]);
	free(ecb);
}

TEST(counting_ecb_refuses_bad_groups)
{
	struct host_count_event ev[HOST_MAX_COUNT_EVENTS + 1];
	uint32_t order[HOST_MAX_COUNT_EVENTS + 1];
	size_t len;

	for (unsigned int i = 0; i <= HOST_MAX_COUNT_EVENTS; i++)
		ev[i] = (struct host_count_event){ .sw = i < 7, .num = i < 7 ? i : i - 7 };
	EXPECT_EQ(NULL, host_ecb_build_counting(ev, 0, order, &len));
	EXPECT_EQ(NULL, host_ecb_build_counting(ev, HOST_MAX_COUNT_EVENTS + 1, order, &len));
	ev[1] = ev[0];
	EXPECT_EQ(NULL, host_ecb_build_counting(ev, 2, order, &len));
	ev[0] = (struct host_count_event){ .sw = 1, .num = ACA_SW_MAX + 1 };
	EXPECT_EQ(NULL, host_ecb_build_counting(ev, 1, order, &len));
	ev[0] = (struct host_count_event){ .sw = 0, .num = 3 };
	EXPECT_EQ(NULL, host_ecb_build_counting(ev, 1, order, &len));
}

TEST(counting_ecb_holds_every_software_event_and_a_fixed_one)
{
	struct host_count_event ev[HOST_MAX_COUNT_EVENTS];
	uint32_t order[HOST_MAX_COUNT_EVENTS];
	size_t len;
	uint8_t *ecb;

	for (unsigned int i = 0; i <= ACA_SW_MAX; i++)
		ev[i] = (struct host_count_event){ .sw = 1, .num = i };
	ev[7] = (struct host_count_event){ .sw = 0, .num = 1 };
	ecb = host_ecb_build_counting(ev, 8, order, &len);
	ASSERT_NE(NULL, ecb);
	EXPECT_EQ(0xc7, ecb_slot(ecb, CNT_GP + 6)->event_reg_id.reg_id);
	EXPECT_EQ(ACA_SW_PAGE_FAULTS_MAJ | 3ull << 16, ecb_slot(ecb, CNT_CTRL_GP + 6)->reg_value);
	EXPECT_EQ((1ull << 33) | 0x7f, ecb_slot(ecb, 0)->reg_value);
	EXPECT_EQ(0, order[7]);
	EXPECT_EQ(7, order[6]);
	free(ecb);
}

TEST_HARNESS_MAIN
