// SPDX-License-Identifier: GPL-2.0-only
/* aca-host stat's event names (stat_events.h). */
#include <stdio.h>
#include <string.h>

#include "stat_events.h"
#include "../../driver/core/sep_cmd.h"

/* Software events: perf's names and ids (perf list sw). */
static const struct sw_event {
	const char *name;
	const char *alias;		/* NULL: none */
	unsigned int id;		/* ACA_SW_* */
	int msec;
	const char *what;
} sw_events[] = {
	{ "task-clock", NULL, ACA_SW_TASK_CLOCK, 1, "task clock, in msec" },
	{ "cpu-clock", NULL, ACA_SW_CPU_CLOCK, 1, "CPU clock (a per-CPU timer), in msec" },
	{ "context-switches", "cs", ACA_SW_CONTEXT_SWITCHES, 0, "context switches" },
	{ "cpu-migrations", "migrations", ACA_SW_CPU_MIGRATIONS, 0,
	  "tasks moved to another CPU" },
	{ "page-faults", "faults", ACA_SW_PAGE_FAULTS, 0, "page faults" },
	{ "minor-faults", NULL, ACA_SW_PAGE_FAULTS_MIN, 0, "page faults without I/O" },
	{ "major-faults", NULL, ACA_SW_PAGE_FAULTS_MAJ, 0, "page faults that read a page in" },
};

/* perf's names of the fixed counters' events (one or two), and SEP's. */
static const struct hw_alias {
	const char *perf, *perf2;
	const char *sep;
} hw_aliases[] = {
	{ "instructions", NULL, "INST_RETIRED.ANY" },
	{ "cycles", "cpu-cycles", "CPU_CLK_UNHALTED.THREAD" },
	{ "ref-cycles", NULL, "CPU_CLK_UNHALTED.REF_TSC" },
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

int stat_event_lookup(const char *name, struct stat_event *e)
{
	const char *sep = name;
	int counter;

	memset(e, 0, sizeof(*e));
	if (strlen(name) >= sizeof(e->name))
		return -1;
	snprintf(e->name, sizeof(e->name), "%s", name);
	for (size_t i = 0; i < ARRAY_LEN(sw_events); i++) {
		const struct sw_event *s = &sw_events[i];

		if (strcmp(name, s->name) && (!s->alias || strcmp(name, s->alias)))
			continue;
		e->ev.sw = 1;
		e->ev.num = s->id;
		e->msec = s->msec;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_LEN(hw_aliases); i++)
		if (!strcmp(name, hw_aliases[i].perf) ||
		    (hw_aliases[i].perf2 && !strcmp(name, hw_aliases[i].perf2)))
			sep = hw_aliases[i].sep;
	counter = host_ecb_fixed_counter(sep);
	if (counter < 0)
		return -1;
	e->ev.num = counter;
	return 0;
}

/* One name of @list, [@p, @end), into @s. */
static int add_one(struct stat_events *s, const char *p, size_t len, char *err,
		   size_t errlen)
{
	char name[64];
	struct stat_event e;

	if (!len) {
		snprintf(err, errlen, "an empty event name");
		return -1;
	}
	snprintf(name, sizeof(name), "%.*s", (int)len, p);
	if (len >= sizeof(name) || stat_event_lookup(name, &e)) {
		snprintf(err, errlen, "unknown event '%.*s'", (int)len, p);
		return -1;
	}
	for (unsigned int i = 0; i < s->n; i++)
		if (s->e[i].ev.sw == e.ev.sw && s->e[i].ev.num == e.ev.num) {
			snprintf(err, errlen, "event %s given twice%s%s%s", name,
				 strcmp(name, s->e[i].name) ? " (as " : "",
				 strcmp(name, s->e[i].name) ? s->e[i].name : "",
				 strcmp(name, s->e[i].name) ? ")" : "");
			return -1;
		}
	if (s->n == HOST_MAX_COUNT_EVENTS) {
		snprintf(err, errlen, "more than %u events", HOST_MAX_COUNT_EVENTS);
		return -1;
	}
	s->e[s->n++] = e;
	return 0;
}

int stat_events_add(struct stat_events *s, const char *list, char *err, size_t errlen)
{
	for (const char *p = list;; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (add_one(s, p, len, err, errlen))
			return -1;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

void stat_events_list(FILE *f)
{
	char names[64];

	for (size_t i = 0; i < ARRAY_LEN(sw_events); i++) {
		const struct sw_event *s = &sw_events[i];

		snprintf(names, sizeof(names), "%s%s%s", s->name, s->alias ? ", " : "",
			 s->alias ? s->alias : "");
		fprintf(f, "  %-28s %s\n", names, s->what);
	}
	for (size_t i = 0; i < ARRAY_LEN(hw_aliases); i++) {
		const struct hw_alias *h = &hw_aliases[i];

		snprintf(names, sizeof(names), "%s%s%s", h->perf, h->perf2 ? ", " : "",
			 h->perf2 ? h->perf2 : "");
		fprintf(f, "  %-28s or %s: fixed counter %d, needs a PMU\n", names, h->sep,
			host_ecb_fixed_counter(h->sep));
	}
}

int stat_events_need_pmu(const struct stat_events *s)
{
	for (unsigned int i = 0; i < s->n; i++)
		if (!s->e[i].ev.sw)
			return 1;
	return 0;
}
