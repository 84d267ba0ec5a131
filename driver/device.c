// SPDX-License-Identifier: GPL-2.0-only
/*
 * /dev/aca: every open file is one protocol connection. aca-relay splices a
 * TCP socket into it and splices its replies back out. All files share the
 * one protocol target, serialised by aca_lock.
 *
 * A data channel's stream does not go through the target: once the core
 * says the channel streams, its file binds the channel's ring (holding a
 * reference, and subscribing its wait queue to the ring's wake-ups) and
 * reads, splices and polls it directly, under the file's own read lock
 * only. It takes aca_lock again to wait for the stream to begin, and to
 * tell the core when the ring is drained for good (final and empty, after
 * STOP), which STOP's answer waits for: when its reader empties a final
 * ring; when a read or poll finds it so; and when the ring is finalized,
 * from a work item the ring's wake-up queues (the module records' worker
 * finalizes their ring after STOP returned, and never takes aca_lock).
 *
 * Lock order: a file's read_lock, then aca_lock, then what the core's
 * calls take under it: the collection's sampling_lock and the module
 * records' item lock (a raw spinlock), and finish()'s waits for the module
 * records' worker, which takes neither the file's locks nor aca_lock. A
 * pipe's lock, held around splice_read and splice_write, comes before
 * both. A ring's wait queue lock (its wake-ups) is innermost: under it a
 * file only wakes its own waiters and queues its work item, which takes
 * aca_lock and which release() waits for without holding it.
 *
 * Non-blocking: under O_NONBLOCK, IOCB_NOWAIT or SPLICE_F_NONBLOCK, read,
 * write, splice and poll never wait for bytes, room or a session's
 * events: -EAGAIN, and poll() says when to try again (aca-relay runs on
 * that, on one thread). aca_lock is never held across such a wait, nor
 * while a ring drains, nor is a file's read_lock waited for: held by
 * another reader of the same file (a blocking one, waiting), it is
 * -EAGAIN too. A splice of reply bytes copies them through read_iter (the
 * splice fallback, whose kiocb says nothing of SPLICE_F_NONBLOCK) with
 * read_lock still held: read_iter knows the splicer and waits no more
 * than the splice may (aca_file.splicer).
 */
#include <linux/bits.h>
#include <linux/bvec.h>
#include <linux/fs.h>
#include <linux/in.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/net.h>
#include <linux/pid.h>
#include <linux/pipe_fs_i.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/splice.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/sock.h>

#include "client.h"
#include "collection.h"
#include "core/core.h"
#include "device.h"
#include "local.h"
#include "memory.h"
#include "node.h"
#include "ops.h"
#include "pmus.h"
#include "ring.h"
#include "splice.h"
#include "target.h"
#include "../uapi/aca.h"

struct aca_file {
	wait_queue_head_t wait;		/* readers and writers of this file */
	/*
	 * One reader at a time: the bound ring's one consumer. The ring is
	 * bound once, under read_lock and aca_lock, and kept until release.
	 */
	struct mutex read_lock;
	/*
	 * A non-blocking reader found read_lock held (by aca_poll(), say):
	 * whoever lets go of it in aca_poll() wakes the file (see
	 * aca_read_lock()).
	 */
	bool read_missed;
	/*
	 * The task splicing replies through read_iter (the copy fallback),
	 * read_lock held by it for read_iter, and whether that splice may
	 * wait; set and cleared by that task under read_lock, so only it can
	 * find itself here.
	 */
	struct task_struct *splicer;
	bool splice_nonblock;
	struct aca_ring *ring;
	wait_queue_entry_t ring_wait;	/* on ring->wait: wakes ours */
	struct work_struct ring_end;	/* the bound ring is final: tell STOP */
	/*
	 * Reply bytes taken from the core under aca_lock and given to the
	 * reader after it, so no user copy (which may fault and sleep for
	 * ever) happens under aca_lock; under read_lock, left read
	 * locklessly by poll().
	 */
	u8 *out;
	u32 out_off, out_left;
	/*
	 * The process that opened the file (its thread group), the core's
	 * opener token: a session's data channels come from the process that
	 * opened its control file. The reference keeps the struct pid, hence
	 * the token, from being reused while the file exists.
	 */
	struct pid *opener;
	/*
	 * aca_file_privileged() at open(), lowered by ACA_IOC_SET_CLIENT
	 * (under aca_lock; read without it by the local API's checks).
	 */
	bool privileged;
	/* The same for kernel addresses (client.c), under aca_lock. */
	bool kernel_addresses;
	bool client_set;		/* ACA_IOC_SET_CLIENT was honoured */
	struct acp_conn conn;
};

