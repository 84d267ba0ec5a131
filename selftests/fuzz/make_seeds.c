// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed corpus for core_fuzz: real SEP sessions (spec 2-5, 8.3) written in
 * the fuzzer's script format, plus the malformed ones a target must survive.
 *
 *	make_seeds OUTDIR [VECTORS_DIR]
 *
 * VECTORS_DIR holds the ECB test vectors (default selftests/vectors, run
 * from the repository's top, as make does); without them make_seeds fails.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "../../driver/core/sep.h"
#include "../../driver/core/sep_cmd.h"
#include "../../tools/aca-host/payload.h"

/* core_fuzz.c's script: keep in sync with it and README.md. */
enum { OP_ATTACH, OP_WRITE, OP_READ, OP_HANGUP, OP_RELEASE, OP_OPEN, OP_PUMP,
       OP_MISC };

#define CPUS_1		0
#define CPUS_2		1
#define CPUS_4		2
#define CPUS_24		3
#define NO_SAMPLER	0x04
#define START_FAILS	0x08
#define RDMSR_FAILS	0x10
#define TWO_OPENERS	0x20	/* odd connections: another process */
#define PTI		0x40
#define DRAIN		0x80

/* Peers of core_fuzz.c: 0 local, 1 and 2 two IPv4 hosts, 3 an IPv6 host. */
#define LOCAL		0
#define HOST_A		1
#define HOST_B		2

#define REF_TSC_ECB	"bin_ecb.config_6_0_CPU_CLK_UNHALTED.REF_TSC"
#define UNC_IMC_ECB	"bin_ecb.config_6_0_UNC_IMC_DRAM_RW_SLICE0_UNC_IMC_DRAM_RW_SLICE1"

static const char *outdir;
static unsigned char script[1 << 20];
static size_t len;
static int nseeds;
static unsigned int ncpus;

static unsigned char *ecb_core, *ecb_unc;
static size_t ecb_core_len, ecb_unc_len;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("make_seeds: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void put(const void *p, size_t n)
{
	if (len + n > sizeof(script))
		die("script too long");
	memcpy(script + len, p, n);
	len += n;
}

static void put8(unsigned int v)
{
	unsigned char b = v;

	put(&b, 1);
}

static void put16(unsigned int v)
{
	put8(v & 0xff);
	put8(v >> 8);
}

static void op(int kind, int arg, int conn)
{
	put8(kind << 5 | arg << 3 | conn);
}

/* A new script: MAX_CONNS connections, @npeers peers, machine, CPUs, flags. */
static void begin(int npeers, int machine, int cpus, int flags)
{
	static const unsigned int n[] = { 1, 2, 4, 24 };

	len = 0;
	ncpus = n[cpus];
	put8(7 | (npeers - 1) << 3 | machine << 5);
	put8(cpus | flags);
}

static void end(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(script, 1, len, f) != len || fclose(f))
		die("%s: %s", path, strerror(errno));
	nseeds++;
}

static void write_zeros(int conn, size_t z)
{
	while (z) {
		size_t k;

		if (z >= 16 * 16) {
			k = z / 16 > 0xffff ? 0xffff : z / 16;
			op(OP_WRITE, 3, conn);
			put16(k);
			z -= k * 16;
		} else {
			k = z > 0xff ? 0xff : z;
			op(OP_WRITE, 2, conn);
			put8(k);
			z -= k;
		}
	}
}

/* Peer bytes for @conn: literal runs, and runs of zeros as one op. */
static void write_bytes(int conn, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i = 0;

	while (i < n) {
		size_t z = 0, lit = 0;

		while (i + z < n && !p[i + z])
			z++;
		if (z >= 8 || (z && i + z == n)) {
			write_zeros(conn, z);
			i += z;
			continue;
		}
		/* a literal run, up to the next 8 zeros or trailing zeros */
		while (i + lit < n && lit < 0xffff) {
			size_t k = 0;

			while (i + lit + k < n && !p[i + lit + k] && k < 8)
				k++;
			if (k == 8 || (k && i + lit + k == n))
				break;
			lit += k ? k : 1;
		}
		if (lit > 0xffff)
			lit = 0xffff;
		if (lit > 0xff) {
			op(OP_WRITE, 1, conn);
			put16(lit);
		} else {
			op(OP_WRITE, 0, conn);
			put8(lit);
		}
		put(p + i, lit);
		i += lit;
	}
}

static void attach(int conn, int peer)
{
	op(OP_ATTACH, peer, conn);
}

static void pump(int conn)
{
	op(OP_PUMP, 0, conn);
}

static void pump_all(void)
{
	op(OP_PUMP, 1, 0);
}

static void chunk(int conn, unsigned int n)
{
	op(OP_PUMP, 2, conn);
	put8(n);
}

static void read_some(int conn, unsigned int n)
{
	op(OP_READ, 0, conn);
	put8(n - 1);
}

static void hangup(int conn)
{
	op(OP_HANGUP, 0, conn);
}

static void release(int conn)
{
	op(OP_RELEASE, 0, conn);
}

static void fail_alloc(unsigned int nth)
{
	op(OP_MISC, 0, 0);
	put8(nth);
}

static void hello_sized(int conn, unsigned int size)
{
	struct sep_control_first_msg h = {
		.msg_size = size, .proto_version = SEP_PROTO_VERSION,
	};

	write_bytes(conn, &h, sizeof(h));
	pump(conn);
}

static void hello(int conn)
{
	hello_sized(conn, sizeof(struct sep_control_first_msg));
}

/* One request, raw: header as given, then its payload; then the reply. */
static void request_raw(int conn, const struct sep_control_msg_header *h,
			const void *payload, size_t n)
{
	unsigned char buf[48 + 16384];

	if (n <= sizeof(buf) - sizeof(*h)) {
		memcpy(buf, h, sizeof(*h));
		memcpy(buf + sizeof(*h), payload, n);
		write_bytes(conn, buf, sizeof(*h) + n);
	} else {
		write_bytes(conn, h, sizeof(*h));
		write_bytes(conn, payload, n);
	}
	pump(conn);
}

static void request(int conn, unsigned int id, const void *payload, size_t n,
		    unsigned long long asked)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h), .proto_version = SEP_PROTO_VERSION,
		.command_id = id, .to_target_data_size = n,
		.from_target_data_size = asked,
	};

	request_raw(conn, &h, payload, n);
}

