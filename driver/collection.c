// SPDX-License-Identifier: GPL-2.0-only
/*
 * A session's collection as its data channels see it: channel @chan in
 * spec 3.1 order reads CPU @chan's sample ring (sampler.c) for chan < N,
 * the module-record ring (modrec.c) for chan == N + 1, and nothing for the
 * uncore channel N. This is the one place that maps channels to rings.
 * The session's calls (acp_ops configure, flush, finish) arrive under the
 * device's lock; a data channel's file binds its ring once it streams and
 * then reads it without that lock (device.c).
 */
#include <linux/compiler.h>

#include "aca.h"

/* N of the configured session (0: none), under aca_lock. */
static u32 aca_cpu_chans;

struct aca_ring *aca_channel_ring(u32 chan)
{
	lockdep_assert_held(&aca_lock);
	if (chan < aca_cpu_chans)
		return aca_sampler_ring(chan);
	if (aca_cpu_chans && chan == aca_cpu_chans + 1)
		return aca_modrec_ring();
	return NULL;
}

/*
 * The core's view of a channel's unread bytes: whether a data channel is
 * readable, and drained before STOP answers. The bytes themselves go to
 * the channel's reader from its bound ring.
 */
size_t aca_collection_peek(void *ctx, u32 chan, const void **p)
{
	struct aca_ring *r = aca_channel_ring(chan);

	return r ? aca_ring_peek(r, p) : 0;
}

void aca_collection_consume(void *ctx, u32 chan, size_t n)
{
	struct aca_ring *r = aca_channel_ring(chan);

	if (r)
		aca_ring_consume(r, n);
}

/* INIT_DRIVER: the sample rings, then the module records. */
int aca_collection_configure(void *ctx, const struct acp_config *cfg)
{
	int ret;

	lockdep_assert_held(&aca_lock);
	ret = aca_sampler_configure(ctx, cfg);
	if (ret)
		return ret;
	ret = aca_modrec_configure();
	if (ret) {
		aca_sampler_finish(ctx);
		return ret;
	}
	aca_cpu_chans = cfg->ncpus;
	return 0;
}

/*
 * STOP, counters stopped: the module records of every live process, after
 * which no ring gets anything more; a reader that empties its ring now
 * tells the session (aca_ring_drained()).
 */
void aca_collection_flush(void *ctx)
{
	struct aca_ring *r;

	aca_modrec_stop();
	for (u32 chan = 0; chan <= aca_cpu_chans + 1; chan++) {
		r = aca_channel_ring(chan);
		if (r)
			aca_ring_finalize(r);
	}
}

void aca_collection_finish(void *ctx)
{
	lockdep_assert_held(&aca_lock);
	aca_cpu_chans = 0;
	aca_modrec_finish();
	aca_sampler_finish(ctx);
}

bool aca_collection_delayed(void *ctx)
{
	return READ_ONCE(aca_delayed_transfer);
}
