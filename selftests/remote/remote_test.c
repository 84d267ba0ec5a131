// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host-side selftests: talk TCP to aca-relay in a test VM (through a
 * forwarded loopback port) exactly as a VTune host would.
 *
 *   ACA_TARGET=127.0.0.1:19321   where the relay is reached
 *   ACA_EXPECT_SERIES=6.12       kernel series the target must report
 *   ACA_EXPECT_CPUS=2            CPU count the target must report
 *   ACA_HOST_BIN=build/aca-host  the host tool, for the "info" test
 *
 * The unprivileged_relay tests run in the guest instead
 * (selftests/vm/guest-suite: remote_test -f unprivileged_relay, and the
 * host runs the others with -F unprivileged_relay), against a relay
 * without capabilities that guest-suite starts on loopback:
 *   ACA_UNPRIV_RELAY=127.0.0.1:9332   where that relay listens
 *   ACA_UNPRIV_RELAY_PID=PID          its pid, to check its capabilities
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/status_check.h"
#include "../../tools/aca-host/channels.h"
#include "../../tools/aca-host/host.h"
#include "../../tools/aca-host/session.h"

#define READY_TIMEOUT_S	180

static const char *target(void)
{
	const char *t = getenv("ACA_TARGET");

	return t ? t : "127.0.0.1:9321";
}

static int expected_cpus(void)
{
	const char *c = getenv("ACA_EXPECT_CPUS");

	return c ? atoi(c) : 0;
}

static int connect_target(void)
{
	return host_connect(target(), 30);
}

/* Connect and hand-shake; returns the socket or -1. */
static int handshake(struct sep_target_status_msg *s, uint32_t msg_size)
{
	struct sep_control_first_msg hello = sep_hello(msg_size);
	int fd = connect_target();

	if (fd < 0)
		return -1;
	if (host_send(fd, &hello, sizeof(hello)) || host_recv(fd, s, sizeof(*s))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* End a control connection the way hosts do: TERMINATE, then EOF. */
static int terminate(int fd)
{
	struct host_session s = { .ctl = fd };
	int st = host_command(&s, SEP_CMD_TERMINATE, NULL, 0, NULL, 0);
	long long rest = host_drain(fd);

	close(fd);
	return st == VT_SUCCESS && rest == 0 ? 0 : -1;
}

/*
 * A full session with every channel; retried while an earlier session
 * that ended without TERMINATE is still being torn down.
 */
static int open_session_at(struct host_session *s, const char *where)
{
	for (int i = 0; i < 100; i++) {
		if (!host_session_open(s, where, 1) && s->status.status == VT_SUCCESS)
			return 0;
		if (s->ctl >= 0 && s->status.status)
			close(s->ctl);
		usleep(100 * 1000);
	}
	return -1;
}

static int open_session(struct host_session *s)
{
	return open_session_at(s, target());
}

TEST(hello_gets_status_through_relay)
{
	const char *series = getenv("ACA_EXPECT_SERIES");
	struct sep_target_status_msg s;
	int fd = handshake(&s, sizeof(struct sep_control_first_msg));

	ASSERT_LE(0, fd);
	check_status_layout(_metadata, &s, VT_SUCCESS);
	if (series) {
		size_t n = strlen(series);

		EXPECT_EQ(0, strncmp(series, s.os_info.release, n));
		EXPECT_EQ('.', s.os_info.release[n]);
	}
	if (expected_cpus())
		EXPECT_EQ(expected_cpus(), s.hardware_info.num_cpus);
	EXPECT_EQ(0, terminate(fd));
}

TEST(bad_hello_gets_218_and_close)
{
	struct sep_target_status_msg s;
	int fd = handshake(&s, 3);

	ASSERT_LE(0, fd);
	check_status_layout(_metadata, &s, VT_COMM_NOT_COMPATIBLE);
	EXPECT_EQ(0, host_drain(fd));
	close(fd);
}

TEST(fragmented_hello_over_tcp)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	const char *p = (const char *)&hello;
	int fd = connect_target();

	ASSERT_LE(0, fd);
	for (size_t i = 0; i < sizeof(hello); i++) {
		ASSERT_EQ(0, host_send(fd, p + i, 1));
		usleep(2000);
	}
	ASSERT_EQ(0, host_recv(fd, &s, sizeof(s)));
	check_status_layout(_metadata, &s, VT_SUCCESS);
	EXPECT_EQ(0, terminate(fd));
}

TEST(half_close_still_gets_reply_then_eof)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	int fd = connect_target();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, host_send(fd, &hello, sizeof(hello)));
	ASSERT_EQ(0, shutdown(fd, SHUT_WR));
	ASSERT_EQ(0, host_recv(fd, &s, sizeof(s)));
	EXPECT_EQ(0, s.status);
	EXPECT_EQ(0, host_drain(fd));
	close(fd);
}

/* Channels in spec 3.1 order, each announced by its first message. */
TEST(session_opens_every_data_channel_in_order)
{
	struct host_session s;

	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(s.ncpus + 2, s.ndata);
	if (expected_cpus())
		EXPECT_EQ(expected_cpus(), s.ncpus);
	for (uint32_t i = 0; i < s.ncpus; i++) {
		EXPECT_EQ(SEP_DATA_CPU, s.first[i].data_type);
		EXPECT_EQ(i, s.first[i].data_id);
	}
	EXPECT_EQ(SEP_DATA_UNCORE, s.first[s.ncpus].data_type);
	EXPECT_EQ(SEP_DATA_MODULE, s.first[s.ncpus + 1].data_type);
	EXPECT_EQ(0, host_session_close(&s));
}

TEST(normalized_tsc_never_decreases_and_num_cores)
{
	struct host_session s;
	uint64_t prev = 0, tsc;
	int32_t cores;

	ASSERT_EQ(0, open_session(&s));
	for (int i = 0; i < 100; i++) {
		ASSERT_EQ(0, host_command(&s, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, &tsc, 8));
		EXPECT_LE(prev, tsc);
		prev = tsc;
	}
	ASSERT_EQ(0, host_command(&s, SEP_CMD_NUM_CORES, NULL, 0, &cores, 4));
	EXPECT_EQ(s.ncpus, cores);
	if (expected_cpus())
		EXPECT_EQ(expected_cpus(), cores);
	EXPECT_EQ(0, host_session_close(&s));
}

TEST(second_host_gets_busy_219)
{
	struct sep_target_status_msg busy;
	struct host_session s;
	uint32_t version;
	int fd;

	ASSERT_EQ(0, open_session(&s));
	fd = handshake(&busy, sizeof(struct sep_control_first_msg));
	ASSERT_LE(0, fd);
	check_status_layout(_metadata, &busy, VT_COMM_DATA_CHANNEL_UNAVAILABLE);
	EXPECT_EQ(0, host_drain(fd));
	close(fd);
	/* The first host is undisturbed. */
	ASSERT_EQ(0, host_command(&s, SEP_CMD_VERSION, NULL, 0, &version, 4));
	EXPECT_EQ(SEP_DRIVER_VERSION, version);
	EXPECT_EQ(0, host_session_close(&s));
}

/* TERMINATE releases the reservation: the next host can reserve. */
TEST(reservation_ends_with_the_session)
{
	struct host_session s;
	int32_t busy = -1;

	for (int round = 0; round < 2; round++) {
		ASSERT_EQ(0, open_session(&s));
		ASSERT_EQ(0, host_command(&s, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
		EXPECT_EQ(0, busy);
		ASSERT_EQ(0, host_command(&s, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
		EXPECT_EQ(1, busy);
		EXPECT_EQ(0, host_session_close(&s));
	}
}

/* Control EOF ends the session as TERMINATE would: data channels end. */
TEST(control_eof_ends_session)
{
	struct host_session s;
	int32_t busy = -1;

	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, host_command(&s, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
	close(s.ctl);
	for (uint32_t i = 0; i < s.ndata; i++) {
		EXPECT_EQ(0, host_drain(s.data[i]));
		close(s.data[i]);
	}
	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, host_command(&s, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
	EXPECT_EQ(0, busy);
	EXPECT_EQ(0, host_session_close(&s));
}

/* READ_MSR of @msr on every CPU into @vals (s->ncpus of them). */
static int read_msr(struct host_session *s, uint32_t msr, uint64_t *vals)
{
	return host_command(s, SEP_CMD_READ_MSR, &msr, sizeof(msr), vals,
			    8ull * s->ncpus);
}

/*
 * aca writes no MSR: perf owns the PMU. WRITE_MSR of IA32_PERF_GLOBAL_CTRL
 * (which would stop every counter on the machine) is refused with 196, and
 * the register reads the same before and after. Under TCG the VM has no
 * PMU and the register reads 0 both times: there the status is what this
 * shows; with a PMU (KVM), the values too.
 */
TEST(write_msr_of_global_ctrl_is_refused_and_changes_nothing)
{
	struct sep_event_reg reg = { .event_reg_id.reg_id = 0x38f, .reg_value = 0 };
	struct host_session s;
	uint64_t *before, *after;

	ASSERT_EQ(0, open_session(&s));
	before = calloc(s.ncpus, 8);
	after = calloc(s.ncpus, 8);
	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	ASSERT_EQ(VT_SUCCESS, read_msr(&s, 0x38f, before));
	EXPECT_EQ(VT_MSR_ACCESS_ERROR,
		  host_command(&s, SEP_CMD_WRITE_MSR, &reg, sizeof(reg), NULL, 0));
	ASSERT_EQ(VT_SUCCESS, read_msr(&s, 0x38f, after));
	for (uint32_t cpu = 0; cpu < s.ncpus; cpu++) {
		EXPECT_EQ(before[cpu], after[cpu]) TH_LOG("CPU %u", cpu);
	}
	/* The session goes on. */
	EXPECT_EQ(0, host_session_close(&s));
	free(before);
	free(after);
}

/*
 * RAPL energy counters need CAP_PERFMON in the opener's credentials: the
 * VM's relay runs as root, so its session reads them (a relay without
 * capabilities is refused: the unprivileged_relay tests below).
 */
TEST(read_msr_of_pkg_energy_status_answers_a_privileged_relay)
{
	struct host_session s;
	uint64_t *vals;

	ASSERT_EQ(0, open_session(&s));
	vals = calloc(s.ncpus, 8);
	ASSERT_NE(NULL, vals);
	EXPECT_EQ(0, read_msr(&s, 0x611, vals));
	EXPECT_EQ(0, host_session_close(&s));
	free(vals);
}

#define ECB_SLOTS		22
#define ECB_FIXED_START		9
#define ECB_MASK_48		0xffffffffffffull

/*
 * A core ECB (spec 6) of @nslots slots, sampling fixed counter 2 (REF_TSC)
 * every 2,200,000 cycles, in the slot layout of the spec's vector, with
 * @nfixed fixed counter slots; calloc()ed, its length in *@len.
 */
/* An ECB of one event of @device with @nslots slots, zeroed: calloc()ed, its length in *@len. */
static uint8_t *ecb_alloc(uint32_t device, uint32_t nslots, size_t *len)
{
	size_t size = sizeof(struct sep_ecb) + nslots * sizeof(struct sep_event_reg);
	uint8_t *buf = calloc(1, size);
	struct sep_ecb *h = (struct sep_ecb *)buf;

	if (!buf)
		return NULL;
	h->version = SEP_ECB_VERSION;
	h->num_entries = nslots;
	h->num_events = 1;
	h->size_of_allocation = size;
	h->device_type = device;
	*len = size;
	return buf;
}

static uint8_t *ref_tsc_ecb(uint32_t nslots, uint32_t nfixed, size_t *len)
{
	uint8_t *buf = ecb_alloc(SEP_DEVICE_CORE, nslots, len);
	struct sep_ecb *h = (struct sep_ecb *)buf;
	struct sep_event_reg *r = (struct sep_event_reg *)(buf + sizeof(*h));

	if (!buf)
		return NULL;
	h->operations[SEP_OP_GLOBAL_REGS] = (struct sep_pmu_operation){
		.operation_type = SEP_OP_GLOBAL_REGS, .register_len = 5,
	};
	h->operations[SEP_OP_DATA_FIXED] = (struct sep_pmu_operation){
		.operation_type = SEP_OP_DATA_FIXED,
		.register_start = ECB_FIXED_START, .register_len = nfixed,
	};
	r[0].event_reg_id.reg_id = 0x38f;	/* GLOBAL_CTRL: fixed counter 2 */
	r[0].reg_value = 1ull << 34;
	r[4].event_reg_id.reg_id = 0x38d;	/* FIXED_CTR_CTRL: OS, USR, PMI */
	r[4].reg_value = 0xbull << 8;
	r[ECB_FIXED_START + 2].event_reg_id.reg_id = 0x30b;
	r[ECB_FIXED_START + 2].reg_value = ECB_MASK_48 + 1 - 2200000;
	r[ECB_FIXED_START + 2].max_bits = ECB_MASK_48;
	r[ECB_FIXED_START + 2].flags = SEP_EVREG_FIXED_REG;
	return buf;
}

/* RESERVE, INIT_DRIVER and EM_GROUPS: ready for an ECB in group 0. */
static int configure(struct host_session *s)
{
	struct sep_drv_config dc = { .size = sizeof(dc), .version = SEP_DRV_CONFIG_VERSION };
	struct sep_event_config ec = { .num_groups = 1, .em_factor = -1, .em_event_num = -1 };
	int32_t busy = -1;

	if (host_command(s, SEP_CMD_RESERVE, NULL, 0, &busy, 4) || busy)
		return -1;
	if (host_command(s, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), NULL, 0))
		return -1;
	return host_command(s, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), NULL, 0) ? -1 : 0;
}

/*
 * A sample-after value with bit 63 (a 64-bit counter mask) never reaches
 * perf: the ECB is refused (159, as every refused ECB). The same ECB with
 * the real 48-bit mask is accepted, so the refusal is the mask's.
 */
TEST(ecb_with_a_bit_63_period_is_refused)
{
	struct host_session s;
	struct sep_event_reg *r;
	size_t len;
	uint8_t *ecb = ref_tsc_ecb(ECB_SLOTS, 3, &len);

	ASSERT_NE(NULL, ecb);
	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, configure(&s));
	r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb)) + ECB_FIXED_START + 2;
	r->max_bits = ~0ull;
	r->reg_value = 1;		/* sample after 2^64 - 1 */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  host_command(&s, SEP_CMD_EM_CONFIG_NEXT, ecb, len, NULL, 0));
	r->max_bits = ECB_MASK_48;
	r->reg_value = ECB_MASK_48 + 1 - 2200000;
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_EM_CONFIG_NEXT, ecb, len, NULL, 0));
	EXPECT_EQ(0, host_session_close(&s));
	free(ecb);
}

