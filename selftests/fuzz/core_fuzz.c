// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzz engine of the protocol core (driver/core/): a libFuzzer target,
 * and, linked with replay.c instead of libFuzzer, the replay of a corpus
 * that make check runs (README.md).
 *
 * Every input is a script that drives one struct acp_target through up to 8
 * connections, each fed and drained by the script the way aca-relay and
 * /dev/aca would: attach with a peer, write (fragmented, back-pressured),
 * read (partially), hang up, release. The machine is the core tests' fake
 * (selftests/core/fake_target.c), set up as one of five machines, its ops
 * wrapped to fail at once on any misuse. A model of the protocol (spec 2-5,
 * 8.3) runs alongside and every reply the core produces is checked against
 * it: the status message, each response header and its status, payload
 * lengths, roles and data channel order, when connections end; and once no
 * connection is left, that the target is as a new host finds it. See
 * README.md for the script format (make_seeds.c writes it too: keep both in
 * sync).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core_fuzz.h"
#include "../core/cmd_table.h"
#include "../core/fake_target.h"

/*
 * Only the core is instrumented for coverage: the fuzzer's own bookkeeping
 * would slow it down and blur what "cov:" counts (the fake machine and the
 * command table are compiled without it, see the Makefile).
 */
#ifdef __clang__
#pragma clang attribute push(__attribute__((no_sanitize("coverage"))), apply_to = function)
#endif

#define MAX_CONNS	8
#define MAX_OPS		20000
#define MAX_PENDING	(4u << 20)	/* unread input per connection */
#define MAX_PUMP	100000		/* rounds of one PUMP op */
#define MAX_CALLS	100000		/* input/peek calls per script: keeps it fast */

/* Script opcodes: op byte = kind << 5 | arg << 3 | connection. */
enum {
	OP_ATTACH,	/* arg: peer index */
	OP_WRITE,	/* arg 0: u8 len + bytes, 1: u16 len + bytes,
			 * 2: u8 len zeros, 3: u16 len * 16 zeros */
	OP_READ,	/* arg 0: up to u8+1 bytes, 1: up to (u8+1)*64,
			 * 2: all, 3: peek only */
	OP_HANGUP,
	OP_RELEASE,
	OP_OPEN,	/* a fresh connection, attached on first read/write */
	OP_PUMP,	/* arg 0: this conn, 1: all, 2: input chunk = u8,
			 * 3: write a valid hello */
	OP_MISC,	/* arg 0: fail allocation u8+1 from now,
			 * 1: toggle start() failure,
			 * 2: request header: u8 command, u8 to, u8 from (tables),
			 * 3: the same + u8 n literal payload bytes, zero-padded */
};

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ---- the machine: the fake, as one of five, picked by the first byte ---- */

#define NMACHINES	5
#define DEB_VERSION "#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-11-01)"

static const u32 ncpus_choice[] = { 1, 2, 4, 24 };

/* The RAPL energy counters: readable, for a privileged peer only (msr.c). */
static const u32 rapl_energy[] = { 0x611, 0x619, 0x639, 0x641, 0x64d };

/*
 * 0: Coffee Lake on Debian 6.12; 1: a KVM guest on 6.1; 2: a hypervisor
 * with endless CPUID sub-leaves, an empty sysname, no release and a version
 * longer than its field; 3: AMD (no topology leaf, no perfmon leaf); 4: a
 * Skylake-SP with uncore PMUs (uncore ECBs are translated), as a VMware
 * guest with its odd CPUs offline.
 */
/* Uncore PMUs as Linux registers a Skylake-SP's (its skx formats), a few boxes each. */
static void add_uncore_pmus(struct fake *f)
{
	static const char *const common[] = {
		"config:0-7", "config:8-15", "config:18", "config:23", "config:24-31",
	};
	static const char *const cha[] = {
		"config:0-7", "config:8-15", "config:18", "config:19", "config:23",
		"config:24-31", "config1:0-8", "config1:17-26", "config1:32", "config1:33",
		"config1:35", "config1:36", "config1:37", "config1:41-50", "config1:51-60",
		"config1:62", "config1:63",
	};
	static const char *const upi[] = {
		"config:0-7", "config:8-15,32-43,45-55", "config:18", "config:23", "config:24-31",
	};
	char name[ACP_UNC_PMU_NAME];
	u32 type = 20;

	fake_add_pmu(f, "uncore_ubox", type++, common, 5);
	fake_add_pmu(f, "uncore_pcu", type++, common, 5);
	for (u32 i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "uncore_cha_%u", i);
		fake_add_pmu(f, name, type++, cha, sizeof(cha) / sizeof(cha[0]));
		snprintf(name, sizeof(name), "uncore_imc_%u", i);
		fake_add_pmu(f, name, type++, common, 5);
	}
	fake_add_pmu(f, "uncore_upi_0", type++, upi, 5);
}

/* A Zen 4's IBS PMUs, as Linux 6.12 formats them (core/ibs.c). */
#define FUZZ_IBS_FETCH_TYPE	11
#define FUZZ_IBS_OP_TYPE	12

static void add_ibs_pmus(struct fake *f)
{
	static const char *const fetch[] = { "config:57", "config:59" };
	static const char *const op[] = { "config:19", "config:16" };

	fake_add_pmu(f, "ibs_fetch", FUZZ_IBS_FETCH_TYPE, fetch, 2);
	fake_add_pmu(f, "ibs_op", FUZZ_IBS_OP_TYPE, op, 2);
}

static void set_machine(struct fake *f, u32 m)
{
	f->max_leaf = 0x16;
	f->version = DEB_VERSION;
	switch (m) {
	case 1:
		f->release = "6.1.0-40-amd64";
		f->version = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.153-1";
		f->max_leaf = 0x20;
		f->cpuid1_eax = 0x000806f8;
		f->hypervisor = true;
		memcpy(f->hv_sig, "KVMKVMKVM\0\0\0", 13);
		f->perfmon_eax = 0x08300805;
		f->perfmon_edx = 0x00008604;
		f->core_type = 0x40000001;
		break;
	case 2:
		f->sysname = "";
		f->release = NULL;
		f->version = "#1 SMP PREEMPT_DYNAMIC a version string far longer than the sixty-four bytes of its field, "
			     "to be cut at sixty-three characters and a NUL";
		f->max_leaf = 0xffffffff;
		f->max_ext_leaf = 0xffffffff;
		f->cpuid1_eax = 0x000a0671;
		f->hypervisor = true;
		memcpy(f->hv_sig, "Microsoft Hv", 13);
		f->endless_leaves = true;
		f->core_type = 0x20000000;
		break;
	case 3:
		memcpy(f->vendor, "AuthenticAMD", 13);
		f->max_leaf = 0x10;
		f->max_ext_leaf = 0x80000021;
		f->cpuid1_eax = 0x00a20f10;
		f->no_topology_leaf = true;
		f->perfmon_eax = 0;
		f->perfmon_edx = 0;
		add_ibs_pmus(f);
		break;
	case 4:
		f->cpuid1_eax = 0x00050654;
		add_uncore_pmus(f);
		f->hypervisor = true;
		memcpy(f->hv_sig, "VMwareVMware", 13);
		f->odd_cpus_offline = true;
		break;
	}
	for (size_t i = 0; i < sizeof(rapl_energy) / sizeof(rapl_energy[0]); i++)
		fake_set_msr(f, rapl_energy[i], 0x1234567 * (i + 1));
}

static const struct acp_peer peers[] = {
	{ 0 },					/* local */
	{ AF_INET, { 192, 0, 2, 1 } },
	{ AF_INET, { 192, 0, 2, 2 } },
	{ AF_INET6, { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } },
};

/* ---- per-connection state and its model ---- */

enum { IN_HELLO, IN_HDR, IN_PAYLOAD, IN_DEAD };
enum { DUE_NONE, DUE_STATUS, DUE_RESPONSE };

struct slot {
	struct acp_conn *c;		/* NULL: empty slot */
	/* bytes the peer sent that the core has not taken yet */
	u8 *pend;
	size_t pend_off, pend_len, pend_cap;
	size_t chunk;			/* most bytes per acp_conn_input(); 0: all */

