/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake machine for the protocol core: struct acp_ops answered from fixed
 * tables, with recorders for everything the core does to it (allocations,
 * MSR writes, wakes, log lines, sampling calls). No test harness in here.
 * The one machine of every core test program and of the fuzz engine
 * (selftests/fuzz/core_fuzz.c), which sets the fields below to be other
 * machines (a KVM guest, AMD, a hypervisor with endless CPUID leaves, ...).
 */
#ifndef ACA_TEST_FAKE_TARGET_H
#define ACA_TEST_FAKE_TARGET_H

#include "../../driver/core/core.h"

#define FAKE_MAX_CPUS		32
#define FAKE_MAX_MSRS		32
#define FAKE_MAX_WAKES		256
#define FAKE_MAX_LOGS		64
#define FAKE_LOG_LEN		256
#define FAKE_MAX_GROUPS		4
#define FAKE_MAX_PMUS		96
#define FAKE_PMU_FORMATS	512

/* The default machine: a 4-CPU Coffee Lake, 2 cores x 2 threads. */
#define FAKE_NCPUS		4
#define FAKE_SYSNAME		"Linux"
#define FAKE_RELEASE		"6.12.117+deb12-amd64"
/* 80 characters: longer than the 64-byte wire field. */
#define FAKE_VERSION \
	"#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-11-01) x86_64 and more.."
#define FAKE_TSC_HZ		2112000000ull
#define FAKE_TOTAL_RAM		(8ull << 30)
#define FAKE_PAGE_SIZE		4096u
/* CPUID(1).EAX: family 6, model 0x9e, stepping 10. */
#define FAKE_CPUID1_EAX		0x000906eau
/* CPUID(0xA): perfmon v4, 4 GP counters, 3 fixed counters. */
#define FAKE_PERFMON_VER	4
#define FAKE_GP_COUNTERS	4
#define FAKE_FIXED_COUNTERS	3
/* Leaf 4 cache sizes the sys-config blob must report (KB). */
#define FAKE_L2_KB		256
#define FAKE_L3_KB		12288
/*
 * CPUID entries per CPU the sys-config dump must hold: basic leaves 0..0xb
 * (leaf 4 as 4 caches + terminator, leaf 0xb as SMT, core + terminator,
 * leaf 7 once) = 4 + 5 + 6 + 3, then extended leaves 0x80000000..8 = 9.
 */
#define FAKE_CPUID_ENTRIES	27
#define FAKE_MAX_EXT_LEAF	0x80000008u

/* MSR values of the fake (per CPU where it says so). */
#define FAKE_PLATFORM_INFO	0x80838f1012800ull	/* 0xce */
#define FAKE_MISC_FEATURE	0x5ull			/* 0x1a4 */
#define FAKE_RAPL_UNIT		0x000a0e03ull		/* 0x606: energy 0xe */
#define FAKE_PLATFORM_ID	(1ull << 50)		/* 0x17 */
#define FAKE_TSC_MSR		0x123456789ull		/* 0x10 */
#define FAKE_PERF_CAPAB(cpu)	(0x33c5ull | ((u64)(cpu) << 32))	/* 0x345 */
#define FAKE_GLOBAL_CTRL(cpu)	(0x70000000full | ((u64)(cpu) << 40))	/* 0x38f */
/* Samples the fake reports per CPU (sample_counts). */
#define FAKE_WRITTEN(cpu)	(100ull * ((cpu) + 1))
#define FAKE_DROPPED(cpu)	((u64)(cpu))

/*
 * Bytes the fake can hold per data channel (CPU samples, uncore, module
 * records), and how many of them data_peek() shows at once, as a ring
 * wrapping around would.
 */
#define FAKE_SAMPLE_BYTES	1024
#define FAKE_SAMPLE_PIECE	40

