// SPDX-License-Identifier: GPL-2.0-only
/* A scripted SEP target for collect tests (see mock_target.h). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mock_target.h"
#include "synth.h"
#include "../../tools/aca-host/host.h"
#include "../../tools/aca-host/session.h"
#include "../../driver/core/sep_cmd.h"

#define NDATA		(MOCK_CPUS + 2)
#define MODULE_CH	(MOCK_CPUS + 1)

struct session {
	struct mock_target *m;
	int ctl;
	int data[NDATA];
	uint64_t tsc;
	int started;			/* START answered */
};

static void fail(struct mock_target *m, const char *why)
{
	if (!m->failed)
		snprintf(m->why, sizeof(m->why), "%s", why);
	m->failed = 1;
}

/* The status message into @st. */
static void status_msg(const struct session *s, int32_t status, uint32_t msg_size,
		       struct sep_target_status_msg *st)
{
	*st = (struct sep_target_status_msg){
		.msg_size = msg_size,
		.status = status,
		.proto_version = SEP_PROTO_VERSION,
		.os_info_offset = 48, .os_info_size = 200,
		.collect_switch_offset = 248, .collect_switch_size = 8,
		.hardware_info_offset = 256, .hardware_info_size = 40,
		.hardware_info = { .num_cpus = MOCK_CPUS, .tsc_freq = MOCK_TSC_HZ },
	};

	if (s->m->num_cpus)
		st->hardware_info.num_cpus = s->m->num_cpus == MOCK_ZERO_CPUS ? 0 :
					     s->m->num_cpus;
	snprintf(st->os_info.sysname, sizeof(st->os_info.sysname), "%s",
		 s->m->sysname ? s->m->sysname : "Mock");
	strcpy(st->os_info.release, "1.0");
	strcpy(st->os_info.version, "#1 scripted");
}

static void hello(struct session *s, int32_t status, uint32_t msg_size)
{
	struct sep_target_status_msg st;
	struct sep_control_first_msg h;

	status_msg(s, status, msg_size, &st);
	if (host_recv(s->ctl, &h, sizeof(h)) || h.msg_size != sizeof(h))
		fail(s->m, "bad hello");
	host_send(s->ctl, &st, sizeof(st));
}

/* The status message a byte at a time, until it is whole or the host goes. */
static void trickle_hello(struct session *s)
{
	struct sep_target_status_msg st;
	struct sep_control_first_msg h;

	status_msg(s, VT_SUCCESS, sizeof(st), &st);
	host_recv(s->ctl, &h, sizeof(h));
	for (size_t i = 0; i < sizeof(st); i++) {
		if (host_send(s->ctl, (const char *)&st + i, 1))
			return;
		usleep(MOCK_TRICKLE_MS * 1000);
	}
}

/*
 * The hello of enum mock_hello's failures, or of a hello alone; the
 * connection is closed after.
 */
static void bad_hello(struct session *s)
{
	struct sep_control_first_msg h;

	switch (s->m->hello) {
	case MOCK_HELLO_BUSY:
		hello(s, VT_COMM_DATA_CHANNEL_UNAVAILABLE,
		      sizeof(struct sep_target_status_msg));
		break;
	case MOCK_HELLO_WRONG_SIZE:
		hello(s, VT_SUCCESS, sizeof(struct sep_target_status_msg) - 8);
		break;
	case MOCK_HELLO_GARBAGE:
		host_recv(s->ctl, &h, sizeof(h));
		host_send(s->ctl, MOCK_GARBAGE, strlen(MOCK_GARBAGE));
		break;
	case MOCK_HELLO_ONLY:
		hello(s, VT_SUCCESS, sizeof(struct sep_target_status_msg));
		host_drain(s->ctl);
		break;
	case MOCK_HELLO_TRICKLE:
		trickle_hello(s);
		break;
	default:
		break;
	}
}

static int open_channels(struct session *s)
{
	for (int i = 0; i < NDATA; i++) {
		struct sep_data_first_msg f = { .proto_version = SEP_PROTO_VERSION };

		s->data[i] = accept(s->m->listen_fd, NULL, NULL);
		if (s->data[i] < 0)
			return -1;
		f.data_type = i < MOCK_CPUS ? SEP_DATA_CPU :
			      i == MOCK_CPUS ? SEP_DATA_UNCORE : SEP_DATA_MODULE;
		f.data_id = i < MOCK_CPUS ? i : 0;
		host_send(s->data[i], &f, sizeof(f));
	}
	return 0;
}