	/* model */
	enum acp_role role;
	u32 channel;
	u64 gen;			/* session a data channel belongs to */
	bool closed;			/* no more output will be queued */
	int in;				/* request parser, control/busy only */
	u8 in_buf[sizeof(struct sep_control_msg_header)];
	u32 in_got;
	u64 in_left;
	bool in_reply;			/* a response is due once the payload is in */
	int due;			/* reply the last input call must have queued */
	bool held;			/* a STOP answer held back for the drain */
	struct sep_control_msg_header req;
	u32 hello_size;

	/* the reply being read: a head we know byte for byte, then data */
	u8 head[sizeof(struct sep_target_status_msg)];
	u32 head_len, head_off;
	u64 data_left, data_got;
	u32 cmd;
	s32 status;
	u8 cap[64];
};

static struct {
	struct fake f;			/* the machine, allocator and sampler */
	u32 nconns, npeers;
	bool no_sampler, drain;
	bool two_openers;		/* odd connections: another process */
	/* Openers without CAP_PERFMON: machine field 5..7 (machines 0..2). */
	bool unprivileged;
	/* Openers kallsyms hides kernel addresses from: those, and 4 peers. */
	bool kaddr_hidden;
	bool uncore;			/* machine 4: the status message says so */
	bool ibs;			/* machine 3: IBS PMUs */

	struct acp_target t;
	struct acp_ops ops;
	struct slot s[MAX_CONNS];

	bool stopped;			/* stop() ran in this input call */
	u64 last_tsc;
	u32 sysconfig_len;
	/* session model */
	int ctrl;			/* slot of the session's control, -1: none */
	struct acp_peer peer;
	const void *opener;		/* the control's opener */
	u32 ndata;
	u64 gen;
	bool stop_done;			/* the session's STOP was answered */
	bool started;			/* the session's START reached start() */

	u64 calls;			/* acp_conn_input() and peek() so far */
	int cur;			/* slot being driven, for messages */
	size_t op;
} fz;

struct core_fuzz_stats core_fuzz_stats;

static bool verbose;

/* Opener tokens: the processes that open connections. */
static const char openers[2];

static const void *opener_of(int slot)
{
	return &openers[fz.two_openers ? slot & 1 : 0];
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "core_fuzz: op %zu, conn %d: ", fz.op, fz.cur);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* ---- struct acp_ops: the fake's, each call checked first ---- */

/* What the fake only counts must not happen at all. */
static void check_fake(void)
{
	if (fz.f.misuse)
		fail("the sampler was called out of order (%u times)", fz.f.misuse);
	if (fz.f.bad_free)
		fail("free() of a pointer the allocator never gave");
}

static bool f_cpuid(void *ctx, int cpu, u32 leaf, u32 sub, u32 r[4])
{
	if (cpu < -1)
		fail("cpuid on cpu %d", cpu);
	return fake_ops.cpuid(ctx, cpu, leaf, sub, r);
}

static bool f_rdmsr(void *ctx, int cpu, u32 msr, u64 *val)
{
	if (cpu < -1)
		fail("rdmsr on cpu %d", cpu);
	for (size_t i = 0; i < sizeof(rapl_energy) / sizeof(rapl_energy[0]); i++)
		if (msr == rapl_energy[i] && fz.unprivileged)
			fail("rdmsr 0x%x: a RAPL energy counter, unprivileged", msr);
	return fake_ops.rdmsr(ctx, cpu, msr, val);
}

/* Kernel addresses are named for a privileged session alone. */
static bool f_kernel_symbol(void *ctx, u64 addr, u64 *start, u64 *size,
			    char *name, size_t name_len, char *module,
			    size_t module_len)
{
	if (fz.unprivileged)
		fail("kernel_symbol(0x%llx) without CAP_PERFMON",
		     (unsigned long long)addr);
	if (fz.kaddr_hidden)
		fail("kernel_symbol(0x%llx) for a person kallsyms hides them from",
		     (unsigned long long)addr);
	return fake_ops.kernel_symbol(ctx, addr, start, size, name, name_len,
				      module, module_len);
}

/* MODULE_SNAPSHOT: privileged, while sampling or paused (spec 4.8). */
static int f_module_snapshot(void *ctx)
{
	if (fz.unprivileged)
		fail("module_snapshot() without CAP_PERFMON");
	if (!fz.f.running && !fz.f.paused)
		fail("module_snapshot() with nothing sampling");
	return fake_ops.module_snapshot(ctx);
}

static void *f_alloc(void *ctx, size_t size)
{
	if (size > ACP_MAX_REPLY)
		fail("allocation of %zu bytes", size);
	return fake_ops.alloc(ctx, size);
}

static void f_free(void *ctx, void *p)
{
	if (!p)
		fail("free(NULL) reached the allocator");
	fake_ops.free(ctx, p);
	check_fake();
}

/* The decoded configuration must be within the core's own bounds. */
/*
 * IBS events (core/ibs.c) only on the AMD machine, on its PMUs, with
 * their options only, a period of 16s the register can hold, every ring
 * and no branch stack.
 */
static void check_ibs(const struct acp_event *e, u32 i, u32 j)
{
	static const u64 fetch_opts = (1ull << 57) | (1ull << 59), op_opts = (1ull << 19) | (1ull << 16);

	if (!e->pmu_type)
		return;
	if (!fz.ibs || (e->pmu_type != FUZZ_IBS_FETCH_TYPE && e->pmu_type != FUZZ_IBS_OP_TYPE))
		fail("start(): event %u.%u: PMU type %u on a machine without IBS", i, j,
		     e->pmu_type);
	if ((e->config & ~(e->pmu_type == FUZZ_IBS_OP_TYPE ? op_opts : fetch_opts)) ||
	    e->period % 16 || !e->period || e->period > 0x7fffffull << 4 ||
	    e->exclude_user || e->exclude_kernel || e->branch_type || e->software)
		fail("start(): IBS event %u.%u: config 0x%llx period 0x%llx", i, j,
		     (unsigned long long)e->config, (unsigned long long)e->period);
}

static void check_config(const struct acp_config *cfg)
{
	if (!cfg)
		fail("start() without a configuration");
	if (cfg->ngroups > ACP_MAX_GROUPS || (cfg->ngroups && !cfg->groups))
		fail("start(): %u groups", cfg->ngroups);
	if (cfg->ntopology > fz.f.ncpus || (cfg->ntopology && !cfg->topology))
		fail("start(): %u topology entries", cfg->ntopology);
	if (cfg->ndesc > ACP_MAX_DESCRIPTORS || cfg->ndesc > cfg->ndesc_expected)
		fail("start(): %u descriptors", cfg->ndesc);
	for (u32 i = 0; i < cfg->ngroups; i++) {
		const struct acp_group *g = &cfg->groups[i];

		if (g->nevents > ACP_MAX_EVENTS || (g->nevents && !g->loaded))
			fail("start(): group %u has %u events", i, g->nevents);
		for (u32 j = 0; j < g->nevents; j++) {
			const struct acp_event *e = &g->events[j];

			if (!e->period || !e->msr)
				fail("start(): event %u.%u: period %llu msr 0x%x", i,
				     j, (unsigned long long)e->period, e->msr);
			if (e->fixed && e->counter > 3)
				fail("start(): fixed counter %u", e->counter);
			if (!e->fixed && e->counter >= 32)
				fail("start(): general counter %u", e->counter);
			if (e->period > ACP_COUNTER_MASK)
				fail("start(): event %u.%u: period 0x%llx beyond %u bits",
				     i, j, (unsigned long long)e->period,
				     ACP_COUNTER_BITS);
			check_ibs(e, i, j);
		}
	}
}

/*
 * What the overflow handler relies on for LBR areas (driver/events.c,
 * lbr.c): a layout whose entries lie in its depth, areas inside their
 * record, aligned, off the callstack area; branch stacks asked only for
 * PMU events of a sampling collection that asked for LBRs. Each area is
 * filled once here from a made-up stack, under the sanitizers.
 */
