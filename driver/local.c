// SPDX-License-Identifier: GPL-2.0-only
/*
 * The local sampling API (uapi/aca.h): the engine of a host session
 * (sampler.c) driven by ioctls on /dev/aca, with each CPU's ring mmap()ed
 * by the file that allocated the trace. One trace at a time: it holds the
 * sampler (acp_local_claim()), so hosts are told "busy" meanwhile.
 *
 * Locking: aca_trace changes under aca_lock (aca_target_lock()),
 * which the ioctls hold, and under aca_trace_lock. mmap() and the vm
 * operations run under the caller's mmap_lock, and aca_lock is held
 * while user memory is faulted in (read()), so they take only
 * aca_trace_lock, a spinlock, and never aca_lock.
 *
 * Lifetime: refs counts the owner (until FREE_TRACE or close) and every
 * mapping. Mappings are PFN maps and take no page reference (the splice
 * path of ring.c tells a page still held elsewhere by its reference
 * count), so the rings, and with them the claim on the sampler, stay
 * until refs drops to zero. Then the trace is reaped under the device
 * lock: at once by FREE_TRACE or close, else (last munmap()) by a work
 * item, or by the next ALLOC_TRACE if that comes first. A mapping holds
 * its file, so the owner's release always follows its last munmap() and
 * can flush that work before the module may go.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/pid.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/threads.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "collection.h"
#include "core/core.h"
#include "device.h"
#include "local.h"
#include "machine.h"
#include "params.h"
#include "ring.h"
#include "sampler.h"
#include "target.h"
#include "tsc.h"
#include "../uapi/aca.h"

/* Periods: 1 .. 2^48 counts, the counter width (as the core's ECBs). */
#define ACA_MAX_PERIOD		(ACP_COUNTER_MASK + 1)
#define ACA_MAX_RATE		1000000

static_assert(ACA_MAX_EVENTS <= ACP_MAX_EVENTS);

struct aca_trace {
	refcount_t refs;		/* the owner's, and one per mapping */
	struct file *owner;		/* NULL once freed: mappings remain */
	u32 data_pages;
	u32 state;			/* ACA_TRACE_* */
	bool cpu_clock;			/* the staged events are cpu-clock */
	u64 start_tsc;
	u64 stop_tsc;
	struct aca_trace_config staged;	/* as the caller staged it */
	struct acp_group group;		/* the sampler's view of it */
	struct acp_config cfg;		/* groups = &group */
};

static struct aca_trace *aca_trace;
static DEFINE_SPINLOCK(aca_trace_lock);

/* Under aca_lock: the trace @file owns, or NULL. */
static struct aca_trace *aca_trace_of(struct file *file)
{
	struct aca_trace *tr = aca_trace;

	lockdep_assert_held(&aca_lock);
	return tr && tr->owner == file ? tr : NULL;
}

/*
 * The collection a trace samples with: the target's ctx (device.c), set
 * before /dev/aca exists and for as long as it does.
 */
static struct aca_collection *aca_trace_coll(void)
{
	return aca_target.ctx;
}

static void aca_trace_stop(struct aca_trace *tr)
{
	if (tr->state != ACA_TRACE_RUNNING)
		return;
	aca_sampler_stop(aca_trace_coll());
	tr->stop_tsc = aca_tsc_now();
	tr->state = ACA_TRACE_STOPPED;
}

/* Under aca_lock, no reference left: give everything back. */
static void aca_trace_destroy(struct acp_target *t, struct aca_trace *tr)
{
	lockdep_assert_held(&aca_lock);
	aca_sampler_finish(aca_trace_coll());
	acp_local_release(t);
	spin_lock(&aca_trace_lock);
	aca_trace = NULL;
	spin_unlock(&aca_trace_lock);
	kvfree(tr);
}

/* Under aca_lock: free a trace whose last mapping went away. */
static void aca_trace_reap(struct acp_target *t)
{
	struct aca_trace *tr = aca_trace;

	lockdep_assert_held(&aca_lock);
	if (tr && !refcount_read(&tr->refs))
		aca_trace_destroy(t, tr);
}

