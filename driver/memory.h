/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What aca holds in memory, by kind (memory.c): /sys/module/aca/memory.
 * Not counted: the table of uncore and IBS PMUs (pmus.c: about 1.6 KB a
 * PMU) and a collection's decoded events and uncore counters (bounded by
 * the core).
 */
#ifndef ACA_MEMORY_H
#define ACA_MEMORY_H

enum aca_mem {
	ACA_MEM_RINGS,		/* sample, module-record and uncore rings */
	ACA_MEM_FILES,		/* open /dev/aca files */
	ACA_MEM_SCRATCH,	/* per-CPU records of call-stack sampling */
	ACA_MEM_KINDS
};

void aca_memory_add(enum aca_mem kind, long bytes);
int aca_memory_init(void);
void aca_memory_exit(void);

#endif /* ACA_MEMORY_H */