static void check_lbr(const struct acp_config *cfg)
{
	static const u64 rings = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL;
	struct perf_branch_entry br[ACP_MAX_LBR_ENTRIES + 1];
	const struct acp_lbr_layout *l = &cfg->lbr;
	u64 area[ACP_MAX_LBR_REGS];

	if (l->n > ACP_MAX_LBR_REGS || (l->n && (!l->depth || l->depth > ACP_MAX_LBR_ENTRIES)))
		fail("start(): LBR layout of %u registers, depth %u", l->n, l->depth);
	for (u32 k = 0; k < l->n; k++)
		if (l->kind[k] > SEP_LBR_INFO || (l->kind[k] != SEP_LBR_TOS && l->index[k] >= l->depth))
			fail("start(): LBR register %u: kind %u, entry %u of %u", k, l->kind[k],
			     l->index[k], l->depth);
	for (u32 i = 0; i < cfg->ndesc; i++) {
		const struct sep_event_desc *d = &cfg->desc[i];
		u64 end = d->lbr_offset + d->lbr_num_regs * 8ull;

		if (!d->lbr_num_regs)
			continue;
		if (d->lbr_num_regs > ACP_MAX_LBR_REGS || d->lbr_offset < 48 || d->lbr_offset % 8 ||
		    end > d->sample_size || d->sample_size > 4096 ||
		    (d->callstack_size && end > d->callstack_offset &&
		     d->lbr_offset < d->callstack_offset + (u64)d->callstack_size))
			fail("start(): descriptor %u: LBR area @%u, %u registers", i,
			     d->lbr_offset, d->lbr_num_regs);
		memset(br, 0x5a, sizeof(br));
		acp_lbr_fill(area, d->lbr_num_regs, l, br, ARRAY_SIZE(br));
	}
	for (u32 i = 0; i < cfg->ngroups; i++) {
		for (u32 j = 0; j < cfg->groups[i].nevents; j++) {
			const struct acp_event *e = &cfg->groups[i].events[j];

			if (!e->branch_type)
				continue;
			if (!acp_lbrs_asked(cfg) || acp_counting_mode(cfg) || e->software ||
			    !(e->branch_type & rings) ||
			    (e->branch_type & ~((PERF_SAMPLE_BRANCH_CALL << 1) - 1)))
				fail("start(): event %u.%u: branch_sample_type 0x%llx", i, j,
				     (unsigned long long)e->branch_type);
		}
	}
}

/* [@off, @off + @len) meets @d's callstack or LBR area. */
static bool meets(u64 off, u64 len, const struct sep_event_desc *d)
{
	u64 lbr_len = d->lbr_num_regs * 8ull;

	return len && ((d->callstack_size && off < d->callstack_offset + (u64)d->callstack_size &&
			d->callstack_offset < off + len) ||
		       (lbr_len && off < d->lbr_offset + lbr_len && d->lbr_offset < off + len));
}

/*
 * What the overflow handler relies on for PEBS areas (driver/events.c,
 * pebs.c): every area START fills inside its record, past the base, and
 * off the callstack and LBR areas. Each is written once here into a
 * record of exactly the descriptor's size, under the sanitizers.
 */
static void check_pebs(const struct acp_config *cfg)
{
	struct acp_pebs_record s;
	struct acp_pebs_areas a;

	memset(&s, 0x5a, sizeof(s));
	for (u32 i = 0; i < cfg->ndesc; i++) {
		const struct sep_event_desc *d = &cfg->desc[i];
		u32 end;
		u8 *rec;

		if (!acp_pebs_layout(cfg, i, &a))
			continue;
		end = acp_pebs_end(&a);
		if (end > d->sample_size || d->sample_size > 4096 ||
		    (a.pebs_size && a.pebs_offset < 48) || (a.lat_size && a.lat_offset < 48) ||
		    (a.eventing_ip_offset && a.eventing_ip_offset < 48) ||
		    (a.tsc_offset && a.tsc_offset < 48))
			fail("start(): descriptor %u: PEBS areas end at %u of %u bytes", i, end,
			     d->sample_size);
		if (meets(a.pebs_offset, a.pebs_size, d) || meets(a.lat_offset, a.lat_size, d) ||
		    meets(a.eventing_ip_offset, a.eventing_ip_offset ? 8 : 0, d) ||
		    meets(a.tsc_offset, a.tsc_offset ? 8 : 0, d))
			fail("start(): descriptor %u: a PEBS area on the callstack or LBR area", i);
		rec = malloc(d->sample_size);
		if (!rec)
			abort();
		memset(rec, 0, d->sample_size);
		acp_pebs_write(rec, &a, &s);
		free(rec);
	}
}

/*
 * What the kernel's uncore worker relies on (driver/uncore.c): each
 * counter's and its group's U64 inside its record, after the head,
 * aligned; records of at most a page; devices numbered from 0; one event
 * per counter of a PMU; only on a machine with uncore.
 */
static void check_uncore(const struct acp_config *cfg)
{
	if (cfg->nunc && !fz.uncore)
		fail("start(): %u uncore events on a machine without uncore", cfg->nunc);
	if (cfg->nunc > ACP_MAX_UNC_EVENTS)
		fail("start(): %u uncore events", cfg->nunc);
	for (u32 i = 0; i < cfg->nunc; i++) {
		const struct acp_unc_event *e = &cfg->unc[i];

		if (e->rec_size > 4096 || e->record_offset % 8 || e->group_offset % 8 ||
		    e->record_offset < 32 || e->group_offset < 32 ||
		    e->record_offset + 8u > e->rec_size || e->group_offset + 8u > e->rec_size ||
		    e->record_offset == e->group_offset)
			fail("start(): uncore event %u: count @%u, group @%u of a %u-byte record",
			     i, e->record_offset, e->group_offset, e->rec_size);
		if (e->device >= cfg->nunc_devices)
			fail("start(): uncore event %u of device %u of %u", i, e->device,
			     cfg->nunc_devices);
		if (!memchr(e->pmu, 0, sizeof(e->pmu)))
			fail("start(): uncore event %u: PMU name not NUL-ended", i);
		for (u32 j = 0; j < i; j++)
			if (cfg->unc[j].counter == e->counter && !strcmp(cfg->unc[j].pmu, e->pmu))
				fail("start(): %s counter %u read twice", e->pmu, e->counter);
	}
}

static int f_start(void *ctx, const struct acp_config *cfg, bool paused)
{
	int ret;

	if (fz.f.running)
		fail("start() while running");
	if (fz.unprivileged)
		fail("start() in a session without CAP_PERFMON");
	check_config(cfg);
	check_uncore(cfg);
	check_lbr(cfg);
	check_pebs(cfg);
	ret = fake_ops.start(ctx, cfg, paused);
	check_fake();
	if (!ret) {
		fz.started = true;
		core_fuzz_stats.starts++;
	}
	if (verbose)
		fprintf(stderr, "sampler: start%s: %d\n", paused ? " paused" : "", ret);
	return ret;
}

static void f_stop(void *ctx)
{
	if (!fz.f.running)
		fail("stop() while not running");
	fake_ops.stop(ctx);
	check_fake();
	fz.stopped = true;
	if (verbose)
		fprintf(stderr, "sampler: stopped\n");
}

/* STOP's final records come after the counters stopped. */
static void f_finalize(void *ctx)
{
	if (fz.f.running)
		fail("finalize() while sampling");
	fake_ops.finalize(ctx);
	check_fake();
}

static void f_pause(void *ctx, bool pause)
{
	if (!fz.f.running)
		fail("pause(%d) while not running", pause);
	if (fz.f.paused == pause)
		fail("pause(%d) twice", pause);
	fake_ops.pause(ctx, pause);
	check_fake();
}

static void f_sample_counts(void *ctx, u32 cpu, u64 *written, u64 *dropped)
{
	if (cpu >= fz.f.ncpus)
		fail("sample_counts(%u)", cpu);
	fake_ops.sample_counts(ctx, cpu, written, dropped);
}

