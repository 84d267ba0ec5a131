/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine's description (machine.c): what aca found of it at load,
 * and its facts as the protocol core asks for them, for its ops table
 * (ops.c); struct acp_ops says what each answers.
 */
#ifndef ACA_MACHINE_H
#define ACA_MACHINE_H

#include <linux/stdarg.h>
#include <linux/types.h>

/* At load, before any collection: what the machine has. */
void aca_machine_init(void);
/*
 * A hardware PMU counter could be made at load: without one, collections
 * sample with cpu-clock (where sw_clock allows it).
 */
bool aca_machine_has_pmu(void);

const char *aca_machine_sysname(void *ctx);
const char *aca_machine_release(void *ctx);
const char *aca_machine_version(void *ctx);
u32 aca_machine_num_cpus(void *ctx);
bool aca_machine_cpuid(void *ctx, int cpu, u32 leaf, u32 subleaf, u32 regs[4]);
u64 aca_machine_tsc_hz(void *ctx);
u64 aca_machine_tsc_now(void *ctx);
bool aca_machine_rdmsr(void *ctx, int cpu, u32 msr, u64 *val);
bool aca_machine_pti(void *ctx);
bool aca_machine_sw_clock(void *ctx);
u64 aca_machine_total_ram(void *ctx);
u32 aca_machine_page_size(void *ctx);
void *aca_machine_alloc(void *ctx, size_t size);
void aca_machine_free(void *ctx, void *ptr);
bool aca_machine_kernel_symbol(void *ctx, u64 addr, u64 *start, u64 *size,
			       char *name, size_t name_len, char *module,
			       size_t module_len);
void aca_machine_wake(void *ctx, void *conn_ctx);
void aca_machine_log(void *ctx, const char *fmt, va_list args);
u32 aca_machine_session_idle_s(void *ctx);

#endif /* ACA_MACHINE_H */