/* Samples of @cpu, user and kernel mode. */
static uint64_t cpu_samples(const struct mock_target *m, int cpu)
{
	return (uint64_t)m->samples_per_cpu + m->kernel_samples +
	       (cpu == 0 ? (uint64_t)m->unknown_kernel *
			   (m->unknown_hits ? m->unknown_hits : 1) : 0);
}

/* The kernel-mode samples of @cpu (struct mock_target). */
static void kernel_samples(const struct mock_target *m, struct sbuf *b, int cpu)
{
	const size_t size = sizeof(struct sep_sample_record_pc);

	for (uint32_t i = 0; i < m->kernel_samples; i++) {
		uint64_t ip = cpu == 0 ? MOCK_KSYM_HOT + i % 16 :
			      i % 2 ? MOCK_KGAP : MOCK_KSYM_MOD + i % 32;

		synth_sample(b, size, ip, 0, 0, 5000 + i, cpu);
	}
	for (uint32_t i = 0; cpu == 0 && i < m->unknown_kernel; i++)
		for (uint32_t k = 0; k < (m->unknown_hits ? m->unknown_hits : 1); k++)
			synth_sample(b, size, MOCK_KUNKNOWN + 8ull * i, 0, 0, 9000 + i, cpu);
}

/* Large enough that a host not reading makes our sends block. */
static void flood_samples(struct session *s)
{
	struct sbuf b = { 0 };

	for (int cpu = 0; cpu < MOCK_CPUS; cpu++) {
		for (uint32_t i = 0; i < s->m->samples_per_cpu; i++)
			synth_sample(&b, sizeof(struct sep_sample_record_pc),
				     MOCK_HOT_IP + i % 16, MOCK_PID, MOCK_PID, 100 + i, cpu);
		kernel_samples(s->m, &b, cpu);
		host_send(s->data[cpu], b.p, b.len);
		b.len = 0;
	}
	sbuf_free(&b);
}

/* The process's mapping of /mock/bin/app. */
static void user_module(struct session *s)
{
	struct sbuf b = { 0 };

	synth_module(&b, MOCK_PID, 0x400000, 0x10000, 0, 0, SEP_MR_UNLOAD_TSC_LOADED,
		     SEP_MR_EXE, "/mock/bin/app");
	host_send(s->data[MODULE_CH], b.p, b.len);
	sbuf_free(&b);
}

/* The kernel's and mock_mod's. */
static void kernel_modules(struct session *s)
{
	struct sbuf b = { 0 };

	synth_module(&b, 0, 0xffffffff81000000ull, 0x1000000, 0, 0,
		     SEP_MR_UNLOAD_TSC_LOADED, SEP_MR_EXE, "vmlinux");
	if (s->m->kernel_samples)
		synth_module(&b, 0, 0xffffffffc0000000ull, 0x10000, 0, 0,
			     SEP_MR_UNLOAD_TSC_LOADED, SEP_MR_GLOBAL_MODULE, "mock_mod");
	host_send(s->data[MODULE_CH], b.p, b.len);
	sbuf_free(&b);
}

static void flood(struct session *s)
{
	flood_samples(s);
	user_module(s);
	kernel_modules(s);
}

static void close_channels(struct session *s, int keep_module)
{
	for (int i = 0; i < NDATA; i++) {
		if (s->data[i] < 0 || (keep_module && i == MODULE_CH))
			continue;
		shutdown(s->data[i], SHUT_WR);
	}
}

static void respond(struct session *s, uint32_t id, int status, const void *out,
		    uint64_t len)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h), .proto_version = SEP_PROTO_VERSION,
		.command_id = id, .status = status,
		.from_target_data_size = status ? 0 : len,
	};

	host_send(s->ctl, &h, sizeof(h));
	if (!status && len)
		host_send(s->ctl, out, len);
}

/*
 * The symbol that holds @addr, as aca's KERNEL_SYMBOLS puts it in a slot.
 * Returns whether there is one.
 */