/* The rings go at the session's end, once sampling stopped. */
static void f_finish(void *ctx)
{
	if (fz.f.running)
		fail("finish() while sampling");
	fake_ops.finish(ctx);
	check_fake();
}

static void f_wake(void *ctx, void *conn_ctx)
{
	struct slot *s = conn_ctx;

	if (s < fz.s || s >= fz.s + MAX_CONNS || !s->c)
		fail("wake() for a connection that is gone");
	/* The control only when its held-back STOP answer is released. */
	if (s->role != ACP_ROLE_DATA && !s->held)
		fail("wake() for conn %d with role %d", (int)(s - fz.s), s->role);
	fake_ops.wake(ctx, conn_ctx);
}

static void f_log(void *ctx, const char *fmt, va_list ap)
{
	if (verbose) {
		va_list aq;

		va_copy(aq, ap);
		fputs("aca: ", stderr);
		vfprintf(stderr, fmt, aq);
		fputc('\n', stderr);
		va_end(aq);
	}
	fake_ops.log(ctx, fmt, ap);
}

/* The fake's ops (with a sampler or without), each wrapped as above. */
static void set_ops(struct acp_ops *ops, bool sampler)
{
	*ops = sampler ? fake_ops : fake_ops_nosampling;
	ops->cpuid = f_cpuid;
	ops->rdmsr = f_rdmsr;
	ops->alloc = f_alloc;
	ops->free = f_free;
	ops->wake = f_wake;
	ops->log = f_log;
	/* A machine without a sampler cannot name kernel addresses either. */
	ops->kernel_symbol = sampler ? f_kernel_symbol : NULL;
	if (!sampler)
		return;
	ops->start = f_start;
	ops->stop = f_stop;
	ops->finalize = f_finalize;
	ops->module_snapshot = f_module_snapshot;
	ops->pause = f_pause;
	ops->sample_counts = f_sample_counts;
	ops->finish = f_finish;
}

/* ---- the model ---- */

static bool pending_out(const struct slot *s)
{
	return s->head_off < s->head_len || s->data_left;
}

static void set_head(struct slot *s, const void *head, u32 len)
{
	memcpy(s->head, head, len);
	s->head_len = len;
	s->head_off = 0;
	s->data_left = 0;
	s->data_got = 0;
	s->cmd = 0;
	s->status = 0;
}

/* Close the data channels of the current session: STOP, or its end. */
static void close_data(void)
{
	for (int i = 0; i < MAX_CONNS; i++) {
		struct slot *d = &fz.s[i];

		if (d->c && d->role == ACP_ROLE_DATA && d->gen == fz.gen)
			d->closed = true;
	}
	if (fz.f.running)
		fail("collection still running after STOP or the session's end");
}

static void session_end(void)
{
	if (fz.ctrl < 0)
		return;
	fz.s[fz.ctrl].held = false;	/* dropped: nobody waits for it */
	close_data();
	fz.ctrl = -1;
	fz.ndata = 0;
	fz.stop_done = false;
}

static void close_conn(struct slot *s)
{
	s->closed = true;
	s->in = IN_DEAD;
	if (fz.ctrl == s - fz.s)
		session_end();
}

/* The role acp_conn_attach() must have given; @nomem: an allocation failed. */
static void model_attach(struct slot *s, const struct acp_peer *peer,
			 bool nomem)
{
	struct sep_data_first_msg first = { .proto_version = SEP_PROTO_VERSION };
	enum acp_role want;
	u32 ch = 0;

	if (s->role != ACP_ROLE_NONE) {
		if (s->c->role != s->role)
			fail("role changed from %d to %d", s->role, s->c->role);
		return;
	}
	if (fz.ctrl < 0) {
		want = nomem ? ACP_ROLE_BUSY : ACP_ROLE_CONTROL;
	} else if (fz.ndata < fz.f.ncpus + 2 &&
		   !memcmp(peer, &fz.peer, sizeof(*peer)) &&
		   opener_of(s - fz.s) == fz.opener) {
		/* Same address and same opener as the control channel. */
		want = ACP_ROLE_DATA;
		ch = fz.ndata;
	} else {
		want = ACP_ROLE_BUSY;
	}
	if (s->c->role != want)
		fail("attached as role %d, want %d", s->c->role, want);
	s->role = want;
	if (want == ACP_ROLE_CONTROL) {
		core_fuzz_stats.sessions++;
		fz.started = false;
		fz.ctrl = s - fz.s;
		fz.peer = *peer;
		fz.opener = opener_of(s - fz.s);
		fz.ndata = 0;
		fz.gen++;
		fz.stop_done = false;
	} else if (want == ACP_ROLE_DATA) {
		if (s->c->channel != ch)
			fail("data channel %u, want %u", s->c->channel, ch);
		fz.ndata++;
		if (verbose)
			fprintf(stderr, "conn %d: data channel %u\n",
				(int)(s - fz.s), ch);
		s->gen = fz.gen;
		s->channel = ch;
		s->in = IN_DEAD;	/* whatever the host sends is dropped */
		/*
		 * Once STOP is answered the collection is over for good (no
		 * second START in a session) and close_data() ended every
		 * channel there was. A channel the host connects only now was
		 * not among them, yet the host waits for EOF on every channel
		 * (spec 3.4): the core queues its first message and ends it
		 * at once (acp_data_attach()), so it reaches EOF as soon as
		 * that is read. While the STOP answer is still held back, it
		 * joins the drain instead and the answer ends it with the
		 * others. (A connection hung up before it attached stays
		 * closed either way.)
		 */
		if (fz.stop_done)
			s->closed = true;
		/* spec 3.1: CPU 0..N-1, then uncore, then module */
		if (ch < fz.f.ncpus) {
			first.data_type = SEP_DATA_CPU;
			first.data_id = ch;
		} else {
			first.data_type = ch == fz.f.ncpus ? SEP_DATA_UNCORE :
							  SEP_DATA_MODULE;
		}
		set_head(s, &first, sizeof(first));
	}
}

static void unit_done(struct slot *s)
{
	const struct sep_control_msg_header *q = &s->req;

	if (s->in == IN_HELLO) {
		struct sep_control_first_msg h;

		memcpy(&h, s->in_buf, sizeof(h));
		s->hello_size = h.msg_size;
		s->due = DUE_STATUS;
		s->in = IN_HDR;
		return;
	}
	memcpy(&s->req, s->in_buf, sizeof(s->req));
	if (q->to_target_data_size > ACP_MAX_PAYLOAD) {
		s->due = DUE_RESPONSE;	/* refused at once, session ended */
		return;
	}
	/* spec 4.1.6: command 0 eats its payload and is never answered */
	s->in_reply = q->header_size != sizeof(*q) ||
		      q->command_id != SEP_CMD_NONE;
	if (q->to_target_data_size) {
		s->in = IN_PAYLOAD;
		s->in_left = q->to_target_data_size;
	} else if (s->in_reply) {
		s->due = DUE_RESPONSE;
	}
}

/* The bytes acp_conn_input() took from a control or busy connection. */
static void parse_in(struct slot *s, const u8 *p, size_t n)
{
	while (n) {
		size_t k;

		if (s->due)
			fail("input taken past a request awaiting its reply");
		switch (s->in) {
		case IN_HELLO:
		case IN_HDR: {
			u32 size = s->in == IN_HELLO ?
				sizeof(struct sep_control_first_msg) :
				sizeof(struct sep_control_msg_header);

			k = size - s->in_got < n ? size - s->in_got : n;
			memcpy(s->in_buf + s->in_got, p, k);
			s->in_got += k;
			if (s->in_got == size) {
				s->in_got = 0;
				unit_done(s);
			}
			break;
		}
		case IN_PAYLOAD:
			k = s->in_left < n ? s->in_left : n;
			s->in_left -= k;
			if (!s->in_left) {
				s->in = IN_HDR;
				if (s->in_reply)
					s->due = DUE_RESPONSE;
			}
			break;
		default:
			fail("%zu bytes taken as protocol on a closed connection", n);
		}
		p += k;
		n -= k;
	}
}

