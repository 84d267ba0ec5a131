/* SPDX-License-Identifier: GPL-2.0-only */
/* CPU hotplug during a collection, and the watch (hotplug.c). */
#ifndef ACA_HOTPLUG_H
#define ACA_HOTPLUG_H

#include <linux/types.h>
#include <linux/workqueue.h>

struct aca_collection;

/* The watch's period: see "Events that stop sampling" in hotplug.c. */
#define ACA_WATCH_MS		1000

extern struct work_struct aca_replug_work;
extern struct delayed_work aca_watch;

bool aca_cpu_up(u32 cpu);
bool aca_cpu_raced(u32 cpu);
void aca_watch_events(struct aca_collection *c);
int aca_hotplug_init(void);
void aca_hotplug_exit(void);

#endif /* ACA_HOTPLUG_H */
