// SPDX-License-Identifier: GPL-2.0-only
/* comm and dso names as perf gives them (perfnames.h). */
#include <stdio.h>
#include <string.h>

#include "perfnames.h"
#include "textesc.h"

#define KERNEL_IMAGE	"vmlinux"	/* the record of the kernel image */

void perf_printable(char *dst, size_t len, const char *src)
{
	text_copy(dst, len, src, SIZE_MAX);
}

const char *perf_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

void perf_comm(const struct attrib *a, uint32_t pid, char *comm, size_t len,
	       char *full, size_t flen)
{
	const char *exe = pid ? attrib_process(a, pid) : "swapper";
	char name[PERF_NAME_MAX];

	if (exe)
		/* A path: its base name; a kernel thread's comm: as it is. */
		perf_printable(name, sizeof(name), exe[0] == '/' ? perf_base_name(exe) : exe);
	else
		snprintf(name, sizeof(name), ":%u", pid);
	if (full)
		perf_printable(full, flen, name);
	perf_printable(comm, len < PERF_COMM_LEN ? len : PERF_COMM_LEN, name);
}

void perf_dso(const struct attribution *at, int long_name, char *buf, size_t len)
{
	char name[PERF_NAME_MAX];

	if (!at->mod) {
		snprintf(buf, len, "[unknown]");
	} else if (at->kernel || at->mod->pid == 0) {
		if (!strcmp(at->mod->path, KERNEL_IMAGE)) {
			snprintf(buf, len, "[kernel.kallsyms]");
		} else {
			perf_printable(name, sizeof(name), perf_base_name(at->mod->path));
			snprintf(buf, len, "[%s]", name);
		}
	} else {
		perf_printable(buf, len, long_name ? at->mod->path : perf_base_name(at->mod->path));
	}
}