static void check_string(const char *field, const char *want, const char *what)
{
	char exp[64] = "";

	if (!memchr(field, 0, 64))
		fail("status message: %s is not NUL-terminated", what);
	if (want)
		strncpy(exp, want, 63);
	if (strcmp(field, exp))
		fail("status message: %s \"%.64s\", want \"%s\"", what, field, exp);
}

static void check_status(struct slot *s, const void *d, size_t n)
{
	struct sep_target_status_msg m;
	const struct sep_remote_hardware_info *hw = &m.hardware_info;
	s32 want = VT_SUCCESS;
	u32 eax = fz.f.cpuid1_eax;

	if (s->hello_size != sizeof(struct sep_control_first_msg))
		want = VT_COMM_NOT_COMPATIBLE;
	else if (s->role != ACP_ROLE_CONTROL)
		want = VT_COMM_DATA_CHANNEL_UNAVAILABLE;
	if (n != sizeof(m))
		fail("hello answered with %zu bytes, want %zu", n, sizeof(m));
	memcpy(&m, d, sizeof(m));
	if (m.msg_size != sizeof(m) || m.proto_version != SEP_PROTO_VERSION ||
	    m.status != want)
		fail("status message: size %u, version %u, status %d (want %d)",
		     m.msg_size, m.proto_version, m.status, want);
	if (m.os_info_offset != 48 || m.os_info_size != 200 ||
	    m.collect_switch_offset != 248 || m.collect_switch_size != 8 ||
	    m.hardware_info_offset != 256 || m.hardware_info_size != 40 ||
	    m.reserved1 || m.reserved2)
		fail("status message: bad layout fields");
	check_string(m.os_info.sysname, fz.f.sysname, "sysname");
	check_string(m.os_info.release, fz.f.release, "release");
	check_string(m.os_info.version, fz.f.version, "version");
	if (!(m.collect_switch.flags & SEP_SWITCH_UNCORE_SUPPORTED) != !fz.uncore)
		fail("status message: uncore bit 0x%x on a machine %s uncore",
		     m.collect_switch.flags, fz.uncore ? "with" : "without");
	if (hw->num_cpus != fz.f.ncpus || hw->family != ((eax >> 8) & 0xf) ||
	    hw->model != ((((eax >> 16) & 0xf) << 4) | ((eax >> 4) & 0xf)) ||
	    hw->stepping != (eax & 0xf) || hw->tsc_freq != FAKE_TSC_HZ)
		fail("status message: hardware info %u cpus, %u/%u/%u, %llu Hz",
		     hw->num_cpus, hw->family, hw->model, hw->stepping,
		     (unsigned long long)hw->tsc_freq);
	if (verbose)
		fprintf(stderr, "conn %d: hello -> status %d\n", (int)(s - fz.s),
			m.status);
	set_head(s, &m, sizeof(m));
	if (m.status != VT_SUCCESS)
		close_conn(s);	/* spec 2.3: send it, then close */
}

/* The commands a session without CAP_PERFMON is refused (dispatch.c). */
static bool privileged_only(u32 id)
{
	return id == SEP_CMD_INIT_DRIVER || id == SEP_CMD_START ||
	       id == ACA_CMD_KERNEL_SYMBOLS || id == ACA_CMD_MODULE_SNAPSHOT;
}

/* The uncore configuration: refused (183, spec 5.5) without uncore. */
static bool uncore_command(u32 id)
{
	return id == SEP_CMD_INIT_UNC || id == SEP_CMD_EM_GROUPS_UNC ||
	       id == SEP_CMD_EM_CONFIG_NEXT_UNC;
}

static void check_response(struct slot *s, const void *d, size_t n)
{
	const struct sep_control_msg_header *q = &s->req;
	struct sep_control_msg_header h;
	bool refuse = q->to_target_data_size > ACP_MAX_PAYLOAD;
	bool bad = q->header_size != sizeof(h);

	if (n != sizeof(h))
		fail("command %u (header %u bytes, payload %llu) answered with %zu bytes",
		     q->command_id, q->header_size,
		     (unsigned long long)q->to_target_data_size, n);
	memcpy(&h, d, sizeof(h));
	if (h.header_size != sizeof(h) || h.proto_version != SEP_PROTO_VERSION ||
	    h.command_id != q->command_id || h.to_target_data_size ||
	    h.reserved1 || h.reserved2)
		fail("response header: size %u, version %u, command %u (sent %u)",
		     h.header_size, h.proto_version, h.command_id, q->command_id);
	/* 218 for a bad header or an absurd payload, and for nothing else. */
	if ((bad || refuse) != (h.status == VT_COMM_NOT_COMPATIBLE))
		fail("command %u (header %u bytes, payload %llu) answered %d",
		     q->command_id, q->header_size,
		     (unsigned long long)q->to_target_data_size, h.status);
	/*
	 * The statuses this target has; 26 only once an allocation failed,
	 * 228 only for an uncore ECB that reads an MMIO register.
	 */
	if (h.status != VT_SUCCESS && h.status != VT_DRIVER_COMM_FAILED &&
	    h.status != VT_BAD_PARAMETER && h.status != VT_MSR_ACCESS_ERROR &&
	    h.status != VT_COMM_NOT_COMPATIBLE && h.status != VT_NO_ADMIN_PRIVILEGE &&
	    h.status != VT_INVALID_DEVICE &&
	    (h.status != VT_NO_MEMORY || !fz.f.nfailed) &&
	    (h.status != VT_INVALID_PROG_INFO ||
	     q->command_id != SEP_CMD_EM_CONFIG_NEXT_UNC))
		fail("command %u answered %d, a status this target does not have",
		     q->command_id, h.status);
	/*
	 * Without uncore, uncore never succeeds; 183 means an uncore command
	 * on a machine without uncore, and nothing else.
	 */
	if (!bad && !fz.uncore && uncore_command(q->command_id) && h.status == VT_SUCCESS)
		fail("uncore command %u succeeded", q->command_id);
	if ((bad || refuse || fz.uncore || !uncore_command(q->command_id)) &&
	    h.status == VT_INVALID_DEVICE)
		fail("command %u answered %d (uncore refused)", q->command_id,
		     h.status);
	if (h.from_target_data_size !=
	    (h.status == VT_SUCCESS ? q->from_target_data_size : 0))
		fail("command %u status %d: %llu bytes follow, %llu asked",
		     q->command_id, h.status,
		     (unsigned long long)h.from_target_data_size,
		     (unsigned long long)q->from_target_data_size);
	if (h.status == VT_SUCCESS && h.from_target_data_size > ACP_MAX_REPLY)
		fail("a reply of %llu bytes", (unsigned long long)h.from_target_data_size);
	if (!bad && q->command_id == SEP_CMD_WRITE_MSR && h.status == VT_SUCCESS)
		fail("WRITE_MSR succeeded");
	/*
	 * Without CAP_PERFMON, INIT_DRIVER, START, KERNEL_SYMBOLS and
	 * MODULE_SNAPSHOT answer 213 whatever else is wrong with them (a too
	 * large payload, or no memory for it, aside); 213 means nothing else.
	 */
	if (!bad && !refuse && h.status != VT_NO_MEMORY &&
	    privileged_only(q->command_id) &&
	    (h.status == VT_NO_ADMIN_PRIVILEGE) != fz.unprivileged)
		fail("command %u answered %d, %s CAP_PERFMON", q->command_id,
		     h.status, fz.unprivileged ? "without" : "with");
	if ((bad || refuse || !privileged_only(q->command_id)) &&
	    h.status == VT_NO_ADMIN_PRIVILEGE)
		fail("command %u answered %d (no privilege)", q->command_id,
		     h.status);
	if (!bad && q->command_id == SEP_CMD_TERMINATE &&
	    !q->to_target_data_size &&
	    q->from_target_data_size <= ACP_MAX_REPLY && h.status != VT_SUCCESS)
		fail("TERMINATE (%llu bytes asked) failed with %d",
		     (unsigned long long)q->from_target_data_size, h.status);
	if (verbose)
		fprintf(stderr, "conn %d: command %u -> status %d, %llu bytes\n",
			(int)(s - fz.s), h.command_id, h.status,
			(unsigned long long)h.from_target_data_size);
	set_head(s, &h, sizeof(h));
	s->data_left = h.from_target_data_size;
	s->cmd = bad ? ~0u : h.command_id;
	s->status = h.status;
	memset(s->cap, 0, sizeof(s->cap));
	if (refuse || (s->cmd == SEP_CMD_TERMINATE && h.status == VT_SUCCESS)) {
		close_conn(s);
	} else if (s->cmd == SEP_CMD_STOP && h.status == VT_SUCCESS) {
		if (fz.ctrl != s - fz.s)
			fail("STOP answered on a connection that is not the control");
		close_data();
		fz.stop_done = true;
	}
}