static void request_u32(int conn, unsigned int id, __u32 v,
			unsigned long long asked)
{
	request(conn, id, &v, sizeof(v), asked);
}

/* ---- the host test suite's payloads (spec 5.2 - 5.7) ---- */

static struct sep_drv_config drv_config(__u64 collection_config)
{
	struct sep_drv_config c;

	host_drv_config(&c);
	c.size = 120;		/* sic: the test host sends 120 */
	c.collection_config = collection_config;
	return c;
}

static void set_topology(int conn)
{
	struct sep_drv_topology_info t[24];

	memset(t, 0, sizeof(t));
	host_topology(t, ncpus);
	request(conn, SEP_CMD_SET_CPU_TOPOLOGY, t, ncpus * sizeof(t[0]), 0);
}

static void descriptors(int conn)
{
	struct sep_event_desc d = { .sample_size = 48 };

	request_u32(conn, SEP_CMD_NUM_DESCRIPTOR, 2, 0);
	request(conn, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0);
	request(conn, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0);
}

static void core_device(int conn)
{
	static struct sep_dev_config dev;
	struct sep_event_config ec = {
		.num_groups = 1, .em_mode = SEP_EM_DISABLED, .em_factor = -1,
		.em_event_num = -1, .sample_size = 48, .max_gp_events = 4,
		.max_fixed_counters = 3,
	};

	memset(&dev, 0, sizeof(dev));
	dev.dispatch_id = SEP_DISPATCH_COREI7;
	dev.results_offset = 48;
	dev.max_gp_counters = 4;
	request(conn, SEP_CMD_INIT, &dev, sizeof(dev), 0);
	request(conn, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), 0);
	request(conn, SEP_CMD_EM_CONFIG_NEXT, ecb_core, ecb_core_len, 0);
	request_u32(conn, SEP_CMD_SET_DEVICE_NUM_UNITS, 4, 0);
}

static void uncore_device(int conn)
{
	static struct sep_dev_unc_config dev;
	struct sep_event_config ec = {
		.num_groups = 1, .em_mode = SEP_EM_DISABLED, .em_factor = -1,
		.em_event_num = -1, .max_gp_events = 4, .max_fixed_counters = 3,
		.num_groups_unc = 1,
	};

	memset(&dev, 0, sizeof(dev));
	dev.dispatch_id = SEP_DISPATCH_UNC_MMIO;
	dev.results_offset = 32;
	dev.device_type = SEP_UNC_DEV_SINGLE_INSTANCE;
	request(conn, SEP_CMD_INIT_UNC, &dev, sizeof(dev), 0);
	request(conn, SEP_CMD_EM_GROUPS_UNC, &ec, sizeof(ec), 0);
	request(conn, SEP_CMD_EM_CONFIG_NEXT_UNC, ecb_unc, ecb_unc_len, 0);
	request_u32(conn, SEP_CMD_SET_DEVICE_NUM_UNITS, 1, 0);
}

/*
 * GET_SYS_CONFIG asks for what COLLECT_SYS_CONFIG answered; this is close
 * to what core_fuzz's machines report (the exact length does not matter:
 * the reply is cut or zero-padded to what is asked).
 */
static unsigned long long sys_config_size(void)
{
	return 248 + (168 + 20 * 42) * (unsigned long long)ncpus;
}

static void sys_config(int conn)
{
	request(conn, SEP_CMD_COLLECT_SYS_CONFIG, NULL, 0, 4);
	request(conn, SEP_CMD_GET_SYS_CONFIG, NULL, 0, sys_config_size());
}

/* Control on conn 0 from @peer, then its N+2 data channels on 1..N+2. */
static void session(int peer)
{
	attach(0, peer);
	hello(0);
	for (unsigned int i = 0; i < ncpus + 2 && i < 7; i++)
		attach(1 + i, peer);
	pump_all();
}

/* The same, but nobody reads the data channels (not even their hellos). */
static void session_unread(int peer)
{
	attach(0, peer);
	hello(0);
	for (unsigned int i = 0; i < ncpus + 2 && i < 7; i++)
		attach(1 + i, peer);
}

