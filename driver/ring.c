// SPDX-License-Identifier: GPL-2.0-only
/*
 * Data channel rings: a CPU's samples, the module records, or the uncore
 * records. One producer at a time (the perf overflow handler of that CPU,
 * in NMI or hard-IRQ context, or where an [ACA-EXT] software event fires,
 * preemption off; nested writes are lost, below; in counting mode, where
 * nothing samples, the [ACA-EXT] EMON timer's reads under aca_lock, in
 * process context on any CPU, and STOP's last one; for the module records,
 * INIT_DRIVER and then only their worker; for the uncore records, their
 * worker and then STOP once it is cancelled; both in process context) and
 * one consumer (the reader of the data
 * channel bound to the ring, process context, under its file's read lock;
 * or a local trace's mapping).
 *
 * Layout: one header page, then a power-of-two number of data pages,
 * allocated one by one (pages[]) and vmap()ed contiguously for the kernel,
 * so the ring can be mapped to userspace and its pages handed to splice by
 * reference without changing the format.
 *
 * What the kernel believes: the header page is mapped read-write by a
 * local trace's owner (local.c), who writes tail there and may write
 * anything else. So head, written and lost live in struct aca_ring, the
 * producer's alone, and the header gets copies of them (published head,
 * and the counts as of the last record; exact once the ring is final);
 * no kernel code reads them back from the page. tail is the consumer's and
 * lives in the page: the kernel, as the producer, takes any value of it
 * for no more than a reason to drop (a ring full, a page not yet
 * consumed), and every loop and index it decides is bounded by the ring's
 * own size and page count (a head a mapping wrote near 2^64 once sent the
 * page loop round 2^52 times in the sampling interrupt).
 *
 * Memory-ordering contract (head and tail are free-running byte counts,
 * taken modulo the data size only to address bytes):
 *  - head is written only by the producer, after the record bytes, with
 *    smp_store_release(), into the ring and then into the header; a
 *    consumer reads it with smp_load_acquire() (the kernel's from the
 *    ring, a mapping's from the header), so it never sees head cover bytes
 *    that are not written yet.
 *  - tail is written only by the consumer, after it has copied the bytes
 *    out, with smp_store_release(); the producer reads it with
 *    smp_load_acquire() before reusing space, so it never overwrites bytes
 *    still being read.
 *  - Reads are batched, to disturb the sampled CPU as little as possible
 *    and to move many records per hand-off: the reader reads only when a
 *    read is due (aca_ring_due()): a quarter of the ring unread, or a
 *    flush not yet answered, or the ring final. The producer queues the
 *    ring's irq_work, which wakes the reader, when the unread bytes reach
 *    a quarter (and past it at each quarter of the stream); the
 *    collection's flush timer (collection.c) counts a flush (flushes, its
 *    own) and wakes the reader of any ring with unread bytes every
 *    flush_ms (params.c; in immediate transfer only). The reader answers
 *    a flush by emptying the ring (flush_seen, the reader's own, takes
 *    the flushes it read before it saw the ring empty; a flush counted
 *    after that stays due). A record is therefore read within about one
 *    flush period (max_wait_ns measures it, aca_ring_consume()), and a
 *    busy ring in reads of a quarter or more, well before it fills.
 *  - flushes is written with a release after the timer saw unread bytes,
 *    and read with an acquire by the reader before it publishes tail and
 *    looks for an empty ring: a reader that read count F and then found
 *    the ring empty has read at least up to the head the timer saw for F,
 *    so taking F as answered loses no flush.
 *  - lost and written are only ever changed by a producer (local64
 *    operations, safe against a producer interrupting another on the same
 *    CPU; a CPU ring's producers are on its CPU, and the module, uncore
 *    and EMON timer producers are one at a time); other CPUs read them as
 *    snapshots, exact once sampling has stopped.
 *  - End of a collection: after the last producer is gone (or by the last
 *    producer itself, the module-record worker), final is set with a
 *    release, so whoever reads it with an acquire and sees it set also
 *    sees every record (head) before it; then a full barrier, then the
 *    reader is woken. A reader, after publishing tail, has a full barrier
 *    and then reads final. Whichever of the two comes second sees the
 *    other's store, so either the reader sees final with an empty ring and
 *    reports the channel drained, or the check that follows the finalize
 *    sees the empty ring: the session's own (under aca_lock, STOP
 *    finalizing the CPU rings), or the bound file's, on the finalize's
 *    wake-up (the module records' worker, which never takes aca_lock;
 *    device.c).
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
#include <linux/build_bug.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "memory.h"
#include "ring.h"
#include "../uapi/aca.h"

/*
 * A record dropped: counted, and the count's copy published (a nested
 * producer's copy may be overwritten by the one it interrupted, one
 * behind, until the next count or aca_ring_finalize()).
 */
