/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Attribution of samples to module records and functions: a user-mode IP
 * belongs to the record of its process whose address range and load/unload
 * TSC window contain the sample; a kernel IP to a pid-0 record (vmlinux or
 * a kernel module). Functions come from the module file's ELF symbols.
 */
#ifndef ACA_HOST_ATTRIB_H
#define ACA_HOST_ATTRIB_H

#include <stdio.h>

#include "elfsym.h"
#include "records.h"

/* Canonical x86-64 kernel half: where kernel-mode IPs are. */
#define HOST_KERNEL_IP_MIN	0xffff800000000000ull

struct attrib_elf {
	char *path;			/* as opened (sysroot prepended) */
	struct elf_image *img;		/* NULL: unreadable */
};

struct attrib {
	const struct host_module *mods;
	size_t n;
	size_t *order;			/* module indices by (pid, load address) */
	const char *sysroot;		/* NULL or "/": paths as they are */
	FILE *warn;			/* one line per unreadable file, or NULL */
	struct attrib_elf *elves;	/* one per distinct path opened */
	size_t nelves, elves_cap;
	int *mod_elf;			/* per module: index into elves, -1 none, -2 not tried */
};

struct attribution {
	const struct host_module *mod;	/* NULL: no record covers the sample */
	const char *func;		/* NULL: no symbol covers it */
	int kernel;			/* kernel-mode IP */
};

/* @mods must outlive @a. Returns 0, or -1 when out of memory. */
int attrib_init(struct attrib *a, const struct host_module *mods, size_t n,
		const char *sysroot, FILE *warn);
void attrib_sample(struct attrib *a, const struct host_sample *s,
		   struct attribution *out);
/* The executable (or, for a kernel thread, the comm) of @pid, or NULL. */
const char *attrib_process(const struct attrib *a, uint32_t pid);
void attrib_free(struct attrib *a);

#endif /* ACA_HOST_ATTRIB_H */
