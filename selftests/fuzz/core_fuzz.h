/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fuzz engine (core_fuzz.c) as its two drivers see it: libFuzzer, and
 * replay.c, which runs a corpus through it without libFuzzer.
 */
#ifndef ACA_FUZZ_CORE_FUZZ_H
#define ACA_FUZZ_CORE_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Reads ACA_FUZZ_VERBOSE: a trace of every operation and reply on stderr. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
/* One script (README.md); returns 0, or aborts with a message on stderr. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the inputs run so far did, for replay.c's report. */
struct core_fuzz_stats {
	unsigned long inputs;
	unsigned long sessions;		/* connections that became a control */
	unsigned long starts;		/* start() calls that started sampling */
	bool last_session_started;	/* the last input's last session did */
};

extern struct core_fuzz_stats core_fuzz_stats;

#endif /* ACA_FUZZ_CORE_FUZZ_H */