/* Spec 5.1 steps 1-10: what every test does before configuring. */
static void preamble(int conn)
{
	struct sep_drv_log_control log = {
		.command = SEP_DRV_LOG_CMD_ADJUST_VERBOSITY,
	};

	request(conn, SEP_CMD_SET_OSID, NULL, 0, 0);
	request(conn, SEP_CMD_VERSION, NULL, 0, 4);
	request(conn, SEP_CMD_GET_DRV_SETUP_INFO, NULL, 0, 32);
	for (int i = 0; i < 4; i++) {
		sys_config(conn);
		request(conn, SEP_CMD_GET_PLATFORM_INFO, NULL, 0,
			sizeof(struct sep_drv_platform_info));
	}
	request(conn, SEP_CMD_NUM_CORES, NULL, 0, 4);
	request_u32(conn, SEP_CMD_READ_MSR, 0x2be, 0);
	request(conn, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, 8);
	request(conn, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, 8);
	request(conn, SEP_CMD_CONTROL_DRIVER_LOG, &log, sizeof(log), 0);
	request_u32(conn, SEP_CMD_INIT_NUM_DEV, 4, 0);
	request(conn, SEP_CMD_RESERVE, NULL, 0, 4);
}

/* Steps 11-20: configure a collection. */
static void configure(int conn, bool uncore, __u64 collection_config)
{
	struct sep_drv_config cfg = drv_config(collection_config);

	request(conn, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	set_topology(conn);
	descriptors(conn);
	core_device(conn);
	if (uncore)
		uncore_device(conn);
	request(conn, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, 8);
	request_u32(conn, SEP_CMD_INIT_PMU, ncpus * 7 * 8, 0);
}

/* Steps 24-28: stop, read every channel to EOF, wrap up, terminate. */
static void finish(int conn, bool uncore)
{
	request(conn, SEP_CMD_STOP, NULL, 0, 0);
	pump_all();
	if (uncore) {
		request(conn, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, 8);
		request(conn, SEP_CMD_TSC_SKEW_INFO, NULL, 0, 32);
		sys_config(conn);
		request(conn, SEP_CMD_GET_PLATFORM_INFO, NULL, 0,
			sizeof(struct sep_drv_platform_info));
		request(conn, SEP_CMD_NUM_CORES, NULL, 0, 4);
	}
	request(conn, SEP_CMD_GET_NUM_SAMPLES, NULL, 0, 8);
	request(conn, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0,
		sizeof(struct sep_sample_drop_info));
	request(conn, SEP_CMD_TERMINATE, NULL, 0, 0);
}

/* The host closes data channels first, then the control connection. */
static void close_all(void)
{
	for (int i = 7; i >= 0; i--) {
		hangup(i);
		release(i);
	}
}

static void collection(const char *name, int machine, int cpus, int flags,
		       bool uncore)
{
	begin(2, machine, cpus, flags | DRAIN);
	session(HOST_A);
	preamble(0);
	configure(0, uncore, 0x4400);
	request(0, SEP_CMD_START, NULL, 0, 0);
	finish(0, uncore);
	pump_all();
	close_all();
	end(name);
}

/* ---- seeds ---- */

static void info_seed(const char *name, unsigned int id, const void *payload,
		      size_t n, unsigned long long asked)
{
	begin(1, 0, CPUS_2, DRAIN);
	session(LOCAL);
	request(0, id, payload, n, asked);
	request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
	end(name);
}

static void info_all(int conn)
{
	struct sep_drv_log_control log = {
		.command = SEP_DRV_LOG_CMD_ADJUST_VERBOSITY,
	};
	struct sep_event_reg reg = { .event_reg_id.reg_id = 0x186, .reg_value = 0x5300c0 };

	request(conn, SEP_CMD_VERSION, NULL, 0, 4);
	request(conn, SEP_CMD_GET_DRV_SETUP_INFO, NULL, 0, 32);
	sys_config(conn);
	request(conn, SEP_CMD_GET_PLATFORM_INFO, NULL, 0,
		sizeof(struct sep_drv_platform_info));
	request(conn, SEP_CMD_NUM_CORES, NULL, 0, 4);
	request(conn, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, 8);
	request(conn, SEP_CMD_GET_NORMALIZED_TSC_STANDALONE, NULL, 0, 8);
	request(conn, SEP_CMD_TSC_SKEW_INFO, NULL, 0, 32);
	request(conn, SEP_CMD_KERNEL_CS, NULL, 0, 4);
	request(conn, SEP_CMD_GET_NUM_CORE_CTRS, NULL, 0, 4);
	request(conn, SEP_CMD_GET_PERF_CAPAB, NULL, 0, 8 * ncpus);
	request(conn, SEP_CMD_GET_NUM_SAMPLES, NULL, 0, 8);
	request(conn, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0,
		sizeof(struct sep_sample_drop_info));
	request(conn, SEP_CMD_GET_THREAD_COUNT, NULL, 0, 4);
	request(conn, SEP_CMD_GET_DRIVER_STATE, NULL, 0, 4);
	request(conn, SEP_CMD_PAX_INFO, NULL, 0, 32);
	request(conn, SEP_CMD_GET_DRIVER_LOG, NULL, 0, 4096);
	request(conn, SEP_CMD_CONTROL_DRIVER_LOG, &log, sizeof(log), sizeof(log));
	log.command = SEP_DRV_LOG_CMD_QUERY_SIZE;
	request(conn, SEP_CMD_CONTROL_DRIVER_LOG, &log, sizeof(log), sizeof(log));
	request_u32(conn, SEP_CMD_READ_MSR, 0x345, 8 * ncpus);
	request_u32(conn, SEP_CMD_READ_MSR, 0x10, 8 * ncpus);
	request_u32(conn, SEP_CMD_READ_MSR, 0x611, 8 * ncpus);	/* RAPL energy */
	request(conn, SEP_CMD_WRITE_MSR, &reg, sizeof(reg), 0);
	reg.event_reg_id.reg_id = 0x10;
	request(conn, SEP_CMD_WRITE_MSR, &reg, sizeof(reg), 0);
	request_u32(conn, SEP_CMD_SET_OSID, 7, 0);
	request(conn, SEP_CMD_RESERVE, NULL, 0, 4);
	request(conn, SEP_CMD_RESERVE, NULL, 0, 4);
	request(conn, SEP_CMD_GET_DRIVER_STATE, NULL, 0, 4);
	request(conn, SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO, NULL, 0, 0);
	request(conn, 99, NULL, 0, 4);
}

static void info_seeds(void)
{
	struct sep_drv_log_control log = {
		.command = SEP_DRV_LOG_CMD_ADJUST_VERBOSITY,
	};
	static const char *const machine[] = {
		"coffeelake", "kvm", "quirky-hv", "amd", "odd-cpus-offline",
	};
	static const int cpus[] = { CPUS_2, CPUS_4, CPUS_1, CPUS_2, CPUS_24 };
	char name[64];

	info_seed("info-version", SEP_CMD_VERSION, NULL, 0, 4);
	info_seed("info-setup", SEP_CMD_GET_DRV_SETUP_INFO, NULL, 0, 32);
	info_seed("info-collect-sys-config", SEP_CMD_COLLECT_SYS_CONFIG, NULL, 0, 4);
	info_seed("info-get-sys-config", SEP_CMD_GET_SYS_CONFIG, NULL, 0, 4096);
	info_seed("info-platform", SEP_CMD_GET_PLATFORM_INFO, NULL, 0,
		  sizeof(struct sep_drv_platform_info));
	info_seed("info-num-cores", SEP_CMD_NUM_CORES, NULL, 0, 4);
	info_seed("info-tsc", SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, 8);
	info_seed("info-tsc-skew", SEP_CMD_TSC_SKEW_INFO, NULL, 0, 32);
	info_seed("info-kernel-cs", SEP_CMD_KERNEL_CS, NULL, 0, 4);
	info_seed("info-num-core-ctrs", SEP_CMD_GET_NUM_CORE_CTRS, NULL, 0, 4);
	info_seed("info-perf-capab", SEP_CMD_GET_PERF_CAPAB, NULL, 0, 16);
	info_seed("info-num-samples", SEP_CMD_GET_NUM_SAMPLES, NULL, 0, 8);
	info_seed("info-drop-info", SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0,
		  sizeof(struct sep_sample_drop_info));
	info_seed("info-thread-count", SEP_CMD_GET_THREAD_COUNT, NULL, 0, 4);
	info_seed("info-driver-state", SEP_CMD_GET_DRIVER_STATE, NULL, 0, 4);
	info_seed("info-pax", SEP_CMD_PAX_INFO, NULL, 0, 32);
	info_seed("info-driver-log", SEP_CMD_CONTROL_DRIVER_LOG, &log,
		  sizeof(log), sizeof(log));

	for (int m = 0; m < 5; m++) {
		begin(1, m, cpus[m], m == 2 ? PTI : 0);
		session(LOCAL);
		info_all(0);
		request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
		end((snprintf(name, sizeof(name), "info-all-%s", machine[m]), name));
	}
	begin(1, 0, CPUS_2, RDMSR_FAILS | TWO_OPENERS | NO_SAMPLER);
	session(LOCAL);
	info_all(0);
	end("info-all-msr-faults");
	/* Machine 6: machine 1 without CAP_PERFMON: RAPL refused, all else. */
	begin(1, 6, CPUS_4, 0);
	session(LOCAL);
	info_all(0);
	request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
	end("info-all-unprivileged");
}

static void collection_seeds(void)
{
	struct sep_drv_config cfg;

	collection("collection-core", 0, CPUS_2, 0, false);
	/* Machine 5: machine 0, opened without CAP_PERFMON (refused, 213). */
	collection("collection-unprivileged", 5, CPUS_2, 0, false);
	collection("collection-uncore", 0, CPUS_2, 0, true);
	collection("collection-kvm-4cpus", 1, CPUS_4, 0, true);
	collection("collection-no-sampler", 0, CPUS_1, NO_SAMPLER, false);
	collection("collection-start-fails", 0, CPUS_1, START_FAILS, false);

	/* every byte on its own, replies read in small pieces */
	begin(2, 0, CPUS_1, DRAIN);
	chunk(0, 1);
	session(HOST_A);
	preamble(0);
	configure(0, true, 0x4400);
	request(0, SEP_CMD_START, NULL, 0, 0);
	read_some(0, 7);
	finish(0, true);
	end("collection-fragmented");

	/* start paused, resume, pause, stop */
	begin(2, 0, CPUS_2, DRAIN);
	session(HOST_A);
	preamble(0);
	configure(0, false, 0x4400 | SEP_DRV_CFG_START_PAUSED);
	request(0, SEP_CMD_START, NULL, 0, 0);
	request(0, SEP_CMD_GET_DRIVER_STATE, NULL, 0, 4);
	request(0, SEP_CMD_RESUME, NULL, 0, 0);
	request(0, SEP_CMD_PAUSE, NULL, 0, 0);
	request(0, SEP_CMD_PAUSE, NULL, 0, 0);
	request(0, SEP_CMD_RESUME, NULL, 0, 0);
	finish(0, false);
	end("collection-pause-resume");

	/*
	 * Spec 13: STOP is answered only once every data channel is read to
	 * its end; the control takes nothing meanwhile. Then the same with
	 * the control gone, or the data channels closed, while STOP waits.
	 */
	begin(2, 0, CPUS_2, DRAIN);
	session_unread(HOST_A);
	preamble(0);
	configure(0, false, 0x4400);
	request(0, SEP_CMD_START, NULL, 0, 0);
	request(0, SEP_CMD_STOP, NULL, 0, 0);
	request(0, SEP_CMD_GET_NUM_SAMPLES, NULL, 0, 8);
	for (int i = 1; i <= 4; i++)
		pump(i);
	pump(0);
	request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
	end("collection-stop-waits-for-drain");

	begin(2, 0, CPUS_2, 0);
	session_unread(HOST_A);
	preamble(0);
	configure(0, false, 0x4400);
	request(0, SEP_CMD_START, NULL, 0, 0);
	request(0, SEP_CMD_STOP, NULL, 0, 0);
	hangup(0);
	pump_all();
	end("collection-hangup-during-stop");

	begin(2, 0, CPUS_2, DRAIN);
	session_unread(HOST_A);
	preamble(0);
	configure(0, false, 0x4400);
	request(0, SEP_CMD_START, NULL, 0, 0);
	request(0, SEP_CMD_STOP, NULL, 0, 0);
	pump(1);
	for (int i = 2; i <= 4; i++)
		release(i);
	pump(0);
	request(0, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0,
		sizeof(struct sep_sample_drop_info));
	end("collection-data-closed-during-stop");

	/*
	 * The module channel connects late: after STOP was answered it gets
	 * its first message, then EOF; while STOP waits it joins the drain.
	 */
	for (int answered = 1; answered >= 0; answered--) {
		begin(2, 0, CPUS_2, DRAIN);
		attach(0, HOST_A);
		hello(0);
		for (unsigned int i = 0; i < ncpus + 1; i++)
			attach(1 + i, HOST_A);
		if (answered)
			pump_all();
		preamble(0);
		configure(0, false, 0x4400);
		request(0, SEP_CMD_START, NULL, 0, 0);
		request(0, SEP_CMD_STOP, NULL, 0, 0);
		attach(ncpus + 2, HOST_A);
		pump_all();
		request(0, SEP_CMD_GET_NUM_SAMPLES, NULL, 0, 8);
		request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
		close_all();
		end(answered ? "collection-channel-after-stop" :
			       "collection-channel-during-stop");
	}

	/* the host goes away mid-collection: hangup, release, TERMINATE */
	begin(2, 0, CPUS_2, 0);
	session(HOST_A);
	preamble(0);
	configure(0, false, 0x4400);
	request(0, SEP_CMD_START, NULL, 0, 0);
	hangup(0);
	pump_all();
	end("collection-hangup-running");

	begin(2, 0, CPUS_2, 0);
	session(HOST_A);
	preamble(0);
	configure(0, false, 0x4400);
	request(0, SEP_CMD_START, NULL, 0, 0);
	release(0);
	pump_all();
	end("collection-release-running");

	begin(2, 0, CPUS_2, DRAIN);
	session(HOST_A);
	preamble(0);
	configure(0, true, 0x4400);
	request(0, SEP_CMD_START, NULL, 0, 0);
	request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
	pump_all();
	close_all();
	end("collection-terminate-running");

	/* counting mode is refused; then a START without events */
	begin(2, 0, CPUS_1, DRAIN);
	session(HOST_A);
	preamble(0);
	cfg = drv_config(SEP_DRV_CFG_COUNTING_MODE);
	request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	cfg = drv_config(0x4400);
	request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	request(0, SEP_CMD_START, NULL, 0, 0);
	request(0, SEP_CMD_STOP, NULL, 0, 0);
	request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
	end("collection-refused");

	/* a whole session, then a second host takes over */
	begin(3, 0, CPUS_1, DRAIN);
	session(HOST_A);
	preamble(0);
	configure(0, false, 0x4400);
	request(0, SEP_CMD_START, NULL, 0, 0);
	finish(0, false);
	pump_all();
	for (int i = 0; i < 4; i++)
		release(i);
	session(HOST_B);
	preamble(0);
	request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
	end("collection-then-next-host");
}

static void host_seeds(void)
{
	struct sep_control_msg_header h = {
		.header_size = 40, .proto_version = SEP_PROTO_VERSION,
		.command_id = SEP_CMD_VERSION, .to_target_data_size = 10,
		.from_target_data_size = 4,
	};
	static const unsigned char junk[10] = "0123456789";
	unsigned char data_hello[24] = { 0x18, 0, 0, 0, 6 };

	begin(1, 0, CPUS_1, 0);
	attach(0, LOCAL);
	hello(0);
	end("hello");

	/* the first connection attaches itself on first use */
	begin(1, 0, CPUS_1, DRAIN);
	hello(0);
	request(0, SEP_CMD_VERSION, NULL, 0, 4);
	end("hello-implicit-attach");

	begin(1, 0, CPUS_1, 0);
	chunk(0, 1);
	attach(0, LOCAL);
	hello(0);
	request(0, SEP_CMD_NUM_CORES, NULL, 0, 4);
	end("hello-byte-by-byte");

	/* a v3 host: its hello starts with its version */
	begin(1, 0, CPUS_1, DRAIN);
	attach(0, LOCAL);
	hello_sized(0, 3);
	request(0, SEP_CMD_VERSION, NULL, 0, 4);
	attach(1, LOCAL);
	hello(1);
	end("hello-bad-size");

	/* a second host while a session runs: 219, then closed */
	begin(2, 0, CPUS_1, DRAIN);
	session(HOST_A);
	attach(5, HOST_B);
	hello(5);
	attach(6, HOST_A);	/* all N+2 channels are taken: busy too */
	hello(6);
	request(0, SEP_CMD_VERSION, NULL, 0, 4);
	end("second-host-busy");

	/*
	 * Another process names the session's address: busy, and the
	 * session's own next connection is still its first data channel.
	 * Then a fresh connection only polled (peeked) stays unattached.
	 */
	begin(2, 0, CPUS_1, TWO_OPENERS | DRAIN);
	attach(0, HOST_A);
	hello(0);
	attach(1, HOST_A);	/* odd: the other opener */
	hello(1);
	attach(2, HOST_A);
	pump_all();
	op(OP_OPEN, 0, 4);
	op(OP_READ, 3, 4);
	request(0, SEP_CMD_VERSION, NULL, 0, 4);
	end("other-opener-busy");

	/* hung up before it attached: a data channel that is over at once */
	begin(2, 0, CPUS_1, DRAIN);
	attach(0, HOST_A);
	hello(0);
	op(OP_OPEN, 0, 1);
	hangup(1);
	attach(1, HOST_A);
	pump_all();
	request(0, SEP_CMD_VERSION, NULL, 0, 4);
	end("data-channel-hung-up-before-attach");

	/* ... and its bad hello */
	begin(2, 0, CPUS_1, DRAIN);
	session(HOST_A);
	attach(5, HOST_B);
	hello_sized(5, 0x1000);
	end("second-host-bad-hello");

	/* data channels before the control's hello; hosts talk on them */
	begin(2, 0, CPUS_2, DRAIN);
	attach(0, HOST_A);
	for (int i = 1; i <= 4; i++) {
		attach(i, HOST_A);
		write_bytes(i, data_hello, sizeof(data_hello));
	}
	hello(0);
	pump_all();
	release(2);
	attach(2, HOST_A);
	request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
	pump_all();
	end("data-channels-first");

	/* header_size != 48: payload eaten, 218, and the session goes on */
	begin(1, 0, CPUS_1, DRAIN);
	session(LOCAL);
	request_raw(0, &h, junk, sizeof(junk));
	request(0, SEP_CMD_VERSION, NULL, 0, 4);
	end("header-size-40");

	/* command 0: payload eaten, no reply */
	begin(1, 0, CPUS_1, DRAIN);
	session(LOCAL);
	request(0, SEP_CMD_NONE, junk, sizeof(junk), 8);
	request(0, SEP_CMD_VERSION, NULL, 0, 4);
	end("command-0");

	/* absurd sizes: refused, session ended */
	begin(1, 0, CPUS_1, DRAIN);
	session(LOCAL);
	request(0, SEP_CMD_VERSION, NULL, 0, 1ull << 24);
	request(0, SEP_CMD_VERSION, NULL, 0, (1ull << 24) + 1);
	request(0, SEP_CMD_GET_SYS_CONFIG, NULL, 0, ~0ull);
	h.header_size = 48;
	h.to_target_data_size = 1ull << 40;
	request_raw(0, &h, NULL, 0);
	request(0, SEP_CMD_VERSION, NULL, 0, 4);
	end("huge-sizes");

	begin(1, 0, CPUS_1, DRAIN);
	session(LOCAL);
	h.command_id = SEP_CMD_NONE;
	h.to_target_data_size = (1ull << 20) + 1;
	request_raw(0, &h, NULL, 0);
	request(0, SEP_CMD_VERSION, NULL, 0, 4);
	end("huge-command-0");

	/* the largest payload accepted, then one byte more */
	begin(1, 0, CPUS_1, DRAIN);
	session(LOCAL);
	h.command_id = SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO;
	h.to_target_data_size = 1u << 20;
	request_raw(0, &h, NULL, 0);
	op(OP_WRITE, 3, 0);
	put16(0xffff);
	op(OP_WRITE, 2, 0);
	put8(16);
	pump(0);
	request(0, SEP_CMD_VERSION, NULL, 0, 4);
	end("payload-1mib");

	/* out of memory: at the session's start, for a payload, for a reply */
	begin(1, 0, CPUS_1, DRAIN);
	fail_alloc(0);
	attach(0, LOCAL);
	hello(0);
	attach(1, LOCAL);
	hello(1);
	end("nomem-session");

	begin(1, 0, CPUS_1, DRAIN);
	session(LOCAL);
	request(0, SEP_CMD_RESERVE, NULL, 0, 4);
	fail_alloc(0);
	{
		struct sep_drv_config cfg = drv_config(0x4400);

		request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	}
	fail_alloc(0);
	request(0, SEP_CMD_GET_PLATFORM_INFO, NULL, 0,
		sizeof(struct sep_drv_platform_info));
	fail_alloc(0);
	request(0, SEP_CMD_COLLECT_SYS_CONFIG, NULL, 0, 4);
	end("nomem-commands");

	/* hangups: mid-header, mid-payload, with a reply unread */
	begin(1, 0, CPUS_1, 0);
	session(LOCAL);
	write_bytes(0, &h, 20);
	hangup(0);
	attach(1, LOCAL);
	hello(1);
	end("hangup-mid-header");

	begin(1, 0, CPUS_1, DRAIN);
	session(LOCAL);
	{
		struct sep_control_msg_header v = {
			.header_size = 48, .proto_version = SEP_PROTO_VERSION,
			.command_id = SEP_CMD_VERSION, .from_target_data_size = 4,
		};

		write_bytes(0, &v, sizeof(v));
	}
	hangup(0);
	read_some(0, 30);
	end("hangup-reply-unread");

	begin(1, 0, CPUS_1, 0);
	hangup(0);
	attach(0, LOCAL);
	attach(1, LOCAL);
	pump_all();
	end("hangup-before-attach");
}

static unsigned char *load(const char *dir, const char *name, size_t *n)
{
	char path[4096];
	unsigned char *p;
	FILE *f;
	long size;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		die("%s: %s", path, strerror(errno));
	p = malloc(size ? size : 1);
	if (!p || fread(p, 1, size, f) != (size_t)size)
		die("%s: short read", path);
	fclose(f);
	*n = size;
	return p;
}

/* ---- ECBs derived from the reference vector (spec 6) ---- */

static unsigned char ecb[sizeof(struct sep_ecb) + 40 * sizeof(struct sep_event_reg)];
static size_t ecb_len;

static struct sep_ecb *ecb_hdr(void)
{
	return (struct sep_ecb *)ecb;
}

static struct sep_event_reg *ecb_slot(unsigned int i)
{
	return (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb)) + i;
}

