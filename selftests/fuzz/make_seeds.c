// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed corpus for core_fuzz: real SEP sessions (spec 2-5, 8.3) written in
 * the fuzzer's script format, the malformed ones a target must survive, and
 * garbage sessions from a seeded generator (garbage-*, see below).
 *
 *	make_seeds [-g GARBAGE_DIR] OUTDIR [VECTORS_DIR]
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

#include "../../driver/core/core.h"
#include "../../tools/aca-host/payload.h"
#include "../core/cmd_table.h"

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
static size_t nops;		/* of the script: core_fuzz runs MAX_OPS */
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
	nops++;
}

/* A new script: MAX_CONNS connections, @npeers peers, machine, CPUs, flags. */
static void begin(int npeers, int machine, int cpus, int flags)
{
	static const unsigned int n[] = { 1, 2, 4, 24 };

	len = 0;
	nops = 0;
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

static void core_device_ecb(int conn, const void *ecb, size_t ecb_len)
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
	request(conn, SEP_CMD_EM_CONFIG_NEXT, ecb, ecb_len, 0);
	request_u32(conn, SEP_CMD_SET_DEVICE_NUM_UNITS, 4, 0);
}

/* INIT, EM_GROUPS and the REF_TSC vector (spec 5.1 steps 15-18). */
static void core_device(int conn)
{
	core_device_ecb(conn, ecb_core, ecb_core_len);
}

/*
 * A Skylake-SP CHA's ECB (spec 6.10): box 3's select 1 (event 0x34, umask
 * 0x11, enable) and its filters, counter 1 read into a 48-byte record.
 */
static const unsigned char *cha_ecb(size_t *size)
{
	static unsigned char buf[sizeof(struct sep_ecb) + 4 * sizeof(struct sep_event_reg)];
	struct sep_ecb *h = (struct sep_ecb *)buf;
	struct sep_event_reg *r = (struct sep_event_reg *)(buf + sizeof(*h));
	static const struct { __u32 reg; __u64 val; } regs[4] = {
		{ 0xe32, 0x401134 }, { 0xe35, 0x3 << 17 }, { 0xe36, 0x1 }, { 0xe39, 0 },
	};

	memset(buf, 0, sizeof(buf));
	h->version = SEP_ECB_VERSION;
	h->num_entries = 4;
	h->num_events = 1;
	h->size_of_allocation = sizeof(buf);
	h->device_type = SEP_DEVICE_UNC_CHA;
	h->group_offset = 32;
	h->descriptor_id = 1;
	h->operations[SEP_OP_WRITE].operation_type = SEP_OP_WRITE;
	h->operations[SEP_OP_WRITE].register_len = 3;
	h->operations[SEP_OP_READ].operation_type = SEP_OP_READ;
	h->operations[SEP_OP_READ].register_start = 3;
	h->operations[SEP_OP_READ].register_len = 1;
	for (int i = 0; i < 4; i++) {
		r[i].event_reg_id.reg_id = regs[i].reg;
		r[i].reg_value = regs[i].val;
		r[i].reg_prog_type = SEP_REG_PROG_MSR;
	}
	r[3].counter_event_offset = 40;
	r[3].event_id_index = 1;
	*size = sizeof(buf);
	return buf;
}

/*
 * UncoreCollectionTest's uncore device (spec 5.1 18a-d), or with @cha a
 * Skylake-SP CHA's ECB: without uncore each request is refused (183, spec
 * 5.5) and the collection goes on with the core's.
 */
