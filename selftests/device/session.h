/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the in-guest collection tests share: talking to /dev/aca files as a
 * local SEP host (commands, the configuration steps of spec 5.1 with the
 * REF_TSC ECB aca-host builds), and workloads to sample. Include after
 * kselftest_harness.h; everything is static inline so each test takes
 * what it uses. The ECB and the payloads come from build/libaca-host.a
 * (ecb.h, payload.h), which every test including this links.
 */
#ifndef ACA_SELFTESTS_DEVICE_SESSION_H
#define ACA_SELFTESTS_DEVICE_SESSION_H

#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../tools/aca-host/ecb.h"
#include "../../tools/aca-host/payload.h"
#include "../../driver/core/sep_cmd.h"

#define SESSION_MAX_CPUS	64
#define SESSION_RATE_HZ		1000

static inline ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n <= 0)
			return n < 0 ? n : (ssize_t)got;
		got += n;
	}
	return got;
}

/* One command with a request payload; returns the response status. */
static inline int command_io(int fd, uint32_t id, const void *in, uint64_t in_len,
		      void *out, uint64_t out_len)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h), .proto_version = SEP_PROTO_VERSION,
		.command_id = id, .to_target_data_size = in_len,
		.from_target_data_size = out_len,
	};

	if (write(fd, &h, sizeof(h)) != sizeof(h) ||
	    (in_len && write(fd, in, in_len) != (ssize_t)in_len) ||
	    read_full(fd, &h, sizeof(h)) != sizeof(h) || h.command_id != id)
		return -1;
	if (h.status == 0 && out_len &&
	    read_full(fd, out, out_len) != (ssize_t)out_len)
		return -1;
	return h.status;
}

/* One process per CPU, pinned there, spinning for @ms. */
static inline void spin_all(pid_t *pids, int n, int ms)
{
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			struct timespec t0, t;
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(i, &set);
			if (sched_setaffinity(0, sizeof(set), &set))
				_exit(1);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			do {
				clock_gettime(CLOCK_MONOTONIC, &t);
			} while ((t.tv_sec - t0.tv_sec) * 1000 +
				 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
			_exit(0);
		}
	}
}

static inline int wait_all(pid_t *pids, int n)
{
	int bad = 0, status;

	for (int i = 0; i < n; i++)
		if (pids[i] <= 0 || waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
	return bad;
}

/*
 * Spec 5.1 steps 10-17 on control file @ctl for @n CPUs: RESERVE through
 * EM_CONFIG_NEXT, with aca-host's payloads and CPU_CLK_UNHALTED.REF_TSC sampling SESSION_RATE_HZ
 * times a second at @tsc_hz.
 */
static inline void session_configure(struct __test_metadata *_metadata,
				     int ctl, int n, uint64_t tsc_hz)
{
	struct sep_drv_topology_info topo[SESSION_MAX_CPUS];
	struct sep_event_config ec;
	struct sep_event_desc desc;
	struct sep_drv_config dc;
	struct sep_dev_config dev;
	size_t ecb_len = 0;
	uint8_t *ecb = host_ecb_build(HOST_DEFAULT_EVENT,
				      host_sample_after(tsc_hz, SESSION_RATE_HZ),
				      &ecb_len);
	uint32_t one = 1;
	int32_t busy = -1;

	ASSERT_NE(NULL, ecb);
	ASSERT_GE(SESSION_MAX_CPUS, n);
	host_drv_config(&dc);
	host_topology(topo, n);
	host_event_desc(&desc);
	host_dev_config(&dev);
	host_event_config(&ec);
	ASSERT_EQ(0, command_io(ctl, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
	ASSERT_EQ(0, busy);
	ASSERT_EQ(0, command_io(ctl, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), NULL, 0));
	ASSERT_EQ(0, command_io(ctl, SEP_CMD_SET_CPU_TOPOLOGY, topo,
				sizeof(topo[0]) * n, NULL, 0));
	ASSERT_EQ(0, command_io(ctl, SEP_CMD_NUM_DESCRIPTOR, &one, 4, NULL, 0));
	ASSERT_EQ(0, command_io(ctl, SEP_CMD_DESC_NEXT, &desc, sizeof(desc), NULL, 0));
	ASSERT_EQ(0, command_io(ctl, SEP_CMD_INIT, &dev, sizeof(dev), NULL, 0));
	ASSERT_EQ(0, command_io(ctl, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), NULL, 0));
	ASSERT_EQ(0, command_io(ctl, SEP_CMD_EM_CONFIG_NEXT, ecb, ecb_len, NULL, 0));
	free(ecb);
}

#endif /* ACA_SELFTESTS_DEVICE_SESSION_H */