/* The opener's privilege, decided at open() (local.c). */
bool aca_file_opener_privileged(struct file *file)
{
	struct aca_file *af = file->private_data;

	return READ_ONCE(af->privileged);
}

/* Under the lock: @file has taken a role in the protocol (local.c). */
bool aca_file_is_conn(struct file *file)
{
	struct aca_file *af = file->private_data;

	lockdep_assert_held(&aca_lock);
	return af->conn.role != ACP_ROLE_NONE;
}

static bool aca_readable(struct aca_file *af)
{
	const void *data;

	lockdep_assert_held(&aca_lock);
	return acp_conn_peek(&af->conn, &data) || acp_conn_eof(&af->conn);
}

/*
 * The bound ring's producer (or its end) woke it: wake this file, and if
 * the ring is final, have the core told if it is drained, even when
 * nobody reads or polls this file now. The ring's wait queue lock is
 * held, maybe in hard IRQ: no more than that here.
 */
static int aca_ring_woke(wait_queue_entry_t *entry, unsigned int mode,
			 int sync, void *key)
{
	struct aca_file *af = container_of(entry, struct aca_file, ring_wait);
	/* Pairs with the release in aca_bind(); NULL: the binder checks. */
	struct aca_ring *r = smp_load_acquire(&af->ring);

	if (r && aca_ring_final(r))
		schedule_work(&af->ring_end);
	wake_up_interruptible(&af->wait);
	return 0;
}

/*
 * Under aca_lock: if the bound ring will never give another byte, STOP
 * may answer. Whoever checks this after subscribing to the ring's
 * wake-ups (under aca_lock, binding first) cannot miss its finalize:
 * either it sees final here, or the finalize's wake-up comes after and
 * checks again (ring.c).
 */
static void aca_ring_check(struct aca_file *af)
{
	lockdep_assert_held(&aca_lock);
	if (af->ring && aca_ring_drained(af->ring))
		acp_conn_drained(&af->conn);
}

/* The bound ring was finalized (aca_ring_woke()): STOP may answer. */
static void aca_ring_end(struct work_struct *work)
{
	struct aca_file *af = container_of(work, struct aca_file, ring_end);

	mutex_lock(&aca_lock);
	aca_ring_check(af);
	mutex_unlock(&aca_lock);
}

/*
 * If the channel streams now, bind its ring: from then on the ring's
 * wake-ups wake this file. Both locks held: af->ring changes only once.
 */
static void aca_bind(struct aca_file *af)
{
	struct aca_ring *r;
	u32 chan;

	lockdep_assert_held(&af->read_lock);
	lockdep_assert_held(&aca_lock);
	if (af->ring || !acp_conn_stream(&af->conn, &chan))
		return;
	r = aca_channel_ring(af->conn.t->ctx, chan);
	if (!r)
		return;
	aca_ring_get(r);
	init_waitqueue_func_entry(&af->ring_wait, aca_ring_woke);
	add_wait_queue(&r->wait, &af->ring_wait);
	/* Pairs with the acquires in aca_poll() and aca_ring_woke(). */
	smp_store_release(&af->ring, r);
}

/*
 * Ready to read when the core has bytes for the reader (the stream's once
 * a read of them is due) or says EOF; a channel that streams binds its
 * ring first, and a drained final ring ends STOP's wait (then the channel
 * is at EOF).
 */
static bool aca_read_ready(struct aca_file *af)
{
	aca_bind(af);
	aca_ring_check(af);
	return aca_readable(af);
}

