// SPDX-License-Identifier: GPL-2.0-only
/* The fake machine behind struct acp_ops (see fake_target.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fake_target.h"

/* Every allocation carries its size and a tag, so frees are checked. */
struct fake_hdr {
	u64 magic;
	u64 size;
};

#define FAKE_MAGIC	0xfa4eb10cfa4eb10cull

static void *fake_alloc(void *ctx, size_t size)
{
	struct fake *f = ctx;
	struct fake_hdr *h;

	f->nalloc++;
	if (size > f->largest)
		f->largest = size;
	if (f->fail_at && f->nalloc == f->fail_at) {
		f->nfailed++;
		return NULL;
	}
	/* Anything bigger than the core's own caps is a bug: refuse it. */
	if (size > (64u << 20))
		return NULL;
	h = calloc(1, sizeof(*h) + size);
	if (!h)
		return NULL;
	h->magic = FAKE_MAGIC;
	h->size = size;
	f->live++;
	f->live_bytes += size;
	return h + 1;
}

static void fake_free(void *ctx, void *ptr)
{
	struct fake *f = ctx;
	struct fake_hdr *h;

	if (!ptr) {
		f->bad_free = true;	/* the core promises non-NULL */
		return;
	}
	h = (struct fake_hdr *)ptr - 1;
	if (h->magic != FAKE_MAGIC) {
		f->bad_free = true;
		return;
	}
	h->magic = 0;
	f->live--;
	f->live_bytes -= h->size;
	free(h);
}

static const char *fake_sysname(void *ctx)
{
	return ((struct fake *)ctx)->sysname;
}

static const char *fake_release(void *ctx)
{
	return ((struct fake *)ctx)->release;
}

static const char *fake_version(void *ctx)
{
	return ((struct fake *)ctx)->version;
}

static u32 fake_num_cpus(void *ctx)
{
	return ((struct fake *)ctx)->ncpus;
}

static bool cpu_ok(const struct fake *f, int cpu)
{
	return cpu >= 0 && (u32)cpu < f->ncpus && cpu != f->offline_cpu &&
	       !(f->odd_cpus_offline && (cpu & 1));
}

static void sig(const char s[12], u32 *a, u32 *b, u32 *c)
{
	memcpy(a, s, 4);
	memcpy(b, s + 4, 4);
	memcpy(c, s + 8, 4);
}

/* Leaf 4: L1d, L1i, L2, L3; then the terminator, unless endless. */
static void fake_cache_leaf(const struct fake *f, u32 sub, u32 r[4])
{
	/* ways-1 << 22 | partitions-1 << 12 | line-1; ecx: sets-1 */
	static const u32 caches[4][3] = {
		{ 1 << 5 | 1, 7 << 22 | 63, 63 },	/* L1 data, 32 KB */
		{ 1 << 5 | 2, 7 << 22 | 63, 63 },	/* L1 instruction, 32 KB */
		{ 2 << 5 | 3, 3 << 22 | 63, 1023 },	/* L2 unified, 4 x 64 x 1024 */
		{ 3 << 5 | 3, 15 << 22 | 63, 12287 },	/* L3 unified, 16 x 64 x 12288 */
	};

	if (sub >= 4 && !f->endless_leaves)
		return;
	memcpy(r, caches[sub & 3], sizeof(caches[0]));
}

/* Leaves 0xB and 0x1F: SMT level (shift 1, 2 threads), core level (shift 2, 4). */
static void fake_topology_leaf(const struct fake *f, u32 sub, u32 apic, u32 r[4])
{
	if (f->no_topology_leaf)
		return;
	if (sub == 0 || (f->endless_leaves && sub & 1)) {
		r[0] = 1;
		r[1] = 2;
		r[2] = 1 << 8 | sub;
	} else if (sub == 1 || f->endless_leaves) {
		r[0] = 2;
		r[1] = 4;
		r[2] = 2 << 8 | sub;
	} else {
		r[2] = sub;
	}
	if (f->odd_leaf_b && sub < 2) {
		r[0] = f->odd_b[sub][0];
		r[1] = f->odd_b[sub][1];
	}
	r[3] = apic;
}

