/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca-host perf-data: a collection written as a perf.data file that perf
 * report, perf script and perf annotate read as their own (the kernel's
 * tools/perf/Documentation/perf.data-file-format.txt, records of
 * include/uapi/linux/perf_event.h):
 *
 *   header     "PERFILE2", the sections, the feature bits
 *   attrs      one perf_event_attr per event the collection sampled, with
 *              one id each: sample_type IP|TID|TIME|CPU|PERIOD, CALLCHAIN
 *              when the records carry callers, IDENTIFIER with several
 *              events; sample_id_all
 *   data       COMM of every process and thread, MMAP2 of every module
 *              record (the kernel image as [kernel.kallsyms] placed by
 *              _stext of the kallsyms copy, else by its lowest symbol of the
 *              image; its modules as [NAME], user files by path, with the
 *              build-id the target sent), then the SAMPLEs oldest first: IP, pid/tid,
 *              TSC in nanoseconds, CPU, the sample-after value as period,
 *              and callers behind PERF_CONTEXT_KERNEL/USER markers (the
 *              frames of aca-host script, at most STACK_MAX_FRAMES)
 *   features   BUILD_ID, HOSTNAME (the target), OSRELEASE (its uname -r),
 *              ARCH, NRCPUS, CMDLINE, EVENT_DESC (the events' names)
 *
 * The file is written as FILE.tmp and renamed to FILE when whole; a
 * collection with any input problem writes nothing.
 */
#ifndef ACA_HOST_PERFDATA_H
#define ACA_HOST_PERFDATA_H

#include "report.h"

/*
 * Write @dir as perf.data @out (o's --kallsyms and filters apply; @cmdline
 * is HEADER_CMDLINE's, @argc words). Returns 0; 1 if the collection is
 * malformed or truncated; 2 if there is nothing to write or @out cannot be
 * written. Every failure is said on o->warn and leaves no @out.
 */
int perfdata_write(const char *dir, const struct report_opts *o, const char *out,
		   int argc, char *const *cmdline);

#endif /* ACA_HOST_PERFDATA_H */
