/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report --sort KEYS: the keys a table of samples is grouped by, perf
 * report's names: comm, pid, tid, dso (perf's short name), sym (the
 * function, or module+0xOFFSET, or [unknown]) and srcline (FILE:LINE of
 * the sample's address from DWARF, ??:0 when unknown).
 */
#ifndef ACA_HOST_SORTKEY_H
#define ACA_HOST_SORTKEY_H

#include <stddef.h>

enum sort_key {
	SORT_COMM,
	SORT_PID,
	SORT_TID,
	SORT_DSO,
	SORT_SYM,
	SORT_SRCLINE,
	SORT_NKEYS
};

/* Between the values of one row's keys in a tally key: never in a name. */
#define SORT_SEP	'\x1f'

struct sort_keys {
	enum sort_key k[SORT_NKEYS];
	size_t n;			/* 0: not given */
};

/*
 * Parse @csv ("comm,dso,sym") into @s. Returns 0; -1 on an unknown,
 * empty or repeated key (said on stderr after @what).
 */
int sort_keys_parse(struct sort_keys *s, const char *csv, const char *what);

/* perf report's default: comm,dso,sym. */
void sort_keys_default(struct sort_keys *s);

const char *sort_key_name(enum sort_key k);

/* Whether @s has @k. */
int sort_keys_have(const struct sort_keys *s, enum sort_key k);

#endif /* ACA_HOST_SORTKEY_H */