/* The bound ring, while its collection lasts; read_lock held or acquired. */
static struct aca_ring *aca_live_ring(struct aca_ring *r)
{
	return r && !READ_ONCE(r->detached) ? r : NULL;
}

/*
 * Under aca_lock, ready to read: what the reader gets next is bytes of the
 * bound ring (else replies, or EOF, from the core).
 */
static bool aca_streaming(struct aca_file *af)
{
	u32 chan;

	return aca_live_ring(af->ring) && !af->out_left &&
	       acp_conn_stream(&af->conn, &chan) && aca_ring_due(af->ring);
}

/* After a read of the ring: if it is drained for good, STOP may answer. */
static void aca_ring_read(struct aca_file *af)
{
	if (!aca_ring_drained(af->ring))
		return;
	mutex_lock(&aca_lock);
	aca_ring_check(af);
	mutex_unlock(&aca_lock);
}

static bool aca_writable(struct aca_file *af)
{
	return acp_conn_writable(&af->conn);
}

/*
 * Return 0 with aca_lock held once @ready is true, or an error without it.
 * wait_woken() closes the race between the check and going to sleep.
 */
static int aca_lock_when(struct aca_file *af,
			 bool (*ready)(struct aca_file *af), bool nonblock)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int ret = 0;

	add_wait_queue(&af->wait, &wait);
	for (;;) {
		mutex_lock(&aca_lock);
		if (ready(af))
			break;
		mutex_unlock(&aca_lock);
		if (nonblock) {
			ret = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		wait_woken(&wait, TASK_INTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);
	}
	remove_wait_queue(&af->wait, &wait);
	return ret;
}

/*
 * A read is the file's first real use if nothing else was: it takes its
 * role now (a local peer). poll() never gives a role.
 */
static void aca_use(struct aca_file *af)
{
	bool fresh;

	/*
	 * A role, once given, is never taken back: the data path (every
	 * read and splice) does not take aca_lock for a file that has one.
	 */
	if (READ_ONCE(af->conn.role) != ACP_ROLE_NONE)
		return;
	mutex_lock(&aca_lock);
	fresh = af->conn.role == ACP_ROLE_NONE;
	acp_conn_use(&af->conn);
	mutex_unlock(&aca_lock);
	if (fresh)
		wake_up_interruptible(&af->wait);
}

static bool aca_nonblock(struct kiocb *iocb)
{
	return (iocb->ki_flags & IOCB_NOWAIT) ||
	       (iocb->ki_filp->f_flags & O_NONBLOCK);
}

/*
 * Bound ring bytes to @to, once a read is due (ring.c), without aca_lock:
 * bytes, 0 (none, or not due), -EFAULT.
 */
static ssize_t aca_read_ring(struct aca_file *af, struct iov_iter *to)
{
	struct aca_ring *r = aca_live_ring(af->ring);
	size_t avail, n, done = 0;
	const void *data;

	lockdep_assert_held(&af->read_lock);
	if (!r || !aca_ring_due(r))
		return 0;
	while (iov_iter_count(to) && (avail = aca_ring_peek(r, &data))) {
		n = copy_to_iter(data, min(avail, iov_iter_count(to)), to);
		if (!n)
			return done ? done : -EFAULT;
		aca_ring_consume(r, n);
		done += n;
	}
	if (done) {
		aca_ring_read_done(r);
		aca_ring_read(af);
	}
	return done;
}

#define ACA_OUT_SIZE	PAGE_SIZE

/*
 * Under aca_lock, out[] empty: take up to a page of the core's replies
 * (a reply may come in pieces: head, data, padding). None: EOF.
 */
static void aca_take_replies(struct aca_file *af)
{
	const void *data;
	size_t avail, n;

	lockdep_assert_held(&aca_lock);
	af->out_off = 0;
	while (af->out_left < ACA_OUT_SIZE) {
		avail = acp_conn_peek(&af->conn, &data);
		if (!avail)
			break;
		n = min_t(size_t, avail, ACA_OUT_SIZE - af->out_left);
		memcpy(af->out + af->out_left, data, n);
		acp_conn_consume(&af->conn, n);
		af->out_left += n;
	}
}

