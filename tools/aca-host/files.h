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
 * (open_regular()), and files over @max bytes are refused: every input is
 * untrusted. Returns NULL with errno set (EFBIG when too big).
 */
uint8_t *read_whole_file(const char *path, size_t max, size_t *len);

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
