/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Just enough ELF to name a function: the PT_LOAD program headers (file
 * offset to virtual address) and the STT_FUNC symbols of .symtab, or of
 * .dynsym when the file is stripped. ELF64 little-endian only; every
 * offset, size and string in the file is checked before use.
 */
#ifndef ACA_HOST_ELFSYM_H
#define ACA_HOST_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

struct elf_image;

/* NULL with a reason in @err if @path is not a usable ELF64 LE file. */
struct elf_image *elf_open(const char *path, char *err, size_t errlen);

/* The same, from bytes in memory (copied). */
struct elf_image *elf_from_memory(const void *buf, size_t len, char *err,
				  size_t errlen);

/*
 * The function covering file offset @off of a mapped image, or NULL. With
 * @vaddr non-NULL, the virtual address @off maps to is stored there (0 if
 * no PT_LOAD covers it).
 */
const char *elf_func_at(const struct elf_image *e, uint64_t off, uint64_t *vaddr);

/* Number of function symbols found (for diagnostics and tests). */
size_t elf_num_funcs(const struct elf_image *e);

void elf_close(struct elf_image *e);

#endif /* ACA_HOST_ELFSYM_H */
