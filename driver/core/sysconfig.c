// SPDX-License-Identifier: GPL-2.0-only
/*
 * COLLECT_SYS_CONFIG / GET_SYS_CONFIG (spec 9.3): a blob describing the
 * machine, with a real CPUID dump of every CPU. Built once and cached.
 */
#include "internal.h"

#define MAX_LEAVES	256	/* per CPU; real parts have well under 100 */
#define NO_VALUE	0xffffffffu

struct cpuid_list {
	u32 n;
	struct sep_cpuid_x86 e[MAX_LEAVES];
};

static bool add(struct acp_target *t, int cpu, struct cpuid_list *l,
		u32 leaf, u32 sub, u32 regs[4])
{
	struct sep_cpuid_x86 *e;

	if (l->n >= MAX_LEAVES || !t->ops->cpuid(t->ctx, cpu, leaf, sub, regs))
		return false;
	e = &l->e[l->n++];
	e->eax_input = leaf;
	e->eax = regs[0];
	e->ebx = regs[1];
	e->ecx = regs[2];
	e->edx = regs[3];
	return true;
}

/* Sub-leaves: until a terminator (included), or a fixed count. */
static void add_leaf(struct acp_target *t, int cpu, struct cpuid_list *l,
		     u32 leaf)
{
	u32 regs[4], sub = 0;

	switch (leaf) {
	case 0x4:
		while (add(t, cpu, l, leaf, sub++, regs) && (regs[0] & 0x1f))
			;
		break;
	case 0xb:
	case 0x1f:
		while (add(t, cpu, l, leaf, sub++, regs) && (regs[0] || regs[1]))
			;
		break;
	case 0xf:
		add(t, cpu, l, leaf, 0, regs);
		add(t, cpu, l, leaf, 1, regs);
		break;
	case 0x10:
		for (sub = 0; sub < 4; sub++)
			add(t, cpu, l, leaf, sub, regs);
		break;
	default:
		add(t, cpu, l, leaf, 0, regs);
	}
}

/* Basic leaves 0..max, then extended ones; leaf 7 included (spec [IMPL]). */
static void dump_cpu(struct acp_target *t, int cpu, struct cpuid_list *l)
{
	u32 regs[4], max;

	l->n = 0;
	if (!t->ops->cpuid(t->ctx, cpu, 0, 0, regs))
		return;
	max = regs[0] < 0x100 ? regs[0] : 0xff;
	for (u32 leaf = 0; leaf <= max; leaf++)
		add_leaf(t, cpu, l, leaf);
	if (!t->ops->cpuid(t->ctx, cpu, 0x80000000, 0, regs))
		return;
	max = regs[0] < 0x80000100 ? regs[0] : 0x800000ff;
	for (u32 leaf = 0x80000000; leaf <= max && leaf >= 0x80000000; leaf++)
		add_leaf(t, cpu, l, leaf);
}

static const struct sep_cpuid_x86 *find(const struct cpuid_list *l, u32 leaf,
					u32 nth)
{
	for (u32 i = 0; i < l->n; i++)
		if (l->e[i].eax_input == leaf && !nth--)
			return &l->e[i];
	return NULL;
}

/* Cache of @level in KB, from CPUID leaf 4 (deterministic cache params). */
static u32 cache_kb(const struct cpuid_list *l, u32 level)
{
	const struct sep_cpuid_x86 *e;

	for (u32 i = 0; (e = find(l, 4, i)) && (e->eax & 0x1f); i++) {
		u64 ways = (e->ebx >> 22) + 1, parts = ((e->ebx >> 12) & 0x3ff) + 1;
		u64 line = (e->ebx & 0xfff) + 1, sets = (u64)e->ecx + 1;

		if (((e->eax >> 5) & 7) == level && (e->eax & 0x1f) != 1)
			return ways * parts * line * sets / 1024;
	}
	return 0;
}

/* Package/core/thread from the x2APIC id and leaf 0xB shifts. */
static void topology(const struct cpuid_list *l, struct sep_gen_per_cpu *p)
{
	const struct sep_cpuid_x86 *smt = find(l, 0xb, 0), *core = find(l, 0xb, 1);
	const struct sep_cpuid_x86 *e;
	u32 ts, cs, id;

	/* No threads at the SMT level, or a core level below it: unusable. */
	if (!smt || !core || !(smt->ebx & 0xffff) ||
	    (core->eax & 0x1f) < (smt->eax & 0x1f)) {
		p->cpu_threads_per_core = 1;
		return;
	}
	id = smt->edx;
	ts = smt->eax & 0x1f;
	cs = core->eax & 0x1f;
	p->cpu_hw_thread_num = id & ((1u << ts) - 1);
	p->cpu_core_num = (id >> ts) & ((1u << (cs - ts)) - 1);
	p->cpu_package_num = cs < 32 ? id >> cs : 0;
	p->cpu_threads_per_core = smt->ebx & 0xffff;
	p->cpu_num_modules = (core->ebx & 0xffff) / p->cpu_threads_per_core / 2;
	e = find(l, 0x1a, 0);
	p->cpu_core_type = e ? e->eax >> 24 : 0;
}