/*
 * The kernel symbols kernel_symbol() knows (KERNEL_SYMBOLS): fake_ksyms[],
 * and one more at FAKE_KSYM_LONG_START whose name (FAKE_KSYM_LONG_NAME
 * characters) is longer than any the kernel has, in a module of the
 * longest name the kernel allows (55 characters).
 */
struct fake_ksym {
	u64 start, size;
	const char *name, *module;	/* module "": the kernel image */
};

extern const struct fake_ksym fake_ksyms[];
extern const unsigned int fake_nksyms;
#define FAKE_KSYM_LONG_START	0xffffffffc0b00000ull
#define FAKE_KSYM_LONG_SIZE	0x100ull
#define FAKE_KSYM_LONG_NAME	700
#define FAKE_KSYM_LONG_MODULE \
	"m123456789_123456789_123456789_123456789_123456789_1234"

/* A dynamic perf PMU (uncore, IBS): its type, and its format files' contents, each NUL-ended. */
struct fake_pmu {
	char name[ACP_UNC_PMU_NAME];
	u32 type;
	char formats[FAKE_PMU_FORMATS];
	size_t len;
};

struct fake_msr {
	u32 msr;
	u64 val[FAKE_MAX_CPUS];
};

struct fake {
	/* ---- the machine (set by fake_init, tests may change it) ---- */
	u32 ncpus;
	int offline_cpu;		/* -1: none; CPUID/MSRs on it fail */
	bool odd_cpus_offline;		/* and on every odd-numbered CPU */
	char vendor[13];		/* CPUID 0: "GenuineIntel" */
	u32 max_leaf;			/* CPUID 0.EAX: 0xb */
	u32 max_ext_leaf;		/* CPUID 0x80000000.EAX: FAKE_MAX_EXT_LEAF */
	u32 cpuid1_eax;			/* family, model, stepping */
	u32 perfmon_eax, perfmon_edx;	/* CPUID 0xA: FAKE_PERFMON_* counters */
	u32 core_type;			/* CPUID 0x1A.EAX (hybrid parts): 0 */
	bool no_topology_leaf;		/* no CPUID 0xB / 0x1F levels */
	bool endless_leaves;		/* CPUID 4, 0xB, 0x1F never terminate */
	bool odd_leaf_b;		/* CPUID 0xB levels from odd_b[] */
	u32 odd_b[2][2];		/* EAX, EBX of sub-leaves 0 and 1 */
	bool pti;
	bool hypervisor;		/* CPUID.1:ECX[31] */
	char hv_sig[13];		/* CPUID 0x40000000 EBX, ECX, EDX */
	const char *sysname, *release, *version;
	struct fake_msr msrs[FAKE_MAX_MSRS];
	u32 nmsrs;
	u64 tsc;
	u64 ntsc;
	bool tsc_frozen;		/* tsc moves only when a test moves it */
	u32 session_idle_s;		/* the ops' session_idle_s: 0 (never) */

	/* ---- allocator: calloc, counted ---- */
	long live;			/* allocations not freed yet */
	u64 live_bytes;
	u64 nalloc;			/* alloc calls, failed ones included */
	size_t largest;			/* largest size ever asked */
	u64 fail_at;			/* fail the alloc call with this index (1-based); 0: never */
	u64 nfailed;
	bool bad_free;			/* free() of something not ours */

	/* ---- recorders ---- */
	void *woken[FAKE_MAX_WAKES];
	u32 nwoken;
	char logs[FAKE_MAX_LOGS][FAKE_LOG_LEN];
	u32 nlogs;			/* lines logged (may exceed FAKE_MAX_LOGS) */

