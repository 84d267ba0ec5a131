// SPDX-License-Identifier: GPL-2.0-only
/* Folded stacks, stackcollapse-perf.pl's default rules (folded.h). */
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "perfnames.h"
#include "util.h"

static void add(struct fold *f, const char *s, size_t n)
{
	char *p;

	if (f->nomem)
		return;
	p = grow(f->p, &f->cap, f->len + n + 1, 1);
	if (!p) {
		f->nomem = 1;
		return;
	}
	f->p = p;
	memcpy(f->p + f->len, s, n);
	f->len += n;
	f->p[f->len] = 0;
}

void fold_begin(struct fold *f, const char *comm)
{
	f->len = 0;
	f->nomem = 0;
	add(f, "", 0);
	for (const char *c = comm; *c; c++)
		add(f, *c == ' ' ? "_" : c, 1);
}

/* Its --tidy-generic: what a C++ or Java name carries besides the name. */
static void tidy(char *s)
{
	char *p, *q;

	for (p = s; *p; p++)
		if (*p == ';')
			*p = ':';
	/* 'foo.(bar).run()', an annotated Java frame, keeps its brackets. */
	p = strstr(s, ".(");
	if (!p || !strstr(p + 2, ").")) {
		for (p = q = s; *p; p++)
			if (*p != '<' && *p != '>')
				*q++ = *p;
		*q = 0;
		if (strncmp(s, "(anonymous namespace)", 21)) {
			p = strchr(s, '(');
			if (p)
				*p = 0;
		}
	}
	for (p = q = s; *p; p++)
		if (*p != '"' && *p != '\'')
			*q++ = *p;
	*q = 0;
}

void fold_frame(struct fold *f, const char *func, const char *dso)
{
	char raw[PERF_NAME_MAX], piece[PERF_NAME_MAX + 2];
	const char *p, *end;

	/* Its frame pattern wants a module without blanks: others are not frames. */
	if (strpbrk(dso, " \t\n\r\f\v"))
		return;

	/* The script line's name, after the blanks its pattern skips. */
	while (func && (*func == ' ' || *func == '\t'))
		func++;
	snprintf(raw, sizeof(raw), "%s", func && *func ? func : "[unknown]");
	if (raw[0] == '(')	/* taken for a process name: skipped */
		return;
	/* Perl's split drops the empty names at the end. */
	end = raw + strlen(raw);
	while (end - raw >= 2 && !strncmp(end - 2, "->", 2))
		end -= 2;
	for (p = raw; p < end;) {
		const char *next = strstr(p, "->");
		size_t n = next && next < end ? (size_t)(next - p) : (size_t)(end - p);

		memcpy(piece, p, n);
		piece[n] = 0;
		if (!strcmp(piece, "[unknown]") && strcmp(dso, "[unknown]"))
			snprintf(piece, sizeof(piece), "[%s]", perf_base_name(dso));
		tidy(piece);
		add(f, ";", 1);
		add(f, piece, strlen(piece));
		p += n + 2;
	}
}

const char *fold_line(struct fold *f)
{
	return f->nomem || !f->p ? NULL : f->p;
}

void fold_free(struct fold *f)
{
	free(f->p);
	memset(f, 0, sizeof(*f));
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct tally_entry *)a)->key,
		      ((const struct tally_entry *)b)->key);
}

int folded_print(const struct tally *stacks, FILE *out)
{
	size_t n;
	struct tally_entry *v = tally_sorted(stacks, &n);

	if (!v)
		return -1;
	qsort(v, n, sizeof(*v), by_key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s %llu\n", v[i].key, (unsigned long long)v[i].count);
	free(v);
	return 0;
}
