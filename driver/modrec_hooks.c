// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hooks that module records (modrec.c) learn of process exits, execs
 * and munmap() from, their item pool, and what the hooks and modrec.c's
 * worker say of a process.
 *
 * Hooks: kprobes, which a module can use on both kernels (6.1 and 6.12
 * have CONFIG_KPROBES and put them on ftrace at function entry):
 *  - acct_collect(code, group_dead), or taskstats_exit(task, group_dead)
 *    where BSD process accounting is not built in. do_exit() calls both
 *    before exit_mm() on 6.1 and on 6.12, so current->mm is still whole,
 *    and group_dead is true for exactly one thread, the last of its
 *    process. (The sched_process_exit tracepoint comes after exit_mm() on
 *    both kernels, too late; exit_mmap() runs from whoever drops the last
 *    mm reference, not always the process.)
 *  - begin_new_exec(): exec drops the old mm; at entry it is still there.
 *  - __x64_sys_munmap and __ia32_sys_munmap: the syscall wrappers exist
 *    under these names on both kernels, while the mm functions behind
 *    them do not (6.1 do_mas_munmap(), 6.12 do_vmi_munmap()). Their one
 *    argument is the caller's user pt_regs. What goes is taken before the
 *    unmap, so an munmap() that then fails leaves a spurious unload.
 * A handler runs with preemption off, and any local user decides how
 * often and on how many mappings, so it takes only what it must, in
 * bounded time, and leaves the rest to a worker: an item from a pool
 * preallocated per session (ACA_MR_ITEMS; a raw spinlock guards its lists
 * for O(1) moves; nothing is allocated and no sleeping lock is taken),
 * filled with the TSC, tgid, ppid and word size, and queued in order:
 *  - exit (group_dead) and exec: a reference on the mm (mmget_not_zero()),
 *    which keeps every mapping in it until the worker is done;
 *  - munmap(): the mappings are gone once the syscall runs, so under
 *    mmap_read_trylock() the handler visits at most ACA_MR_UNMAP_VMAS
 *    mappings of the range and takes at most ACA_MR_UNMAP_CODE code ones
 *    (a file reference, the unmapped part's addresses and file offset,
 *    whether it is the main executable, or the vDSO); no path.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <asm/mmu_context.h>
#include <asm/ptrace.h>

#include "modrec.h"
#include "modrec_hooks.h"
#include "tsc.h"

/* ---- what a hook and the worker say of a process ---- */

u32 aca_mr_ppid(struct task_struct *p)
{
	u32 ppid;

	rcu_read_lock();
	ppid = task_tgid_nr(rcu_dereference(p->real_parent));
	rcu_read_unlock();
	return ppid;
}

void aca_mr_who(struct aca_mr_who *w, struct task_struct *p,
		struct mm_struct *mm, u64 unload)
{
	w->unload = unload;
	w->tgid = task_tgid_nr(p);
	w->ppid = aca_mr_ppid(p);
	w->is64 = is_64bit_mm(mm);
}

/* The main executable's inode: only compared, never dereferenced. */
const struct inode *aca_mr_exe(struct mm_struct *mm)
{
	const struct inode *inode = NULL;
	struct file *f;

	rcu_read_lock();
	f = rcu_dereference(mm->exe_file);
	if (f)
		inode = file_inode(f);
	rcu_read_unlock();
	return inode;
}

bool aca_mr_is_vdso(struct vm_area_struct *vma)
{
	return !vma->vm_file &&
	       vma->vm_start == (unsigned long)vma->vm_mm->context.vdso;
}

/* ---- the item pool: O(1) list moves under a raw spinlock ---- */

struct aca_mr_item *aca_mr_pop(struct aca_modrec *mr,
			       struct list_head *list)
{
	struct aca_mr_item *it;
	unsigned long flags;

	raw_spin_lock_irqsave(&mr->lock, flags);
	it = list_first_entry_or_null(list, struct aca_mr_item, node);
	if (it)
		list_del(&it->node);
	raw_spin_unlock_irqrestore(&mr->lock, flags);
	return it;
}