	/* ---- sampling ops (fake_ops only) ---- */
	int start_ret;			/* what start() returns */
	u32 nstart, nstop, npause, nresume;
	bool running, paused;		/* the sampler as the calls left it */
	u32 misuse;			/* calls that made no sense then */
	bool start_paused;		/* @paused of the last start() */
	u32 start_ngroups;
	struct acp_group start_groups[FAKE_MAX_GROUPS];
	/*
	 * Multiplexing: switch_group() calls (each refused, as with one
	 * group, while @switch_ret is non-zero); group_times() writes a head
	 * saying @nswitch switches.
	 */
	int switch_ret;
	u32 nswitch;
	/*
	 * Counting mode: read_counts() calls (@nread_next of them moving to
	 * the next group); each fills its buffer with bytes 1, 2, 3, ...
	 */
	u32 nread, nread_next;
	/*
	 * Dynamic PMUs (fake_ops only): the uncore and IBS PMUs find_pmu()
	 * finds (none unless a test adds them), its calls, and the uncore
	 * events of the last start().
	 */
	struct fake_pmu pmus[FAKE_MAX_PMUS];
	u32 npmus;
	u32 npmu_lookups;
	u32 start_nunc;
	struct acp_unc_event start_unc[ACP_MAX_UNC_EVENTS];
	/*
	 * Bytes per data channel, by spec 3.1 index (data_peek/data_consume);
	 * finish() empties them.
	 */
	u8 samples[FAKE_MAX_CPUS + 2][FAKE_SAMPLE_BYTES];
	u32 nsample_bytes[FAKE_MAX_CPUS + 2];	/* bytes ever added */
	u32 sample_off[FAKE_MAX_CPUS + 2];	/* bytes consumed */
	/*
	 * Streams that may still grow: data_final() says no for them, as
	 * the kernel's for the module records until its worker is done.
	 * Tests set it; finish() clears it. data_final() calls, counted.
	 */
	bool growing[FAKE_MAX_CPUS + 2];
	u32 nfinal;
	u32 nfinish;
	u32 nfini;
	/* finalize(): calls, and module-record bytes it adds (seed finalize_seed). */
	u32 nfinalize;
	u32 finalize_bytes;
	u8 finalize_seed;
	bool delayed;			/* what delayed_transfer() answers */
	/*
	 * configure() (INIT_DRIVER, fake_ops only): calls, and module-record
	 * bytes it adds, as the kernel's does with the kernel and modules'
	 * layout (seed finalize_seed).
	 */
	u32 nconfigure;
	u32 configure_bytes;
	/*
	 * module_snapshot(): calls, what it returns, and the module-record
	 * bytes it adds (seed snapshot_seed), as the kernel's worker does a
	 * moment later.
	 */
	u32 nsnapshot;
	int snapshot_ret;
	u32 snapshot_bytes;
	u8 snapshot_seed;
	/* kernel_symbol() calls, and the address of the last. */
	u32 nksym;
	u64 ksym_last;
	/* Order of the calls stop (s), finalize (f), finish (F), as letters. */
	char calls[16];
	u32 ncalls;
};

/* Add @len bytes (@seed, @seed + 1, ...) to data channel @chan. */
void fake_add_samples(struct fake *f, u32 chan, u32 len, u8 seed);
/* The bytes of data channel @chan nobody has read yet. */
u32 fake_unread(const struct fake *f, u32 chan);

/* Every op, sampling included. */
extern const struct acp_ops fake_ops;
/* No start/stop/pause/sample_counts: START must fail. */
extern const struct acp_ops fake_ops_nosampling;

void fake_init(struct fake *f, u32 ncpus);

/* Add PMU @name (perf type @type) with @nformats format files' contents. */
void fake_add_pmu(struct fake *f, const char *name, u32 type,
		  const char *const *formats, u32 nformats);

/* Set an MSR's value on every CPU (adding it to the map if needed). */
void fake_set_msr(struct fake *f, u32 msr, u64 val);
/* The MSR's entry, or NULL if reading it faults. */
struct fake_msr *fake_find_msr(struct fake *f, u32 msr);

/* The number of log lines containing @needle. */
u32 fake_log_count(const struct fake *f, const char *needle);
/* The number of times wake() was called for @conn_ctx. */
u32 fake_woken(const struct fake *f, const void *conn_ctx);

#endif /* ACA_TEST_FAKE_TARGET_H */
