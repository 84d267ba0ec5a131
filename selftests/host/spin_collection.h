/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A synthetic collection of build/spin the writers' tests share
 * (perfdata_test.c, pprof_test.c): spin copied into DIR/symfs as the
 * target ran it, its functions at known addresses, a kernel image and
 * kallsyms, samples with known shares, with or without callers; and
 * aca-host report's table of functions, and other tools' output, read back.
 */
#ifndef ACA_HOST_TEST_SPIN_COLLECTION_H
#define ACA_HOST_TEST_SPIN_COLLECTION_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "host_dir.h"

#define SPIN_PID	4242
#define SPIN_TID	4243
#define SPIN_LOAD	0x555555555000ull	/* spin's text, file offset 0x1000 */
#define SPIN_KTEXT	0xffffffff81000000ull
#define SPIN_EXE	"/usr/bin/spin"		/* where the target ran it */
#define SPIN_CHAIN_ROOM	8
#define SPIN_CHAIN_SIZE	(SYNTH_CALLSTACK_OFFSET + SYNTH_CALLSTACK_HEAD + 8 * SPIN_CHAIN_ROOM)

/* build/spin copied into DIR/symfs/usr/bin/spin, its functions mapped. */
struct spin_syms {
	char symfs[PATH_MAX];
	uint64_t hot, mix_a, mix_b, mix_c, thread, main;
	uint8_t build_id[ACA_MR_BUILD_ID_MAX];
	size_t build_id_size;
};

/* Fill @m for @dir (spin copied into @dir/symfs); 0 or -1. */
int spin_syms(const char *dir, struct spin_syms *m);

/*
 * In d->path: 100 samples of spin (pid 4242, half of them in thread 4243,
 * odd ones on CPU 1) and the kernel, each function's count distinct, with
 * callers when @chains; a kallsyms copy in DIR/kallsyms:
 *   30 aca_hot_spin   22 aca_mix_a   16 aca_mix_b   12 thread   8 main
 *    6 native_write_msr (kernel, in spin)   4 do_idle (pid 0)   2 aca_mix_c
 * 0 or -1.
 */
int spin_collection(struct host_dir *d, struct spin_syms *m, int chains);

/* A function and its share, in a table's order. */
struct hot {
	char name[128];
	double pct;
};

/* What is wrong with a spin collection that a writer must refuse. */
enum spin_flaw {
	SPIN_TRUNCATED,		/* cpu0.bin (with callers) cut in a record */
	SPIN_BAD_MODULES,	/* module.bin's first record of length 0 */
	SPIN_NO_SAMPLES,	/* module records, an empty cpu0.bin */
};

/* spin_collection() in d->path with @flaw; 0 or -1. */
int spin_collection_flawed(struct host_dir *d, enum spin_flaw flaw);

/*
 * aca-host report --sort sym --format csv: "samples,percent,sym" rows into
 * @h. Returns how many of at most @max were read.
 */
int aca_top(const char *out, struct hot *h, int max);

/* Lines of @s (a tool's output) holding @what. */
int lines_with(const char *s, const char *what);

#endif /* ACA_HOST_TEST_SPIN_COLLECTION_H */
