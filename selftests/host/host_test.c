// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of aca-host without a target VM: the built-in ECBs against the
 * spec's vector; `aca-host report` (record decoding, symbols,
 * attribution) over synthetic collection directories, some built from the
 * live spin workload's own mappings; `aca-host collect` against a scripted
 * target on a loopback port; the command line and the diagnostics of
 * build/aca-host, run as a subprocess against loopback peers. The code
 * under test is linked from build/libaca-host.a, through its headers.
 *
 * kselftest_harness.h allows one translation unit with tests: the groups
 * live in *_test.c files that compile to nothing on their own and are
 * included at the end with ACA_HOST_TEST_UNIT defined.
 */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "../../tools/aca-host/attrib.h"
#include "../../tools/aca-host/ecb.h"
#include "../../tools/aca-host/files.h"
#include "../../tools/aca-host/groups.h"
#include "../../tools/aca-host/host.h"
#include "../../tools/aca-host/kallsyms.h"
#include "../../tools/aca-host/ksym_collect.h"
#include "../../tools/aca-host/payload.h"
#include "../../tools/aca-host/report.h"
#include "../../tools/aca-host/script.h"
#include "../../tools/aca-host/session.h"
#include "../../tools/aca-host/stat_events.h"
#include "../../tools/aca-host/stat_out.h"
#include "../../tools/aca-host/symbols.h"
#include "mock_target.h"
#include "synth.h"

#define SAMPLE_SIZE	((uint32_t)sizeof(struct sep_sample_record_pc))

/* A fresh directory per test, and what report_load() said about it. */
FIXTURE(dir) {
	char *path;
	struct sbuf cpu0, modules;
	struct report r;
	char *warn;		/* the report's messages */
	size_t warn_len;
	int ret;		/* of report_load() */
	struct host_run run;	/* of build/aca-host */
};

FIXTURE_SETUP(dir)
{
	memset(self, 0, sizeof(*self));
	self->path = synth_tmpdir();
	ASSERT_NE(NULL, self->path);
}

FIXTURE_TEARDOWN(dir)
{
	report_free(&self->r);
	sbuf_free(&self->cpu0);
	sbuf_free(&self->modules);
	free(self->warn);
	host_run_free(&self->run);
	synth_rmdir(self->path);
	free(self->path);
}

/* Write cpu0.bin and module.bin as built, then report on the directory with @opts. */
static int run_report_opts(FIXTURE_DATA(dir) *self, const struct report_opts *opts)
{
	struct report_opts o = *opts;
	FILE *warn;

	if (synth_write(self->path, "cpu0.bin", self->cpu0.p, self->cpu0.len) ||
	    synth_write(self->path, "module.bin", self->modules.p, self->modules.len))
		return -1;
	free(self->warn);
	self->warn = NULL;
	warn = open_memstream(&self->warn, &self->warn_len);
	if (!warn)
		return -1;
	o.warn = warn;
	report_free(&self->r);
	self->ret = report_load(self->path, &o, &self->r);
	fclose(warn);
	return 0;
}

static int run_report(FIXTURE_DATA(dir) *self, const char *sysroot)
{
	struct report_opts o = { .sysroot = sysroot };

	return run_report_opts(self, &o);
}

static bool said(FIXTURE_DATA(dir) *self, const char *what)
{
	return self->warn && strstr(self->warn, what);
}

#define ACA_HOST_TEST_UNIT
#include "ecb_test.c"
#include "attrib_test.c"
#include "symbols_test.c"
#include "malformed_test.c"
#include "collect_test.c"
#include "groups_test.c"
#include "ksyms_test.c"
#include "records_test.c"
#include "outdir_test.c"
#include "cli_test.c"
#include "net_test.c"
#include "views_test.c"
#include "stat_test.c"

TEST_HARNESS_MAIN
