// SPDX-License-Identifier: GPL-2.0-only
/*
 * A session's collection as its data channels see it: channel @chan in
 * spec 3.1 order reads CPU @chan's sample ring (sampler.c) for chan < N,
 * the uncore ring (uncore.c) for chan == N, the module-record ring
 * (modrec.c) for chan == N + 1 (neither in counting mode, and no uncore
 * ring on a target without uncore PMUs). This is the one place that maps
 * channels to rings.
 * The session's calls (acp_ops configure, flush, finish) arrive under the
 * device's lock; a data channel's file binds its ring once it streams and
 * then reads it without that lock (device.c).
 */
#include <linux/compiler.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "aca.h"

/* N of the configured session (0: none), under aca_lock. */
static u32 aca_cpu_chans;

/*
 * Readers read in batches (see ring.c): when their ring's producer has a
 * quarter of it unread, and when this timer, every ACA_FLUSH_MS from
 * INIT_DRIVER to the session's end, flushes every channel ring with unread
 * bytes (the module records' too). Reading on every sample would cost the
 * sampled CPU an IPI and a context switch per sample, and the reader a
 * hand-off per record. The timer sees the rings through aca_flush_rings,
 * under aca_flush_lock, not aca_lock.
 */
#define ACA_FLUSH_MS		1000
static DEFINE_SPINLOCK(aca_flush_lock);
static struct aca_ring **aca_flush_rings;	/* NULL: no collection */
static u32 aca_flush_nrings;

static void aca_flush_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(aca_flush, aca_flush_fn);

static void aca_flush_fn(struct work_struct *work)
{
	struct aca_ring *r;
	bool again;

	spin_lock(&aca_flush_lock);
	for (u32 i = 0; aca_flush_rings && i < aca_flush_nrings; i++) {
		r = aca_flush_rings[i];
		if (r && aca_ring_pending(r))
			aca_ring_flush(r);
	}
	again = aca_flush_rings;
	spin_unlock(&aca_flush_lock);
	if (again)
		schedule_delayed_work(&aca_flush, msecs_to_jiffies(ACA_FLUSH_MS));
}

/* The timer's view of the channels' rings: @rings (or none), swapped. */
static struct aca_ring **aca_flush_set(struct aca_ring **rings, u32 n)
{
	struct aca_ring **old;

	spin_lock(&aca_flush_lock);
	old = aca_flush_rings;
	aca_flush_rings = rings;
	aca_flush_nrings = n;
	spin_unlock(&aca_flush_lock);
	return old;
}

/* The channels' rings of the configured session, for the flush timer. */
static void aca_flush_begin(void)
{
	u32 n = aca_cpu_chans + 2;
	struct aca_ring **rings = kcalloc(n, sizeof(*rings), GFP_KERNEL);

	/* Without it, rings are read at each quarter and after STOP. */
	if (!rings)
		return;
	for (u32 chan = 0; chan < n; chan++)
		rings[chan] = aca_channel_ring(chan);
	kfree(aca_flush_set(rings, n));
	schedule_delayed_work(&aca_flush, msecs_to_jiffies(ACA_FLUSH_MS));
}

struct aca_ring *aca_channel_ring(u32 chan)
{
	lockdep_assert_held(&aca_lock);
	if (chan < aca_cpu_chans)
		return aca_sampler_ring(chan);
	if (aca_cpu_chans && chan == aca_cpu_chans)
		return aca_uncore_ring();
	if (aca_cpu_chans && chan == aca_cpu_chans + 1)
		return aca_modrec_ring();
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
	struct aca_ring *r = aca_channel_ring(chan);

	return r && aca_ring_due(r) ? aca_ring_peek(r, p) : 0;
}

void aca_collection_consume(void *ctx, u32 chan, size_t n)
{
	struct aca_ring *r = aca_channel_ring(chan);

	if (r)
		aca_ring_consume(r, n);
}

/*
 * Whether a channel's ring will get nothing more: for the CPU and uncore
 * rings from STOP on (flush below), for the module records once their
 * worker has written STOP's (modrec.c), which is later. No ring: nothing
 * to wait for.
 */
bool aca_collection_final(void *ctx, u32 chan)
{
	struct aca_ring *r = aca_channel_ring(chan);

	return !r || aca_ring_final(r);
}

/*
 * INIT_DRIVER: the sample rings, then the module records, which only
 * samples need: in counting mode the module channel, like the uncore one,
 * has no ring (nothing streams, it ends at STOP) and no process is hooked.
 */
int aca_collection_configure(void *ctx, const struct acp_config *cfg)
{
	int ret;

	lockdep_assert_held(&aca_lock);
	ret = aca_sampler_configure(ctx, cfg);
	if (ret)
		return ret;
	ret = acp_counting_mode(cfg) ? 0 : aca_modrec_configure();
	if (ret)
		goto err_sampler;
	ret = aca_uncore_configure(cfg);
	if (ret)
		goto err_modrec;
	aca_cpu_chans = cfg->ncpus;
	aca_flush_begin();
	return 0;

err_modrec:
	aca_modrec_finish();
err_sampler:
	aca_sampler_finish(ctx);
	return ret;
}

/* START: the core events, then the uncore ones; both or neither. */
int aca_collection_start(void *ctx, const struct acp_config *cfg, bool paused)
{
	int ret;

	lockdep_assert_held(&aca_lock);
	ret = aca_sampler_start(ctx, cfg, paused);
	if (ret)
		return ret;
	ret = aca_uncore_start(cfg, paused);
	if (ret)
		aca_sampler_stop(ctx);
	return ret;
}

void aca_collection_pause(void *ctx, bool pause)
{
	lockdep_assert_held(&aca_lock);
	aca_sampler_pause(ctx, pause);
	aca_uncore_pause(pause);
}

/*
 * STOP, counters stopped: the CPU rings get nothing more. The module
 * records' worker is asked for STOP's records and finalizes their ring
 * once the last is written (modrec.c), after this returns: until then the
 * core holds STOP's answer (aca_collection_final()). Whoever sees a final
 * ring empty tells the session: its reader after a read, or its file on
 * the finalize's wake-up (device.c).
 */
void aca_collection_flush(void *ctx)
{
	struct aca_ring *r;

	lockdep_assert_held(&aca_lock);
	aca_modrec_stop();
	aca_uncore_stop();
	for (u32 chan = 0; chan < aca_cpu_chans; chan++) {
		r = aca_channel_ring(chan);
		if (r)
			aca_ring_finalize(r);
	}
}

void aca_collection_finish(void *ctx)
{
	lockdep_assert_held(&aca_lock);
	/* Before the rings go; the timer stops by itself. */
	kfree(aca_flush_set(NULL, 0));
	aca_cpu_chans = 0;
	aca_uncore_finish();
	aca_modrec_finish();
	aca_sampler_finish(ctx);
}

bool aca_collection_delayed(void *ctx)
{
	return READ_ONCE(aca_delayed_transfer);
}

/* Module unload: no session; the last flush is done. */
void aca_collection_exit(void)
{
	cancel_delayed_work_sync(&aca_flush);
}