/* The REF_TSC vector, @nslots entry slots long, for group @group. */
static void ecb_from_vector(unsigned int nslots, unsigned int group)
{
	memset(ecb, 0, sizeof(ecb));
	memcpy(ecb, ecb_core, ecb_core_len < sizeof(ecb) ? ecb_core_len : sizeof(ecb));
	ecb_len = sizeof(struct sep_ecb) + nslots * sizeof(struct sep_event_reg);
	ecb_hdr()->group_id = group;
	ecb_hdr()->size_of_allocation = ecb_len;
}

static void ecb_section(unsigned int op, __u32 start, __u32 n)
{
	ecb_hdr()->operations[op].register_start = start;
	ecb_hdr()->operations[op].register_len = n;
}

static void ecb_reg(unsigned int i, __u32 msr, __u64 value, __u64 max_bits)
{
	struct sep_event_reg *r = ecb_slot(i);

	r->event_reg_id.reg_id = msr;
	r->reg_value = value;
	r->max_bits = max_bits;
	r->reg_type = max_bits ? SEP_REG_TYPE_DATA : SEP_REG_TYPE_CCCR;
	r->event_id_index = i;
}

/*
 * Fixed counters 0-2 and three general counters: INST_RETIRED.ANY_P on
 * PMC0, OFFCORE_RESPONSE_0/1 on PMC1/2 with their MSRs (spec 6.5, 6.8).
 */
