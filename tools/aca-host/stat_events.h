/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The events of aca-host stat, by the names perf gives them: software
 * events (task-clock, cpu-clock, context-switches or cs, cpu-migrations or
 * migrations, page-faults or faults, minor-faults, major-faults) and the
 * fixed counters, by their SEP names (INST_RETIRED.ANY, ...) or perf's
 * (instructions, cycles or cpu-cycles, ref-cycles). An event keeps the
 * name it was given, as perf prints it; two names of one event are the
 * same event.
 */
#ifndef ACA_HOST_STAT_EVENTS_H
#define ACA_HOST_STAT_EVENTS_H

#include <stddef.h>
#include <stdio.h>

#include "ecb.h"

/* Without -e: perf stat's software events, which count with or without a PMU. */
#define STAT_DEFAULT_EVENTS	"task-clock,context-switches,cpu-migrations,page-faults"

struct stat_event {
	char name[64];			/* as given */
	struct host_count_event ev;
	int msec;			/* counts nanoseconds, printed as msec */
};

/* The events of one counting group, in the order given (and printed). */
struct stat_events {
	struct stat_event e[HOST_MAX_COUNT_EVENTS];
	unsigned int n;
};

/* What @name counts into *@e; 0, or -1 if no event has that name. */
int stat_event_lookup(const char *name, struct stat_event *e);

/*
 * Add the events of @list, names separated by commas (perf's -e a,b).
 * Returns 0, or -1 with why in @err: an unknown or empty name, an event
 * given twice (by any of its names), more than HOST_MAX_COUNT_EVENTS.
 */
int stat_events_add(struct stat_events *s, const char *list, char *err, size_t errlen);

/* The known names, one event per line, for --help and errors. */
void stat_events_list(FILE *f);

/* True if some event of @s needs the PMU (a fixed counter). */
int stat_events_need_pmu(const struct stat_events *s);

#endif /* ACA_HOST_STAT_EVENTS_H */
