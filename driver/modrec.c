// SPDX-License-Identifier: GPL-2.0-only
/*
 * Module records (spec 7.3): where code is mapped, so the host can tell
 * which binary a sample's address belongs to. One ring per session, read
 * by the module data channel:
 *  - INIT_DRIVER: the kernel image ("vmlinux") and every loaded module;
 *  - from then until STOP: the executable mappings of a process when it
 *    exits or execs, and a mapping when munmap() removes it (dlclose()),
 *    each with unloadTsc = when it went;
 *  - STOP: every executable mapping of every live process, vDSO included,
 *    still loaded (unloadTsc ~0), and one record per kernel thread;
 *  - [ACA-EXT] MODULE_SNAPSHOT, while sampling or paused: the same walk as
 *    STOP's, the collection going on, so that a host names user code
 *    live (aca-host top). A walk at a time, each armed by a kick (a
 *    delayed work) queued at least ACA_MODULE_SNAPSHOT_GAP_MS after the
 *    last one: an ask while a kick waits is that kick's walk. A walk
 *    stops where STOP overtakes it (STOP's describes them all) or a
 *    quarter of the ring is unread (the rest is STOP's); its records are
 *    made due at once (the collection's flush timer run now). A mapping
 *    may so be described more than once.
 * So a process started, or a library dlopen()ed, during a collection is
 * described at STOP if it is still there, or when it goes, and at the
 * first snapshot after it.
 *
 * Hooks (modrec_hooks.c): kprobes on a process's exit and exec and on
 * munmap(), whose handlers, with preemption off, take only what they must
 * into an item from a pool preallocated per session and queue it for the
 * worker.
 * Counted as missed, once each, and logged at STOP: an exit, exec or
 * munmap() a handler could not take (no free item, the mm busy) or not
 * wholly (an munmap() of more mappings than the hooks' bounds), a handler
 * kprobes could not run (nmissed), a mapping whose path d_path() cannot
 * write, and a process STOP or a snapshot could not list or lock (a
 * snapshot's count too: the same process may so be counted twice).
 *
 * The worker, a work item on system_unbound_wq, never takes aca_lock. It
 * writes the queued items oldest first, a batch of those queued when it
 * looks at a time, so it keeps up or items run out, never both: an mm's
 * code mappings ACA_MR_BATCH at a time, each batch taken (a file reference
 * each) under its mmap lock for reading (tried for about half a second,
 * then counted missed: a writer that never lets go must not stall the
 * worker) and written after the lock is dropped, then mmput_async(); an
 * munmap()'s likewise, then fput(). Paths are as the worker sees them
 * (d_path()), from the root kernel threads share.
 *
 * [ACA-EXT] A user file mapping's record carries the file's GNU build-id
 * (struct aca_mr_build_id after the padded path) when one can be read
 * (buildid.c) from the file's pages already in the page cache: the worker
 * never reads a file, which could wait for ever (a file on a user's own
 * FUSE mount whose daemon does not answer). When a page it needs is not
 * in memory the record goes without one, exactly as for a file that has
 * none (the host then matches the binary by its path alone), and is
 * counted (no_build_id in /sys/module/aca/module_records, and a line at
 * STOP). It is looked up when the record is written, by the worker with
 * no lock held but its own. The build-ids found are remembered by inode
 * (with a reference on a file of it, which keeps the inode and its mount)
 * for one run of the worker (a STOP walk looks at libc once, not once per
 * process), and forgotten at the end of it. STOP asks it for the rest:
 * it describes every live process (one batch of the queue between two;
 * it gives up when finish() cancels), removes the hooks
 * (unregister_kprobes() waits for running handlers), writes what they
 * queued last and finalizes the ring, so the module channel ends only
 * after its last record. STOP only asks: it returns at once, and aca_lock
 * is never held across the walk. STOP's part is bounded: past
 * ACA_MR_STOP_S the worker describes no more, counts each process (and
 * each queued item) left as missed, and finalizes the ring, so STOP
 * answers even when many processes keep their mmap locks busy; and should
 * the worker be stuck in one step, a watchdog ACA_MR_GRACE_S later
 * finalizes the ring itself (records are written, and the ring finalized,
 * under a spinlock, so none comes after the end; the worker's later ones
 * are counted missed). The core holds STOP's answer until the module ring
 * is final as well as read to its end (data_final(), collection.c); the
 * finalize wakes the ring's reader, and the channel's file then tells the
 * core (device.c). A probe that cannot be registered is logged; the
 * collection goes on without those records. finish(), at session end,
 * cancels the watchdog and the worker (waiting, under aca_lock, only for
 * the step it is in: one mapping, one try of an mmap lock, or the
 * unhooking; the worker looks for the cancel between two of each; none
 * waits for I/O, and the worker leaves the teardown of an mm whose last
 * reference it drops to another kworker, mmput_async()), removes the
 * hooks if STOP did not, and drops the references of items never written,
 * so rmmod finds none.
 *
 * Producers of the ring: INIT_DRIVER, before any hook exists, then only
 * the worker (a work item never runs twice at once), so aca_ring_write()
 * has its one producer at a time; wlock only orders the records against
 * the ring's end, which the watchdog may bring. The ring is
 * 4 x ring_pages, at least 4 MiB, enough for a STOP's records even when
 * the channel reads none before STOP (delayed transfer). What does not fit
 * is dropped, counted by the ring and logged at STOP.
 *
 * Where the kernel is: _text is not exported, kallsyms is. The image is
 * the range of addresses sprint_symbol() attributes to vmlinux, found by
 * bisection around an exported function: [_stext, _end) with
 * CONFIG_KALLSYMS_ALL (Debian's), and _stext == _text on x86-64.
 *
 * Which modules are loaded: the module list and module_mutex are not
 * exported since 5.12. The list is RCU-protected (a module is unlinked
 * with list_del_rcu() and freed after synchronize_rcu()), so it is walked
 * under rcu_read_lock() from this module's own entry, which stays linked
 * while this code runs; the list head, the one entry that is no module,
 * lies outside the module area and is skipped. Core text: core_layout on
 * 6.1, mem[MOD_TEXT] from 6.4 on.
 */
