// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine's description: what aca found of it at load (struct
 * aca_machine), and its facts as the protocol core asks for them (struct
 * acp_ops, whose table is ops.c's), answered by the running kernel; a
 * collection's operations are collection.c's and the sampling's
 * (sampler.c, multiplex.c, emon.c).
 */
#include <linux/cpumask.h>
#include <linux/kallsyms.h>
#include <linux/kstrtox.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/wait.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#include "events.h"
#include "machine.h"
#include "params.h"
#include "target.h"
#include "tsc.h"

/*
 * What aca found of the machine at load (aca_machine_init()), read only
 * after it: set before /dev/aca exists, so before any reader.
 */
struct aca_machine {
	bool pmu;		/* a hardware PMU counter could be made */
};

static struct aca_machine aca_machine;

/*
 * The PMU probe (events.c): whether sampling will need the cpu-clock
 * fallback is known, and said, before any host asks.
 */
void aca_machine_init(void)
{
	int ret = aca_probe_pmu();

	aca_machine.pmu = !ret;
	if (ret)
		pr_info("no hardware PMU counter (%d): collections will sample with cpu-clock%s\n",
			ret, aca_sw_clock ? "" : ", which sw_clock=N forbids");
}

bool aca_machine_has_pmu(void)
{
	return aca_machine.pmu;
}

/* The host's identity is the init namespace's, not the relay's container. */
const char *aca_machine_sysname(void *ctx)
{
	return init_utsname()->sysname;
}

const char *aca_machine_release(void *ctx)
{
	return init_utsname()->release;
}

const char *aca_machine_version(void *ctx)
{
	return init_utsname()->version;
}

u32 aca_machine_num_cpus(void *ctx)
{
	unsigned int last = cpumask_last(cpu_present_mask);

	if (last >= nr_cpu_ids)
		return num_present_cpus();
	return max(last + 1, num_present_cpus());
}

struct cpuid_call {
	u32 leaf, subleaf;
	u32 *regs;
};

static void cpuid_here(void *arg)
{
	struct cpuid_call *c = arg;

	cpuid_count(c->leaf, c->subleaf, &c->regs[0], &c->regs[1], &c->regs[2],
		    &c->regs[3]);
}

bool aca_machine_cpuid(void *ctx, int cpu, u32 leaf, u32 subleaf, u32 regs[4])
{
	struct cpuid_call c = { leaf, subleaf, regs };

	if (cpu < 0) {
		cpuid_here(&c);
		return true;
	}
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return false;
	return !smp_call_function_single(cpu, cpuid_here, &c, 1);
}

u64 aca_machine_tsc_hz(void *ctx)
{
	return aca_tsc_hz();
}

u64 aca_machine_tsc_now(void *ctx)
{
	return aca_tsc_now();
}

bool aca_machine_rdmsr(void *ctx, int cpu, u32 msr, u64 *val)
{
	if (cpu < 0)
		return !rdmsrl_safe(msr, val);
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return false;
	return !rdmsrl_safe_on_cpu(cpu, msr, val);
}

bool aca_machine_pti(void *ctx)
{
	return boot_cpu_has(X86_FEATURE_PTI);
}

/* Sampling will fall back to cpu-clock (as far as the load-time probe knows). */
bool aca_machine_sw_clock(void *ctx)
{
	return !aca_machine_has_pmu();
}

u64 aca_machine_total_ram(void *ctx)
{
	return (u64)totalram_pages() << PAGE_SHIFT;
}

u32 aca_machine_page_size(void *ctx)
{
	return PAGE_SIZE;
}

/* Sizes come from the network: failing is fine, warning about it is not. */
void *aca_machine_alloc(void *ctx, size_t size)
{
	return kvzalloc(size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
}

void aca_machine_free(void *ctx, void *ptr)
{
	kvfree(ptr);
}

/*
 * KERNEL_SYMBOLS (spec 4.6): sprint_symbol()'s "name+0xoff/0xsize [module]"
 * taken apart. Its buffer is one for every call, neither a kmalloc() per
 * address nor KSYM_SYMBOL_LEN bytes of stack: the core calls every op
 * under aca_lock.
 */
static char aca_ksym_buf[KSYM_SYMBOL_LEN];

bool aca_machine_kernel_symbol(void *ctx, u64 addr, u64 *start, u64 *size,
			       char *name, size_t name_len, char *module,
			       size_t module_len)
{
	char *buf = aca_ksym_buf, *mod, *slash, *plus;
	unsigned long long off, len;

	lockdep_assert_held(&aca_lock);
	/* No symbol: "0x<addr>", without the '/' below. */
	sprint_symbol(buf, (unsigned long)addr);
	mod = strstr(buf, " [");
	if (mod) {
		*mod = '\0';
		mod += 2;
		mod[strcspn(mod, " ]")] = '\0';
	}
	slash = strrchr(buf, '/');
	if (!slash)
		return false;
	*slash = '\0';
	plus = strrchr(buf, '+');
	if (!plus || plus == buf)
		return false;
	*plus = '\0';
	if (kstrtoull(plus + 1, 16, &off) || kstrtoull(slash + 1, 16, &len) ||
	    off > addr)
		return false;
	*start = addr - off;
	*size = len;
	strscpy(name, buf, name_len);
	strscpy(module, mod ? mod : "", module_len);
	return true;
}

u32 aca_machine_session_idle_s(void *ctx)
{
	return READ_ONCE(aca_session_idle_s);
}

/* A connection's ctx is the wait queue of its file's readers and writers. */
void aca_machine_wake(void *ctx, void *conn_ctx)
{
	wake_up_interruptible(conn_ctx);
}

void aca_machine_log(void *ctx, const char *fmt, va_list args)
{
	struct va_format vaf;
	va_list copy;

	va_copy(copy, args);
	vaf.fmt = fmt;
	vaf.va = &copy;
	pr_notice_ratelimited("%pV\n", &vaf);
	va_end(copy);
}