static void uncore_device(int conn, bool cha)
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
	if (cha) {
		size_t size;
		const unsigned char *ecb = cha_ecb(&size);

		request(conn, SEP_CMD_EM_CONFIG_NEXT_UNC, ecb, size, 0);
	} else {
		request(conn, SEP_CMD_EM_CONFIG_NEXT_UNC, ecb_unc, ecb_unc_len, 0);
	}
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
static void configure(int conn, int uncore, __u64 collection_config)
{
	struct sep_drv_config cfg = drv_config(collection_config);

	request(conn, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	set_topology(conn);
	descriptors(conn);
	core_device(conn);
	if (uncore)
		uncore_device(conn, uncore == 2);
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

/*
 * LBRs (spec 5.4a, 6.11): INIT with collect_lbrs, a descriptor with an LBR
 * area (TOS and 4 entries' FROM, TO, INFO) and a callstack area after it,
 * LBR_INFO, and the core vector with LBR_SELECT 0x3c5 (a user call stack).
 */
static void lbr_collection(void)
{
	static struct sep_dev_config dev;
	static unsigned char ecb[8192];
	struct sep_drv_config cfg = drv_config(0x4400);
	struct sep_event_desc d = { .sample_size = 48 + 13 * 8 + 8 + 16 * 8, .lbr_offset = 48,
				    .lbr_num_regs = 13, .callstack_offset = 48 + 13 * 8,
				    .callstack_size = 8 + 16 * 8 };
	struct sep_event_config ec = {
		.num_groups = 1, .em_mode = SEP_EM_DISABLED, .em_factor = -1,
		.em_event_num = -1, .sample_size = d.sample_size, .max_gp_events = 4,
		.max_fixed_counters = 3,
	};
	struct {
		struct sep_lbr_info_head h;
		struct sep_lbr_entry e[13];
	} li = { { sizeof(li), 13 }, { { SEP_LBR_TOS, 0, 0x1c9 } } };
	struct sep_event_reg *r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb));

	for (__u16 i = 0; i < 4; i++) {
		li.e[1 + 3 * i] = (struct sep_lbr_entry){ SEP_LBR_FROM, i, 0x680u + i };
		li.e[2 + 3 * i] = (struct sep_lbr_entry){ SEP_LBR_TO, i, 0x6c0u + i };
		li.e[3 + 3 * i] = (struct sep_lbr_entry){ SEP_LBR_INFO, i, 0xdc0u + i };
	}
	memcpy(ecb, ecb_core, ecb_core_len);
	r[20].reg_value = 0x3c5;	/* the vector's OCR 4, LBR_SELECT */
	memset(&dev, 0, sizeof(dev));
	dev.dispatch_id = SEP_DISPATCH_COREI7;
	dev.results_offset = 48;
	dev.max_gp_counters = 4;
	dev.enable_bits = SEP_DEV_CFG_COLLECT_LBRS | SEP_DEV_CFG_COLLECT_CALLSTACKS;
	begin(2, 0, CPUS_2, DRAIN);
	session(HOST_A);
	preamble(0);
	request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	set_topology(0);
	request_u32(0, SEP_CMD_NUM_DESCRIPTOR, 1, 0);
	request(0, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0);
	request(0, SEP_CMD_INIT, &dev, sizeof(dev), 0);
	request(0, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), 0);
	request(0, SEP_CMD_LBR_INFO, &li, sizeof(li), 0);
	request(0, SEP_CMD_EM_CONFIG_NEXT, ecb, ecb_core_len, 0);
	request(0, SEP_CMD_START, NULL, 0, 0);
	request(0, ACA_CMD_MODULE_SNAPSHOT, NULL, 0, 0);	/* spec 4.8 */
	finish(0, false);
	pump_all();
	close_all();
	end("collection-lbr");
}

/*
 * PEBS areas (spec 6.13): INIT with pebs, latency, eventing IP and TSC
 * capture and multiplexing after samples; a descriptor with a Skylake
 * PEBS record, SEP's latency slice of it, the eventing IP and the PEBS
 * TSC; the core vector's event precise and an em_trigger entry.
 */
