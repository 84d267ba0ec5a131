// SPDX-License-Identifier: GPL-2.0-only
/* Whole-file reads, mkdir -p, rm -rf, outputs written whole. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"

int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err;
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st))
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto fail;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		goto fail;
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

uint8_t *read_whole_file(const char *path, size_t max, size_t *len)
{
	int fd = open_regular(path);
	uint8_t *buf = NULL;
	size_t have = 0;
	struct stat st;

	*len = 0;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st))
		goto fail;
	if ((uint64_t)st.st_size > max) {
		*len = (uint64_t)st.st_size < SIZE_MAX ? (size_t)st.st_size : SIZE_MAX;
		errno = EFBIG;
		goto fail;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		goto fail;
	/* Read what is there now; the size may change under us. */
	while (have < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + have, st.st_size - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (!n)
			break;
		have += n;
	}
	buf[have] = 0;
	close(fd);
	*len = have;
	return buf;
fail:
	have = errno;
	free(buf);
	close(fd);
	errno = have;
	return NULL;
}

const char *read_failed(char *why, size_t whylen, int err, size_t len, uint64_t max,
			const char *reader)
{
	if (err == EFBIG)
		snprintf(why, whylen, "%zu bytes, more than %s (%llu)", len, reader,
			 (unsigned long long)max);
	else
		snprintf(why, whylen, "%s", strerror(err));
	return why;
}

/* "4096", "64K", "1G": bytes; 0 if it is not a size from 1 byte to 2^62. */
static uint64_t parse_size(const char *s)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end == 'K' || *end == 'M' || *end == 'G')
		shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 30;
	if (errno || end[!!shift] || v > (1ull << 62) >> shift)
		return 0;
	return v << shift;
}

uint64_t files_read_max(void)
{
	static int said;
	const char *env = getenv(FILES_READ_MAX_ENV);
	uint64_t v;

	if (!env)
		return FILES_READ_MAX;
	v = parse_size(env);
	if (v)
		return v;
	if (!said++)
		fprintf(stderr, "aca-host: %s='%.32s' is not a size from 1 byte to 2^62 "
			"(bytes, or with K, M or G); reading up to %llu bytes a file\n",
			FILES_READ_MAX_ENV, env, (unsigned long long)FILES_READ_MAX);
	return FILES_READ_MAX;
}

/* read_failed() past files_read_max() @max, the variable named. */
static void read_max_failed(char *why, size_t whylen, int err, size_t len, uint64_t max)
{
	size_t n;

	read_failed(why, whylen, err, len, max, "aca-host reads of a file");
	n = strlen(why);
	if (err == EFBIG)
		snprintf(why + n, whylen - n, "; " FILES_READ_MAX_ENV "=BYTES raises it");
}

uint8_t *read_record_file(const char *path, size_t *len, char *why, size_t whylen)
{
	uint64_t max = files_read_max();
	uint8_t *buf = read_whole_file(path, max, len);
	int err = errno;

	if (buf)
		return buf;
	read_max_failed(why, whylen, err, *len, max);
	errno = err;
	return NULL;
}

int files_check_size(int fd, char *why, size_t whylen)
{
	uint64_t max = files_read_max();
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	if ((uint64_t)st.st_size <= max)
		return 0;
	read_max_failed(why, whylen, EFBIG, (size_t)st.st_size, max);
	errno = EFBIG;
	return -1;
}

int make_dirs(const char *path)
{
	char p[PATH_MAX];
	size_t n = strlen(path);

	if (!n || n >= sizeof(p)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(p, path, n + 1);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0755) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	if (mkdir(p, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1, err;

	if (!d)
		return -1;
	errno = 0;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	err = empty ? errno : 0;
	closedir(d);
	errno = err;
	return err ? -1 : empty;
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	return remove(path);
}

int remove_tree(const char *path)
{
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int out_tmp_create(const char *out, char *tmp)
{
	if (snprintf(tmp, OUT_TMP_MAX, "%s.tmp", out) >= OUT_TMP_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	unlink(tmp);
	return open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

int out_tmp_finish(int fd, const char *tmp, const char *out, int err)
{
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (!err && rename(tmp, out))
		err = errno;
	if (err)
		unlink(tmp);
	return err;
}
