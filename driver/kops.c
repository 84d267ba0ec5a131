// SPDX-License-Identifier: GPL-2.0-only
/* The protocol core's view of the machine, answered by the running kernel. */
#include <linux/cpumask.h>
#include <linux/utsname.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#include "aca.h"

/* The host's identity is the init namespace's, not the relay's container. */
static const char *aca_sysname(void *ctx)
{
	return init_utsname()->sysname;
}

static const char *aca_release(void *ctx)
{
	return init_utsname()->release;
}

static const char *aca_version(void *ctx)
{
	return init_utsname()->version;
}

static u32 aca_num_cpus(void *ctx)
{
	unsigned int last = cpumask_last(cpu_present_mask);

	if (last >= nr_cpu_ids)
		return num_present_cpus();
	return max(last + 1, num_present_cpus());
}

static void aca_cpuid(void *ctx, u32 leaf, u32 subleaf, u32 regs[4])
{
	cpuid_count(leaf, subleaf, &regs[0], &regs[1], &regs[2], &regs[3]);
}

static u64 aca_tsc_hz(void *ctx)
{
	return (u64)tsc_khz * 1000;
}

const struct acp_ops aca_kernel_ops = {
	.sysname = aca_sysname,
	.release = aca_release,
	.version = aca_version,
	.num_cpus = aca_num_cpus,
	.cpuid = aca_cpuid,
	.tsc_hz = aca_tsc_hz,
};
