/* SPDX-License-Identifier: GPL-2.0-only */
/* Small file helpers of aca-host: whole-file reads, directories. */
#ifndef ACA_HOST_FILES_H
#define ACA_HOST_FILES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Read @path into a malloc()ed buffer (NUL-terminated beyond *@len, so
 * text can be parsed in place). Files over @max bytes are refused: every
 * input is untrusted. Returns NULL with errno set (EFBIG when too big).
 */
uint8_t *read_whole_file(const char *path, size_t max, size_t *len);

/* mkdir -p @path (mode 0755). Returns 0, or -1 with errno set. */
int make_dirs(const char *path);

/* 1 if directory @path has no entry, 0 if it has, -1 with errno set. */
int dir_is_empty(const char *path);

/* rm -rf @path, never following a symbolic link. 0, or -1 with errno set. */
int remove_tree(const char *path);

#endif /* ACA_HOST_FILES_H */