void aca_mr_push(struct aca_modrec *mr, struct aca_mr_item *it,
		 struct list_head *list)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&mr->lock, flags);
	list_add_tail(&it->node, list);
	raw_spin_unlock_irqrestore(&mr->lock, flags);
}

/*
 * Drop the references @it holds: an mm's teardown, if this was its last
 * reference, left to a kworker (neither the worker nor aca_lock's holder
 * waits for it).
 */
void aca_mr_unref(struct aca_mr_item *it)
{
	if (it->mm) {
		mmput_async(it->mm);
		it->mm = NULL;
	}
	for (u32 i = 0; i < it->nmaps; i++)
		if (it->maps[i].file)
			fput(it->maps[i].file);
	it->nmaps = 0;
}

/* ---- hooks: preemption is off; take, queue, nothing more ---- */

static struct aca_modrec *aca_mr_of(struct kprobe *kp)
{
	return container_of(kp, struct aca_mr_hook, kp)->mr;
}

/* A free item, about @mm of current, or NULL: missed. */
static struct aca_mr_item *aca_mr_take(struct aca_modrec *mr,
				       struct mm_struct *mm)
{
	struct aca_mr_item *it = aca_mr_pop(mr, &mr->free);

	if (!it) {
		atomic64_inc(&mr->missed);
		return NULL;
	}
	aca_mr_who(&it->who, current, mm, aca_tsc_now());
	it->mm = NULL;
	it->nmaps = 0;
	return it;
}

static void aca_mr_queue(struct aca_modrec *mr, struct aca_mr_item *it)
{
	aca_mr_push(mr, it, &mr->queued);
	queue_work(system_unbound_wq, &mr->work);
}

/* A user process, not a kernel thread borrowing an mm. */
static struct mm_struct *aca_mr_user_mm(void)
{
	return current->flags & PF_KTHREAD ? NULL : current->mm;
}

/* current's whole mm goes away now: keep it for the worker. */
static void aca_mr_mm_going(struct kprobe *kp)
{
	struct aca_modrec *mr = aca_mr_of(kp);
	struct mm_struct *mm = aca_mr_user_mm();
	struct aca_mr_item *it;

	if (!mm)
		return;
	it = aca_mr_take(mr, mm);
	if (!it)
		return;
	if (!mmget_not_zero(mm)) {
		aca_mr_push(mr, it, &mr->free);
		return;
	}
	it->mm = mm;
	aca_mr_queue(mr, it);
}

/* acct_collect(code, group_dead) / taskstats_exit(task, group_dead). */
static int aca_mr_on_exit(struct kprobe *kp, struct pt_regs *regs)
{
	if ((int)regs_get_kernel_argument(regs, 1))
		aca_mr_mm_going(kp);
	return 0;
}

static int aca_mr_on_exec(struct kprobe *kp, struct pt_regs *regs)
{
	aca_mr_mm_going(kp);
	return 0;
}

/*
 * Take code @vma's part in [@start, @end) into @it, taking an item first
 * if @it is NULL. False: no more can be taken (missed).
 */
static bool aca_mr_take_map(struct aca_modrec *mr, struct aca_mr_item **it,
			    struct vm_area_struct *vma, const struct inode *exe,
			    unsigned long start, unsigned long end)
{
	struct aca_mr_map *map;

	if (!*it)
		*it = aca_mr_take(mr, vma->vm_mm);
	if (!*it)
		return false;
	if ((*it)->nmaps == ACA_MR_UNMAP_CODE) {
		atomic64_inc(&mr->missed);
		return false;
	}
	map = &(*it)->maps[(*it)->nmaps++];
	map->start = max(start, vma->vm_start);
	map->end = min(end, vma->vm_end);
	map->file = vma->vm_file ? get_file(vma->vm_file) : NULL;
	map->off = map->file ? ((u64)vma->vm_pgoff << PAGE_SHIFT) +
			       (map->start - vma->vm_start) : 0;
	map->exe = map->file && file_inode(map->file) == exe;
	return true;
}

