/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Decoding the record streams a collection saved: SampleRecordPCs of the
 * CPU channels (spec 7.1) and ModuleRecords of the module channel (7.3).
 * The bytes came from the network: every length and offset is checked, and
 * a stream that stops making sense ends with an error naming the offset.
 */
#ifndef ACA_HOST_RECORDS_H
#define ACA_HOST_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "../../driver/core/sep_cmd.h"

#define HOST_MR_FIXED		((size_t)sizeof(struct sep_module_record))

struct host_sample {
	uint64_t ip;
	uint64_t tsc;
	uint32_t pid;		/* pidRecIndex: the tgid */
	uint32_t tid;
	uint16_t cs;
	uint16_t cpu;
	uint32_t event;		/* eventIndex */
	/*
	 * Callers (struct aca_callstack_head): chain[0 .. nkernel) of
	 * sample_vec.chain from @chain on are kernel return addresses, the
	 * nuser after them user ones, innermost first. A kernel-mode
	 * sample's first user entry is the user IP it entered the kernel
	 * from, and where the kernel's unwinder crossed an interrupt frame
	 * it gives the interrupted IP; every other entry is a return address
	 * (look it up at -1, as perf does).
	 */
	size_t chain;
	uint16_t nkernel, nuser;
	int truncated;		/* the target had more callers than room */
};

struct host_module {
	uint64_t load;
	uint64_t length;
	uint64_t page_offset;	/* file offset of the mapping */
	uint64_t load_tsc;	/* 0: unknown, loaded "forever" */
	uint64_t unload_tsc;	/* SEP_MR_UNLOAD_TSC_LOADED: still loaded */
	uint32_t pid;
	uint32_t ppid;
	uint32_t flags;		/* SEP_MR_* */
	uint16_t selector;
	char *path;		/* printable, NUL-terminated */
	/* [ACA-EXT] the file's GNU build-id as the target read it (size 0: none) */
	uint8_t build_id[ACA_MR_BUILD_ID_MAX];
	uint8_t build_id_size;
};

struct sample_vec {
	struct host_sample *v;
	size_t n, cap;
	uint64_t *chain;	/* the callers of every sample */
	size_t nchain, chain_cap;
};

/* Where records are and what they hold (collection.txt). */
struct record_layout {
	size_t size;		/* bytes per record: at least the 48-byte base */
	size_t callstack_offset;	/* 0 (with size 0): no callstack area */
	size_t callstack_size;
};

struct module_vec {
	struct host_module *v;
	size_t n, cap;
};

/*
 * Whether @l can be parsed: a record of at least the base, a callstack area
 * inside it after the base, 8-byte aligned, and holding at least its head.
 * Returns 0, or -1 with @err set.
 */
int records_layout_check(const struct record_layout *l, char *err, size_t errlen);

/*
 * Append the samples of a CPU stream of records laid out as @l (which
 * records_layout_check() accepted). Returns 0, or -1 with @err set when the
 * stream does not end on a record boundary, a callstack head counts more
 * addresses than its area holds, or memory runs out; whole records before
 * that are kept.
 */
int records_parse_samples(const uint8_t *buf, size_t len,
			  const struct record_layout *l,
			  struct sample_vec *out, char *err, size_t errlen);

/*
 * Append the module records of a module stream. Returns 0, or -1 with @err
 * set at the first record that is malformed (recLength 0, shorter than its
 * fixed part or its path, running past the end, or with bytes after its
 * padded path that are no well-formed build-id: magic "BI", size 1 to
 * ACA_MR_BUILD_ID_MAX, recLength ending with its padding); the records
 * before it are kept, nothing after it is trusted.
 */
int records_parse_modules(const uint8_t *buf, size_t len,
			  struct module_vec *out, char *err, size_t errlen);

/*
 * [ACA-EXT] Each mapping once: a collection whose target answered
 * MODULE_SNAPSHOT describes a live mapping more than once (each snapshot's
 * record, STOP's), and one that went later again with its unload TSC.
 * Records of one key (pid, start, length, path, build-id), taken in stream
 * order: a still-loaded record is replaced by the next record of its key
 * (another still-loaded one, the same mapping described again; or one with
 * a real unload TSC, the mapping that went); a record with a real unload
 * TSC that repeats the last such record of its key (same unload TSC) is
 * dropped; of records of length 0 (a kernel thread's name, every snapshot
 * anew with unload TSC "now") the last is kept. What is kept is what a
 * stream without snapshots would hold, each record where its last
 * description was (attribution's ties go to the later record). Returns how
 * many records were dropped (their paths freed, the rest in stream order),
 * or -1 when out of memory (@v unchanged).
 */
long long records_merge_repeats(struct module_vec *v);

void sample_vec_free(struct sample_vec *v);
void module_vec_free(struct module_vec *v);

#endif /* ACA_HOST_RECORDS_H */
