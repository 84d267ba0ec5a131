// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, garbage in: a deterministic generator feeds random and
 * half-valid byte streams, in random fragments, into fresh sessions (with
 * data channels and other hosts around), and checks after each one that
 * every response is well framed and expected, that nothing leaked, and that
 * the next host is served. ACA_FUZZ_SEED and ACA_FUZZ_SESSIONS override the
 * defaults (seed 0x5eed, 1000 sessions).
 * Part of core_test.c (see there); compiles to nothing on its own.
 */
#ifdef ACA_CORE_TEST_UNIT

#define FUZZ_MAX_DATA	(FAKE_NCPUS + 2)
#define FUZZ_MAX_PAYLOAD 8192

/* Every id the dispatch table knows, and a few it does not. */
static const u32 fuzz_ids[] = {
	SEP_CMD_RESERVE, SEP_CMD_INIT_DRIVER, SEP_CMD_START, SEP_CMD_STOP,
	SEP_CMD_PAUSE, SEP_CMD_RESUME, SEP_CMD_TERMINATE, SEP_CMD_GET_DRIVER_STATE,
	SEP_CMD_VERSION, SEP_CMD_GET_DRV_SETUP_INFO, SEP_CMD_NUM_CORES,
	SEP_CMD_GET_NORMALIZED_TSC, SEP_CMD_GET_NORMALIZED_TSC_STANDALONE,
	SEP_CMD_TSC_SKEW_INFO, SEP_CMD_GET_PLATFORM_INFO, SEP_CMD_COLLECT_SYS_CONFIG,
	SEP_CMD_GET_SYS_CONFIG, SEP_CMD_KERNEL_CS, SEP_CMD_GET_NUM_CORE_CTRS,
	SEP_CMD_GET_PERF_CAPAB, SEP_CMD_GET_NUM_SAMPLES, SEP_CMD_GET_SAMPLE_DROP_INFO,
	SEP_CMD_GET_THREAD_COUNT, SEP_CMD_SET_OSID, SEP_CMD_PAX_INFO,
	SEP_CMD_CONTROL_DRIVER_LOG, SEP_CMD_GET_DRIVER_LOG, SEP_CMD_READ_MSR,
	SEP_CMD_WRITE_MSR, SEP_CMD_INIT_NUM_DEV, SEP_CMD_SET_DEVICE_NUM_UNITS,
	SEP_CMD_SET_CPU_TOPOLOGY, SEP_CMD_NUM_DESCRIPTOR, SEP_CMD_DESC_NEXT,
	SEP_CMD_INIT, SEP_CMD_EM_GROUPS, SEP_CMD_EM_CONFIG_NEXT, SEP_CMD_INIT_PMU,
	SEP_CMD_INIT_UNC, SEP_CMD_EM_GROUPS_UNC, SEP_CMD_EM_CONFIG_NEXT_UNC,
	SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO, SEP_CMD_NONE, 18, 26, 89, 200,
};

/* The payload size a command usually has, and the reply it usually asks. */
static inline void fuzz_sizes(u32 id, u64 *to, u64 *from)
{
	*to = 0;
	*from = 0;
	switch (id) {
	case SEP_CMD_INIT_DRIVER: *to = sizeof(struct sep_drv_config); break;
	case SEP_CMD_SET_CPU_TOPOLOGY: *to = 72 * FAKE_NCPUS; break;
	case SEP_CMD_DESC_NEXT: *to = sizeof(struct sep_event_desc); break;
	case SEP_CMD_INIT: *to = sizeof(struct sep_dev_config); break;
	case SEP_CMD_INIT_UNC: *to = sizeof(struct sep_dev_unc_config); break;
	case SEP_CMD_EM_GROUPS:
	case SEP_CMD_EM_GROUPS_UNC: *to = sizeof(struct sep_event_config); break;
	case SEP_CMD_EM_CONFIG_NEXT: *to = 4720; *from = 48; break;
	case SEP_CMD_EM_CONFIG_NEXT_UNC: *to = 2680; *from = 48; break;
	case SEP_CMD_WRITE_MSR: *to = sizeof(struct sep_event_reg); break;
	case SEP_CMD_CONTROL_DRIVER_LOG: *to = *from = sizeof(struct sep_drv_log_control); break;
	case SEP_CMD_READ_MSR: *to = 4; *from = 8 * FAKE_NCPUS; break;
	case SEP_CMD_SET_OSID: case SEP_CMD_INIT_NUM_DEV: case SEP_CMD_NUM_DESCRIPTOR:
	case SEP_CMD_INIT_PMU: case SEP_CMD_SET_DEVICE_NUM_UNITS: *to = 4; break;
	case SEP_CMD_GET_DRV_SETUP_INFO: case SEP_CMD_TSC_SKEW_INFO:
	case SEP_CMD_PAX_INFO: *from = 32; break;
	case SEP_CMD_GET_NORMALIZED_TSC: case SEP_CMD_GET_NORMALIZED_TSC_STANDALONE:
	case SEP_CMD_GET_NUM_SAMPLES: *from = 8; break;
	case SEP_CMD_GET_PLATFORM_INFO: *from = sizeof(struct sep_drv_platform_info); break;
	case SEP_CMD_GET_SAMPLE_DROP_INFO: *from = sizeof(struct sep_sample_drop_info); break;
	case SEP_CMD_GET_PERF_CAPAB: *from = 8 * FAKE_NCPUS; break;
	case SEP_CMD_GET_SYS_CONFIG: *from = 248 + (168 + 20 * FAKE_CPUID_ENTRIES) * FAKE_NCPUS; break;
	case SEP_CMD_GET_DRIVER_LOG: *from = 64; break;
	default: *from = 4; break;
	}
}

