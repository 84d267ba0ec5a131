/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SEP commands as a host sends them (spec 4.4, 9), for the tests: one
 * table for all of them. The fuzz engine (selftests/fuzz/core_fuzz.c) draws
 * its requests from it, its seed writer (make_seeds.c) the garbage
 * sessions, and core_commands_test checks that it names every command the
 * core's dispatch table knows and that its unknown ids are unknown there.
 * Written from the spec, not from the core's own table: a command the core
 * adds or loses shows up as a failed test. No test harness in here.
 */
#ifndef ACA_TEST_CMD_TABLE_H
#define ACA_TEST_CMD_TABLE_H

#include <linux/types.h>

#include "../../driver/core/sep_cmd.h"

/*
 * A command and the sizes of a usual request: the payload a host sends
 * (to_target_data_size) and the reply it asks for (from_target_data_size),
 * each a number of bytes plus a number per CPU.
 */
struct tc_command {
	__u32 id;
	const char *name;
	__u32 to, to_per_cpu;
	__u32 from, from_per_cpu;
};

/* Every command the protocol has, SEP_CMD_NONE (never answered) first. */
extern const struct tc_command tc_commands[];
extern const unsigned int tc_ncommands;

/* Ids no SEP driver knows (spec 4.2: 159 and no payload). */
extern const __u32 tc_unknown_ids[];
extern const unsigned int tc_nunknown_ids;

/* The command with @id, or NULL for an unknown id. */
const struct tc_command *tc_find_command(__u32 id);

/* The payload and the reply a usual request of @c has on @ncpus CPUs. */
__u64 tc_command_to(const struct tc_command *c, __u32 ncpus);
__u64 tc_command_from(const struct tc_command *c, __u32 ncpus);

#endif /* ACA_TEST_CMD_TABLE_H */
