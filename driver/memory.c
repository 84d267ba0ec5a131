// SPDX-License-Identifier: GPL-2.0-only
/*
 * What aca holds in memory now, by kind, counted where it is allocated and
 * freed: /sys/module/aca/memory (0444), one "KIND BYTES" line per kind, for
 * operators and make bench. A ring counts its data and header pages while
 * it lives (a page a pipe or socket still holds after it is the network's);
 * a file counts its state and its reply buffer from open() to release();
 * a collection with call stacks, a scratch record per CPU while it lives.
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#include "memory.h"

static atomic_long_t aca_memory[ACA_MEM_KINDS];

static const char *const aca_memory_names[ACA_MEM_KINDS] = {
	[ACA_MEM_RINGS] = "rings",
	[ACA_MEM_FILES] = "files",
	[ACA_MEM_SCRATCH] = "scratch",
};

void aca_memory_add(enum aca_mem kind, long bytes)
{
	atomic_long_add(bytes, &aca_memory[kind]);
}

static ssize_t memory_show(struct module_attribute *attr,
			   struct module_kobject *mk, char *buf)
{
	int len = 0;

	for (int i = 0; i < ACA_MEM_KINDS; i++)
		len += sysfs_emit_at(buf, len, "%s %ld\n", aca_memory_names[i],
				     atomic_long_read(&aca_memory[i]));
	return len;
}

static struct module_attribute aca_memory_attr = __ATTR_RO(memory);

int aca_memory_init(void)
{
	return sysfs_create_file(&THIS_MODULE->mkobj.kobj, &aca_memory_attr.attr);
}

void aca_memory_exit(void)
{
	sysfs_remove_file(&THIS_MODULE->mkobj.kobj, &aca_memory_attr.attr);
}