/*
 * Start reading every data channel of @s into a temporary file of its own
 * (@files[i] for channel i): STOP answers once they are drained.
 */
static int chans_to_files(struct chan_set *cs, const struct host_session *s, FILE **files)
{
	cs->n = s->ndata;
	cs->ch = calloc(cs->n, sizeof(*cs->ch));
	if (!cs->ch)
		return -1;
	for (uint32_t i = 0; i < cs->n; i++) {
		files[i] = tmpfile();
		if (!files[i])
			return -1;
		cs->ch[i].fd = s->data[i];
		cs->ch[i].out = fileno(files[i]);
		snprintf(cs->ch[i].name, sizeof(cs->ch[i].name), "%u", i);
	}
	return chans_start(cs);
}

/*
 * The samples of the CPU channels' files @files (@n of them, 48-byte
 * records) that lie outside every window of @w (@nw of them) of their own
 * group (group g samples with event index g); *@total counts them all.
 */
static uint32_t outside_windows(FILE **files, uint32_t n,
				const struct aca_group_window *w, uint32_t nw,
				uint32_t *total)
{
	struct sep_sample_record_pc rec;
	uint32_t outside = 0;

	*total = 0;
	for (uint32_t i = 0; i < n; i++) {
		rewind(files[i]);
		while (fread(&rec, sizeof(rec), 1, files[i]) == 1) {
			uint32_t k = 0;

			while (k < nw && !(w[k].group == rec.descriptor_id &&
					   w[k].on_tsc < rec.tsc && rec.tsc < w[k].off_tsc))
				k++;
			outside += k == nw;
			(*total)++;
		}
	}
	return outside;
}

/*
 * Multiplexing by SWITCH_GROUP alone (em_mode -1: no timer): two groups of
 * one REF_TSC event each (event indices 0 and 1), switched twice, once while
 * paused. GROUP_TIMES then lists three windows of groups 0, 1, 0, in time
 * order, every sample of the CPU channels lies inside a window of its own
 * group, and SWITCH_GROUP after STOP is refused. The data channels are read
 * into files meanwhile: STOP answers once they are drained.
 */
TEST(switch_group_moves_sampling_to_the_next_group)
{
	struct sep_drv_config dc = { .size = sizeof(dc), .version = SEP_DRV_CONFIG_VERSION };
	struct sep_event_config ec = { .num_groups = 2, .em_mode = SEP_EM_DISABLED,
				       .em_factor = -1, .em_event_num = -1 };
	struct {
		struct aca_group_times_head h;
		struct aca_group_time g[2];
		struct aca_group_window w[4];
	} t;
	struct chan_set cs = { 0 };
	struct host_session s;
	struct sep_event_reg *r;
	FILE *files[HOST_MAX_CHANNELS];
	uint32_t total = 0;
	int32_t busy = -1;
	size_t len;
	uint8_t *ecb = ref_tsc_ecb(ECB_SLOTS, 3, &len);

	ASSERT_NE(NULL, ecb);
	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, host_command(&s, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
	ASSERT_EQ(0, busy);
	ASSERT_EQ(0, host_command(&s, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), NULL, 0));
	ASSERT_EQ(0, host_command(&s, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), NULL, 0));
	r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb)) + ECB_FIXED_START + 2;
	for (uint32_t g = 0; g < 2; g++) {
		((struct sep_ecb *)ecb)->group_id = g;
		r->event_id_index = g;
		ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_EM_CONFIG_NEXT, ecb, len, NULL, 0));
	}
	ASSERT_EQ(0, chans_to_files(&cs, &s, files));
	ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_START, NULL, 0, NULL, 0));
	usleep(200000);
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_SWITCH_GROUP, NULL, 0, NULL, 0));
	usleep(200000);
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_PAUSE, NULL, 0, NULL, 0));
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_SWITCH_GROUP, NULL, 0, NULL, 0));
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_RESUME, NULL, 0, NULL, 0));
	usleep(200000);
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_STOP, NULL, 0, NULL, 0));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  host_command(&s, SEP_CMD_SWITCH_GROUP, NULL, 0, NULL, 0));
	ASSERT_EQ(VT_SUCCESS, host_command(&s, ACA_CMD_GROUP_TIMES, NULL, 0, &t, sizeof(t)));
	EXPECT_EQ(2, t.h.ngroups);
	EXPECT_EQ(3, t.h.nwindows);
	EXPECT_EQ(0, t.h.windows_lost);
	EXPECT_EQ(0, t.h.switch_ms);
	EXPECT_EQ(2, t.h.switches);
	EXPECT_EQ(0, t.g[0].group);
	EXPECT_EQ(2, t.g[0].windows);
	EXPECT_EQ(1, t.g[1].group);
	EXPECT_EQ(1, t.g[1].windows);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(i == 1, t.w[i].group) TH_LOG("window %d", i);
		EXPECT_LT(t.w[i].on_tsc, t.w[i].off_tsc);
		if (i)
			EXPECT_LE(t.w[i - 1].off_tsc, t.w[i].on_tsc);
	}
	EXPECT_EQ(t.g[0].running_tsc, (t.w[0].off_tsc - t.w[0].on_tsc) +
				      (t.w[2].off_tsc - t.w[2].on_tsc));
	EXPECT_EQ(0, chans_wait(&cs, 10000));	/* EOF after STOP */
	chans_stop(&cs);
	/*
	 * The first ncpus channels are the CPUs' (spec 3.1). The target idles
	 * (cpu-clock skips idle): how many samples there are is its business,
	 * that none lies outside its group's windows is the test's.
	 */
	EXPECT_EQ(0, outside_windows(files, s.ncpus, t.w, 3, &total));
	ksft_print_msg("%u samples, each in a window of its group\n", total);
	EXPECT_EQ(0, host_session_close(&s));
	for (uint32_t i = 0; i < cs.n; i++)
		fclose(files[i]);
	free(cs.ch);
	free(ecb);
}

/*
 * Counting mode's ECB for group @group: PMC0 as the [ACA-EXT] software event
 * @sw (every ring), no sample-after value; the fixed counter is off.
 */
static uint8_t *software_ecb(uint32_t group, uint64_t sw, size_t *len)
{
	uint8_t *buf = ref_tsc_ecb(ECB_SLOTS, 3, len);
	struct sep_ecb *h = (struct sep_ecb *)buf;
	struct sep_event_reg *r = (struct sep_event_reg *)(buf + sizeof(*h));

	if (!buf)
		return NULL;
	h->group_id = group;
	h->operations[SEP_OP_CTRL_GP] = (struct sep_pmu_operation){
		.operation_type = SEP_OP_CTRL_GP, .register_start = 5, .register_len = 1,
	};
	h->operations[SEP_OP_DATA_GP] = (struct sep_pmu_operation){
		.operation_type = SEP_OP_DATA_GP, .register_start = 12, .register_len = 1,
	};
	r[0].reg_value = 1;			/* GLOBAL_CTRL: PMC0 only */
	r[5].event_reg_id.reg_id = ACA_SW_EVENT_SELECT;
	r[5].reg_value = sw | 0x30000;		/* USR, OS */
	r[5].event_id_index = group;
	r[12].event_reg_id.reg_id = 0xc1;
	r[12].max_bits = ECB_MASK_48;
	r[12].flags = SEP_EVREG_IS_GP_REG;
	r[12].event_id_index = group;
	return buf;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The target's clock now (GET_NORMALIZED_TSC, its records' TSC); 0 if none. */
static uint64_t target_tsc(struct host_session *s)
{
	uint64_t tsc = 0;

	if (host_command(s, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, &tsc, 8))
		return 0;
	return tsc;
}

/*
 * [ACA-EXT] Counting mode with emon_timer_interval 100 ms, task-clock, for
 * 1 s, then 300 ms paused before STOP: each CPU channel carries a record
 * every 100 ms while counting and one at STOP, nothing else: its head
 * right (kind, size, group 0, one event), TSCs increasing, each delta the
 * time since the previous read, the TSC deltas adding up to START..STOP
 * and the counts to the CPU's task-clock until PAUSE (between half and all
 * of the time, idle included, as the READ_AND_RESET test): STOP's record
 * keeps what counted between the last tick and the pause. The spans are
 * the target's, from its TSC read before and after each command: a guest
 * under QEMU's icount keeps a clock of its own, behind the host's when the
 * host is loaded (tools/vm-selftests' timed part).
 */