/*
 * A payload that is mostly plausible for @id: the vectors, small counts;
 * one in @rare is pure noise, and the vectors get a bit flipped as often.
 */
static inline void fuzz_payload(struct tc_rng *rng, u8 *p, u64 len, u32 id,
				const u8 *ecb, const u8 *uecb, u32 rare)
{
	for (u64 i = 0; i < len; i++)
		p[i] = tc_rand(rng);
	if (tc_rand(rng) % rare == 0)
		return;			/* pure noise */
	memset(p, 0, len);
	if (id == SEP_CMD_EM_CONFIG_NEXT || id == SEP_CMD_EM_CONFIG_NEXT_UNC) {
		const u8 *v = id == SEP_CMD_EM_CONFIG_NEXT ? ecb : uecb;
		u64 n = id == SEP_CMD_EM_CONFIG_NEXT ? 4720 : 2680;

		memcpy(p, v, len < n ? len : n);
		for (u64 k = tc_rand(rng) % rare ? 0 : tc_range(rng, 1, 4); k && len; k--)
			p[tc_range(rng, 0, len - 1)] ^= 1u << tc_range(rng, 0, 7);
	} else if (id == SEP_CMD_INIT_DRIVER && len >= 48) {
		u64 cc = tc_rand(rng) % rare ? 0x4400 | (tc_rand(rng) & 1) : tc_rand(rng) & 0x3f;

		memcpy(p + 40, &cc, 8);
	} else if (id == SEP_CMD_EM_GROUPS && len >= 4) {
		p[0] = tc_rand(rng) % rare ? tc_range(rng, 1, 3) : 0;
	} else if (id == SEP_CMD_DESC_NEXT && len >= 4) {
		p[0] = tc_rand(rng) % 2 ? 48 : tc_rand(rng);
	} else if (id == SEP_CMD_READ_MSR && len >= 4) {
		u32 msrs[] = { 0x38f, 0xce, 0x10, 0x2be, 0x4c1, 0x345, 0x611 };
		u32 m = msrs[tc_range(rng, 0, 6)];

		memcpy(p, &m, 4);
	} else if (id == SEP_CMD_WRITE_MSR && len >= 56) {
		u32 m = tc_rand(rng) % 2 ? 0x186 : 0x1b0;

		memcpy(p + 8, &m, 4);
	} else if (len >= 4) {
		p[0] = tc_range(rng, 0, 70);
	}
}

static inline u64 fuzz_to(struct tc_rng *rng, u64 usual)
{
	switch (tc_range(rng, 0, 19)) {
	case 0 ... 5: return 0;
	case 6 ... 11: return usual;
	case 12 ... 14: return tc_range(rng, 1, 300);
	case 15 ... 16: return tc_range(rng, 1, FUZZ_MAX_PAYLOAD);
	case 17: return tc_range(rng, ACP_MAX_PAYLOAD + 1ull, ~0ull);
	case 18: return tc_range(rng, FUZZ_MAX_PAYLOAD + 1, ACP_MAX_PAYLOAD);
	default: return usual + tc_range(rng, 0, 2) - 1;
	}
}