static int ksym_slot(uint64_t addr, char *slot)
{
	static const struct {
		uint64_t start, size;
		const char *name, *module;
	} syms[] = {
		{ MOCK_KSYM_HOT, 0x100, "mock_kernel_hot", NULL },
		{ MOCK_KSYM_MOD, 0x80, "mock_mod_fn", "mock_mod" },
	};

	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if (addr - syms[i].start < syms[i].size) {
			snprintf(slot, ACA_KSYM_SLOT_SIZE, "%016llx %llx %s%s%s",
				 (unsigned long long)syms[i].start,
				 (unsigned long long)syms[i].size, syms[i].name,
				 syms[i].module ? " " : "",
				 syms[i].module ? syms[i].module : "");
			return 1;
		}
	}
	return 0;
}

/* KERNEL_SYMBOLS (spec 4.6): checked as aca does, and counted. */
static void kernel_symbols(struct mock_target *m, const struct sep_control_msg_header *h,
			   const uint8_t *in, uint8_t *out)
{
	uint64_t n = h->to_target_data_size / 8;

	if (!n || h->to_target_data_size % 8 || n > ACA_KSYM_MAX_ADDRS ||
	    h->from_target_data_size != n * ACA_KSYM_SLOT_SIZE) {
		fail(m, "KERNEL_SYMBOLS: bad sizes");
		return;
	}
	if (m->live)
		m->ksym_last = 0;
	m->ksym_requests++;
	m->ksym_addrs += n;
	if (n > m->ksym_max_batch)
		m->ksym_max_batch = n;
	if (!m->stop_seen && n > m->ksym_max_live_batch)
		m->ksym_max_live_batch = n;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t addr;

		memcpy(&addr, in + 8 * i, 8);
		if (addr <= m->ksym_last)
			fail(m, "KERNEL_SYMBOLS: an address asked again, or out of order");
		m->ksym_last = addr;
		if (!m->ksym_hidden)
			m->ksym_named += ksym_slot(addr, (char *)out + i * ACA_KSYM_SLOT_SIZE);
	}
}

/* The event index and descriptor of the ECB's counter (its one data slot). */
static void ecb_counter(const uint8_t *in, uint64_t len, int32_t *index, int32_t *desc)
{
	const struct sep_event_reg *slot = (const void *)(in + sizeof(struct sep_ecb));
	size_t n = (len - sizeof(struct sep_ecb)) / sizeof(*slot);

	*index = *desc = -1;
	for (size_t i = 0; i < n; i++) {
		if (slot[i].reg_type != SEP_REG_TYPE_DATA || !slot[i].event_reg_id.reg_id)
			continue;
		*index = slot[i].event_id_index;
		*desc = slot[i].desc_id;
	}
}

/* EM_CONFIG_NEXT: which group, and the index its samples would carry. */
static void em_config_next(struct mock_target *m, const struct sep_control_msg_header *h,
			   const uint8_t *in)
{
	const struct sep_ecb *ecb = (const void *)in;

	if (h->to_target_data_size < sizeof(*ecb)) {
		fail(m, "EM_CONFIG_NEXT: shorter than an ECB header");
		return;
	}
	if (m->necbs == MOCK_MAX_ECBS)
		return;
	m->ecb_group[m->necbs] = ecb->group_id;
	ecb_counter(in, h->to_target_data_size, &m->ecb_index[m->necbs],
		    &m->ecb_desc[m->necbs]);
	m->necbs++;
}

/*
 * GROUP_TIMES as sep_cmd.h lays it out: MOCK_ROUNDS turns of every group,
 * each turn's window MOCK_WINDOW_TSC of its MOCK_TURN_TSC, as many
 * windows as fit in the @len bytes asked.
 */
