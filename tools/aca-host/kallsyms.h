/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A copy of the target's /proc/kallsyms ("ADDRESS TYPE NAME [MODULE]"
 * lines): the kernel's and its modules' functions at their runtime
 * addresses. The file is untrusted input: malformed lines are counted and
 * skipped, names are bounded.
 *
 * A file FILE.size beside it (aca-host collect writes DIR/kallsyms.size
 * next to DIR/kallsyms, ksym_collect.h) gives symbols their sizes: lines
 * "ADDRESS SIZE", both hex; a symbol at ADDRESS then holds only
 * [ADDRESS, ADDRESS + SIZE), and an address past its end is nobody's,
 * where otherwise the nearest symbol below would be taken.
 */
#ifndef ACA_HOST_KALLSYMS_H
#define ACA_HOST_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	uint64_t size;		/* from FILE.size; 0: unknown, up to the next symbol */
	char *name;
	const char *module;	/* "" for vmlinux; points into ksyms.modules */
};

struct ksyms {
	struct ksym *v;		/* text symbols by address */
	size_t n;
	char **modules;		/* distinct module names */
	size_t nmodules;
	size_t malformed;	/* lines skipped */
	uint64_t stext;		/* _stext's address; 0: not in the file */
};

/*
 * Read @path. Returns 0; -1 with a reason in @err if it cannot be read,
 * holds no text symbol, or gives every address as 0 (read without
 * CAP_SYSLOG while kptr_restrict is set).
 */
int ksyms_load(const char *path, struct ksyms *k, char *err, size_t errlen);

/*
 * The text symbol at or below @addr, if it is of @module ("" for vmlinux);
 * NULL if the nearest symbol below is another module's, ends before @addr
 * (its size is known), or there is none.
 */
const struct ksym *ksyms_at(const struct ksyms *k, uint64_t addr,
			    const char *module);

void ksyms_free(struct ksyms *k);

#endif /* ACA_HOST_KALLSYMS_H */
