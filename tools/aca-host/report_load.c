// SPDX-License-Identifier: GPL-2.0-only
/* Reading a collection directory and attributing its samples (report.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attrib.h"
#include "files.h"
#include "records.h"
#include "report.h"
#include "session.h"

#define MAX_TXT_FILE		(1u << 20)
#define MAX_STREAM_FILE		(4ull << 30)
#define MAX_SAMPLE_SIZE		65536
#define MAX_CPUS		(HOST_MAX_CHANNELS - 2)

static void problem(const struct report_opts *o, struct report *r,
		    const char *fmt, ...)
{
	va_list ap;

	r->errors++;
	if (!o->warn)
		return;
	va_start(ap, fmt);
	fprintf(o->warn, "aca-host report: ");
	vfprintf(o->warn, fmt, ap);
	fputc('\n', o->warn);
	va_end(ap);
}

/* An unsigned decimal in [lo, hi], or -1. */
static int number(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v < lo || *v > hi ? -1 : 0;
}

/* A value to print: control bytes and the like become '?'. */
static void printable_copy(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = src[i] >= ' ' && src[i] <= '~' ? src[i] : '?';
	dst[i] = 0;
}

/* The facts of collection.txt this report uses; unknown keys are skipped. */
static void read_txt(const char *dir, const struct report_opts *o, struct report *r)
{
	char path[4096];
	size_t len;
	char *txt, *line, *save = NULL;
	uint64_t v;

	snprintf(path, sizeof(path), "%s/collection.txt", dir);
	txt = (char *)read_whole_file(path, MAX_TXT_FILE, &len);
	if (!txt) {
		problem(o, r, "%s: %s (assuming %u-byte samples)", path, strerror(errno),
			r->sample_size);
		return;
	}
	/* A NUL inside ends the text: strtok_r() never runs past it. */
	for (line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *val = strchr(line, '=');

		if (line[0] == '#' || !val)
			continue;
		*val++ = 0;
		if (!strcmp(line, "num_cpus")) {
			if (number(val, 1, MAX_CPUS, &v))
				problem(o, r, "%s: num_cpus '%.32s' out of range", path, val);
			else
				r->ncpus = v;
		} else if (!strcmp(line, "sample_size")) {
			if (number(val, sizeof(struct sep_sample_record_pc), MAX_SAMPLE_SIZE, &v))
				problem(o, r, "%s: sample_size '%.32s' out of range", path, val);
			else
				r->sample_size = v;
		} else if (!strcmp(line, "callstack_offset")) {
			if (number(val, 0, MAX_SAMPLE_SIZE, &v))
				problem(o, r, "%s: callstack_offset '%.32s' out of range", path, val);
			else
				r->callstack_offset = v;
		} else if (!strcmp(line, "callstack_size")) {
			if (number(val, 0, MAX_SAMPLE_SIZE, &v))
				problem(o, r, "%s: callstack_size '%.32s' out of range", path, val);
			else
				r->callstack_size = v;
		} else if (!strcmp(line, "samples_dropped")) {
			if (!number(val, 0, UINT64_MAX, &v)) {
				r->dropped = v;
				r->have_drops = 1;
			}
		} else if (!strcmp(line, "event")) {
			printable_copy(r->event, sizeof(r->event), val);
		} else if (!strcmp(line, "written_by")) {
			printable_copy(r->written_by, sizeof(r->written_by), val);
		}
	}
	free(txt);
}

static int cpu_file(const char *dir, uint32_t cpu, char *path, size_t len)
{
	snprintf(path, len, "%s/cpu%u.bin", dir, cpu);
	return access(path, F_OK);
}

static void load_samples(const char *dir, const struct report_opts *o,
			 struct report *r, struct sample_vec *samples)
{
	struct record_layout l = {
		.size = r->sample_size,
		.callstack_offset = r->callstack_offset,
		.callstack_size = r->callstack_size,
	};
	char path[4096], err[256];

	if (records_layout_check(&l, err, sizeof(err))) {
		/* Records of another size would be misread: read none. */
		problem(o, r, "%s/collection.txt: %s", dir, err);
		r->ncpus = 0;
		return;
	}
	/* Without collection.txt: every cpuN.bin there is, from 0 on. */
	if (!r->ncpus)
		while (r->ncpus < MAX_CPUS && !cpu_file(dir, r->ncpus, path, sizeof(path)))
			r->ncpus++;
	r->cpu_samples = calloc(r->ncpus ? r->ncpus : 1, sizeof(*r->cpu_samples));
	if (!r->cpu_samples) {
		problem(o, r, "out of memory");
		r->ncpus = 0;
		return;
	}
	for (uint32_t cpu = 0; cpu < r->ncpus; cpu++) {
		size_t before = samples->n, len;
		uint8_t *buf;

		cpu_file(dir, cpu, path, sizeof(path));
		buf = read_whole_file(path, MAX_STREAM_FILE, &len);
		if (!buf) {
			problem(o, r, "%s: %s", path, strerror(errno));
			continue;
		}
		if (records_parse_samples(buf, len, &l, samples, err, sizeof(err)))
			problem(o, r, "%s: %s", path, err);
		r->cpu_samples[cpu] = samples->n - before;
		free(buf);
	}
	r->all_samples = samples->n;
}