static inline u64 fuzz_from(struct tc_rng *rng, u64 usual)
{
	switch (tc_range(rng, 0, 19)) {
	case 0 ... 7: return 0;
	case 8 ... 13: return usual;
	case 14 ... 17: return tc_range(rng, 1, 20000);
	case 18: return 1ull << 40;
	default: return tc_range(rng, ACP_MAX_REPLY + 1ull, ~0ull);
	}
}

/*
 * Append one request, spoilt in one way or another once in @rare. Returns
 * false once the stream must end (a payload too big to send was cut short:
 * the host vanishes there).
 */
static inline bool fuzz_request(struct tc_rng *rng, struct tc_stream *s, u32 id,
				u64 to, u64 from, const u8 *ecb, const u8 *uecb,
				u32 rare)
{
	static u8 payload[FUZZ_MAX_PAYLOAD];
	struct sep_control_msg_header h = tc_header(id, to, from);
	u64 n = to;

	if (tc_rand(rng) % (8 * rare) == 0)
		h.header_size = tc_rand(rng) % 2 ? tc_range(rng, 0, 100) : tc_rand(rng);
	if (tc_rand(rng) % (8 * rare) == 0)
		h.proto_version = tc_rand(rng);
	if (tc_rand(rng) % (8 * rare) == 0)
		h.status = tc_rand(rng);
	tc_stream_add(s, &h, sizeof(h));
	if (to > ACP_MAX_PAYLOAD)
		return true;		/* the target stops reading here */
	if (n > FUZZ_MAX_PAYLOAD) {
		/* Too big to bother: the host vanishes mid-payload. */
		n = tc_range(rng, 0, FUZZ_MAX_PAYLOAD);
		fuzz_payload(rng, payload, n, id, ecb, uecb, rare);
		tc_stream_add(s, payload, n);
		return false;
	}
	/* Sometimes the payload does not match the header: out of step. */
	if (tc_rand(rng) % (10 * rare) == 0)
		n = tc_range(rng, 0, n + 64 < FUZZ_MAX_PAYLOAD ? n + 64 : FUZZ_MAX_PAYLOAD);
	fuzz_payload(rng, payload, n, id, ecb, uecb, rare);
	tc_stream_add(s, payload, n);
	return true;
}

/* A session the way a host runs it, each step possibly spoilt. */
static inline void fuzz_script(struct tc_rng *rng, struct tc_stream *s,
			       const u8 *ecb, const u8 *uecb)
{
	static const u32 script[] = {
		SEP_CMD_SET_OSID, SEP_CMD_VERSION, SEP_CMD_GET_DRV_SETUP_INFO,
		SEP_CMD_COLLECT_SYS_CONFIG, SEP_CMD_GET_SYS_CONFIG,
		SEP_CMD_GET_PLATFORM_INFO, SEP_CMD_NUM_CORES, SEP_CMD_READ_MSR,
		SEP_CMD_CONTROL_DRIVER_LOG, SEP_CMD_INIT_NUM_DEV, SEP_CMD_RESERVE,
		SEP_CMD_INIT_DRIVER, SEP_CMD_SET_CPU_TOPOLOGY, SEP_CMD_NUM_DESCRIPTOR,
		SEP_CMD_DESC_NEXT, SEP_CMD_DESC_NEXT, SEP_CMD_INIT, SEP_CMD_EM_GROUPS,
		SEP_CMD_EM_CONFIG_NEXT, SEP_CMD_SET_DEVICE_NUM_UNITS, SEP_CMD_INIT_UNC,
		SEP_CMD_EM_GROUPS_UNC, SEP_CMD_EM_CONFIG_NEXT_UNC, SEP_CMD_INIT_PMU,
		SEP_CMD_START, SEP_CMD_PAUSE, SEP_CMD_RESUME, SEP_CMD_STOP,
		SEP_CMD_TSC_SKEW_INFO, SEP_CMD_GET_NUM_SAMPLES,
		SEP_CMD_GET_SAMPLE_DROP_INFO, SEP_CMD_TERMINATE,
	};

	for (size_t i = 0; i < sizeof(script) / sizeof(script[0]); i++) {
		u32 id = script[i];
		u64 to, from;
		int reps = 1;

		switch (tc_range(rng, 0, 99)) {
		case 0 ... 2: reps = 0; break;
		case 3 ... 4: reps = 2; break;
		case 5: id = fuzz_ids[tc_range(rng, 0, sizeof(fuzz_ids) / 4 - 1)]; break;
		case 6: id = tc_rand(rng); break;
		}
		while (reps--) {
			fuzz_sizes(id, &to, &from);
			if (tc_rand(rng) % 40 == 0)
				to = fuzz_to(rng, to);
			if (tc_rand(rng) % 20 == 0)
				from = fuzz_from(rng, from);
			if (!fuzz_request(rng, s, id, to, from, ecb, uecb, 16))
				return;
		}
	}
}

