/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event control blocks for the fixed-counter events, built in code from the
 * layout of spec 6 so that aca-host needs no ECB files at run time.
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