#include <linux/dcache.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>
#include <asm/mmu_context.h>
#include <asm/ptrace.h>

#include "buildid.h"
#include "core/sep_cmd.h"
#include "modrec.h"
#include "modrec_hooks.h"
#include "params.h"
#include "ring.h"
#include "target.h"
#include "tsc.h"

static unsigned long aca_kernel_start, aca_kernel_end;

/*
 * Add the record in @b, its path NUL-terminated: ALIGN8(80 + path), then,
 * if @bid_size, the build-id @bid: ALIGN8(4 + bid_size) more.
 */
static void aca_mr_put(struct aca_modrec *mr, struct aca_mr_buf *b,
		       const u8 *bid, u32 bid_size)
{
	u32 plen = strnlen(b->path, PATH_MAX - 1) + 1;
	u32 len = sizeof(b->rec) + plen;
	u32 total = ALIGN(len, SEP_MR_ALIGN);
	struct aca_mr_build_id *t;

	b->path[plen - 1] = 0;
	b->rec.path_length = plen;
	if (bid_size && bid_size <= ACA_MR_BUILD_ID_MAX) {
		memset(b->path + plen, 0, total - len);
		t = (struct aca_mr_build_id *)(b->path + total - sizeof(b->rec));
		t->magic[0] = ACA_MR_BUILD_ID_MAGIC0;
		t->magic[1] = ACA_MR_BUILD_ID_MAGIC1;
		t->reserved = 0;
		t->size = bid_size;
		memcpy(t->id, bid, bid_size);
		len = total + sizeof(*t) + bid_size;
		total += ALIGN(sizeof(*t) + bid_size, SEP_MR_ALIGN);
	}
	b->rec.rec_length = total;
	/* Once the ring is final, nothing more: counted, not written. */
	spin_lock(&mr->wlock);
	if (mr->ended)
		atomic64_inc(&mr->missed);
	else
		aca_ring_write(mr->ring, b, len, total);
	spin_unlock(&mr->wlock);
}

/*
 * No record after this one: the ring finalized, once, by the worker or the
 * watchdog, whichever comes first. True for that first.
 */
static bool aca_mr_end(struct aca_modrec *mr)
{
	bool first;

	spin_lock(&mr->wlock);
	first = !mr->ended;
	mr->ended = true;
	spin_unlock(&mr->wlock);
	/* Every record written is before: each was under wlock. */
	if (first)
		aca_ring_finalize(mr->ring);
	return first;
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
	strscpy(b->path, name, PATH_MAX);
}