/* Reply bytes already taken, to @to, without aca_lock: bytes, 0, -EFAULT. */
static ssize_t aca_read_out(struct aca_file *af, struct iov_iter *to)
{
	size_t n;

	lockdep_assert_held(&af->read_lock);
	if (!af->out_left)
		return 0;
	n = copy_to_iter(af->out + af->out_off, af->out_left, to);
	if (!n)
		return -EFAULT;
	af->out_off += n;
	WRITE_ONCE(af->out_left, af->out_left - n);
	return n;
}

/*
 * The file's read_lock: waited for, or, for I/O that may not wait, taken
 * only if no other reader of the file holds it. The holder may be
 * aca_poll(), for an instant, with data ready; the reader then says so
 * in read_missed and tries once more. Either that try finds read_lock
 * free, or aca_poll() sees read_missed after letting go and wakes the
 * file, so an -EAGAIN from here is followed by a wake-up (the barriers
 * pair).
 */
static int aca_read_lock(struct aca_file *af, bool nonblock)
{
	if (!nonblock)
		return mutex_lock_interruptible(&af->read_lock) ? -ERESTARTSYS : 0;
	if (mutex_trylock(&af->read_lock))
		return 0;
	WRITE_ONCE(af->read_missed, true);
	smp_mb();	/* read_missed before the lock; pairs with aca_poll() */
	return mutex_trylock(&af->read_lock) ? 0 : -EAGAIN;
}

static ssize_t aca_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct aca_file *af = iocb->ki_filp->private_data;
	/* Called by aca_splice_read()'s fallback, which holds read_lock. */
	bool spliced = READ_ONCE(af->splicer) == current;
	bool nonblock = spliced ? af->splice_nonblock : aca_nonblock(iocb);
	bool streaming;
	ssize_t ret;

	if (!iov_iter_count(to))
		return 0;
	aca_use(af);
	if (!spliced) {
		ret = aca_read_lock(af, nonblock);
		if (ret)
			return ret;
	}
	lockdep_assert_held(&af->read_lock);
	for (;;) {
		ret = aca_read_out(af, to);
		if (ret)
			break;
		ret = aca_read_ring(af, to);
		if (ret)
			break;
		ret = aca_lock_when(af, aca_read_ready, nonblock);
		if (ret)
			break;
		streaming = aca_streaming(af);
		if (!streaming)
			aca_take_replies(af);
		mutex_unlock(&aca_lock);
		if (!streaming) {
			ret = aca_read_out(af, to);	/* 0: EOF */
			break;
		}
	}
	if (spliced)
		return ret;	/* the splice lets go of read_lock and wakes */
	mutex_unlock(&af->read_lock);

	wake_up_interruptible(&af->wait);
	return ret;
}

/* Feed one chunk to the core; returns the bytes it took. */
static size_t aca_feed(struct aca_file *af, const u8 *buf, size_t len)
{
	size_t used = 0, n;

	while (used < len) {
		n = acp_conn_input(&af->conn, buf + used, len - used);
		if (!n)
			break;
		used += n;
	}
	return used;
}

/*
 * Input for the core from @from, as much as it takes: it waits for the
 * core to take input only before its first bytes, and never if @nonblock.
 */
static ssize_t aca_write(struct aca_file *af, struct iov_iter *from,
			 bool nonblock)
{
	size_t done = 0;
	u8 buf[256];
	int ret;

	while (iov_iter_count(from)) {
		size_t len = min(sizeof(buf), iov_iter_count(from));
		size_t used;

		if (!copy_from_iter_full(buf, len, from))
			return done ? done : -EFAULT;
		ret = aca_lock_when(af, aca_writable, done || nonblock);
		if (ret) {
			iov_iter_revert(from, len);
			return done ? done : ret;
		}
		used = aca_feed(af, buf, len);
		mutex_unlock(&aca_lock);

		wake_up_interruptible(&af->wait);
		iov_iter_revert(from, len - used);
		done += used;
	}
	return done;
}

