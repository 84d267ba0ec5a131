// SPDX-License-Identifier: GPL-2.0-only
/*
 * Module records (spec 7.3): where code is mapped, so the host can tell
 * which binary a sample's address belongs to. One ring per session, read
 * by the module data channel:
 *  - INIT_DRIVER: the kernel image ("vmlinux") and every loaded module;
 *  - from then until STOP: the executable mappings of a process when it
 *    exits or execs, and a mapping when munmap() removes it (dlclose()),
 *    each with unloadTsc = now;
 *  - STOP: every executable mapping of every live process, vDSO included,
 *    still loaded (unloadTsc ~0), and one record per kernel thread.
 * So a process started, or a library dlopen()ed, during a collection is
 * described at STOP if it is still there, or when it goes.
 *
 * Hooks: kprobes, which a module can use on both kernels (6.1 and 6.12
 * have CONFIG_KPROBES and put them on ftrace at function entry; handlers
 * run with preemption disabled, so they only trylock the mm and format
 * paths into a per-CPU buffer, d_path() does not sleep):
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
 *    argument is the caller's user pt_regs. The record is written before
 *    the unmap, so an munmap() that then fails leaves a spurious unload.
 * A probe that cannot be registered is logged; the collection goes on
 * without those records. Hooks are registered at INIT_DRIVER and removed
 * at STOP or at session end (unregister_kprobes() waits for running
 * handlers), whichever comes first, so rmmod finds none.
 *
 * Where the kernel is: _text is not exported, kallsyms is. The image is
 * the range of addresses sprint_symbol() attributes to vmlinux, found by
 * bisection around an exported function: [_stext, _end] with
 * CONFIG_KALLSYMS_ALL (Debian's), and _stext == _text on x86-64.
 *
 * Which modules are loaded: the module list and module_mutex are not
 * exported since 5.12. The list is RCU-protected (a module is unlinked
 * with list_del_rcu() and freed after synchronize_rcu()), so it is walked
 * under rcu_read_lock() from this module's own entry, which stays linked
 * while this code runs; the list head, the one entry that is no module,
 * lies outside the module area and is skipped. Core text: core_layout on
 * 6.1, mem[MOD_TEXT] from 6.4 on.
 *
 * Producers are the hooks, on any CPU, and INIT_DRIVER and STOP, in
 * process context under aca_lock. aca_ring_write() admits one
 * producer, so they are serialised by a spinlock; the ring's counters are
 * then only changed under it. The ring is 4 x ring_pages, at least 4 MiB:
 * STOP describes every process while holding aca_lock, so its
 * records must fit before the channel can read any. What does not fit is
 * dropped, counted by the ring and logged at STOP.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <asm/mmu_context.h>
#include <asm/ptrace.h>

#include "aca.h"

#define ACA_MR_MIN_PAGES	(SZ_4M >> PAGE_SHIFT)

/* One record being built: the fixed part, then its path. */
struct aca_mr_buf {
	struct sep_module_record rec;
	char path[PATH_MAX];
};

enum {
	ACA_HOOK_EXIT,
	ACA_HOOK_EXEC,
	ACA_HOOK_MUNMAP,
	ACA_HOOK_MUNMAP32,
	ACA_NHOOKS
};

struct aca_modrec;

struct aca_mr_hook {
	struct kprobe kp;
	struct aca_modrec *mr;
	bool on;
};

struct aca_modrec {
	struct aca_ring *ring;
	spinlock_t lock;			/* the ring's producers */
	struct aca_mr_buf __percpu *hook_buf;	/* hooks, preemption off */
	struct aca_mr_buf *buf;			/* under aca_lock */
	struct aca_mr_hook hooks[ACA_NHOOKS];
	atomic64_t missed;			/* mm busy, path too long */
};

/* The session's records, under aca_lock. */
static struct aca_modrec *aca_mr;
static unsigned long aca_kernel_start, aca_kernel_end;

