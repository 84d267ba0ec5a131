/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A data channel's ring (ring.c): one producer (a CPU's overflow handler,
 * or in counting mode the EMON timer's reads and then STOP's last;
 * INIT_DRIVER and then the module-record worker; the uncore worker and
 * then STOP), one consumer (the reader of the data channel bound to it,
 * or a local trace's mapping).
 * The ring owns its reader's wait queue and wake-up, and its header page
 * is struct aca_mmap_header of uapi/aca.h, mappable as is: a local trace's
 * owner maps it read-write, so the kernel keeps what it believes (head and
 * the counts) here and only publishes copies there (ring.c).
 */
#ifndef ACA_RING_H
#define ACA_RING_H

#include <linux/irq_work.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <asm/local.h>
#include <asm/local64.h>

struct aca_mmap_header;

struct aca_ring {
	struct aca_mmap_header *hdr;	/* then the data pages */
	u8 *data;
	struct page **pages;		/* pages[0] is the header page */
	u32 npages;
	u64 size;			/* data bytes, a power of two */
	u64 head;			/* bytes ever written: the producer's */
	local_t busy;			/* a producer is writing */
	local64_t written;		/* records written */
	local64_t lost;			/* records dropped */
	local64_t generated;		/* records the handler produced */
	local64_t held;			/* of lost: a page was still held */
	local64_t wakeups;		/* the producer's wake-ups queued */
	u64 reads;		/* reads that moved bytes while sampling (reader's) */
	/*
	 * unread_since: when the oldest unread byte was written, or earlier
	 * (ktime_get_mono_fast_ns(): the producer's when it writes into an
	 * empty ring, the reader's when it read all it saw); max_wait_ns:
	 * the longest the reader saw a byte wait while sampling (ring.c).
	 */
	u64 unread_since;
	u64 max_wait_ns;
	refcount_t ref;			/* the collection's, one per reader */
	wait_queue_head_t wait;		/* the reader of the ring */
	struct irq_work wake;		/* the producer's wake-up, NMI-safe, */
	struct work_struct wake_work;	/* and its second half (ring.c) */
	/*
	 * final: nothing will be written any more (STOP came and, for the
	 * module records, their worker is done), so whoever sees it empty
	 * tells the session it is drained; set once, with a release
	 * (aca_ring_final()). detached: its collection is over; the channel
	 * reads no more of it.
	 */
	bool final;
	bool detached;
	/*
	 * flushes: the flush timer's count (it alone writes it); flush_seen:
	 * the count the reader had read when it last emptied the ring (it
	 * alone writes that). Unequal: a read is due (ring.c).
	 */
	unsigned int flushes;
	unsigned int flush_seen;
};

/* @node: the NUMA node of the CPU that writes it (NUMA_NO_NODE: any). */
struct aca_ring *aca_ring_alloc(unsigned int data_pages, int node);
void aca_ring_get(struct aca_ring *r);
void aca_ring_put(struct aca_ring *r);
/* Producer. */
void aca_ring_write(struct aca_ring *r, const void *rec, u32 rec_len, u32 len);
/* Consumer. */
size_t aca_ring_peek(struct aca_ring *r, const void **p);
void aca_ring_consume(struct aca_ring *r, size_t n);
/* Consumer, after a read that consumed bytes (the transfer's counts). */
void aca_ring_read_done(struct aca_ring *r);
/* Consumer, or poll() as a snapshot: a read is due. */
bool aca_ring_due(struct aca_ring *r);
/* Anyone: snapshots. */
bool aca_ring_pending(struct aca_ring *r);
bool aca_ring_backlog(struct aca_ring *r);
void aca_ring_counts(struct aca_ring *r, u64 *written, u64 *lost);
/*
 * Anyone, snapshots: the reader's wake-ups (the producer's and the flush
 * timer's), its reads that moved bytes, the bytes read, and the longest a
 * byte waited in the ring for its read.
 */
void aca_ring_transfer(struct aca_ring *r, u64 *wakeups, u64 *reads,
		       u64 *bytes, u64 *max_wait_ns);
/* The flush timer: a read of what is unread is due; wake the reader. */
void aca_ring_flush(struct aca_ring *r);
/*
 * The ends of a collection (process context, writers stopped / gone, or
 * the last one finalizing after its last record). Both wake the reader.
 */
void aca_ring_finalize(struct aca_ring *r);
void aca_ring_detach(struct aca_ring *r);
/* Anyone: the ring will get nothing more (acquire: its records are seen). */
bool aca_ring_final(struct aca_ring *r);
/* Final, and the reader emptied it. */
bool aca_ring_drained(struct aca_ring *r);

#endif /* ACA_RING_H */
