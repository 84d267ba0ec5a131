// SPDX-License-Identifier: GPL-2.0-only
/*
 * A small ELF64 symbol reader (see elfsym.h). The image is read into
 * memory whole; headers are copied out with memcpy() because nothing in an
 * untrusted file is promised to be aligned.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfsym.h"
#include "files.h"

/* Debug builds of big programs stay below this; anything larger is odd. */
#define MAX_ELF_FILE	(2ull << 30)
/* How far back from the nearest symbol below an address to look for one
 * that covers it (aliases and nested local labels share addresses). */
#define COVER_LOOKBACK	16

struct elf_load {
	uint64_t off, filesz, vaddr;
};

struct elf_sym {
	uint64_t value, size;
	const char *name;	/* inside img */
};

struct elf_image {
	uint8_t *img;
	size_t size;
	struct elf_load *loads;
	size_t nloads;
	struct elf_sym *syms;
	size_t nsyms;
};

/* [off, off + len) inside a buffer of @size bytes, without overflow. */
static int fits(size_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

static int load_phdrs(struct elf_image *e, const Elf64_Ehdr *eh, char *err,
		      size_t errlen)
{
	if (eh->e_phnum && eh->e_phentsize < sizeof(Elf64_Phdr)) {
		snprintf(err, errlen, "program header entries of %u bytes",
			 eh->e_phentsize);
		return -1;
	}
	if (!fits(e->size, eh->e_phoff, (uint64_t)eh->e_phnum * eh->e_phentsize)) {
		snprintf(err, errlen, "program headers beyond the end of the file");
		return -1;
	}
	e->loads = calloc(eh->e_phnum ? eh->e_phnum : 1, sizeof(*e->loads));
	if (!e->loads) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, e->img + eh->e_phoff + (uint64_t)i * eh->e_phentsize, sizeof(ph));
		if (ph.p_type != PT_LOAD)
			continue;
		e->loads[e->nloads++] = (struct elf_load){ ph.p_offset, ph.p_filesz,
							   ph.p_vaddr };
	}
	return 0;
}

static int get_shdr(const struct elf_image *e, const Elf64_Ehdr *eh, uint64_t shnum,
		    uint64_t i, Elf64_Shdr *sh)
{
	if (i >= shnum)
		return -1;
	memcpy(sh, e->img + eh->e_shoff + i * eh->e_shentsize, sizeof(*sh));
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	/* Among aliases the sized one first: it is the one that covers. */
	return (x->size < y->size) - (x->size > y->size);
}

/* The STT_FUNC symbols of one symbol table section. */
static int read_symtab(struct elf_image *e, const Elf64_Ehdr *eh, uint64_t shnum,
		       const Elf64_Shdr *symtab, char *err, size_t errlen)
{
	Elf64_Shdr strtab;
	uint64_t n;

	if (symtab->sh_entsize < sizeof(Elf64_Sym) ||
	    !fits(e->size, symtab->sh_offset, symtab->sh_size) ||
	    get_shdr(e, eh, shnum, symtab->sh_link, &strtab) ||
	    strtab.sh_type != SHT_STRTAB ||
	    !fits(e->size, strtab.sh_offset, strtab.sh_size)) {
		snprintf(err, errlen, "malformed symbol table");
		return -1;
	}
	n = symtab->sh_size / symtab->sh_entsize;
	e->syms = calloc(n ? n : 1, sizeof(*e->syms));
	if (!e->syms) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint64_t i = 0; i < n; i++) {
		const char *name;
		Elf64_Sym sym;

		memcpy(&sym, e->img + symtab->sh_offset + i * symtab->sh_entsize,
		       sizeof(sym));
		if ((ELF64_ST_TYPE(sym.st_info) != STT_FUNC &&
		     ELF64_ST_TYPE(sym.st_info) != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value ||
		    sym.st_name >= strtab.sh_size)
			continue;
		name = (const char *)e->img + strtab.sh_offset + sym.st_name;
		/* The name must end inside its string table. */
		if (!memchr(name, 0, strtab.sh_size - sym.st_name) || !*name)
			continue;
		e->syms[e->nsyms++] = (struct elf_sym){ sym.st_value, sym.st_size, name };
	}
	qsort(e->syms, e->nsyms, sizeof(*e->syms), cmp_sym);
	return 0;
}

