/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Configuration payloads of a sampling collection (spec 5.1-5.7), with the
 * values the Intel test host sends: a target that passes its CollectionTest
 * accepts them, and so does any aca target.
 */
#ifndef ACA_HOST_PAYLOAD_H
#define ACA_HOST_PAYLOAD_H

#include <stdint.h>

#include "../../driver/core/sep_cmd.h"

/* A SampleRecordPC without callers is the plain 48-byte record (spec 7.1). */
#define HOST_SAMPLE_SIZE	((uint32_t)sizeof(struct sep_sample_record_pc))
/* Callers per sample with --call-graph: the record stays within 4 KiB. */
#define HOST_DEFAULT_CALL_DEPTH	32
#define HOST_MAX_CALL_DEPTH	((4096 - HOST_SAMPLE_SIZE - 8) / 8)

/* The records asked for: with @depth callers (0: none) after the base. */
struct host_layout {
	uint32_t sample_size;
	uint32_t callstack_offset;
	uint32_t callstack_size;	/* 0: no call stacks */
};
/* Descriptors sent with DESC_NEXT: 0 for the core event, 1 as the test host. */
#define HOST_NUM_DESCRIPTORS	2
/*
 * Groups of one event each (--event given several times), sampled one at
 * a time; group g's samples carry event index g (host_ecb_build_group()).
 */
#define HOST_MAX_GROUPS		8u
/* --switch-ms: the groups' turns, in milliseconds. */
#define HOST_DEFAULT_SWITCH_MS	10u
#define HOST_MAX_SWITCH_MS	10000u
/* --switch-samples: the groups' turns, in samples on one CPU. */
#define HOST_MAX_SWITCH_SAMPLES	1000000u

void host_drv_config(struct sep_drv_config *c);
void host_topology(struct sep_drv_topology_info *t, uint32_t ncpus);
void host_event_desc(struct sep_event_desc *d);
void host_dev_config(struct sep_dev_config *d);
void host_event_config(struct sep_event_config *e);
/*
 * @ngroups groups: with two or more the target switches between them every
 * @switch_ms milliseconds (em_mode timer based), or, when @switch_samples
 * is not 0, once a CPU has taken that many samples of the group's events
 * (em_mode event based, every event a trigger); one is never switched.
 */
void host_groups(struct sep_event_config *e, uint32_t ngroups, uint32_t switch_ms,
		 uint32_t switch_samples);
/* Descriptors to send: one per event index used, and the test host's two. */
uint32_t host_num_descriptors(uint32_t ngroups);
void host_layout(struct host_layout *l, unsigned int depth);
/* Ask for call stacks (user and kernel) in records laid out as @l. */
void host_callstacks(const struct host_layout *l, struct sep_event_desc *d,
		     struct sep_dev_config *dev, struct sep_event_config *e);

#endif /* ACA_HOST_PAYLOAD_H */
