// SPDX-License-Identifier: GPL-2.0-only
/* Reading a copy of /proc/kallsyms (kallsyms.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "kallsyms.h"
#include "util.h"

#define MAX_LINE	1024		/* KSYM_NAME_LEN is 512 */
#define MAX_SYMS	(16u << 20)

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The stored copy of module name @m; NULL when out of memory. */
static const char *module_name(struct ksyms *k, const char *m)
{
	char **v;

	/* Lines of one module come together: the last one is the likely one. */
	for (size_t i = k->nmodules; i-- > 0;)
		if (!strcmp(k->modules[i], m))
			return k->modules[i];
	v = realloc(k->modules, (k->nmodules + 1) * sizeof(*v));
	if (!v)
		return NULL;
	k->modules = v;
	v[k->nmodules] = strdup(m);
	return v[k->nmodules] ? v[k->nmodules++] : NULL;
}

/* One line into @s (name malloc()ed). 1: taken, 0: not text, -1: malformed. */
static int parse_line(struct ksyms *k, const char *line, struct ksym *s, int *zero)
{
	char type, name[MAX_LINE], mod[MAX_LINE] = "";
	unsigned long long addr;
	int n;

	n = sscanf(line, "%llx %c %1023s [%1023[^]]]", &addr, &type, name, mod);
	if (n < 3 || strlen(mod) > 64)
		return -1;
	/* Functions: text, and weak symbols (kallsyms lists weak functions as W). */
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	if (addr)
		*zero = 0;
	s->addr = addr;
	s->size = 0;
	s->module = module_name(k, mod);
	s->name = strdup(name);
	if (!s->module || !s->name) {
		free(s->name);
		return -2;
	}
	if (!mod[0] && !strcmp(name, "_stext"))
		k->stext = addr;
	return 1;
}

/*
 * A regular file (open_regular()) to read by lines, or NULL with errno set:
 * never a FIFO, whose open or read would wait for a writer.
 */
static FILE *open_lines(const char *path)
{
	int fd = open_regular(path), err;
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f) {
		err = errno;
		close(fd);
		errno = err;
	}
	return f;
}

/*
 * PATH.size, if there is one: "ADDRESS SIZE" lines (hex) give the symbols
 * at ADDRESS their size. Malformed lines are counted and skipped.
 */
static void load_sizes(const char *path, struct ksyms *k)
{
	char spath[4096 + 8], *line = NULL;
	size_t len = 0;
	ssize_t got;
	FILE *f;

	if (snprintf(spath, sizeof(spath), "%s.size", path) >= (int)sizeof(spath))
		return;
	f = open_lines(spath);
	if (!f)
		return;
	while ((got = getline(&line, &len, f)) >= 0) {
		unsigned long long addr, size;
		size_t lo = 0, hi = k->n;
		char end;

		if (got > MAX_LINE || memchr(line, 0, got) ||
		    sscanf(line, "%llx %llx %c", &addr, &size, &end) != 2) {
			k->malformed++;
			continue;
		}
		/* The first symbol at @addr, then every one there. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (k->v[mid].addr < addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < k->n && k->v[lo].addr == addr; lo++)
			k->v[lo].size = size;
	}
	free(line);
	fclose(f);
}

int ksyms_load(const char *path, struct ksyms *k, char *err, size_t errlen)
{
	FILE *f = open_lines(path);
	size_t cap = 0, len = 0;
	char *line = NULL;
	ssize_t got;
	int zero = 1;

	memset(k, 0, sizeof(*k));
	if (!f) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	/* Each line a symbol kept: no bigger than any file aca-host holds. */
	if (files_check_size(fileno(f), err, errlen)) {
		fclose(f);
		return -1;
	}
	while ((got = getline(&line, &len, f)) >= 0) {
		struct ksym s, *v;
		int r;

		if (got > MAX_LINE || memchr(line, 0, got)) {
			k->malformed++;
			continue;
		}
		r = parse_line(k, line, &s, &zero);
		if (r == -1)
			k->malformed++;
		if (r == -2 || (r == 1 && k->n == MAX_SYMS)) {
			snprintf(err, errlen, r == -2 ? "out of memory" :
				 "more than %u text symbols", MAX_SYMS);
			free(r == 1 ? s.name : NULL);
			goto fail;
		}
		if (r != 1)
			continue;
		v = grow(k->v, &cap, k->n + 1, sizeof(*v));
		if (!v) {
			free(s.name);
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		k->v = v;
		k->v[k->n++] = s;
	}
	if (!k->n) {
		snprintf(err, errlen, "no function symbols (lines of \"ADDRESS t|T NAME\") in it");
		goto fail;
	}
	if (zero) {
		snprintf(err, errlen, "every address in it is 0: copy /proc/kallsyms as root (or with kernel.kptr_restrict=0)");
		goto fail;
	}
	qsort(k->v, k->n, sizeof(*k->v), by_addr);
	load_sizes(path, k);
	free(line);
	fclose(f);
	return 0;
fail:
	free(line);
	fclose(f);
	ksyms_free(k);
	return -1;
}

const struct ksym *ksyms_at(const struct ksyms *k, uint64_t addr,
			    const char *module)
{
	size_t lo = 0, hi = k->n;

	/* The first symbol above @addr; the one before it is the answer. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || strcmp(k->v[lo - 1].module, module))
		return NULL;
	/* Past its known end: not its code, whatever is nearest below. */
	if (k->v[lo - 1].size && addr - k->v[lo - 1].addr >= k->v[lo - 1].size)
		return NULL;
	return &k->v[lo - 1];
}

void ksyms_free(struct ksyms *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].name);
	for (size_t i = 0; i < k->nmodules; i++)
		free(k->modules[i]);
	free(k->v);
	free(k->modules);
	memset(k, 0, sizeof(*k));
}