static void aca_trace_reap_fn(struct work_struct *work)
{
	aca_trace_reap(aca_target_lock());
	aca_target_unlock();
}

static DECLARE_WORK(aca_trace_reap_work, aca_trace_reap_fn);

/* A mapping's reference: no lock held but possibly mmap_lock. */
static void aca_trace_put(struct aca_trace *tr)
{
	if (refcount_dec_and_test(&tr->refs))
		schedule_work(&aca_trace_reap_work);
}

/* Under aca_lock: FREE_TRACE or close of the owner. */
static void aca_trace_disown(struct acp_target *t, struct aca_trace *tr)
{
	lockdep_assert_held(&aca_lock);
	aca_trace_stop(tr);
	spin_lock(&aca_trace_lock);
	tr->owner = NULL;		/* no new mapping from now on */
	spin_unlock(&aca_trace_lock);
	if (refcount_dec_and_test(&tr->refs))
		aca_trace_destroy(t, tr);
}

static long aca_get_properties(void __user *arg)
{
	struct aca_properties p = {
		.api_version = ACA_API_VERSION,
		.num_cpus = nr_cpu_ids,
		.online_cpus = num_online_cpus(),
		.max_events = ACA_MAX_EVENTS,
		.page_size = PAGE_SIZE,
		.default_data_pages = READ_ONCE(aca_ring_pages),
		.min_data_pages = ACA_RING_PAGES_MIN,
		.max_data_pages = ACA_RING_PAGES_MAX,
		.max_sample_rate = READ_ONCE(aca_max_sample_rate),
		.record_size = sizeof(struct sep_sample_record_pc),
		.tsc_hz = aca_tsc_hz(),
	};

	if (aca_machine_has_pmu())
		p.flags |= ACA_PROP_PMU;
	if (READ_ONCE(aca_sw_clock))
		p.flags |= ACA_PROP_SW_CLOCK;
	return copy_to_user(arg, &p, sizeof(p)) ? -EFAULT : 0;
}

/*
 * A trace samples every process (or one, by STAGE_CONFIG's target_pid):
 * the file's opener needs CAP_PERFMON or CAP_SYS_ADMIN, decided at open()
 * (device.c), or group_perfmon=1. Checked at ALLOC_TRACE and START.
 */
static int aca_local_permitted(struct file *file, const char *what)
{
	if (aca_file_opener_privileged(file))
		return 0;
	pr_notice_ratelimited("%s refused: the process that opened /dev/aca lacks CAP_PERFMON; grant it or load aca with group_perfmon=1\n",
			      what);
	return -EPERM;
}

static long aca_alloc_trace(struct file *file, void __user *arg)
{
	struct aca_trace_alloc a;
	struct aca_trace *tr;
	struct acp_target *t;
	u32 pages, rings = 0;
	long ret = 0;

	ret = aca_local_permitted(file, "ALLOC_TRACE");
	if (ret)
		return ret;
	if (copy_from_user(&a, arg, sizeof(a)))
		return -EFAULT;
	pages = a.data_pages ? a.data_pages : READ_ONCE(aca_ring_pages);
	if (a.flags || !aca_ring_pages_ok(pages))
		return -EINVAL;
	tr = kvzalloc(sizeof(*tr), GFP_KERNEL_ACCOUNT);
	if (!tr)
		return -ENOMEM;
	refcount_set(&tr->refs, 1);
	tr->owner = file;
	tr->data_pages = pages;
	tr->state = ACA_TRACE_ALLOCATED;
	tr->cfg.groups = &tr->group;

	t = aca_target_lock();
	aca_trace_reap(t);
	if (aca_trace || aca_file_is_conn(file) || !acp_local_claim(t)) {
		ret = -EBUSY;
		goto unlock;
	}
	ret = aca_sampler_alloc(aca_trace_coll(), pages, cpu_online_mask);
	if (ret) {
		acp_local_release(t);
		goto unlock;
	}
	for (u32 cpu = 0; cpu < nr_cpu_ids; cpu++)
		rings += !!aca_sampler_ring(aca_trace_coll(), cpu);
	spin_lock(&aca_trace_lock);
	aca_trace = tr;
	spin_unlock(&aca_trace_lock);
	tr = NULL;
unlock:
	aca_target_unlock();
	kvfree(tr);
	if (ret)
		return ret;

	a.data_pages = pages;
	a.num_cpus = nr_cpu_ids;
	a.nr_rings = rings;
	a.map_size = (u64)(pages + 1) << PAGE_SHIFT;
	/* The trace stays: FREE_TRACE or close frees it. */
	return copy_to_user(arg, &a, sizeof(a)) ? -EFAULT : 0;
}