TEST(counting_mode_emon_timer_streams_each_cpus_counts)
{
	struct sep_drv_config dc = { .size = sizeof(dc), .version = SEP_DRV_CONFIG_VERSION,
				     .collection_config = SEP_DRV_CFG_COUNTING_MODE,
				     .emon_timer_interval = 100 };
	struct sep_event_config ec = { .num_groups = 1, .em_mode = SEP_EM_DISABLED,
				       .em_factor = -1, .em_event_num = -1 };
	FILE *files[HOST_MAX_CHANNELS];
	struct chan_set cs = { 0 };
	struct host_session s;
	int32_t busy = -1;
	uint64_t tsc_sent, tsc0, all_tsc;
	double ns, all_ns;
	size_t len;
	uint8_t *ecb = software_ecb(0, ACA_SW_TASK_CLOCK, &len);

	ASSERT_NE(NULL, ecb);
	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, host_command(&s, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
	ASSERT_EQ(0, busy);
	ASSERT_EQ(0, host_command(&s, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), NULL, 0));
	ASSERT_EQ(0, host_command(&s, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), NULL, 0));
	ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_EM_CONFIG_NEXT, ecb, len, NULL, 0));
	free(ecb);
	ASSERT_EQ(0, chans_to_files(&cs, &s, files));
	tsc_sent = target_tsc(&s);
	ASSERT_NE(0, tsc_sent);
	ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_START, NULL, 0, NULL, 0));
	tsc0 = target_tsc(&s);
	usleep(1050000);
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_PAUSE, NULL, 0, NULL, 0));
	ns = (target_tsc(&s) - tsc0) * 1e9 / s.status.hardware_info.tsc_freq;
	usleep(300000);
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_STOP, NULL, 0, NULL, 0));
	/* From before START was sent to STOP's answer: brackets the target's START..STOP. */
	all_tsc = target_tsc(&s) - tsc_sent;
	all_ns = all_tsc * 1e9 / s.status.hardware_info.tsc_freq;
	EXPECT_EQ(0, chans_wait(&cs, 10000));
	chans_stop(&cs);
	for (uint32_t cpu = 0; cpu < s.ncpus; cpu++) {
		struct {
			struct aca_emon_record_head h;
			uint64_t count;
		} r;
		uint64_t prev = 0, tsc_sum = 0, clock = 0;
		uint32_t n = 0, bad = 0;
		long size = (fseek(files[cpu], 0, SEEK_END), ftell(files[cpu]));

		EXPECT_EQ(0, size % (long)sizeof(r)) TH_LOG("CPU %u: %ld bytes", cpu, size);
		rewind(files[cpu]);
		while (fread(&r, sizeof(r), 1, files[cpu]) == 1) {
			n++;
			bad += r.h.kind != ACA_EMON_RECORD_KIND || r.h.size != sizeof(r) ||
			       r.h.group || r.h.nevents != 1 || r.h.tsc <= prev ||
			       (prev && r.h.tsc - prev != r.h.tsc_delta);
			prev = r.h.tsc;
			tsc_sum += r.h.tsc_delta;
			clock += r.count;
		}
		ksft_print_msg("figure: CPU %u: %u EMON records every 100 ms in %.0f ms counting (%.0f ms to STOP), task-clock %.1f ms, %u malformed\n",
			       cpu, n, ns / 1e6, all_ns / 1e6, clock / 1e6, bad);
		/* 10 ticks and STOP's, give or take a late work item or two. */
		EXPECT_LE(8, n) TH_LOG("CPU %u", cpu);
		EXPECT_GE(12, n) TH_LOG("CPU %u", cpu);
		EXPECT_EQ(0, bad) TH_LOG("CPU %u", cpu);
		EXPECT_LE(0.5 * ns, clock) TH_LOG("CPU %u", cpu);
		EXPECT_GE(1.05 * ns, clock) TH_LOG("CPU %u", cpu);
		/* The deltas cover START to STOP, which all_tsc brackets. */
		EXPECT_LE(0.9 * all_tsc, tsc_sum) TH_LOG("CPU %u", cpu);
		EXPECT_GE(all_tsc, tsc_sum) TH_LOG("CPU %u", cpu);
	}
	EXPECT_EQ(0, host_session_close(&s));
	for (uint32_t i = 0; i < cs.n; i++)
		fclose(files[i]);
	free(cs.ch);
}

/*
 * Counting mode through the relay: group 0 counts task-clock, group 1
 * context-switches. READ_AND_RESET answers a TSC delta per CPU, the same for
 * all, then each CPU's task-clock, which counted (idle included, as a
 * CPU-wide perf event does) the time since START: between half of it and
 * all of it, per CPU. READ_SWITCH_GROUP reads group 0 once more and moves
 * to group 1, whose context switches then include one at least for every
 * other of the 100 commands this test sends (each wakes the relay).
 * Nothing samples and no module is recorded: every data channel ends at
 * STOP without a byte.
 * Both reads are refused after STOP.
 */
TEST(counting_mode_reads_each_cpus_counts_then_switches_group)
{
	struct sep_drv_config dc = { .size = sizeof(dc), .version = SEP_DRV_CONFIG_VERSION,
				     .collection_config = SEP_DRV_CFG_COUNTING_MODE };
	struct sep_event_config ec = { .num_groups = 2, .em_mode = SEP_EM_DISABLED,
				       .em_factor = -1, .em_event_num = -1 };
	static const uint64_t sw[] = { ACA_SW_TASK_CLOCK, ACA_SW_CONTEXT_SWITCHES };
	struct chan_set cs = { 0 };
	struct host_session s;
	uint64_t *rd, switches = 0;
	FILE *files[HOST_MAX_CHANNELS];
	int32_t busy = -1;
	uint64_t tsc0;
	double ns;
	size_t len, rd_len;
	uint32_t state;

	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, host_command(&s, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
	ASSERT_EQ(0, busy);
	ASSERT_EQ(0, host_command(&s, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), NULL, 0));
	ASSERT_EQ(0, host_command(&s, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), NULL, 0));
	for (uint32_t g = 0; g < 2; g++) {
		uint8_t *ecb = software_ecb(g, sw[g], &len);

		ASSERT_NE(NULL, ecb);
		ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_EM_CONFIG_NEXT, ecb, len, NULL, 0));
		free(ecb);
	}
	rd_len = 2 * s.ncpus * sizeof(uint64_t);
	rd = calloc(1, rd_len);
	ASSERT_NE(NULL, rd);
	ASSERT_EQ(0, chans_to_files(&cs, &s, files));
	ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_START, NULL, 0, NULL, 0));
	/* The target's time, as the EMON timer test's. */
	tsc0 = target_tsc(&s);
	ASSERT_NE(0, tsc0);
	usleep(500000);
	ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_READ_AND_RESET, NULL, 0, rd, rd_len));
	ns = (target_tsc(&s) - tsc0) * 1e9 / s.status.hardware_info.tsc_freq;
	for (uint32_t cpu = 0; cpu < s.ncpus; cpu++) {
		uint64_t clock = rd[s.ncpus + cpu];

		EXPECT_EQ(rd[0], rd[cpu]) TH_LOG("CPU %u's TSC delta", cpu);
		EXPECT_LE(0.5 * ns, clock) TH_LOG("CPU %u: task-clock %llu ns in %.0f ns",
						 cpu, (unsigned long long)clock, ns);
		EXPECT_GE(ns * 1.05, clock) TH_LOG("CPU %u: task-clock %llu ns in %.0f ns",
						  cpu, (unsigned long long)clock, ns);
	}
	EXPECT_LT(0, rd[0]);
	ksft_print_msg("task-clock of CPU 0: %.1f ms in %.1f ms\n", rd[s.ncpus] / 1e6, ns / 1e6);
	ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_READ_SWITCH_GROUP, NULL, 0, rd, rd_len));
	for (int i = 0; i < 100; i++)
		ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_GET_DRIVER_STATE, NULL, 0, &state, 4));
	ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_READ_AND_RESET, NULL, 0, rd, rd_len));
	for (uint32_t cpu = 0; cpu < s.ncpus; cpu++)
		switches += rd[s.ncpus + cpu];
	EXPECT_LE(50, switches);
	/* Not task-clock's nanoseconds: READ_SWITCH_GROUP did switch. */
	EXPECT_GT(100000, switches);
	ksft_print_msg("context-switches, all CPUs: %llu (100 commands)\n",
		       (unsigned long long)switches);
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_STOP, NULL, 0, NULL, 0));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  host_command(&s, SEP_CMD_READ_AND_RESET, NULL, 0, rd, rd_len));
	EXPECT_EQ(0, chans_wait(&cs, 10000));	/* EOF after STOP */
	chans_stop(&cs);
	for (uint32_t i = 0; i < cs.n; i++) {
		EXPECT_EQ(0, lseek(fileno(files[i]), 0, SEEK_END)) TH_LOG("data channel %u", i);
		fclose(files[i]);
	}
	EXPECT_EQ(0, host_session_close(&s));
	free(cs.ch);
	free(rd);
}

/* ---- uncore (spec 5.5, 6.10, 7.2) ---- */

/*
 * The stand-in PMUs of selftests/vm/uncore-stub: CHA events count their
 * umask per microsecond, the ubox's fixed counter nanoseconds.
 */
#define UNC_CHA_UMASK		3
#define UNC_REC			48	/* descriptor 1's records */
#define UNC_GROUP_OFF		32
#define UNC_COUNT_OFF		40

/*
 * The registers of the stand-ins' boxes on the target's model (its status
 * message's): a Sandy or Ivy Bridge-EP's (model 0x2d, 0x3e) CBo 0 select 0
 * and counter 0 and ubox fixed counter, else a Skylake-SP's CHA 0 and ubox
 * (a Haswell-EP's CBo 0 and ubox are at the same addresses).
 */
struct unc_regs {
	uint32_t sel, ctr, fixed;
};

static struct unc_regs unc_regs_of(const struct host_session *s)
{
	if (s->status.hardware_info.family == 6 &&
	    (s->status.hardware_info.model == 0x2d || s->status.hardware_info.model == 0x3e))
		return (struct unc_regs){ 0xd10, 0xd16, 0xc09 };
	return (struct unc_regs){ 0xe01, 0xe08, 0x704 };
}

/* One uncore counter's ECB: CHA (CBo) 0's counter 0 (umask 3), or the ubox's fixed counter. */
static uint8_t *unc_ecb(struct unc_regs regs, bool fixed, size_t *len)
{
	uint8_t *buf = ecb_alloc(fixed ? SEP_DEVICE_UNC_UBOX : SEP_DEVICE_UNC_CHA, 2, len);
	struct sep_ecb *h = (struct sep_ecb *)buf;
	struct sep_event_reg *r = (struct sep_event_reg *)(buf + sizeof(*h));

	if (!buf)
		return NULL;
	h->group_offset = UNC_GROUP_OFF;
	h->descriptor_id = 1;
	h->operations[SEP_OP_WRITE] = (struct sep_pmu_operation){
		.operation_type = SEP_OP_WRITE, .register_start = 0, .register_len = 1,
	};
	h->operations[SEP_OP_READ] = (struct sep_pmu_operation){
		.operation_type = SEP_OP_READ, .register_start = 1, .register_len = 1,
	};
	if (!fixed) {
		r[0].event_reg_id.reg_id = regs.sel;	/* CHA 0's select 0: umask, enable */
		r[0].reg_value = UNC_CHA_UMASK << 8 | 1 << 22;
		r[0].reg_prog_type = SEP_REG_PROG_MSR;
	}
	r[1].event_reg_id.reg_id = fixed ? regs.fixed : regs.ctr;
	r[1].reg_prog_type = SEP_REG_PROG_MSR;
	r[1].counter_event_offset = UNC_COUNT_OFF;
	r[1].event_id_index = fixed ? 2 : 1;
	r[1].max_bits = ECB_MASK_48;
	return buf;
}