static void pebs_collection(void)
{
	static struct sep_dev_config dev;
	static unsigned char ecb[8192];
	struct sep_drv_config cfg = drv_config(0x4400);
	struct sep_event_desc d = {
		.sample_size = 48 + 200 + 24 + 16, .pebs_offset = 48, .pebs_size = 200,
		.latency_offset_in_sample = 248, .latency_size_in_sample = 24,
		.latency_offset_in_pebs_record = 0x98, .latency_size_from_pebs_record = 24,
		.eventing_ip_offset = 272, .pebs_tsc_offset = 280,
	};
	struct sep_event_config ec = {
		.num_groups = 2, .em_mode = SEP_EM_EVENT_BASED, .em_factor = 25,
		.em_event_num = 0, .sample_size = d.sample_size, .max_gp_events = 4,
		.max_fixed_counters = 3,
	};
	struct sep_event_reg *r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb));

	memcpy(ecb, ecb_core, ecb_core_len);
	for (u32 i = 0; i < (ecb_core_len - sizeof(struct sep_ecb)) / sizeof(*r); i++)
		if (r[i].event_reg_id.reg_id == 0x30b)	/* REF_TSC's fixed counter */
			r[i].flags |= SEP_EVREG_PRECISE | SEP_EVREG_EM_TRIGGER;
	memset(&dev, 0, sizeof(dev));
	dev.dispatch_id = SEP_DISPATCH_COREI7;
	dev.results_offset = 48;
	dev.max_gp_counters = 4;
	dev.enable_bits = SEP_DEV_CFG_PEBS_CAPTURE | SEP_DEV_CFG_LATENCY_CAPTURE |
			  SEP_DEV_CFG_EVENTING_IP_CAPTURE | SEP_DEV_CFG_TSC_CAPTURE;
	begin(2, 0, CPUS_2, DRAIN);
	session(HOST_A);
	preamble(0);
	request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	set_topology(0);
	request_u32(0, SEP_CMD_NUM_DESCRIPTOR, 1, 0);
	request(0, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0);
	request(0, SEP_CMD_INIT, &dev, sizeof(dev), 0);
	request(0, SEP_CMD_EM_GROUPS, &ec, sizeof(ec), 0);
	request(0, SEP_CMD_EM_CONFIG_NEXT, ecb, ecb_core_len, 0);
	request(0, SEP_CMD_START, NULL, 0, 0);
	finish(0, false);
	pump_all();
	close_all();
	end("collection-pebs");
}

/*
 * IBS (spec 6.12) on machine 3, an AMD one with IBS PMUs: the core vector
 * with its fixed counter off, IbsOpCtl (cnt_ctl, a count past 16 bits) in
 * DATA_GP slot 0 and IbsFetchCtl (rand_en) in slot 1.
 */
static void ibs_collection(void)
{
	static unsigned char ecb[8192];
	struct sep_drv_config cfg = drv_config(0x4400);
	struct sep_event_reg *r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb));

	memcpy(ecb, ecb_core, ecb_core_len);
	r[0].reg_value = 0;				/* GLOBAL_CTRL: no counter */
	r[12].event_reg_id.reg_id = 0xc0011033;		/* IbsOpCtl */
	r[12].reg_value = (1ull << 17) | (1ull << 19) | (3ull << 20) | 0x1234;
	r[13].event_reg_id.reg_id = 0xc0011030;		/* IbsFetchCtl */
	r[13].reg_value = (1ull << 48) | (1ull << 57) | 0x100;
	r[13].event_id_index = 1;
	begin(2, 3, CPUS_2, DRAIN);
	session(HOST_A);
	preamble(0);
	request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	set_topology(0);
	descriptors(0);
	core_device_ecb(0, ecb, ecb_core_len);
	request(0, SEP_CMD_START, NULL, 0, 0);
	finish(0, false);
	pump_all();
	close_all();
	end("collection-ibs-zen");
}

/* @uncore: 0 none, 1 UncoreCollectionTest's device, 2 a Skylake-SP CHA's. */
static void collection(const char *name, int machine, int cpus, int flags,
		       int uncore)
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

/*
 * KERNEL_SYMBOLS' addresses (spec 4.6): the fake's kernel functions
 * (fake_target.c), a module's, its long name, one between them, a user one.
 */
