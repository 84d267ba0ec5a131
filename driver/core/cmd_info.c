// SPDX-License-Identifier: GPL-2.0-only
/* Information commands (spec 9): what the host learns about the target. */
#include "internal.h"

#define MSR_PLATFORM_INFO	0xce
#define MSR_MISC_FEATURE	0x1a4
#define MSR_RAPL_POWER_UNIT	0x606
#define KERNEL_CS_X86_64	0x10

s32 acp_cmd_version(const struct acp_cmd *cmd, struct acp_reply *r)
{
	u32 v = SEP_DRIVER_VERSION;	/* VTune checks for 5.17.5 */

	return acp_reply_copy(r, &v, sizeof(v));
}

/* Hypervisor vendor from CPUID 0x40000000 (spec 9.2). */
static u64 vmm_bits(struct acp_target *t)
{
	static const struct { char sig[13]; u32 vendor; } vendors[] = {
		{ "KVMKVMKVM\0\0\0", SEP_VMM_KVM },
		{ "VMwareVMware", SEP_VMM_VMWARE },
		{ "Microsoft Hv", SEP_VMM_HYPERV },
		{ "XenVMMXenVMM", SEP_VMM_XEN },
		{ "ACRNACRNACRN", SEP_VMM_ACRN },
	};
	u32 regs[4];
	char sig[12];
	u64 bits = SEP_SETUP_VMM_MODE | SEP_SETUP_VMM_GUEST_VM;

	t->ops->cpuid(t->ctx, -1, 1, 0, regs);
	if (!(regs[2] & (1u << 31)))	/* CPUID.1:ECX.hypervisor */
		return 0;
	t->ops->cpuid(t->ctx, -1, 0x40000000, 0, regs);
	memcpy(sig, &regs[1], 4);
	memcpy(sig + 4, &regs[2], 4);
	memcpy(sig + 8, &regs[3], 4);
	for (size_t i = 0; i < ARRAY_SIZE(vendors); i++)
		if (!memcmp(sig, vendors[i].sig, sizeof(sig)))
			bits |= (u64)vendors[i].vendor << SEP_SETUP_VMM_VENDOR_SHIFT;
	return bits;
}

/* perf-based: NMI delivery, no PEBS, an allow-list, a public driver. */
s32 acp_cmd_setup_info(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	struct sep_drv_setup_info info = { 0 };

	info.modes = SEP_SETUP_NMI_MODE | SEP_SETUP_TRACEPOINTS_AVAILABLE |
		     SEP_SETUP_REGISTER_WHITELIST_DETECTED |
		     SEP_SETUP_CPU_HOTPLUG_MODE |
		     (1ull << SEP_SETUP_DRV_TYPE_SHIFT) | vmm_bits(t);
	if (t->ops->pti(t->ctx))
		info.modes |= 1ull << SEP_SETUP_PTI_SHIFT;
	if (t->ops->sw_clock && t->ops->sw_clock(t->ctx))
		info.reserved2 |= ACA_SETUP_SW_CLOCK;
	return acp_reply_copy(r, &info, sizeof(info));
}

s32 acp_cmd_num_cores(const struct acp_cmd *cmd, struct acp_reply *r)
{
	s32 n = cmd->t->ops->num_cpus(cmd->t->ctx);

	return acp_reply_copy(r, &n, sizeof(n));
}

s32 acp_cmd_tsc(const struct acp_cmd *cmd, struct acp_reply *r)
{
	u64 tsc = cmd->t->ops->tsc_now(cmd->t->ctx);

	return acp_reply_copy(r, &tsc, sizeof(tsc));
}

/*
 * One clock for every CPU (tsc_now() is global), so every skew is 0. The
 * reply is exactly what was asked, zero-padded (spec 9.6 [IMPL]).
 */
s32 acp_cmd_tsc_skew(const struct acp_cmd *cmd, struct acp_reply *r)
{
	r->len = 0;
	return VT_SUCCESS;
}

s32 acp_cmd_platform_info(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	struct sep_drv_platform_info *p = acp_reply_alloc(cmd, r, sizeof(*p));
	u64 v;

	if (!p)
		return VT_NO_MEMORY;
	if (t->ops->rdmsr(t->ctx, -1, MSR_PLATFORM_INFO, &v))
		p->info = v;
	if (t->ops->rdmsr(t->ctx, -1, MSR_MISC_FEATURE, &v))
		p->misc_info = v;
	p->misc_valid = 1;
	if (t->ops->rdmsr(t->ctx, -1, MSR_RAPL_POWER_UNIT, &v))
		p->energy_multiplier = (v >> 8) & 0x1f;
	return VT_SUCCESS;
}

s32 acp_cmd_kernel_cs(const struct acp_cmd *cmd, struct acp_reply *r)
{
	s32 cs = KERNEL_CS_X86_64;

	return acp_reply_copy(r, &cs, sizeof(cs));
}

