// SPDX-License-Identifier: GPL-2.0-only
/* Samples to module records to functions (see attrib.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"

#define NOT_TRIED	(-2)
#define NO_ELF		(-1)

static int by_pid_addr(const void *a, const void *b, void *mods)
{
	const struct host_module *x = (const struct host_module *)mods + *(const size_t *)a;
	const struct host_module *y = (const struct host_module *)mods + *(const size_t *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->load != y->load)
		return x->load < y->load ? -1 : 1;
	/* Stream order last: later records win ties (see better()). */
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

int attrib_init(struct attrib *a, const struct host_module *mods, size_t n,
		const char *sysroot, FILE *warn)
{
	memset(a, 0, sizeof(*a));
	a->mods = mods;
	a->n = n;
	a->warn = warn;
	a->sysroot = sysroot && *sysroot && strcmp(sysroot, "/") ? sysroot : NULL;
	a->order = malloc((n ? n : 1) * sizeof(*a->order));
	a->mod_elf = malloc((n ? n : 1) * sizeof(*a->mod_elf));
	if (!a->order || !a->mod_elf) {
		attrib_free(a);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		a->order[i] = i;
		a->mod_elf[i] = NOT_TRIED;
	}
	qsort_r(a->order, n, sizeof(*a->order), by_pid_addr, (void *)mods);
	return 0;
}

/* First position in order[] of @pid's records. */
static size_t first_of(const struct attrib *a, uint32_t pid)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->mods[a->order[mid]].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int covers(const struct host_module *m, const struct host_sample *s)
{
	/* Written so that no sum can overflow: every field is untrusted. */
	return s->ip >= m->load && s->ip - m->load < m->length &&
	       s->tsc >= m->load_tsc && s->tsc <= m->unload_tsc;
}

/*
 * Two records covering one sample: the mapping that ended soonest after
 * it is the one that was there (a still-loaded record of the same range
 * may be a later mapping whose load TSC the target did not know); then the
 * latest load.
 */
static int better(const struct host_module *x, const struct host_module *y)
{
	if (x->unload_tsc != y->unload_tsc)
		return x->unload_tsc < y->unload_tsc;
	return x->load_tsc >= y->load_tsc;
}

static const struct host_module *find(const struct attrib *a, uint32_t pid,
				      const struct host_sample *s)
{
	const struct host_module *best = NULL;

	for (size_t i = first_of(a, pid); i < a->n; i++) {
		const struct host_module *m = &a->mods[a->order[i]];

		if (m->pid != pid || m->load > s->ip)
			break;
		if (covers(m, s) && (!best || better(m, best)))
			best = m;
	}
	return best;
}

static int elf_index(struct attrib *a, const char *path)
{
	char full[PATH_MAX], err[256];
	struct attrib_elf *e;

	if (a->sysroot)
		snprintf(full, sizeof(full), "%s%s", a->sysroot, path);
	else
		snprintf(full, sizeof(full), "%s", path);
	for (size_t i = 0; i < a->nelves; i++)
		if (!strcmp(a->elves[i].path, full))
			return a->elves[i].img ? (int)i : NO_ELF;
	if (a->nelves == a->elves_cap) {
		size_t cap = a->elves_cap ? 2 * a->elves_cap : 16;
		struct attrib_elf *v = realloc(a->elves, cap * sizeof(*v));

		if (!v)
			return NO_ELF;
		a->elves = v;
		a->elves_cap = cap;
	}
	e = &a->elves[a->nelves];
	e->path = strdup(full);
	if (!e->path)
		return NO_ELF;
	e->img = elf_open(full, err, sizeof(err));
	if (!e->img && a->warn)
		fprintf(a->warn, "aca-host report: no symbols for %s: %s\n", full, err);
	a->nelves++;
	return e->img ? (int)(a->nelves - 1) : NO_ELF;
}

static const char *function(struct attrib *a, const struct host_module *m,
			    const struct host_sample *s)
{
	size_t mi = m - a->mods;

	if (a->mod_elf[mi] == NOT_TRIED)
		/* Only files have symbols: not "vmlinux", "[vdso]" or a comm. */
		a->mod_elf[mi] = m->path[0] == '/' ? elf_index(a, m->path) : NO_ELF;
	if (a->mod_elf[mi] < 0)
		return NULL;
	/* The mapping starts page_offset bytes into the file. */
	return elf_func_at(a->elves[a->mod_elf[mi]].img,
			   s->ip - m->load + m->page_offset, NULL);
}

void attrib_sample(struct attrib *a, const struct host_sample *s,
		   struct attribution *out)
{
	memset(out, 0, sizeof(*out));
	out->kernel = s->ip >= HOST_KERNEL_IP_MIN;
	if (out->kernel) {
		out->mod = find(a, 0, s);
	} else {
		out->mod = find(a, s->pid, s);
		/* Unmap and exit records may carry a thread id (spec 7.3). */
		if (!out->mod && s->tid != s->pid)
			out->mod = find(a, s->tid, s);
	}
	if (out->mod)
		out->func = function(a, out->mod, s);
}

const char *attrib_process(const struct attrib *a, uint32_t pid)
{
	const struct host_module *best = NULL;

	for (size_t i = first_of(a, pid); i < a->n; i++) {
		const struct host_module *m = &a->mods[a->order[i]];

		if (m->pid != pid)
			break;
		if (!(m->flags & SEP_MR_EXE))
			continue;
		/* The still-loaded executable is the process's current one. */
		if (!best || m->unload_tsc >= best->unload_tsc)
			best = m;
	}
	return best ? best->path : NULL;
}

void attrib_free(struct attrib *a)
{
	for (size_t i = 0; i < a->nelves; i++) {
		free(a->elves[i].path);
		elf_close(a->elves[i].img);
	}
	free(a->elves);
	free(a->order);
	free(a->mod_elf);
	memset(a, 0, sizeof(*a));
}