static void ecb_gp_events(unsigned int group)
{
	const __u64 w48 = 0xffffffffffffull;

	ecb_from_vector(22, group);
	ecb_reg(0, 0x38f, 0x700000007ull, 0);		/* GLOBAL_CTRL */
	ecb_reg(4, 0x38d, 0x0bbb, 0);			/* FIXED_CTR_CTRL */
	ecb_reg(5, 0x186, 0x5300c0, 0);			/* PERFEVTSEL0 */
	ecb_reg(6, 0x187, 0x5301b7, 0);			/* PERFEVTSEL1 */
	ecb_reg(7, 0x188, 0x5301bb, 0);			/* PERFEVTSEL2 */
	ecb_reg(9, 0x309, w48 + 1 - 2000003, w48);	/* FIXED_CTR0 */
	ecb_reg(10, 0x30a, w48 + 1 - 2000003, w48);	/* FIXED_CTR1 */
	ecb_reg(12, 0xc1, w48 + 1 - 100003, w48);	/* PMC0 */
	ecb_reg(13, 0xc2, w48 + 1 - 10007, w48);	/* PMC1 */
	ecb_reg(14, 0xc3, w48 + 1 - 10007, w48);	/* PMC2 */
	ecb_reg(16, 0x1a6, 0x10001, 0);			/* OFFCORE_RSP_0 */
	ecb_reg(17, 0x1a7, 0x20001, 0);			/* OFFCORE_RSP_1 */
}

