/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Checks of a target status message that every test layer shares: the
 * in-guest device tests and the host-side tests through aca-relay.
 */
#ifndef ACA_SELFTESTS_STATUS_CHECK_H
#define ACA_SELFTESTS_STATUS_CHECK_H

#include <string.h>
#include <sys/utsname.h>

#include "kselftest_harness.h"
#include "../../driver/core/sep.h"

static inline struct sep_control_first_msg sep_hello(uint32_t msg_size)
{
	struct sep_control_first_msg h = {
		.msg_size = msg_size,
		.proto_version = SEP_PROTO_VERSION,
	};

	return h;
}

/* The fixed layout of spec 2.2 and the facts every target must report. */
static inline void check_status_layout(struct __test_metadata *_metadata,
				       const struct sep_target_status_msg *s,
				       int32_t status)
{
	EXPECT_EQ(296, s->msg_size);
	EXPECT_EQ(SEP_PROTO_VERSION, s->proto_version);
	EXPECT_EQ(status, s->status);
	EXPECT_EQ(0, s->reserved1);
	EXPECT_EQ(0, s->reserved2);
	EXPECT_EQ(48, s->os_info_offset);
	EXPECT_EQ(200, s->os_info_size);
	EXPECT_EQ(248, s->collect_switch_offset);
	EXPECT_EQ(8, s->collect_switch_size);
	EXPECT_EQ(256, s->hardware_info_offset);
	EXPECT_EQ(40, s->hardware_info_size);
	EXPECT_STREQ("Linux", s->os_info.sysname);
	/* Every uname field is NUL-terminated inside its 64 bytes. */
	EXPECT_NE(NULL, memchr(s->os_info.release, 0, sizeof(s->os_info.release)));
	EXPECT_NE(NULL, memchr(s->os_info.version, 0, sizeof(s->os_info.version)));
	/* Native agent, immediate transfer, no uncore (yet). */
	EXPECT_EQ(0, s->collect_switch.flags);
	EXPECT_LT(0, s->hardware_info.num_cpus);
	EXPECT_LT(0, s->hardware_info.family);
	EXPECT_LE(s->hardware_info.family, 15);
	EXPECT_LE(s->hardware_info.stepping, 15);
	/* tsc_khz * 1000: any real TSC runs between 100 MHz and 10 GHz. */
	EXPECT_LT(100000000ull, s->hardware_info.tsc_freq);
	EXPECT_GT(10000000000ull, s->hardware_info.tsc_freq);
	EXPECT_EQ(0, s->hardware_info.reserved2);
	EXPECT_EQ(0, s->hardware_info.reserved3);
}

#endif /* ACA_SELFTESTS_STATUS_CHECK_H */
