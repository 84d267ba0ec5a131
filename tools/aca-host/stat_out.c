// SPDX-License-Identifier: GPL-2.0-only
/* aca-host stat's counts, decoded and printed (stat_out.h). */
#include <stdlib.h>
#include <string.h>

#include "stat_out.h"

int stat_counts_init(struct stat_counts *c, uint32_t ncpus, uint32_t n)
{
	size_t ncounts = (size_t)ncpus * n;

	c->ncpus = ncpus;
	c->n = n;
	/* At least one of each: calloc(0) may answer NULL. */
	c->tsc = calloc(ncpus + 1, sizeof(*c->tsc));
	c->count = calloc(ncounts + 1, sizeof(*c->count));
	if (c->tsc && c->count)
		return 0;
	stat_counts_free(c);
	return -1;
}

void stat_counts_free(struct stat_counts *c)
{
	free(c->tsc);
	free(c->count);
	c->tsc = NULL;
	c->count = NULL;
}

size_t stat_reply_size(uint32_t ncpus, uint32_t n)
{
	return (size_t)ncpus * 8 + (size_t)ncpus * n * 8;
}

void stat_counts_read(const void *reply, struct stat_counts *iv,
		      struct stat_counts *total)
{
	const uint8_t *p = reply;
	size_t ncounts = (size_t)iv->ncpus * iv->n;

	/* The reply is little-endian U64s, as this host: copied, not cast. */
	memcpy(iv->tsc, p, (size_t)iv->ncpus * 8);
	memcpy(iv->count, p + (size_t)iv->ncpus * 8, ncounts * 8);
	for (uint32_t i = 0; i < iv->ncpus; i++)
		total->tsc[i] += iv->tsc[i];
	for (size_t i = 0; i < ncounts; i++)
		total->count[i] += iv->count[i];
}

double stat_counts_seconds(const struct stat_counts *c, uint64_t tsc_hz)
{
	uint64_t most = 0;

	for (uint32_t i = 0; i < c->ncpus; i++)
		if (c->tsc[i] > most)
			most = c->tsc[i];
	return (double)most / (double)tsc_hz;
}

/* @digits with a comma before every group of three from the right. */
static void group_digits(char *buf, size_t len, const char *digits)
{
	size_t n = strlen(digits), o = 0;

	for (size_t i = 0; i < n && o + 1 < len; i++) {
		if (i && (n - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = 0;
}

void stat_format_count(char *buf, size_t len, uint64_t v, int msec, int group)
{
	char digits[32], whole[48];
	uint64_t hundredths;

	if (!msec) {
		snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
		if (group)
			group_digits(buf, len, digits);
		else
			snprintf(buf, len, "%s", digits);
		return;
	}
	/* Nanoseconds to hundredths of a millisecond, rounded to nearest. */
	hundredths = v / 10000 + (v % 10000 >= 5000);
	snprintf(digits, sizeof(digits), "%llu", (unsigned long long)(hundredths / 100));
	if (group)
		group_digits(whole, sizeof(whole), digits);
	else
		snprintf(whole, sizeof(whole), "%s", digits);
	snprintf(buf, len, "%s.%02u", whole, (unsigned int)(hundredths % 100));
}

/* The header of the human columns, once. */
static void header(struct stat_print *p)
{
	if (p->sep || p->header_done)
		return;
	p->header_done = 1;
	if (p->per_cpu)
		fprintf(p->f, "#%15s %-7s %18s unit events\n", "time", "CPU", "counts");
	else
		fprintf(p->f, "#%15s %18s unit events\n", "time", "counts");
}

/*
 * One line: @when is the time column as printed ("%16.9f", "%.9f", or
 * -x's "total"); @cpu the CPU column ("CPU0", "all"), NULL for none.
 */
static void line(struct stat_print *p, const char *when, const char *cpu, uint64_t v,
		 const struct stat_event *e)
{
	const char *unit = e->msec ? "msec" : "";
	char count[64];

	stat_format_count(count, sizeof(count), v, e->msec, !p->sep);
	if (!p->sep) {
		if (cpu)
			fprintf(p->f, "%s %-7s %18s %-4s %s\n", when, cpu, count, unit, e->name);
		else
			fprintf(p->f, "%s %18s %-4s %s\n", when, count, unit, e->name);
		return;
	}
	fprintf(p->f, "%s%s", when, p->sep);
	if (cpu)
		fprintf(p->f, "%s%s", cpu, p->sep);
	fprintf(p->f, "%s%s%s%s%s\n", count, p->sep, unit, p->sep, e->name);
}

/* Every event's lines under time @when: per CPU with -A (as perf stat -A), else the sum. */
static void lines(struct stat_print *p, const char *when, const struct stat_counts *c)
{
	char cpu[16];

	for (unsigned int i = 0; i < p->ev->n; i++) {
		uint32_t k = p->order[i];
		uint64_t sum = 0;

		for (uint32_t j = 0; j < c->ncpus; j++) {
			uint64_t v = c->count[(size_t)j * c->n + k];

			sum += v;
			if (!p->per_cpu)
				continue;
			snprintf(cpu, sizeof(cpu), "CPU%u", j);
			line(p, when, cpu, v, &p->ev->e[i]);
		}
		if (!p->per_cpu)
			line(p, when, NULL, sum, &p->ev->e[i]);
	}
}

static void format_time(const struct stat_print *p, char *buf, size_t len, double t)
{
	snprintf(buf, len, p->sep ? "%.9f" : "%16.9f", t);
}

void stat_print_interval(struct stat_print *p, double t, const struct stat_counts *c)
{
	char when[48];

	header(p);
	format_time(p, when, sizeof(when), t);
	lines(p, when, c);
	fflush(p->f);
}

void stat_print_totals(struct stat_print *p, double t, const struct stat_counts *c)
{
	char when[48];

	header(p);
	if (p->sep) {
		snprintf(when, sizeof(when), "total");
	} else {
		fprintf(p->f, "# total\n");
		format_time(p, when, sizeof(when), t);
	}
	lines(p, when, c);
	fflush(p->f);
}