static void fill_per_cpu(struct acp_target *t, u32 cpu,
			 const struct cpuid_list *l, struct sep_gen_per_cpu *p,
			 u64 cpuid_off)
{
	const struct sep_cpuid_x86 *pm = find(l, 0xa, 0), *v = find(l, 0, 0);
	u64 platform_id;

	p->cpu_number = cpu;
	p->cpu_speed_mhz = NO_VALUE;
	p->cpu_fsb_mhz = NO_VALUE;
	p->cpu_intel_processor_number = NO_VALUE;
	p->cpu_cache_L2 = cache_kb(l, 2);
	p->cpu_cache_L3 = cache_kb(l, 3);
	p->cpu_cpuid_array.offset = cpuid_off;
	/* "GenuineIntel": EBX "Genu", EDX "ineI", ECX "ntel" */
	if (v && v->ebx == 0x756e6547 && v->edx == 0x49656e69 &&
	    v->ecx == 0x6c65746e && t->ops->rdmsr(t->ctx, cpu, 0x17, &platform_id))
		p->platform_id = platform_id;
	topology(l, p);
	if (pm) {
		p->arch_perfmon_ver = pm->eax & 0xff;
		p->num_gp_counters = (pm->eax >> 8) & 0xff;
		p->num_fixed_counters = pm->edx & 0x1f;
	}
}

static void header(u8 *at, u32 n, u32 size, u16 type, u16 subtype)
{
	struct sep_gen_array_hdr h = {
		.hdr_size = sizeof(h), .array_num_entries = n,
		.array_entry_size = size, .array_type = type,
		.array_subtype = subtype,
	};

	memcpy(at, &h, sizeof(h));
}

static void assemble(struct acp_target *t, u8 *blob, u32 ncpus,
		     const struct cpuid_list *lists)
{
	const u32 node_hdr = sizeof(struct sep_vtsa_sys_info);
	const u32 node = node_hdr + sizeof(struct sep_gen_array_hdr);
	const u32 cpu_hdr = node + sizeof(struct sep_node_info);
	const u32 cpus = cpu_hdr + sizeof(struct sep_gen_array_hdr);
	struct sep_vtsa_sys_info sys = { .node_array.offset = node_hdr };
	struct sep_node_info ni = { 0 };
	u64 off = cpus + (u64)ncpus * sizeof(struct sep_gen_per_cpu);

	sys.min_app_address = ~0ull;
	sys.max_app_address = ~0ull;
	sys.page_size = t->ops->page_size(t->ctx);
	sys.allocation_granularity = sys.page_size;
	memcpy(blob, &sys, sizeof(sys));
	header(blob + node_hdr, 1, sizeof(ni), SEP_GEN_ARRAY_NODE, 0);
	ni.node_type_from_shell = NO_VALUE;
	ni.node_id = NO_VALUE;
	ni.node_num_available = ncpus;
	ni.node_num_used = NO_VALUE;
	ni.node_physical_memory = t->ops->total_ram(t->ctx);
	ni.node_percpu_array.offset = cpu_hdr;
	memcpy(blob + node, &ni, sizeof(ni));
	header(blob + cpu_hdr, ncpus, sizeof(struct sep_gen_per_cpu),
	       SEP_GEN_ARRAY_PER_CPU, SEP_GEN_ARRAY_SUB_EM64T);
	for (u32 cpu = 0; cpu < ncpus; cpu++) {
		const struct cpuid_list *l = &lists[cpu];
		struct sep_gen_per_cpu p = { 0 };

		fill_per_cpu(t, cpu, l, &p, off);
		memcpy(blob + cpus + cpu * sizeof(p), &p, sizeof(p));
		header(blob + off, l->n, sizeof(l->e[0]), SEP_GEN_ARRAY_CPUID,
		       SEP_GEN_ARRAY_SUB_EM64T);
		off += sizeof(struct sep_gen_array_hdr);
		memcpy(blob + off, l->e, l->n * sizeof(l->e[0]));
		off += l->n * sizeof(l->e[0]);
	}
}

static s32 build(struct acp_target *t)
{
	u32 ncpus = t->ops->num_cpus(t->ctx);
	struct cpuid_list *lists = acp_zalloc(t, ncpus * sizeof(*lists));
	u64 size = 248 + 168ull * ncpus;

	if (!lists)
		return VT_NO_MEMORY;
	for (u32 cpu = 0; cpu < ncpus; cpu++) {
		dump_cpu(t, cpu, &lists[cpu]);
		size += 20ull * lists[cpu].n;
	}
	t->sysconfig = acp_zalloc(t, size);
	if (t->sysconfig) {
		assemble(t, t->sysconfig, ncpus, lists);
		t->sysconfig_len = size;
	}
	acp_free(t, lists);
	return t->sysconfig ? VT_SUCCESS : VT_NO_MEMORY;
}

void acp_sysconfig_free(struct acp_target *t)
{
	acp_free(t, t->sysconfig);
	t->sysconfig = NULL;
	t->sysconfig_len = 0;
}

s32 acp_cmd_collect_sys_config(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	s32 status = t->sysconfig ? VT_SUCCESS : build(t);

	if (status != VT_SUCCESS)
		return status;
	return acp_reply_copy(r, &t->sysconfig_len, sizeof(t->sysconfig_len));
}

/* Exactly the asked length: the blob, cut or zero-padded. */
s32 acp_cmd_get_sys_config(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	s32 status = t->sysconfig ? VT_SUCCESS : build(t);

	if (status != VT_SUCCESS)
		return status;
	r->data = t->sysconfig;
	r->len = t->sysconfig_len;
	return VT_SUCCESS;
}