static const __u64 kaddrs[] = {
	0xffffffff81234570ull, 0xffffffffc0a01010ull, 0xffffffffc0b00010ull,
	0xffffffff81234700ull, 0x401000ull,
};

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
	request(conn, ACA_CMD_KERNEL_SYMBOLS, kaddrs, sizeof(kaddrs),
		ARRAY_SIZE(kaddrs) * ACA_KSYM_SLOT_SIZE);
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
	info_seed("info-kernel-symbols", ACA_CMD_KERNEL_SYMBOLS, kaddrs,
		  sizeof(kaddrs), ARRAY_SIZE(kaddrs) * ACA_KSYM_SLOT_SIZE);
	/* One address too many, then one slot too few: statuses, no reply. */
	{
		static __u64 many[ACA_KSYM_MAX_ADDRS + 1];

		info_seed("info-kernel-symbols-too-many", ACA_CMD_KERNEL_SYMBOLS,
			  many, sizeof(many), sizeof(many) / 8 * ACA_KSYM_SLOT_SIZE);
		info_seed("info-kernel-symbols-short-reply", ACA_CMD_KERNEL_SYMBOLS,
			  kaddrs, sizeof(kaddrs), ACA_KSYM_SLOT_SIZE);
	}

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
	/* Machine 4: a Skylake-SP with uncore PMUs: the CHA ECB is translated. */
	collection("collection-uncore-skx", 4, CPUS_2, 0, 2);
	/*
	 * And the reference's DRAM-counter ECB, which reads MMIO registers:
	 * refused with 228, the collection goes on with the core's.
	 */
	collection("collection-uncore-skx-mmio", 4, CPUS_2, 0, 1);
	lbr_collection();
	pebs_collection();
	ibs_collection();
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

	/* EMON mode is refused; then a START without events */
	begin(2, 0, CPUS_1, DRAIN);
	session(HOST_A);
	preamble(0);
	cfg = drv_config(SEP_DRV_CFG_EMON_MODE);
	request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	cfg = drv_config(0x4400);
	request(0, SEP_CMD_INIT_DRIVER, &cfg, sizeof(cfg), 0);
	request(0, SEP_CMD_START, NULL, 0, 0);
	request(0, SEP_CMD_STOP, NULL, 0, 0);
	request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
	end("collection-refused");

	/* counting mode: reads while running and paused, then after STOP */
	begin(2, 0, CPUS_1, DRAIN);
	session(HOST_A);
	preamble(0);
	configure(0, false, SEP_DRV_CFG_COUNTING_MODE);
	request(0, SEP_CMD_START, NULL, 0, 0);
	request(0, SEP_CMD_READ_AND_RESET, NULL, 0, 8 * 17);
	request(0, SEP_CMD_PAUSE, NULL, 0, 0);
	request(0, SEP_CMD_READ_SWITCH_GROUP, NULL, 0, 16);
	request(0, SEP_CMD_RESUME, NULL, 0, 0);
	request(0, SEP_CMD_STOP, NULL, 0, 0);
	request(0, SEP_CMD_READ_AND_RESET, NULL, 0, 16);
	request(0, SEP_CMD_TERMINATE, NULL, 0, 0);
	end("collection-counting");

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
	/* refused (183) with no DRV_IOCTL_STATUS, though asked for */
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

/*
 * ---- garbage sessions: random and half-valid streams ----
 *
 * A deterministic generator (seed $ACA_FUZZ_SEED, default 0x5eed) writes
 * $ACA_FUZZ_SESSIONS (1000) sessions, as many to a script as fit: noise,
 * a hello and random requests, or the collection of spec 5.1 spoilt here
 * and there, fed in random pieces to a control connection with 0..N+2 data
 * channels (which the host sends junk on) and now and then a second host;
 * then the host goes, in some order. Each script ends with a whole
 * collection by the next host; core_fuzz_replay fails a garbage-* script
 * whose last collection did not start sampling. The engine checks every
 * answer, and once every connection of a session is gone, that it left no
 * trace.
 */

#define GARBAGE_NCPUS		4
#define GARBAGE_MAX_DATA	(GARBAGE_NCPUS + 2)
#define GARBAGE_MAX_PAYLOAD	8192
/* A script ends after the session that takes it past these. */
#define GARBAGE_MAX_OPS		8000	/* of core_fuzz's 20000 */
#define GARBAGE_MAX_LEN		(256u << 10)
#define BUSY			7	/* the second host's connection */

static __u64 rng_state;

/* xorshift64* */
static __u64 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* Uniform-ish in [lo, hi]. */
static __u64 range(__u64 lo, __u64 hi)
{
	if (hi <= lo)
		return lo;
	if (hi - lo == ~0ull)
		return rnd();
	return lo + rnd() % (hi - lo + 1);
}