s32 acp_cmd_num_core_ctrs(const struct acp_cmd *cmd, struct acp_reply *r)
{
	u32 regs[4];
	u32 n;

	cmd->t->ops->cpuid(cmd->t->ctx, -1, 0xa, 0, regs);
	n = (regs[0] >> 8) & 0xff;
	return acp_reply_copy(r, &n, sizeof(n));
}

/* IA32_PERF_CAPABILITIES per CPU, as many as fit the reply. */
s32 acp_cmd_perf_capab(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	u32 n = t->ops->num_cpus(t->ctx);
	u64 *caps;

	if (n > cmd->out_len / 8)
		n = cmd->out_len / 8;
	caps = acp_reply_alloc(cmd, r, (u64)n * 8 + 8);
	if (!caps)
		return VT_NO_MEMORY;
	for (u32 cpu = 0; cpu < n; cpu++)
		if (!t->ops->rdmsr(t->ctx, cpu, MSR_PERF_CAPABILITIES, &caps[cpu]))
			caps[cpu] = 0;
	return VT_SUCCESS;
}

static void counts(struct acp_target *t, u32 cpu, u64 *written, u64 *dropped)
{
	*written = 0;
	*dropped = 0;
	if (t->ops->sample_counts)
		t->ops->sample_counts(t->ctx, cpu, written, dropped);
}

s32 acp_cmd_num_samples(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	u64 total = 0, w, d;

	for (u32 cpu = 0; cpu < t->ops->num_cpus(t->ctx); cpu++) {
		counts(t, cpu, &w, &d);
		total += w;
	}
	return acp_reply_copy(r, &total, sizeof(total));
}

/*
 * Per-CPU figures for the first 20 CPUs (spec 9.9 [IMPL]): sampled counts
 * every sample taken, dropped those that could not be delivered, so the
 * host receives sampled - dropped on each CPU, exactly.
 */
s32 acp_cmd_drop_info(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	struct sep_sample_drop_info *info = acp_reply_alloc(cmd, r, sizeof(*info));
	u32 n = t->ops->num_cpus(t->ctx);
	u64 w, d;

	if (!info)
		return VT_NO_MEMORY;
	if (n > SEP_MAX_SAMPLE_DROP_NODES)
		n = SEP_MAX_SAMPLE_DROP_NODES;
	info->size = n;
	for (u32 cpu = 0; cpu < n; cpu++) {
		counts(t, cpu, &w, &d);
		info->drop_info[cpu].os_id = t->cfg.osid;
		info->drop_info[cpu].cpu_id = cpu;
		w += d;
		info->drop_info[cpu].sampled = w > 0xffffffffu ? 0xffffffffu : w;
		info->drop_info[cpu].dropped = d > 0xffffffffu ? 0xffffffffu : d;
	}
	return VT_SUCCESS;
}

/* An RTOS notion; a Linux target reports no threads of its own. */
s32 acp_cmd_thread_count(const struct acp_cmd *cmd, struct acp_reply *r)
{
	u32 n = 0;

	return acp_reply_copy(r, &n, sizeof(n));
}

/* Stored, unlike the reference (spec 12.15); echoed in drop info. */
s32 acp_cmd_set_osid(const struct acp_cmd *cmd, struct acp_reply *r)
{
	if (cmd->in_len == 4)
		memcpy(&cmd->t->cfg.osid, cmd->in, 4);
	return VT_SUCCESS;
}

/* No PAX service: a zeroed PAX_INFO (spec 4.3). */
s32 acp_cmd_pax_info(const struct acp_cmd *cmd, struct acp_reply *r)
{
	r->len = 0;
	return VT_SUCCESS;
}

/*
 * Verbosity per category is kept (0xff queries, 0xfe resets); aca logs
 * through the kernel log, so there is no log buffer to mark or size.
 */
s32 acp_cmd_driver_log(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct sep_drv_log_control ctl = { 0 };
	u8 *verb = cmd->t->cfg.log_verbosity;
	u64 n = cmd->in_len < sizeof(ctl) ? cmd->in_len : sizeof(ctl);

	memcpy(&ctl, cmd->in, n);
	if (ctl.command == SEP_DRV_LOG_CMD_ADJUST_VERBOSITY) {
		for (u32 i = 0; i < sizeof(ctl.data); i++) {
			if (ctl.data[i] == SEP_LOG_VERBOSITY_DEFAULT)
				verb[i] = 0;
			else if (ctl.data[i] != SEP_LOG_VERBOSITY_QUERY)
				verb[i] = ctl.data[i];
			ctl.data[i] = verb[i];
		}
	} else if (ctl.command == SEP_DRV_LOG_CMD_QUERY_SIZE) {
		memset(ctl.data, 0, sizeof(ctl.data));
	}
	if (!cmd->out_len)
		return VT_SUCCESS;
	if (!acp_reply_alloc(cmd, r, sizeof(ctl)))
		return VT_NO_MEMORY;
	memcpy(r->owned, &ctl, sizeof(ctl));
	return VT_SUCCESS;
}

