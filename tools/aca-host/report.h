/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca-host report: hotspots of a directory written by aca-host collect, by
 * process, by module and by function. Everything in the directory is
 * treated as untrusted input: what cannot be decoded is reported and left
 * out, never followed.
 */
#ifndef ACA_HOST_REPORT_H
#define ACA_HOST_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "tally.h"

#define REPORT_DEFAULT_TOP	20
#define REPORT_MAX_TOP		1000000
#define REPORT_MAX_PID		4194304		/* the kernel's PID_MAX_LIMIT */

struct report_opts {
	const char *sysroot;		/* module paths are below it; NULL: "/" */
	const char *kallsyms;		/* a copy of the target's /proc/kallsyms */
	const char *vmlinux;		/* the target kernel's image, with symbols */
	unsigned int top;		/* rows per table, 0: all */
	int only_pid;			/* keep the samples of @pid alone */
	uint32_t pid;
	FILE *warn;			/* input errors and unreadable files */
};

struct report {
	char event[256];
	char written_by[64];		/* "aca-host 0.1.0"; older files: "" */
	uint32_t ncpus;
	uint32_t sample_size;
	uint32_t callstack_offset;	/* 0: the records carry no callers */
	uint32_t callstack_size;
	uint64_t *cpu_samples;		/* per CPU file */
	uint64_t all_samples;		/* in the files */
	uint64_t samples;		/* reported on: all, or those of opts.pid */
	uint64_t with_module;		/* a module record covers the IP */
	uint64_t with_function;		/* and a symbol of its file */
	uint64_t kernel;		/* kernel-mode IPs */
	int have_drops;
	uint64_t dropped;
	uint64_t nmodules;
	int errors;			/* input problems seen */
	struct tally processes, modules, functions;
};

/*
 * Decode and attribute everything in @dir. Returns 0; 1 if some input was
 * malformed (reported on o->warn; the rest is in @r); 2 if there is nothing
 * to report on (no directory, no sample file).
 */
int report_load(const char *dir, const struct report_opts *o, struct report *r);
void report_print(const struct report *r, const struct report_opts *o,
		  const char *dir, FILE *out);
void report_free(struct report *r);

#endif /* ACA_HOST_REPORT_H */
