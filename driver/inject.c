// SPDX-License-Identifier: GPL-2.0-only
/* The tests' debugfs files: a fault injector for sampling, a tally of STARTs. */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>

#include "collection.h"
#include "inject.h"
#include "sampler.h"
#include "target.h"

/*
 * /sys/kernel/debug/aca/event_off (0200): writing a CPU number turns that
 * CPU's events of the running collection off behind the sampler's back, a
 * stand-in for a pinned event in ERROR state (which takes a PMU whose
 * counters are taken to cause): how the tests show that the watch finds
 * and mends such an event. The file's data is its collection, which
 * outlives it (debugfs_remove_recursive() waits for its writers).
 */
static ssize_t event_off_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	struct aca_collection *coll = file->private_data;
	struct aca_sampling *c;
	unsigned int cpu;
	int ret = kstrtouint_from_user(ubuf, len, 0, &cpu);

	if (ret)
		return ret;
	mutex_lock(&aca_lock);
	c = coll->sampling;
	ret = -ESRCH;
	for (u32 i = 0; c && c->armed && !c->paused && i < c->nsev; i++) {
		if (c->sevs[i].cpu == cpu && c->sevs[i].pe &&
		    c->sevs[i].group == c->active) {
			perf_event_disable(c->sevs[i].pe);
			ret = 0;
		}
	}
	mutex_unlock(&aca_lock);
	return ret ? ret : len;
}

static const struct file_operations aca_event_off_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = event_off_write,
	.llseek = noop_llseek,
};

/*
 * /sys/kernel/debug/aca/started (0400): how many STARTs succeeded since
 * the module was loaded (a remote one: collection.c; a local one:
 * sampler.c): the tests' tally of the collections they start
 * (tools/vm/guest-init).
 */
void aca_inject_started(struct aca_collection *coll)
{
	atomic_inc(&coll->started);
}

/*
 * Both files beside the collection file, in the module's debugfs
 * directory (collection_file.c), which takes them with it at unload.
 */
void aca_inject_init(struct aca_collection *coll)
{
	debugfs_create_file("event_off", 0200, coll->debugfs, coll,
			    &aca_event_off_fops);
	debugfs_create_atomic_t("started", 0400, coll->debugfs, &coll->started);
}

/* What tells a test build from the product: modinfo -F test_hooks aca.ko. */
MODULE_INFO(test_hooks, "y");
