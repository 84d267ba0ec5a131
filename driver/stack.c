// SPDX-License-Identifier: GPL-2.0-only
/*
 * Call chains for the overflow handler (overflow.c), the way perf's x86
 * callchains are taken: kernel ones with the kernel's own unwinder (ORC on
 * Debian's kernels) started from the interrupted registers, user ones by
 * following frame pointers from the user registers, read with
 * copy_from_user_nmi(), which neither sleeps nor faults pages in. Compat
 * (32-bit) user code is not walked: its IP is recorded alone.
 */
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/processor-flags.h>
#include <asm/ptrace.h>
#include <asm/unwind.h>

#include "stack.h"

/*
 * Tasks whose user registers are their own: not kernel threads, and not
 * the kernel's workers cloned from a user thread (io_uring's, vhost's),
 * whose saved user registers are their parent's from the clone. Before
 * 6.4 io_uring's were the only such workers.
 */
#ifdef PF_USER_WORKER
#define ACA_NOT_USER	(PF_KTHREAD | PF_USER_WORKER)
#else
#define ACA_NOT_USER	(PF_KTHREAD | PF_IO_WORKER)
#endif

static bool aca_chain_store(struct aca_chain *c, u64 ip)
{
	if (c->n >= c->max) {
		c->truncated = true;
		return false;
	}
	c->ips[c->n++] = ip;
	return true;
}

u32 aca_stack_kernel(struct aca_chain *c, struct pt_regs *regs, bool from_sp)
{
	struct unwind_state state;
	u32 first = c->n;
	unsigned long addr;

	if (user_mode(regs))
		return 0;
	/*
	 * Registers the CPU saved (bit 1 of flags always set) start the
	 * unwinder at their frame, which it steps over to the first caller.
	 * Others only give a stack pointer, and so do a precise event's,
	 * whose IP x86 takes from the PEBS record while sp and bp stay the
	 * interrupt's (the two may be of different functions), or come from
	 * the record too where aca fills PEBS areas (PERF_SAMPLE_REGS_INTR;
	 * one record a PMI, so of the sampled context).
	 */
	if (!from_sp && (regs->flags & X86_EFLAGS_FIXED))
		unwind_start(&state, current, regs, NULL);
	else
		unwind_start(&state, current, NULL, (unsigned long *)regs->sp);
	for (; !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || !aca_chain_store(c, addr))
			break;
	}
	return c->n - first;
}

/* A frame as -fno-omit-frame-pointer lays it out: saved bp, return address. */
struct aca_user_frame {
	unsigned long next;
	unsigned long ret;
};

u32 aca_stack_user(struct aca_chain *c, struct pt_regs *regs)
{
	struct aca_user_frame frame;
	unsigned long fp;
	u32 first = c->n;

	if (!current->mm || (current->flags & ACA_NOT_USER))
		return 0;
	if (!user_mode(regs)) {
		regs = task_pt_regs(current);
		if (!aca_chain_store(c, regs->ip))
			return c->n - first;
	}
	if (!user_64bit_mode(regs))
		return c->n - first;
	/*
	 * Each frame lies above the one it called: a chain that does not
	 * climb is garbage (or a loop), and ends the walk like a fault does.
	 * So does a return address outside user space: code built without
	 * frame pointers leaves bp pointing at data, whatever it holds.
	 */
	for (fp = regs->bp; fp && !(fp & 7); fp = frame.next) {
		if (copy_from_user_nmi(&frame, (const void __user *)fp, sizeof(frame)))
			break;
		if (!frame.ret || frame.ret >= TASK_SIZE_MAX ||
		    !aca_chain_store(c, frame.ret))
			break;
		if (frame.next <= fp)
			break;
	}
	return c->n - first;
}
