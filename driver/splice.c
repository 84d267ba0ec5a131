// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ring pages to a pipe by reference: what a data channel's splice_read
 * gives aca-relay, which splices the pipe on into its TCP socket. No byte
 * is copied; each pipe buffer, and later each socket buffer, holds its own
 * reference on the ring page, and the producer does not rewrite a page
 * until those are gone (ring.c explains when it checks).
 */
#include <linux/mm.h>
#include <linux/pipe_fs_i.h>
#include <linux/splice.h>

#include "ring.h"
#include "splice.h"

/* One splice call hands out at most this many pages. */
#define ACA_SPLICE_PAGES	16

/* Pages the pipe had no room for. */
static void aca_spd_release(struct splice_pipe_desc *spd, unsigned int i)
{
	put_page(spd->pages[i]);
}

/*
 * Give the pipe up to @len unread bytes of @r, contiguous from the tail,
 * one buffer per page touched. Returns the bytes the pipe took (the
 * caller consumes exactly those), 0 if none are unread, or -EAGAIN if the
 * pipe is full. The caller is @r's one consumer (it holds its file's read
 * lock) and holds the pipe's lock.
 */
ssize_t aca_ring_to_pipe(struct aca_ring *r, struct pipe_inode_info *pipe,
			 size_t len)
{
	struct page *pages[ACA_SPLICE_PAGES];
	struct partial_page partial[ACA_SPLICE_PAGES];
	struct splice_pipe_desc spd = {
		.pages = pages,
		.partial = partial,
		.nr_pages_max = ACA_SPLICE_PAGES,
		/*
		 * The kernel's own ops, not ours: a pipe may outlive this
		 * module, and its buffers call their ops when released. No
		 * try_steal, so a ring page is never stolen.
		 */
		.ops = &nosteal_pipe_buf_ops,
		.spd_release = aca_spd_release,
	};
	const void *p;
	size_t avail = aca_ring_peek(r, &p);
	size_t off = (const u8 *)p - r->data;

	avail = min(avail, len);
	while (avail && spd.nr_pages < ACA_SPLICE_PAGES) {
		size_t in = offset_in_page(off);
		size_t n = min_t(size_t, avail, PAGE_SIZE - in);
		struct page *page = r->pages[1 + (off >> PAGE_SHIFT)];

		get_page(page);
		pages[spd.nr_pages] = page;
		partial[spd.nr_pages].offset = in;
		partial[spd.nr_pages].len = n;
		partial[spd.nr_pages].private = 0;
		spd.nr_pages++;
		off += n;
		avail -= n;
	}
	return spd.nr_pages ? splice_to_pipe(pipe, &spd) : 0;
}
