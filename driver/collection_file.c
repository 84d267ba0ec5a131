// SPDX-License-Identifier: GPL-2.0-only
/* The collection file: what a collection's sampling (sampler.h) counted. */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

#include "aca.h"
#include "collection.h"
#include "collection_file.h"
#include "sampler.h"

/*
 * /sys/module/aca/collection (0400): the current (or last stopped)
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
 * A line per CPU does not fit one page on a large machine, so this is a
 * binary attribute: each read() formats only the lines it covers, at the
 * offset asked for, with no limit on the file's size. A CPU line's length
 * depends on nothing that changes (the CPU column is as wide as the
 * largest possible CPU id, each count 20 digits, as wide as any u64), so
 * where a line starts follows from the lines before it, and a read() ends
 * at the end of a line unless its buffer is smaller than one: every line
 * is read whole from one moment, even while the counts grow between two
 * reads. (sysfs_emit() is for one-page show() buffers, not these.)
 *
 * The attribute's private data is its collection, from the file's
 * creation to its removal, which waits for its readers.
 */
#define ACA_COLL_LINE_FMT \
	"cpu %*u generated %20llu written %20llu dropped %20llu held %20llu errors %20u " \
	"wakeups %20llu reads %20llu read_bytes %20llu max_wait_us %20llu\n"
/* Room for the longest line: the format's text, a 10-digit CPU, 9 counts. */
#define ACA_COLL_LINE_MAX	(sizeof(ACA_COLL_LINE_FMT) + 10 + 9 * 20)

static int aca_coll_line(char *line, int width, u32 cpu, struct aca_ring *r,
			 u32 errors)
{
	u64 written = 0, lost = 0, generated = 0, held = 0;
	u64 wakeups = 0, reads = 0, bytes = 0, wait = 0;

	if (r) {
		aca_ring_counts(r, &written, &lost);
		aca_ring_transfer(r, &wakeups, &reads, &bytes, &wait);
		generated = local64_read(&r->generated);
		held = local64_read(&r->held);
	}
	return scnprintf(line, ACA_COLL_LINE_MAX, ACA_COLL_LINE_FMT, width,
			 cpu, generated, written, lost, held, errors, wakeups,
			 reads, bytes, div_u64(wait, NSEC_PER_USEC));
}

/* The first CPU from @cpu on with a ring, or nr_cpu_ids. */
static u32 aca_next_ring(const struct aca_sampling *c, u32 cpu)
{
	while (c && cpu < nr_cpu_ids && !c->rings[cpu])
		cpu++;
	return c ? cpu : nr_cpu_ids;
}

static ssize_t collection_read(struct file *file, struct kobject *kobj,
			       struct bin_attribute *attr, char *buf,
			       loff_t off, size_t count)
{
	struct aca_collection *coll = attr->private;
	char line[ACA_COLL_LINE_MAX];
	struct aca_sampling *c;
	size_t n, line_len, len = 0, skip, part;
	int width;
	u32 cpu = 0;
	loff_t pos;

	width = snprintf(NULL, 0, "%u", nr_cpu_ids - 1);
	line_len = aca_coll_line(line, width, 0, NULL, 0);

	mutex_lock(&coll->sampling_lock);
	c = coll->smp;
	n = scnprintf(line, sizeof(line), "event %s\n",
		      !c ? "none" : c->sw ? "cpu-clock" : "pmu");
	/* line[] holds the n bytes at pos when the reader wants them. */
	for (pos = 0; len < count; cpu++) {
		if (pos + n > off) {
			skip = off > pos ? off - pos : 0;
			part = min(n - skip, count - len);
			if (part < n - skip && len)
				break;	/* end at the end of a line */
			memcpy(buf + len, line + skip, part);
			len += part;
		}
		cpu = aca_next_ring(c, cpu);
		if (cpu >= nr_cpu_ids)
			break;
		pos += n;
		n = line_len;
		if (pos + n > off) {
			n = aca_coll_line(line, width, cpu, c->rings[cpu],
					  READ_ONCE(c->errors[cpu]));
			WARN_ON_ONCE(n != line_len);
		}
	}
	mutex_unlock(&coll->sampling_lock);
	return len;
}

static BIN_ATTR_ADMIN_RO(collection, 0);

int aca_collection_file_init(struct aca_collection *coll)
{
	bin_attr_collection.private = coll;
	return sysfs_create_bin_file(&THIS_MODULE->mkobj.kobj,
				     &bin_attr_collection);
}

void aca_collection_file_exit(struct aca_collection *coll)
{
	sysfs_remove_bin_file(&THIS_MODULE->mkobj.kobj, &bin_attr_collection);
}