static uint64_t u64_at(const uint8_t *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

/*
 * A session configured as UncoreCollectionTest configures one: two 48-byte
 * descriptors, a core group (its REF_TSC event, a cpu-clock stand-in in a
 * VM) and, with @uncore, INIT_UNC and EM_GROUPS_UNC; every data channel
 * read into a file of its own (@files) from then on.
 */
static int unc_configure(struct host_session *s, struct chan_set *cs, FILE **files,
			 bool uncore, int32_t *unc_status)
{
	struct sep_drv_config dc = { .size = sizeof(dc), .version = SEP_DRV_CONFIG_VERSION };
	struct sep_event_config ec = { .num_groups = 1, .em_mode = SEP_EM_DISABLED,
				       .em_factor = -1, .em_event_num = -1 };
	struct sep_event_desc d = { .sample_size = UNC_REC };
	struct sep_dev_unc_config uc = { 0 };
	uint32_t two = 2;
	int32_t busy = -1;
	uint8_t *ecb;
	size_t len;
	int ret = -1;

	if (open_session(s))
		return -1;
	ecb = ref_tsc_ecb(ECB_SLOTS, 3, &len);
	if (!ecb || host_command(s, SEP_CMD_RESERVE, NULL, 0, &busy, 4) || busy ||
	    host_command(s, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), NULL, 0) ||
	    host_command(s, SEP_CMD_NUM_DESCRIPTOR, &two, 4, NULL, 0) ||
	    host_command(s, SEP_CMD_DESC_NEXT, &d, sizeof(d), NULL, 0) ||
	    host_command(s, SEP_CMD_DESC_NEXT, &d, sizeof(d), NULL, 0) ||
	    host_command(s, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), NULL, 0) ||
	    host_command(s, SEP_CMD_EM_CONFIG_NEXT, ecb, len, NULL, 0))
		goto out;
	if (uncore) {
		unc_status[0] = host_command(s, SEP_CMD_INIT_UNC, &uc, sizeof(uc), NULL, 0);
		unc_status[1] = host_command(s, SEP_CMD_EM_GROUPS_UNC, &ec, sizeof(ec), NULL, 0);
	}
	ret = chans_to_files(cs, s, files);
out:
	free(ecb);
	return ret;
}

/* EM_CONFIG_NEXT_UNC of CHA 0's counter (umask @umask) or of the ubox's fixed counter. */
static int32_t send_unc_ecb(struct host_session *s, bool fixed, uint64_t umask)
{
	size_t len;
	uint8_t *ecb = unc_ecb(unc_regs_of(s), fixed, &len);
	struct sep_event_reg *r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb));
	int32_t st;

	if (!ecb)
		return -1;
	if (!fixed)
		r[0].reg_value = umask << 8 | 1 << 22;
	st = host_command(s, SEP_CMD_EM_CONFIG_NEXT_UNC, ecb, len, NULL, 0);
	free(ecb);
	return st;
}

/* After STOP: every channel at EOF; the uncore channel's bytes (malloc()ed) and length. */
static uint8_t *unc_finish(struct host_session *s, struct chan_set *cs, FILE **files,
			   long *bytes)
{
	uint8_t *recs = NULL;
	int fd = fileno(files[s->ncpus]);

	*bytes = chans_wait(cs, 10000) ? -1 : lseek(fd, 0, SEEK_END);
	chans_stop(cs);
	if (*bytes > 0) {
		recs = malloc(*bytes);
		if (!recs || pread(fd, recs, *bytes, 0) != *bytes)
			*bytes = -1;
	}
	for (uint32_t i = 0; i < cs->n; i++)
		fclose(files[i]);
	free(cs->ch);
	cs->ch = NULL;
	return recs;
}

/*
 * A session with nothing to STOP: TERMINATE ends it, and with it every
 * channel. Returns TERMINATE's status; the uncore channel's bytes in
 * *@bytes, what the control channel still gave in *@rest; all closed.
 */
static int32_t unc_terminate(struct host_session *s, struct chan_set *cs, FILE **files,
			     long *bytes, long *rest)
{
	int32_t st = host_command(s, SEP_CMD_TERMINATE, NULL, 0, NULL, 0);

	free(unc_finish(s, cs, files, bytes));
	for (uint32_t i = 0; i < s->ndata; i++)
		close(s->data[i]);
	*rest = host_drain(s->ctl);
	close(s->ctl);
	return st;
}

/* An LBR area of TOS and 4 entries' FROM, TO, INFO, then a 16-caller callstack area. */
#define LBR_REGS	13
#define LBR_CS_OFF	(48 + LBR_REGS * 8)
#define LBR_CS_SIZE	(8 + 16 * 8)
#define LBR_REC		(LBR_CS_OFF + LBR_CS_SIZE)

static bool all_zero(const uint8_t *p, size_t n)
{
	while (n && !*p)
		p++, n--;
	return !n;
}

/*
 * A configured session's collection of @ecb with DEV_CONFIG @dev, one
 * descriptor @d and, when @li_len, LBR_INFO @li: each CPU channel into
 * @files, for @ms, the target kept busy with commands so that it samples.
 */
static void collect_with_desc(struct __test_metadata *_metadata, struct host_session *s,
			      struct chan_set *cs, FILE **files,
			      const struct sep_dev_config *dev, const struct sep_event_desc *d,
			      const void *li, size_t li_len, const uint8_t *ecb, size_t len,
			      unsigned int ms)
{
	uint32_t one = 1;
	double end;

	ASSERT_EQ(VT_SUCCESS, host_command(s, SEP_CMD_INIT, dev, sizeof(*dev), NULL, 0));
	ASSERT_EQ(VT_SUCCESS, host_command(s, SEP_CMD_NUM_DESCRIPTOR, &one, 4, NULL, 0));
	ASSERT_EQ(VT_SUCCESS, host_command(s, SEP_CMD_DESC_NEXT, d, sizeof(*d), NULL, 0));
	if (li_len)
		ASSERT_EQ(VT_SUCCESS, host_command(s, SEP_CMD_LBR_INFO, li, li_len, NULL, 0));
	ASSERT_EQ(VT_SUCCESS, host_command(s, SEP_CMD_EM_CONFIG_NEXT, ecb, len, NULL, 0));
	ASSERT_EQ(0, chans_to_files(cs, s, files));
	ASSERT_EQ(VT_SUCCESS, host_command(s, SEP_CMD_START, NULL, 0, NULL, 0));
	for (end = now_ns() + ms * 1e6; now_ns() < end;) {
		uint64_t tsc;

		ASSERT_EQ(VT_SUCCESS, host_command(s, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, &tsc, 8));
	}
	EXPECT_EQ(VT_SUCCESS, host_command(s, SEP_CMD_STOP, NULL, 0, NULL, 0));
	EXPECT_EQ(0, chans_wait(cs, 10000));
	chans_stop(cs);
}

/*
 * LBRs asked on a target without a PMU (the VMs'): LBR_INFO is taken, the
 * REF_TSC event samples with cpu-clock, which has no branch stack, so each
 * record's LBR area is zero while the callstack area after it holds the
 * callers: records of the descriptor's size, nothing stale between areas.
 * The host keeps the target busy with commands so that it samples.
 */
TEST(lbr_areas_stay_zero_beside_the_call_stack_without_a_pmu)
{
	struct sep_dev_config dev = { .dispatch_id = 2, .results_offset = 48, .max_gp_counters = 4,
				      .enable_bits = SEP_DEV_CFG_COLLECT_LBRS |
						     SEP_DEV_CFG_COLLECT_CALLSTACKS |
						     SEP_DEV_CFG_COLLECT_KERNEL_CALLSTACKS };
	struct sep_event_desc d = { .sample_size = LBR_REC, .lbr_offset = 48,
				    .lbr_num_regs = LBR_REGS, .callstack_offset = LBR_CS_OFF,
				    .callstack_size = LBR_CS_SIZE };
	struct {
		struct sep_lbr_info_head h;
		struct sep_lbr_entry e[LBR_REGS];
	} li = { { sizeof(li), LBR_REGS }, { { SEP_LBR_TOS, 0, 0x1c9 } } };
	FILE *files[HOST_MAX_CHANNELS];
	struct chan_set cs = { 0 };
	struct host_session s;
	uint8_t rec[LBR_REC];
	uint32_t total = 0, bad = 0, with_callers = 0;
	size_t len;
	uint8_t *ecb = ref_tsc_ecb(ECB_SLOTS, 3, &len);

	static const uint32_t msr0[] = { 0x680, 0x6c0, 0xdc0 };	/* FROM, TO, INFO 0 */

	for (uint32_t i = 0; i < 4; i++)
		for (uint32_t k = 0; k < 3; k++)
			li.e[1 + 3 * i + k] = (struct sep_lbr_entry){ SEP_LBR_FROM + k, i,
								     msr0[k] + i };
	ASSERT_NE(NULL, ecb);
	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, configure(&s));
	collect_with_desc(_metadata, &s, &cs, files, &dev, &d, &li, sizeof(li), ecb, len, 500);
	for (uint32_t i = 0; i < s.ncpus; i++) {
		long size = (fseek(files[i], 0, SEEK_END), ftell(files[i]));

		EXPECT_EQ(0, size % LBR_REC) TH_LOG("CPU %u: %ld bytes", i, size);
		rewind(files[i]);
		while (fread(rec, sizeof(rec), 1, files[i]) == 1) {
			struct aca_callstack_head h;
			size_t used;

			memcpy(&h, rec + LBR_CS_OFF, sizeof(h));
			used = sizeof(h) + (h.nkernel + h.nuser) * 8ull;
			total++;
			with_callers += h.nkernel + h.nuser > 0;
			bad += !all_zero(rec + 48, LBR_REGS * 8) || used > LBR_CS_SIZE ||
			       !all_zero(rec + LBR_CS_OFF + used, LBR_CS_SIZE - used);
		}
	}
	ksft_print_msg("%u records of %u bytes, %u with callers, %u malformed\n",
		       total, LBR_REC, with_callers, bad);
	EXPECT_LT(0, total);
	EXPECT_LT(0, with_callers);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, host_session_close(&s));
	for (uint32_t i = 0; i < cs.n; i++)
		fclose(files[i]);
	free(cs.ch);
	free(ecb);
}

#define PEBS_REC	(48 + 200 + 24 + 8 + 8)

/*
 * PEBS areas asked on a target without a PMU (the VMs'): the descriptor's
 * Skylake PEBS record, SEP's latency slice of it, the eventing IP and the
 * PEBS TSC are taken, the precise REF_TSC event samples with cpu-clock,
 * which has no PEBS, so every record is the descriptor's size and zero
 * past its SampleRecordPC.
 */
