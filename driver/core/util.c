// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every part of the core uses: the machine's log and memory, and the
 * reply buffers of command handlers.
 */
#include "internal.h"

void acp_log(const struct acp_target *t, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	t->ops->log(t->ctx, fmt, args);
	va_end(args);
}

void *acp_zalloc(struct acp_target *t, size_t n)
{
	return t->ops->alloc(t->ctx, n);
}

void acp_free(struct acp_target *t, void *p)
{
	if (p)
		t->ops->free(t->ctx, p);
}

s32 acp_reply_copy(struct acp_reply *r, const void *p, u32 n)
{
	if (n > sizeof(r->small))
		n = sizeof(r->small);
	memcpy(r->small, p, n);
	r->data = r->small;
	r->len = n;
	return VT_SUCCESS;
}

/* A zeroed reply buffer of @n bytes the core frees once sent. */
void *acp_reply_alloc(const struct acp_cmd *cmd, struct acp_reply *r, u64 n)
{
	void *p = acp_zalloc(cmd->t, n);

	if (p) {
		r->owned = p;
		r->data = p;
		r->len = n;
	}
	return p;
}
