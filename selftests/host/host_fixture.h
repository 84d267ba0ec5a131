/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fixture the host test programs share: FIXTURE(dir), a fresh
 * directory per test (struct host_dir, host_dir.c) for collections built by
 * hand, report_load() and build/aca-host.
 *
 * Each selftests/host/TOPIC_test.c is its own kselftest program,
 * build/tests/host_TOPIC_test: it includes this header once, before its
 * tests, and ends with TEST_HARNESS_MAIN. kselftest_harness.h defines the
 * program's globals, so only the program's own unit includes it; the code
 * the programs share is in host_dir.c, synth.c, mock_target.c and
 * stackcollapse.c, without the harness. FIXTURE(dir) and its set-up are
 * here for the same reason (the harness registers them in the unit).
 *
 * build/aca-host and build/spin are built before these programs (the
 * Makefile's HOST_TESTS), and tests run both: the set-up fails without them,
 * as it does in a broken build, instead of skipping.
 */
#ifndef ACA_HOST_TEST_HOST_FIXTURE_H
#define ACA_HOST_TEST_HOST_FIXTURE_H

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../../tools/aca-host/files.h"
#include "../../tools/aca-host/report.h"
#include "host_dir.h"
#include "mock_target.h"
#include "synth.h"

#define SAMPLE_SIZE	((uint32_t)sizeof(struct sep_sample_record_pc))
#define LOADED		SEP_MR_UNLOAD_TSC_LOADED

/* The build products the tests run, or a failed set-up that says which. */
static inline void host_dir_setup(struct __test_metadata *_metadata, struct host_dir *d)
{
	ASSERT_EQ(0, host_dir_init(d)) TH_LOG("no temporary directory");
	ASSERT_NE(NULL, synth_host_path())
		TH_LOG("no build/aca-host next to this test: make host (or set ACA_HOST_BIN)");
	ASSERT_NE(NULL, synth_spin_path())
		TH_LOG("no build/spin next to this test: make build/spin (or set ACA_SPIN)");
}

FIXTURE(dir) {
	struct host_dir d;
};

FIXTURE_SETUP(dir)
{
	host_dir_setup(_metadata, &self->d);
}

FIXTURE_TEARDOWN(dir)
{
	host_dir_free(&self->d);
}

#endif /* ACA_HOST_TEST_HOST_FIXTURE_H */