TEST(pebs_areas_stay_zero_without_a_pmu)
{
	struct sep_dev_config dev = { .dispatch_id = 2, .results_offset = 48, .max_gp_counters = 4,
				      .enable_bits = SEP_DEV_CFG_PEBS_CAPTURE |
						     SEP_DEV_CFG_LATENCY_CAPTURE |
						     SEP_DEV_CFG_EVENTING_IP_CAPTURE |
						     SEP_DEV_CFG_TSC_CAPTURE };
	struct sep_event_desc d = {
		.sample_size = PEBS_REC, .pebs_offset = 48, .pebs_size = 200,
		.latency_offset_in_sample = 248, .latency_size_in_sample = 24,
		.latency_offset_in_pebs_record = 0x98, .latency_size_from_pebs_record = 24,
		.eventing_ip_offset = 272, .pebs_tsc_offset = 280,
	};
	FILE *files[HOST_MAX_CHANNELS];
	struct chan_set cs = { 0 };
	struct host_session s;
	uint8_t rec[PEBS_REC];
	uint32_t total = 0, bad = 0;
	size_t len;
	uint8_t *ecb = ref_tsc_ecb(ECB_SLOTS, 3, &len);
	struct sep_event_reg *r;

	ASSERT_NE(NULL, ecb);
	r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb)) + ECB_FIXED_START + 2;
	r->flags |= SEP_EVREG_PRECISE;
	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, configure(&s));
	collect_with_desc(_metadata, &s, &cs, files, &dev, &d, NULL, 0, ecb, len, 500);
	for (uint32_t i = 0; i < s.ncpus; i++) {
		long size = (fseek(files[i], 0, SEEK_END), ftell(files[i]));

		EXPECT_EQ(0, size % PEBS_REC) TH_LOG("CPU %u: %ld bytes", i, size);
		rewind(files[i]);
		while (fread(rec, sizeof(rec), 1, files[i]) == 1) {
			total++;
			bad += !all_zero(rec + 48, PEBS_REC - 48);
		}
	}
	ksft_print_msg("%u records of %u bytes, %u with a byte set past the base\n",
		       total, PEBS_REC, bad);
	EXPECT_LT(0, total);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, host_session_close(&s));
	for (uint32_t i = 0; i < cs.n; i++)
		fclose(files[i]);
	free(cs.ch);
	free(ecb);
}

/*
 * A target without uncore (every lane but selftests/vm/uncore's): the
 * status message's switch bit 5 is clear, and INIT_UNC, EM_GROUPS_UNC and
 * EM_CONFIG_NEXT_UNC answer 183, while the core events configured around
 * them still start; the uncore channel ends at STOP without a byte.
 */
TEST(uncore_is_refused_with_183_where_the_target_has_none)
{
	FILE *files[HOST_MAX_CHANNELS];
	struct chan_set cs = { 0 };
	struct host_session s;
	int32_t st[2] = { -1, -1 };
	uint8_t *recs;
	long bytes;

	ASSERT_EQ(0, unc_configure(&s, &cs, files, true, st));
	EXPECT_EQ(0, s.status.collect_switch.flags & SEP_SWITCH_UNCORE_SUPPORTED);
	EXPECT_EQ(VT_INVALID_DEVICE, st[0]);
	EXPECT_EQ(VT_INVALID_DEVICE, st[1]);
	EXPECT_EQ(VT_INVALID_DEVICE, send_unc_ecb(&s, false, UNC_CHA_UMASK));
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_START, NULL, 0, NULL, 0));
	EXPECT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_STOP, NULL, 0, NULL, 0));
	recs = unc_finish(&s, &cs, files, &bytes);
	EXPECT_EQ(0, bytes) TH_LOG("the uncore channel of a target without uncore");
	EXPECT_EQ(0, host_session_close(&s));
	free(recs);
}

/*
 * A target with uncore: selftests/vm/uncore's Skylake-SP or Sandy
 * Bridge-EP guest and its stand-in PMUs (selftests/vm/uncore-stub: a CHA
 * or CBo event counts its umask
 * per microsecond, the ubox's fixed counter nanoseconds; umask 0xee is
 * refused). remote_test -f uncore there; -F uncore elsewhere.
 */
FIXTURE(uncore) {
	struct host_session s;
	struct chan_set cs;
	FILE *files[HOST_MAX_CHANNELS];
};

FIXTURE_SETUP(uncore)
{
	int32_t st[2] = { -1, -1 };

	memset(&self->cs, 0, sizeof(self->cs));
	ASSERT_EQ(0, unc_configure(&self->s, &self->cs, self->files, true, st));
	ASSERT_EQ(SEP_SWITCH_UNCORE_SUPPORTED,
		  self->s.status.collect_switch.flags & SEP_SWITCH_UNCORE_SUPPORTED)
		TH_LOG("no uncore: run in selftests/vm/uncore's guest");
	ASSERT_EQ(VT_SUCCESS, st[0]);
	ASSERT_EQ(VT_SUCCESS, st[1]);
}

FIXTURE_TEARDOWN(uncore) {}

/*
 * A CHA event and the ubox's fixed counter, each its own device, give a
 * record each per die (one here) every unc_timer_interval (10) ms while
 * running: descriptor 1, die 0, valid, group 1, TSCs and counts that
 * never go back. Paused for ~300 ms in the middle, they count and record
 * nothing: the CHA's count is the time running, not the whole span.
 */
TEST_F(uncore, records_count_each_tick_and_hold_while_paused)
{
	uint32_t nrec, rounds;
	double t0, t1, t2, t2a, t3, t4, t5, t6;
	uint8_t *recs;
	long bytes;

	ASSERT_EQ(VT_SUCCESS, send_unc_ecb(&self->s, false, UNC_CHA_UMASK));
	ASSERT_EQ(VT_SUCCESS, send_unc_ecb(&self->s, true, 0));
	t0 = now_ns();
	ASSERT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_START, NULL, 0, NULL, 0));
	t1 = now_ns();
	usleep(400000);
	t2 = now_ns();
	EXPECT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_PAUSE, NULL, 0, NULL, 0));
	t2a = now_ns();
	usleep(300000);
	t3 = now_ns();
	EXPECT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_RESUME, NULL, 0, NULL, 0));
	t4 = now_ns();
	usleep(400000);
	t5 = now_ns();
	EXPECT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_STOP, NULL, 0, NULL, 0));
	t6 = now_ns();
	recs = unc_finish(&self->s, &self->cs, self->files, &bytes);
	EXPECT_EQ(0, host_session_close(&self->s));
	ASSERT_LT(0, bytes);
	/* Rounds of two records, CHA (device 0) then ubox. */
	nrec = bytes / UNC_REC;
	rounds = nrec / 2;
	ASSERT_EQ(0, bytes % (2 * UNC_REC)) TH_LOG("%ld bytes", bytes);
	for (uint32_t k = 0; k < nrec; k++) {
		const uint8_t *r = recs + (size_t)k * UNC_REC;
		struct sep_unc_record_head h;

		memcpy(&h, r, sizeof(h));
		EXPECT_EQ(1, h.descriptor_id);
		EXPECT_EQ(0, h.pkg_num);
		EXPECT_EQ(SEP_UNC_RECORD_VALID, h.flags) TH_LOG("record %u", k);
		EXPECT_EQ(1, u64_at(r, UNC_GROUP_OFF)) TH_LOG("record %u's group", k);
		if (k >= 2) {
			const uint8_t *prev = r - 2 * UNC_REC;

			EXPECT_LE(u64_at(prev, 24), h.tsc) TH_LOG("record %u", k);
			EXPECT_LE(u64_at(prev, UNC_COUNT_OFF), u64_at(r, UNC_COUNT_OFF))
				TH_LOG("record %u", k);
		}
	}
	if (rounds) {
		const uint8_t *last = recs + (size_t)(nrec - 2) * UNC_REC;
		double cha_us = u64_at(last, UNC_COUNT_OFF) / (double)UNC_CHA_UMASK;
		double ubox_ns = u64_at(last + UNC_REC, UNC_COUNT_OFF);
		/*
		 * The stand-in counts exactly the time its counter runs: at least
		 * from START's answer to PAUSE's send and from RESUME's answer
		 * to STOP's send (STOP reads the last round), at most from
		 * START's send to PAUSE's answer and RESUME's send to STOP's
		 * answer.
		 */
		double least_us = ((t2 - t1) + (t5 - t4)) / 1e3;
		double most_us = ((t2a - t0) + (t6 - t3)) / 1e3;

		ksft_print_msg("figure: uncore: %u rounds; CHA %.0f us, ubox %.0f ns counted; running %.0f to %.0f us, paused %.0f us\n",
			       rounds, cha_us, ubox_ns, least_us, most_us, (t3 - t2) / 1e3);
		EXPECT_LE(0.99 * least_us, cha_us);
		EXPECT_GE(1.01 * most_us, cha_us);
		/* Read in the same round: the two counters agree on its time. */
		EXPECT_LE(0.98 * cha_us * 1000, ubox_ns);
		EXPECT_GE(1.02 * cha_us * 1000, ubox_ns);
		/* A round every 10 ms at most in each running stretch, and STOP's. */
		EXPECT_LE(20, rounds);
		EXPECT_GE(most_us / 10000 + 3, rounds);
	}
	free(recs);
}

/*
 * A counter perf refuses on every die fails START (159; again 159, as any
 * second START of a collection), and the session still ends cleanly, the
 * counters made released (the debug kernel's kmemleak checks).
 */
TEST_F(uncore, start_fails_when_perf_refuses_a_counter_everywhere)
{
	long bytes, rest;

	ASSERT_EQ(VT_SUCCESS, send_unc_ecb(&self->s, true, 0));
	ASSERT_EQ(VT_SUCCESS, send_unc_ecb(&self->s, false, 0xee));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, host_command(&self->s, SEP_CMD_START, NULL, 0, NULL, 0));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, host_command(&self->s, SEP_CMD_START, NULL, 0, NULL, 0));
	EXPECT_EQ(VT_SUCCESS, unc_terminate(&self->s, &self->cs, self->files, &bytes, &rest));
	EXPECT_EQ(0, bytes);
	EXPECT_EQ(0, rest);
}

/*
 * A counter perf makes but cannot schedule (the box's counters taken: a
 * pinned event in error) is refused as well: START fails (159).
 */
TEST_F(uncore, start_fails_when_a_counter_cannot_be_scheduled)
{
	long bytes, rest;

	ASSERT_EQ(VT_SUCCESS, send_unc_ecb(&self->s, false, 0xed));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, host_command(&self->s, SEP_CMD_START, NULL, 0, NULL, 0));
	EXPECT_EQ(VT_SUCCESS, unc_terminate(&self->s, &self->cs, self->files, &bytes, &rest));
	EXPECT_EQ(0, bytes);
	EXPECT_EQ(0, rest);
}

/* Uncore there but no uncore event asked: the uncore channel ends at STOP without a byte. */
TEST_F(uncore, channel_ends_empty_without_uncore_events)
{
	uint8_t *recs;
	long bytes;

	EXPECT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_START, NULL, 0, NULL, 0));
	usleep(100000);
	EXPECT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_STOP, NULL, 0, NULL, 0));
	recs = unc_finish(&self->s, &self->cs, self->files, &bytes);
	EXPECT_EQ(0, bytes);
	EXPECT_EQ(0, host_session_close(&self->s));
	free(recs);
}

/*
 * Intel's one uncore vector (protocol.md 6.7), from $ACA_VECTORS or the
 * repository this executable was built in: malloc()ed, its length in @len.
 */