static void aca_ring_lose(struct aca_ring *r)
{
	WRITE_ONCE(r->hdr->lost, local64_inc_return(&r->lost));
}

static void aca_ring_wake_work_fn(struct work_struct *work)
{
	struct aca_ring *r = container_of(work, struct aca_ring, wake_work);

	wake_up_interruptible(&r->wait);
}

/*
 * The producer's wake-up: a hard irq_work (IRQ_WORK_HARD_IRQ, PREEMPT_RT
 * too), run from its IPI or, at the latest, when its CPU goes down
 * (smpcfd_dying_cpu() runs the CPU's hard irq_work). A lazy one, what a
 * plain irq_work is on PREEMPT_RT, would wait for its CPU's irq_work
 * thread, which is parked while the CPU is offline, and irq_work_sync() in
 * aca_ring_put() (under aca_lock) with it until the CPU came back (as the
 * mux kick, multiplex.c). In hard IRQ context a wait queue's spinlock_t
 * sleeps on PREEMPT_RT (and lockdep says so everywhere with
 * PROVE_RAW_LOCK_NESTING): the wake-up itself is a work item's, which a
 * hard IRQ may queue (workqueues take raw spinlocks). The same on every
 * kernel, so the debug kernel's lockdep checks what PREEMPT_RT runs; the
 * reader is woken once a quarter of its ring, so the extra hop costs
 * nothing that counts.
 */
static void aca_ring_wake_fn(struct irq_work *iw)
{
	struct aca_ring *r = container_of(iw, struct aca_ring, wake);

	queue_work(system_highpri_wq, &r->wake_work);
}

static void aca_ring_free_pages(struct aca_ring *r)
{
	for (u32 i = 0; i < r->npages; i++)
		if (r->pages[i])
			__free_page(r->pages[i]);
	kvfree(r->pages);
}

/* What a ring holds: its pages, their list and itself (memory.c). */
static long aca_ring_memory(const struct aca_ring *r)
{
	return (long)r->npages * (PAGE_SIZE + sizeof(*r->pages)) + sizeof(*r);
}

struct aca_ring *aca_ring_alloc(unsigned int data_pages, int node)
{
	struct aca_ring *r = kzalloc_node(sizeof(*r), GFP_KERNEL_ACCOUNT, node);

	BUILD_BUG_ON(sizeof(*r->hdr) > PAGE_SIZE);
	if (!r)
		return NULL;
	r->npages = data_pages + 1;
	r->pages = kvcalloc(r->npages, sizeof(*r->pages), GFP_KERNEL_ACCOUNT);
	if (!r->pages)
		goto fail;
	for (u32 i = 0; i < r->npages; i++) {
		/*
		 * Charged to the opener's memory cgroup; over its limit the
		 * allocation fails (INIT_DRIVER answers VT_NO_MEMORY) rather
		 * than waking the cgroup's OOM killer on the relay.
		 */
		r->pages[i] = alloc_pages_node(node, GFP_KERNEL_ACCOUNT |
					       __GFP_ZERO | __GFP_RETRY_MAYFAIL |
					       __GFP_NOWARN, 0);
		if (!r->pages[i])
			goto fail;
	}
	r->hdr = vmap(r->pages, r->npages, VM_MAP, PAGE_KERNEL);
	if (!r->hdr)
		goto fail;
	r->data = (u8 *)r->hdr + PAGE_SIZE;
	r->size = (u64)data_pages << PAGE_SHIFT;
	local_set(&r->busy, 0);
	refcount_set(&r->ref, 1);
	init_waitqueue_head(&r->wait);
	r->wake = IRQ_WORK_INIT_HARD(aca_ring_wake_fn);
	INIT_WORK(&r->wake_work, aca_ring_wake_work_fn);
	aca_memory_add(ACA_MEM_RINGS, aca_ring_memory(r));
	return r;
fail:
	if (r->pages)
		aca_ring_free_pages(r);
	kfree(r);
	return NULL;
}

void aca_ring_get(struct aca_ring *r)
{
	refcount_inc(&r->ref);
}

/*
 * Process context, no producer left (the collection puts its reference
 * after its writers are gone). Pages still held by a pipe or a socket keep
 * their own reference.
 */
void aca_ring_put(struct aca_ring *r)
{
	if (!r || !refcount_dec_and_test(&r->ref))
		return;
	/* A hard irq_work: this spins at most until its IPI has run. */
	irq_work_sync(&r->wake);
	cancel_work_sync(&r->wake_work);
	aca_memory_add(ACA_MEM_RINGS, -aca_ring_memory(r));
	vunmap(r->hdr);
	aca_ring_free_pages(r);
	kfree(r);
}