/* Add the record in @b, its path NUL-terminated: ALIGN8(80 + path). */
static void aca_mr_put(struct aca_modrec *mr, struct aca_mr_buf *b)
{
	u32 plen = strnlen(b->path, sizeof(b->path) - 1) + 1;
	u32 len = sizeof(b->rec) + plen;

	b->path[plen - 1] = 0;
	b->rec.path_length = plen;
	b->rec.rec_length = ALIGN(len, SEP_MR_ALIGN);
	spin_lock(&mr->lock);
	aca_ring_write(mr->ring, b, len, b->rec.rec_length);
	spin_unlock(&mr->lock);
}

static u32 aca_mr_ppid(struct task_struct *p)
{
	u32 ppid;

	rcu_read_lock();
	ppid = task_tgid_nr(rcu_dereference(p->real_parent));
	rcu_read_unlock();
	return ppid;
}

/* The kernel image, a module or a kernel thread: kernel code. */
static void aca_mr_kernel_rec(struct aca_mr_buf *b, const char *name,
			      unsigned long addr, unsigned long size, u32 flags)
{
	memset(&b->rec, 0, sizeof(b->rec));
	b->rec.segment_bits = SEP_MODE_64BIT;
	b->rec.selector = SEP_MR_SELECTOR_KERNEL;
	b->rec.flags = flags | SEP_MR_PID_REC_INDEX_RAW | SEP_MR_TSC_USED;
	b->rec.length64 = size;
	b->rec.load_addr64 = addr;
	b->rec.unload_tsc = SEP_MR_UNLOAD_TSC_LOADED;
	strscpy(b->path, name, sizeof(b->path));
}

/* What every record of process @p's mappings shares. */
static void aca_mr_process(struct aca_mr_buf *b, struct task_struct *p,
			   struct mm_struct *mm, u64 unload)
{
	bool is64 = is_64bit_mm(mm);

	memset(&b->rec, 0, sizeof(b->rec));
	b->rec.segment_bits = is64 ? SEP_MODE_64BIT : SEP_MODE_32BIT;
	b->rec.selector = is64 ? SEP_MR_SELECTOR_USER64 : SEP_MR_SELECTOR_USER32;
	b->rec.segment_number = 1;
	b->rec.pid_rec_index = task_tgid_nr(p);
	b->rec.parent_pid = aca_mr_ppid(p);
	b->rec.unload_tsc = unload;
}

/* The main executable's inode: only compared, never dereferenced. */
static const struct inode *aca_mr_exe(struct mm_struct *mm)
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

/* Put @vma's name in @b->path: its file's full path, or "[vdso]". */
static bool aca_mr_vma_path(struct aca_modrec *mr, struct aca_mr_buf *b,
			    struct vm_area_struct *vma)
{
	char *path;

	if (!vma->vm_file) {
		if (vma->vm_start != (unsigned long)vma->vm_mm->context.vdso)
			return false;	/* anonymous code (a JIT): no name */
		strscpy(b->path, "[vdso]", sizeof(b->path));
		return true;
	}
	path = d_path(&vma->vm_file->f_path, b->path, sizeof(b->path));
	if (IS_ERR(path)) {
		atomic64_inc(&mr->missed);
		return false;
	}
	memmove(b->path, path, strlen(path) + 1);
	return true;
}

static void aca_mr_vma(struct aca_modrec *mr, struct aca_mr_buf *b,
		       struct vm_area_struct *vma, const struct inode *exe)
{
	u64 off = vma->vm_file ? (u64)vma->vm_pgoff << PAGE_SHIFT : 0;
	bool is_exe = vma->vm_file && exe && file_inode(vma->vm_file) == exe;

	if (!aca_mr_vma_path(mr, b, vma))
		return;
	b->rec.flags = SEP_MR_PID_REC_INDEX_RAW | SEP_MR_TSC_USED |
		       (is_exe ? SEP_MR_EXE : 0);
	b->rec.length64 = vma->vm_end - vma->vm_start;
	b->rec.load_addr64 = vma->vm_start;
	b->rec.page_offset_high = upper_32_bits(off);
	b->rec.page_offset_low = lower_32_bits(off);
	aca_mr_put(mr, b);
}