#define DRAM_VECTOR "bin_ecb.config_6_0_UNC_IMC_DRAM_RW_SLICE0_UNC_IMC_DRAM_RW_SLICE1"

static uint8_t *dram_vector(size_t *len)
{
	char path[8192], exe[4096];
	const char *dir = getenv("ACA_VECTORS");
	uint8_t *buf = NULL;
	ssize_t n;
	FILE *f;

	if (dir) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, DRAM_VECTOR) >= (int)sizeof(path))
			return NULL;
	} else {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return NULL;
		exe[n] = 0;
		if (strrchr(exe, '/'))
			*strrchr(exe, '/') = 0;
		snprintf(path, sizeof(path), "%s/../../selftests/vectors/%s", exe, DRAM_VECTOR);
	}
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	buf = malloc(65536);
	*len = buf ? fread(buf, 1, 65536, f) : 0;
	fclose(f);
	return buf;
}

/*
 * Its two free-running DRAM counters are MMIO registers (MCHBAR + 0x6868,
 * + 0x686C) no Linux PMU reads: refused with 228, the core events still
 * start, and the uncore channel ends without a byte.
 */
TEST_F(uncore, intel_dram_vector_is_refused_with_228)
{
	uint8_t *v, *recs;
	size_t len = 0;
	long bytes;

	v = dram_vector(&len);
	ASSERT_NE(NULL, v) TH_LOG("%s not found; set ACA_VECTORS", DRAM_VECTOR);
	ASSERT_EQ(2680, len);
	EXPECT_EQ(VT_INVALID_PROG_INFO,
		  host_command(&self->s, SEP_CMD_EM_CONFIG_NEXT_UNC, v, len, NULL, 0));
	free(v);
	EXPECT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_START, NULL, 0, NULL, 0));
	usleep(100000);
	EXPECT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_STOP, NULL, 0, NULL, 0));
	recs = unc_finish(&self->s, &self->cs, self->files, &bytes);
	EXPECT_EQ(0, bytes);
	EXPECT_EQ(0, host_session_close(&self->s));
	free(recs);
}

/*
 * IBS (spec 6.12 [ACA-EXT]): the REF_TSC ECB with its fixed counter off
 * and DATA_GP slot 0 the IBS control register @msr = @v, event index 0.
 */
#define IBS_FETCH_CTL		0xc0011030
#define IBS_OP_CTL		0xc0011033
#define IBS_OP_EN		(1ull << 17)
#define IBS_OP_CNT_CTL		(1ull << 19)
#define IBS_FETCH_EN		(1ull << 48)
/* selftests/vm/ibs-stub's IP tag: this + config >> 16 (+ 1 for ibs_fetch). */
#define IBS_STUB_IP		0xffffffffabc00000ull

static uint8_t *ibs_ecb(uint32_t msr, uint64_t v, size_t *len)
{
	uint8_t *buf = ref_tsc_ecb(ECB_SLOTS, 3, len);
	struct sep_ecb *h = (struct sep_ecb *)buf;
	struct sep_event_reg *r = (struct sep_event_reg *)(buf + sizeof(*h));

	if (!buf)
		return NULL;
	h->operations[SEP_OP_DATA_GP] = (struct sep_pmu_operation){
		.operation_type = SEP_OP_DATA_GP, .register_start = 12, .register_len = 1,
	};
	r[0].reg_value = 0;			/* GLOBAL_CTRL: no counter */
	r[12].event_reg_id.reg_id = msr;
	r[12].reg_value = v;
	return buf;
}

/*
 * The test VMs but selftests/vm/ibs's have no IBS PMU: the ECB is refused
 * (on an AMD target with IBS it would be taken: run with -T there).
 */
TEST(ibs_is_refused_where_the_target_has_no_ibs_pmu)
{
	struct host_session s;
	size_t len;
	uint8_t *ecb = ibs_ecb(IBS_OP_CTL, IBS_OP_EN | 0x1000, &len);

	ASSERT_NE(NULL, ecb);
	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, configure(&s));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  host_command(&s, SEP_CMD_EM_CONFIG_NEXT, ecb, len, NULL, 0));
	/* Nothing was configured: START has no event. */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, host_command(&s, SEP_CMD_START, NULL, 0, NULL, 0));
	EXPECT_EQ(0, host_session_close(&s));
	free(ecb);
}

/*
 * A target with IBS: selftests/vm/ibs's guest and its stand-in PMUs
 * (selftests/vm/ibs-stub: a sample every sample_period ns, its IP a tag of
 * the config). remote_test -f ibs there; -F ibs elsewhere.
 */
FIXTURE(ibs) {
	struct host_session s;
	struct chan_set cs;
	FILE *files[HOST_MAX_CHANNELS];
};

FIXTURE_SETUP(ibs)
{
	memset(&self->cs, 0, sizeof(self->cs));
	ASSERT_EQ(0, open_session(&self->s));
	ASSERT_EQ(0, configure(&self->s));
}

FIXTURE_TEARDOWN(ibs)
{
	for (uint32_t i = 0; i < self->cs.n; i++)
		fclose(self->files[i]);
	free(self->cs.ch);
}

/*
 * Collect the IBS ECB (@msr = @v) for @ms; the samples of every CPU: how
 * many (returned), how many with IP @ip and event index 0 (*@tagged).
 */
static uint32_t ibs_collect(struct __test_metadata *_metadata, FIXTURE_DATA(ibs) *self,
			    uint32_t msr, uint64_t v, unsigned int ms, uint64_t ip,
			    uint32_t *tagged, double *ran_ms)
{
	struct sep_sample_record_pc rec;
	uint32_t total = 0;
	size_t len;
	uint8_t *ecb = ibs_ecb(msr, v, &len);
	double t0;

	*tagged = 0;
	EXPECT_NE(NULL, ecb);
	EXPECT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_EM_CONFIG_NEXT, ecb, len, NULL, 0));
	free(ecb);
	EXPECT_EQ(0, chans_to_files(&self->cs, &self->s, self->files));
	t0 = now_ns();
	EXPECT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_START, NULL, 0, NULL, 0));
	usleep(ms * 1000);
	EXPECT_EQ(VT_SUCCESS, host_command(&self->s, SEP_CMD_STOP, NULL, 0, NULL, 0));
	*ran_ms = (now_ns() - t0) / 1e6;
	EXPECT_EQ(0, chans_wait(&self->cs, 10000));
	chans_stop(&self->cs);
	for (uint32_t i = 0; i < self->s.ncpus; i++) {
		rewind(self->files[i]);
		while (fread(&rec, sizeof(rec), 1, self->files[i]) == 1) {
			total++;
			*tagged += rec.iip == ip && rec.descriptor_id == 0;
		}
	}
	EXPECT_EQ(0, host_session_close(&self->s));
	return total;
}

/*
 * ibs_op with cnt_ctl, a maximum count of 62,500 (a sample every 1,000,000
 * of the stand-in's nanoseconds): about one sample per CPU and ms, each
 * with the stand-in's tag for that config (what perf handed the PMU).
 */
TEST_F(ibs, op_samples_every_period_with_its_options)
{
	uint32_t tagged, total;
	double ms, want;

	total = ibs_collect(_metadata, self, IBS_OP_CTL, IBS_OP_EN | IBS_OP_CNT_CTL | 62500, 500,
			    IBS_STUB_IP + (IBS_OP_CNT_CTL >> 16), &tagged, &ms);
	want = ms * self->s.ncpus;
	ksft_print_msg("figure: ibs_op every 1 ms: %u samples on %u CPUs in %.0f ms (%.0f at most), %u tagged\n",
		       total, self->s.ncpus, ms, want, tagged);
	EXPECT_EQ(total, tagged);
	EXPECT_LE(total, want * 1.05 + self->s.ncpus);
	/* A timer that fires late skips the periods it missed: TCG, a debug kernel. */
	EXPECT_GE(total, want * 0.25);
}

/* ibs_fetch, no option, every 2^20 ns: its own tag. */
TEST_F(ibs, fetch_samples_with_its_own_tag)
{
	uint32_t tagged, total;
	double ms;

	total = ibs_collect(_metadata, self, IBS_FETCH_CTL, IBS_FETCH_EN | 0xffff,
			    300, IBS_STUB_IP + 1, &tagged, &ms);
	ksft_print_msg("figure: ibs_fetch every 1,048,560 ns: %u samples in %.0f ms, %u tagged\n",
		       total, ms, tagged);
	EXPECT_LT(0, total);
	EXPECT_EQ(total, tagged);
}

/*
 * The stand-in core PMU (selftests/vm/ibs-stub loaded with core=1, as
 * selftests/vm/ibs does; -f core_stub): what it hands the handler, as x86
 * perf hands what it decoded from a PEBS record and the LBRs.
 */
#define CORE_STUB_IP		0xffffffffabd00000ull
#define CORE_STUB_GPR		0x5a5a000000000000ull
#define CORE_STUB_DLA		0x00007f0000001000ull
#define CORE_STUB_WEIGHT	77
#define CORE_STUB_BRANCHES	4
#define CORE_STUB_FROM		0xffffffffab000000ull
#define CORE_STUB_TO		0xffffffffab100000ull
#define CORE_STUB_CYCLES	10

/* The record: base, PEBS record, latency slice, eventing IP, TSC, LBR area. */
#define CS_PEBS		48
#define CS_LAT		(CS_PEBS + 200)
#define CS_EIP		(CS_LAT + 24)
#define CS_TSC		(CS_EIP + 8)
#define CS_LBR		(CS_TSC + 8)
#define CS_LBR_DEPTH	6	/* LBR_INFO's entries: two more than the stack */
#define CS_LBR_REGS	(1 + 3 * CS_LBR_DEPTH)
#define CS_REC		(CS_LBR + CS_LBR_REGS * 8)

FIXTURE(core_stub) {
	struct host_session s;
	struct chan_set cs;
	FILE *files[HOST_MAX_CHANNELS];
};

FIXTURE_SETUP(core_stub)
{
	memset(&self->cs, 0, sizeof(self->cs));
	ASSERT_EQ(0, open_session(&self->s));
	ASSERT_EQ(0, configure(&self->s));
}

FIXTURE_TEARDOWN(core_stub)
{
	for (uint32_t i = 0; i < self->cs.n; i++)
		fclose(self->files[i]);
	free(self->cs.ch);
}

/* What the stand-in hands for one event (config, precise_ip 2). */
struct core_stub_want {
	uint64_t config;
	uint64_t lat;		/* a load latency event's: the weight */
	uint64_t status;	/* its counter's GLOBAL_STATUS bit */
	bool exact;		/* perf says its IP is the eventing one */
};

