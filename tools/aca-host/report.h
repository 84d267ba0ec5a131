/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca-host report: hotspots of a directory written by aca-host collect, by
 * process, by module and by function, or grouped by --sort keys, as text,
 * CSV or JSON; the callers of the hottest functions (bottom-up) and the
 * callees of those with the most samples in their stacks (top-down, perf
 * report --children); folded stacks and a flame graph. Everything in the directory is treated as untrusted input:
 * what cannot be decoded is reported and left out, never followed.
 */
#ifndef ACA_HOST_REPORT_H
#define ACA_HOST_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "attrib.h"
#include "filter.h"
#include "groups.h"
#include "records.h"
#include "sortkey.h"
#include "tally.h"

#define REPORT_DEFAULT_TOP	20
#define REPORT_MAX_TOP		1000000
#define REPORT_MAX_PID		4194304		/* the kernel's PID_MAX_LIMIT */
#define REPORT_CALLER_FUNCS	5		/* functions in the callers table */
#define REPORT_NO_CALLER	"[no caller recorded]"
#define REPORT_SELF		"[self]"	/* a callee: the function's own samples */
#define REPORT_FRAME_KEY	1024		/* a frame's function key, cut */

enum report_format {
	REPORT_TEXT,
	REPORT_CSV,
	REPORT_JSON,
};

struct report_opts {
	const char *sysroot;		/* module paths are below it; NULL: "/" */
	const char *kallsyms;		/* a copy of the target's /proc/kallsyms */
	const char *vmlinux;		/* the target kernel's image, with symbols */
	unsigned int top;		/* rows per table, 0: all */
	int only_pid;			/* keep the samples of @pid alone */
	uint32_t pid;
	int only_tid;			/* and of thread @tid */
	uint32_t tid;
	struct name_list comms, dsos;	/* --comms, --dsos (filter.h); n 0: all */
	struct sort_keys sort;		/* --sort; n 0: the three tables */
	enum report_format format;	/* CSV and JSON: the --sort table alone */
	int folded;			/* the folded stacks alone (folded.h) */
	int stacks;			/* fold stacks (for --folded, --flamegraph) */
	int leaves_only;		/* no callers or callees tables (top) */
	FILE *warn;			/* input errors and unreadable files */
	/*
	 * The records' layout while no collection.txt says it yet (top
	 * reading a collection that still runs); NULL: 48-byte records.
	 */
	const struct record_layout *layout;
};

struct report {
	char event[256];
	char written_by[64];		/* "aca-host 0.1.0"; older files: "" */
	/*
	 * DIR/kallsyms, the target's kernel symbols as collect wrote them,
	 * named kernel code: no --kallsyms or --vmlinux was given. "": not.
	 */
	char default_kallsyms[4200];
	uint32_t ncpus;
	uint32_t sample_size;
	uint32_t callstack_offset;	/* 0: the records carry no callers */
	uint32_t callstack_size;
	uint64_t tsc_hz;		/* 0: collection.txt does not say */
	uint64_t sample_after;		/* 0: collection.txt does not say */
	int cpu_clock;			/* it sampled with cpu-clock stand-ins */
	/* DIR/groups.txt (groups.n 0: none); the samples of each group kept. */
	struct group_times groups;
	uint64_t group_samples[GROUPS_MAX];
	uint64_t *cpu_samples;		/* per CPU file */
	uint64_t all_samples;		/* in the files */
	uint64_t samples;		/* reported on: all, or those the filters keep */
	uint64_t with_module;		/* a module record covers the IP */
	uint64_t with_function;		/* and a symbol of its file */
	uint64_t kernel;		/* kernel-mode IPs */
	uint64_t user_unmapped;		/* user-mode IPs no module record covers */
	struct tally unmapped_pids;	/* their processes: "PID", samples */
	uint64_t with_callers;		/* samples with at least one caller */
	int have_drops;
	uint64_t dropped;
	uint64_t nmodules;
	int errors;			/* input problems seen */
	/*
	 * Record files (cpuN.bin, module.bin) not read: more bytes than
	 * files_read_max() (files.h), said as a problem each.
	 */
	uint32_t past_read_max;
	struct tally processes, modules, functions;
	struct sort_keys keys;		/* of @sorted: --sort, or perf's default */
	struct tally sorted;		/* key values joined by SORT_SEP */
	struct tally callers;		/* "FUNCTION" SORT_SEP "CALLER" */
	/* Each once a sample, wherever in its stack (perf's "Children"). */
	struct tally children;		/* "FUNCTION" */
	struct tally callees;		/* "FUNCTION" SORT_SEP "CALLEE" or REPORT_SELF */
	char (*frame_keys)[REPORT_FRAME_KEY];	/* STACK_MAX_FRAMES of them */
	struct tally stacks;		/* folded stacks, with opts.stacks */
};

/* A collection read and ready to attribute (report_load.c; script.c). */
struct collection {
	struct sample_vec samples;
	struct module_vec mods;
	struct attrib a;
	int have_attrib;
};

/*
 * Decode and attribute everything in @dir. Returns 0; 1 if some input was
 * malformed (reported on o->warn; the rest is in @r); 2 if there is nothing
 * to report on (no directory, no sample file).
 */
int report_load(const char *dir, const struct report_opts *o, struct report *r);
/* The group (in r->groups) whose event index @s carries, or -1. */
int report_group_of(const struct report *r, const struct host_sample *s);

/*
 * Group @i's event count estimated as perf stat does with multiplexing:
 * samples x sample_after x enabled / running, enabled the time some group
 * sampled (all groups' windows: not START's set-up, STOP's drain or a
 * pause), running the group's windows. *@share is running / enabled. -1 if
 * it cannot be estimated (the group never ran, sample_after or the times
 * unknown).
 */
double report_group_estimate(const struct report *r, uint32_t i, double *share);
void report_print(const struct report *r, const struct report_opts *o,
		  const char *dir, FILE *out);
void report_free(struct report *r);
/* The lists @o holds (--comms, --dsos). */
void report_opts_free(struct report_opts *o);
/* Raise the open file limit: libdwfl keeps every file it reads open. */
void report_raise_nofile(void);

/*
 * The samples and module records of @dir, their facts in @r, attribution
 * ready in @c. Returns 0; 2 if there is nothing to report on (@c is empty).
 * collection_close() then adds what attribution said to r->errors.
 */
int collection_open(const char *dir, const struct report_opts *o, struct report *r,
		    struct collection *c);
void collection_close(const struct report_opts *o, struct report *r,
		      struct collection *c);
/*
 * collection_open() for a writer of @out (perf-data, pprof, @cmd names it)
 * that takes a whole collection or nothing: on any input problem, said as
 * "DIR: not a whole collection (...); OUT not written", @r is freed and 1
 * (2 if there is no collection) returned; 0 with @c open otherwise.
 */
int collection_open_whole(const char *dir, const struct report_opts *o,
			  struct report *r, struct collection *c, const char *cmd,
			  const char *out);

/*
 * The name of the function @at is in, as --sort sym gives it: the symbol;
 * without one MODULE+0xOFFSET (the module's base name); "[unknown]"
 * without a module record. Printable.
 */
void report_sym_name(const struct attribution *at, char *buf, size_t len);

/* "@cmd: " and the message, a line on o->warn (stderr if it is NULL). */
void report_say(const struct report_opts *o, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether @s passes the filters of @o. */
int report_keep(struct collection *c, const struct report_opts *o,
		const struct host_sample *s);

#endif /* ACA_HOST_REPORT_H */