static void group_times(struct mock_target *m, uint8_t *out, uint64_t len)
{
	struct aca_group_times_head h = {
		.ngroups = m->num_groups, .nwindows = MOCK_ROUNDS * m->num_groups,
		.switch_ms = m->em_mode == SEP_EM_TIMER_BASED ? m->em_factor : 0,
	};
	uint64_t at = sizeof(h);

	m->group_times_asked = 1;
	h.switches = h.nwindows ? h.nwindows - 1 : 0;
	if (len < sizeof(h) + h.ngroups * sizeof(struct aca_group_time)) {
		fail(m, "GROUP_TIMES: too few bytes asked for the groups");
		return;
	}
	memcpy(out, &h, sizeof(h));
	for (uint32_t g = 0; g < h.ngroups; g++, at += sizeof(struct aca_group_time)) {
		struct aca_group_time t = { .group = g, .windows = MOCK_ROUNDS,
					    .running_tsc = MOCK_ROUNDS * MOCK_WINDOW_TSC };

		memcpy(out + at, &t, sizeof(t));
	}
	for (uint32_t i = 0; i < h.nwindows && at + sizeof(struct aca_group_window) <= len;
	     i++, at += sizeof(struct aca_group_window)) {
		struct aca_group_window w = {
			.on_tsc = MOCK_WINDOWS_TSC + i * MOCK_TURN_TSC,
			.off_tsc = MOCK_WINDOWS_TSC + i * MOCK_TURN_TSC + MOCK_WINDOW_TSC,
			.group = i % h.ngroups,
		};

		memcpy(out + at, &w, sizeof(w));
	}
}

/*
 * READ_AND_RESET in counting mode (sep_cmd.h): as many bytes as asked, a
 * TSC delta per CPU of MOCK_READ_TSC, then every CPU's counts, each
 * MOCK_COUNT(k, cpu) for the group's k-th event; 159 outside counting mode.
 */
static int read_and_reset(struct mock_target *m, uint8_t *out, uint64_t len)
{
	uint64_t per_cpu = len / 8 / MOCK_CPUS;

	if (!(m->collection_config & SEP_DRV_CFG_COUNTING_MODE))
		return VT_DRIVER_COMM_FAILED;
	m->reads++;
	for (uint64_t i = 0; i < len / 8; i++) {
		uint64_t v = MOCK_READ_TSC;

		if (i >= MOCK_CPUS)
			v = MOCK_COUNT((i - MOCK_CPUS) % (per_cpu - 1),
				       (i - MOCK_CPUS) / (per_cpu - 1));
		memcpy(out + 8 * i, &v, 8);
	}
	return 0;
}

/*
 * SIGINT to the host (its pid once the test's fork has it), then a moment
 * for it to land before the answer.
 */
static void interrupt_host(struct mock_target *m)
{
	for (int i = 0; i < 500 && !*m->sigint_pid; i++)
		usleep(10000);
	if (*m->sigint_pid > 0)
		kill(*m->sigint_pid, SIGINT);
	usleep(200000);
}

/*
 * MODULE_SNAPSHOT as aca answers it: nothing in or out, legal while
 * sampling; then what STOP would send of the processes (user_module()).
 */
static void module_snapshot(struct session *s, const struct sep_control_msg_header *h)
{
	struct mock_target *m = s->m;

	m->snapshot_asks++;
	if (h->to_target_data_size || h->from_target_data_size)
		fail(m, "MODULE_SNAPSHOT: data in or out");
	if (!s->started || m->stop_seen)
		fail(m, "MODULE_SNAPSHOT: not while sampling");
	if (m->snapshot_status) {
		respond(s, h->command_id, m->snapshot_status, NULL, 0);
		return;
	}
	respond(s, h->command_id, 0, NULL, 0);
	if (m->snapshots++ >= m->snapshot_empty)
		user_module(s);
}

/* COLLECT_SYS_CONFIG and GET_SYS_CONFIG (struct mock_target's sys_config). */
static void sys_config(struct session *s, const struct sep_control_msg_header *h)
{
	struct mock_target *m = s->m;
	uint32_t size = m->sys_config_size ? m->sys_config_size :
			m->sys_config ? m->sys_config_len : 0;

	if (h->command_id == SEP_CMD_COLLECT_SYS_CONFIG) {
		if (h->from_target_data_size != sizeof(size))
			fail(m, "COLLECT_SYS_CONFIG: not 4 bytes asked");
		respond(s, h->command_id, 0, &size, sizeof(size));
		return;
	}
	if (!m->sys_config || h->from_target_data_size > m->sys_config_len) {
		fail(m, "GET_SYS_CONFIG: more asked than the blob holds");
		respond(s, h->command_id, VT_DRIVER_COMM_FAILED, NULL, 0);
		return;
	}
	respond(s, h->command_id, 0, m->sys_config, h->from_target_data_size);
}