static inline void fuzz_random_requests(struct tc_rng *rng, struct tc_stream *s,
					const u8 *ecb, const u8 *uecb)
{
	for (u64 n = tc_range(rng, 0, 24); n; n--) {
		u32 id = tc_rand(rng) % 8 ? fuzz_ids[tc_range(rng, 0, sizeof(fuzz_ids) / 4 - 1)]
					  : (u32)tc_rand(rng);
		u64 to, from;

		fuzz_sizes(id, &to, &from);
		if (!fuzz_request(rng, s, id, fuzz_to(rng, to), fuzz_from(rng, from), ecb, uecb, 4))
			return;
	}
}

/*
 * Check a control channel's output against the bytes the host sent: parse
 * the sent stream as the target must (hello, then header + payload after
 * header + payload) and match every complete request with its response.
 */
static inline void fuzz_check(struct __test_metadata *_metadata,
			      const struct tc_stream *s, const struct tc_out *o,
			      u32 session)
{
	static struct tc_msg msgs[4096];
	struct sep_target_status_msg st;
	struct sep_control_first_msg hello;
	size_t off = sizeof(hello);
	int n, k = 0;

	ASSERT_EQ(o->total, o->len) TH_LOG("session %u: output buffer too small", session);
	if (s->len < sizeof(hello)) {
		EXPECT_EQ(0, o->total) TH_LOG("session %u: output without a hello", session);
		return;
	}
	n = tc_parse_output(o->buf, o->len, &st, msgs, 4096);
	ASSERT_LE(0, n) TH_LOG("session %u: output is not well framed", session);
	ASSERT_GE(4096, n);
	memcpy(&hello, s->buf, sizeof(hello));
	if (hello.msg_size != sizeof(hello)) {
		EXPECT_EQ(VT_COMM_NOT_COMPATIBLE, st.status) TH_LOG("session %u", session);
		EXPECT_EQ(0, n) TH_LOG("session %u: answers after a bad hello", session);
		return;
	}
	EXPECT_EQ(VT_SUCCESS, st.status) TH_LOG("session %u", session);
	while (s->len - off >= sizeof(struct sep_control_msg_header)) {
		struct sep_control_msg_header h;
		const struct sep_control_msg_header *r;
		s32 status;

		memcpy(&h, s->buf + off, sizeof(h));
		off += sizeof(h);
		if (h.to_target_data_size <= ACP_MAX_PAYLOAD) {
			if (s->len - off < h.to_target_data_size)
				break;		/* never complete: never answered */
			off += h.to_target_data_size;
			if (h.header_size == sizeof(h) && h.command_id == SEP_CMD_NONE)
				continue;	/* never answered */
		}
		ASSERT_GT(n, k) TH_LOG("session %u: request %d (command %u) unanswered",
				       session, k, h.command_id);
		r = &msgs[k++].h;
		status = r->status;
		ASSERT_EQ(h.command_id, r->command_id) TH_LOG("session %u, response %d", session, k - 1);
		if (status == VT_SUCCESS) {
			EXPECT_EQ(h.from_target_data_size, r->from_target_data_size)
				TH_LOG("session %u, response %d", session, k - 1);
		}
		/* The statuses this target has; 218 for bad headers only. */
		EXPECT_TRUE(status == VT_SUCCESS || status == VT_DRIVER_COMM_FAILED ||
			    status == VT_BAD_PARAMETER || status == VT_MSR_ACCESS_ERROR ||
			    status == VT_COMM_NOT_COMPATIBLE)
			TH_LOG("session %u: status %d", session, status);
		EXPECT_EQ(h.header_size != sizeof(h) || h.to_target_data_size > ACP_MAX_PAYLOAD,
			  status == VT_COMM_NOT_COMPATIBLE)
			TH_LOG("session %u, response %d: status %d", session, k - 1, status);
		if (h.to_target_data_size > ACP_MAX_PAYLOAD)
			break;			/* the session ended */
		if (h.command_id == SEP_CMD_TERMINATE && status == VT_SUCCESS)
			break;
	}
	EXPECT_EQ(n, k) TH_LOG("session %u: %d responses for %d requests", session, n, k);
}

