/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The target's kernel symbols, brought home by aca-host collect: every
 * distinct kernel address in the samples it received (kernel-mode IPs, and
 * the kernel callers when the records carry callstacks) named with aca's
 * KERNEL_SYMBOLS command (spec 4.6) before TERMINATE, and written to the
 * collection directory as a /proc/kallsyms copy of the symbols that
 * matter (DIR/kallsyms), with their sizes beside it (DIR/kallsyms.size,
 * which ksyms_load() reads, kallsyms.h). `aca-host report DIR` uses them
 * when given neither --kallsyms nor --vmlinux.
 */
#ifndef ACA_HOST_KSYM_COLLECT_H
#define ACA_HOST_KSYM_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"
#include "session.h"

#define KSYM_FILE		"kallsyms"
#define KSYM_SIZE_FILE		"kallsyms.size"

/* Distinct kernel addresses, ascending, and how many samples hold each. */
struct ksym_addrs {
	uint64_t *v;
	uint64_t *hits;
	size_t n, cap;
};

/* One answer of KERNEL_SYMBOLS. */
struct ksym_answer {
	uint64_t start, size;
	char name[ACA_KSYM_SLOT_SIZE];
	char module[ACA_KSYM_SLOT_SIZE];
};

/*
 * The symbols named so far, ascending by start, each start once; and the
 * addresses answered without one (ascending), not asked again.
 */
struct ksym_known {
	struct ksym_answer *v;
	size_t n, cap;
	uint64_t *none;
	size_t nnone, capnone;
};
void ksym_known_free(struct ksym_known *k);

/* The samples' own addresses alone, not their callers'. */
#define KSYM_IPS_ONLY		1u

/*
 * The kernel addresses to name in @dir's cpu0.bin .. cpu{@ncpus - 1}.bin,
 * records laid out as @l: each kernel-mode IP, and, unless @flags has
 * KSYM_IPS_ONLY, each kernel caller minus 1 (a return address: the call
 * is the byte before it). Streams that do not parse to their end give
 * what they hold before the fault. Returns 0, or -1 with @err set (out of
 * memory, @l unusable).
 */
int ksym_gather(const char *dir, uint32_t ncpus, const struct record_layout *l,
		unsigned int flags, struct ksym_addrs *out, char *err, size_t errlen);
void ksym_addrs_free(struct ksym_addrs *a);

/*
 * Slot @slot (ACA_KSYM_SLOT_SIZE bytes) of the answer for @addr: 1 with
 * @out filled when it names a symbol that holds @addr, 0 for an empty
 * slot, -1 for anything else (not a line as spec 4.6 has it, or a symbol
 * that does not hold @addr).
 */
int ksym_parse_slot(const uint8_t *slot, uint64_t addr, struct ksym_answer *out);

/*
 * Ask session @s (after STOP, before TERMINATE) to name the kernel
 * addresses of @dir's samples (ksym_gather()), in requests of at most
 * ACA_KSYM_MAX_ADDRS, and write DIR/kallsyms and DIR/kallsyms.size.
 * Returns how many symbols were written (0 when there was nothing to name
 * or the target would not: that is said once on stderr, and is no
 * failure), or -1 when a file cannot be written or the session broke
 * (said on stderr).
 */
long long ksym_collect(struct host_session *s, const char *dir, uint32_t ncpus,
		       const struct record_layout *l);
/*
 * While the target samples (aca-host top, at each refresh): one request,
 * sent and answered apart, so that the caller goes on meanwhile. Its
 * addresses are the samples' own (KSYM_IPS_ONLY) that no symbol of @known
 * holds and that were not answered without one before, the KSYM_ASK_MAX
 * that most samples hold if there are more: an
 * answer is ACA_KSYM_SLOT_SIZE bytes an address, on the link the samples
 * take.
 *
 * ksym_ask_send() returns 1 sent (@q pending), 0 nothing to ask, -1 a
 * failure of this host's own (said; ask again later), KSYM_SESSION_BROKEN.
 * Once host_answer_ready(), ksym_ask_take() reads the answer: its symbols
 * join @known, which the caller keeps from one request to the next, and
 * the files are written from it (every symbol named so far). It returns
 * how many, or 0 with *@refused set when the target would not name them
 * (said on stderr; ask no more), -1 when the files cannot be written or
 * memory ran out (said), or KSYM_SESSION_BROKEN: a session that broke
 * (ask no more on it).
 */
#define KSYM_SESSION_BROKEN	(-2)
#define KSYM_ASK_MAX		64
struct ksym_ask {
	uint64_t addrs[KSYM_ASK_MAX];
	size_t n;			/* 0: none pending */
	uint8_t slots[KSYM_ASK_MAX * ACA_KSYM_SLOT_SIZE];
};
int ksym_ask_send(struct host_session *s, const char *dir, uint32_t ncpus,
		  const struct record_layout *l, const struct ksym_known *known,
		  struct ksym_ask *q);
long long ksym_ask_take(struct host_session *s, const char *dir, struct ksym_known *known,
			struct ksym_ask *q, int *refused);

#endif /* ACA_HOST_KSYM_COLLECT_H */
