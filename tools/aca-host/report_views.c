// SPDX-License-Identifier: GPL-2.0-only
/* The --sort table and the callers table (report_views.h). */
#include <stdlib.h>
#include <string.h>

#include "report_views.h"
#include "textesc.h"
#include "util.h"

#define MAX_COLUMN	80	/* text: wider values overflow their column */

/* Field @i of a key of values joined by SORT_SEP: its start and length. */
static const char *field(const char *key, size_t i, size_t *len)
{
	while (i--) {
		key = strchr(key, SORT_SEP);
		if (!key) {
			*len = 0;
			return "";
		}
		key++;
	}
	*len = strcspn(key, (char[]){ SORT_SEP, 0 });
	return key;
}

static void text_rows(const struct report *r, const struct tally_entry *v,
		      size_t shown, size_t n, FILE *out)
{
	size_t width[SORT_NKEYS], len;

	fprintf(out, "\nBy ");
	for (size_t k = 0; k < r->keys.n; k++) {
		fprintf(out, "%s%s", k ? "," : "", sort_key_name(r->keys.k[k]));
		width[k] = strlen(sort_key_name(r->keys.k[k]));
		for (size_t i = 0; i < shown; i++) {
			field(v[i].key, k, &len);
			if (len > width[k])
				width[k] = len < MAX_COLUMN ? len : MAX_COLUMN;
		}
	}
	if (shown < n)
		fprintf(out, " (top %zu of %zu)", shown, n);
	fprintf(out, "\n   samples        %%");
	for (size_t k = 0; k < r->keys.n; k++)
		fprintf(out, "  %-*s", k + 1 < r->keys.n ? (int)width[k] : 0,
			sort_key_name(r->keys.k[k]));
	fputc('\n', out);
	for (size_t i = 0; i < shown; i++) {
		fprintf(out, "%10llu  %6.2f%%", (unsigned long long)v[i].count,
			pct(v[i].count, r->samples));
		for (size_t k = 0; k < r->keys.n; k++) {
			const char *s = field(v[i].key, k, &len);

			fprintf(out, "  %.*s", (int)len, s);
			if (k + 1 < r->keys.n && len < width[k])
				fprintf(out, "%*s", (int)(width[k] - len), "");
		}
		fputc('\n', out);
	}
}

/* One value of a key, as its own NUL-terminated string. */
static char *value(const char *key, size_t k)
{
	size_t len;
	const char *s = field(key, k, &len);

	return strndup(s, len);
}

static void csv_rows(const struct report *r, const struct tally_entry *v,
		     size_t shown, FILE *out)
{
	fprintf(out, "samples,percent");
	for (size_t k = 0; k < r->keys.n; k++)
		fprintf(out, ",%s", sort_key_name(r->keys.k[k]));
	fputc('\n', out);
	for (size_t i = 0; i < shown; i++) {
		fprintf(out, "%llu,%.2f", (unsigned long long)v[i].count,
			pct(v[i].count, r->samples));
		for (size_t k = 0; k < r->keys.n; k++) {
			char *s = value(v[i].key, k);

			fputc(',', out);
			csv_field(out, s ? s : "");
			free(s);
		}
		fputc('\n', out);
	}
}

static void json_rows(const struct report *r, const struct tally_entry *v,
		      size_t shown, size_t n, FILE *out)
{
	fprintf(out, "{\"samples\": %llu, \"rows_total\": %zu, \"sort\": [",
		(unsigned long long)r->samples, n);
	for (size_t k = 0; k < r->keys.n; k++)
		fprintf(out, "%s\"%s\"", k ? ", " : "", sort_key_name(r->keys.k[k]));
	fprintf(out, "], \"rows\": [");
	for (size_t i = 0; i < shown; i++) {
		fprintf(out, "%s\n  {\"samples\": %llu, \"percent\": %.2f", i ? "," : "",
			(unsigned long long)v[i].count, pct(v[i].count, r->samples));
		for (size_t k = 0; k < r->keys.n; k++) {
			char *s = value(v[i].key, k);

			fprintf(out, ", \"%s\": ", sort_key_name(r->keys.k[k]));
			/* pid and tid are numbers; every other value a string. */
			if (s && (r->keys.k[k] == SORT_PID || r->keys.k[k] == SORT_TID))
				fputs(s, out);
			else
				json_string(out, s ? s : "");
			free(s);
		}
		fputc('}', out);
	}
	fprintf(out, "%s]}\n", shown ? "\n" : "");
}

void report_sorted(const struct report *r, const struct report_opts *o, FILE *out)
{
	size_t n, shown;
	struct tally_entry *v = tally_sorted(&r->sorted, &n);

	if (!v) {
		fprintf(out, "\n(out of memory)\n");
		return;
	}
	shown = o->top && o->top < n ? o->top : n;
	if (o->format == REPORT_CSV)
		csv_rows(r, v, shown, out);
	else if (o->format == REPORT_JSON)
		json_rows(r, v, shown, n, out);
	else
		text_rows(r, v, shown, n, out);
	free(v);
}

/*
 * The REPORT_CALLER_FUNCS functions most in @funcs, each followed by its
 * "FUNCTION" SORT_SEP "OTHER" entries of @pairs, most first, as shares of
 * the function's count (@what: "callers" or "callees").
 */
static void pairs_table(const struct report *r, const struct report_opts *o,
			const struct tally *funcs, const struct tally *pairs,
			const char *what, FILE *out)
{
	size_t nf, nc, shown_funcs;
	struct tally_entry *f = tally_sorted(funcs, &nf);
	struct tally_entry *c = tally_sorted(pairs, &nc);

	if (!f || !c) {
		fprintf(out, "(out of memory)\n");
		goto out;
	}
	shown_funcs = nf < REPORT_CALLER_FUNCS ? nf : REPORT_CALLER_FUNCS;
	for (size_t i = 0; i < shown_funcs; i++) {
		size_t klen = strlen(f[i].key), shown = 0, more = 0;

		fprintf(out, "%10llu  %6.2f%%  %s\n", (unsigned long long)f[i].count,
			pct(f[i].count, r->samples), f[i].key);
		/* By count: c[] is sorted already. */
		for (size_t j = 0; j < nc; j++) {
			if (strncmp(c[j].key, f[i].key, klen) || c[j].key[klen] != SORT_SEP)
				continue;
			if (o->top && shown == o->top) {
				more++;
				continue;
			}
			shown++;
			fprintf(out, "%10llu  %6.2f%%      %s\n", (unsigned long long)c[j].count,
				pct(c[j].count, f[i].count), c[j].key + klen + 1);
		}
		if (more)
			fprintf(out, "%22s(%zu more %s)\n", "", more, what);
	}
out:
	free(f);
	free(c);
}

void report_callers(const struct report *r, const struct report_opts *o, FILE *out)
{
	fprintf(out, "\nCallers of the hottest functions (%llu samples with callers, %.2f%%)\n"
		"   samples        %%  function\n"
		"                      caller\n", (unsigned long long)r->with_callers,
		pct(r->with_callers, r->samples));
	pairs_table(r, o, &r->functions, &r->callers, "callers", out);
	fprintf(out, "\nCallees of the functions in the most stacks (self and children, "
		"perf report --children)\n"
		"   samples        %%  function\n"
		"                      callee, or %s\n", REPORT_SELF);
	pairs_table(r, o, &r->children, &r->callees, "callees", out);
}
