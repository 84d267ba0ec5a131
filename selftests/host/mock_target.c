// SPDX-License-Identifier: GPL-2.0-only
/* A scripted SEP target for collect tests (see mock_target.h). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mock_target.h"
#include "synth.h"
#include "../../tools/aca-host/host.h"
#include "../../tools/aca-host/session.h"
#include "../../uapi/aca_sep_cmd.h"

#define NDATA		(MOCK_CPUS + 2)
#define MODULE_CH	(MOCK_CPUS + 1)

struct session {
	struct mock_target *m;
	int ctl;
	int data[NDATA];
	uint64_t tsc;
};

static void fail(struct mock_target *m, const char *why)
{
	if (!m->failed)
		snprintf(m->why, sizeof(m->why), "%s", why);
	m->failed = 1;
}

static void hello(struct session *s)
{
	struct sep_target_status_msg st = {
		.msg_size = sizeof(st),
		.proto_version = SEP_PROTO_VERSION,
		.os_info_offset = 48, .os_info_size = 200,
		.collect_switch_offset = 248, .collect_switch_size = 8,
		.hardware_info_offset = 256, .hardware_info_size = 40,
		.hardware_info = { .num_cpus = MOCK_CPUS, .tsc_freq = 2000000000ull },
	};
	struct sep_control_first_msg h;

	strcpy(st.os_info.sysname, "Mock");
	strcpy(st.os_info.release, "1.0");
	strcpy(st.os_info.version, "#1 scripted");
	if (host_recv(s->ctl, &h, sizeof(h)) || h.msg_size != sizeof(h))
		fail(s->m, "bad hello");
	host_send(s->ctl, &st, sizeof(st));
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

/* Large enough that a host not reading makes our sends block. */
static void flood(struct session *s)
{
	struct sbuf b = { 0 };

	for (int cpu = 0; cpu < MOCK_CPUS; cpu++) {
		for (uint32_t i = 0; i < s->m->samples_per_cpu; i++)
			synth_sample(&b, sizeof(struct sep_sample_record_pc),
				     MOCK_HOT_IP + i % 16, MOCK_PID, MOCK_PID, 100 + i, cpu);
		host_send(s->data[cpu], b.p, b.len);
		b.len = 0;
	}
	synth_module(&b, MOCK_PID, 0x400000, 0x10000, 0, 0, SEP_MR_UNLOAD_TSC_LOADED,
		     SEP_MR_EXE, "/mock/bin/app");
	synth_module(&b, 0, 0xffffffff81000000ull, 0x1000000, 0, 0,
		     SEP_MR_UNLOAD_TSC_LOADED, SEP_MR_EXE, "vmlinux");
	host_send(s->data[MODULE_CH], b.p, b.len);
	sbuf_free(&b);
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

/* One command; returns 0 to go on, 1 after TERMINATE. */
static int command(struct session *s, const struct sep_control_msg_header *h,
		   const uint8_t *in)
{
	struct mock_target *m = s->m;
	uint64_t out_len = h->from_target_data_size;
	uint8_t *out = calloc(1, out_len + 8);
	uint64_t u64;
	uint32_t u32;

	if (!out)
		abort();
	if (m->ncommands < 64)
		m->commands[m->ncommands++] = h->command_id;
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
		u64 = (uint64_t)MOCK_CPUS * m->samples_per_cpu;
		memcpy(out, &u64, 8);
		break;
	case SEP_CMD_GET_SAMPLE_DROP_INFO: {
		struct sep_sample_drop_info d = { .size = MOCK_CPUS };

		for (int i = 0; i < MOCK_CPUS; i++)
			/* sampled: every sample taken, dropped ones too */
			d.drop_info[i] = (struct sep_sample_drop){
				0, i, m->samples_per_cpu + m->dropped_per_cpu,
				m->dropped_per_cpu };
		memcpy(out, &d, out_len < sizeof(d) ? out_len : sizeof(d));
		break;
	}
	case SEP_CMD_START:
		if (m->mode == MOCK_DIE_AT_START) {
			respond(s, h->command_id, 0, NULL, 0);
			close_channels(s, 0);
			free(out);
			return 1;
		}
		break;
	case SEP_CMD_STOP:
		m->stop_seen = 1;
		if (m->mode == MOCK_ANSWER_THEN_DRAIN)
			respond(s, h->command_id, 0, NULL, 0);
		flood(s);
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
	hello(&s);
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

int mock_start(struct mock_target *m)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int one = 1;

	m->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (m->listen_fd < 0)
		return -1;
	setsockopt(m->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(m->listen_fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(m->listen_fd, 16) ||
	    getsockname(m->listen_fd, (struct sockaddr *)&a, &len))
		return -1;
	m->port = ntohs(a.sin_port);
	return pthread_create(&m->thread, NULL, serve, m) ? -1 : 0;
}

int mock_join(struct mock_target *m)
{
	pthread_join(m->thread, NULL);
	close(m->listen_fd);
	return m->failed;
}