static void load_modules(const char *dir, const struct report_opts *o,
			 struct report *r, struct module_vec *mods)
{
	char path[4096], err[256];
	uint8_t *buf;
	size_t len;

	snprintf(path, sizeof(path), "%s/module.bin", dir);
	buf = read_whole_file(path, MAX_STREAM_FILE, &len);
	if (!buf) {
		problem(o, r, "%s: %s (no module records: nothing can be attributed)",
			path, strerror(errno));
		return;
	}
	if (records_parse_modules(buf, len, mods, err, sizeof(err)))
		problem(o, r, "%s: %s; %zu records before it are used", path, err, mods->n);
	r->nmodules = mods->n;
	free(buf);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

static int tally_sample(struct attrib *a, const struct host_sample *s, struct report *r)
{
	const char *mod, *proc;
	struct attribution at;
	char key[4096 + 64];
	int err = 0;

	attrib_sample(a, s, &at);
	r->kernel += at.kernel;
	r->with_module += at.mod != NULL;
	r->with_function += at.func != NULL;
	mod = at.mod ? at.mod->path : at.kernel ? "[kernel: no module record]" :
	      "[no module record]";
	/* The idle task is pid 0 and has no record of its own. */
	proc = s->pid ? attrib_process(a, s->pid) : "[swapper]";
	snprintf(key, sizeof(key), "%u %s", s->pid, proc ? proc : "[unknown]");
	err |= tally_add(&r->processes, key, 1);
	err |= tally_add(&r->modules, mod, 1);
	/* Unnamed code as MODULE+0xOFFSET: resolvable later, by hand. */
	if (at.func)
		snprintf(key, sizeof(key), "%s (%s)", at.func, base_name(mod));
	else if (at.mod)
		snprintf(key, sizeof(key), "%s+0x%llx (%s)", base_name(mod),
			 (unsigned long long)at.offset, base_name(mod));
	else
		snprintf(key, sizeof(key), "[unknown] (%s)", mod);
	err |= tally_add(&r->functions, key, 1);
	return err;
}

int report_load(const char *dir, const struct report_opts *o, struct report *r)
{
	struct sample_vec samples = { 0 };
	struct module_vec mods = { 0 };
	struct attrib_opts ao = {
		.sysroot = o->sysroot, .kallsyms = o->kallsyms, .vmlinux = o->vmlinux,
		.warn = o->warn,
	};
	struct attrib a;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->sample_size = sizeof(struct sep_sample_record_pc);
	if (access(dir, F_OK)) {
		problem(o, r, "%s: %s", dir, strerror(errno));
		return 2;
	}
	read_txt(dir, o, r);
	load_samples(dir, o, r, &samples);
	if (!r->ncpus) {
		problem(o, r, "%s: no cpu0.bin: not a collection directory", dir);
		ret = 2;
		goto out;
	}
	load_modules(dir, o, r, &mods);
	if (attrib_init(&a, mods.v, mods.n, &ao)) {
		problem(o, r, "out of memory");
		ret = 2;
		goto out;
	}
	r->samples = 0;
	for (size_t i = 0; i < samples.n; i++) {
		if (o->only_pid && samples.v[i].pid != o->pid)
			continue;
		r->samples++;
		if (tally_sample(&a, &samples.v[i], r)) {
			problem(o, r, "out of memory");
			break;
		}
	}
	r->errors += a.problems;
	if (o->sysroot && a.nfiles && !a.files_opened)
		problem(o, r, "--sysroot %s: none of the %zu files the samples ran in is below it",
			o->sysroot, a.nfiles);
	attrib_free(&a);
out:
	sample_vec_free(&samples);
	module_vec_free(&mods);
	return ret ? ret : r->errors ? 1 : 0;
}

void report_free(struct report *r)
{
	free(r->cpu_samples);
	tally_free(&r->processes);
	tally_free(&r->modules);
	tally_free(&r->functions);
	memset(r, 0, sizeof(*r));
}