static bool fake_cpuid(void *ctx, int cpu, u32 leaf, u32 sub, u32 r[4])
{
	struct fake *f = ctx;
	u32 apic;

	if (cpu < 0)
		cpu = 0;
	if (!cpu_ok(f, cpu))
		return false;
	apic = cpu;
	memset(r, 0, 4 * sizeof(*r));
	if (leaf >= 0x80000000) {
		if (leaf == 0x80000000)
			r[0] = f->max_ext_leaf;
		else if (leaf == 0x80000008 && leaf <= f->max_ext_leaf)
			r[0] = 0x3027;
		return true;
	}
	if (leaf >= 0x40000000) {
		if (leaf == 0x40000000 && f->hypervisor) {
			r[0] = 0x40000001;
			sig(f->hv_sig, &r[1], &r[2], &r[3]);
		}
		return true;
	}
	if (leaf > f->max_leaf)
		return true;
	switch (leaf) {
	case 0:
		r[0] = f->max_leaf;
		sig(f->vendor, &r[1], &r[3], &r[2]);
		break;
	case 1:
		r[0] = f->cpuid1_eax;
		r[1] = apic << 24 | 16 << 16 | 8 << 8;
		r[2] = 0x7ffafbff | (f->hypervisor ? 1u << 31 : 0);
		r[3] = 0xbfebfbff;
		break;
	case 4:
		fake_cache_leaf(f, sub, r);
		break;
	case 7:
		r[1] = 0x029c6fbf;
		break;
	case 0xa:
		r[0] = f->perfmon_eax;
		r[3] = f->perfmon_edx;
		break;
	case 0xb:
	case 0x1f:
		fake_topology_leaf(f, sub, apic, r);
		break;
	case 0x1a:
		r[0] = f->core_type;
		break;
	}
	return true;
}

static u32 fake_session_idle_s(void *ctx)
{
	return ((struct fake *)ctx)->session_idle_s;
}

static u64 fake_tsc_hz(void *ctx)
{
	return FAKE_TSC_HZ;
}

/* Non-decreasing, with runs of equal values. */
static u64 fake_tsc_now(void *ctx)
{
	struct fake *f = ctx;

	if (f->ntsc++ % 3 && !f->tsc_frozen)
		f->tsc += 977;
	return f->tsc;
}

struct fake_msr *fake_find_msr(struct fake *f, u32 msr)
{
	for (u32 i = 0; i < f->nmsrs; i++)
		if (f->msrs[i].msr == msr)
			return &f->msrs[i];
	return NULL;
}

void fake_set_msr(struct fake *f, u32 msr, u64 val)
{
	struct fake_msr *m = fake_find_msr(f, msr);

	if (!m) {
		if (f->nmsrs == FAKE_MAX_MSRS)
			abort();
		m = &f->msrs[f->nmsrs++];
		m->msr = msr;
	}
	for (u32 cpu = 0; cpu < FAKE_MAX_CPUS; cpu++)
		m->val[cpu] = val;
}

static bool fake_rdmsr(void *ctx, int cpu, u32 msr, u64 *val)
{
	struct fake *f = ctx;
	struct fake_msr *m;

	if (cpu < 0)
		cpu = 0;
	m = fake_find_msr(f, msr);
	if (!cpu_ok(f, cpu) || !m)
		return false;
	*val = m->val[cpu];
	return true;
}

static bool fake_pti(void *ctx)
{
	return ((struct fake *)ctx)->pti;
}

static u64 fake_total_ram(void *ctx)
{
	return FAKE_TOTAL_RAM;
}

static u32 fake_page_size(void *ctx)
{
	return FAKE_PAGE_SIZE;
}

static int fake_start(void *ctx, const struct acp_config *cfg, bool paused)
{
	struct fake *f = ctx;
	u32 n = cfg->ngroups < FAKE_MAX_GROUPS ? cfg->ngroups : FAKE_MAX_GROUPS;

	f->nstart++;
	if (f->running)
		f->misuse++;
	if (!f->start_ret) {
		f->running = true;
		f->paused = paused;
	}
	f->start_paused = paused;
	f->start_ngroups = cfg->ngroups;
	memset(f->start_groups, 0, sizeof(f->start_groups));
	memcpy(f->start_groups, cfg->groups, n * sizeof(*cfg->groups));
	f->start_nunc = cfg->nunc;
	memset(f->start_unc, 0, sizeof(f->start_unc));
	if (cfg->nunc)
		memcpy(f->start_unc, cfg->unc, cfg->nunc * sizeof(*cfg->unc));
	return f->start_ret;
}