static int aca_check_event(const struct aca_event *e, u32 kind)
{
	u32 excl = ACA_EVENT_EXCLUDE_USER | ACA_EVENT_EXCLUDE_KERNEL;

	if (e->kind != kind || e->reserved || (e->flags & ~ACA_EVENT_FLAGS) ||
	    (e->flags & excl) == excl || e->event_index > ACA_MAX_EVENT_INDEX)
		return -EINVAL;
	if (!e->period || e->period > ((e->flags & ACA_EVENT_RATE) ?
				       ACA_MAX_RATE : ACA_MAX_PERIOD))
		return -EINVAL;
	switch (kind) {
	case ACA_EVENT_RAW:
		return 0;
	case ACA_EVENT_CPU_CLOCK:
		if (e->config || e->config1 || (e->flags & ACA_EVENT_PRECISE))
			return -EINVAL;
		return 0;
	case ACA_EVENT_IBS_OP:
	case ACA_EVENT_IBS_FETCH:
		/* IBS filters no ring and is precise by nature. */
		if (e->config1 || (e->flags & (excl | ACA_EVENT_PRECISE)))
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

/* An IBS event's PMU: its perf type, and its register, which names it. */
struct aca_ibs_pmu {
	u32 type, msr;
};

/*
 * Each IBS event's PMU (@ibs[i], core/ibs.c), its options checked, under
 * aca_lock as the PMU table: ENODEV without the PMU, EINVAL for an option
 * it lacks. Zeros for the other kinds.
 */
static int aca_ibs_pmus(struct acp_target *t, const struct aca_trace_config *u,
			struct aca_ibs_pmu *ibs)
{
	for (u32 i = 0; i < u->nevents; i++) {
		const struct aca_event *e = &u->events[i];
		struct acp_event ev = { 0 };
		s32 st;

		ibs[i] = (struct aca_ibs_pmu){ 0 };
		if (e->kind != ACA_EVENT_IBS_OP && e->kind != ACA_EVENT_IBS_FETCH)
			continue;
		st = acp_ibs_pmu_event(t, e->kind == ACA_EVENT_IBS_FETCH, e->config, &ev);
		if (st)
			return st == VT_INVALID_DEVICE ? -ENODEV : -EINVAL;
		ibs[i].type = ev.pmu_type;
		ibs[i].msr = ev.msr;
	}
	return 0;
}

/*
 * perf_event_open() on one process asks ptrace_may_access(task,
 * PTRACE_MODE_READ_REALCREDS), which is not exported to modules: this is
 * its credential rule, applied to the file's opener (privilege is decided
 * by who opened /dev/aca, as everywhere in aca): its real uid and gid are
 * all of the target's and the target is dumpable, or it has CAP_SYS_PTRACE.
 * (No LSM hook: Yama's ptrace_scope does not apply here.)
 */
static bool aca_may_read_task(struct file *file, struct task_struct *task)
{
	const struct cred *cred = file->f_cred, *tcred;
	bool ok, dumpable = true;

	if (same_thread_group(task, current))
		return true;
	rcu_read_lock();
	tcred = __task_cred(task);
	ok = uid_eq(cred->uid, tcred->euid) && uid_eq(cred->uid, tcred->suid) &&
	     uid_eq(cred->uid, tcred->uid) && gid_eq(cred->gid, tcred->egid) &&
	     gid_eq(cred->gid, tcred->sgid) && gid_eq(cred->gid, tcred->gid);
	rcu_read_unlock();
	task_lock(task);
	if (task->mm)
		dumpable = get_dumpable(task->mm) == SUID_DUMP_USER;
	task_unlock(task);
	return (ok && dumpable) ||
	       file_ns_capable(file, &init_user_ns, CAP_SYS_PTRACE);
}

/*
 * Only this process (@nr in the caller's pid namespace): its global tgid.
 * The opener must be allowed to read it as perf_event_open() would
 * (aca_may_read_task()), else EACCES.
 */
static int aca_target_tgid(struct file *file, u32 nr, s32 *tgid)
{
	struct task_struct *task = NULL;
	struct pid *pid;
	int ret = -ESRCH;

	if (nr > PID_MAX_LIMIT)
		return -ESRCH;
	rcu_read_lock();
	pid = find_vpid(nr);
	if (pid)
		task = get_pid_task(pid, PIDTYPE_TGID);
	rcu_read_unlock();
	if (!task)
		return ret;
	if (aca_may_read_task(file, task)) {
		*tgid = task_tgid_nr(task);
		ret = 0;
	} else {
		pr_notice_ratelimited("STAGE_CONFIG refused: target_pid %u may not be traced by %s[%d]\n",
				      nr, current->comm, task_pid_nr(current));
		ret = -EACCES;
	}
	put_task_struct(task);
	return ret;
}

/*
 * The sampler's events: periods in counts (TSC ticks for cpu-clock); IBS
 * events on the PMU @ibs[i] names.
 */
static void aca_fill_group(struct acp_group *g,
			   const struct aca_trace_config *u, const struct aca_ibs_pmu *ibs)
{
	memset(g, 0, sizeof(*g));
	g->loaded = true;
	g->nevents = u->nevents;
	for (u32 i = 0; i < u->nevents; i++) {
		const struct aca_event *e = &u->events[i];
		struct acp_event *ev = &g->events[i];

		ev->event_index = e->event_index;
		ev->pmu_type = ibs[i].type;
		ev->msr = ibs[i].msr;
		ev->config = e->config;
		ev->config1 = e->config1;
		ev->exclude_user = !!(e->flags & ACA_EVENT_EXCLUDE_USER);
		ev->exclude_kernel = !!(e->flags & ACA_EVENT_EXCLUDE_KERNEL);
		ev->precise = !!(e->flags & ACA_EVENT_PRECISE);
		if (e->flags & ACA_EVENT_RATE)
			ev->period = max_t(u64, div64_u64(aca_tsc_hz(),
							  e->period), 1);
		else
			ev->period = e->period;
	}
}

static long aca_stage_config(struct file *file, void __user *arg)
{
	struct aca_ibs_pmu ibs[ACA_MAX_EVENTS];
	struct aca_trace_config u;
	struct acp_target *t;
	struct aca_trace *tr;
	s32 tgid = 0;
	long ret;

	if (copy_from_user(&u, arg, sizeof(u)))
		return -EFAULT;
	if (!u.nevents || u.nevents > ACA_MAX_EVENTS || u.flags || u.reserved)
		return -EINVAL;
	for (u32 i = 0; i < u.nevents; i++) {
		ret = aca_check_event(&u.events[i], u.events[0].kind);
		if (ret)
			return ret;
	}
	/* What is not an event is not kept. */
	memset(&u.events[u.nevents], 0,
	       (ACA_MAX_EVENTS - u.nevents) * sizeof(u.events[0]));
	if (u.target_pid) {
		ret = aca_target_tgid(file, u.target_pid, &tgid);
		if (ret)
			return ret;
	}

	t = aca_target_lock();
	tr = aca_trace_of(file);
	if (!tr) {
		ret = -ENXIO;
	} else if (tr->state != ACA_TRACE_ALLOCATED &&
		   tr->state != ACA_TRACE_STAGED) {
		ret = -EBUSY;
	} else {
		ret = aca_ibs_pmus(t, &u, ibs);
	}
	if (!ret) {
		tr->staged = u;
		tr->cpu_clock = u.events[0].kind == ACA_EVENT_CPU_CLOCK;
		aca_fill_group(&tr->group, &u, ibs);
		tr->cfg.ngroups = 1;
		tr->cfg.drv.target_pid = tgid;
		tr->state = ACA_TRACE_STAGED;
	}
	aca_target_unlock();
	return ret;
}

static long aca_get_config(struct file *file, void __user *arg)
{
	struct aca_trace_config u;
	struct aca_trace *tr;
	long ret = 0;

	aca_target_lock();
	tr = aca_trace_of(file);
	if (!tr)
		ret = -ENXIO;
	else if (tr->state == ACA_TRACE_ALLOCATED)
		ret = -ENODATA;
	else
		u = tr->staged;
	aca_target_unlock();
	if (ret)
		return ret;
	return copy_to_user(arg, &u, sizeof(u)) ? -EFAULT : 0;
}

static long aca_start(struct file *file)
{
	struct aca_trace *tr;
	long ret;

	ret = aca_local_permitted(file, "START");
	if (ret)
		return ret;
	aca_target_lock();
	tr = aca_trace_of(file);
	if (!tr) {
		ret = -ENXIO;
	} else if (tr->state == ACA_TRACE_ALLOCATED) {
		ret = -ENODATA;
	} else if (tr->state != ACA_TRACE_STAGED) {
		ret = -EBUSY;
	} else {
		tr->start_tsc = aca_tsc_now();
		ret = aca_sampler_start_local(aca_trace_coll(), &tr->cfg, tr->cpu_clock);
		if (ret) {
			/* No second START on these rings (spec 3.4). */
			tr->stop_tsc = aca_tsc_now();
			tr->state = ACA_TRACE_STOPPED;
		} else {
			tr->state = ACA_TRACE_RUNNING;
		}
	}
	aca_target_unlock();
	return ret;
}

static long aca_stop(struct file *file)
{
	struct aca_trace *tr;
	long ret = 0;

	aca_target_lock();
	tr = aca_trace_of(file);
	if (tr)
		aca_trace_stop(tr);
	else
		ret = -ENXIO;
	aca_target_unlock();
	return ret;
}

static long aca_free_trace(struct file *file)
{
	struct aca_trace *tr;
	struct acp_target *t;
	long ret = 0;

	t = aca_target_lock();
	tr = aca_trace_of(file);
	if (tr)
		aca_trace_disown(t, tr);
	else
		ret = -ENXIO;
	aca_target_unlock();
	return ret;
}

static long aca_get_counts(struct file *file, void __user *arg)
{
	struct aca_trace_counts in, c = { 0 };
	struct aca_trace *tr;
	struct aca_ring *r;
	long ret = 0;

	if (copy_from_user(&in, arg, sizeof(in)))
		return -EFAULT;
	if (in.reserved || in.cpu >= nr_cpu_ids)
		return -EINVAL;
	c.cpu = array_index_nospec(in.cpu, nr_cpu_ids);

	aca_target_lock();
	tr = aca_trace_of(file);
	if (!tr) {
		ret = -ENXIO;
		goto unlock;
	}
	c.state = tr->state;
	if (tr->state == ACA_TRACE_RUNNING || tr->state == ACA_TRACE_STOPPED) {
		c.start_tsc = tr->start_tsc;
		c.stop_tsc = tr->stop_tsc;
		if (aca_cpu_clock_core(aca_trace_coll(), c.cpu))
			c.flags |= ACA_COUNTS_CPU_CLOCK;
	}
	r = aca_sampler_ring(aca_trace_coll(), c.cpu);
	if (r) {
		c.flags |= ACA_COUNTS_RING;
		c.generated = local64_read(&r->generated);
		aca_ring_counts(r, &c.written, &c.dropped);
	}
unlock:
	aca_target_unlock();
	if (ret)
		return ret;
	return copy_to_user(arg, &c, sizeof(c)) ? -EFAULT : 0;
}

long aca_local_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case ACA_IOC_GET_PROPERTIES:
		return aca_get_properties(argp);
	case ACA_IOC_ALLOC_TRACE:
		return aca_alloc_trace(file, argp);
	case ACA_IOC_STAGE_CONFIG:
		return aca_stage_config(file, argp);
	case ACA_IOC_GET_CONFIG:
		return aca_get_config(file, argp);
	case ACA_IOC_START:
		return aca_start(file);
	case ACA_IOC_STOP:
		return aca_stop(file);
	case ACA_IOC_FREE_TRACE:
		return aca_free_trace(file);
	case ACA_IOC_GET_COUNTS:
		return aca_get_counts(file, argp);
	default:
		return -ENOTTY;
	}
}