static ssize_t aca_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	return aca_write(iocb->ki_filp->private_data, from, aca_nonblock(iocb));
}

/*
 * One pipe buffer to the core, as write() would. A splice waits neither
 * once it has moved bytes nor under SPLICE_F_NONBLOCK or O_NONBLOCK: the
 * flag reaches no write_iter, hence this actor and not
 * iter_file_splice_write().
 */
static int aca_pipe_to_core(struct pipe_inode_info *pipe,
			    struct pipe_buffer *buf, struct splice_desc *sd)
{
	struct file *out = sd->u.file;
	bool nonblock = sd->num_spliced || (sd->flags & SPLICE_F_NONBLOCK) ||
			(out->f_flags & O_NONBLOCK);
	struct bio_vec bv = {
		.bv_page = buf->page,
		.bv_len = sd->len,
		.bv_offset = buf->offset,
	};
	struct iov_iter from;

	iov_iter_bvec(&from, ITER_SOURCE, &bv, 1, sd->len);
	return aca_write(out->private_data, &from, nonblock);
}

/* The pipe's lock comes before aca_lock (see the top). */
static ssize_t aca_splice_write(struct pipe_inode_info *pipe, struct file *out,
				loff_t *ppos, size_t len, unsigned int flags)
{
	struct splice_desc sd = {
		.total_len = len,
		.flags = flags,
		.pos = *ppos,
		.u.file = out,
	};
	ssize_t ret;

	pipe_lock(pipe);
	ret = __splice_from_pipe(pipe, &sd, aca_pipe_to_core);
	pipe_unlock(pipe);
	return ret;
}

/*
 * Up to @len bytes of the bound ring @r, once a read is due, to @pipe by
 * page reference, batch after batch (splice.c) until @len, the pipe is
 * full or the ring empty: bytes given, 0 (none unread) or -EAGAIN (the
 * pipe was full).
 */
static ssize_t aca_splice_ring(struct aca_file *af, struct aca_ring *r,
			       struct pipe_inode_info *pipe, size_t len)
{
	size_t done = 0;
	ssize_t n = 0;

	lockdep_assert_held(&af->read_lock);
	while (done < len && (n = aca_ring_to_pipe(r, pipe, len - done)) > 0) {
		aca_ring_consume(r, n);
		done += n;
	}
	if (!done)
		return n;
	aca_ring_read_done(r);
	aca_ring_read(af);
	return done;
}

/*
 * A data channel's stream goes to the pipe by page reference (splice.c);
 * everything else (replies, first messages, EOF) is copied as read() would.
 */
static ssize_t aca_splice_read(struct file *in, loff_t *ppos,
			       struct pipe_inode_info *pipe, size_t len,
			       unsigned int flags)
{
	struct aca_file *af = in->private_data;
	bool nonblock = (flags & SPLICE_F_NONBLOCK) ||
			(in->f_flags & O_NONBLOCK);
	bool streaming, copied = false;
	struct aca_ring *r;
	ssize_t ret = 0;

	aca_use(af);
	ret = aca_read_lock(af, nonblock);
	if (ret)
		return ret;
	for (;;) {
		/* Reply bytes taken before go first, as read() gives them. */
		if (af->out_left)
			break;
		r = aca_live_ring(af->ring);
		ret = r && aca_ring_due(r) ? aca_splice_ring(af, r, pipe, len) : 0;
		if (ret)
			break;
		ret = aca_lock_when(af, aca_read_ready, nonblock);
		if (ret)
			break;
		streaming = aca_streaming(af);
		mutex_unlock(&aca_lock);
		if (!streaming)
			break;
	}
	if (!ret) {
		/*
		 * Replies or EOF: copied by read_iter, read_lock kept so that
		 * no other reader comes between, and this splice's nonblock
		 * passed on (the fallback's kiocb has only the file's flags).
		 */
		af->splice_nonblock = nonblock;
		WRITE_ONCE(af->splicer, current);
#ifdef ACA_HAVE_COPY_SPLICE_READ
		ret = copy_splice_read(in, ppos, pipe, len, flags);
#else
		ret = generic_file_splice_read(in, ppos, pipe, len, flags);
#endif
		WRITE_ONCE(af->splicer, NULL);
		copied = true;
	}
	mutex_unlock(&af->read_lock);
	if (ret > 0 || copied)	/* as read_iter wakes after any copy */
		wake_up_interruptible(&af->wait);
	return ret;
}

