/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which samples a report or script keeps, as perf report's filters: --pid,
 * --tid, --comms LIST and --dsos LIST (comma-separated names: a comm or
 * the executable's whole base name; a dso by perf's long or short name).
 */
#ifndef ACA_HOST_FILTER_H
#define ACA_HOST_FILTER_H

#include <stddef.h>
#include <stdint.h>

#define FILTER_MAX_NAMES	1024	/* per list */

struct name_list {
	char **v;
	size_t n;
};

struct sample_filter {
	int only_pid, only_tid;
	uint32_t pid, tid;
	struct name_list comms, dsos;	/* n 0: any */
};

/*
 * Parse @csv ("a,b,c") into @l. Returns 0; -1 on an empty name, more than
 * FILTER_MAX_NAMES, or no memory (said on stderr after @what).
 */
int name_list_parse(struct name_list *l, const char *csv, const char *what);
void name_list_free(struct name_list *l);

/* Whether a list filter is set at all: a sample needs its names. */
int filter_by_names(const struct sample_filter *f);

/*
 * Whether to keep a sample of @pid/@tid named so: @comm and @exe its comm
 * and executable's base name, @dso and @dso_short its dso's long and short
 * names (NULL when filter_by_names() is 0).
 */
int filter_keep(const struct sample_filter *f, uint32_t pid, uint32_t tid,
		const char *comm, const char *exe, const char *dso,
		const char *dso_short);

#endif /* ACA_HOST_FILTER_H */
