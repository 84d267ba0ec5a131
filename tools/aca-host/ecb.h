/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event control blocks built in code from the layout of spec 6, so that
 * aca-host needs no ECB files at run time: a sampling group of one
 * fixed-counter or [ACA-EXT] IBS event (collect), or a counting group of
 * several fixed and [ACA-EXT] software events (stat).
 */
#ifndef ACA_HOST_ECB_H
#define ACA_HOST_ECB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HOST_DEFAULT_EVENT	"CPU_CLK_UNHALTED.REF_TSC"
/* Counters are 48 bits wide (spec 6.6: max_bits 0xFFFFFFFFFFFF). */
#define HOST_COUNTER_MASK	0xffffffffffffull

/*
 * The ECB of event @name sampling every @sample_after events, as one group
 * in the slot layout of the spec's REF_TSC vector (22 entries, 4720 bytes).
 * Returns a malloc()ed ECB and its length in *@len, or NULL (unknown name,
 * sample_after 0 or wider than the counter, no memory).
 */
uint8_t *host_ecb_build(const char *name, uint64_t sample_after, size_t *len);

/*
 * The same as group @group of a multiplexed collection: the ECB's group_id,
 * and the event index and descriptor its samples carry, are all @group, so
 * a sample's eventIndex says which group took it. Group 0 is
 * host_ecb_build()'s ECB byte for byte.
 */
uint8_t *host_ecb_build_group(const char *name, uint64_t sample_after,
			      uint32_t group, size_t *len);

/*
 * Counting mode (DRV_CONFIG collection_config SEP_DRV_CFG_COUNTING_MODE):
 * one event of a counting group, fixed counter @num (0 INST_RETIRED.ANY,
 * 1 CPU_CLK_UNHALTED.THREAD, 2 CPU_CLK_UNHALTED.REF_TSC) or, with @sw,
 * the software event @num (ACA_SW_*, perf's PERF_COUNT_SW_*).
 */
struct host_count_event {
	uint8_t sw;
	uint8_t num;
};

/* Events of one counting group, fixed counters and software events together. */
#define HOST_MAX_COUNT_EVENTS	8
/* General counter slots of a counting ECB: IA32_PMC0..7, as many as events. */
#define HOST_COUNT_GP_SLOTS	8

/*
 * The counting ECB of events @ev[0..@n) as group 0, with
 * HOST_COUNT_GP_SLOTS general slots: fixed counter j in fixed slot j,
 * software events in general slots 0, 1, ... in @ev's order, each an
 * IA32_PMCk data slot and an ACA_SW_EVENT_SELECT select slot of value
 * ID | USR | OS; GLOBAL_CTRL enables exactly those counters (bit 32 + j,
 * bit k), FIXED_CTR_CTRL counts both rings without PMI. Every counter
 * slot has reg_value 0: it counts, never samples. The target answers
 * counts in ECB order (fixed counters by number, then general slots):
 * @order[i] is where @ev[i]'s count is. Returns a malloc()ed ECB and its
 * length in *@len, or NULL (no event, more than HOST_MAX_COUNT_EVENTS, an
 * unknown counter or software id, an event twice, no memory).
 */
uint8_t *host_ecb_build_counting(const struct host_count_event *ev, uint32_t n,
				 uint32_t *order, size_t *len);

/*
 * [ACA-EXT] IBS (spec 6.12): the control register value host_ecb_build()
 * writes for IBS event @name ("ibs_op", "ibs_fetch") sampling every
 * @sample_after cycles: its enable bit and maximum count, @sample_after /
 * 16, at least 1 and at most the register holds (ibs_op 2^23 - 1,
 * ibs_fetch 2^16 - 1: a shorter period than asked). 0 for another name.
 */
uint64_t host_ibs_control(const char *name, uint64_t sample_after);

/* The fixed counter of event @name (a host_ecb_build() name), or -1. */
int host_ecb_fixed_counter(const char *name);

/* True if @name is an event host_ecb_build() knows. */
int host_ecb_known(const char *name);

/* The known events, one per line, for error messages and --help. */
void host_ecb_list(FILE *f);

/*
 * Sample-after value for @rate samples per second of an event that counts
 * at about the TSC rate (all the fixed counters do, give or take IPC and
 * turbo). 0 means "unknown TSC rate": the spec vector's 2.2 GHz is assumed.
 */
uint64_t host_sample_after(uint64_t tsc_hz, uint32_t rate);

#endif /* ACA_HOST_ECB_H */
