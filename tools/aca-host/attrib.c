// SPDX-License-Identifier: GPL-2.0-only
/* Samples to module records to functions (see attrib.h). */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "util.h"

/* mod_file[] besides an index into files[]: */
#define NOT_TRIED	(-2)	/* not looked at yet */
#define NO_FILE		(-1)	/* no file, or one that did not open */
#define MISMATCH	(-3)	/* the file is not the one this mapping was of */

#define KERNEL_NAME	"vmlinux"

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

static void say(const struct attrib *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(const struct attrib *a, const char *fmt, ...)
{
	va_list ap;

	if (!a->o.warn)
		return;
	va_start(ap, fmt);
	fprintf(a->o.warn, "aca-host report: ");
	vfprintf(a->o.warn, fmt, ap);
	fputc('\n', a->o.warn);
	va_end(ap);
}

static int is_kernel_image(const struct host_module *m)
{
	return m->pid == 0 && !strcmp(m->path, KERNEL_NAME);
}

static const struct host_module *kernel_record(const struct attrib *a)
{
	for (size_t i = 0; i < a->n; i++)
		if (is_kernel_image(&a->mods[i]))
			return &a->mods[i];
	return NULL;
}

/*
 * --vmlinux: placed at the vmlinux record's start, which is _stext (KASLR
 * included). The record spans [_stext, _end), what kallsyms counts as the
 * kernel (__is_kernel()); a file whose _end - _stext is another length is
 * another build: said, and left out.
 */
static void open_vmlinux(struct attrib *a, const struct host_module *k)
{
	uint64_t end;
	char err[256];

	a->problems++;		/* unless it is placed below */
	a->vmlinux = sym_open(a->o.vmlinux, NULL, err, sizeof(err));
	if (!a->vmlinux) {
		say(a, "--vmlinux %s: %s", a->o.vmlinux, err);
		return;
	}
	if (sym_value(a->vmlinux, "_stext", &a->vmlinux_stext) ||
	    sym_value(a->vmlinux, "_end", &end) || end < a->vmlinux_stext) {
		say(a, "--vmlinux %s: no _stext and _end symbols: not a kernel image with symbols",
		    a->o.vmlinux);
	} else if (!k) {
		say(a, "--vmlinux %s: the collection has no vmlinux record to place it",
		    a->o.vmlinux);
	} else if (end - a->vmlinux_stext != k->length) {
		say(a, "--vmlinux %s is not the kernel that ran: its [_stext, _end) is %llu bytes, the target's %llu",
		    a->o.vmlinux, (unsigned long long)(end - a->vmlinux_stext),
		    (unsigned long long)k->length);
	} else {
		a->problems--;
		return;
	}
	sym_close(a->vmlinux);
	a->vmlinux = NULL;
}

/*
 * --kallsyms: runtime addresses already. A copy of another boot (KASLR
 * moved the kernel) still names vmlinux once moved by the difference of
 * the _stext addresses; the modules it lists may have loaded elsewhere,
 * so they stay unnamed.
 */
static void read_kallsyms(struct attrib *a, const struct host_module *k)
{
	char err[256];

	if (ksyms_load(a->o.kallsyms, &a->ksyms, err, sizeof(err))) {
		a->problems++;
		say(a, "--kallsyms %s: %s", a->o.kallsyms, err);
		return;
	}
	a->ksyms_modules = 1;
	if (a->ksyms.malformed)
		say(a, "--kallsyms %s: %zu malformed lines skipped", a->o.kallsyms,
		    a->ksyms.malformed);
	if (!k || !a->ksyms.stext)
		return;
	a->ksyms_slide = (int64_t)(k->load - a->ksyms.stext);
	if (a->ksyms_slide) {
		a->ksyms_modules = 0;
		say(a, "--kallsyms %s is of another boot: its _stext is %#llx, the target's was %#llx; kernel functions named after moving them, module functions left unnamed",
		    a->o.kallsyms, (unsigned long long)a->ksyms.stext,
		    (unsigned long long)k->load);
	}
}

int attrib_init(struct attrib *a, const struct host_module *mods, size_t n,
		const struct attrib_opts *o)
{
	const struct host_module *k;

	memset(a, 0, sizeof(*a));
	a->mods = mods;
	a->n = n;
	a->o = *o;
	if (a->o.sysroot && (!*a->o.sysroot || !strcmp(a->o.sysroot, "/")))
		a->o.sysroot = NULL;
	a->order = malloc((n ? n : 1) * sizeof(*a->order));
	a->mod_file = malloc((n ? n : 1) * sizeof(*a->mod_file));
	if (!a->order || !a->mod_file) {
		attrib_free(a);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		a->order[i] = i;
		a->mod_file[i] = NOT_TRIED;
	}
	qsort_r(a->order, n, sizeof(*a->order), by_pid_addr, (void *)mods);
	k = kernel_record(a);
	if (a->o.vmlinux)
		open_vmlinux(a, k);
	if (a->o.kallsyms)
		read_kallsyms(a, k);
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

/*
 * Whether @path has a ".." component. The target names its files as
 * d_path() does, without one; a path with one could name a file outside
 * --sysroot, and is never looked up.
 */
static int climbs(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")); p += 2)
		if ((p == path || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return 1;
	return 0;
}

/*
 * The file of module path @path (the target's), opened once: below the
 * sysroot, and only if no ".." in it can take it out (climbs()).
 */
static int file_index(struct attrib *a, const char *path)
{
	char full[PATH_MAX], debug[PATH_MAX], err[256];
	struct attrib_file *f;

	if (a->o.sysroot)
		snprintf(full, sizeof(full), "%s%s", a->o.sysroot, path);
	else
		snprintf(full, sizeof(full), "%s", path);
	for (size_t i = 0; i < a->nfiles; i++)
		if (!strcmp(a->files[i].path, full))
			return a->files[i].syms ? (int)i : NO_FILE;
	f = grow(a->files, &a->files_cap, a->nfiles + 1, sizeof(*f));
	if (!f)
		return NO_FILE;
	a->files = f;
	f = &a->files[a->nfiles];
	memset(f, 0, sizeof(*f));
	f->path = strdup(full);
	if (!f->path)
		return NO_FILE;
	/* The target's debug files are below the sysroot too. */
	snprintf(debug, sizeof(debug), "%s/usr/lib/debug", a->o.sysroot ? a->o.sysroot : "");
	if (climbs(path)) {
		a->problems++;
		say(a, "module path %s has a \"..\" component: not looked up (it could name "
		    "a file outside --sysroot)", path);
	} else {
		f->syms = sym_open(full, debug, err, sizeof(err));
		if (!f->syms)
			say(a, "no symbols for %s: %s", full, err);
		else
			a->files_opened++;
	}
	a->nfiles++;
	return f->syms ? (int)(a->nfiles - 1) : NO_FILE;
}

/* @n bytes at @p in hex into @out (room for 2 * n + 1). */
static char *hex(const uint8_t *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = 0;
	return out;
}

/*
 * Whether @f is the file whose build-id the target read for @m. Returns 0,
 * or -1 with the two build-ids in @err.
 */
static int check_build_id(struct symfile *f, const struct host_module *m,
			  char *err, size_t errlen)
{
	char ours[2 * 64 + 1], theirs[2 * ACA_MR_BUILD_ID_MAX + 1];
	const uint8_t *id;
	size_t n = sym_build_id(f, &id);

	if (n == m->build_id_size && !memcmp(id, m->build_id, n))
		return 0;
	hex(m->build_id, m->build_id_size, theirs);
	if (!n)
		snprintf(err, errlen, "it has no build-id, the target's is %s", theirs);
	else
		snprintf(err, errlen, "its build-id is %s, the target's %s",
			 hex(id, n < 64 ? n : 64, ours), theirs);
	return -1;
}

/*
 * The file of user mapping @m, if it opened and is the one that ran: its
 * build-id is the one the target read, or, for a record without one, its
 * code segments can hold the mapping.
 */
static int user_file(struct attrib *a, const struct host_module *m)
{
	int i = file_index(a, m->path);
	char err[256];

	if (i < 0)
		return i;
	if (m->build_id_size ?
	    !check_build_id(a->files[i].syms, m, err, sizeof(err)) :
	    !sym_check_mapping(a->files[i].syms, m->page_offset, m->length,
			       err, sizeof(err)))
		return i;
	if (!a->files[i].mismatch_said) {
		a->problems++;
		say(a, "%s is not the file that ran: %s; its samples are left unnamed",
		    a->files[i].path, err);
	}
	a->files[i].mismatch_said = 1;
	return MISMATCH;
}

static void user_function(struct attrib *a, const struct host_module *m,
			  const struct host_sample *s, int want_line,
			  struct attribution *out)
{
	size_t mi = m - a->mods;
	struct sym_hit hit;
	uint64_t addr;

	/* The mapping starts page_offset bytes into the file. */
	out->offset = s->ip - m->load + m->page_offset;
	if (a->mod_file[mi] == NOT_TRIED)
		/* Only files have symbols: not "[vdso]" or a kernel thread's comm. */
		a->mod_file[mi] = m->path[0] == '/' ? user_file(a, m) : NO_FILE;
	if (a->mod_file[mi] < 0 ||
	    sym_addr_of_offset(a->files[a->mod_file[mi]].syms, out->offset, &addr))
		return;
	sym_at(a->files[a->mod_file[mi]].syms, addr, want_line, &hit);
	out->func = hit.name;
	out->sym_offset = hit.offset;
	out->src = hit.src;
	out->line = hit.line;
}

static void kernel_function(struct attrib *a, const struct host_module *m,
			    const struct host_sample *s, int want_line,
			    struct attribution *out)
{
	const struct ksym *ks = NULL;
	uint64_t at = s->ip;
	struct sym_hit hit;

	out->offset = s->ip - m->load;
	if (is_kernel_image(m)) {
		if (a->vmlinux) {
			sym_at(a->vmlinux, a->vmlinux_stext + out->offset, want_line, &hit);
			out->func = hit.name;
			out->sym_offset = hit.offset;
			out->src = hit.src;
			out->line = hit.line;
		}
		at = s->ip - a->ksyms_slide;
		if (!out->func && a->ksyms.n)
			ks = ksyms_at(&a->ksyms, at, "");
	} else if (a->ksyms.n && a->ksyms_modules) {
		ks = ksyms_at(&a->ksyms, at, m->path);
	}
	if (ks) {
		out->func = ks->name;
		out->sym_offset = at - ks->addr;
	}
}

static void lookup(struct attrib *a, const struct host_sample *s, int want_line,
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
	if (out->mod && out->kernel)
		kernel_function(a, out->mod, s, want_line, out);
	else if (out->mod)
		user_function(a, out->mod, s, want_line, out);
}

void attrib_sample(struct attrib *a, const struct host_sample *s,
		   struct attribution *out)
{
	lookup(a, s, 0, out);
}

void attrib_address(struct attrib *a, const struct host_sample *s, uint64_t addr,
		    int want_line, struct attribution *out)
{
	struct host_sample at = *s;

	at.ip = addr;
	lookup(a, &at, want_line, out);
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
	for (size_t i = 0; i < a->nfiles; i++) {
		free(a->files[i].path);
		sym_close(a->files[i].syms);
	}
	free(a->files);
	free(a->order);
	free(a->mod_file);
	sym_close(a->vmlinux);
	ksyms_free(&a->ksyms);
	memset(a, 0, sizeof(*a));
}