/*
 * @w's code @m: [start, end) mapped from its file at its offset, with the
 * file's build-id if it has one, or the vDSO (no file). d_path() may fail
 * (a path too long): missed. Process context, no lock held: the build-id
 * may have to be read from the file.
 */
static void aca_mr_code(struct aca_modrec *mr, const struct aca_mr_who *w,
			const struct aca_mr_map *m)
{
	struct aca_mr_buf *b = mr->buf;
	u8 bid[ACA_MR_BUILD_ID_MAX];
	unsigned long start = m->start, end = m->end;
	u64 off = m->off;
	bool exe = m->exe;
	int bid_size = 0;
	char *name;

	might_sleep();

	memset(&b->rec, 0, sizeof(b->rec));
	b->rec.segment_bits = w->is64 ? SEP_MODE_64BIT : SEP_MODE_32BIT;
	b->rec.selector = w->is64 ? SEP_MR_SELECTOR_USER64 :
				    SEP_MR_SELECTOR_USER32;
	b->rec.segment_number = 1;
	b->rec.pid_rec_index = w->tgid;
	b->rec.parent_pid = w->ppid;
	b->rec.unload_tsc = w->unload;
	b->rec.flags = SEP_MR_PID_REC_INDEX_RAW | SEP_MR_TSC_USED |
		       (exe ? SEP_MR_EXE : 0);
	b->rec.length64 = end - start;
	b->rec.load_addr64 = start;
	b->rec.page_offset_high = upper_32_bits(off);
	b->rec.page_offset_low = lower_32_bits(off);
	if (m->file) {
		name = d_path(&m->file->f_path, b->path, PATH_MAX);
		if (IS_ERR(name)) {
			atomic64_inc(&mr->missed);
			return;
		}
		memmove(b->path, name, strlen(name) + 1);
		bid_size = aca_buildid_get(&mr->bids, m->file, bid);
		/* Its pages not in memory: a record without one (buildid.c). */
		if (bid_size == -ENODATA)
			atomic64_inc(&mr->nobid);
		bid_size = max(bid_size, 0);
	} else {
		strscpy(b->path, "[vdso]", PATH_MAX);
	}
	aca_mr_put(mr, b, bid, bid_size);
}

/*
 * The worker stops: the session ends (finish() cancels), or STOP's records
 * took longer than ACA_MR_STOP_S, when what is left is counted missed: so
 * STOP answers within that bound, whatever the processes do to their mmap
 * locks, however many there are.
 */
static bool aca_mr_over(struct aca_modrec *mr)
{
	if (READ_ONCE(mr->cancel))
		return true;
	/* Pairs with the release in aca_modrec_stop(): late is set. */
	return smp_load_acquire(&mr->stop) &&
	       time_after(jiffies, READ_ONCE(mr->late));
}

/* Write @n code mappings of @w and drop their file references. */
static void aca_mr_write_list(struct aca_modrec *mr, const struct aca_mr_who *w,
			      struct aca_mr_map *maps, u32 n)
{
	for (u32 i = 0; i < n; i++) {
		if (!aca_mr_over(mr))
			aca_mr_code(mr, w, &maps[i]);
		else if (!READ_ONCE(mr->cancel))
			atomic64_inc(&mr->missed);
		if (maps[i].file)
			fput(maps[i].file);
		maps[i].file = NULL;
		cond_resched();
	}
}

/*
 * Up to ACA_MR_BATCH code mappings of @mm from @*addr on into mr->batch,
 * each file referenced, @mm's lock held; anonymous code (a JIT) has no
 * name. @*addr is then where the next batch starts, or 0: no more.
 */
