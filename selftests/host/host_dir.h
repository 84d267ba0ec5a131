/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the host test programs share besides synth.c and mock_target.c: the
 * state of the dir fixture (a fresh directory per test, the collection built
 * in it, what report_load() and build/aca-host said about it) and what the
 * tests do with it. No test harness in here (host_fixture.h wraps it in
 * FIXTURE(dir)): problems are return values.
 */
#ifndef ACA_HOST_TEST_HOST_DIR_H
#define ACA_HOST_TEST_HOST_DIR_H

#include <stdbool.h>
#include <stddef.h>

#include "../../tools/aca-host/report.h"
#include "mock_target.h"
#include "synth.h"

struct host_dir {
	char *path;
	struct sbuf cpu0, modules;	/* cpu0.bin and module.bin, as built */
	struct report r;
	char *warn;		/* the report's messages */
	size_t warn_len;
	int ret;		/* of report_load() */
	struct host_run run;	/* of build/aca-host */
};

/* A fresh directory for @d (everything else zero); -1 if none. */
int host_dir_init(struct host_dir *d);
/* Free what @d holds and remove its directory. */
void host_dir_free(struct host_dir *d);

/*
 * Write cpu0.bin and module.bin as built, then report_load() the directory
 * with @opts: d->ret, d->r and d->warn. Returns -1 if it could not run.
 */
int run_report_opts(struct host_dir *d, const struct report_opts *opts);
/* The same with the default options and @sysroot (NULL: none). */
int run_report(struct host_dir *d, const char *sysroot);
/* Whether the report's messages hold @what. */
bool said(const struct host_dir *d, const char *what);

/* At most this many extra arguments to run_collect_argv(). */
#define MAX_EXTRA_ARGS	16

/*
 * Run aca-host collect against @m into @out (a directory under d->path)
 * with @extra (NULL-terminated, at most MAX_EXTRA_ARGS) on its command
 * line; returns its exit status (or -1), what it said is in d->run.
 */
int run_collect_argv(struct host_dir *d, struct mock_target *m, const char *out,
		     const char *const *extra);
/* The same with one @extra argument, or none (NULL). */
int run_collect_to(struct host_dir *d, struct mock_target *m, const char *out,
		   const char *extra);
/* Into "c". */
int run_collect(struct host_dir *d, struct mock_target *m, const char *extra);
/* c/collection.txt of run_collect(), or NULL. */
char *collection_txt(const struct host_dir *d);

#endif /* ACA_HOST_TEST_HOST_DIR_H */