/* One command; returns 0 to go on, 1 after TERMINATE. */
static int command(struct session *s, const struct sep_control_msg_header *h,
		   const uint8_t *in)
{
	struct mock_target *m = s->m;
	uint64_t out_len = h->from_target_data_size;
	uint8_t *out;
	uint64_t u64;
	uint32_t u32;

	if (m->ncommands < 64)
		m->commands[m->ncommands++] = h->command_id;
	if (h->command_id == SEP_CMD_START)
		s->started = 1;
	if (m->sigint_at && h->command_id == m->sigint_at)
		interrupt_host(m);
	if (m->fail_status && h->command_id == m->fail_command) {
		respond(s, h->command_id, m->fail_status, NULL, 0);
		return 0;
	}
	/* Before any buffer of the size asked: that size may be absurd. */
	if (h->command_id == SEP_CMD_COLLECT_SYS_CONFIG ||
	    h->command_id == SEP_CMD_GET_SYS_CONFIG) {
		sys_config(s, h);
		return 0;
	}
	out = calloc(1, out_len + 8);
	if (!out)
		abort();
	switch (h->command_id) {
	case SEP_CMD_NUM_CORES:
		u32 = MOCK_CPUS;
		memcpy(out, &u32, 4);
		break;
	case SEP_CMD_GET_NORMALIZED_TSC:
		u64 = s->tsc += 1000;
		memcpy(out, &u64, 8);
		break;
	case SEP_CMD_GET_NUM_SAMPLES:
		u64 = 0;
		for (int i = 0; i < MOCK_CPUS; i++)
			u64 += cpu_samples(m, i);
		memcpy(out, &u64, 8);
		break;
	case SEP_CMD_GET_SAMPLE_DROP_INFO: {
		struct sep_sample_drop_info d = { .size = MOCK_CPUS };

		for (int i = 0; i < MOCK_CPUS; i++)
			/* sampled: every sample taken, dropped ones too */
			d.drop_info[i] = (struct sep_sample_drop){
				0, i, cpu_samples(m, i) + m->dropped_per_cpu,
				m->dropped_per_cpu };
		memcpy(out, &d, out_len < sizeof(d) ? out_len : sizeof(d));
		break;
	}
	case ACA_CMD_KERNEL_SYMBOLS:
		/* A loaded target: what comes after waits too, in order. */
		usleep(m->ksym_delay_ms * 1000);
		kernel_symbols(m, h, in, out);
		break;
	case SEP_CMD_NUM_DESCRIPTOR:
		memcpy(&m->num_descriptors, in, 4);
		break;
	case SEP_CMD_INIT_DRIVER: {
		struct sep_drv_config c;

		memcpy(&c, in, sizeof(c));
		m->collection_config = c.collection_config;
		break;
	}
	case SEP_CMD_READ_AND_RESET:
		if (read_and_reset(m, out, out_len)) {
			respond(s, h->command_id, VT_DRIVER_COMM_FAILED, NULL, 0);
			free(out);
			return 0;
		}
		break;
	case SEP_CMD_DESC_NEXT:
		m->descs++;
		break;
	case SEP_CMD_EM_GROUPS: {
		struct sep_event_config ec;

		memcpy(&ec, in, sizeof(ec));
		m->num_groups = ec.num_groups;
		m->em_mode = ec.em_mode;
		m->em_factor = ec.em_factor;
		m->em_event_num = ec.em_event_num;
		break;
	}
	case SEP_CMD_EM_CONFIG_NEXT:
		em_config_next(m, h, in);
		break;
	case ACA_CMD_GROUP_TIMES:
		group_times(m, out, out_len);
		break;
	case ACA_CMD_MODULE_SNAPSHOT:
		module_snapshot(s, h);
		free(out);
		return 0;
	case SEP_CMD_START:
		if (m->mode == MOCK_DIE_AT_START) {
			respond(s, h->command_id, 0, NULL, 0);
			close_channels(s, 0);
			free(out);
			return 1;
		}
		if (m->live) {
			respond(s, h->command_id, 0, NULL, 0);
			flood_samples(s);
			if (m->live == MOCK_LIVE_ALL)
				user_module(s);
			kernel_modules(s);
			free(out);
			return 0;
		}
		break;
	case SEP_CMD_STOP:
		m->stop_seen = 1;
		if (m->mode == MOCK_ANSWER_THEN_DRAIN)
			respond(s, h->command_id, 0, NULL, 0);
		if (!m->live)
			flood(s);
		else if (m->live == MOCK_LIVE_MAPPINGS_AT_STOP)
			user_module(s);
		if (m->mode != MOCK_ANSWER_THEN_DRAIN)
			respond(s, h->command_id, 0, NULL, 0);
		close_channels(s, m->mode == MOCK_KEEP_CHANNEL_OPEN);
		free(out);
		return 0;
	case SEP_CMD_TERMINATE:
		m->terminate_seen = 1;
		respond(s, h->command_id, 0, NULL, 0);
		close_channels(s, 0);
		free(out);
		return 1;
	}
	respond(s, h->command_id, 0, out, out_len);
	free(out);
	return 0;
}