/* A client byte stream, built ahead of time. */
static unsigned char *gs;
static size_t gs_len, gs_cap;

static void gs_add(const void *p, size_t n)
{
	if (gs_len + n > gs_cap) {
		gs_cap = (gs_len + n) * 2;
		gs = realloc(gs, gs_cap);
		if (!gs)
			die("out of memory");
	}
	memcpy(gs + gs_len, p, n);
	gs_len += n;
}

/* A command id: every one the table has, a few it does not. */
static __u32 any_command(void)
{
	__u64 k = range(0, tc_ncommands + 4 - 1);
	static const __u32 unknown[] = { 18, 26, 89, 200 };

	return k < tc_ncommands ? tc_commands[k].id : unknown[k - tc_ncommands];
}

/* The payload size a command usually has, and the reply it usually asks. */
static void usual_sizes(__u32 id, __u64 *to, __u64 *from)
{
	const struct tc_command *c = tc_find_command(id);

	*to = c ? tc_command_to(c, GARBAGE_NCPUS) : 0;
	*from = c ? tc_command_from(c, GARBAGE_NCPUS) : 4;
}

/*
 * A payload that is mostly plausible for @id: the vectors, small counts;
 * one in @rare is pure noise, and the vectors get a bit flipped as often.
 */
static void garbage_payload(unsigned char *p, __u64 n, __u32 id, __u32 rare)
{
	for (__u64 i = 0; i < n; i++)
		p[i] = rnd();
	if (rnd() % rare == 0)
		return;			/* pure noise */
	memset(p, 0, n);
	if (id == SEP_CMD_EM_CONFIG_NEXT || id == SEP_CMD_EM_CONFIG_NEXT_UNC) {
		const unsigned char *v = id == SEP_CMD_EM_CONFIG_NEXT ? ecb_core : ecb_unc;
		__u64 vlen = id == SEP_CMD_EM_CONFIG_NEXT ? ecb_core_len : ecb_unc_len;

		memcpy(p, v, n < vlen ? n : vlen);
		for (__u64 k = rnd() % rare ? 0 : range(1, 4); k && n; k--)
			p[range(0, n - 1)] ^= 1u << range(0, 7);
	} else if (id == SEP_CMD_INIT_DRIVER && n >= 48) {
		__u64 cc = rnd() % rare ? 0x4400 | (rnd() & 1) : rnd() & 0x3f;

		memcpy(p + 40, &cc, 8);
	} else if (id == SEP_CMD_EM_GROUPS && n >= 4) {
		p[0] = rnd() % rare ? range(1, 3) : 0;
	} else if (id == SEP_CMD_DESC_NEXT && n >= 4) {
		p[0] = rnd() % 2 ? 48 : rnd();
	} else if (id == SEP_CMD_READ_MSR && n >= 4) {
		static const __u32 msrs[] = { 0x38f, 0xce, 0x10, 0x2be, 0x4c1, 0x345, 0x611 };
		__u32 m = msrs[range(0, 6)];

		memcpy(p, &m, 4);
	} else if (id == SEP_CMD_WRITE_MSR && n >= 56) {
		__u32 m = rnd() % 2 ? 0x186 : 0x1b0;

		memcpy(p + 8, &m, 4);
	} else if (n >= 4) {
		p[0] = range(0, 70);
	}
}

static __u64 garbage_to(__u64 usual)
{
	switch (range(0, 19)) {
	case 0 ... 5: return 0;
	case 6 ... 11: return usual;
	case 12 ... 14: return range(1, 300);
	case 15 ... 16: return range(1, GARBAGE_MAX_PAYLOAD);
	case 17: return range(ACP_MAX_PAYLOAD + 1ull, ~0ull);
	case 18: return range(GARBAGE_MAX_PAYLOAD + 1, ACP_MAX_PAYLOAD);
	default: return usual + range(0, 2) - 1;
	}
}

static __u64 garbage_from(__u64 usual)
{
	switch (range(0, 19)) {
	case 0 ... 7: return 0;
	case 8 ... 13: return usual;
	case 14 ... 17: return range(1, 20000);
	case 18: return 1ull << 40;
	default: return range(ACP_MAX_REPLY + 1ull, ~0ull);
	}
}

