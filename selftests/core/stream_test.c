// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, the byte stream (spec 13): a whole session's bytes, cut
 * into fragments of any size and read back in chunks of any size, give the
 * same bytes out as the session sent in one piece.
 * Its own program, build/tests/core_stream_test, on the fixture every core
 * test program shares (core_fixture.h).
 */
#include "core_fixture.h"

/*
 * Spec 5.1 with uncore, as one stream from hello to TERMINATE; the uncore
 * requests are refused (183, spec 5.5) and the rest goes on.
 */
static inline u32 build_collection(struct tc_stream *s, const u8 *ecb,
				   const u8 *uecb, u32 *ids)
{
	struct sep_control_first_msg hello = tc_hello(24);
	struct sep_drv_log_control log = { .command = SEP_DRV_LOG_CMD_ADJUST_VERBOSITY };
	struct sep_drv_topology_info topo[FAKE_NCPUS];
	struct sep_event_desc desc = { .sample_size = 48 };
	struct sep_dev_config dev = { .dispatch_id = 2, .results_offset = 48 };
	struct sep_dev_unc_config unc = { .dispatch_id = 120, .device_type = 1 };
	struct sep_event_config ec, ecu;
	struct sep_drv_config dc;
	u32 size = 248 + (168 + 20 * FAKE_CPUID_ENTRIES) * FAKE_NCPUS;
	u32 msr = 0x38f, two = 2, four = 4, pmu = FAKE_NCPUS * 56, n = 0;

	tc_topology(topo, FAKE_NCPUS);
	tc_event_config(&ec, false);
	tc_event_config(&ecu, true);
	tc_drv_config(&dc, 0x4400);
	tc_stream_add(s, &hello, sizeof(hello));
#define REQ(id, in, in_len, out_len) do { \
		tc_stream_cmd(s, id, in, in_len, out_len); \
		ids[n++] = id; \
	} while (0)
	REQ(SEP_CMD_SET_OSID, NULL, 0, 0);
	REQ(SEP_CMD_VERSION, NULL, 0, 4);
	REQ(SEP_CMD_GET_DRV_SETUP_INFO, NULL, 0, 32);
	REQ(SEP_CMD_COLLECT_SYS_CONFIG, NULL, 0, 4);
	REQ(SEP_CMD_GET_SYS_CONFIG, NULL, 0, size);
	REQ(SEP_CMD_GET_PLATFORM_INFO, NULL, 0, 15440);
	REQ(SEP_CMD_NUM_CORES, NULL, 0, 4);
	REQ(SEP_CMD_READ_MSR, &msr, 4, 8 * FAKE_NCPUS);
	REQ(SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, 8);
	REQ(SEP_CMD_CONTROL_DRIVER_LOG, &log, sizeof(log), sizeof(log));
	REQ(SEP_CMD_INIT_NUM_DEV, &four, 4, 0);
	REQ(SEP_CMD_RESERVE, NULL, 0, 4);
	REQ(SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), 0);
	REQ(SEP_CMD_SET_CPU_TOPOLOGY, topo, sizeof(topo), 0);
	REQ(SEP_CMD_NUM_DESCRIPTOR, &two, 4, 0);
	REQ(SEP_CMD_DESC_NEXT, &desc, sizeof(desc), 0);
	REQ(SEP_CMD_DESC_NEXT, &desc, sizeof(desc), 0);
	REQ(SEP_CMD_INIT, &dev, sizeof(dev), 0);
	REQ(SEP_CMD_EM_GROUPS, &ec, sizeof(ec), 0);
	REQ(SEP_CMD_EM_CONFIG_NEXT, ecb, 4720, 48);
	REQ(SEP_CMD_SET_DEVICE_NUM_UNITS, &four, 4, 0);
	REQ(SEP_CMD_INIT_UNC, &unc, sizeof(unc), 0);
	REQ(SEP_CMD_EM_GROUPS_UNC, &ecu, sizeof(ecu), 0);
	REQ(SEP_CMD_EM_CONFIG_NEXT_UNC, uecb, 2680, 0);
	REQ(SEP_CMD_INIT_PMU, &pmu, 4, 0);
	REQ(SEP_CMD_START, NULL, 0, 0);
	REQ(SEP_CMD_PAUSE, NULL, 0, 0);
	REQ(SEP_CMD_RESUME, NULL, 0, 0);
	REQ(SEP_CMD_STOP, NULL, 0, 0);
	REQ(SEP_CMD_TSC_SKEW_INFO, NULL, 0, 32);
	REQ(SEP_CMD_GET_NUM_SAMPLES, NULL, 0, 8);
	REQ(SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0, 324);
	REQ(SEP_CMD_PAX_INFO, NULL, 0, 5000);
	REQ(SEP_CMD_TERMINATE, NULL, 0, 0);
