/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Attribution of samples to module records and functions: a user-mode IP
 * belongs to the record of its process whose address range and load/unload
 * TSC window contain the sample; a kernel IP to a pid-0 record (vmlinux or
 * a kernel module). User functions come from the module file's symbols
 * (symbols.h), checked against the mapping the target recorded; kernel
 * ones from a vmlinux placed where the vmlinux record says the kernel ran,
 * or from a copy of the target's kallsyms.
 */
#ifndef ACA_HOST_ATTRIB_H
#define ACA_HOST_ATTRIB_H

#include <stdio.h>

#include "kallsyms.h"
#include "records.h"
#include "symbols.h"

/* Canonical x86-64 kernel half: where kernel-mode IPs are. */
#define HOST_KERNEL_IP_MIN	0xffff800000000000ull

struct attrib_opts {
	const char *sysroot;		/* module paths are below it; NULL or "/": as they are */
	const char *kallsyms;		/* a copy of the target's /proc/kallsyms, or NULL */
	const char *vmlinux;		/* the target kernel's vmlinux, or NULL */
	FILE *warn;			/* what cannot be used and why, or NULL */
};

struct attrib_file {
	char *path;			/* as opened (sysroot prepended) */
	struct symfile *syms;		/* NULL: unreadable */
	int mismatch_said;		/* not the file that ran: said once */
};

struct attrib {
	const struct host_module *mods;
	size_t n;
	size_t *order;			/* module indices by (pid, load address) */
	struct attrib_opts o;
	struct attrib_file *files;	/* one per distinct path opened */
	size_t nfiles, files_cap;
	int *mod_file;			/* per module: index into files, or < 0 (attrib.c) */
	struct symfile *vmlinux;	/* o.vmlinux opened, or NULL */
	uint64_t vmlinux_stext;		/* its link-time _stext */
	struct ksyms ksyms;		/* o.kallsyms read; .n 0: none */
	int64_t ksyms_slide;		/* runtime _stext minus the copy's */
	int ksyms_modules;		/* the copy is of the boot that ran */
	int problems;			/* options or files that could not be used, said */
	size_t files_opened;		/* of nfiles */
};

struct attribution {
	const struct host_module *mod;	/* NULL: no record covers the sample */
	const char *func;		/* NULL: no symbol covers it */
	uint64_t offset;		/* no symbol: offset in the file (user), from the record's start (kernel) */
	uint64_t sym_offset;		/* with func: the address's offset from the symbol */
	const char *src;		/* with want_line: the source file, or NULL */
	int line;			/* with want_line: its line; 0: unknown */
	int kernel;			/* kernel-mode IP */
};

/*
 * @mods and the strings of @o must outlive @a. Returns 0, or -1 when out
 * of memory. A vmlinux or kallsyms that cannot be used is said on o->warn
 * and left out.
 */
int attrib_init(struct attrib *a, const struct host_module *mods, size_t n,
		const struct attrib_opts *o);
void attrib_sample(struct attrib *a, const struct host_sample *s,
		   struct attribution *out);
/*
 * Name @addr as if @s had been taken there (its pid, tid and TSC): a
 * caller of @s. @want_line: look its source file and line up too (DWARF
 * of the file, or of --vmlinux).
 */
void attrib_address(struct attrib *a, const struct host_sample *s, uint64_t addr,
		    int want_line, struct attribution *out);
/* The executable (or, for a kernel thread, the comm) of @pid, or NULL. */
const char *attrib_process(const struct attrib *a, uint32_t pid);
void attrib_free(struct attrib *a);

#endif /* ACA_HOST_ATTRIB_H */
