// SPDX-License-Identifier: GPL-2.0-only
/* The collection file: what a collection's sampling (sampler.h) counted. */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>

#include "collection.h"
#include "collection_file.h"
#include "ring.h"
#include "sampler.h"

/*
 * /sys/kernel/debug/aca/collection (0400): the current (or last stopped)
 * collection of this session, for tests and operators: the event kind,
 * then per CPU with a ring the samples the handler generated, wrote to the
 * ring and dropped because the ring was full, and of those how many
 * because a page was still held by a pipe or socket. generated == written
 * + dropped always holds once sampling has stopped; the host receives
 * exactly the written ones. Then how the ring's bytes left (ring.c): the
 * reader's wake-ups (the producer's at its watermark, the flush timer's),
 * the reads (splices) that moved bytes, and the bytes read: what make
 * bench divides to show what moving samples out costs; and the longest a
 * record waited in the ring for its read while sampling, in microseconds
 * (an upper bound: ring.c), which the flush period bounds in immediate
 * transfer (selftests/vm/latency); the drain after STOP is not counted.
 *
 * A table, so in debugfs, not sysfs (one value a file): a seq_file, a
 * record a line, each formatted whole at one moment (even when a read()
 * ends inside it, the rest comes from the same moment), with no limit on
 * the file's size however many CPUs. Every CPU line is as long as any
 * other (the CPU column as wide as the largest possible CPU id, each count
 * 20 digits, as wide as any u64), so a table is easy to read.
 *
 * Its positions: 0 the header, 1 + N CPU N's line, for each CPU with a
 * ring. A read holds the sampling lock from start() to stop(), so each
 * read() sees one sampling; the file's data is its collection, which
 * outlives it (debugfs_remove_recursive() waits for its readers).
 */
#define ACA_COLL_LINE_FMT \
	"cpu %*u generated %20llu written %20llu dropped %20llu held %20llu errors %20u " \
	"wakeups %20llu reads %20llu read_bytes %20llu max_wait_us %20llu\n"

static void aca_coll_line(struct seq_file *m, u32 cpu, struct aca_ring *r,
			  u32 errors)
{
	u64 written = 0, lost = 0, generated = 0, held = 0;
	u64 wakeups = 0, reads = 0, bytes = 0, wait = 0;
	int width = snprintf(NULL, 0, "%u", nr_cpu_ids - 1);

	if (r) {
		aca_ring_counts(r, &written, &lost);
		aca_ring_transfer(r, &wakeups, &reads, &bytes, &wait);
		generated = local64_read(&r->generated);
		held = local64_read(&r->held);
	}
	seq_printf(m, ACA_COLL_LINE_FMT, width, cpu, generated, written, lost,
		   held, errors, wakeups, reads, bytes,
		   div_u64(wait, NSEC_PER_USEC));
}

/* The first CPU from @cpu on with a ring, or nr_cpu_ids. */
static u32 aca_next_ring(const struct aca_sampling *c, u32 cpu)
{
	while (c && cpu < nr_cpu_ids && !c->rings[cpu])
		cpu++;
	return c ? cpu : nr_cpu_ids;
}

/* The line at CPU @cpu's or the next CPU's with a ring, its position in @pos. */
static void *aca_coll_at(struct aca_collection *coll, u32 cpu, loff_t *pos)
{
	struct aca_sampling *c = coll->sampling;

	cpu = aca_next_ring(c, cpu);
	*pos = (loff_t)cpu + 1;
	return cpu < nr_cpu_ids ? &c->rings[cpu] : NULL;
}

static void *aca_coll_start(struct seq_file *m, loff_t *pos)
{
	struct aca_collection *coll = m->private;

	mutex_lock(&coll->sampling_lock);
	if (!*pos)
		return SEQ_START_TOKEN;
	if (*pos > nr_cpu_ids)
		return NULL;
	return aca_coll_at(coll, *pos - 1, pos);
}

static void *aca_coll_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct aca_collection *coll = m->private;
	struct aca_ring **r = v;

	return aca_coll_at(coll, v == SEQ_START_TOKEN ? 0 :
			   r - coll->sampling->rings + 1, pos);
}

static void aca_coll_stop(struct seq_file *m, void *v)
{
	struct aca_collection *coll = m->private;

	mutex_unlock(&coll->sampling_lock);
}

static int aca_coll_show(struct seq_file *m, void *v)
{
	struct aca_collection *coll = m->private;
	struct aca_sampling *c = coll->sampling;
	struct aca_ring **r = v;
	u32 cpu;

	if (v == SEQ_START_TOKEN) {
		seq_printf(m, "event %s\n",
			   !c ? "none" : c->sw ? "cpu-clock" : "pmu");
		return 0;
	}
	cpu = r - c->rings;
	aca_coll_line(m, cpu, *r, READ_ONCE(c->errors[cpu]));
	return 0;
}

static const struct seq_operations aca_collection_sops = {
	.start = aca_coll_start,
	.next = aca_coll_next,
	.stop = aca_coll_stop,
	.show = aca_coll_show,
};

DEFINE_SEQ_ATTRIBUTE(aca_collection);

/*
 * The module's debugfs directory, /sys/kernel/debug/aca, and its
 * collection file; a test build adds its hooks beside it (inject.c).
 * Without debugfs (not built in, or debugfs=off) neither is there, and
 * aca works all the same.
 */
void aca_collection_file_init(struct aca_collection *coll)
{
	coll->debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("collection", 0400, coll->debugfs, coll,
			    &aca_collection_fops);
}

/* The directory with every file in it, once no reader is inside one. */
void aca_collection_file_exit(struct aca_collection *coll)
{
	debugfs_remove_recursive(coll->debugfs);
}
