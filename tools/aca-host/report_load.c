// SPDX-License-Identifier: GPL-2.0-only
/* Reading a collection directory and attributing its samples (report.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "attrib.h"
#include "files.h"
#include "folded.h"
#include "ksym_collect.h"
#include "perfnames.h"
#include "records.h"
#include "report.h"
#include "session.h"
#include "stack.h"
#include "textesc.h"

#define MAX_TXT_FILE		(1u << 20)
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

/* The facts of collection.txt this report uses; unknown keys are skipped. */
static void read_txt(const char *dir, const struct report_opts *o, struct report *r)
{
	char path[4096], why[128];
	size_t len;
	char *txt, *line, *save = NULL;
	uint64_t v;

	snprintf(path, sizeof(path), "%s/collection.txt", dir);
	txt = (char *)read_whole_file(path, MAX_TXT_FILE, &len);
	if (!txt) {
		problem(o, r, "%s: %s (assuming %u-byte samples)", path,
			read_failed(why, sizeof(why), errno, len, MAX_TXT_FILE,
				    "any collection.txt has"), r->sample_size);
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
		} else if (!strcmp(line, "tsc_hz")) {
			/* Up to 1 THz: seconds and microseconds of a TSC never overflow. */
			if (number(val, 1, 1000000000000ull, &v))
				problem(o, r, "%s: tsc_hz '%.32s' out of range", path, val);
			else
				r->tsc_hz = v;
		} else if (!strcmp(line, "sampling")) {
			r->cpu_clock = !strncmp(val, "cpu-clock", 9);
		} else if (!strcmp(line, "sample_after")) {
			if (number(val, 1, UINT64_MAX, &v))
				problem(o, r, "%s: sample_after '%.32s' out of range", path, val);
			else
				r->sample_after = v;
		} else if (!strcmp(line, "samples_dropped")) {
			if (!number(val, 0, UINT64_MAX, &v)) {
				r->dropped = v;
				r->have_drops = 1;
			}
		} else if (!strcmp(line, "event")) {
			text_copy(r->event, sizeof(r->event), val, SIZE_MAX);
		} else if (!strcmp(line, "written_by")) {
			text_copy(r->written_by, sizeof(r->written_by), val, SIZE_MAX);
		}
	}
	free(txt);
}

/* DIR/groups.txt, when collect wrote one: none is no problem. */
static void read_groups(const char *dir, const struct report_opts *o, struct report *r)
{
	char err[4200];

	if (groups_read(dir, &r->groups, err, sizeof(err)) < 0) {
		problem(o, r, "%s (no multiplexing table)", err);
		memset(&r->groups, 0, sizeof(r->groups));
	}
}

int report_group_of(const struct report *r, const struct host_sample *s)
{
	for (uint32_t i = 0; i < r->groups.n; i++)
		if (r->groups.g[i].index >= 0 && (uint32_t)r->groups.g[i].index == s->event)
			return i;
	return -1;
}

/* A kept sample counts for the group whose event index it carries. */
static void count_group(struct report *r, const struct host_sample *s)
{
	int g = report_group_of(r, s);

	if (g >= 0)
		r->group_samples[g]++;
}