static __poll_t aca_poll(struct file *file, poll_table *pt)
{
	struct aca_file *af = file->private_data;
	/* Pairs with the release in aca_bind(). */
	struct aca_ring *r = aca_live_ring(smp_load_acquire(&af->ring));
	__poll_t mask = 0;
	bool bind;

	poll_wait(file, &af->wait, pt);
	/*
	 * A streaming data channel: readable when a read of its ring is due,
	 * always writable.
	 */
	if (r && aca_ring_due(r))
		return EPOLLIN | EPOLLRDNORM | EPOLLOUT | EPOLLWRNORM;
	/*
	 * A channel that streams but has not bound its ring yet binds it, or
	 * the ring's wake-ups would not reach a poller; if a reader holds
	 * read_lock, it binds it.
	 */
	bind = !r && mutex_trylock(&af->read_lock);
	mutex_lock(&aca_lock);
	if (bind)
		aca_bind(af);
	aca_ring_check(af);
	if (READ_ONCE(af->out_left) || aca_readable(af))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (aca_writable(af))
		mask |= EPOLLOUT | EPOLLWRNORM;
	mutex_unlock(&aca_lock);
	if (bind) {
		mutex_unlock(&af->read_lock);
		/* A full barrier: the unlock before read_missed; pairs with aca_read_lock(). */
		if (xchg(&af->read_missed, false))
			wake_up_interruptible(&af->wait);
	}
	return mask;
}

static long aca_set_peer(struct aca_file *af, void __user *arg)
{
	struct acp_peer peer = { 0 };
	struct aca_peer p;
	long ret = 0;

	if (copy_from_user(&p, arg, sizeof(p)))
		return -EFAULT;
	if (p.reserved || (p.family != AF_INET && p.family != AF_INET6 &&
			   p.family != AF_UNIX))
		return -EINVAL;
	if (p.family == AF_UNIX && memchr_inv(p.addr, 0, sizeof(p.addr)))
		return -EINVAL;
	peer.family = p.family;
	memcpy(peer.addr, p.addr, p.family == AF_INET ? 4 : 16);

	mutex_lock(&aca_lock);
	/* Once per file, before any read or write: the role is given now. */
	if (!acp_conn_attach(&af->conn, &peer))
		ret = -EBUSY;
	mutex_unlock(&aca_lock);
	wake_up_interruptible(&af->wait);
	return ret;
}

/*
 * ACA_IOC_SET_CLIENT (uapi/aca.h): the relay names the socket it serves
 * this file's connection on. Only ever lowers the file's privilege; once,
 * before the connection has a role (before the core could have used the
 * privilege or the person: a session takes them when it begins, a data
 * channel when it joins, both under aca_lock).
 */
static long aca_set_client(struct file *file, struct aca_file *af,
			   void __user *arg)
{
	struct aca_client cl;
	struct socket *sock;
	bool priv = false, kaddr = false;
	u64 person = 0;
	int err;

	if (copy_from_user(&cl, arg, sizeof(cl)))
		return -EFAULT;
	if (cl.flags & ~ACA_CLIENT_ADMITTED)
		return -EINVAL;
	sock = sockfd_lookup(cl.sock_fd, &err);
	if (!sock)
		return err;
	err = aca_client_judge(file, sock, cl.flags, &priv, &kaddr, &person);
	sockfd_put(sock);
	if (err)
		return err;

	mutex_lock(&aca_lock);
	if (af->client_set || acp_conn_has_role(&af->conn)) {
		err = -EBUSY;
	} else {
		af->client_set = true;
		WRITE_ONCE(af->privileged, af->privileged && priv);
		acp_conn_set_privileged(&af->conn, af->privileged);
		af->kernel_addresses = af->kernel_addresses && kaddr;
		acp_conn_set_kernel_addresses(&af->conn, af->kernel_addresses);
		acp_conn_set_person(&af->conn, person);
	}
	mutex_unlock(&aca_lock);
	return err;
}