static void ecb_request(int conn, unsigned int id)
{
	request(conn, id, ecb, ecb_len, sizeof(struct sep_drv_ioctl_status));
}

static void ecb_seeds(void)
{
	struct sep_drv_config cfg = drv_config(0x4400);
	struct sep_event_config ec = {
		.num_groups = 2, .em_mode = SEP_EM_TIMER_BASED, .em_factor = 10,
		.em_event_num = -1, .sample_size = 48, .max_gp_events = 4,
		.max_fixed_counters = 3,
	};

	/* two groups: the reference event, then fixed and general counters */
	begin(2, 1, CPUS_4, DRAIN);
	session(HOST_A);
	request(0, SEP_CMD_RESERVE, NULL, 0, 4);
	request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	set_topology(0);
	descriptors(0);
	request(0, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), 0);
	request(0, SEP_CMD_EM_CONFIG_NEXT, ecb_core, ecb_core_len,
		sizeof(struct sep_drv_ioctl_status));
	ecb_gp_events(1);
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	request(0, SEP_CMD_EM_CONFIG_NEXT_UNC, ecb_unc, ecb_unc_len,
		sizeof(struct sep_drv_ioctl_status));
	request(0, SEP_CMD_START, NULL, 0, 0);
	request(0, SEP_CMD_PAUSE, NULL, 0, 0);
	finish(0, false);
	end("collection-gp-events");

	/* ECBs to refuse, each answered 159; the last one good */
	begin(1, 0, CPUS_1, DRAIN);
	session(LOCAL);
	request(0, SEP_CMD_RESERVE, NULL, 0, 4);
	request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	ec.num_groups = 1;
	request(0, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), 0);
	ecb_gp_events(0);
	ecb_slot(5)->event_reg_id.reg_id = 0;		/* PMC0 without select */
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_gp_events(0);
	ecb_reg(14, 0x10, 1, 0);			/* TSC: not allowed */
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_gp_events(0);
	ecb_hdr()->operations[SEP_OP_DATA_FIXED].register_len = 5;
	ecb_reg(11, 0x30b, 1, 0xffff);
	ecb_reg(12, 0x30c, 1, 0xffff);
	ecb_reg(13, 0x30c, 1, 0xffff);			/* fixed counter 4 */
	ecb_slot(0)->reg_value = ~0ull;
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_gp_events(0);
	ecb_hdr()->operations[SEP_OP_DATA_GP].register_len = 20;	/* beyond */
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_gp_events(0);
	ecb_slot(12)->reg_value = 0;			/* no sample-after value */
	ecb_slot(12)->max_bits = 0;
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_gp_events(3);				/* no such group */
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_gp_events(0);
	ecb_hdr()->device_type = SEP_DEVICE_UNC_IMC;
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	request(0, SEP_CMD_EM_CONFIG_NEXT, ecb_core, 100, 48);	/* short */
	ecb_gp_events(0);
	ecb_slot(12)->max_bits = ~0ull;			/* a bit-63 period */
	ecb_slot(12)->reg_value = 1;
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_gp_events(0);
	ecb_slot(12)->max_bits = (1ull << 49) - 1;	/* 49-bit counter */
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_gp_events(0);
	ecb_slot(9)->max_bits = 0xfffffffffffeull;	/* not 2^n - 1 */
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_from_vector(40, 0);
	ecb_section(SEP_OP_DATA_FIXED, 9, 17);		/* 17 fixed counters */
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_from_vector(40, 0);
	ecb_section(SEP_OP_DATA_GP, 0, 33);		/* 33 general counters */
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	/* 17 events: every general counter slot a counter with a select */
	ecb_from_vector(40, 0);
	ecb_section(SEP_OP_CTRL_GP, 0, 18);
	ecb_section(SEP_OP_DATA_GP, 18, 18);
	ecb_section(SEP_OP_GLOBAL_REGS, 36, 1);
	ecb_section(SEP_OP_DATA_FIXED, 0, 0);
	ecb_section(SEP_OP_OCR, 0, 0);
	ecb_section(SEP_OP_ALL_REG, 0, 37);
	ecb_section(SEP_OP_DATA_ALL, 18, 18);
	ecb_section(SEP_OP_GLOBAL_STATUS, 0, 0);
	for (unsigned int i = 0; i < 18; i++) {
		ecb_reg(i, 0x186 + i % 8, 0x5300c0, 0);
		ecb_reg(18 + i, 0xc1 + i % 8, 0xfffffff00000ull, 0xffffffffffffull);
	}
	ecb_reg(36, 0x38f, ~0ull, 0);
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	ecb_gp_events(0);
	ecb_request(0, SEP_CMD_EM_CONFIG_NEXT);
	request(0, SEP_CMD_START, NULL, 0, 0);
	end("ecb-malformed");

	/* out of memory in the middle of configuring */
	begin(1, 0, CPUS_2, DRAIN);
	session(LOCAL);
	request(0, SEP_CMD_RESERVE, NULL, 0, 4);
	request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	fail_alloc(1);
	set_topology(0);
	fail_alloc(1);
	request(0, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), 0);
	fail_alloc(0);
	request(0, SEP_CMD_GET_PERF_CAPAB, NULL, 0, 16);
	fail_alloc(1);
	request_u32(0, SEP_CMD_READ_MSR, 0x345, 16);
	fail_alloc(0);
	request(0, SEP_CMD_GET_SAMPLE_DROP_INFO, NULL, 0, 324);
	request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
	end("nomem-config");
}

int main(int argc, char **argv)
{
	const char *vectors = argc > 2 ? argv[2] : "selftests/vectors";

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s OUTDIR [VECTORS_DIR]\n", argv[0]);
		return 2;
	}
	outdir = argv[1];
	if (mkdir(outdir, 0777) && errno != EEXIST)
		die("%s: %s", outdir, strerror(errno));
	/* The collection seeds need both; the vectors are in the repository. */
	ecb_core = load(vectors, REF_TSC_ECB, &ecb_core_len);
	if (!ecb_core)
		die("%s/%s: %s", vectors, REF_TSC_ECB, strerror(errno));
	ecb_unc = load(vectors, UNC_IMC_ECB, &ecb_unc_len);
	if (!ecb_unc)
		die("%s/%s: %s", vectors, UNC_IMC_ECB, strerror(errno));

	host_seeds();
	info_seeds();
	collection_seeds();
	ecb_seeds();
	printf("make_seeds: %d seeds in %s\n", nseeds, outdir);
	return 0;
}
