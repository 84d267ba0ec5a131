// SPDX-License-Identifier: GPL-2.0-only
/* TEMPORARY shim until the core provides these. */
#include "aca.h"

bool acp_conn_stream(struct acp_conn *c, u32 *chan)
{
	struct aca_ring *r;
	const void *p;
	size_t n;

	if (c->role != ACP_ROLE_DATA || c->channel >= c->t->ncpus)
		return false;
	r = aca_sampler_ring(c->channel);
	n = acp_conn_peek(c, &p);
	if (!r || !n || (const u8 *)p < r->data || (const u8 *)p >= r->data + r->size)
		return false;
	*chan = c->channel;
	return true;
}

struct aca_ring *aca_channel_ring(u32 chan)
{
	return aca_sampler_ring(chan);
}
