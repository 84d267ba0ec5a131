// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbols of one binary through libdwfl (symbols.h). Each file gets its
 * own Dwfl session, reported where it was linked (bias 0), so every
 * address asked of it is a link-time address; the program headers are
 * copied out once at open.
 */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "symbols.h"

#define DEFAULT_DEBUG_DIR	"/usr/lib/debug"
#define PAGE			4096ull

struct sym_load {
	uint64_t off, filesz, memsz, vaddr;
	int exec;
};

struct symfile {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwfl_Callbacks cb;
	char *debuginfo_path;	/* cb.debuginfo_path points here */
	struct sym_load *loads;
	size_t nloads;
	int nsyms;
};

static uint64_t page_down(uint64_t x)
{
	return x & ~(PAGE - 1);
}

static int copy_loads(struct symfile *f, char *err, size_t errlen)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(f->mod, &bias);
	size_t n;

	if (!elf || elf_getphdrnum(elf, &n)) {
		snprintf(err, errlen, "no program headers: %s", dwfl_errmsg(-1));
		return -1;
	}
	f->loads = calloc(n ? n : 1, sizeof(*f->loads));
	if (!f->loads) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		f->loads[f->nloads++] = (struct sym_load){
			.off = ph.p_offset, .filesz = ph.p_filesz, .memsz = ph.p_memsz,
			.vaddr = ph.p_vaddr, .exec = !!(ph.p_flags & PF_X),
		};
	}
	return 0;
}

struct symfile *sym_open(const char *path, const char *debug_dir, char *err,
			 size_t errlen)
{
	struct symfile *f;
	/* A FIFO or a device is never opened to wait, nor read: files only. */
	int fd = open_regular(path);

	if (fd < 0) {
		snprintf(err, errlen, "%s", errno == EINVAL ? "not a regular file" :
			 strerror(errno));
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/*
	 * libdwfl's search path: "" the file's own directory, ".debug" a
	 * subdirectory of it, then the debug directory (build-id and
	 * debuglink lookups). No CRC check is skipped.
	 */
	if (asprintf(&f->debuginfo_path, ":.debug:%s",
		     debug_dir ? debug_dir : DEFAULT_DEBUG_DIR) < 0) {
		f->debuginfo_path = NULL;
		snprintf(err, errlen, "out of memory");
		goto fail_fd;
	}
	f->cb = (Dwfl_Callbacks){
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &f->debuginfo_path,
	};
	f->dwfl = dwfl_begin(&f->cb);
	if (!f->dwfl) {
		snprintf(err, errlen, "%s", dwfl_errmsg(-1));
		goto fail_fd;
	}
	dwfl_report_begin(f->dwfl);
	/*
	 * add_p_vaddr: a shared object linked above 0 keeps its link-time
	 * addresses too (without it libdwfl moves its first segment to 0).
	 */
	f->mod = dwfl_report_elf(f->dwfl, "file", path, fd, 0, true);
	if (!f->mod) {
		/*
		 * Not taken: ours to close (a compressed image libdwfl
		 * unpacked has had it closed already: EBADF, no harm).
		 */
		snprintf(err, errlen, "%s", dwfl_errmsg(-1));
		goto fail_fd;
	}
	/* From here on libdwfl holds @fd, and dwfl_end() closes it. */
	if (dwfl_report_end(f->dwfl, NULL, NULL)) {
		snprintf(err, errlen, "%s", dwfl_errmsg(-1));
		goto fail;
	}
	if (copy_loads(f, err, errlen))
		goto fail;
	/* Finds the debug file, if any, and reads the table it will use. */
	f->nsyms = dwfl_module_getsymtab(f->mod);
	if (f->nsyms < 0)
		f->nsyms = 0;
	return f;
fail_fd:
	close(fd);
fail:
	sym_close(f);
	return NULL;
}

int sym_addr_of_offset(const struct symfile *f, uint64_t off, uint64_t *addr)
{
	for (size_t i = 0; i < f->nloads; i++) {
		const struct sym_load *l = &f->loads[i];

		if (off >= l->off && off - l->off < l->filesz) {
			*addr = l->vaddr + (off - l->off);
			return 0;
		}
	}
	return -1;
}

int sym_check_mapping(const struct symfile *f, uint64_t off, uint64_t len,
		      char *err, size_t errlen)
{
	for (size_t i = 0; i < f->nloads; i++) {
		const struct sym_load *l = &f->loads[i];
		/* The segment as mmap() maps it: whole pages around it. */
		uint64_t start = page_down(l->off);
		uint64_t span = page_down(l->off + l->memsz + PAGE - 1) - start;

		/* mprotect() may have split the mapping: a part of it fits too. */
		if (l->exec && off >= start && off - start < span && len <= span - (off - start))
			return 0;
	}
	snprintf(err, errlen,
		 "no code segment of it holds the %#llx bytes from file offset %#llx that the target mapped as code",
		 (unsigned long long)len, (unsigned long long)off);
	return -1;
}

void sym_at(struct symfile *f, uint64_t addr, int want_line, struct sym_hit *hit)
{
	GElf_Off off = 0;
	GElf_Sym sym;
	Dwfl_Line *line;

	memset(hit, 0, sizeof(*hit));
	hit->name = dwfl_module_addrinfo(f->mod, addr, &off, &sym, NULL, NULL, NULL);
	hit->offset = hit->name ? off : 0;
	if (!want_line)
		return;
	line = dwfl_module_getsrc(f->mod, addr);
	if (line)
		hit->src = dwfl_lineinfo(line, NULL, &hit->line, NULL, NULL, NULL);
}

int sym_value(struct symfile *f, const char *name, uint64_t *value)
{
	for (int i = 0; i < f->nsyms; i++) {
		GElf_Sym sym;
		const char *s = dwfl_module_getsym(f->mod, i, &sym, NULL);

		if (s && !strcmp(s, name) && sym.st_shndx != SHN_UNDEF) {
			*value = sym.st_value;
			return 0;
		}
	}
	return -1;
}

size_t sym_count(struct symfile *f)
{
	return f->nsyms;
}

size_t sym_build_id(struct symfile *f, const uint8_t **id)
{
	const unsigned char *bits = NULL;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(f->mod, &bits, &vaddr);

	if (n <= 0 || !bits) {
		*id = NULL;
		return 0;
	}
	*id = bits;
	return n;
}

const char *sym_source(struct symfile *f)
{
	const char *main_file = NULL, *debug_file = NULL;

	dwfl_module_info(f->mod, NULL, NULL, NULL, NULL, NULL, &main_file, &debug_file);
	return debug_file ? debug_file : main_file;
}

void sym_close(struct symfile *f)
{
	if (!f)
		return;
	if (f->dwfl)
		dwfl_end(f->dwfl);
	free(f->loads);
	free(f->debuginfo_path);
	free(f);
}
