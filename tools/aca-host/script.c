// SPDX-License-Identifier: GPL-2.0-only
/* perf script's text format of a collection (script.h). */
#include <stdlib.h>
#include <string.h>

#include "perfnames.h"
#include "script.h"
#include "stack.h"

/* Samples by TSC; the order they were read in among equals. */
static int by_time(const void *a, const void *b, void *samples)
{
	const struct host_sample *v = samples;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (v[i].tsc != v[j].tsc)
		return v[i].tsc < v[j].tsc ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* perf's "%12s: " of seconds.microseconds. */
static void print_time(uint64_t tsc, uint64_t hz, FILE *out)
{
	char t[48];

	if (hz)
		snprintf(t, sizeof(t), "%llu.%06llu", (unsigned long long)(tsc / hz),
			 (unsigned long long)(tsc % hz * 1000000 / hz));
	else
		snprintf(t, sizeof(t), "%llu", (unsigned long long)tsc);
	fprintf(out, "%12s: ", t);
}

static void print_sample(struct collection *c, const struct report *r,
			 const char *event, const struct host_sample *s, FILE *out)
{
	char comm[PERF_COMM_LEN];
	struct stack_frame f;

	perf_comm(&c->a, s->pid, comm, sizeof(comm), NULL, 0);
	fprintf(out, "%s %7u/%-7u [%03u] ", comm, s->pid, s->tid, s->cpu);
	print_time(s->tsc, r->tsc_hz, out);
	fprintf(out, "%10u %s: \n", 1, event);
	for (size_t i = 0, n = stack_depth(&c->samples, s); i < n; i++) {
		stack_frame(&c->a, &c->samples, s, i, 0, &f);
		fprintf(out, "\t%16llx ", (unsigned long long)f.addr);
		if (f.func[0])
			fprintf(out, "%s+0x%llx", f.func, (unsigned long long)f.sym_offset);
		else
			fputs("[unknown]", out);
		fprintf(out, " (%s)\n", f.dso);
	}
	fputc('\n', out);
}

/*
 * The event of @s: its group's, named in groups.txt, when the collection
 * multiplexed several; else the collection's, @event.
 */
static const char *sample_event(const struct report *r, const char *event,
				const struct host_sample *s)
{
	int g = r->groups.n > 1 ? report_group_of(r, s) : -1;

	return g >= 0 ? r->groups.g[g].event : event;
}

int script_print(const char *dir, const struct report_opts *o, FILE *out)
{
	struct collection c;
	struct report r;
	char event[256];
	size_t *order;
	int ret = collection_open(dir, o, &r, &c);

	if (ret) {
		report_free(&r);
		return ret;
	}
	/* One word, as perf names an event: what stackcollapse-perf.pl expects. */
	perf_printable(event, sizeof(event), r.event[0] ? r.event : "[unknown]");
	for (char *p = event; *p; p++)
		if (*p == ' ')
			*p = '_';
	order = malloc((c.samples.n ? c.samples.n : 1) * sizeof(*order));
	if (!order) {
		fprintf(o->warn ? o->warn : stderr, "aca-host script: out of memory\n");
		r.errors++;
	} else {
		for (size_t i = 0; i < c.samples.n; i++)
			order[i] = i;
		qsort_r(order, c.samples.n, sizeof(*order), by_time, c.samples.v);
		for (size_t i = 0; i < c.samples.n; i++)
			if (report_keep(&c, o, &c.samples.v[order[i]]))
				print_sample(&c, &r, sample_event(&r, event,
								  &c.samples.v[order[i]]),
					     &c.samples.v[order[i]], out);
		free(order);
	}
	collection_close(o, &r, &c);
	ret = r.errors ? 1 : 0;
	report_free(&r);
	return ret;
}
