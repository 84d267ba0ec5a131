/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A file of the kernel's source (extracted at build time from Debian's
 * linux-source-6.12 by tools/extract-ksrc) read as the oracle of a test:
 * its #defines and the constant expressions built from them. No test
 * harness in here.
 */
#ifndef ACA_TEST_KSRC_H
#define ACA_TEST_KSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "../../driver/core/env.h"

struct ksrc {
	char *text;		/* the whole file, NUL-ended */
};

bool ksrc_load(struct ksrc *k, const char *path);
void ksrc_free(struct ksrc *k);

/*
 * The value of the @n bytes at @expr: numbers (with U, L suffixes),
 * macros #defined in the file, |, <<, parentheses and a leading minus.
 */
bool ksrc_eval_n(const struct ksrc *k, const char *expr, size_t n, s64 *v);
bool ksrc_eval(const struct ksrc *k, const char *expr, s64 *v);

#endif /* ACA_TEST_KSRC_H */
