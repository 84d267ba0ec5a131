// SPDX-License-Identifier: GPL-2.0-only
/*
 * A session's collection (collection.h) as its data channels see it:
 * channel @chan in spec 3.1 order reads CPU @chan's sample ring (sampler.c)
 * for chan < N, the uncore ring (uncore.c) for chan == N, the
 * module-record ring (modrec.c) for chan == N + 1 (neither in counting
 * mode, and no uncore ring on a target without uncore PMUs). This is the
 * one place that maps channels to rings.
 * The session's calls (acp_ops configure, start, stop, finalize,
 * module_snapshot, finish) arrive under aca_lock (target.h), the
 * collection's; a data channel's file binds its ring once it streams and
 * then reads it without that lock (device.c).
 */
#include <linux/compiler.h>
#include <linux/lockdep.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "collection.h"
#include "core/core.h"
#include "inject.h"
#include "modrec.h"
#include "params.h"
#include "ring.h"
#include "sampler.h"
#include "target.h"
#include "uncore.h"

/*
 * Readers read in batches (see ring.c): when their ring's producer has a
 * quarter of it unread, and when this timer, every flush_ms (params.c)
 * from INIT_DRIVER to the session's end, flushes every channel ring with
 * unread bytes (the module records' too). Reading on every sample would
 * cost the sampled CPU an IPI and a context switch per sample, and the
 * reader a hand-off per record; the period bounds how long a record waits
 * for its read (selftests/vm/latency: within 100 ms of being taken, at the
 * default 50), and costs a read per ring and period. In delayed transfer
 * nothing streams before STOP, whose finalize wakes the readers: no timer.
 * The timer sees the rings through flush_rings, under flush_lock, not
 * aca_lock.
 */

static void aca_flush_fn(struct work_struct *work)
{
	struct aca_collection *coll = container_of(to_delayed_work(work),
						   struct aca_collection, flush);
	struct aca_ring *r;
	bool again;

	spin_lock(&coll->flush_lock);
	for (u32 i = 0; coll->flush_rings && i < coll->flush_nrings; i++) {
		r = coll->flush_rings[i];
		if (r && aca_ring_pending(r))
			aca_ring_flush(r);
	}
	again = coll->flush_rings && !READ_ONCE(coll->delayed);
	spin_unlock(&coll->flush_lock);
	if (again)
		schedule_delayed_work(&coll->flush, READ_ONCE(coll->flush_period));
}

/* The timer's view of the channels' rings: @rings (or none), swapped. */
static struct aca_ring **aca_flush_set(struct aca_collection *coll,
				       struct aca_ring **rings, u32 n)
{
	struct aca_ring **old;

	spin_lock(&coll->flush_lock);
	old = coll->flush_rings;
	coll->flush_rings = rings;
	coll->flush_nrings = n;
	spin_unlock(&coll->flush_lock);
	return old;
}

/*
 * The channels' rings of the configured session, for the flush timer, and
 * its period; the timer (re)started from now, not from a previous
 * session's last period, which may still be pending. Without the rings'
 * list no flush would bound a record's wait: INIT_DRIVER fails instead.
 */
static int aca_flush_begin(struct aca_collection *coll)
{
	u32 n = coll->cpu_chans + 2;
	struct aca_ring **rings = kcalloc(n, sizeof(*rings), GFP_KERNEL);

	if (!rings)
		return -ENOMEM;
	for (u32 chan = 0; chan < n; chan++)
		rings[chan] = aca_channel_ring(coll, chan);
	WRITE_ONCE(coll->flush_period,
		   max(msecs_to_jiffies(READ_ONCE(aca_flush_ms)), 1UL));
	kfree(aca_flush_set(coll, rings, n));
	if (!coll->delayed)
		mod_delayed_work(system_wq, &coll->flush, coll->flush_period);
	return 0;
}

struct aca_ring *aca_channel_ring(struct aca_collection *coll, u32 chan)
{
	u32 n = coll->cpu_chans;

	lockdep_assert_held(&aca_lock);
	if (chan < n)
		return aca_sampler_ring(coll, chan);
	if (n && chan == n)
		return aca_uncore_ring(coll->unc);
	if (n && chan == n + 1)
		return aca_modrec_ring(&coll->mr);
	return NULL;
}

/*
 * The core's view of a channel's unread bytes, once a read of them is due
 * (ring.c; a final ring's always are): whether a data channel is readable,
 * and drained before STOP answers. The bytes themselves go to the
 * channel's reader from its bound ring.
 */
size_t aca_collection_peek(void *ctx, u32 chan, const void **p)
{
	struct aca_ring *r = aca_channel_ring(ctx, chan);

	return r && aca_ring_due(r) ? aca_ring_peek(r, p) : 0;
}

void aca_collection_consume(void *ctx, u32 chan, size_t n)
{
	struct aca_ring *r = aca_channel_ring(ctx, chan);

	if (r)
		aca_ring_consume(r, n);
}

/*
 * Whether a channel's ring will get nothing more: for the CPU and uncore
 * rings from STOP on (finalize below), for the module records once their
 * worker has written STOP's (modrec.c), which is later. No ring: nothing
 * to wait for.
 */
bool aca_collection_final(void *ctx, u32 chan)
{
	struct aca_ring *r = aca_channel_ring(ctx, chan);

	return !r || aca_ring_final(r);
}

