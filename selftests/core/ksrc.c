// SPDX-License-Identifier: GPL-2.0-only
/* The kernel's own source as a test oracle (ksrc.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksrc.h"

bool ksrc_load(struct ksrc *k, const char *path)
{
	FILE *f = fopen(path, "r");
	long len;

	k->text = NULL;
	if (!f)
		return false;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		k->text = calloc(1, len + 1);
		if (k->text && fread(k->text, 1, len, f) != (size_t)len) {
			free(k->text);
			k->text = NULL;
		}
	}
	fclose(f);
	return k->text != NULL;
}

void ksrc_free(struct ksrc *k)
{
	free(k->text);
	k->text = NULL;
}

/* The body of "#define @name" (up to its end of line, continuations joined). */
static bool kdefine(const struct ksrc *k, const char *name, size_t n, char *body, size_t len)
{
	char want[64];
	const char *p;
	size_t o = 0;

	snprintf(want, sizeof(want), "#define %.*s", (int)n, name);
	for (p = strstr(k->text, want); p; p = strstr(p + 1, want)) {
		char c = p[strlen(want)];

		if (c == ' ' || c == '\t')
			break;
	}
	if (!p)
		return false;
	for (p += strlen(want); *p && *p != '\n' && o + 1 < len; p++) {
		if (*p == '\\' && p[1] == '\n') {
			p++;
			continue;
		}
		body[o++] = *p;
	}
	body[o] = 0;
	/* Comments after the value. */
	if (strstr(body, "/*"))
		*strstr(body, "/*") = 0;
	return true;
}

static const char *skip(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\n'))
		s++;
	return s;
}

/* Macros within macros, at most this deep: a self-referential one ends here. */
#define KSRC_MAX_NESTING	32

static bool eval(const struct ksrc *k, const char *s, size_t n, s64 *v, int nesting);

bool ksrc_eval_n(const struct ksrc *k, const char *s, size_t n, s64 *v)
{
	return eval(k, s, n, v, 0);
}

static bool eval(const struct ksrc *k, const char *s, size_t n, s64 *v, int nesting)
{
	const char *end = s + n, *p;
	int depth = 0;
	char body[512];

	if (nesting > KSRC_MAX_NESTING)
		return false;
	s = skip(s, end);
	while (end > s && strchr(" \t\n", end[-1]))
		end--;
	if (s == end)
		return false;
	/* Lowest precedence first: | then <<, at depth 0. */
	for (const char *op = "|<"; *op; op++) {
		for (p = s, depth = 0; p < end; p++) {
			if (*p == '(')
				depth++;
			else if (*p == ')')
				depth--;
			else if (!depth && *p == *op &&
				 (*op == '|' || (p + 1 < end && p[1] == '<'))) {
				size_t w = *op == '|' ? 1 : 2;
				s64 a, b;

				if (!eval(k, s, p - s, &a, nesting) ||
				    !eval(k, p + w, end - p - w, &b, nesting))
					return false;
				*v = *op == '|' ? (a | b) : (s64)((u64)a << b);
				return true;
			}
		}
	}
	if (*s == '(' && end[-1] == ')')
		return eval(k, s + 1, end - s - 2, v, nesting);
	if (*s == '-') {
		if (!eval(k, s + 1, end - s - 1, v, nesting))
			return false;
		*v = -*v;
		return true;
	}
	if (*s >= '0' && *s <= '9') {
		char *e;

		*v = (s64)strtoull(s, &e, 0);
		while (e < end && strchr("uUlL", *e))
			e++;
		return e == end;
	}
	if (!kdefine(k, s, end - s, body, sizeof(body)))
		return false;
	return eval(k, body, strlen(body), v, nesting + 1);
}

bool ksrc_eval(const struct ksrc *k, const char *expr, s64 *v)
{
	return ksrc_eval_n(k, expr, strlen(expr), v);
}