/* @p's executable mappings in [@start, @end); @mm's lock held. */
static void aca_mr_mm(struct aca_modrec *mr, struct aca_mr_buf *b,
		      struct task_struct *p, struct mm_struct *mm,
		      unsigned long start, unsigned long end, u64 unload)
{
	const struct inode *exe = aca_mr_exe(mm);
	struct vma_iterator vmi;
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	vma_iter_init(&vmi, mm, start);
	aca_mr_process(b, p, mm, unload);
	for_each_vma_range(vmi, vma, end)
		if (vma->vm_flags & VM_EXEC)
			aca_mr_vma(mr, b, vma, exe);
}

/* ---- hooks: preemption is off, nothing may sleep ---- */

/* current's executable mappings in [@start, @end) go away now. */
static void aca_mr_going(struct kprobe *kp, unsigned long start,
			 unsigned long end)
{
	struct aca_modrec *mr = container_of(kp, struct aca_mr_hook, kp)->mr;
	struct mm_struct *mm = current->mm;

	if (!mm || (current->flags & PF_KTHREAD))
		return;
	if (!mmap_read_trylock(mm)) {
		atomic64_inc(&mr->missed);
		return;
	}
	aca_mr_mm(mr, this_cpu_ptr(mr->hook_buf), current, mm, start, end,
		  aca_tsc_now());
	mmap_read_unlock(mm);
}

/* acct_collect(code, group_dead) / taskstats_exit(task, group_dead). */
static int aca_mr_on_exit(struct kprobe *kp, struct pt_regs *regs)
{
	if ((int)regs_get_kernel_argument(regs, 1))
		aca_mr_going(kp, 0, ULONG_MAX);
	return 0;
}

static int aca_mr_on_exec(struct kprobe *kp, struct pt_regs *regs)
{
	aca_mr_going(kp, 0, ULONG_MAX);
	return 0;
}