static void fake_call(struct fake *f, char what)
{
	if (f->ncalls < sizeof(f->calls) - 1)
		f->calls[f->ncalls++] = what;
}

static void fake_stop(void *ctx)
{
	struct fake *f = ctx;

	fake_call(f, 's');
	f->nstop++;
	if (!f->running)
		f->misuse++;
	f->running = false;
	f->paused = false;
}

static void fake_pause(void *ctx, bool pause)
{
	struct fake *f = ctx;

	if (pause)
		f->npause++;
	else
		f->nresume++;
	if (!f->running || f->paused == pause)
		f->misuse++;
	f->paused = pause;
}

static int fake_switch_group(void *ctx)
{
	struct fake *f = ctx;

	if (!f->running)
		f->misuse++;
	if (!f->switch_ret)
		f->nswitch++;
	return f->switch_ret;
}

static void fake_group_times(void *ctx, void *buf, size_t len)
{
	struct fake *f = ctx;
	struct aca_group_times_head h = { .ngroups = 1, .switches = f->nswitch };

	if (len < sizeof(h))
		f->misuse++;
	else
		memcpy(buf, &h, sizeof(h));
}

static int fake_read_counts(void *ctx, bool next_group, void *buf, size_t len)
{
	struct fake *f = ctx;

	if (!f->running || (len && !buf))
		f->misuse++;
	f->nread++;
	f->nread_next += next_group;
	for (size_t i = 0; i < len; i++)
		((u8 *)buf)[i] = (u8)(i + 1);
	return 0;
}

static void fake_sample_counts(void *ctx, u32 cpu, u64 *written, u64 *dropped)
{
	*written = FAKE_WRITTEN(cpu);
	*dropped = FAKE_DROPPED(cpu);
}

static size_t fake_data_peek(void *ctx, u32 chan, const void **p)
{
	struct fake *f = ctx;
	u32 n;

	if (chan >= f->ncpus + 2) {
		f->misuse++;
		return 0;
	}
	n = f->nsample_bytes[chan] - f->sample_off[chan];
	*p = f->samples[chan] + f->sample_off[chan];
	return n < FAKE_SAMPLE_PIECE ? n : FAKE_SAMPLE_PIECE;
}

static void fake_data_consume(void *ctx, u32 chan, size_t n)
{
	struct fake *f = ctx;

	if (chan >= f->ncpus + 2 ||
	    n > f->nsample_bytes[chan] - f->sample_off[chan]) {
		f->misuse++;
		return;
	}
	f->sample_off[chan] += n;
}

static bool fake_data_final(void *ctx, u32 chan)
{
	struct fake *f = ctx;

	f->nfinal++;
	if (chan >= f->ncpus + 2) {
		f->misuse++;
		return true;
	}
	return !f->growing[chan];
}

u32 fake_unread(const struct fake *f, u32 chan)
{
	return f->nsample_bytes[chan] - f->sample_off[chan];
}

/* STOP's final module records, on the module channel; after stop(). */
static void fake_finalize(void *ctx)
{
	struct fake *f = ctx;

	fake_call(f, 'f');
	f->nfinalize++;
	if (f->running)
		f->misuse++;
	if (f->finalize_bytes)
		fake_add_samples(f, f->ncpus + 1, f->finalize_bytes, f->finalize_seed);
}

/* MODULE_SNAPSHOT: the live processes' records, the collection going on. */
static int fake_module_snapshot(void *ctx)
{
	struct fake *f = ctx;

	f->nsnapshot++;
	if (!f->running && !f->paused)
		f->misuse++;
	if (f->snapshot_ret)
		return f->snapshot_ret;
	if (f->snapshot_bytes)
		fake_add_samples(f, f->ncpus + 1, f->snapshot_bytes, f->snapshot_seed);
	return 0;
}

static bool fake_delayed_transfer(void *ctx)
{
	return ((struct fake *)ctx)->delayed;
}

static void fake_fini(void *ctx)
{
	((struct fake *)ctx)->nfini++;
}

/* The rings go at session end, after sampling stopped. */
static void fake_finish(void *ctx)
{
	struct fake *f = ctx;

	fake_call(f, 'F');
	f->nfinish++;
	if (f->running)
		f->misuse++;
	memset(f->nsample_bytes, 0, sizeof(f->nsample_bytes));
	memset(f->sample_off, 0, sizeof(f->sample_off));
	memset(f->growing, 0, sizeof(f->growing));
}