static void *serve(void *arg)
{
	struct session s = { .m = arg };
	struct sep_control_msg_header h;

	for (int i = 0; i < NDATA; i++)
		s.data[i] = -1;
	s.ctl = accept(s.m->listen_fd, NULL, NULL);
	if (s.ctl < 0) {
		fail(s.m, "no control connection");
		return NULL;
	}
	s.m->connected = 1;
	if (s.m->hello != MOCK_HELLO_OK) {
		bad_hello(&s);
		close(s.ctl);
		return NULL;
	}
	hello(&s, VT_SUCCESS, sizeof(struct sep_target_status_msg));
	/* A count no session follows: the host refuses it and goes. */
	if (s.m->num_cpus) {
		host_drain(s.ctl);
		close(s.ctl);
		return NULL;
	}
	if (open_channels(&s)) {
		fail(s.m, "data channels not opened");
		goto out;
	}
	while (!host_recv(s.ctl, &h, sizeof(h))) {
		uint8_t *in = malloc(h.to_target_data_size + 1);
		int done;

		if (h.header_size != sizeof(h) || h.to_target_data_size > (1 << 20) || !in ||
		    (h.to_target_data_size && host_recv(s.ctl, in, h.to_target_data_size))) {
			fail(s.m, "bad request");
			free(in);
			break;
		}
		done = command(&s, &h, in);
		free(in);
		if (done)
			break;
	}
	if (!s.m->terminate_seen && s.m->mode != MOCK_DIE_AT_START)
		fail(s.m, "no TERMINATE");
out:
	/* The host waits for the control channel's end before its data ones'. */
	close(s.ctl);
	/* Whatever the host sent on data channels is read and counted. */
	for (int i = 0; i < NDATA; i++) {
		long long n;

		if (s.data[i] < 0)
			continue;
		n = host_drain(s.data[i]);
		if (n > 0)
			s.m->data_bytes_from_host += n;
		close(s.data[i]);
	}
	return NULL;
}

/* A socket bound to 127.0.0.1 (any free port), listening with @backlog or not. */
static int loopback_socket(int backlog, int *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    (backlog >= 0 && listen(fd, backlog)) ||
	    getsockname(fd, (struct sockaddr *)&a, &len)) {
		close(fd);
		return -1;
	}
	*port = ntohs(a.sin_port);
	return fd;
}

int mock_start(struct mock_target *m)
{
	m->listen_fd = loopback_socket(16, &m->port);
	if (m->listen_fd < 0)
		return -1;
	return pthread_create(&m->thread, NULL, serve, m) ? -1 : 0;
}

int mock_refusing_port(int *fd)
{
	int port;

	*fd = loopback_socket(-1, &port);
	return *fd < 0 ? -1 : port;
}

int mock_full_listener(int fds[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int port;

	fds[1] = -1;
	fds[0] = loopback_socket(0, &port);
	if (fds[0] < 0)
		return -1;
	a.sin_port = htons(port);
	fds[1] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fds[1] < 0 || connect(fds[1], (struct sockaddr *)&a, sizeof(a)))
		return -1;
	return port;
}

int mock_join(struct mock_target *m)
{
	pthread_join(m->thread, NULL);
	close(m->listen_fd);
	return m->failed;
}