/* fork(), a split or mremap(): one more mapping of a live trace. */
static void aca_trace_vm_open(struct vm_area_struct *vma)
{
	struct aca_trace *tr = vma->vm_private_data;

	refcount_inc(&tr->refs);
}

static void aca_trace_vm_close(struct vm_area_struct *vma)
{
	aca_trace_put(vma->vm_private_data);
}

static const struct vm_operations_struct aca_trace_vm_ops = {
	.open = aca_trace_vm_open,
	.close = aca_trace_vm_close,
};

/*
 * One CPU's ring, header page first: PFN maps of the ring's own pages, no
 * page reference taken (remap_pfn_range() makes the mapping VM_IO,
 * VM_PFNMAP, VM_DONTEXPAND and VM_DONTDUMP, and get_user_pages() refuses
 * it, so no reference can be taken through it either).
 */
int aca_local_mmap(struct file *file, struct vm_area_struct *vma)
{
	unsigned long per, cpu, addr = vma->vm_start;
	struct aca_ring *r = NULL;
	struct aca_trace *tr;
	int ret = 0;

	spin_lock(&aca_trace_lock);
	tr = aca_trace;
	if (!tr || tr->owner != file) {
		ret = -ENXIO;
		goto unlock;
	}
	per = tr->data_pages + 1;
	cpu = vma->vm_pgoff / per;
	if (!(vma->vm_flags & VM_MAYSHARE) || vma_pages(vma) != per ||
	    vma->vm_pgoff % per) {
		ret = -EINVAL;
		goto unlock;
	}
	/* The owner's reference keeps the collection (and its rings) alive. */
	if (cpu < nr_cpu_ids)
		r = aca_sampler_ring(aca_trace_coll(), array_index_nospec(cpu, nr_cpu_ids));
	if (!r) {
		ret = -ENXIO;
		goto unlock;
	}
	refcount_inc(&tr->refs);
unlock:
	spin_unlock(&aca_trace_lock);
	if (ret)
		return ret;

	for (u32 i = 0; i < r->npages && !ret; i++, addr += PAGE_SIZE)
		ret = remap_pfn_range(vma, addr, page_to_pfn(r->pages[i]),
				      PAGE_SIZE, vma->vm_page_prot);
	if (ret) {
		aca_trace_put(tr);
		return ret;
	}
	vma->vm_private_data = tr;
	vma->vm_ops = &aca_trace_vm_ops;
	return 0;
}

/* The file is going away: whatever it owns is stopped and freed. */
void aca_local_release(struct file *file)
{
	struct acp_target *t = aca_target_lock();
	struct aca_trace *tr = aca_trace_of(file);

	if (tr)
		aca_trace_disown(t, tr);
	aca_trace_reap(t);
	aca_target_unlock();
	/* A reap its last munmap() queued must not outlive the module. */
	flush_work(&aca_trace_reap_work);
}