void fake_add_samples(struct fake *f, u32 chan, u32 len, u8 seed)
{
	u32 at;

	if (chan >= FAKE_MAX_CPUS + 2)
		abort();
	at = f->nsample_bytes[chan];
	if (at + len > FAKE_SAMPLE_BYTES)
		abort();
	for (u32 i = 0; i < len; i++)
		f->samples[chan][at + i] = (u8)(seed + i);
	f->nsample_bytes[chan] += len;
}

static void fake_wake(void *ctx, void *conn_ctx)
{
	struct fake *f = ctx;

	if (f->nwoken < FAKE_MAX_WAKES)
		f->woken[f->nwoken++] = conn_ctx;
}

static void fake_log(void *ctx, const char *fmt, va_list args)
{
	struct fake *f = ctx;

	if (f->nlogs < FAKE_MAX_LOGS)
		vsnprintf(f->logs[f->nlogs], FAKE_LOG_LEN, fmt, args);
	f->nlogs++;
}

const struct fake_ksym fake_ksyms[] = {
	{ 0xffffffff81000000ull, 0x40, "startup_64", "" },
	{ 0xffffffff81234560ull, 0x1a0, "do_syscall_64", "" },
	/* Its neighbour: an address between them is in neither. */
	{ 0xffffffff81234800ull, 0x20, "syscall_exit_work", "" },
	{ 0xffffffffc0a01000ull, 0x2c8, "ext4_readdir", "ext4" },
};

const unsigned int fake_nksyms = ARRAY_SIZE(fake_ksyms);

/* Copy @s into @buf of @len bytes, cut and NUL-terminated as strscpy() does. */
static void fake_strscpy(char *buf, const char *s, size_t len)
{
	size_t n = strlen(s);

	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
}

static bool fake_kernel_symbol(void *ctx, u64 addr, u64 *start, u64 *size,
			       char *name, size_t name_len, char *module,
			       size_t module_len)
{
	struct fake *f = ctx;
	char lng[FAKE_KSYM_LONG_NAME + 1];

	f->nksym++;
	f->ksym_last = addr;
	if (!name_len || !module_len)
		f->misuse++;
	if (addr - FAKE_KSYM_LONG_START < FAKE_KSYM_LONG_SIZE) {
		for (u32 i = 0; i < FAKE_KSYM_LONG_NAME; i++)
			lng[i] = 'a' + i % 26;
		lng[FAKE_KSYM_LONG_NAME] = 0;
		*start = FAKE_KSYM_LONG_START;
		*size = FAKE_KSYM_LONG_SIZE;
		fake_strscpy(name, lng, name_len);
		fake_strscpy(module, FAKE_KSYM_LONG_MODULE, module_len);
		return true;
	}
	for (u32 i = 0; i < fake_nksyms; i++) {
		const struct fake_ksym *k = &fake_ksyms[i];

		if (addr - k->start >= k->size)
			continue;
		*start = k->start;
		*size = k->size;
		fake_strscpy(name, k->name, name_len);
		fake_strscpy(module, k->module, module_len);
		return true;
	}
	return false;
}

#define FAKE_MACHINE_OPS \
	.sysname = fake_sysname, .release = fake_release, \
	.version = fake_version, .num_cpus = fake_num_cpus, \
	.cpuid = fake_cpuid, .tsc_hz = fake_tsc_hz, .tsc_now = fake_tsc_now, \
	.rdmsr = fake_rdmsr, .pti = fake_pti, \
	.total_ram = fake_total_ram, .page_size = fake_page_size, \
	.alloc = fake_alloc, .free = fake_free, .wake = fake_wake, \
	.log = fake_log, .kernel_symbol = fake_kernel_symbol, \
	.session_idle_s = fake_session_idle_s

static int fake_configure(void *ctx, const struct acp_config *cfg)
{
	struct fake *f = ctx;

	f->nconfigure++;
	if (f->configure_bytes)
		fake_add_samples(f, f->ncpus + 1, f->configure_bytes, f->finalize_seed);
	return 0;
}

static bool fake_find_pmu(void *ctx, const char *name, u32 *type, char *formats,
			  size_t len)
{
	struct fake *f = ctx;

	f->npmu_lookups++;
	for (u32 i = 0; i < f->npmus; i++) {
		const struct fake_pmu *p = &f->pmus[i];

		if (strcmp(p->name, name))
			continue;
		*type = p->type;
		if (len)
			memcpy(formats, p->formats, p->len < len ? p->len : len);
		return true;
	}
	return false;
}