static long aca_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct aca_file *af = file->private_data;

	switch (cmd) {
	case ACA_IOC_HANGUP:
		mutex_lock(&aca_lock);
		acp_conn_hangup(&af->conn);
		mutex_unlock(&aca_lock);
		wake_up_interruptible(&af->wait);
		return 0;
	case ACA_IOC_SET_PEER:
		return aca_set_peer(af, (void __user *)arg);
	case ACA_IOC_SET_CLIENT:
		return aca_set_client(file, af, (void __user *)arg);
	default:
		return aca_local_ioctl(file, cmd, arg);
	}
}

static int aca_open(struct inode *inode, struct file *file)
{
	struct aca_file *af = kzalloc(sizeof(*af), GFP_KERNEL);

	if (!af)
		return -ENOMEM;
	af->out = kmalloc(ACA_OUT_SIZE, GFP_KERNEL);
	if (!af->out) {
		kfree(af);
		return -ENOMEM;
	}
	init_waitqueue_head(&af->wait);
	mutex_init(&af->read_lock);
	INIT_WORK(&af->ring_end, aca_ring_end);
	af->opener = get_pid(task_tgid(current));
	/* Uncore and IBS PMUs registered since the last look: not waited for. */
	aca_pmus_scan();
	/* The core wakes a connection's waiters by its ctx (machine.c). */
	acp_conn_init(&af->conn, &aca_target, &af->wait, af->opener);
	af->privileged = aca_file_privileged(file);
	acp_conn_set_privileged(&af->conn, af->privileged);
	af->kernel_addresses = aca_cred_kernel_addresses(file->f_cred);
	acp_conn_set_kernel_addresses(&af->conn, af->kernel_addresses);
	/* The opener is the person, until ACA_IOC_SET_CLIENT names another. */
	acp_conn_set_person(&af->conn,
			    from_kuid_munged(&init_user_ns, file->f_cred->euid));
	file->private_data = af;
	aca_memory_add(ACA_MEM_FILES, sizeof(*af) + ACA_OUT_SIZE);
	return stream_open(inode, file);
}

static int aca_release(struct inode *inode, struct file *file)
{
	struct aca_file *af = file->private_data;

	aca_local_release(file);
	if (af->ring) {
		/* No wake-up queues ring_end after this; it takes aca_lock. */
		remove_wait_queue(&af->ring->wait, &af->ring_wait);
		cancel_work_sync(&af->ring_end);
	}
	mutex_lock(&aca_lock);
	acp_conn_release(&af->conn);
	mutex_unlock(&aca_lock);
	aca_ring_put(af->ring);
	put_pid(af->opener);
	kfree(af->out);
	kfree(af);
	aca_memory_add(ACA_MEM_FILES, -(long)(sizeof(*af) + ACA_OUT_SIZE));
	return 0;
}

static const struct file_operations aca_fops = {
	.owner = THIS_MODULE,
	.open = aca_open,
	.release = aca_release,
	.read_iter = aca_read_iter,
	.write_iter = aca_write_iter,
	.poll = aca_poll,
	.mmap = aca_local_mmap,
	.unlocked_ioctl = aca_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	/* The relay moves bytes with splice(2) through io_uring. */
	.splice_read = aca_splice_read,
	.splice_write = aca_splice_write,
};

/* @coll outlives the device: the ctx of every acp_ops call. */
int aca_device_init(struct aca_collection *coll)
{
	acp_target_init(&aca_target, &aca_kernel_ops, coll);
	return aca_node_add(&aca_fops);
}

void aca_device_exit(void)
{
	aca_node_del();
	/* No file can be open now: the module is only unloaded when unused. */
	acp_target_fini(&aca_target);
}
