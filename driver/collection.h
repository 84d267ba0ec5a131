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

#include "hotplug.h"
#include "modrec.h"

struct acp_config;
struct aca_ring;
struct aca_sampling;
struct aca_uncore;
struct dentry;

/*
 * Its lock is aca_lock (target.h): every acp_ops call runs under it, and
 * every worker below takes it; the session's parts change only under it.
 */
struct aca_collection {
	/*
	 * The session's sampling (sampler.h): it changes under aca_lock and
	 * additionally under @sampling_lock, so the collection file reads it
	 * under @sampling_lock alone.
	 */
	struct mutex sampling_lock;
	struct aca_sampling *sampling;
	struct aca_hotplug hp;		/* CPU hotplug and the watch */
	struct irq_work mux_kick;	/* multiplexing: the handler's kick, */
	struct delayed_work mux;	/* and the switch work */
	struct delayed_work emon;	/* counting mode's EMON timer */
	struct dentry *debugfs;		/* /sys/kernel/debug/aca (collection_file.c) */
#ifdef ACA_TEST_HOOKS
	atomic_t started;		/* STARTs that succeeded since load (inject.c) */
#endif
	struct aca_modrecs mr;		/* the module records (modrec.c) */
	struct aca_uncore *unc;		/* uncore counting (uncore.c), under aca_lock */
	u32 cpu_chans;			/* N of the configured session (0: none), under aca_lock */
	/*
	 * The flush timer's view of the channels' rings (NULL: no session),
	 * under @flush_lock, not aca_lock (collection.c).
	 */
	spinlock_t flush_lock;
	struct aca_ring **flush_rings;
	u32 flush_nrings;
	struct delayed_work flush;
	/*
	 * The session's flush period (flush_ms, set at INIT_DRIVER) and
	 * whether its transfer is delayed (no timer: nothing streams before
	 * STOP; set when the session begins), under aca_lock; the timer reads
	 * them.
	 */
	unsigned long flush_period;	/* jiffies */
	bool delayed;
};

/*
 * Created at load, the ctx of every acp_ops call; the ring behind data
 * channel @chan (spec 3.1 order), or NULL, under aca_lock; and the
 * session's acp_ops entry points that are the collection's.
 */
struct aca_collection *aca_collection_create(void);
void aca_collection_destroy(struct aca_collection *coll);
struct aca_ring *aca_channel_ring(struct aca_collection *coll, u32 chan);
size_t aca_collection_peek(void *ctx, u32 chan, const void **p);
void aca_collection_consume(void *ctx, u32 chan, size_t n);
bool aca_collection_final(void *ctx, u32 chan);
int aca_collection_configure(void *ctx, const struct acp_config *cfg);
int aca_collection_start(void *ctx, const struct acp_config *cfg, bool paused);
void aca_collection_pause(void *ctx, bool pause);
void aca_collection_stop(void *ctx);
void aca_collection_finalize(void *ctx);
int aca_collection_module_snapshot(void *ctx);
void aca_collection_finish(void *ctx);
bool aca_collection_delayed(void *ctx);

#endif /* ACA_COLLECTION_H */