/* A data channel of the current session has output its reader lacks. */
static bool data_pending(void)
{
	for (int i = 0; i < MAX_CONNS; i++) {
		const struct slot *d = &fz.s[i];

		if (d->c && d->role == ACP_ROLE_DATA && d->gen == fz.gen &&
		    pending_out(d))
			return true;
	}
	return false;
}

/*
 * Spec 13: a STOP that stopped the collection is answered only once every
 * data channel is drained; until then the answer is held back.
 */
static bool stop_held(const struct slot *s)
{
	return s->req.command_id == SEP_CMD_STOP &&
	       s->req.header_size == sizeof(s->req) &&
	       s->req.to_target_data_size <= ACP_MAX_PAYLOAD &&
	       fz.ctrl == s - fz.s && fz.stopped && data_pending();
}

/* The drain may have released a held STOP answer: it must be there now. */
static void check_held(void)
{
	struct slot *s = fz.ctrl >= 0 ? &fz.s[fz.ctrl] : NULL;
	const void *d = NULL;
	size_t n;

	if (!s || !s->held)
		return;
	n = acp_conn_peek(s->c, &d);
	if (data_pending()) {
		if (n)
			fail("STOP answered before the data channels were drained");
		return;
	}
	s->held = false;
	check_response(s, d, n);
}

/* After acp_conn_input() took bytes: exactly the reply they call for. */
static void after_input(struct slot *s)
{
	const void *d;
	size_t n = acp_conn_peek(s->c, &d);
	int due = s->due;

	s->due = DUE_NONE;
	if (due == DUE_STATUS)
		check_status(s, d, n);
	else if (due == DUE_RESPONSE && !n && stop_held(s))
		s->held = true;
	else if (due == DUE_RESPONSE)
		check_response(s, d, n);
	else if (n)
		fail("%zu bytes of output nobody asked for", n);
}

/* Bytes past this offset of a successful reply must be zero padding. */
static u64 natural_size(u32 cmd)
{
	switch (cmd) {
	case SEP_CMD_RESERVE:
	case SEP_CMD_GET_DRIVER_STATE:
	case SEP_CMD_VERSION:
	case SEP_CMD_NUM_CORES:
	case SEP_CMD_COLLECT_SYS_CONFIG:
	case SEP_CMD_KERNEL_CS:
	case SEP_CMD_GET_NUM_CORE_CTRS:
	case SEP_CMD_GET_THREAD_COUNT:
		return 4;
	case SEP_CMD_GET_NORMALIZED_TSC:
	case SEP_CMD_GET_NORMALIZED_TSC_STANDALONE:
	case SEP_CMD_GET_NUM_SAMPLES:
		return 8;
	case SEP_CMD_GET_DRV_SETUP_INFO:
		return sizeof(struct sep_drv_setup_info);
	case SEP_CMD_GET_PLATFORM_INFO:
		return sizeof(struct sep_drv_platform_info);
	case SEP_CMD_GET_SAMPLE_DROP_INFO:
		return sizeof(struct sep_sample_drop_info);
	case SEP_CMD_CONTROL_DRIVER_LOG:
		return sizeof(struct sep_drv_log_control);
	case SEP_CMD_GET_PERF_CAPAB:
	case SEP_CMD_READ_MSR:
		return fz.f.ncpus * 8ull;
	case SEP_CMD_GET_SYS_CONFIG:
		return fz.sysconfig_len ? fz.sysconfig_len : ~0ull;
	case SEP_CMD_READ_AND_RESET:
	case SEP_CMD_READ_SWITCH_GROUP:
		/* A TSC delta and ACP_MAX_EVENTS counts per CPU, then zeros. */
		return fz.f.ncpus * 8ull * (1 + ACP_MAX_EVENTS);
	case ACA_CMD_GROUP_TIMES:
		/* Past every group and every window kept: zeros. */
		return sizeof(struct aca_group_times_head) +
		       ACP_MAX_GROUPS * sizeof(struct aca_group_time) +
		       ACA_GROUP_WINDOWS_MAX * sizeof(struct aca_group_window);
	default:
		return 0;	/* TSC_SKEW_INFO, PAX_INFO, EM_CONFIG_NEXT ... */
	}
}

static u64 cap64(const struct slot *s, u32 len)
{
	u64 v = 0;

	memcpy(&v, s->cap, len);
	return v;
}

static void check_payload(struct slot *s)
{
	u64 asked = s->data_got, v;

	switch (s->cmd) {
	case SEP_CMD_VERSION:
		if (asked >= 4 && cap64(s, 4) != SEP_DRIVER_VERSION)
			fail("VERSION 0x%llx", (unsigned long long)cap64(s, 4));
		break;
	case SEP_CMD_NUM_CORES:
		if (asked >= 4 && cap64(s, 4) != fz.f.ncpus)
			fail("NUM_CORES %llu", (unsigned long long)cap64(s, 4));
		break;
	case SEP_CMD_KERNEL_CS:
		if (asked >= 4 && cap64(s, 4) != SEP_KERNEL_CS)
			fail("KERNEL_CS %llu", (unsigned long long)cap64(s, 4));
		break;
	case SEP_CMD_RESERVE:
		if (asked >= 4 && cap64(s, 4) > SEP_RESERVE_BUSY)
			fail("RESERVE %llu", (unsigned long long)cap64(s, 4));
		break;
	case SEP_CMD_GET_DRIVER_STATE:
		if (asked >= 4 && cap64(s, 4) > SEP_STATE_RUNNING)
			fail("driver state %llu", (unsigned long long)cap64(s, 4));
		break;
	case SEP_CMD_GET_NORMALIZED_TSC:
	case SEP_CMD_GET_NORMALIZED_TSC_STANDALONE:
		v = cap64(s, 8);
		if (asked >= 8 && (!v || v < fz.last_tsc))
			fail("TSC went from %llu to %llu",
			     (unsigned long long)fz.last_tsc, (unsigned long long)v);
		if (asked >= 8)
			fz.last_tsc = v;
		break;
	case SEP_CMD_COLLECT_SYS_CONFIG:
		v = cap64(s, 4);
		if (asked < 4)
			break;
		if (!v || (fz.sysconfig_len && v != fz.sysconfig_len))
			fail("sys config of %llu bytes, was %u",
			     (unsigned long long)v, fz.sysconfig_len);
		fz.sysconfig_len = v;
		break;
	}
}

/* The reader took @n bytes at @d: they must be what the model expects. */
static void took(struct slot *s, const u8 *d, size_t n)
{
	/* KERNEL_SYMBOLS: a slot per address sent (spec 4.6). */
	u64 nat = s->cmd == ACA_CMD_KERNEL_SYMBOLS ?
		  s->req.to_target_data_size / 8 * ACA_KSYM_SLOT_SIZE :
		  natural_size(s->cmd);

	if (s->head_off < s->head_len) {
		s->head_off += n;
		return;
	}
	static const u8 zeros[4096];
	u64 off = s->data_got;
	size_t i = 0;

	if (off < sizeof(s->cap))
		memcpy(s->cap + off, d, sizeof(s->cap) - off < n ?
		       sizeof(s->cap) - off : n);
	if (nat > off)
		i = nat - off < n ? nat - off : n;
	while (i < n) {
		size_t k = n - i < sizeof(zeros) ? n - i : sizeof(zeros);

		if (memcmp(d + i, zeros, k))
			fail("command %u: padding after byte %llu is not zero",
			     s->cmd, (unsigned long long)nat);
		i += k;
	}
	s->data_got += n;
	s->data_left -= n;
	if (!s->data_left)
		check_payload(s);
}