/*
 * Producer: add one record of @len bytes, @rec followed by zeros, and wake
 * the reader when the unread bytes reach a quarter of the ring (a read is
 * due then, see above), and while they stay past it, at each quarter of
 * the stream. NMI-safe: no locks, no allocation.
 * A producer interrupting another on the same CPU (only possible with
 * mixed event kinds: a PMI during the cpu-clock hrtimer, which aca never
 * programs together, or a clock's sample during an [ACA-EXT] software
 * event's, which a host may ask for) finds the ring busy: its record is
 * counted lost rather than interleaved.
 */
/*
 * Every page [head, head + len) enters is free to rewrite (see above).
 * @head is the ring's own and @len at most its size, so the pages entered
 * are at most the ring's; the loop is bounded by that count all the same.
 */
static bool aca_ring_may_enter(struct aca_ring *r, u64 head, u64 tail, u32 len)
{
	u64 pg = (head + PAGE_SIZE - 1) >> PAGE_SHIFT;
	u64 last = (head + len - 1) >> PAGE_SHIFT;
	u64 mask = (r->size >> PAGE_SHIFT) - 1;
	u64 n;

	for (n = 0; pg <= last && n <= mask; pg++, n++) {
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

void aca_ring_write(struct aca_ring *r, const void *rec, u32 rec_len, u32 len)
{
	struct aca_mmap_header *h = r->hdr;
	u64 head, tail, off, quarter = r->size / 4;
	u32 first, i;

	if (local_cmpxchg(&r->busy, 0, 1) != 0) {
		aca_ring_lose(r);
		return;
	}
	head = r->head;		/* ours alone, never the header's */
	/* Pairs with the release in aca_ring_consume(): space is free. */
	tail = smp_load_acquire(&h->tail);
	/* tail may come from a userspace mapping: a bad one means "full". */
	if (len > r->size || head - tail > r->size ||
	    r->size - (head - tail) < len ||
	    !aca_ring_may_enter(r, head, tail, len)) {
		aca_ring_lose(r);
		local_set(&r->busy, 0);
		return;
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
	/*
	 * The oldest unread byte's time, for the reader's max_wait_ns: this
	 * record's if the ring was empty; otherwise an older one stands.
	 */
	if (head == tail || !READ_ONCE(r->unread_since))
		WRITE_ONCE(r->unread_since, ktime_get_mono_fast_ns());
	/* Publish the bytes: pairs with the acquire in aca_ring_peek(). */
	smp_store_release(&r->head, head + len);
	/* And the copy: pairs with a mapping reader's acquire (uapi/aca.h). */
	smp_store_release(&h->head, head + len);
	WRITE_ONCE(h->written, local64_inc_return(&r->written));
	local_set(&r->busy, 0);
	/*
	 * Unread bytes reach a quarter: wake. Past it, wake again at each
	 * quarter of the stream, in case @tail was old and the reader has
	 * since read below a quarter and gone to sleep.
	 */
	if (head + len - tail >= quarter &&
	    (head - tail < quarter || head / quarter != (head + len) / quarter)) {
		if (irq_work_queue(&r->wake))
			local64_inc(&r->wakeups);
	}
}

/* Consumer: the unread bytes that are contiguous at *@p. */
size_t aca_ring_peek(struct aca_ring *r, const void **p)
{
	struct aca_mmap_header *h = r->hdr;
	u64 head, tail = READ_ONCE(h->tail);	/* the consumer's */
	u64 off = tail & (r->size - 1);

	/* Pairs with the release in aca_ring_write(): the bytes are there. */
	head = smp_load_acquire(&r->head);
	*p = r->data + off;
	return min_t(u64, head - tail, r->size - off);
}

/*
 * How long the bytes read had waited, at most, while sampling (after STOP
 * the drain is STOP's): since unread_since, a time no later than when the
 * oldest unread byte was written. Both stamps keep that true, on one
 * clock for every CPU (ktime_get_mono_fast_ns(): NMI-safe, global):
 *  - the producer's, when it finds the ring empty (tail, with an acquire,
 *    equal to head): its record is then the oldest unread;
 *  - the reader's, when it has read every byte of the head it loaded:
 *    its time, taken before that load, is older than every byte
 *    published after it, the only ones left.
 * Either may overwrite the other with an older time, never one later
 * than an unread byte: the wait is overstated at worst, never missed.
 */
void aca_ring_consume(struct aca_ring *r, size_t n)
{
	struct aca_mmap_header *h = r->hdr;
	/* Before the ring is seen empty: pairs with aca_ring_flush(). */
	unsigned int flushes = smp_load_acquire(&r->flushes);
	u64 now = ktime_get_mono_fast_ns();
	/* Pairs with the release in aca_ring_write(), after @now. */
	u64 head = smp_load_acquire(&r->head);
	u64 since = READ_ONCE(r->unread_since);
	bool sampling = !aca_ring_final(r);

	if (sampling && since && now > since && now - since > r->max_wait_ns)
		WRITE_ONCE(r->max_wait_ns, now - since);
	/* Done with the bytes: pairs with the acquire in aca_ring_write(). */
	smp_store_release(&h->tail, h->tail + n);
	if (h->tail == head)
		WRITE_ONCE(r->unread_since, now);
	if (!aca_ring_pending(r))
		WRITE_ONCE(r->flush_seen, flushes);
}

/* Reads while sampling: after STOP the drain is STOP's. */
void aca_ring_read_done(struct aca_ring *r)
{
	if (!aca_ring_final(r))
		WRITE_ONCE(r->reads, r->reads + 1);
}

/* Unread bytes, as a snapshot (the flush timer's question). */
bool aca_ring_pending(struct aca_ring *r)
{
	/* Pairs with the release in aca_ring_write(). */
	return smp_load_acquire(&r->head) != READ_ONCE(r->hdr->tail);
}

/*
 * A quarter of the ring or more unread: the reader is behind. The
 * producer's question, a heuristic (the module records' snapshots leave
 * the rest of their ring to STOP's): tail read without ordering, as a
 * snapshot.
 */
bool aca_ring_backlog(struct aca_ring *r)
{
	return READ_ONCE(r->head) - READ_ONCE(r->hdr->tail) >= r->size / 4;
}

/*
 * Whether the reader should read now (see the top): unread bytes, and a
 * quarter of the ring of them, or an unanswered flush, or no more to come.
 * The consumer's question; poll() asks it as a snapshot.
 */
bool aca_ring_due(struct aca_ring *r)
{
	/*
	 * tail first, with an acquire that pairs with the release in
	 * aca_ring_consume(): then head >= tail even for poll(), which runs
	 * beside the reader.
	 */
	u64 tail = smp_load_acquire(&r->hdr->tail);
	/* Pairs with the release in aca_ring_write(). */
	u64 unread = smp_load_acquire(&r->head) - tail;

	return unread && (unread >= r->size / 4 ||
			  READ_ONCE(r->flushes) != READ_ONCE(r->flush_seen) ||
			  aca_ring_final(r));
}

void aca_ring_counts(struct aca_ring *r, u64 *written, u64 *lost)
{
	*written = local64_read(&r->written);
	*lost = local64_read(&r->lost);
}

void aca_ring_transfer(struct aca_ring *r, u64 *wakeups, u64 *reads,
		       u64 *bytes, u64 *max_wait_ns)
{
	*wakeups = local64_read(&r->wakeups) + READ_ONCE(r->flushes);
	*reads = READ_ONCE(r->reads);
	*bytes = READ_ONCE(r->hdr->tail);
	*max_wait_ns = READ_ONCE(r->max_wait_ns);
}

static void aca_ring_wake(struct aca_ring *r)
{
	wake_up_interruptible(&r->wait);
}

/* The flush timer (its one caller at a time): a read is due, wake it. */
void aca_ring_flush(struct aca_ring *r)
{
	/* Pairs with the acquire in aca_ring_consume(). */
	smp_store_release(&r->flushes, r->flushes + 1);
	aca_ring_wake(r);
}

/*
 * The last producer is gone, or is the caller and is done: a reader that
 * empties the ring says so, and the wake-up tells those who sleep on it.
 */
void aca_ring_finalize(struct aca_ring *r)
{
	/* The counts' copies, exact now that no producer is left. */
	WRITE_ONCE(r->hdr->written, local64_read(&r->written));
	WRITE_ONCE(r->hdr->lost, local64_read(&r->lost));
	/* The records before: pairs with the acquire in aca_ring_final(). */
	smp_store_release(&r->final, true);
	/* Pairs with the barrier in aca_ring_drained() (see the top). */
	smp_mb();
	aca_ring_wake(r);
}

/* Nothing will be written any more: asked before the ring is peeked. */
bool aca_ring_final(struct aca_ring *r)
{
	/* Pairs with the release in aca_ring_finalize(): its records too. */
	return smp_load_acquire(&r->final);
}

/* The collection is over: whoever still reads the ring stops. */
void aca_ring_detach(struct aca_ring *r)
{
	WRITE_ONCE(r->detached, true);
	aca_ring_wake(r);
}

/* After a consume, or woken: the ring is empty and nothing more will come. */
bool aca_ring_drained(struct aca_ring *r)
{
	/* Pairs with the barrier in aca_ring_finalize() (see the top). */
	smp_mb();
	return aca_ring_final(r) && !aca_ring_pending(r);
}
