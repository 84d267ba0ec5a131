/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca-host script: every sample of a collection in perf script's text
 * format for sampled events with callchains, oldest first:
 *
 *   COMM PID/TID [CPU] SECONDS.USECS: PERIOD EVENT: 
 *   <TAB>    ADDRESS SYMBOL+0xOFFSET (DSO)
 *   ...
 *   (an empty line)
 *
 * one frame line per frame of the sample's stack (stack.h), the sample's
 * own address first; "[unknown]" where no symbol names one. COMM and DSO
 * are perf's names (perfnames.h); the time is the sample's TSC in seconds
 * (collection.txt's tsc_hz; without it the TSC itself); PERIOD is 1, as
 * every record is one sample; EVENT is the collection's event. What
 * FlameGraph's stackcollapse-perf.pl reads, as it reads perf script's.
 */
#ifndef ACA_HOST_SCRIPT_H
#define ACA_HOST_SCRIPT_H

#include <stdio.h>

#include "report.h"

/*
 * Print the samples of @dir that o's filters keep on @out. Returns 0; 1 if
 * some input was malformed (said on o->warn); 2 if there is nothing to
 * print (no collection in @dir).
 */
int script_print(const char *dir, const struct report_opts *o, FILE *out);

#endif /* ACA_HOST_SCRIPT_H */