/*
 * INIT_DRIVER: the sample rings, then the module records, which only
 * samples need: in counting mode the module channel, like the uncore one,
 * has no ring (nothing streams, it ends at STOP) and no process is hooked.
 */
int aca_collection_configure(void *ctx, const struct acp_config *cfg)
{
	struct aca_collection *coll = ctx;
	int ret;

	lockdep_assert_held(&aca_lock);
	ret = aca_sampler_configure(coll, cfg);
	if (ret)
		return ret;
	ret = acp_counting_mode(cfg) ? 0 : aca_modrec_configure(&coll->mr, &coll->flush);
	if (ret)
		goto err_sampler;
	ret = aca_uncore_configure(&coll->unc, cfg);
	if (ret)
		goto err_modrec;
	coll->cpu_chans = cfg->ncpus;
	ret = aca_flush_begin(coll);
	if (ret)
		goto err_uncore;
	return 0;

err_uncore:
	coll->cpu_chans = 0;
	aca_uncore_finish(&coll->unc);
err_modrec:
	aca_modrec_finish(&coll->mr);
err_sampler:
	aca_sampler_finish(coll);
	return ret;
}

/* START: the core events, then the uncore ones; both or neither. */
int aca_collection_start(void *ctx, const struct acp_config *cfg, bool paused)
{
	struct aca_collection *coll = ctx;
	int ret;

	lockdep_assert_held(&aca_lock);
	ret = aca_sampler_start(coll, cfg, paused);
	if (ret)
		return ret;
	ret = aca_uncore_start(coll->unc, cfg, paused);
	if (ret) {
		aca_sampler_stop(coll);
		return ret;
	}
	aca_inject_started(coll);
	return 0;
}

/* STOP: nothing samples any more (sampler.c); the uncore stops at finalize. */
void aca_collection_stop(void *ctx)
{
	aca_sampler_stop(ctx);
}

void aca_collection_pause(void *ctx, bool pause)
{
	struct aca_collection *coll = ctx;

	lockdep_assert_held(&aca_lock);
	aca_sampler_pause(coll, pause);
	aca_uncore_pause(coll->unc, pause);
}

/*
 * STOP's end, counters stopped: the CPU rings get nothing more. The module
 * records' worker is asked for STOP's records and finalizes their ring
 * once the last is written (modrec.c), after this returns: until then the
 * core holds STOP's answer (aca_collection_final()). Whoever sees a final
 * ring empty tells the session: its reader after a read, or its file on
 * the finalize's wake-up (device.c).
 */
void aca_collection_finalize(void *ctx)
{
	struct aca_collection *coll = ctx;
	struct aca_ring *r;

	lockdep_assert_held(&aca_lock);
	aca_modrec_stop(&coll->mr);
	aca_uncore_stop(coll->unc);
	for (u32 chan = 0; chan < coll->cpu_chans; chan++) {
		r = aca_channel_ring(coll, chan);
		if (r)
			aca_ring_finalize(r);
	}
}

/*
 * [ACA-EXT] MODULE_SNAPSHOT, while sampling or paused: the module records'
 * worker describes every live process soon (modrec.c). -ENODATA in
 * counting mode, which has no module records.
 */
int aca_collection_module_snapshot(void *ctx)
{
	struct aca_collection *coll = ctx;

	lockdep_assert_held(&aca_lock);
	return aca_modrec_snapshot(&coll->mr);
}

void aca_collection_finish(void *ctx)
{
	struct aca_collection *coll = ctx;

	lockdep_assert_held(&aca_lock);
	/* Before the rings go; the timer stops by itself. */
	kfree(aca_flush_set(coll, NULL, 0));
	coll->cpu_chans = 0;
	aca_uncore_finish(&coll->unc);
	aca_modrec_finish(&coll->mr);
	aca_sampler_finish(coll);
}

/*
 * When a session begins (its control connects): its transfer mode, which
 * the flush timer follows from INIT_DRIVER on.
 */
bool aca_collection_delayed(void *ctx)
{
	struct aca_collection *coll = ctx;

	WRITE_ONCE(coll->delayed, READ_ONCE(aca_delayed_transfer));
	return coll->delayed;
}

/*
 * Module load: the collection, before /dev/aca exists (main.c). Its lock
 * is the target's, aca_lock (target.h).
 */
struct aca_collection *aca_collection_create(void)
{
	struct aca_collection *coll = kzalloc(sizeof(*coll), GFP_KERNEL);
	int ret;

	if (!coll)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&coll->flush_lock);
	INIT_DELAYED_WORK(&coll->flush, aca_flush_fn);
	ret = aca_sampler_init(coll);
	if (ret)
		goto err_free;
	ret = aca_modrec_init(&coll->mr);
	if (ret)
		goto err_sampler;
	return coll;

err_sampler:
	aca_sampler_exit(coll);
err_free:
	kfree(coll);
	return ERR_PTR(ret);
}

/* Module unload, after the device is gone: no session; the last flush is done. */
void aca_collection_destroy(struct aca_collection *coll)
{
	cancel_delayed_work_sync(&coll->flush);
	aca_modrec_exit(&coll->mr);
	aca_sampler_exit(coll);
	kfree(coll);
}
