/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The names perf gives what a sample ran in, for the views that follow
 * perf (report --sort, --comms, --dsos, --folded; script):
 *  - comm: the process's executable by its base name, at most 15 bytes as
 *    the kernel's task comm; a kernel thread's record holds its comm
 *    already; pid 0 is "swapper"; a process without a record ":PID".
 *  - dso: a user file by its path (perf's long name) or base name (its
 *    short name), the kernel image "[kernel.kallsyms]", a kernel module
 *    "[NAME]", an address no record covers "[unknown]".
 * Every name is printable: control characters of untrusted input and
 * bytes that are no UTF-8 become '?' (text_copy(), textesc.h).
 */
#ifndef ACA_HOST_PERFNAMES_H
#define ACA_HOST_PERFNAMES_H

#include <stddef.h>
#include <stdint.h>

#include "attrib.h"

#define PERF_COMM_LEN		16	/* TASK_COMM_LEN, its NUL included */
#define PERF_NAME_MAX		512	/* longer names are cut */

/*
 * @pid's comm into @comm, and into @full (may be NULL) the untruncated
 * base name of its executable (what --comms also matches).
 */
void perf_comm(const struct attrib *a, uint32_t pid, char *comm, size_t len,
	       char *full, size_t flen);

/* The dso of @at: its long name (@long_name) or its short one. */
void perf_dso(const struct attribution *at, int long_name, char *buf, size_t len);

/* @src, bounded and printable: text_copy() of it. */
void perf_printable(char *dst, size_t len, const char *src);

/* The part of @path after its last '/' (all of it without one). */
const char *perf_base_name(const char *path);

#endif /* ACA_HOST_PERFNAMES_H */