static void aca_mr_take_batch(struct aca_modrec *mr, struct mm_struct *mm,
			      unsigned long *addr)
{
	const struct inode *exe = aca_mr_exe(mm);
	struct vma_iterator vmi;
	struct vm_area_struct *vma;
	struct aca_mr_map *m;

	mmap_assert_locked(mm);
	mr->nbatch = 0;
	vma_iter_init(&vmi, mm, *addr);
	for_each_vma(vmi, vma) {
		if (!(vma->vm_flags & VM_EXEC) ||
		    (!vma->vm_file && !aca_mr_is_vdso(vma)))
			continue;
		if (mr->nbatch == ACA_MR_BATCH) {
			*addr = vma->vm_start;
			return;
		}
		m = &mr->batch[mr->nbatch++];
		m->start = vma->vm_start;
		m->end = vma->vm_end;
		m->file = vma->vm_file ? get_file(vma->vm_file) : NULL;
		m->off = m->file ? (u64)vma->vm_pgoff << PAGE_SHIFT : 0;
		m->exe = m->file && file_inode(m->file) == exe;
	}
	*addr = 0;
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

/* [_stext, _end) as kallsyms sees it, found once (see the top). */
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
	aca_mr_put(mr, mr->buf, NULL, 0);
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
	aca_mr_put(mr, mr->buf, NULL, 0);

	aca_mr_module(mr, THIS_MODULE);
	rcu_read_lock();
	list_for_each_entry_rcu(mod, &THIS_MODULE->list, list)
		if (aca_is_module(mod) &&
		    READ_ONCE(mod->state) != MODULE_STATE_UNFORMED)
			aca_mr_module(mr, mod);
	rcu_read_unlock();
}

/* ---- the worker: process context, never aca_lock ---- */

#define ACA_MR_LOCK_TRIES	12

/*
 * @mm's mmap lock for reading, or false (counted missed) after the tries,
 * 1 ms apart at first, then doubling up to 64 ms: about half a second.
 */
static bool aca_mr_lock_mm(struct aca_modrec *mr, struct mm_struct *mm)
{
	for (int i = 0; !aca_mr_over(mr); i++) {
		if (mmap_read_trylock(mm))
			return true;
		if (i == ACA_MR_LOCK_TRIES - 1)
			break;
		usleep_range(1000 << min(i, 6), 2000 << min(i, 6));
	}
	atomic64_inc(&mr->missed);
	return false;
}

/*
 * @w's code mappings in @mm, a batch at a time: taken under the mmap lock,
 * written once it is dropped (d_path() and build-ids read from the files
 * are not done under it). A process may map and unmap between two
 * batches; each goes on from where the last stopped, as /proc/PID/maps
 * does. A lock not had is counted missed.
 */
static void aca_mr_mm(struct aca_modrec *mr, const struct aca_mr_who *w,
		      struct mm_struct *mm)
{
	unsigned long addr = 0;

	do {
		if (!aca_mr_lock_mm(mr, mm))
			return;
		aca_mr_take_batch(mr, mm, &addr);
		mmap_read_unlock(mm);
		aca_mr_write_list(mr, w, mr->batch, mr->nbatch);
		mr->nbatch = 0;
	} while (addr && !aca_mr_over(mr));
	if (addr && !READ_ONCE(mr->cancel))
		atomic64_inc(&mr->missed);	/* the rest of it */
}

/* The code mappings of an exit's or exec's mm. */
static void aca_mr_write_mm(struct aca_modrec *mr, struct aca_mr_item *it)
{
	aca_mr_mm(mr, &it->who, it->mm);
}

/* An munmap()'s mappings; their references are dropped as written. */
static void aca_mr_write_maps(struct aca_modrec *mr, struct aca_mr_item *it)
{
	aca_mr_write_list(mr, &it->who, it->maps, it->nmaps);
	it->nmaps = 0;
}

/*
 * What the hooks had queued when called, oldest first: a bounded batch,
 * however fast they queue more. Cancelled, the rest goes back for
 * finish() to drop.
 */
static void aca_mr_drain(struct aca_modrec *mr)
{
	struct aca_mr_item *it;
	unsigned long flags;
	LIST_HEAD(batch);

	raw_spin_lock_irqsave(&mr->lock, flags);
	list_splice_init(&mr->queued, &batch);
	raw_spin_unlock_irqrestore(&mr->lock, flags);
	while (!list_empty(&batch)) {
		if (READ_ONCE(mr->cancel)) {
			raw_spin_lock_irqsave(&mr->lock, flags);
			list_splice(&batch, &mr->queued);
			raw_spin_unlock_irqrestore(&mr->lock, flags);
			return;
		}
		it = list_first_entry(&batch, struct aca_mr_item, node);
		list_del(&it->node);
		if (!it->mm)	/* each written or counted missed */
			aca_mr_write_maps(mr, it);
		else if (!aca_mr_over(mr))
			aca_mr_write_mm(mr, it);
		else
			atomic64_inc(&mr->missed);	/* STOP is late */
		aca_mr_unref(it);
		aca_mr_push(mr, it, &mr->free);
		cond_resched();
	}
}

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
	aca_mr_put(mr, b, NULL, 0);
}