/* The driver log lives in the kernel log (dmesg); the buffer is empty. */
s32 acp_cmd_get_driver_log(const struct acp_cmd *cmd, struct acp_reply *r)
{
	r->len = 0;
	return VT_SUCCESS;
}

s32 acp_cmd_success(const struct acp_cmd *cmd, struct acp_reply *r)
{
	return VT_SUCCESS;
}

/* KERNEL_SYMBOLS: what kernel_symbol() fills, as long as kallsyms names go. */
#define ACP_KSYM_NAME_LEN	512	/* the kernel's KSYM_NAME_LEN */
#define ACP_KSYM_MODULE_LEN	64	/* above its MODULE_NAME_LEN */

struct acp_ksym {
	char name[ACP_KSYM_NAME_LEN];
	char module[ACP_KSYM_MODULE_LEN];
};

/* @v in lowercase hex, at least @width (<= 16) digits; returns the length. */
static size_t put_hex(char *p, u64 v, unsigned int width)
{
	char digits[16];
	size_t n = 0;

	do {
		digits[n++] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v || n < width);
	for (size_t i = 0; i < n; i++)
		p[i] = digits[n - 1 - i];
	return n;
}

/*
 * One slot (spec 4.6): "START SIZE NAME[ MODULE]" and a NUL; a name too
 * long for the slot is cut, the module never.
 */
static void ksym_line(char *slot, u64 start, u64 size, const char *name,
		      const char *module)
{
	size_t len = put_hex(slot, start, 16);
	size_t mod = strlen(module), room, n;

	slot[len++] = ' ';
	len += put_hex(slot + len, size, 1);
	slot[len++] = ' ';
	room = ACA_KSYM_SLOT_SIZE - 1 - len - (mod ? mod + 1 : 0);
	n = strlen(name);
	if (n > room)
		n = room;
	memcpy(slot + len, name, n);
	len += n;
	if (mod) {
		slot[len++] = ' ';
		memcpy(slot + len, module, mod);
		len += mod;
	}
	slot[len] = 0;
}

/*
 * [ACA-EXT] KERNEL_SYMBOLS (spec 4.6): a slot per address asked, in order,
 * the symbol that holds it or zeros. Privileged sessions only (dispatch.c),
 * and only what /proc/kallsyms would show the session's person: else every
 * slot is empty (the reply's zeros) and the log says why.
 */
s32 acp_cmd_kernel_symbols(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	u64 n = cmd->in_len / 8;
	struct acp_ksym *k;
	char *out;

	if (!t->ops->kernel_symbol) {
		acp_log(t, "KERNEL_SYMBOLS: this target cannot name kernel addresses");
		return VT_DRIVER_COMM_FAILED;
	}
	if (!n || cmd->in_len % 8 || n > ACA_KSYM_MAX_ADDRS) {
		acp_log(t, "KERNEL_SYMBOLS: payload of %llu bytes, not 1 to %u addresses",
			(unsigned long long)cmd->in_len, ACA_KSYM_MAX_ADDRS);
		return VT_BAD_PARAMETER;
	}
	if (cmd->out_len < n * ACA_KSYM_SLOT_SIZE) {
		acp_log(t, "KERNEL_SYMBOLS: reply of %llu bytes asked, %llu needed",
			(unsigned long long)cmd->out_len,
			(unsigned long long)n * ACA_KSYM_SLOT_SIZE);
		return VT_DRIVER_COMM_FAILED;
	}
	if (!t->kernel_addresses) {
		acp_log(t,
			"KERNEL_SYMBOLS: every slot empty: /proc/kallsyms hides kernel addresses from the session's user (kptr_restrict, CAP_SYSLOG; aca(4) SECURITY)");
		return VT_SUCCESS;
	}
	k = acp_zalloc(t, sizeof(*k));
	if (!k)
		return VT_NO_MEMORY;
	out = acp_reply_alloc(cmd, r, n * ACA_KSYM_SLOT_SIZE);
	if (!out) {
		acp_free(t, k);
		return VT_NO_MEMORY;
	}
	for (u64 i = 0; i < n; i++) {
		u64 addr, start = 0, size = 0;

		memcpy(&addr, cmd->in + 8 * i, sizeof(addr));
		memset(k, 0, sizeof(*k));
		if (!t->ops->kernel_symbol(t->ctx, addr, &start, &size, k->name,
					   sizeof(k->name), k->module,
					   sizeof(k->module)))
			continue;
		k->name[sizeof(k->name) - 1] = 0;
		k->module[sizeof(k->module) - 1] = 0;
		if (k->name[0])
			ksym_line(out + i * ACA_KSYM_SLOT_SIZE, start, size,
				  k->name, k->module);
	}
	acp_free(t, k);
	return VT_SUCCESS;
}
