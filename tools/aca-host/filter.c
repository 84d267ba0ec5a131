// SPDX-License-Identifier: GPL-2.0-only
/* perf report's sample filters (filter.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"

int name_list_parse(struct name_list *l, const char *csv, const char *what)
{
	const char *p = csv;

	name_list_free(l);
	for (;;) {
		size_t len = strcspn(p, ",");
		char **v;

		if (!len || l->n == FILTER_MAX_NAMES) {
			fprintf(stderr, "%s: '%s': %s\n", what, csv,
				len ? "too many names" : "an empty name");
			name_list_free(l);
			return -1;
		}
		v = realloc(l->v, (l->n + 1) * sizeof(*v));
		if (!v || !(v[l->n] = strndup(p, len))) {
			if (v)
				l->v = v;
			fprintf(stderr, "%s: out of memory\n", what);
			name_list_free(l);
			return -1;
		}
		l->v = v;
		l->n++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void name_list_free(struct name_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int listed(const struct name_list *l, const char *a, const char *b)
{
	for (size_t i = 0; i < l->n; i++)
		if ((a && !strcmp(l->v[i], a)) || (b && !strcmp(l->v[i], b)))
			return 1;
	return 0;
}

int filter_by_names(const struct sample_filter *f)
{
	return f->comms.n || f->dsos.n;
}

int filter_keep(const struct sample_filter *f, uint32_t pid, uint32_t tid,
		const char *comm, const char *exe, const char *dso,
		const char *dso_short)
{
	if ((f->only_pid && pid != f->pid) || (f->only_tid && tid != f->tid))
		return 0;
	if (f->comms.n && !listed(&f->comms, comm, exe))
		return 0;
	return !f->dsos.n || listed(&f->dsos, dso, dso_short);
}