static void check_peek(struct slot *s, const void *d, size_t n)
{
	if (n && !d)
		fail("peek: %zu bytes at NULL", n);
	if (s->head_off < s->head_len) {
		if (n != s->head_len - s->head_off)
			fail("peek: %zu bytes, the head has %u left", n,
			     s->head_len - s->head_off);
		if (memcmp(d, s->head + s->head_off, n))
			fail("queued head changed before it was read");
	} else if (s->data_left) {
		if (!n || n > s->data_left)
			fail("peek: %zu bytes, %llu of the reply left", n,
			     (unsigned long long)s->data_left);
	} else if (n) {
		fail("peek: %zu bytes past the end of the reply", n);
	}
}

/* Every connection: EOF, writable and pending output as the model says. */
static void check_all(void)
{
	check_fake();
	for (int i = 0; i < MAX_CONNS; i++) {
		struct slot *s = &fz.s[i];
		bool out, eof, w, want_w;
		const void *d = NULL;
		size_t n;

		if (!s->c)
			continue;
		fz.cur = i;
		if (s->c->role != s->role)
			fail("role %d, model %d", s->c->role, s->role);
		out = pending_out(s);
		eof = acp_conn_eof(s->c);
		w = acp_conn_writable(s->c);
		want_w = s->role == ACP_ROLE_NONE || s->role == ACP_ROLE_DATA ||
			 s->closed || (!out && !s->held);
		if (eof != (s->closed && !out))
			fail("eof %d; model: closed %d, output pending %d", eof,
			     s->closed, out);
		if (w != want_w)
			fail("writable %d, want %d", w, want_w);
		n = acp_conn_peek(s->c, &d);
		if (s->role == ACP_ROLE_NONE) {
			/* A query: nothing to read, and still no role. */
			if (n || s->c->role != ACP_ROLE_NONE)
				fail("peek before first use: %zu bytes, role %d",
				     n, s->c->role);
			continue;
		}
		check_peek(s, d, n);
		if (!w && !n && !s->held)
			fail("neither readable nor writable");
	}
	fz.cur = -1;
}

/*
 * No connection left: the target is as a new host finds it, whatever the
 * ones before did. No session, nothing sampling, nothing allocated but the
 * system configuration the target keeps once built.
 */
static void check_idle(void)
{
	for (int i = 0; i < MAX_CONNS; i++)
		if (fz.s[i].c)
			return;
	if (fz.t.control || fz.t.data || fz.t.stop_pending || fz.t.state != ACP_IDLE)
		fail("no connection left, yet a session is there (state %d)",
		     fz.t.state);
	if (fz.f.running)
		fail("no connection left, yet sampling runs");
	if (fz.f.live != (fz.t.sysconfig ? 1 : 0))
		fail("no connection left, yet %ld allocations live", fz.f.live);
}

/* ---- driving a connection like the relay does ---- */

static bool feed(struct slot *s)
{
	bool progress = false;

	while (s->c && s->pend_len && fz.calls++ < MAX_CALLS) {
		const u8 *p = s->pend + s->pend_off;
		size_t len = s->pend_len, n;
		bool attached = s->role != ACP_ROLE_NONE;
		bool dead = s->in == IN_DEAD;
		u64 fails = fz.f.nfailed;
		bool w;

		if (s->chunk && len > s->chunk)
			len = s->chunk;
		w = acp_conn_writable(s->c);
		fz.stopped = false;
		n = acp_conn_input(s->c, p, len);
		if (n > len)
			fail("input took %zu of %zu bytes", n, len);
		if (!attached)
			model_attach(s, &peers[0], fz.f.nfailed != fails);
		if (w && !n)
			fail("writable, yet input took nothing of %zu bytes", len);
		if (dead || s->role == ACP_ROLE_DATA) {
			if (n != len)
				fail("a discarding connection took %zu of %zu", n, len);
		} else if (n) {
			parse_in(s, p, n);
			after_input(s);
		}
		s->pend_off += n;
		s->pend_len -= n;
		if (!n)
			break;
		progress = true;
	}
	if (!s->pend_len)
		s->pend_off = 0;
	return progress;
}

/* Read up to @k bytes (none with !@consume); returns how many were read. */
static u64 do_read(struct slot *s, u64 k, bool consume)
{
	u64 done = 0;

	if (s->role == ACP_ROLE_NONE) {
		u64 fails = fz.f.nfailed;
		const void *d;

		/* Peeking (poll) gives no role; a real read does. */
		if (acp_conn_peek(s->c, &d) || s->c->role != ACP_ROLE_NONE)
			fail("peek before first use gave bytes or a role");
		if (!consume)
			return 0;
		acp_conn_use(s->c);	/* attaches as a local peer */
		model_attach(s, &peers[0], fz.f.nfailed != fails);
	}
	while (done < k && fz.calls++ < MAX_CALLS) {
		const void *d = NULL;
		size_t n = acp_conn_peek(s->c, &d), take;

		check_peek(s, d, n);
		if (!n || !consume)
			break;
		take = n < k - done ? n : k - done;
		took(s, d, take);
		acp_conn_consume(s->c, take);
		done += take;
		if (s->role == ACP_ROLE_DATA)
			check_held();
	}
	return done;
}

static void append(struct slot *s, const u8 *p, size_t n)
{
	if (s->pend_len + n > MAX_PENDING)
		n = MAX_PENDING - s->pend_len;
	if (!n)
		return;
	if (s->pend_off + s->pend_len + n > s->pend_cap) {
		if (s->pend_len)
			memmove(s->pend, s->pend + s->pend_off, s->pend_len);
		s->pend_off = 0;
		if (s->pend_len + n > s->pend_cap) {
			s->pend_cap = (s->pend_len + n) * 2;
			s->pend = realloc(s->pend, s->pend_cap);
			if (!s->pend)
				abort();
		}
	}
	if (p)
		memcpy(s->pend + s->pend_off + s->pend_len, p, n);
	else
		memset(s->pend + s->pend_off + s->pend_len, 0, n);
	s->pend_len += n;
}

static void conn_open(struct slot *s)
{
	if (s->c)
		return;
	memset(s, 0, sizeof(*s));
	s->c = malloc(sizeof(*s->c));
	if (!s->c)
		abort();
	acp_conn_init(s->c, &fz.t, s, opener_of(s - fz.s));
	acp_conn_set_privileged(s->c, !fz.unprivileged);
	acp_conn_set_kernel_addresses(s->c, !fz.kaddr_hidden);
	s->in = IN_HELLO;
}

static void conn_release(struct slot *s)
{
	bool data = s->role == ACP_ROLE_DATA;

	if (!s->c)
		return;
	acp_conn_release(s->c);
	if (fz.ctrl == s - fz.s)
		session_end();
	free(s->c);
	free(s->pend);
	memset(s, 0, sizeof(*s));
	if (data)
		check_held();	/* a channel gone counts as drained */
}

static bool pump(struct slot *s)
{
	bool any = false;

	for (int round = 0; s->c && round < MAX_PUMP; round++) {
		bool r = do_read(s, ~0ull, true) > 0;
		bool f = feed(s);

		if (!r && !f)
			break;
		any = true;
	}
	return any;
}

/* ---- the script ---- */

struct script {
	const u8 *p;
	size_t left;
};

static u32 get8(struct script *sc)
{
	if (!sc->left)
		return 0;
	sc->left--;
	return *sc->p++;
}

static u32 get16(struct script *sc)
{
	u32 lo = get8(sc);

	return lo | get8(sc) << 8;
}