/*
 * Append one request, spoilt in one way or another once in @rare. Returns
 * false once the stream must end (a payload too big to send was cut short:
 * the host vanishes there).
 */
static bool garbage_request(__u32 id, __u64 to, __u64 from, __u32 rare)
{
	static unsigned char payload[GARBAGE_MAX_PAYLOAD];
	struct sep_control_msg_header h = {
		.header_size = sizeof(h), .proto_version = SEP_PROTO_VERSION,
		.command_id = id, .to_target_data_size = to,
		.from_target_data_size = from,
	};
	__u64 n = to;

	if (rnd() % (8 * rare) == 0)
		h.header_size = rnd() % 2 ? range(0, 100) : rnd();
	if (rnd() % (8 * rare) == 0)
		h.proto_version = rnd();
	if (rnd() % (8 * rare) == 0)
		h.status = rnd();
	gs_add(&h, sizeof(h));
	if (to > ACP_MAX_PAYLOAD)
		return true;		/* the target stops reading here */
	if (n > GARBAGE_MAX_PAYLOAD) {
		/* Too big to bother: the host vanishes mid-payload. */
		n = range(0, GARBAGE_MAX_PAYLOAD);
		garbage_payload(payload, n, id, rare);
		gs_add(payload, n);
		return false;
	}
	/* Sometimes the payload does not match the header: out of step. */
	if (rnd() % (10 * rare) == 0)
		n = range(0, n + 64 < GARBAGE_MAX_PAYLOAD ? n + 64 : GARBAGE_MAX_PAYLOAD);
	garbage_payload(payload, n, id, rare);
	gs_add(payload, n);
	return true;
}

/* A session the way a host runs it, each step possibly spoilt. */
static void garbage_script(void)
{
	static const __u32 steps[] = {
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

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		__u32 id = steps[i];
		__u64 to, from;
		int reps = 1;

		switch (range(0, 99)) {
		case 0 ... 2: reps = 0; break;
		case 3 ... 4: reps = 2; break;
		case 5: id = any_command(); break;
		case 6: id = rnd(); break;
		}
		while (reps--) {
			usual_sizes(id, &to, &from);
			if (rnd() % 40 == 0)
				to = garbage_to(to);
			if (rnd() % 20 == 0)
				from = garbage_from(from);
			if (!garbage_request(id, to, from, 16))
				return;
		}
	}
}

static void garbage_random_requests(void)
{
	for (__u64 n = range(0, 24); n; n--) {
		__u32 id = rnd() % 8 ? any_command() : (__u32)rnd();
		__u64 to, from;

		usual_sizes(id, &to, &from);
		if (!garbage_request(id, garbage_to(to), garbage_from(from), 4))
			return;
	}
}

/* The stream a garbage session's host sends on its control connection. */
static void garbage_stream(void)
{
	gs_len = 0;
	if (range(0, 9) < 2) {
		for (__u64 n = range(0, 600); n; n--) {
			unsigned char b = rnd();

			gs_add(&b, 1);
		}
		return;
	}
	{
		struct sep_control_first_msg h = {
			.msg_size = sizeof(h), .proto_version = SEP_PROTO_VERSION,
		};

		if (rnd() % 20 == 0)
			h.msg_size = rnd() % 2 ? range(0, 48) : rnd();
		gs_add(&h, sizeof(h));
	}
	if (range(0, 1))
		garbage_random_requests();
	else
		garbage_script();
	/* Less than a header of trailing garbage. */
	for (__u64 i = rnd() % 4 ? 0 : range(1, 47); i; i--) {
		unsigned char b = rnd();

		gs_add(&b, 1);
	}
}

