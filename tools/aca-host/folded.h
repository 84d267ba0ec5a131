/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stacks folded for flame graphs: one line per distinct stack,
 * "comm;outermost;...;leaf COUNT", lines in byte order. The frames are
 * what FlameGraph's stackcollapse-perf.pl makes, by its default rules, of
 * the same samples as `aca-host script` prints them: the function without
 * its +0xOFFSET; an unnamed frame as [DSO] (the dso's base name in
 * brackets, [unknown] when there is none), no _[k] suffix on kernel
 * frames; names tidied as its default --tidy-generic does (';' becomes
 * ':', '<' and '>' dropped, from the first '(' on cut, quotes dropped);
 * a name made of several with "->" split into them, one starting with '('
 * left out, and so is a frame whose dso has a blank in it (not a frame
 * line to stackcollapse-perf.pl); spaces in the comm as '_'.
 */
#ifndef ACA_HOST_FOLDED_H
#define ACA_HOST_FOLDED_H

#include <stddef.h>
#include <stdio.h>

#include "tally.h"

/* A folded stack being built: outermost frame first. */
struct fold {
	char *p;
	size_t len, cap;
	int nomem;
};

/* Start @f with the process name @comm. */
void fold_begin(struct fold *f, const char *comm);

/*
 * Append the frame(s) of a function @func ("" or NULL: no symbol) in dso
 * @dso (perf's long name), as stackcollapse-perf.pl would from the line
 * `aca-host script` prints for it.
 */
void fold_frame(struct fold *f, const char *func, const char *dso);

/* The stack so far, or NULL if memory ran out. Valid until the next call. */
const char *fold_line(struct fold *f);

void fold_free(struct fold *f);

/* Every stack of @stacks (folded keys) with its count, in byte order. */
int folded_print(const struct tally *stacks, FILE *out);

#endif /* ACA_HOST_FOLDED_H */