/* munmap(@addr, @len) is about to run: nonsense fails there, not here. */
static void aca_mr_unmap(struct kprobe *kp, unsigned long addr,
			 unsigned long len)
{
	struct aca_modrec *mr = aca_mr_of(kp);
	struct mm_struct *mm = aca_mr_user_mm();
	struct aca_mr_item *it = NULL;
	const struct inode *exe;
	struct vm_area_struct *vma;
	struct vma_iterator vmi;
	unsigned long end;
	u32 seen = 0;

	if (!mm || !len || offset_in_page(addr) || len > TASK_SIZE_MAX)
		return;
	len = PAGE_ALIGN(len);	/* as munmap() rounds it */
	if (addr > TASK_SIZE_MAX - len)
		return;
	end = addr + len;
	if (!mmap_read_trylock(mm)) {
		atomic64_inc(&mr->missed);
		return;
	}
	exe = aca_mr_exe(mm);
	vma_iter_init(&vmi, mm, addr);
	for_each_vma_range(vmi, vma, end) {
		if (++seen > ACA_MR_UNMAP_VMAS) {
			atomic64_inc(&mr->missed);
			break;
		}
		if (!(vma->vm_flags & VM_EXEC) ||
		    (!vma->vm_file && !aca_mr_is_vdso(vma)))
			continue;
		if (!aca_mr_take_map(mr, &it, vma, exe, addr, end))
			break;
	}
	mmap_read_unlock(mm);
	if (it)
		aca_mr_queue(mr, it);
}

static const struct pt_regs *aca_mr_user_regs(struct pt_regs *regs)
{
	return (const struct pt_regs *)regs_get_kernel_argument(regs, 0);
}

static int aca_mr_on_munmap(struct kprobe *kp, struct pt_regs *regs)
{
	const struct pt_regs *u = aca_mr_user_regs(regs);

	aca_mr_unmap(kp, u->di, u->si);
	return 0;
}

static int aca_mr_on_munmap32(struct kprobe *kp, struct pt_regs *regs)
{
	const struct pt_regs *u = aca_mr_user_regs(regs);

	aca_mr_unmap(kp, (u32)u->bx, (u32)u->cx);
	return 0;
}

static const struct {
	const char *sym[2];	/* the function, or one called instead */
	kprobe_pre_handler_t pre;
} aca_mr_hook_defs[ACA_NHOOKS] = {
	[ACA_HOOK_EXIT] = { { "acct_collect", "taskstats_exit" }, aca_mr_on_exit },
	[ACA_HOOK_EXEC] = { { "begin_new_exec" }, aca_mr_on_exec },
	[ACA_HOOK_MUNMAP] = { { "__x64_sys_munmap" }, aca_mr_on_munmap },
	[ACA_HOOK_MUNMAP32] = { { "__ia32_sys_munmap" }, aca_mr_on_munmap32 },
};

void aca_mr_hook(struct aca_modrec *mr, int i)
{
	struct aca_mr_hook *h = &mr->hooks[i];
	int ret = -ENOENT;

	h->mr = mr;	/* the handler may run as soon as it is registered */
	for (int k = 0; k < 2 && aca_mr_hook_defs[i].sym[k] && ret; k++) {
		memset(&h->kp, 0, sizeof(h->kp));
		h->kp.symbol_name = aca_mr_hook_defs[i].sym[k];
		h->kp.pre_handler = aca_mr_hook_defs[i].pre;
		ret = register_kprobe(&h->kp);
	}
	h->on = !ret;
	if (ret)
		pr_notice_ratelimited("module records: cannot probe %s (%d): those records are missing\n",
				      aca_mr_hook_defs[i].sym[0], ret);
}

/*
 * After this no handler runs, nor will: unregister_kprobes() waits, so
 * whatever they took is queued. The worker at STOP, or finish() with the
 * worker idle.
 */
void aca_mr_unhook(struct aca_modrec *mr)
{
	struct kprobe *kps[ACA_NHOOKS];
	int n = 0;

	for (int i = 0; i < ACA_NHOOKS; i++)
		if (mr->hooks[i].on)
			kps[n++] = &mr->hooks[i].kp;
	if (!n)
		return;
	unregister_kprobes(kps, n);
	for (int i = 0; i < ACA_NHOOKS; i++) {
		if (mr->hooks[i].on)
			atomic64_add(mr->hooks[i].kp.nmissed, &mr->missed);
		mr->hooks[i].on = false;
	}
}