/* Read every data channel to the end for now; returns the bytes read. */
static inline u64 fuzz_read_data(struct acp_conn *data, u32 nd, u64 *dtotal,
				 struct tc_out *dout)
{
	u64 got = 0;

	for (u32 i = 0; i < nd; i++) {
		u64 n;

		tc_out_reset(dout);
		n = tc_drain(&data[i], dout, 0);
		dtotal[i] += n;
		got += n;
	}
	return got;
}

/*
 * tc_feed(), with the host's data-channel readers: a STOP answer held back
 * until the channels are drained gets them read. -1: a real stall.
 */
static inline int fuzz_feed(struct acp_conn *ctl, const u8 *p, size_t len,
			    struct tc_out *o, struct acp_conn *data, u32 nd,
			    u64 *dtotal, struct tc_out *dout)
{
	while (len) {
		size_t k = acp_conn_input(ctl, p, len);

		if (k > len)
			return -1;
		if (!k && !tc_drain(ctl, o, 0) &&
		    !fuzz_read_data(data, nd, dtotal, dout))
			return -1;
		p += k;
		len -= k;
	}
	return 0;
}

TEST_F_TIMEOUT(core, garbage_streams_leave_no_trace, 300)
{
	static const u64 piece[] = { 8, 100, 8192 };
	const char *env_seed = getenv("ACA_FUZZ_SEED");
	const char *env_n = getenv("ACA_FUZZ_SESSIONS");
	u64 seed = env_seed ? strtoull(env_seed, NULL, 0) : 0x5eed;
	u32 sessions = env_n ? strtoul(env_n, NULL, 0) : 1000;
	struct tc_rng rng = { seed * 0x9e3779b97f4a7c15ull | 1 };
	const u8 *ecb = core_ecb(_metadata, self), *uecb = uncore_ecb(_metadata, self);
	struct acp_peer other = { .family = 2, .addr = { 192, 0, 2, 1 } };
	static const struct acp_peer local;
	struct tc_out dout = { .buf = (u8[64]){ 0 }, .cap = 64 };
	u32 modes[3] = { 0 };

	TH_LOG("seed 0x%llx, %u sessions", (unsigned long long)seed, sessions);
	for (u32 sn = 0; sn < sessions && !_metadata->exit_code; sn++) {
		struct acp_conn ctl, data[FUZZ_MAX_DATA], busy;
		u64 dtotal[FUZZ_MAX_DATA] = { 0 };
		bool released[FUZZ_MAX_DATA] = { 0 };
		struct tc_stream s = { 0 };
		u32 nd = tc_range(&rng, 0, FUZZ_MAX_DATA);
		u64 maxpiece = piece[tc_range(&rng, 0, 2)];
		bool with_busy = tc_rand(&rng) % 8 == 0;
		u32 mode = tc_range(&rng, 0, 9);
		size_t off = 0;

		/* The stream: noise, a hello and random requests, or a spoilt script. */
		if (mode < 2) {
			u64 len = tc_range(&rng, 0, 600);

			for (u64 i = 0; i < len; i++) {
				u8 b = tc_rand(&rng);

				tc_stream_add(&s, &b, 1);
			}
			modes[0]++;
		} else {
			struct sep_control_first_msg h = tc_hello(24);

			if (tc_rand(&rng) % 20 == 0)
				h.msg_size = tc_rand(&rng) % 2 ? tc_range(&rng, 0, 48) : tc_rand(&rng);
			tc_stream_add(&s, &h, sizeof(h));
			if (mode < 6) {
				fuzz_random_requests(&rng, &s, ecb, uecb);
				modes[1]++;
			} else {
				fuzz_script(&rng, &s, ecb, uecb);
				modes[2]++;
			}
			/* Less than a header of trailing garbage. */
			for (u64 i = tc_rand(&rng) % 4 ? 0 : tc_range(&rng, 1, 47); i; i--) {
				u8 b = tc_rand(&rng);

				tc_stream_add(&s, &b, 1);
			}
		}

		/* The connections: control first, then channels, maybe another host. */
		acp_conn_init(&ctl, &self->t, &ctl, NULL);
		acp_conn_set_privileged(&ctl, true);
		acp_conn_attach(&ctl, &local);
		for (u32 i = 0; i < nd; i++) {
			acp_conn_init(&data[i], &self->t, &data[i], NULL);
			acp_conn_set_privileged(&data[i], true);
			acp_conn_attach(&data[i], &local);
		}
		acp_conn_init(&busy, &self->t, &busy, NULL);
		if (with_busy)
			acp_conn_attach(&busy, &other);

		tc_out_reset(&self->out);
		while (off < s.len) {
			size_t n = tc_range(&rng, 1, maxpiece);

			if (n > s.len - off)
				n = s.len - off;
			ASSERT_EQ(0, fuzz_feed(&ctl, s.buf + off, n, &self->out,
					       data, nd, dtotal, &dout))
				TH_LOG("session %u: input stalled", sn);
			off += n;
			if (tc_rand(&rng) % 2)
				tc_drain(&ctl, &self->out, tc_range(&rng, 0, 64));
			if (nd && tc_rand(&rng) % 8 == 0) {
				u32 d = tc_range(&rng, 0, nd - 1);
				u8 junk[32];

				for (size_t i = 0; i < sizeof(junk); i++)
					junk[i] = tc_rand(&rng);
				EXPECT_EQ(sizeof(junk), acp_conn_input(&data[d], junk, sizeof(junk)));
				tc_out_reset(&dout);
				dtotal[d] += tc_drain(&data[d], &dout, tc_range(&rng, 0, 5));
			}
		}
		tc_drain(&ctl, &self->out, 0);
		fuzz_check(_metadata, &s, &self->out, sn);
		if (with_busy) {
			struct sep_control_first_msg h = tc_hello(24);
			struct sep_target_status_msg st;

			tc_out_reset(&self->out);
			ASSERT_EQ(0, tc_feed(&busy, &h, sizeof(h), 0, &self->out));
			tc_drain(&busy, &self->out, 0);
			ASSERT_EQ(sizeof(st), self->out.total);
			memcpy(&st, self->out.buf, sizeof(st));
			EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, st.status);
			EXPECT_TRUE(acp_conn_eof(&busy));
		}

		/* The host goes, in some order. */
		switch (tc_range(&rng, 0, 2)) {
		case 0:
			acp_conn_hangup(&ctl);
			tc_out_reset(&self->out);
			tc_drain(&ctl, &self->out, 0);
			EXPECT_TRUE(acp_conn_eof(&ctl));
			break;
		case 1:
			for (u32 i = 0; i < nd; i += 2) {
				acp_conn_release(&data[i]);
				released[i] = true;
			}
			break;
		}
		acp_conn_release(&ctl);
		EXPECT_EQ(NULL, self->t.control) TH_LOG("session %u outlived its control", sn);
		for (u32 i = 0; i < nd; i++) {
			if (released[i])
				continue;
			tc_out_reset(&dout);
			dtotal[i] += tc_drain(&data[i], &dout, 0);
			EXPECT_EQ(sizeof(struct sep_data_first_msg), dtotal[i])
				TH_LOG("session %u, channel %u", sn, i);
			EXPECT_TRUE(acp_conn_eof(&data[i]));
			acp_conn_release(&data[i]);
		}
		acp_conn_release(&busy);
		EXPECT_EQ(self->t.sysconfig ? 1 : 0, self->f.live)
			TH_LOG("session %u leaked", sn);
		EXPECT_FALSE(self->f.bad_free);
		EXPECT_FALSE(self->f.running) TH_LOG("session %u left sampling on", sn);
		EXPECT_EQ(0, self->f.misuse) TH_LOG("session %u: sampler misused", sn);
		EXPECT_GE(ACP_MAX_PAYLOAD, self->f.largest);
		tc_stream_free(&s);
	}
	TH_LOG("%u noise, %u random, %u scripted sessions; %u START, %u log lines",
	       modes[0], modes[1], modes[2], self->f.nstart, self->f.nlogs);
	EXPECT_LT(0, self->f.nstart) TH_LOG("no session ever started sampling");

	/* After all that, a host gets a clean target and a whole collection. */
	open_session(_metadata, self);
	EXPECT_EQ(SEP_STATE_UNINITIALIZED, driver_state(_metadata, self));
	goto_state(_metadata, self, ACP_STOPPED);
	for (u32 i = 0; i < self->ndata; i++)
		expect_eof(_metadata, self, self->data[i]);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
}

#endif /* ACA_CORE_TEST_UNIT */
