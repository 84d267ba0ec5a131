/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A collection (collection.c): what a session collects with, one object
 * for the module's life, created before /dev/aca exists and freed after it
 * is gone. It is the ctx of every acp_ops call (ops.c), and its timers
 * and work items find it from themselves (container_of()). The session's
 * parts (the sampling, the module records, the uncore counters, the
 * channels' view of them) come at INIT_DRIVER and go at its end.
 */
#ifndef ACA_COLLECTION_H
#define ACA_COLLECTION_H

#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "aca.h"
#include "hotplug.h"

struct aca_sampling;
struct aca_uncore;
struct dentry;

struct aca_collection {
	/*
	 * aca_lock (target.c): every acp_ops call runs under it, and every
	 * worker below takes it; the session's parts change only under it.
	 */
	struct mutex *lock;
	/*
	 * The session's sampling (sampler.h): it changes under @lock and
	 * additionally under @sampling_lock, so the collection file reads it
	 * under @sampling_lock alone.
	 */
	struct mutex sampling_lock;
	struct aca_sampling *smp;
	struct aca_hotplug hp;		/* CPU hotplug and the watch */
	struct irq_work mux_kick;	/* multiplexing: the handler's kick, */
	struct delayed_work mux;	/* and the switch work */
	struct delayed_work emon;	/* counting mode's EMON timer */
	struct dentry *debugfs;		/* /sys/kernel/debug/aca (collection_file.c) */
#ifdef ACA_TEST_HOOKS
	atomic_t started;		/* STARTs that succeeded since load (inject.c) */
#endif
	struct aca_modrecs mr;		/* the module records (modrec.c) */
	struct aca_uncore *unc;		/* uncore counting (uncore.c), under @lock */
	u32 cpu_chans;			/* N of the configured session (0: none), under @lock */
	/*
	 * The flush timer's view of the channels' rings (NULL: no session),
	 * under @flush_lock, not @lock (collection.c).
	 */
	spinlock_t flush_lock;
	struct aca_ring **flush_rings;
	u32 flush_nrings;
	struct delayed_work flush;
	/*
	 * The session's flush period (flush_ms, set at INIT_DRIVER) and
	 * whether its transfer is delayed (no timer: nothing streams before
	 * STOP; set when the session begins), under @lock; the timer reads
	 * them.
	 */
	unsigned long flush_period;	/* jiffies */
	bool delayed;
};

#endif /* ACA_COLLECTION_H */