/* What is wrong with stand-in record @rec; NULL: nothing. */
static const char *core_stub_record_wrong(const uint8_t *rec, const struct core_stub_want *w)
{
	struct sep_sample_record_pc pc;
	uint64_t ip = CORE_STUB_IP + (2ull << 20) + w->config, eip = w->exact ? ip : 0;

	memcpy(&pc, rec, sizeof(pc));
	if (pc.iip != ip)
		return "the sample's IP is not the stand-in's for the config with precise_ip 2";
	if (pc.ipsr & (1ull << 3))
		return "the sample's flags carry perf's exact bit";
	if (u64_at(rec, CS_PEBS + 8) != ip)
		return "the PEBS record's IP is not the sample's";
	if (u64_at(rec, CS_PEBS + 22 * 8) != eip || u64_at(rec, CS_EIP) != eip)
		return "the eventing IP (PEBS record and U64) is not the IP where exact, 0 elsewhere";
	if (u64_at(rec, CS_PEBS) & (1ull << 3))
		return "the PEBS record's flags carry perf's exact bit";
	for (uint32_t i = 0; i < 16; i++)
		if (u64_at(rec, CS_PEBS + (2 + i) * 8) != CORE_STUB_GPR + i)
			return "a general register of the PEBS record is not the one perf handed";
	if (u64_at(rec, CS_PEBS + 18 * 8) != w->status)
		return "the applicable counter is not the event's counter's bit";
	if (u64_at(rec, CS_PEBS + 19 * 8) != CORE_STUB_DLA || u64_at(rec, CS_PEBS + 20 * 8) ||
	    u64_at(rec, CS_PEBS + 21 * 8) != w->lat || u64_at(rec, CS_PEBS + 23 * 8))
		return "the PEBS record's address, source, latency or TSX field";
	if (u64_at(rec, CS_PEBS + 24 * 8) != pc.tsc || u64_at(rec, CS_TSC) != pc.tsc)
		return "the PEBS TSC is not the sample's";
	if (u64_at(rec, CS_LAT) != CORE_STUB_DLA || u64_at(rec, CS_LAT + 8) ||
	    u64_at(rec, CS_LAT + 16) != w->lat)
		return "the latency slice is not the record's address, source and latency";
	if (u64_at(rec, CS_LBR) != CS_LBR_DEPTH - 1)
		return "the LBR TOS is not depth - 1";
	for (uint32_t i = 0; i < CS_LBR_DEPTH; i++) {
		/* Entry i: the (depth - 1 - i)-th most recent branch, 0 past perf's stack. */
		uint32_t k = CS_LBR_DEPTH - 1 - i;
		bool some = k < CORE_STUB_BRANCHES;
		uint64_t from = some ? CORE_STUB_FROM + k : 0, to = some ? CORE_STUB_TO + k : 0;
		uint64_t info = some ? (uint64_t)(k & 1) << 63 | (CORE_STUB_CYCLES + k) : 0;

		if (u64_at(rec, CS_LBR + (1 + 3 * i) * 8) != from ||
		    u64_at(rec, CS_LBR + (2 + 3 * i) * 8) != to ||
		    u64_at(rec, CS_LBR + (3 + 3 * i) * 8) != info)
			return "an LBR entry is not the branch perf handed, in the LBRs' order";
	}
	return NULL;
}

/*
 * Collect @ecb (its event precise) with every PEBS extra and LBRs asked,
 * on the stand-in core PMU, for 500 ms; each record checked against @w.
 */
static void core_stub_collect(struct __test_metadata *_metadata, FIXTURE_DATA(core_stub) *self,
			      uint8_t *ecb, size_t len, const struct core_stub_want *w)
{
	struct sep_dev_config dev = { .dispatch_id = 2, .results_offset = 48, .max_gp_counters = 4,
				      .enable_bits = SEP_DEV_CFG_PEBS_CAPTURE |
						     SEP_DEV_CFG_LATENCY_CAPTURE |
						     SEP_DEV_CFG_EVENTING_IP_CAPTURE |
						     SEP_DEV_CFG_TSC_CAPTURE |
						     SEP_DEV_CFG_COLLECT_LBRS };
	struct sep_event_desc d = {
		.sample_size = CS_REC, .pebs_offset = CS_PEBS, .pebs_size = 200,
		.latency_offset_in_sample = CS_LAT, .latency_size_in_sample = 24,
		.latency_offset_in_pebs_record = 0x98, .latency_size_from_pebs_record = 24,
		.eventing_ip_offset = CS_EIP, .pebs_tsc_offset = CS_TSC,
		.lbr_offset = CS_LBR, .lbr_num_regs = CS_LBR_REGS,
	};
	struct {
		struct sep_lbr_info_head h;
		struct sep_lbr_entry e[CS_LBR_REGS];
	} li = { { sizeof(li), CS_LBR_REGS }, { { SEP_LBR_TOS, 0, 0x1c9 } } };
	static const uint32_t msr0[] = { 0x680, 0x6c0, 0xdc0 };	/* FROM, TO, INFO 0 */
	const char *why = NULL;
	uint32_t total = 0, bad = 0;
	uint8_t rec[CS_REC];

	for (uint16_t i = 0; i < CS_LBR_DEPTH; i++)
		for (uint16_t k = 0; k < 3; k++)
			li.e[1 + 3 * i + k] = (struct sep_lbr_entry){ SEP_LBR_FROM + k, i,
								     msr0[k] + i };
	collect_with_desc(_metadata, &self->s, &self->cs, self->files, &dev, &d, &li, sizeof(li),
			  ecb, len, 500);
	for (uint32_t i = 0; i < self->s.ncpus; i++) {
		long size = (fseek(self->files[i], 0, SEEK_END), ftell(self->files[i]));

		EXPECT_EQ(0, size % CS_REC) TH_LOG("CPU %u: %ld bytes", i, size);
		rewind(self->files[i]);
		while (fread(rec, sizeof(rec), 1, self->files[i]) == 1) {
			const char *wrong = core_stub_record_wrong(rec, w);

			total++;
			bad += !!wrong;
			why = why ? why : wrong;
		}
	}
	ksft_print_msg("figure: stand-in core PMU, config 0x%llx: %u records of %u bytes with PEBS and LBR areas, %u wrong%s%s\n",
		       (unsigned long long)w->config, total, CS_REC, bad, why ? ": " : "",
		       why ? why : "");
	EXPECT_LT(0, total);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, host_session_close(&self->s));
}

/*
 * A precise REF_TSC event (fixed counter 2, bit 34) on the stand-in core
 * PMU: each record holds what perf handed the handler, where the
 * descriptor says: the PEBS record (registers, address, counter, eventing
 * IP with precise_ip 2, TSC; no latency, REF_TSC being no load latency
 * event, whose weight perf makes TSX cycles), its latency slice, the
 * eventing IP and TSC U64s, and the LBR area in the LBRs' order, its two
 * oldest entries 0 (perf's stack is shorter than LBR_INFO's).
 */
TEST_F(core_stub, pebs_and_lbr_areas_hold_what_perf_handed_the_handler)
{
	static const struct core_stub_want w = {
		.config = 0x300, .status = 1ull << 34, .exact = true,
	};
	size_t len;
	uint8_t *ecb = ref_tsc_ecb(ECB_SLOTS, 3, &len);
	struct sep_event_reg *r;

	ASSERT_NE(NULL, ecb);
	r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb)) + ECB_FIXED_START + 2;
	r->flags |= SEP_EVREG_PRECISE;
	core_stub_collect(_metadata, self, ecb, len, &w);
	free(ecb);
}

/*
 * MEM_TRANS_RETIRED.LOAD_LATENCY on PMC0: perf's weight is the latency;
 * its IP, which the stand-in does not call exact (as where perf's LBR
 * fix-up fails), is no eventing IP: 0 there.
 */
TEST_F(core_stub, a_load_latency_event_s_weight_is_the_pebs_latency)
{
	static const struct core_stub_want w = {
		.config = 0x1cd, .lat = CORE_STUB_WEIGHT, .status = 1, .exact = false,
	};
	size_t len;
	uint8_t *ecb = software_ecb(0, 0, &len);
	struct sep_event_reg *r;

	ASSERT_NE(NULL, ecb);
	r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb));
	r[5].event_reg_id.reg_id = 0x186;	/* IA32_PERFEVTSEL0 */
	r[5].reg_value = 0x5301cd;		/* 0xCD umask 1, USR, OS, INT, EN */
	r[12].reg_value = ECB_MASK_48 + 1 - 2200000;
	r[12].flags |= SEP_EVREG_PRECISE;
	core_stub_collect(_metadata, self, ecb, len, &w);
	free(ecb);
}

/*
 * A precise REF_TSC event with no PEBS, latency, eventing IP or call-stack
 * area asked: each sample still reaches the handler at its PMI, never
 * batched in a large PEBS buffer and handed over at the drain (with the
 * drain's TSC and task). The stand-in adds 1 << 24 to the IP of an event
 * x86 would batch (precise, no frequency, no wakeup a sample); precise_ip
 * is 1, no eventing IP being asked.
 */
TEST_F(core_stub, a_precise_event_without_pebs_areas_takes_a_pmi_a_sample)
{
	struct sep_dev_config dev = { .dispatch_id = 2, .results_offset = 48,
				      .max_gp_counters = 4 };
	struct sep_event_desc d = { .sample_size = sizeof(struct sep_sample_record_pc) };
	const uint64_t ip = CORE_STUB_IP + (1ull << 20) + 0x300;
	struct sep_sample_record_pc pc;
	uint32_t total = 0, batched = 0, other = 0;
	struct sep_event_reg *r;
	size_t len;
	uint8_t *ecb = ref_tsc_ecb(ECB_SLOTS, 3, &len);

	ASSERT_NE(NULL, ecb);
	r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb)) + ECB_FIXED_START + 2;
	r->flags |= SEP_EVREG_PRECISE;
	collect_with_desc(_metadata, &self->s, &self->cs, self->files, &dev, &d, NULL, 0,
			  ecb, len, 500);
	for (uint32_t i = 0; i < self->s.ncpus; i++) {
		rewind(self->files[i]);
		while (fread(&pc, sizeof(pc), 1, self->files[i]) == 1) {
			total++;
			batched += pc.iip == ip + (1ull << 24);
			other += pc.iip != ip && pc.iip != ip + (1ull << 24);
		}
	}
	ksft_print_msg("figure: stand-in core PMU, precise REF_TSC without areas: %u records, %u batched, %u other\n",
		       total, batched, other);
	EXPECT_LT(0, total);
	EXPECT_EQ(0, batched);
	EXPECT_EQ(0, other);
	EXPECT_EQ(0, host_session_close(&self->s));
	free(ecb);
}

/* Fixed counter slot j is IA32_FIXED_CTRj: 17 of them exist on no PMU. */
TEST(ecb_with_17_fixed_counter_slots_is_refused)
{
	struct host_session s;
	size_t len, good_len;
	uint8_t *ecb = ref_tsc_ecb(ECB_FIXED_START + 17, 17, &len);
	uint8_t *good = ref_tsc_ecb(ECB_SLOTS, 3, &good_len);

	ASSERT_NE(NULL, ecb);
	ASSERT_NE(NULL, good);
	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, configure(&s));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  host_command(&s, SEP_CMD_EM_CONFIG_NEXT, ecb, len, NULL, 0));
	EXPECT_EQ(VT_SUCCESS,
		  host_command(&s, SEP_CMD_EM_CONFIG_NEXT, good, good_len, NULL, 0));
	EXPECT_EQ(0, host_session_close(&s));
	free(ecb);
	free(good);
}

/*
 * A relay in the guest with no capability in any set, started by
 * selftests/vm/guest-suite (setpriv --bounding-set=-all): the credentials
 * that open /dev/aca lack CAP_PERFMON, as a relay run by a group member
 * would. Before a test talks to it, its /proc/PID/status must show that
 * process is aca-relay and that its effective and bounding sets are empty.
 */
FIXTURE(unprivileged_relay) {
	const char *where;
};