static int load_symbols(struct elf_image *e, const Elf64_Ehdr *eh, char *err,
			size_t errlen)
{
	uint64_t shnum = eh->e_shnum;
	Elf64_Shdr sh, found[2];
	int have[2] = { 0, 0 };

	if (!eh->e_shoff)
		return 0;		/* no sections: no symbols, not an error */
	if (eh->e_shentsize < sizeof(Elf64_Shdr) ||
	    !fits(e->size, eh->e_shoff, eh->e_shentsize)) {
		snprintf(err, errlen, "malformed section headers");
		return -1;
	}
	/* More than 0xff00 sections: the count is in section 0 (gABI). */
	if (!shnum) {
		memcpy(&sh, e->img + eh->e_shoff, sizeof(sh));
		shnum = sh.sh_size;
	}
	/* The division first: shnum from section 0 can be anything. */
	if (shnum > e->size / eh->e_shentsize ||
	    !fits(e->size, eh->e_shoff, shnum * eh->e_shentsize)) {
		snprintf(err, errlen, "section headers beyond the end of the file");
		return -1;
	}
	for (uint64_t i = 0; i < shnum; i++) {
		get_shdr(e, eh, shnum, i, &sh);
		if (sh.sh_type == SHT_SYMTAB && !have[0]) {
			found[0] = sh;
			have[0] = 1;
		} else if (sh.sh_type == SHT_DYNSYM && !have[1]) {
			found[1] = sh;
			have[1] = 1;
		}
	}
	/* .symtab knows every function; .dynsym only the exported ones. */
	for (int k = 0; k < 2; k++) {
		if (!have[k])
			continue;
		if (read_symtab(e, eh, shnum, &found[k], err, errlen))
			return -1;
		if (e->nsyms)
			return 0;
		free(e->syms);
		e->syms = NULL;
	}
	return 0;
}

static struct elf_image *parse(uint8_t *img, size_t size, char *err, size_t errlen)
{
	struct elf_image *e = calloc(1, sizeof(*e));
	Elf64_Ehdr eh;

	if (!e) {
		free(img);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	e->img = img;
	e->size = size;
	if (size < sizeof(eh) || memcmp(img, ELFMAG, SELFMAG)) {
		snprintf(err, errlen, "not an ELF file");
		goto fail;
	}
	memcpy(&eh, img, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
		snprintf(err, errlen, "not ELF64 little-endian");
		goto fail;
	}
	if (load_phdrs(e, &eh, err, errlen) || load_symbols(e, &eh, err, errlen))
		goto fail;
	return e;
fail:
	elf_close(e);
	return NULL;
}

struct elf_image *elf_open(const char *path, char *err, size_t errlen)
{
	size_t len;
	uint8_t *img = read_whole_file(path, MAX_ELF_FILE, &len);

	if (!img) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	return parse(img, len, err, errlen);
}

struct elf_image *elf_from_memory(const void *buf, size_t len, char *err,
				  size_t errlen)
{
	uint8_t *img = malloc(len ? len : 1);

	if (!img) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	memcpy(img, buf, len);
	return parse(img, len, err, errlen);
}

const char *elf_func_at(const struct elf_image *e, uint64_t off, uint64_t *vaddr)
{
	size_t lo = 0, hi = e->nsyms;
	uint64_t va = 0;
	int mapped = 0;

	for (size_t i = 0; i < e->nloads && !mapped; i++) {
		const struct elf_load *l = &e->loads[i];

		if (off >= l->off && off - l->off < l->filesz) {
			va = l->vaddr + (off - l->off);
			mapped = 1;
		}
	}
	if (vaddr)
		*vaddr = va;
	if (!mapped)
		return NULL;
	/* First symbol above va; the candidates are just below it. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->syms[mid].value <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i > 0 && k < COVER_LOOKBACK; i--, k++) {
		const struct elf_sym *s = &e->syms[i - 1];

		if (va - s->value < s->size)
			return s->name;
	}
	return NULL;
}

size_t elf_num_funcs(const struct elf_image *e)
{
	return e->nsyms;
}

void elf_close(struct elf_image *e)
{
	if (!e)
		return;
	free(e->img);
	free(e->loads);
	free(e->syms);
	free(e);
}
