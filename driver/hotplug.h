/* SPDX-License-Identifier: GPL-2.0-only */
/* CPU hotplug during a collection, and the watch (hotplug.c). */
#ifndef ACA_HOTPLUG_H
#define ACA_HOTPLUG_H

#include <linux/cpumask.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct aca_collection;

/* The watch's period: see "Events that stop sampling" in hotplug.c. */
#define ACA_WATCH_MS		1000

/* A collection's view of CPU hotplug (hotplug.c: "without cpus_read_lock()"). */
struct aca_hotplug {
	spinlock_t lock;		/* @up and @replug */
	struct cpumask up;		/* online as perf knows it */
	struct cpumask replug;		/* online again, events to make */
	struct work_struct replug_work;
	struct delayed_work watch;
};

bool aca_cpu_up(struct aca_hotplug *hp, u32 cpu);
bool aca_cpu_raced(struct aca_hotplug *hp, u32 cpu);
void aca_watch_events(struct aca_collection *coll);
void aca_watch_start(struct aca_collection *coll);
int aca_hotplug_init(struct aca_collection *coll);
void aca_hotplug_exit(struct aca_collection *coll);

#endif /* ACA_HOTPLUG_H */