/* munmap(@addr, @len) is about to run: nonsense fails there, not here. */
static void aca_mr_unmap(struct kprobe *kp, unsigned long addr,
			 unsigned long len)
{
	if (!len || offset_in_page(addr) || len > TASK_SIZE_MAX ||
	    addr > TASK_SIZE_MAX - len)
		return;
	aca_mr_going(kp, addr, addr + len);
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

static void aca_mr_hook(struct aca_modrec *mr, int i)
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

/* After this no handler runs, nor will: unregister_kprobes() waits. */
static void aca_mr_unhook(struct aca_modrec *mr)
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

/* ---- INIT_DRIVER: the kernel and its modules ---- */

/* kallsyms places @addr in vmlinux: a symbol, and not a module's. */
static bool aca_in_vmlinux(char *sym, unsigned long addr)
{
	sprint_symbol(sym, addr);
	return strncmp(sym, "0x", 2) && !strchr(sym, '[');
}

/* Bisect [@out, @in) (or (@in, @out]) to the edge of vmlinux. */
static unsigned long aca_kernel_edge(char *sym, unsigned long out,
				     unsigned long in)
{
	while (out - in > 1 && in - out > 1) {
		unsigned long mid = out / 2 + in / 2 + (out & in & 1);

		if (aca_in_vmlinux(sym, mid))
			in = mid;
		else
			out = mid;
	}
	return in;
}

/* [_stext, _end] as kallsyms sees it, found once (see the top). */
static void aca_kernel_image(void)
{
	unsigned long anchor = (unsigned long)sprint_symbol;
	char *sym;

	if (aca_kernel_end)
		return;
	sym = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	if (!sym)
		return;
	if (aca_in_vmlinux(sym, anchor)) {
		aca_kernel_start = aca_kernel_edge(sym, __START_KERNEL_map,
						   anchor);
		aca_kernel_end = aca_kernel_edge(sym, MODULES_VADDR, anchor) + 1;
	} else {
		pr_notice("module records: kallsyms does not know vmlinux; its record is empty\n");
	}
	kfree(sym);
}

/* The one entry of the module list that is no module is in vmlinux. */
static bool aca_is_module(const struct module *mod)
{
	unsigned long a = (unsigned long)mod;

	return a >= MODULES_VADDR && a < MODULES_END;
}

static void aca_mr_module(struct aca_modrec *mr, const struct module *mod)
{
#ifdef for_each_mod_mem_type	/* 6.4+: one memory region per kind */
	unsigned long base = (unsigned long)mod->mem[MOD_TEXT].base;
	unsigned long size = mod->mem[MOD_TEXT].size;
#else
	unsigned long base = (unsigned long)mod->core_layout.base;
	unsigned long size = mod->core_layout.text_size;
#endif

	aca_mr_kernel_rec(mr->buf, mod->name, base, size,
			  SEP_MR_GLOBAL_MODULE | SEP_MR_GLOBAL_MODULE_TB5);
	aca_mr_put(mr, mr->buf);
}

static void aca_mr_kernel(struct aca_modrec *mr)
{
	struct module *mod;

	aca_kernel_image();
	aca_mr_kernel_rec(mr->buf, "vmlinux", aca_kernel_start,
			  aca_kernel_end - aca_kernel_start,
			  SEP_MR_EXE | SEP_MR_GLOBAL_MODULE |
			  SEP_MR_GLOBAL_MODULE_TB5 |
			  SEP_MR_FIRST_MODULE_REC_IN_PROCESS);
	aca_mr_put(mr, mr->buf);

	aca_mr_module(mr, THIS_MODULE);
	rcu_read_lock();
	list_for_each_entry_rcu(mod, &THIS_MODULE->list, list)
		if (aca_is_module(mod) &&
		    READ_ONCE(mod->state) != MODULE_STATE_UNFORMED)
			aca_mr_module(mr, mod);
	rcu_read_unlock();
}

/* ---- STOP: every process ---- */

/* A kernel thread: one record named after it, address 0, length 0. */
static void aca_mr_kthread(struct aca_modrec *mr, struct task_struct *p,
			   u64 now)
{
	struct aca_mr_buf *b = mr->buf;
	char comm[TASK_COMM_LEN];

	get_task_comm(comm, p);
	aca_mr_kernel_rec(b, comm, 0, 0,
			  SEP_MR_EXE | SEP_MR_FIRST_MODULE_REC_IN_PROCESS);
	b->rec.segment_number = 1;
	b->rec.pid_rec_index = task_tgid_nr(p);
	b->rec.parent_pid = aca_mr_ppid(p);
	b->rec.unload_tsc = now;	/* as the reference does */
	aca_mr_put(mr, b);
}

static void aca_mr_task(struct aca_modrec *mr, struct task_struct *p, u64 now)
{
	struct mm_struct *mm;

	if (p->flags & PF_KTHREAD) {
		aca_mr_kthread(mr, p, now);
		return;
	}
	mm = get_task_mm(p);
	if (!mm)
		return;		/* exiting: its exit hook described it */
	if (!mmap_read_lock_killable(mm)) {
		aca_mr_mm(mr, mr->buf, p, mm, 0, ULONG_MAX,
			  SEP_MR_UNLOAD_TSC_LOADED);
		mmap_read_unlock(mm);
	} else {
		atomic64_inc(&mr->missed);
	}
	mmput(mm);
}

/*
 * A thread of process @p that still has the mm: the leader may have
 * exited (pthread_exit()) while the others run on.
 */
static struct task_struct *aca_mr_live_thread(struct task_struct *p)
{
	struct task_struct *t;

	for_each_thread(p, t)
		if (READ_ONCE(t->mm))
			return t;
	return p;
}

/*
 * The processes alive now, each by a thread holding a reference taken
 * under RCU, so that they can be described with sleeping locks afterwards.
 */
static struct task_struct **aca_mr_tasks(struct aca_modrec *mr, u32 *n)
{
	struct task_struct *p, **tasks;
	u32 max = 64, i = 0;	/* room for those forked meanwhile */

	rcu_read_lock();
	for_each_process(p)
		max++;
	rcu_read_unlock();
	tasks = kvmalloc_array(max, sizeof(*tasks), GFP_KERNEL | __GFP_NOWARN);
	if (!tasks)
		return NULL;
	rcu_read_lock();
	for_each_process(p) {
		if (i == max) {
			atomic64_inc(&mr->missed);
			continue;
		}
		tasks[i] = aca_mr_live_thread(p);
		get_task_struct(tasks[i++]);
	}
	rcu_read_unlock();
	*n = i;
	return tasks;
}

static void aca_mr_walk(struct aca_modrec *mr)
{
	u64 now = aca_tsc_now();
	struct task_struct **tasks;
	u32 n = 0;

	tasks = aca_mr_tasks(mr, &n);
	if (!tasks) {
		pr_notice("module records: no memory to list the processes at STOP\n");
		return;
	}
	for (u32 i = 0; i < n; i++) {
		aca_mr_task(mr, tasks[i], now);
		put_task_struct(tasks[i]);
		cond_resched();
	}
	kvfree(tasks);
}

static void aca_mr_report(struct aca_modrec *mr)
{
	u64 written, lost, missed = atomic64_read(&mr->missed);

	aca_ring_counts(mr->ring, &written, &lost);
	if (lost || missed)
		pr_notice("module records: %llu sent, %llu dropped (ring full: raise ring_pages), %llu missed (mm busy or path too long)\n",
			  written, lost, missed);
}

static void aca_mr_free(struct aca_modrec *mr)
{
	if (mr->ring) {
		aca_ring_detach(mr->ring);
		aca_ring_put(mr->ring);
	}
	free_percpu(mr->hook_buf);
	kfree(mr->buf);
	kfree(mr);
}

/* ---- the session's calls (collection.c), under aca_lock ---- */

int aca_modrec_configure(void)
{
	unsigned int pages = max_t(unsigned int, 4 * READ_ONCE(aca_ring_pages),
				   ACA_MR_MIN_PAGES);
	struct aca_modrec *mr;

	lockdep_assert_held(&aca_lock);
	aca_modrec_finish();
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return -ENOMEM;
	spin_lock_init(&mr->lock);
	atomic64_set(&mr->missed, 0);
	mr->ring = aca_ring_alloc(pages, NUMA_NO_NODE);
	mr->buf = kmalloc(sizeof(*mr->buf), GFP_KERNEL);
	/* Failing is reported below; no stack dump for it. */
	mr->hook_buf = alloc_percpu_gfp(struct aca_mr_buf,
					GFP_KERNEL | __GFP_NOWARN);
	if (!mr->ring || !mr->buf || !mr->hook_buf) {
		pr_notice_ratelimited("cannot allocate the %u-page module record ring\n",
				      pages);
		aca_mr_free(mr);
		return -ENOMEM;
	}
	aca_mr = mr;
	aca_mr_kernel(mr);
	for (int i = 0; i < ACA_NHOOKS; i++)
		aca_mr_hook(mr, i);
	return 0;
}

/*
 * STOP, after the counters stopped: describe every live process while the
 * hooks still catch those that go meanwhile, then remove the hooks.
 */
void aca_modrec_stop(void)
{
	struct aca_modrec *mr = aca_mr;

	lockdep_assert_held(&aca_lock);
	if (!mr)
		return;
	aca_mr_walk(mr);
	aca_mr_unhook(mr);
	aca_mr_report(mr);
}

void aca_modrec_finish(void)
{
	struct aca_modrec *mr = aca_mr;

	lockdep_assert_held(&aca_lock);
	if (!mr)
		return;
	aca_mr_unhook(mr);
	aca_mr = NULL;
	aca_mr_free(mr);
}

struct aca_ring *aca_modrec_ring(void)
{
	lockdep_assert_held(&aca_lock);
	return aca_mr ? aca_mr->ring : NULL;
}

