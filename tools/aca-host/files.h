/* SPDX-License-Identifier: GPL-2.0-only */
/* Small file helpers of aca-host: whole-file reads, directories. */
#ifndef ACA_HOST_FILES_H
#define ACA_HOST_FILES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Open @path to read it only if it is a regular file: opened O_NONBLOCK,
 * so that a FIFO or a device never blocks the open, then checked with
 * fstat() before any read. Returns the descriptor (blocking again), or -1
 * with errno set (EISDIR, or EINVAL for any other kind of file).
 */
int open_regular(const char *path);

/*
 * Read @path into a malloc()ed buffer (NUL-terminated beyond *@len, so
 * text can be parsed in place). Only a regular file is read
 * (open_regular()), and files over @max bytes are refused before anything
 * is allocated: every input is untrusted. Returns NULL with errno set
 * (EFBIG when too big, *@len then its size).
 */
uint8_t *read_whole_file(const char *path, size_t max, size_t *len);

/*
 * Why read_whole_file() failed, from the errno (@err) and *@len it left,
 * into @why: past its @max, "N bytes, more than @reader (MAX)" (@reader
 * says who reads what: "report reads"); else strerror(@err). Returns @why.
 */
const char *read_failed(char *why, size_t whylen, int err, size_t len, uint64_t max,
			const char *reader);

/*
 * The most bytes aca-host reads into memory of one file a collection
 * names or holds: each cpuN.bin and module.bin (report, script,
 * perf-data, pprof and top read them whole; collect and top read them
 * for the kernel addresses to name, collect module.bin to count its
 * records), a kallsyms copy. FILES_READ_MAX by
 * default, or $ACA_HOST_READ_MAX: bytes, a decimal number with an
 * optional K, M or G (KiB, MiB, GiB), from 1 to 2^62. Any other value is
 * said on stderr (once) and the default used.
 */
#define FILES_READ_MAX		(1ull << 30)
#define FILES_READ_MAX_ENV	"ACA_HOST_READ_MAX"
uint64_t files_read_max(void);

/*
 * read_whole_file() of a file files_read_max() bounds, why it failed in
 * @why (read_failed(); past the bound "N bytes, more than aca-host reads
 * of a file (MAX); ACA_HOST_READ_MAX=BYTES raises it").
 */
uint8_t *read_record_file(const char *path, size_t *len, char *why, size_t whylen);
/*
 * Whether the file open at @fd, read a piece at a time but kept in memory
 * as it goes, is within files_read_max(): 0, or -1 with errno and @why as
 * read_record_file() says them.
 */
int files_check_size(int fd, char *why, size_t whylen);

/* mkdir -p @path (mode 0755). Returns 0, or -1 with errno set. */
int make_dirs(const char *path);

/* 1 if directory @path has no entry, 0 if it has, -1 with errno set. */
int dir_is_empty(const char *path);

/* rm -rf @path, never following a symbolic link. 0, or -1 with errno set. */
int remove_tree(const char *path);

/*
 * An output file written whole or not at all: @out.tmp is created for it
 * (ours alone: a file or link already there is replaced, never followed),
 * written, and only then renamed to @out.
 */
#define OUT_TMP_MAX		4200	/* @out's length + ".tmp" and its NUL */
/*
 * Create @out.tmp, its name in @tmp (OUT_TMP_MAX bytes). Returns its
 * descriptor, or -1 with errno set (ENAMETOOLONG: @out is too long).
 */
int out_tmp_create(const char *out, char *tmp);
/*
 * Finish @tmp (the descriptor @fd, which is closed in any case): when @err
 * is 0, sync it and rename it to @out; otherwise, or if that fails, remove
 * it. Returns 0, or the errno of the first failure (@err itself if not 0).
 */
int out_tmp_finish(int fd, const char *tmp, const char *out, int err);

#endif /* ACA_HOST_FILES_H */
