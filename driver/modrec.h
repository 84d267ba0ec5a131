/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Module records (modrec.c): a collection's, then a session's records,
 * their hooks (modrec_hooks.c) and the items the hooks queue for the
 * worker.
 */
#ifndef ACA_MODREC_H
#define ACA_MODREC_H

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "buildid.h"
#include "core/sep_cmd.h"

struct aca_ring;

/*
 * Module records (spec 7.3): one ring, streamed by the module data
 * channel. configure() at INIT_DRIVER writes the kernel image and modules
 * and hooks process exits, execs and munmap(), whose records a worker
 * writes; stop() at STOP asks the worker to write every live process's
 * mappings, unhook and finalize the ring, and returns at once; finish()
 * at session end cancels the worker and frees. All under aca_lock; the
 * worker never takes it. A collection holds them in a struct aca_modrecs,
 * with the last session's counts and the module_records file that shows
 * them.
 */
struct aca_mr_counts {
	u64 written, dropped, missed, nobid;
};

struct aca_modrecs {
	struct aca_modrec *cur;		/* the session's, under aca_lock */
	struct aca_mr_counts last;	/* the last session's, once it ended */
	struct module_attribute attr;	/* /sys/module/aca/module_records */
};

int aca_modrec_configure(struct aca_modrecs *m, struct delayed_work *flush);
int aca_modrec_snapshot(struct aca_modrecs *m);
void aca_modrec_stop(struct aca_modrecs *m);
void aca_modrec_finish(struct aca_modrecs *m);
struct aca_ring *aca_modrec_ring(struct aca_modrecs *m);
int aca_modrec_init(struct aca_modrecs *m);
void aca_modrec_exit(struct aca_modrecs *m);

/* ---- a session's records, shared with their hooks (modrec_hooks.c) ---- */

#define ACA_MR_MIN_PAGES	(SZ_4M >> PAGE_SHIFT)
#define ACA_MR_ITEMS		1024	/* hook events queued at once */
#define ACA_MR_UNMAP_VMAS	16	/* mappings an munmap() hook visits */
#define ACA_MR_UNMAP_CODE	4	/* code mappings it takes of those */

#define ACA_MR_BATCH		32	/* code mappings per mmap lock hold */
#define ACA_MR_STOP_S		30	/* STOP's records: written within */
#define ACA_MR_GRACE_S		5	/* then the worker's step, at most */

/* A build-id trailer, its padding included, at most. */
#define ACA_MR_BID_ROOM		ALIGN(sizeof(struct aca_mr_build_id) + \
				      ACA_MR_BUILD_ID_MAX, SEP_MR_ALIGN)

/*
 * One record being built: the fixed part, then its path (at most PATH_MAX
 * bytes of @path), its padding and its build-id.
 */
struct aca_mr_buf {
	struct sep_module_record rec;
	char path[PATH_MAX + SEP_MR_ALIGN + ACA_MR_BID_ROOM];
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

/* Whose mappings a record describes, and when they went. */
struct aca_mr_who {
	u64 unload;		/* TSC, or SEP_MR_UNLOAD_TSC_LOADED */
	u32 tgid, ppid;
	bool is64;
};

/* A code mapping an munmap() removes, as its hook took it. */
struct aca_mr_map {
	struct file *file;	/* a reference; NULL: the vDSO */
	unsigned long start, end;
	u64 off;
	bool exe;
};

/* What one hook took for the worker: an mm, or the maps of an munmap(). */
struct aca_mr_item {
	struct list_head node;	/* on the free list or the queue */
	struct aca_mr_who who;
	struct mm_struct *mm;	/* exit, exec: a reference on mm_users */
	u32 nmaps;		/* munmap(): maps[] taken */
	struct aca_mr_map maps[ACA_MR_UNMAP_CODE];
};

struct aca_modrec {
	struct aca_ring *ring;
	struct aca_mr_buf *buf;			/* the producer's */
	struct aca_mr_hook hooks[ACA_NHOOKS];	/* the worker or finish() unhooks */
	raw_spinlock_t lock;			/* free and queued */
	struct list_head free, queued;
	struct aca_mr_item *items;
	struct work_struct work;
	struct delayed_work watchdog;		/* STOP's end if the worker is stuck */
	spinlock_t wlock;			/* a record written, or the end */
	bool ended;				/* under wlock: the ring is final */
	bool stop;				/* STOP asked, under aca_lock */
	bool done;				/* the worker's: STOP's work is */
	bool cancel;				/* finish(): the worker gives up */
	unsigned long late;			/* STOP's: jiffies past which it gives up */
	bool snap;				/* the kick's: walk; the worker takes it */
	unsigned long snap_next;		/* under aca_lock: no kick before */
	struct delayed_work snap_kick;		/* a snapshot asked: its walk's turn */
	struct delayed_work *flush;		/* the collection's flush timer */
	atomic64_t missed;			/* see the top */
	atomic64_t nobid;			/* build-ids not looked for: no page */
	/* The worker's: an mm's mappings taken under its lock, to write. */
	struct aca_mr_map batch[ACA_MR_BATCH];
	u32 nbatch;
	struct aca_buildid_cache bids;		/* the worker's, for one run */
};

#endif /* ACA_MODREC_H */