#undef REQ
	return n;
}

/* Run @s on a fresh machine: @frag-byte writes, @chunk-byte reads. */
static inline int run_stream(const struct tc_stream *s, size_t frag,
			     size_t chunk, struct tc_out *o)
{
	struct fake f;
	struct acp_target t;
	struct acp_conn c;
	size_t off = 0;
	int ret = 0;

	fake_init(&f, FAKE_NCPUS);
	acp_target_init(&t, &fake_ops, &f);
	acp_conn_init(&c, &t, &c, NULL);
	acp_conn_set_privileged(&c, true);
	tc_out_reset(o);
	while (off < s->len && !ret) {
		size_t n = s->len - off < frag ? s->len - off : frag;
		size_t k = acp_conn_input(&c, s->buf + off, n);

		if (!k && !tc_drain(&c, o, chunk))
			ret = -1;	/* stalled */
		off += k;
	}
	tc_drain(&c, o, chunk);
	if (!acp_conn_eof(&c))
		ret = -2;		/* TERMINATE ends it */
	acp_conn_release(&c);
	acp_target_fini(&t);
	if (f.live || f.bad_free || f.running || f.misuse)
		ret = -3;
	return ret;
}

TEST_F_TIMEOUT(core, any_fragmentation_gives_the_same_session, 120)
{
	static const size_t frags[] = { 1, 2, 3, 7, 23, 24, 25, 47, 48, 49, 100, 1000, 4096, 65536 };
	static const size_t chunks[] = { 0, 1, 5, 48, 4096 };
	static u8 whole_buf[1 << 20];
	struct tc_out whole = { .buf = whole_buf, .cap = sizeof(whole_buf) };
	struct sep_target_status_msg st;
	struct tc_stream s = { 0 };
	struct tc_msg msgs[64];
	u32 ids[64], n;
	int k;

	n = build_collection(&s, core_ecb(_metadata, self), uncore_ecb(_metadata, self), ids);
	ASSERT_EQ(0, run_stream(&s, s.len, 0, &whole));
	ASSERT_EQ(whole.total, whole.len);
	/*
	 * The reference run is right: one answer per request, in order, a
	 * success but for the uncore requests.
	 */
	k = tc_parse_output(whole.buf, whole.len, &st, msgs, 64);
	ASSERT_EQ((int)n, k);
	EXPECT_EQ(VT_SUCCESS, st.status);
	for (int i = 0; i < k; i++) {
		bool unc = ids[i] == SEP_CMD_INIT_UNC || ids[i] == SEP_CMD_EM_GROUPS_UNC ||
			   ids[i] == SEP_CMD_EM_CONFIG_NEXT_UNC;

		EXPECT_EQ(ids[i], msgs[i].h.command_id);
		EXPECT_EQ(unc ? VT_INVALID_DEVICE : VT_SUCCESS, msgs[i].h.status)
			TH_LOG("command %u", ids[i]);
	}
	for (size_t i = 0; i < sizeof(frags) / sizeof(frags[0]); i++) {
		for (size_t j = 0; j < sizeof(chunks) / sizeof(chunks[0]); j++) {
			tc_out_reset(&self->out);
			ASSERT_EQ(0, run_stream(&s, frags[i], chunks[j], &self->out))
				TH_LOG("fragments of %zu, reads of %zu", frags[i], chunks[j]);
			ASSERT_EQ(whole.len, self->out.len);
			EXPECT_EQ(0, memcmp(whole.buf, self->out.buf, whole.len))
				TH_LOG("fragments of %zu, reads of %zu", frags[i], chunks[j]);
		}
	}
	tc_stream_free(&s);
}

TEST_HARNESS_MAIN