void fake_add_pmu(struct fake *f, const char *name, u32 type,
			 const char *const *formats, u32 nformats)
{
	struct fake_pmu *p;

	if (f->npmus == FAKE_MAX_PMUS || strlen(name) >= sizeof(p->name))
		abort();
	p = &f->pmus[f->npmus++];
	memset(p, 0, sizeof(*p));
	memcpy(p->name, name, strlen(name) + 1);
	p->type = type;
	for (u32 i = 0; i < nformats; i++) {
		size_t n = strlen(formats[i]) + 1;

		if (p->len + n >= sizeof(p->formats))
			abort();
		memcpy(p->formats + p->len, formats[i], n);
		p->len += n;
	}
}

const struct acp_ops fake_ops = {
	FAKE_MACHINE_OPS,
	.configure = fake_configure,
	.start = fake_start,
	.stop = fake_stop,
	.pause = fake_pause,
	.switch_group = fake_switch_group,
	.read_counts = fake_read_counts,
	.find_pmu = fake_find_pmu,
	.group_times = fake_group_times,
	.sample_counts = fake_sample_counts,
	.finalize = fake_finalize,
	.module_snapshot = fake_module_snapshot,
	.data_peek = fake_data_peek,
	.data_consume = fake_data_consume,
	.data_final = fake_data_final,
	.delayed_transfer = fake_delayed_transfer,
	.finish = fake_finish,
	.fini = fake_fini,
};

const struct acp_ops fake_ops_nosampling = {
	FAKE_MACHINE_OPS,
};

void fake_init(struct fake *f, u32 ncpus)
{
	memset(f, 0, sizeof(*f));
	if (ncpus > FAKE_MAX_CPUS)
		abort();
	f->ncpus = ncpus;
	f->offline_cpu = -1;
	memcpy(f->vendor, "GenuineIntel", 13);
	f->max_leaf = 0xb;
	f->max_ext_leaf = FAKE_MAX_EXT_LEAF;
	f->cpuid1_eax = FAKE_CPUID1_EAX;
	f->perfmon_eax = FAKE_PERFMON_VER | FAKE_GP_COUNTERS << 8 | 48 << 16 | 7 << 24;
	f->perfmon_edx = FAKE_FIXED_COUNTERS | 48 << 5;
	memcpy(f->hv_sig, "KVMKVMKVM\0\0\0", 13);
	f->sysname = FAKE_SYSNAME;
	f->release = FAKE_RELEASE;
	f->version = FAKE_VERSION;
	f->tsc = 1000000;

	fake_set_msr(f, 0x10, FAKE_TSC_MSR);
	fake_set_msr(f, 0x17, FAKE_PLATFORM_ID);
	fake_set_msr(f, 0xce, FAKE_PLATFORM_INFO);
	fake_set_msr(f, 0x1a4, FAKE_MISC_FEATURE);
	fake_set_msr(f, 0x606, FAKE_RAPL_UNIT);
	fake_set_msr(f, 0x345, 0);
	fake_set_msr(f, 0x38f, 0);
	for (u32 cpu = 0; cpu < FAKE_MAX_CPUS; cpu++) {
		fake_find_msr(f, 0x345)->val[cpu] = FAKE_PERF_CAPAB(cpu);
		fake_find_msr(f, 0x38f)->val[cpu] = FAKE_GLOBAL_CTRL(cpu);
	}
	/* Writable PMU registers, and one that exists but is not PMU. */
	fake_set_msr(f, 0x186, 0);
	fake_set_msr(f, 0x309, 0);
	fake_set_msr(f, 0x1b0, 6);		/* IA32_ENERGY_PERF_BIAS */
	/* 0x2be and 0x4c1 are absent: reading them faults. */
}

u32 fake_log_count(const struct fake *f, const char *needle)
{
	u32 n = 0;

	for (u32 i = 0; i < f->nlogs && i < FAKE_MAX_LOGS; i++)
		if (strstr(f->logs[i], needle))
			n++;
	return n;
}

u32 fake_woken(const struct fake *f, const void *conn_ctx)
{
	u32 n = 0;

	for (u32 i = 0; i < f->nwoken; i++)
		if (f->woken[i] == conn_ctx)
			n++;
	return n;
}
