/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Names for the addresses of one binary, through elfutils' libdwfl: the
 * symbols of its .symtab or .dynsym, or of a separate debug file found by
 * build-id (DIR/.build-id/xx/yyyy.debug) or by .gnu_debuglink (next to the
 * file, in its .debug/, or below DIR), or from a debuginfod server when
 * DEBUGINFOD_URLS is set; source file and line from the DWARF of either.
 * The binary is placed at its link-time addresses: callers turn a file
 * offset or a runtime address into one.
 */
#ifndef ACA_HOST_SYMBOLS_H
#define ACA_HOST_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct symfile;

struct sym_hit {
	const char *name;	/* NULL: no symbol covers the address */
	uint64_t offset;	/* from the symbol's start */
	const char *src;	/* source file, or NULL */
	int line;		/* 0: unknown */
};

/*
 * Open @path, with separate debug files looked up below @debug_dir (NULL:
 * /usr/lib/debug). NULL with a reason in @err if it is not a regular file
 * (a FIFO is neither waited on nor read: open_regular(), files.h) or not
 * an ELF file libdwfl can use.
 */
struct symfile *sym_open(const char *path, const char *debug_dir, char *err,
			 size_t errlen);

/*
 * The link-time address of file offset @off: inside the file part of a
 * PT_LOAD segment. Returns 0, or -1 if no segment holds it.
 */
int sym_addr_of_offset(const struct symfile *f, uint64_t off, uint64_t *addr);

/*
 * Whether an executable mapping of @len bytes from file offset @off can be
 * of this file: it lies inside an executable PT_LOAD segment, rounded out
 * to pages as mmap() maps it. Returns 0, or -1 with what does not fit in
 * @err: the file is another build of the one that ran.
 */
int sym_check_mapping(const struct symfile *f, uint64_t off, uint64_t len,
		      char *err, size_t errlen);

/* What covers link-time address @addr; @want_line: look up the source. */
void sym_at(struct symfile *f, uint64_t addr, int want_line, struct sym_hit *hit);

/* The value of symbol @name (a function or a label). Returns 0, or -1. */
int sym_value(struct symfile *f, const char *name, uint64_t *value);

/* Number of symbols, of the debug file's table if one was found. */
size_t sym_count(struct symfile *f);

/*
 * The GNU build-id of the binary opened (not of a debug file): its size,
 * with *@id pointing at it until sym_close(); 0 if it has none.
 */
size_t sym_build_id(struct symfile *f, const uint8_t **id);

/* The file the symbols come from: the debug file, or the binary itself. */
const char *sym_source(struct symfile *f);

void sym_close(struct symfile *f);

#endif /* ACA_HOST_SYMBOLS_H */
