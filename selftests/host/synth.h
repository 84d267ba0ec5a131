/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synthetic collection directories for the report tests: module records
 * and samples built by hand or from a live process's /proc/PID/maps, the
 * spin workload started and found, the spec's vectors looked up. No test
 * harness in here: problems are return values.
 */
#ifndef ACA_HOST_TEST_SYNTH_H
#define ACA_HOST_TEST_SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../tools/aca-host/records.h"

struct sbuf {
	uint8_t *p;
	size_t len, cap;
};

void sbuf_add(struct sbuf *b, const void *p, size_t n);
void sbuf_free(struct sbuf *b);

/* One ModuleRecord as spec 7.3 lays it out (recLength 8-aligned). */
void synth_module(struct sbuf *b, uint32_t pid, uint64_t load, uint64_t length,
		  uint64_t page_offset, uint64_t load_tsc, uint64_t unload_tsc,
		  uint32_t flags, const char *path);
/*
 * The same with aca's build-id after the padded path ([ACA-EXT], struct
 * aca_mr_build_id): @size bytes of @id (or none, size 0), recLength
 * ALIGN8(80 + pathLength) + ALIGN8(4 + size). @magic and @extra bend it for
 * the malformed cases: the two magic bytes ("BI" when NULL), and bytes
 * added to recLength (zeros written after the record) or, negative, taken
 * from it (the bytes written staying those of the well-formed record).
 */
void synth_module_build_id(struct sbuf *b, uint32_t pid, uint64_t load, uint64_t length,
			   uint64_t page_offset, uint32_t flags, const char *path,
			   const uint8_t *id, size_t size, const char *magic, int extra);
/*
 * Give every record of @path in the module stream @b the build-id @id
 * (@size bytes) as aca writes it. Returns how many, or -1 if @b is not a
 * well-formed stream of records without build-ids.
 */
int synth_add_build_id(struct sbuf *b, const char *path, const uint8_t *id, size_t size);
/* One SampleRecordPC of @rec_size bytes (64-bit code, like aca writes). */
void synth_sample(struct sbuf *b, size_t rec_size, uint64_t ip, uint32_t pid,
		  uint32_t tid, uint64_t tsc, uint16_t cpu);
/* Give the last @rec_size-byte sample in @b the eventIndex @event (spec 7.1). */
void synth_set_event(struct sbuf *b, size_t rec_size, uint32_t event);

/*
 * One SampleRecordPC with a callstack area, as aca writes it when callers
 * are collected: @rec_size bytes = 48 + SYNTH_CALLSTACK_HEAD + 8 * room,
 * the area at SYNTH_CALLSTACK_OFFSET holding struct aca_callstack_head
 * (@nkernel, @nuser, @flags) and then @addrs (nkernel + nuser of them,
 * innermost first), the rest zero.
 */
#define SYNTH_CALLSTACK_OFFSET	48
#define SYNTH_CALLSTACK_HEAD	((size_t)sizeof(struct aca_callstack_head))
void synth_sample_chain(struct sbuf *b, size_t rec_size, uint64_t ip, uint32_t pid,
			uint32_t tid, uint64_t tsc, uint16_t cpu, uint16_t nkernel,
			uint16_t nuser, uint32_t flags, const uint64_t *addrs);

/*
 * A module record for every executable file mapping in /proc/@pid/maps, as
 * the target makes them at STOP (load TSC 0, still loaded), under pid
 * @as_pid; the mapping of @exe gets the exe flag. Returns how many, or -1.
 */
int synth_maps(struct sbuf *b, pid_t pid, uint32_t as_pid, const char *exe);

char *synth_tmpdir(void);
void synth_rmdir(const char *dir);
int synth_write(const char *dir, const char *name, const void *p, size_t len);
/* collection.txt with num_cpus and sample_size only. */
int synth_txt(const char *dir, uint32_t ncpus, uint32_t sample_size);
/*
 * collection.txt of records with callers: a callstack area at
 * SYNTH_CALLSTACK_OFFSET of the rest of each @sample_size-byte record,
 * an event name and a TSC rate (@tsc_hz 0: none).
 */
int synth_txt_chain(const char *dir, uint32_t ncpus, uint32_t sample_size,
		    const char *event, uint64_t tsc_hz);

/* build/spin next to this test's build/tests/, or $ACA_SPIN; NULL if absent. */
const char *synth_spin_path(void);
/* <repo>/@rel for the repository this test was built in; -1 if unknown. */
int synth_repo_path(const char *rel, char *path, size_t len);
/* build/aca-host the same way, or $ACA_HOST_BIN. */
const char *synth_host_path(void);
/* What a run of build/aca-host said (synth_run_host()). */
struct host_run {
	int status;		/* its exit status; -1 if it did not run or exit */
	char *out, *err;	/* what it wrote on stdout and stderr */
	volatile pid_t pid;	/* while it runs, else 0 */
};

/*
 * Run build/aca-host with @args (NULL-terminated, after the program's
 * name), its output kept in files in @dir, and fill @r. Returns r->status.
 */
int synth_run_host(const char *dir, const char *const *args, struct host_run *r);
/*
 * The same for program @prog, a path or found on PATH (perf, go), HOME set to @dir
 * and PAGER to cat: r->status 127 if it is not there.
 */
int synth_run_tool(const char *dir, const char *prog, const char *const *args,
		   struct host_run *r);
void host_run_free(struct host_run *r);

/*
 * Start spin with @threads threads for @seconds; returns its pid and the
 * address of aca_hot_spin() it printed, or -1. Reap it with waitpid().
 */
pid_t synth_spin(const char *threads, const char *seconds, uint64_t *hot);

/*
 * A test vector of selftests/vectors (selftests/vectors/README.md): from
 * $ACA_VECTORS if set, else from the repository this executable was built
 * in. NULL if it cannot be read; @where names the file tried either way.
 */
uint8_t *synth_vector(const char *name, size_t *len, char *where, size_t wlen);

uint64_t synth_rand(uint64_t *state);

#endif /* ACA_HOST_TEST_SYNTH_H */
