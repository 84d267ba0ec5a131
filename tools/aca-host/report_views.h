/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The report's views besides its three tables (report.h): the table of a
 * --sort key tuple as text, CSV (a header row, RFC 4180 quoting) or JSON;
 * the callers of the hottest functions, when the records carry callers.
 */
#ifndef ACA_HOST_REPORT_VIEWS_H
#define ACA_HOST_REPORT_VIEWS_H

#include <stdio.h>

#include "report.h"

/* r->sorted, most first, at most o->top rows, in o->format. */
void report_sorted(const struct report *r, const struct report_opts *o, FILE *out);

/*
 * For each of the REPORT_CALLER_FUNCS hottest functions: its samples, then
 * its immediate callers with their share of them, most first, at most
 * o->top each (perf report --no-children -g caller, one level deep).
 */
void report_callers(const struct report *r, const struct report_opts *o, FILE *out);

#endif /* ACA_HOST_REPORT_VIEWS_H */