static void aca_mr_task(struct aca_modrec *mr, struct task_struct *p, u64 now)
{
	struct aca_mr_who who;
	struct mm_struct *mm;

	if (p->flags & PF_KTHREAD) {
		aca_mr_kthread(mr, p, now);
		return;
	}
	mm = get_task_mm(p);
	if (!mm)
		return;		/* exiting: its exit hook took it */
	aca_mr_who(&who, p, mm, SEP_MR_UNLOAD_TSC_LOADED);
	aca_mr_mm(mr, &who, mm);
	mmput_async(mm);	/* it may have exited meanwhile */
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

/*
 * Every live process, the queue drained between two; finish() cancels.
 * A @snapshot's walk ends when STOP is asked (its own walk follows) or
 * its ring has a quarter unread (the host reads slowly: the rest is left
 * to STOP's records).
 */
static void aca_mr_walk(struct aca_modrec *mr, bool snapshot)
{
	u64 now = aca_tsc_now();
	struct task_struct **tasks;
	bool behind = false;
	u32 n = 0;

	tasks = aca_mr_tasks(mr, &n);
	if (!tasks) {
		pr_notice("module records: no memory to list the processes %s\n",
			  snapshot ? "for a snapshot" : "at STOP");
		return;
	}
	for (u32 i = 0; i < n; i++) {
		/* Pairs with the release in aca_modrec_stop(), as aca_mr_over(). */
		if (snapshot && (behind || smp_load_acquire(&mr->stop))) {
			/* STOP's walk describes them. */
		} else if (snapshot && aca_ring_backlog(mr->ring)) {
			behind = true;
		} else if (!aca_mr_over(mr)) {
			aca_mr_task(mr, tasks[i], now);
			aca_mr_drain(mr);
		} else if (!READ_ONCE(mr->cancel)) {
			atomic64_inc(&mr->missed);
		}
		put_task_struct(tasks[i]);
		cond_resched();
	}
	kvfree(tasks);
	if (behind)
		pr_notice_ratelimited("module records: a snapshot stopped short: a quarter of the module ring is unread (the host reads it slowly); STOP describes the rest\n");
}

static void aca_mr_count(struct aca_modrec *mr, struct aca_mr_counts *n)
{
	aca_ring_counts(mr->ring, &n->written, &n->dropped);
	n->missed = atomic64_read(&mr->missed);
	n->nobid = atomic64_read(&mr->nobid);
}

static void aca_mr_report(struct aca_modrec *mr)
{
	struct aca_mr_counts n;

	aca_mr_count(mr, &n);
	if (time_after(jiffies, READ_ONCE(mr->late)))
		pr_notice("module records: STOP's took more than %d s; the processes left were counted missed\n",
			  ACA_MR_STOP_S);
	if (n.dropped || n.missed)
		pr_notice("module records: %llu sent, %llu dropped (ring full: raise ring_pages), %llu missed (exits, execs, munmap()s or processes not wholly described: queue full, mm busy, too many mappings, path too long, STOP too long)\n",
			  n.written, n.dropped, n.missed);
	if (n.nobid)
		pr_info("module records: %llu file mappings without a build-id looked for: the file's first pages were not in memory (aca never reads a file for it)\n",
			n.nobid);
}

/*
 * The queue; a snapshot's walk if one was asked and STOP was not; then,
 * once STOP asked: every live process, the hooks removed, what they
 * queued last, the ring finalized. Once only.
 */
static void aca_mr_run(struct aca_modrec *mr)
{
	aca_mr_drain(mr);
	/* Pairs with the release in aca_modrec_stop(), as aca_mr_over(). */
	if (!smp_load_acquire(&mr->stop) && xchg(&mr->snap, false)) {
		aca_mr_walk(mr, true);
		/* Its records due now, not within the next flush period. */
		mod_delayed_work(system_wq, mr->flush, 0);
	}
	if (!READ_ONCE(mr->stop) || mr->done)
		return;
	aca_mr_walk(mr, false);
	if (READ_ONCE(mr->cancel))
		return;
	aca_mr_unhook(mr);
	aca_mr_drain(mr);
	if (READ_ONCE(mr->cancel))
		return;
	mr->done = true;
	aca_mr_report(mr);
	/* The last record is written: the reader's wake-up tells STOP. */
	aca_mr_end(mr);
}

/*
 * ACA_MR_GRACE_S past STOP's bound the worker has not finalized the ring:
 * it is stuck in a step (none should wait that long: none waits for I/O).
 * STOP is answered anyway: the ring ends here, and whatever the worker
 * writes later is counted missed, not sent. Takes nothing but wlock, so
 * finish() may cancel it under aca_lock.
 */
static void aca_mr_watchdog(struct work_struct *work)
{
	struct aca_modrec *mr = container_of(to_delayed_work(work),
					     struct aca_modrec, watchdog);

	if (!aca_mr_end(mr))
		return;
	atomic64_inc(&mr->missed);
	pr_notice("module records: STOP's worker still busy after %d s: the module channel ends without the rest (counted missed)\n",
		  ACA_MR_STOP_S + ACA_MR_GRACE_S);
}

/*
 * A snapshot's time has come: the worker walks (aca_mr_run()). Only a
 * kick arms a walk, so walks are as far apart as kicks, however often
 * the hooks queue the worker. queue_work() orders the flag before the
 * worker's run (a fully ordered test_and_set_bit()).
 */
static void aca_mr_snap_kick(struct work_struct *work)
{
	struct aca_modrec *mr = container_of(to_delayed_work(work),
					     struct aca_modrec, snap_kick);

	WRITE_ONCE(mr->snap, true);
	queue_work(system_unbound_wq, &mr->work);
}

/* One run of the worker; the build-ids it read are forgotten after it. */
static void aca_mr_work(struct work_struct *work)
{
	struct aca_modrec *mr = container_of(work, struct aca_modrec, work);

	aca_mr_run(mr);
	aca_buildid_clear(&mr->bids);
}

static void aca_mr_free(struct aca_modrec *mr)
{
	cancel_delayed_work_sync(&mr->snap_kick);
	cancel_delayed_work_sync(&mr->watchdog);
	/* Empty: each run of the worker forgets what it read. */
	aca_buildid_clear(&mr->bids);
	if (mr->ring) {
		aca_ring_detach(mr->ring);
		aca_ring_put(mr->ring);
	}
	kvfree(mr->items);
	kfree(mr->buf);
	kfree(mr);
}

/* ---- the session's calls (collection.c), under aca_lock ---- */

int aca_modrec_configure(struct aca_modrecs *m, struct delayed_work *flush)
{
	unsigned int pages = max_t(unsigned int, 4 * READ_ONCE(aca_ring_pages),
				   ACA_MR_MIN_PAGES);
	struct aca_modrec *mr;

	lockdep_assert_held(&aca_lock);
	aca_modrec_finish(m);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return -ENOMEM;
	raw_spin_lock_init(&mr->lock);
	INIT_LIST_HEAD(&mr->free);
	INIT_LIST_HEAD(&mr->queued);
	INIT_WORK(&mr->work, aca_mr_work);
	INIT_DELAYED_WORK(&mr->watchdog, aca_mr_watchdog);
	INIT_DELAYED_WORK(&mr->snap_kick, aca_mr_snap_kick);
	mr->snap_next = jiffies;	/* jiffies starts near its wrap */
	mr->flush = flush;
	spin_lock_init(&mr->wlock);
	atomic64_set(&mr->missed, 0);
	atomic64_set(&mr->nobid, 0);
	memset(&m->last, 0, sizeof(m->last));
	mr->ring = aca_ring_alloc(pages, NUMA_NO_NODE);
	mr->buf = kmalloc(sizeof(*mr->buf), GFP_KERNEL);
	/* Failing is reported below; no stack dump for it. */
	mr->items = kvcalloc(ACA_MR_ITEMS, sizeof(*mr->items),
			     GFP_KERNEL | __GFP_NOWARN);
	if (!mr->ring || !mr->buf || !mr->items) {
		pr_notice_ratelimited("cannot allocate the %u-page module record ring\n",
				      pages);
		aca_mr_free(mr);
		return -ENOMEM;
	}
	for (u32 i = 0; i < ACA_MR_ITEMS; i++)
		list_add_tail(&mr->items[i].node, &mr->free);
	m->cur = mr;
	aca_mr_kernel(mr);
	for (int i = 0; i < ACA_NHOOKS; i++)
		aca_mr_hook(mr, i);
	return 0;
}

/*
 * [ACA-EXT] MODULE_SNAPSHOT, before STOP: the worker walks every live
 * process as STOP's does, once the gap since the last kick has passed.
 * An ask while a kick is queued is that kick's walk; one during a walk
 * has the worker walk again after it, a gap after the last kick.
 * -ENODATA: no module records (counting mode) or STOP came.
 */
int aca_modrec_snapshot(struct aca_modrecs *m)
{
	struct aca_modrec *mr = m->cur;
	unsigned long now = jiffies, at;

	lockdep_assert_held(&aca_lock);
	if (!mr || mr->stop)
		return -ENODATA;
	at = time_after(mr->snap_next, now) ? mr->snap_next : now;
	if (queue_delayed_work(system_unbound_wq, &mr->snap_kick, at - now))
		mr->snap_next = at + msecs_to_jiffies(ACA_MODULE_SNAPSHOT_GAP_MS);
	return 0;
}

/*
 * STOP, after the counters stopped: the worker, asked here and not waited
 * for, describes every live process while the hooks still catch those
 * that go meanwhile, removes the hooks, writes what they took and
 * finalizes the ring (see the top). A session that ends first has
 * finish() cancel the rest.
 */
void aca_modrec_stop(struct aca_modrecs *m)
{
	struct aca_modrec *mr = m->cur;

	lockdep_assert_held(&aca_lock);
	if (!mr)
		return;
	WRITE_ONCE(mr->late, jiffies + ACA_MR_STOP_S * HZ);
	/* The deadline first: the worker reads it once it sees stop. */
	smp_store_release(&mr->stop, true);
	queue_work(system_unbound_wq, &mr->work);
	queue_delayed_work(system_unbound_wq, &mr->watchdog,
			   (ACA_MR_STOP_S + ACA_MR_GRACE_S) * HZ);
}

/*
 * Session end: the worker cancelled, the hooks removed, and every item
 * still queued dropped with its references (mm teardown left to a kworker,
 * not done under aca_lock).
 */
void aca_modrec_finish(struct aca_modrecs *m)
{
	struct aca_modrec *mr = m->cur;
	struct aca_mr_item *it;

	lockdep_assert_held(&aca_lock);
	if (!mr)
		return;
	WRITE_ONCE(mr->cancel, true);
	/* No kick queues the worker again after it is cancelled. */
	cancel_delayed_work_sync(&mr->snap_kick);
	cancel_work_sync(&mr->work);
	aca_mr_unhook(mr);
	/* A handler that ran before the unhook may have queued it again. */
	cancel_work_sync(&mr->work);
	while ((it = aca_mr_pop(mr, &mr->queued)))
		aca_mr_unref(it);
	aca_mr_count(mr, &m->last);
	m->cur = NULL;
	aca_mr_free(mr);
}

struct aca_ring *aca_modrec_ring(struct aca_modrecs *m)
{
	lockdep_assert_held(&aca_lock);
	return m->cur ? m->cur->ring : NULL;
}

/*
 * /sys/module/aca/module_records (0400): the current (or last) session's
 * module records: written to the ring, dropped (ring full), missed (see
 * the top) and how many went without the build-id of their file because
 * its pages were not in memory (buildid.c). For tests and operators. The
 * attribute is its collection's, which outlives the file.
 */
static ssize_t module_records_show(struct module_attribute *attr,
				   struct module_kobject *mk, char *buf)
{
	struct aca_modrecs *m = container_of(attr, struct aca_modrecs, attr);
	struct aca_mr_counts n;
	int ret;

	ret = mutex_lock_interruptible(&aca_lock);
	if (ret)
		return ret;
	if (m->cur)
		aca_mr_count(m->cur, &n);
	else
		n = m->last;
	mutex_unlock(&aca_lock);
	return sysfs_emit(buf, "written %llu dropped %llu missed %llu no_build_id %llu\n",
			  n.written, n.dropped, n.missed, n.nobid);
}

int aca_modrec_init(struct aca_modrecs *m)
{
	m->attr = (struct module_attribute)__ATTR(module_records, 0400,
						  module_records_show, NULL);
	sysfs_attr_init(&m->attr.attr);
	return sysfs_create_file(&THIS_MODULE->mkobj.kobj, &m->attr.attr);
}

/* After the device is gone: no session. */
void aca_modrec_exit(struct aca_modrecs *m)
{
	sysfs_remove_file(&THIS_MODULE->mkobj.kobj, &m->attr.attr);
}