FIXTURE_SETUP(unprivileged_relay)
{
	const char *pid = getenv("ACA_UNPRIV_RELAY_PID");
	int is_relay = 0, no_eff = 0, no_bnd = 0;
	char path[64], line[256];
	FILE *f;

	self->where = getenv("ACA_UNPRIV_RELAY");
	ASSERT_NE(NULL, self->where) TH_LOG("ACA_UNPRIV_RELAY is not set");
	ASSERT_NE(NULL, pid) TH_LOG("ACA_UNPRIV_RELAY_PID is not set");
	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f) TH_LOG("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		is_relay |= !strcmp(line, "Name:\taca-relay\n");
		no_eff |= !strcmp(line, "CapEff:\t0000000000000000\n");
		no_bnd |= !strcmp(line, "CapBnd:\t0000000000000000\n");
	}
	fclose(f);
	ASSERT_TRUE(is_relay) TH_LOG("pid %s is not aca-relay", pid);
	ASSERT_TRUE(no_eff) TH_LOG("aca-relay (pid %s) has effective capabilities", pid);
	ASSERT_TRUE(no_bnd) TH_LOG("aca-relay (pid %s) has a bounding set", pid);
}

FIXTURE_TEARDOWN(unprivileged_relay) {}

TEST_F(unprivileged_relay, read_msr_of_pkg_energy_status_is_refused)
{
	struct host_session s;
	uint64_t *vals;

	ASSERT_EQ(0, open_session_at(&s, self->where));
	vals = calloc(s.ncpus, 8);
	ASSERT_NE(NULL, vals);
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, read_msr(&s, 0x611, vals));
	/* The PMU's state too (issue 32); the PMU's capabilities still read. */
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, read_msr(&s, 0x38f, vals));
	EXPECT_EQ(VT_SUCCESS, read_msr(&s, 0x345, vals));
	EXPECT_EQ(0, host_session_close(&s));
	free(vals);
}

TEST_F(unprivileged_relay, init_driver_is_refused_with_213)
{
	struct sep_drv_config dc = { .size = sizeof(dc), .version = SEP_DRV_CONFIG_VERSION };
	struct host_session s;
	int32_t busy = -1;

	ASSERT_EQ(0, open_session_at(&s, self->where));
	ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE,
		  host_command(&s, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), NULL, 0));
	EXPECT_EQ(0, host_session_close(&s));
}

/*
 * A person's own privilege through the relay (issue 32), in the guest
 * (selftests/vm/relay-privilege runs these; the host skips them with
 * -F person_unprivileged -F person_join). ACA_PERSON_TARGET is where this
 * process, run as the person under test, connects: the relay's local
 * socket (a path) or loopback TCP.
 */
FIXTURE(person_unprivileged) {
	const char *where;
};

FIXTURE_SETUP(person_unprivileged)
{
	self->where = getenv("ACA_PERSON_TARGET");
	ASSERT_NE(NULL, self->where) TH_LOG("ACA_PERSON_TARGET is not set");
}

FIXTURE_TEARDOWN(person_unprivileged) {}

TEST_F(person_unprivileged, init_driver_is_refused_with_213)
{
	struct sep_drv_config dc = { .size = sizeof(dc), .version = SEP_DRV_CONFIG_VERSION };
	struct host_session s;
	int32_t busy = -1;

	ASSERT_EQ(0, open_session_at(&s, self->where));
	ASSERT_EQ(VT_SUCCESS, host_command(&s, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE,
		  host_command(&s, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), NULL, 0));
	EXPECT_EQ(0, host_session_close(&s));
}

/* IA32_PMC0: another user's count. */
TEST_F(person_unprivileged, read_msr_of_a_counter_is_refused)
{
	struct host_session s;
	uint64_t *vals;

	ASSERT_EQ(0, open_session_at(&s, self->where));
	vals = calloc(s.ncpus, 8);
	ASSERT_NE(NULL, vals);
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, read_msr(&s, 0xc1, vals));
	EXPECT_EQ(0, host_session_close(&s));
	free(vals);
}

/* MSR_PKG_ENERGY_STATUS. */
TEST_F(person_unprivileged, read_msr_of_the_energy_counter_is_refused)
{
	struct host_session s;
	uint64_t *vals;

	ASSERT_EQ(0, open_session_at(&s, self->where));
	vals = calloc(s.ncpus, 8);
	ASSERT_NE(NULL, vals);
	EXPECT_EQ(VT_MSR_ACCESS_ERROR, read_msr(&s, 0x611, vals));
	EXPECT_EQ(0, host_session_close(&s));
	free(vals);
}

/*
 * Run as root: a session of root's on ACA_PERSON_TARGET, its control
 * channel only; then another user (ACA_PERSON_OTHER_UID, its group
 * ACA_PERSON_OTHER_GID) connects through ACA_PERSON_OTHER (the same
 * route), the way a data channel would. A data channel would be answered its 8-byte first
 * message at once; another person is a second host: a status message
 * with 219 (busy).
 */
FIXTURE(person_join) {
	const char *where, *other;
	uid_t uid;
	gid_t gid;
};

FIXTURE_SETUP(person_join)
{
	const char *uid = getenv("ACA_PERSON_OTHER_UID");
	const char *gid = getenv("ACA_PERSON_OTHER_GID");

	self->where = getenv("ACA_PERSON_TARGET");
	self->other = getenv("ACA_PERSON_OTHER");
	ASSERT_NE(NULL, self->where) TH_LOG("ACA_PERSON_TARGET is not set");
	ASSERT_NE(NULL, self->other) TH_LOG("ACA_PERSON_OTHER is not set");
	ASSERT_NE(NULL, uid) TH_LOG("ACA_PERSON_OTHER_UID is not set");
	ASSERT_NE(NULL, gid) TH_LOG("ACA_PERSON_OTHER_GID is not set");
	ASSERT_EQ(0, geteuid()) TH_LOG("run as root");
	self->uid = (uid_t)atoi(uid);
	self->gid = (gid_t)atoi(gid);
}

FIXTURE_TEARDOWN(person_join) {}

/* In the child: as the other user, what a data channel's connect gets. */
static int other_connects(const char *where, uid_t uid, gid_t gid)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct timeval tv = { .tv_sec = 5 };
	struct sep_target_status_msg st;
	int fd;

	if (setgroups(1, &gid) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid))
		return 2;
	fd = host_connect(where, 10);
	if (fd < 0)
		return 3;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (host_send(fd, &hello, sizeof(hello)))
		return 4;
	/* A data channel: 8 bytes, then nothing (the hello is dropped). */
	if (host_recv(fd, &st, sizeof(st))) {
		fprintf(stderr, "# the other user's connection got no status message: it joined the session as a data channel\n");
		return 1;
	}
	if (st.status != VT_COMM_DATA_CHANNEL_UNAVAILABLE) {
		fprintf(stderr, "# the other user's connection got status %d, not 219\n", st.status);
		return 1;
	}
	close(fd);
	return 0;
}

TEST_F(person_join, another_user_cannot_join_a_session_as_a_data_channel)
{
	struct sep_target_status_msg st;
	struct sep_data_first_msg first;
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	int ctl = -1, fd, status;
	pid_t pid;

	for (int i = 0; i < 100 && ctl < 0; i++) {
		ctl = host_connect(self->where, 10);
		ASSERT_LE(0, ctl);
		ASSERT_EQ(0, host_send(ctl, &hello, sizeof(hello)));
		ASSERT_EQ(0, host_recv(ctl, &st, sizeof(st)));
		if (st.status != VT_SUCCESS) {	/* an earlier session ends */
			close(ctl);
			ctl = -1;
			usleep(100 * 1000);
		}
	}
	ASSERT_LE(0, ctl) TH_LOG("no session at %s", self->where);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(other_connects(self->other, self->uid, self->gid));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("the other user's connection via %s", self->other);
	/* The session's own person still gets its channel 0. */
	fd = host_connect(self->where, 10);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, host_recv(fd, &first, sizeof(first)));
	EXPECT_EQ(SEP_DATA_CPU, first.data_type);
	EXPECT_EQ(0, first.data_id);
	close(fd);
	EXPECT_EQ(0, terminate(ctl));
}

static uint32_t rnd(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state >> 11;
}

/* Random bytes, or a valid hello followed by random command headers. */
static void garbage_session(uint64_t *rng)
{
	uint8_t buf[512];
	uint32_t len = rnd(rng) % sizeof(buf);
	int fd = connect_target();

	if (fd < 0)
		return;
	for (uint32_t i = 0; i < len; i++)
		buf[i] = rnd(rng);
	if (rnd(rng) % 2) {
		struct sep_control_first_msg hello = sep_hello(sizeof(hello));
		struct sep_control_msg_header *h = (void *)(buf + sizeof(hello));

		memcpy(buf, &hello, sizeof(hello));
		if (len >= sizeof(hello) + sizeof(*h) && rnd(rng) % 2) {
			h->header_size = sizeof(*h);
			h->command_id = rnd(rng) % 100;
			h->to_target_data_size %= 4096;
			h->from_target_data_size %= 65536;
		}
	}
	host_send(fd, buf, len);
	close(fd);
}

#define GARBAGE_SESSIONS	1000
#define GARBAGE_THREADS		10

static void *garbage_thread(void *arg)
{
	uint64_t rng = 0x9e3779b97f4a7c15ull * ((uintptr_t)arg + 1);

	for (int i = 0; i < GARBAGE_SESSIONS / GARBAGE_THREADS; i++)
		garbage_session(&rng);
	return NULL;
}

/*
 * 1,000 connections: a minute through user-mode networking under TCG, 3 s
 * on the guest's loopback, where selftests/vm/guest-suite runs this
 * fixture (tools/vm-selftests leaves it out of the host's run).
 */
FIXTURE(slow) {};
FIXTURE_SETUP(slow) {}
FIXTURE_TEARDOWN(slow) {}

TEST_F_TIMEOUT(slow, garbage_sessions_then_a_good_one, 400)
{
	pthread_t threads[GARBAGE_THREADS];
	struct host_session s;
	uint32_t version;

	/* Several at once, as a flood would come; any role, any state. */
	for (uintptr_t i = 0; i < GARBAGE_THREADS; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, garbage_thread, (void *)i));
	for (int i = 0; i < GARBAGE_THREADS; i++)
		pthread_join(threads[i], NULL);
	ASSERT_EQ(0, open_session(&s));
	ASSERT_EQ(0, host_command(&s, SEP_CMD_VERSION, NULL, 0, &version, 4));
	EXPECT_EQ(SEP_DRIVER_VERSION, version);
	EXPECT_EQ(0, host_session_close(&s));
}

TEST(aca_host_info_succeeds)
{
	const char *bin = getenv("ACA_HOST_BIN");
	struct host_session probe;
	int status;
	pid_t pid;

	if (!bin)
		bin = "build/aca-host";
	/* Make sure no earlier session is still being torn down. */
	ASSERT_EQ(0, open_session(&probe));
	ASSERT_EQ(0, host_session_close(&probe));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		execl(bin, "aca-host", "info", target(), (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Wait out the VM's boot before the per-test timeouts start ticking. */
int main(int argc, char **argv)
{
	time_t end = time(NULL) + READY_TIMEOUT_S;
	struct sep_target_status_msg s;
	int fd = -1;

	while (time(NULL) < end) {
		fd = handshake(&s, sizeof(struct sep_control_first_msg));
		if (fd >= 0)
			break;
		usleep(250 * 1000);
	}
	if (fd < 0)
		fprintf(stderr, "# target %s never answered a hello\n", target());
	else
		terminate(fd);
	return test_harness_run(argc, argv);
}