static const u64 sizes[] = {
	0, 1, 4, 8, 24, 32, 48, 72, 104, 112, 144, 296, 324,
	sizeof(struct sep_ecb), sizeof(struct sep_ecb) + 136,
	sizeof(struct sep_ecb) + 22 * 136, sizeof(struct sep_dev_unc_config),
	sizeof(struct sep_dev_config), sizeof(struct sep_drv_platform_info),
	ACP_MAX_PAYLOAD, ACP_MAX_PAYLOAD + 1ull, ACP_MAX_REPLY,
	ACP_MAX_REPLY + 1ull, 1ull << 63, ~0ull, 3, 7, 100,
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * A size from the table above, or (its last index) the size a usual request
 * of @c has (@to: its payload, else its reply); 0 for an unknown command.
 */
static u64 table_size(struct script *sc, const struct tc_command *c, bool to)
{
	u32 k = get8(sc) % (NELEM(sizes) + 1);

	if (k < NELEM(sizes))
		return sizes[k];
	if (!c)
		return 0;
	return to ? tc_command_to(c, fz.f.ncpus) : tc_command_from(c, fz.f.ncpus);
}

/*
 * A request header from the tests' table of commands (cmd_table.c: every
 * command, then the unknown ids) and the sizes above, and with @body its
 * payload.
 */
static void compact_request(struct slot *s, struct script *sc, bool body)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h),
		.proto_version = SEP_PROTO_VERSION,
	};
	u32 k = get8(sc) % (tc_ncommands + tc_nunknown_ids), lit;
	const struct tc_command *c = k < tc_ncommands ? &tc_commands[k] : NULL;

	h.command_id = c ? c->id : tc_unknown_ids[k - tc_ncommands];
	h.to_target_data_size = table_size(sc, c, true);
	h.from_target_data_size = table_size(sc, c, false);
	append(s, (const u8 *)&h, sizeof(h));
	if (!body || h.to_target_data_size > ACP_MAX_PAYLOAD)
		return;
	lit = get8(sc);
	if (lit > sc->left)
		lit = sc->left;
	if (lit > h.to_target_data_size)
		lit = h.to_target_data_size;
	append(s, sc->p, lit);
	sc->p += lit;
	sc->left -= lit;
	append(s, NULL, h.to_target_data_size - lit);
}

static void run_op(struct script *sc)
{
	u32 op = get8(sc), kind = op >> 5, arg = (op >> 3) & 3;
	int i = (op & 7) % fz.nconns;
	struct slot *s = &fz.s[i];
	static const struct sep_control_first_msg hello = {
		.msg_size = sizeof(hello), .proto_version = SEP_PROTO_VERSION,
	};
	u64 fails;
	u32 n;

	fz.cur = i;
	if (verbose)
		fprintf(stderr, "op %zu: %u.%u on conn %d\n", fz.op, kind, arg, i);
	switch (kind) {
	case OP_ATTACH:
		conn_open(s);
		fails = fz.f.nfailed;
		/* A peer is given once: false once the role is given. */
		if (acp_conn_attach(s->c, &peers[arg % fz.npeers]) !=
		    (s->role == ACP_ROLE_NONE))
			fail("attach answered wrongly for role %d", s->role);
		model_attach(s, &peers[arg % fz.npeers], fz.f.nfailed != fails);
		break;
	case OP_WRITE:
		conn_open(s);
		n = arg & 1 ? get16(sc) : get8(sc);
		if (arg & 2) {
			append(s, NULL, arg == 3 ? n * 16ull : n);
		} else {
			if (n > sc->left)
				n = sc->left;
			append(s, sc->p, n);
			sc->p += n;
			sc->left -= n;
		}
		feed(s);
		break;
	case OP_READ:
		if (!s->c)
			break;
		if (arg == 0)
			do_read(s, get8(sc) + 1, true);
		else if (arg == 1)
			do_read(s, (get8(sc) + 1) * 64ull, true);
		else
			do_read(s, ~0ull, arg == 2);
		break;
	case OP_HANGUP:
		if (!s->c)
			break;
		acp_conn_hangup(s->c);
		if (fz.ctrl == i)
			session_end();
		s->closed = true;
		s->in = IN_DEAD;
		s->pend_len = 0;	/* nothing more reaches the target */
		break;
	case OP_RELEASE:
		conn_release(s);
		break;
	case OP_OPEN:
		conn_open(s);
		break;
	case OP_PUMP:
		if (arg == 0) {
			if (s->c)
				pump(s);
		} else if (arg == 1) {
			bool any = true;

			for (int round = 0; any && round < MAX_PUMP; round++) {
				any = false;
				for (int j = 0; j < MAX_CONNS; j++) {
					fz.cur = j;
					if (fz.s[j].c && pump(&fz.s[j]))
						any = true;
				}
			}
		} else if (arg == 2) {
			conn_open(s);
			s->chunk = get8(sc);
		} else {
			conn_open(s);
			append(s, (const u8 *)&hello, sizeof(hello));
			feed(s);
		}
		break;
	case OP_MISC:
		if (arg == 0) {
			fz.f.fail_at = fz.f.nalloc + 1 + get8(sc);
		} else if (arg == 1) {
			fz.f.start_ret = fz.f.start_ret ? 0 : -16;
		} else {
			conn_open(s);
			compact_request(s, sc, arg == 3);
			feed(s);
		}
		break;
	}
	check_all();
	check_idle();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	verbose = getenv("ACA_FUZZ_VERBOSE") != NULL;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct script sc = { data + 2, size - 2 };
	u32 b0, b1;

	if (size < 2)
		return 0;
	memset(&fz, 0, sizeof(fz));
	b0 = data[0];
	b1 = data[1];
	fz.nconns = (b0 & 7) + 1;
	fz.npeers = ((b0 >> 3) & 3) + 1;
	fz.unprivileged = (b0 >> 5) >= NMACHINES;
	fz.kaddr_hidden = fz.unprivileged || fz.npeers == 4;
	fz.no_sampler = b1 & 4;
	fz.two_openers = b1 & 32;
	fz.drain = b1 & 128;
	fz.ctrl = -1;
	fz.cur = -1;
	fake_init(&fz.f, ncpus_choice[b1 & 3]);
	set_machine(&fz.f, (b0 >> 5) % NMACHINES);
	/* Machine 4 has uncore PMUs; the fake's find_pmu comes with its sampler. */
	fz.uncore = (b0 >> 5) % NMACHINES == 4 && !fz.no_sampler;
	fz.ibs = (b0 >> 5) % NMACHINES == 3 && !fz.no_sampler;
	if (b1 & 8)
		fz.f.start_ret = -16;		/* EBUSY: perf said no */
	if (b1 & 16)
		fz.f.nmsrs = 0;			/* every rdmsr faults */
	fz.f.pti = b1 & 64;
	set_ops(&fz.ops, !fz.no_sampler);
	acp_target_init(&fz.t, &fz.ops, &fz.f);
	core_fuzz_stats.inputs++;

	for (fz.op = 0; sc.left && fz.op < MAX_OPS; fz.op++)
		run_op(&sc);

	/* Every file is closed, then the module unloads. */
	fz.calls = 0;
	for (int i = 0; i < MAX_CONNS; i++) {
		struct slot *s = &fz.s[i];

		fz.cur = i;
		if (s->c && fz.drain && s->role != ACP_ROLE_NONE) {
			do_read(s, ~0ull, true);
			if (s->closed && !acp_conn_eof(s->c))
				fail("drained and closed, yet not at EOF");
		}
		conn_release(s);
		check_all();
	}
	fz.cur = -1;
	check_idle();
	core_fuzz_stats.last_session_started = fz.started;
	acp_target_fini(&fz.t);
	check_fake();
	if (fz.f.running)
		fail("collection still running after acp_target_fini()");
	if (fz.f.live)
		fail("%ld allocations leaked", fz.f.live);
	if (!fz.no_sampler && fz.f.nfini != 1)
		fail("acp_target_fini() told the machine %u times", fz.f.nfini);
	return 0;
}

#ifdef __clang__
#pragma clang attribute pop
#endif