double report_group_estimate(const struct report *r, uint32_t i, double *share)
{
	uint64_t running = r->groups.g[i].running_tsc;
	double enabled = 0;

	*share = 0;
	for (uint32_t k = 0; k < r->groups.n; k++)
		enabled += r->groups.g[k].running_tsc;
	if (!running || !enabled || !r->sample_after)
		return -1;
	*share = running / enabled;
	return (double)r->group_samples[i] * r->sample_after * enabled / running;
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
	char path[4096], err[256], why[256];

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
		buf = read_record_file(path, &len, why, sizeof(why));
		if (!buf) {
			r->past_read_max += errno == EFBIG;
			problem(o, r, "%s: %s%s", path, why,
				errno == EFBIG ? ": its samples are left out" : "");
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
	char path[4096], err[256], why[256];
	uint8_t *buf;
	size_t len;

	snprintf(path, sizeof(path), "%s/module.bin", dir);
	buf = read_record_file(path, &len, why, sizeof(why));
	if (!buf) {
		r->past_read_max += errno == EFBIG;
		problem(o, r, "%s: %s (no module records: nothing can be attributed)",
			path, why);
		return;
	}
	if (records_parse_modules(buf, len, mods, err, sizeof(err)))
		problem(o, r, "%s: %s; %zu records before it are used", path, err, mods->n);
	r->nmodules = mods->n;
	free(buf);
	/* MODULE_SNAPSHOT's records repeat STOP's: each mapping once. */
	if (records_merge_repeats(mods) < 0)
		problem(o, r, "%s: out of memory merging repeated records", path);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/*
 * The function table's name of @at: "FUNCTION (MODULE)". Module paths are
 * printable already (records.c); a symbol's name is as the file the target
 * named has it, printable only as text_copy() makes it.
 */
static void function_key(const struct attribution *at, char *key, size_t len)
{
	const char *mod = at->mod ? at->mod->path : at->kernel ?
			  "[kernel: no module record]" : "[no module record]";
	size_t n;

	/* Unnamed code as MODULE+0xOFFSET: resolvable later, by hand. */
	if (at->func) {
		n = text_copy(key, len, at->func, SIZE_MAX);
		snprintf(key + n, len - n, " (%s)", base_name(mod));
	} else if (at->mod) {
		snprintf(key, len, "%s+0x%llx (%s)", base_name(mod),
			 (unsigned long long)at->offset, base_name(mod));
	} else {
		snprintf(key, len, "[unknown] (%s)", mod);
	}
}

/* What the views of one sample need to know of it, each worked out once. */
struct facts {
	struct attribution at;		/* of its IP */
	char comm[PERF_COMM_LEN];
	char exe[PERF_NAME_MAX];	/* base name of the executable */
	char dso[PERF_NAME_MAX], dso_short[PERF_NAME_MAX];
};

static void facts_of(struct attrib *a, const struct host_sample *s, int want_line,
		     struct facts *f)
{
	attrib_address(a, s, s->ip, want_line, &f->at);
	perf_comm(a, s->pid, f->comm, sizeof(f->comm), f->exe, sizeof(f->exe));
	perf_dso(&f->at, 1, f->dso, sizeof(f->dso));
	perf_dso(&f->at, 0, f->dso_short, sizeof(f->dso_short));
}

static struct sample_filter filter_of(const struct report_opts *o)
{
	return (struct sample_filter){
		.only_pid = o->only_pid, .pid = o->pid,
		.only_tid = o->only_tid, .tid = o->tid,
		.comms = o->comms, .dsos = o->dsos,
	};
}

static int keep(struct attrib *a, const struct report_opts *o,
		const struct host_sample *s, const struct facts *f)
{
	struct sample_filter flt = filter_of(o);

	return filter_keep(&flt, s->pid, s->tid, f->comm, f->exe, f->dso, f->dso_short);
}

int report_keep(struct collection *c, const struct report_opts *o,
		const struct host_sample *s)
{
	struct sample_filter flt = filter_of(o);
	struct facts f;

	if (!filter_by_names(&flt))
		return filter_keep(&flt, s->pid, s->tid, NULL, NULL, NULL, NULL);
	facts_of(&c->a, s, 0, &f);
	return keep(&c->a, o, s, &f);
}

void report_sym_name(const struct attribution *at, char *buf, size_t len)
{
	char name[PERF_NAME_MAX];

	if (at->func) {
		perf_printable(buf, len, at->func);
	} else if (at->mod) {
		perf_printable(name, sizeof(name), base_name(at->mod->path));
		snprintf(buf, len, "%s+0x%llx", name, (unsigned long long)at->offset);
	} else {
		snprintf(buf, len, "[unknown]");
	}
}

void report_say(const struct report_opts *o, const char *cmd, const char *fmt, ...)
{
	FILE *w = o->warn ? o->warn : stderr;
	va_list ap;

	va_start(ap, fmt);
	fprintf(w, "%s: ", cmd);
	vfprintf(w, fmt, ap);
	fputc('\n', w);
	va_end(ap);
}

/* The value of key @k for the sample of @f, into @buf. */
static void key_value(enum sort_key k, const struct host_sample *s,
		      const struct facts *f, char *buf, size_t len)
{
	char name[PERF_NAME_MAX];

	switch (k) {
	case SORT_COMM:
		snprintf(buf, len, "%s", f->comm);
		break;
	case SORT_PID:
		snprintf(buf, len, "%u", s->pid);
		break;
	case SORT_TID:
		snprintf(buf, len, "%u", s->tid);
		break;
	case SORT_DSO:
		snprintf(buf, len, "%s", f->dso_short);
		break;
	case SORT_SYM:
		report_sym_name(&f->at, buf, len);
		break;
	case SORT_SRCLINE:
		if (f->at.src) {
			perf_printable(name, sizeof(name), perf_base_name(f->at.src));
			snprintf(buf, len, "%s:%d", name, f->at.line);
		} else {
			snprintf(buf, len, "??:0");
		}
		break;
	default:
		snprintf(buf, len, "?");
	}
}

static int tally_sorted_key(struct report *r, const struct host_sample *s,
			    const struct facts *f)
{
	char key[SORT_NKEYS * (PERF_NAME_MAX + 16)], *p = key;

	for (size_t i = 0; i < r->keys.n; i++) {
		if (i)
			*p++ = SORT_SEP;
		key_value(r->keys.k[i], s, f, p, PERF_NAME_MAX + 15);
		p += strlen(p);
	}
	return tally_add(&r->sorted, key, 1);
}

/* "FUNCTION" SORT_SEP "CALLER": who called the function a sample is in. */
static int tally_caller(struct collection *c, struct report *r,
			const struct host_sample *s, const char *func)
{
	char key[2 * (PERF_NAME_MAX + 4096 + 64)];
	struct stack_frame frame;
	size_t n = snprintf(key, sizeof(key), "%s%c", func, SORT_SEP);

	if (n >= sizeof(key))
		return 0;
	if (stack_depth(&c->samples, s) > 1) {
		r->with_callers++;
		stack_frame(&c->a, &c->samples, s, 1, 0, &frame);
		function_key(&frame.at, key + n, sizeof(key) - n);
	} else {
		snprintf(key + n, sizeof(key) - n, "%s", REPORT_NO_CALLER);
	}
	return tally_add(&r->callers, key, 1);
}

/* 64-bit FNV-1a of @s: a cheap first comparison of frame keys. */
static uint64_t key_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

/*
 * The top-down view (perf report --children): every function in the
 * sample's stack counts the sample once, however often it recurs, and so
 * does every call in it, caller to callee; the sample's own function
 * "calls" REPORT_SELF.
 */
static int tally_children(struct collection *c, struct report *r,
			  const struct host_sample *s)
{
	size_t depth = stack_depth(&c->samples, s);
	uint64_t h[STACK_MAX_FRAMES];
	char pair[2 * REPORT_FRAME_KEY + 1];
	char (*k)[REPORT_FRAME_KEY];
	struct stack_frame frame;
	int err = 0;

	if (!r->frame_keys) {
		r->frame_keys = calloc(STACK_MAX_FRAMES, sizeof(*r->frame_keys));
		if (!r->frame_keys)
			return -1;
	}
	k = r->frame_keys;
	for (size_t i = 0; i < depth; i++) {
		stack_frame(&c->a, &c->samples, s, i, 0, &frame);
		function_key(&frame.at, k[i], REPORT_FRAME_KEY);
		h[i] = key_hash(k[i]);
	}
	for (size_t i = 0; i < depth; i++) {
		size_t j;

		for (j = 0; j < i && (h[j] != h[i] || strcmp(k[j], k[i])); j++)
			;
		if (j == i)
			err |= tally_add(&r->children, k[i], 1);
		/* Frame i + 1 called frame i; the same call deeper counts once. */
		if (i + 1 == depth)
			break;
		for (j = 0; j < i; j++)
			if (h[j] == h[i] && h[j + 1] == h[i + 1] && !strcmp(k[j], k[i]) &&
			    !strcmp(k[j + 1], k[i + 1]))
				break;
		if (j < i)
			continue;
		snprintf(pair, sizeof(pair), "%s%c%s", k[i + 1], SORT_SEP, k[i]);
		err |= tally_add(&r->callees, pair, 1);
	}
	snprintf(pair, sizeof(pair), "%s%c%s", k[0], SORT_SEP, REPORT_SELF);
	return err | tally_add(&r->callees, pair, 1);
}

/* The sample's stack folded, outermost first (folded.h). */
static int tally_stack(struct collection *c, struct report *r,
		       const struct host_sample *s, const struct facts *f,
		       struct fold *fold)
{
	struct stack_frame frame;
	const char *line;

	fold_begin(fold, f->comm);
	for (size_t i = stack_depth(&c->samples, s); i-- > 0;) {
		stack_frame(&c->a, &c->samples, s, i, 0, &frame);
		fold_frame(fold, frame.func, frame.dso);
	}
	line = fold_line(fold);
	return line ? tally_add(&r->stacks, line, 1) : -1;
}

static int tally_sample(struct collection *c, const struct report_opts *o,
			const struct host_sample *s, struct report *r, struct fold *fold)
{
	const char *mod, *proc;
	struct facts f;
	char key[4096 + 64];
	int err = 0;

	facts_of(&c->a, s, sort_keys_have(&r->keys, SORT_SRCLINE), &f);
	if (!keep(&c->a, o, s, &f))
		return 0;
	r->samples++;
	count_group(r, s);
	r->kernel += f.at.kernel;
	r->with_module += f.at.mod != NULL;
	if (!f.at.kernel && !f.at.mod) {
		r->user_unmapped++;
		snprintf(key, sizeof(key), "%u", s->pid);
		err |= tally_add(&r->unmapped_pids, key, 1);
	}
	r->with_function += f.at.func != NULL;
	mod = f.at.mod ? f.at.mod->path : f.at.kernel ? "[kernel: no module record]" :
	      "[no module record]";
	/* The idle task is pid 0 and has no record of its own. */
	proc = s->pid ? attrib_process(&c->a, s->pid) : "[swapper]";
	snprintf(key, sizeof(key), "%u %s", s->pid, proc ? proc : "[unknown]");
	err |= tally_add(&r->processes, key, 1);
	err |= tally_add(&r->modules, mod, 1);
	function_key(&f.at, key, sizeof(key));
	err |= tally_add(&r->functions, key, 1);
	if (r->keys.n)
		err |= tally_sorted_key(r, s, &f);
	if (r->callstack_size && o->format == REPORT_TEXT && !o->folded && !o->leaves_only) {
		err |= tally_caller(c, r, s, key);
		err |= tally_children(c, r, s);
	}
	if (o->stacks || o->folded)
		err |= tally_stack(c, r, s, &f, fold);
	return err;
}

/*
 * Without --kallsyms and --vmlinux: DIR/kallsyms, if collect wrote it from
 * the target's answers (ksym_collect.h) and it names anything (it is empty
 * when no sample was in the kernel). 1 if there is one.
 */
static int default_kallsyms(const char *dir, const struct report_opts *o,
			    struct report *r)
{
	struct stat st;

	if (o->kallsyms || o->vmlinux)
		return 0;
	snprintf(r->default_kallsyms, sizeof(r->default_kallsyms), "%s/" KSYM_FILE, dir);
	if (!stat(r->default_kallsyms, &st) && st.st_size > 0)
		return 1;
	r->default_kallsyms[0] = 0;
	return 0;
}

int collection_open(const char *dir, const struct report_opts *o, struct report *r,
		    struct collection *c)
{
	struct attrib_opts ao = {
		.sysroot = o->sysroot, .kallsyms = o->kallsyms, .vmlinux = o->vmlinux,
		.warn = o->warn,
	};

	memset(r, 0, sizeof(*r));
	memset(c, 0, sizeof(*c));
	r->sample_size = sizeof(struct sep_sample_record_pc);
	if (o->layout) {	/* collection.txt, once written, says the same */
		r->sample_size = o->layout->size;
		r->callstack_offset = o->layout->callstack_offset;
		r->callstack_size = o->layout->callstack_size;
	}
	if (access(dir, F_OK)) {
		problem(o, r, "%s: %s", dir, strerror(errno));
		return 2;
	}
	read_txt(dir, o, r);
	read_groups(dir, o, r);
	load_samples(dir, o, r, &c->samples);
	if (!r->ncpus) {
		problem(o, r, "%s: no cpu0.bin: not a collection directory", dir);
		goto fail;
	}
	load_modules(dir, o, r, &c->mods);
	if (default_kallsyms(dir, o, r))
		ao.kallsyms = r->default_kallsyms;
	if (attrib_init(&c->a, c->mods.v, c->mods.n, &ao)) {
		problem(o, r, "out of memory");
		goto fail;
	}
	c->have_attrib = 1;
	return 0;
fail:
	sample_vec_free(&c->samples);
	module_vec_free(&c->mods);
	return 2;
}

void collection_close(const struct report_opts *o, struct report *r,
		      struct collection *c)
{
	if (c->have_attrib) {
		r->errors += c->a.problems;
		if (o->sysroot && c->a.nfiles && !c->a.files_opened)
			problem(o, r, "--sysroot %s: none of the %zu files the samples ran in is below it",
				o->sysroot, c->a.nfiles);
		attrib_free(&c->a);
	}
	sample_vec_free(&c->samples);
	module_vec_free(&c->mods);
	memset(c, 0, sizeof(*c));
}

int collection_open_whole(const char *dir, const struct report_opts *o,
			  struct report *r, struct collection *c, const char *cmd,
			  const char *out)
{
	int ret = collection_open(dir, o, r, c);

	if (!ret && !r->errors)
		return 0;
	report_say(o, cmd, "%s: not a whole collection (%d problem%s above); %s not written",
		   dir, r->errors, r->errors == 1 ? "" : "s", out);
	if (!ret)
		collection_close(o, r, c);
	report_free(r);
	return ret ? ret : 1;
}

int report_load(const char *dir, const struct report_opts *o, struct report *r)
{
	struct collection c;
	struct fold fold = { 0 };
	int ret = collection_open(dir, o, r, &c);

	if (ret)
		return ret;
	r->keys = o->sort;
	if (!r->keys.n && o->format != REPORT_TEXT)
		sort_keys_default(&r->keys);
	for (size_t i = 0; i < c.samples.n; i++) {
		if (tally_sample(&c, o, &c.samples.v[i], r, &fold)) {
			problem(o, r, "out of memory");
			break;
		}
	}
	fold_free(&fold);
	collection_close(o, r, &c);
	return r->errors ? 1 : 0;
}

void report_free(struct report *r)
{
	free(r->cpu_samples);
	tally_free(&r->processes);
	tally_free(&r->unmapped_pids);
	tally_free(&r->modules);
	tally_free(&r->functions);
	tally_free(&r->sorted);
	tally_free(&r->callers);
	tally_free(&r->children);
	tally_free(&r->callees);
	free(r->frame_keys);
	tally_free(&r->stacks);
	memset(r, 0, sizeof(*r));
}

void report_opts_free(struct report_opts *o)
{
	name_list_free(&o->comms);
	name_list_free(&o->dsos);
}

void report_raise_nofile(void)
{
	struct rlimit nofile;

	/* A system-wide collection needs more than the usual 1024. */
	if (!getrlimit(RLIMIT_NOFILE, &nofile) && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
}