/* One garbage session, from the first connection to the last release. */
static void garbage_session(void)
{
	static const unsigned int piece[] = { 8, 100, 8192 };
	unsigned int nd = range(0, GARBAGE_MAX_DATA);
	unsigned int maxpiece = piece[range(0, 2)];
	bool with_busy = rnd() % 8 == 0, released[GARBAGE_MAX_DATA] = { 0 };
	size_t off = 0;

	garbage_stream();
	/* The connections: control first, then channels, maybe another host. */
	attach(0, LOCAL);
	chunk(0, maxpiece < 256 ? maxpiece : 0);
	for (unsigned int i = 0; i < nd; i++)
		attach(1 + i, LOCAL);
	op(OP_OPEN, 0, BUSY);
	if (with_busy)
		attach(BUSY, HOST_A);

	/* The stream in pieces, output read now and then, junk on channels. */
	while (off < gs_len) {
		size_t n = range(1, maxpiece);

		if (n > gs_len - off)
			n = gs_len - off;
		/* A small piece in one write; a big one with its zeros packed. */
		if (n > 0xff) {
			write_bytes(0, gs + off, n);
		} else {
			op(OP_WRITE, 0, 0);
			put8(n);
			put(gs + off, n);
		}
		off += n;
		if (rnd() % 2)
			op(OP_READ, 2, 0);
		if (nd && rnd() % 8 == 0) {
			unsigned int d = 1 + range(0, nd - 1);
			unsigned char junk[32];

			for (size_t i = 0; i < sizeof(junk); i++)
				junk[i] = rnd();
			op(OP_WRITE, 0, d);
			put8(sizeof(junk));
			put(junk, sizeof(junk));
			op(OP_READ, 2, d);
		}
	}
	pump_all();
	if (with_busy)
		hello(BUSY);

	/* The host goes, in some order. */
	switch (range(0, 2)) {
	case 0:
		hangup(0);
		op(OP_READ, 2, 0);
		break;
	case 1:
		for (unsigned int i = 0; i < nd; i += 2) {
			release(1 + i);
			released[i] = true;
		}
		break;
	}
	release(0);
	for (unsigned int i = 0; i < nd; i++) {
		if (released[i])
			continue;
		op(OP_READ, 2, 1 + i);
		release(1 + i);
	}
	release(BUSY);
}

/* After all that, the next host gets a whole collection; the script ends. */
static void garbage_end(unsigned int file)
{
	char name[64];

	session(LOCAL);
	preamble(0);
	configure(0, true, 0x4400);
	request(0, SEP_CMD_START, NULL, 0, 0);
	finish(0, true);
	pump_all();
	close_all();
	snprintf(name, sizeof(name), "garbage-%04u", file);
	end(name);
}

static void garbage_seeds(void)
{
	const char *env_seed = getenv("ACA_FUZZ_SEED");
	const char *env_n = getenv("ACA_FUZZ_SESSIONS");
	__u64 seed = env_seed ? strtoull(env_seed, NULL, 0) : 0x5eed;
	unsigned long sessions = env_n ? strtoul(env_n, NULL, 0) : 1000;
	unsigned int file = 0;

	rng_state = seed * 0x9e3779b97f4a7c15ull | 1;
	begin(2, 0, CPUS_4, DRAIN);
	for (unsigned long sn = 0; sn < sessions; sn++) {
		garbage_session();
		if (nops > GARBAGE_MAX_OPS || len > GARBAGE_MAX_LEN ||
		    sn + 1 == sessions) {
			garbage_end(file++);
			begin(2, 0, CPUS_4, DRAIN);
		}
	}
	free(gs);
}

static void make_dir(const char *dir)
{
	if (mkdir(dir, 0777) && errno != EEXIST)
		die("%s: %s", dir, strerror(errno));
}

int main(int argc, char **argv)
{
	const char *vectors = "selftests/vectors", *garbage = NULL;
	int seeds;

	if (argc > 2 && !strcmp(argv[1], "-g")) {
		garbage = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: make_seeds [-g GARBAGE_DIR] OUTDIR [VECTORS_DIR]\n");
		return 2;
	}
	if (argc > 2)
		vectors = argv[2];
	outdir = argv[1];
	make_dir(outdir);
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
	if (!garbage)
		return 0;
	/* Too many, and too big, to start libFuzzer with: a directory apart. */
	outdir = garbage;
	make_dir(outdir);
	seeds = nseeds;
	garbage_seeds();
	printf("make_seeds: %d garbage scripts in %s\n", nseeds - seeds, outdir);
	return 0;
}
