// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU sample rings. One producer, the perf overflow handler of that
 * CPU (NMI or hard-IRQ context), and one consumer, the reader of the CPU's
 * data channel (process context, under the module's lock).
 *
 * Layout: one header page, then a power-of-two number of data pages,
 * allocated one by one (pages[]) and vmap()ed contiguously for the kernel,
 * so the ring can be mapped to userspace and its pages handed to splice by
 * reference without changing the format.
 *
 * Memory-ordering contract (head and tail are free-running byte counts,
 * taken modulo the data size only to address bytes):
 *  - head is written only by the producer, after the record bytes, with
 *    smp_store_release(); the consumer reads it with smp_load_acquire(), so
 *    it never sees head cover bytes that are not written yet.
 *  - tail is written only by the consumer, after it has copied the bytes
 *    out, with smp_store_release(); the producer reads it with
 *    smp_load_acquire() before reusing space, so it never overwrites bytes
 *    still being read.
 *  - Wake-ups are batched, to disturb the sampled CPU as little as
 *    possible: the producer asks for one each time head crosses a quarter
 *    of the ring, and the sampler's flush timer wakes the reader of any
 *    ring with unread bytes every ACA_FLUSH_MS (sampler.c). A record is
 *    therefore read within one flush period, and a busy ring well before
 *    it fills.
 *  - lost and written are only ever changed on the ring's own CPU (local64
 *    operations, safe against an interrupting producer); other CPUs read
 *    them as snapshots, exact once sampling has stopped.
 *
 * Pages handed out by reference (splice.c gives ring pages to a pipe, and
 * from there the network stack keeps them until the peer ACKs): consuming
 * bytes frees their space in the ring, but not yet their page. So the
 * producer, when it first enters a page in a lap, requires that page to be
 * wholly consumed (no byte of the last lap left to read, so none can be
 * handed out after this check) and to hold no reference but the ring's own
 * (page_ref_count() == 1; userspace mappings are PFN maps, which take
 * none). Later references to the page can then only be to bytes of this
 * lap, below head, which the producer never rewrites in this lap. A record
 * that would enter a page still held is dropped and counted (lost, and
 * held for the reason), like a record that finds the ring full.
 */
#include <asm/local.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>

#include "aca.h"

static void aca_ring_free_pages(struct aca_ring *r)
{
	for (u32 i = 0; i < r->npages; i++)
		if (r->pages[i])
			__free_page(r->pages[i]);
	kvfree(r->pages);
}

struct aca_ring *aca_ring_alloc(unsigned int data_pages)
{
	struct aca_ring *r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);

	if (!r)
		return NULL;
	r->npages = data_pages + 1;
	r->pages = kvcalloc(r->npages, sizeof(*r->pages), GFP_KERNEL_ACCOUNT);
	if (!r->pages)
		goto fail;
	for (u32 i = 0; i < r->npages; i++) {
		r->pages[i] = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		if (!r->pages[i])
			goto fail;
	}
	r->hdr = vmap(r->pages, r->npages, VM_MAP, PAGE_KERNEL);
	if (!r->hdr)
		goto fail;
	r->data = (u8 *)r->hdr + PAGE_SIZE;
	r->size = (u64)data_pages << PAGE_SHIFT;
	local_set(&r->busy, 0);
	return r;
fail:
	if (r->pages)
		aca_ring_free_pages(r);
	kfree(r);
	return NULL;
}

/* Pages still held by a pipe or a socket keep their own reference. */
void aca_ring_free(struct aca_ring *r)
{
	if (!r)
		return;
	vunmap(r->hdr);
	aca_ring_free_pages(r);
	kfree(r);
}

/*
 * Producer: add one record of @len bytes, @rec followed by zeros. Returns
 * true when the reader should be woken. NMI-safe: no locks, no allocation.
 * A producer interrupting another on the same CPU (only possible with
 * mixed event kinds, e.g. a PMI during the cpu-clock hrtimer, which aca
 * never programs together) finds the ring busy: its record is counted
 * lost rather than interleaved.
 */
/* Every page [head, head + len) enters is free to rewrite (see above). */
static bool aca_ring_may_enter(struct aca_ring *r, u64 head, u64 tail, u32 len)
{
	u64 pg = (head + PAGE_SIZE - 1) >> PAGE_SHIFT;
	u64 last = (head + len - 1) >> PAGE_SHIFT;
	u64 mask = (r->size >> PAGE_SHIFT) - 1;

	for (; pg <= last; pg++) {
		/* All of the last lap's bytes in this page are consumed... */
		if (tail + r->size < (pg + 1) << PAGE_SHIFT)
			return false;
		/* ...and nothing outside the ring still holds the page. */
		if (page_ref_count(r->pages[1 + (pg & mask)]) != 1) {
			local64_inc(&r->held);
			return false;
		}
	}
	return true;
}

bool aca_ring_write(struct aca_ring *r, const void *rec, u32 rec_len, u32 len)
{
	struct aca_ring_header *h = r->hdr;
	u64 head, tail, off, quarter = r->size / 4;
	u32 first, i;

	if (local_cmpxchg(&r->busy, 0, 1) != 0) {
		local64_inc(&h->lost);
		return false;
	}
	head = h->head;		/* ours alone */
	/* Pairs with the release in aca_ring_consume(): space is free. */
	tail = smp_load_acquire(&h->tail);
	/* tail may come from a userspace mapping: a bad one means "full". */
	if (head - tail > r->size || r->size - (head - tail) < len ||
	    !aca_ring_may_enter(r, head, tail, len)) {
		local64_inc(&h->lost);
		local_set(&r->busy, 0);
		return false;
	}
	/* Copy @rec then zeros, in at most two pieces around the end. */
	for (i = 0; i < len; i += first) {
		off = (head + i) & (r->size - 1);
		first = min_t(u64, len - i, r->size - off);
		if (i < rec_len) {
			first = min(first, rec_len - i);
			memcpy(r->data + off, (const u8 *)rec + i, first);
		} else {
			memset(r->data + off, 0, first);
		}
	}
	/* Publish the bytes: pairs with the acquire in aca_ring_peek(). */
	smp_store_release(&h->head, head + len);
	local64_inc(&h->written);
	local_set(&r->busy, 0);
	return head / quarter != (head + len) / quarter;
}

/* Consumer: the unread bytes that are contiguous at *@p. */
size_t aca_ring_peek(struct aca_ring *r, const void **p)
{
	struct aca_ring_header *h = r->hdr;
	u64 head, tail = h->tail;	/* tail is ours alone */
	u64 off = tail & (r->size - 1);

	/* Pairs with the release in aca_ring_write(): the bytes are there. */
	head = smp_load_acquire(&h->head);
	*p = r->data + off;
	return min_t(u64, head - tail, r->size - off);
}

void aca_ring_consume(struct aca_ring *r, size_t n)
{
	struct aca_ring_header *h = r->hdr;

	/* Done with the bytes: pairs with the acquire in aca_ring_write(). */
	smp_store_release(&h->tail, h->tail + n);
}

/* Unread bytes, as a snapshot (the flush timer's question). */
bool aca_ring_pending(struct aca_ring *r)
{
	/* Pairs with the release in aca_ring_write(). */
	return smp_load_acquire(&r->hdr->head) != READ_ONCE(r->hdr->tail);
}

void aca_ring_counts(struct aca_ring *r, u64 *written, u64 *lost)
{
	*written = local64_read(&r->hdr->written);
	*lost = local64_read(&r->hdr->lost);
}
