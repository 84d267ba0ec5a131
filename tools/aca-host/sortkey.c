// SPDX-License-Identifier: GPL-2.0-only
/* report --sort keys (sortkey.h). */
#include <stdio.h>
#include <string.h>

#include "sortkey.h"

static const char *const names[SORT_NKEYS] = {
	[SORT_COMM] = "comm",
	[SORT_PID] = "pid",
	[SORT_TID] = "tid",
	[SORT_DSO] = "dso",
	[SORT_SYM] = "sym",
	[SORT_SRCLINE] = "srcline",
};

const char *sort_key_name(enum sort_key k)
{
	return k < SORT_NKEYS ? names[k] : "?";
}

int sort_keys_have(const struct sort_keys *s, enum sort_key k)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->k[i] == k)
			return 1;
	return 0;
}

int sort_keys_parse(struct sort_keys *s, const char *csv, const char *what)
{
	const char *p = csv;

	memset(s, 0, sizeof(*s));
	for (;;) {
		size_t len = strcspn(p, ",");
		int k;

		for (k = 0; k < SORT_NKEYS; k++)
			if (strlen(names[k]) == len && !strncmp(p, names[k], len))
				break;
		if (k == SORT_NKEYS || sort_keys_have(s, k)) {
			fprintf(stderr, "%s: '%.*s' in '%s' is %s key (keys: comm, pid, tid, "
				"dso, sym, srcline)\n", what, (int)len, p, csv,
				k == SORT_NKEYS ? "not a" : "a repeated");
			s->n = 0;
			return -1;
		}
		s->k[s->n++] = k;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void sort_keys_default(struct sort_keys *s)
{
	s->n = 3;
	s->k[0] = SORT_COMM;
	s->k[1] = SORT_DSO;
	s->k[2] = SORT_SYM;
}
