/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Call chains of a sample (struct aca_callstack_head, sep_cmd.h), taken in
 * the overflow handler's context: NMI for PMU events, hard IRQ for
 * cpu-clock. No lock, no allocation, no print.
 */
#ifndef ACA_STACK_H
#define ACA_STACK_H

#include <linux/types.h>

struct pt_regs;

/* Where a chain goes: @max addresses at @ips; @n stored so far. */
struct aca_chain {
	u64 *ips;
	u32 max;
	u32 n;
	bool truncated;		/* an address found no room */
};

/*
 * The kernel callers of the kernel-mode context @regs; @from_sp: only its
 * stack pointer is the interrupted context's (a precise event's). Returns
 * how many.
 */
u32 aca_stack_kernel(struct aca_chain *c, struct pt_regs *regs, bool from_sp);

/*
 * The user callers of current: from @regs if they are user mode, else
 * from the user registers current entered the kernel with, whose IP comes
 * first. Returns how many.
 */
u32 aca_stack_user(struct aca_chain *c, struct pt_regs *regs);

#endif /* ACA_STACK_H */
