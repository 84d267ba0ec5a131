// SPDX-License-Identifier: GPL-2.0-only
/* A collection as a gzipped pprof profile (pprof.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "files.h"
#include "pprof.h"
#include "pprof.pb-c.h"
#include "perfnames.h"
#include "stack.h"
#include "util.h"

#define PP_CMD		"aca-host pprof"
#define PP_GZ_BUFFER	(128u << 10)
#define PP_TXT		"collection.txt"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/*
 * An id by key, open addressing: a slot's id 0 is empty. A string's key is
 * its hash (k2 0), told apart from others by the string itself; any
 * other key is the pair (k1, k2) exactly.
 */
struct slot {
	uint64_t k1, k2;
	uint32_t id;
};

struct table {
	struct slot *v;
	size_t cap, n;		/* n < cap / 2: a probe always ends */
};

/* A location: where it is, what it names (ids are index + 1). */
struct loc {
	uint64_t addr;
	uint32_t mapping, function;
};

/* A function: its name and file, string indices. */
struct func {
	int64_t name, file;
};

struct pp {
	const struct report_opts *o;
	struct collection *c;
	struct report *r;
	gzFile gz;
	int err;			/* the first failure's errno; 0: none */
	int64_t ns;			/* cpu/nanoseconds of a sample; 0: unknown */
	char **strs;			/* the string table; [0] is "" */
	size_t nstrs, strs_cap;
	struct table str_ids, loc_ids, func_ids;
	struct loc *locs;
	size_t nlocs, locs_cap;
	struct func *funcs;
	size_t nfuncs, funcs_cap;
	uint32_t *mod_mapping;		/* per module record: its mapping's id; 0: none */
	size_t *mappings;		/* the module record of each mapping */
	size_t nmappings;
	int64_t k_pid, k_tid, k_cpu, k_event;	/* label keys */
	uint64_t tsc_min, tsc_max;	/* of the samples written, with have_tsc */
	int have_tsc;
};

#define say(o, ...)	report_say(o, PP_CMD, __VA_ARGS__)

static void failed(struct pp *w, int err)
{
	if (!w->err)
		w->err = err ? err : EIO;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

static uint64_t mix(uint64_t k1, uint64_t k2)
{
	uint64_t h = k1 * 0x9e3779b97f4a7c15ull ^ (k2 + 0x632be59bd9b4e019ull);

	return h ^ h >> 29;
}

/*
 * The id slot of key (@k1, @k2), or of string @s (its hash in @k1): its
 * id, or 0 in the slot the caller fills to add it. NULL when out of memory.
 */
static uint32_t *table_find(struct pp *w, struct table *t, uint64_t k1, uint64_t k2,
			    const char *s)
{
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		struct table g = { .cap = t->cap ? 2 * t->cap : 1024 };

		g.v = calloc(g.cap, sizeof(*g.v));
		if (!g.v)
			return NULL;
		for (size_t j = 0; j < t->cap; j++) {
			const struct slot *o = &t->v[j];

			if (!o->id)
				continue;
			for (i = mix(o->k1, o->k2) & (g.cap - 1); g.v[i].id; i = (i + 1) & (g.cap - 1))
				;
			g.v[i] = *o;
		}
		free(t->v);
		g.n = t->n;
		*t = g;
	}
	for (i = mix(k1, k2) & (t->cap - 1); t->v[i].id; i = (i + 1) & (t->cap - 1))
		if (t->v[i].k1 == k1 && t->v[i].k2 == k2 &&
		    (!s || !strcmp(w->strs[t->v[i].id], s)))
			return &t->v[i].id;
	/* The caller fills the id: the slot is the key's from now on. */
	t->v[i].k1 = k1;
	t->v[i].k2 = k2;
	t->n++;
	return &t->v[i].id;
}

/*
 * The string table index of @s, added if new (a string's id in str_ids is
 * its index: never 0, which is "" alone); 0 when out of memory.
 */
static int64_t str_index(struct pp *w, const char *s)
{
	uint32_t *id;
	char **v;

	if (!s[0])
		return 0;
	id = table_find(w, &w->str_ids, hash_str(s), 0, s);
	v = id && !*id ? grow(w->strs, &w->strs_cap, w->nstrs + 1, sizeof(*v)) : w->strs;
	if (!id || !v) {
		failed(w, ENOMEM);
		return 0;
	}
	w->strs = v;
	if (!*id) {
		w->strs[w->nstrs] = strdup(s);
		if (!w->strs[w->nstrs]) {
			failed(w, ENOMEM);
			return 0;
		}
		*id = w->nstrs++;
	}
	return *id;
}

/* The mapping of module record @m, added if new; 0 for none. */
static uint32_t mapping_of(struct pp *w, const struct host_module *m)
{
	size_t i;

	if (!m)
		return 0;
	i = m - w->c->mods.v;
	if (!w->mod_mapping[i]) {
		w->mappings[w->nmappings] = i;
		w->mod_mapping[i] = ++w->nmappings;
	}
	return w->mod_mapping[i];
}

/* The function named @name in dso @file, added if new. */
static uint32_t function_of(struct pp *w, const char *name, const char *file)
{
	int64_t n = str_index(w, name), f = str_index(w, file);
	uint32_t *id = table_find(w, &w->func_ids, n, f, NULL);
	struct func *v = id && !*id ? grow(w->funcs, &w->funcs_cap, w->nfuncs + 1, sizeof(*v)) :
			 w->funcs;

	if (!id || !v) {
		failed(w, ENOMEM);
		return 0;
	}
	w->funcs = v;
	if (!*id) {
		w->funcs[w->nfuncs] = (struct func){ .name = n, .file = f };
		*id = ++w->nfuncs;
	}
	return *id;
}

/* The location of frame @f, added if new; 0 when out of memory. */
static uint32_t location_of(struct pp *w, const struct stack_frame *f)
{
	uint64_t mod = f->at.mod ? (uint64_t)(f->at.mod - w->c->mods.v) + 1 : 0;
	uint32_t *id = table_find(w, &w->loc_ids, f->addr, mod << 1 | f->ret, NULL);
	struct loc *v = id && !*id ? grow(w->locs, &w->locs_cap, w->nlocs + 1, sizeof(*v)) :
			w->locs;
	char name[PERF_NAME_MAX];

	if (!id || !v) {
		failed(w, ENOMEM);
		return 0;
	}
	w->locs = v;
	if (!*id) {
		report_sym_name(&f->at, name, sizeof(name));
		w->locs[w->nlocs] = (struct loc){
			.addr = f->addr, .mapping = mapping_of(w, f->at.mod),
			.function = function_of(w, name, f->dso),
		};
		*id = ++w->nlocs;
	}
	return *id;
}

/* protobuf-c's output, into the gzip stream. */
struct gz_out {
	ProtobufCBuffer base;
	struct pp *w;
};

static void gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct pp *w = ((struct gz_out *)b)->w;
	int zerr;

	while (!w->err && len) {
		unsigned int k = len < (1u << 30) ? len : 1u << 30;

		if (gzwrite(w->gz, data, k) != (int)k) {
			gzerror(w->gz, &zerr);
			failed(w, zerr == Z_ERRNO ? errno : EIO);
		}
		data += k;
		len -= k;
	}
}

static void put(struct pp *w, const Profile *p)
{
	struct gz_out out = { .base.append = gz_append, .w = w };

	if (!w->err)
		perftools__profiles__profile__pack_to_buffer(p, &out.base);
}

/* Sample @s as a Profile of its own: its frames, values and labels. */
static void write_sample(struct pp *w, const struct host_sample *s)
{
	uint64_t ids[STACK_MAX_FRAMES];
	int64_t values[2] = { 1, w->ns };
	Label labels[4], *lp[4];
	char num[3][16];
	Sample smp = PERFTOOLS__PROFILES__SAMPLE__INIT, *sp = &smp;
	Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct stack_frame f;
	int g = w->r->groups.n > 1 ? report_group_of(w->r, s) : -1;
	size_t depth = stack_depth(&w->c->samples, s);

	for (size_t i = 0; i < depth; i++) {
		stack_frame(&w->c->a, &w->c->samples, s, i, 0, &f);
		ids[i] = location_of(w, &f);
	}
	smp.n_location_id = depth;
	smp.location_id = ids;
	smp.n_value = w->ns ? 2 : 1;
	smp.value = values;
	for (int i = 0; i < 4; i++) {
		perftools__profiles__label__init(&labels[i]);
		lp[i] = &labels[i];
	}
	/*
	 * Strings, not numbers: a reader of profile.proto drops a numeric
	 * label of 0 (proto3 writes no 0), and pid 0 and CPU 0 are real.
	 */
	snprintf(num[0], sizeof(num[0]), "%u", s->pid);
	snprintf(num[1], sizeof(num[1]), "%u", s->tid);
	snprintf(num[2], sizeof(num[2]), "%u", s->cpu);
	labels[0].key = w->k_pid;
	labels[1].key = w->k_tid;
	labels[2].key = w->k_cpu;
	labels[3].key = w->k_event;
	for (int i = 0; i < 3; i++)
		labels[i].str = str_index(w, num[i]);
	labels[3].str = g >= 0 ? str_index(w, w->r->groups.g[g].event) : 0;
	smp.n_label = g >= 0 ? 4 : 3;
	smp.label = lp;
	p.n_sample = 1;
	p.sample = &sp;
	if (!w->have_tsc || s->tsc < w->tsc_min)
		w->tsc_min = s->tsc;
	if (!w->have_tsc || s->tsc > w->tsc_max)
		w->tsc_max = s->tsc;
	w->have_tsc = 1;
	put(w, &p);
}

/* The build-id of @m in hex, "" without one. */
static void build_id_hex(const struct host_module *m, char *hex, size_t len)
{
	hex[0] = 0;
	for (size_t i = 0; i < m->build_id_size && 2 * i + 2 < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", m->build_id[i]);
}

/* A TSC span in nanoseconds (0 when the TSC's rate is unknown). */
static int64_t span_ns(const struct pp *w)
{
	if (!w->r->tsc_hz || w->tsc_max <= w->tsc_min)
		return 0;
	return (int64_t)((unsigned __int128)(w->tsc_max - w->tsc_min) * 1000000000u /
			 w->r->tsc_hz);
}

/* When DIR/collection.txt was last written, in ns since the epoch; 0: unknown. */
static int64_t txt_time(const char *dir)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/" PP_TXT, dir);
	if (stat(path, &st))
		return 0;
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

/* The messages of the tables, pointing into @t's arrays (freed by the caller). */
struct tables {
	ValueType types[2], *tp[2], period_type;
	Mapping *maps, **mp;
	Location *locs, **lp;
	Line *lines, **linep;
	Function *funcs, **fp;
};

static int tables_alloc(struct pp *w, struct tables *t)
{
	t->maps = calloc(w->nmappings + 1, sizeof(*t->maps));
	t->mp = calloc(w->nmappings + 1, sizeof(*t->mp));
	t->locs = calloc(w->nlocs + 1, sizeof(*t->locs));
	t->lp = calloc(w->nlocs + 1, sizeof(*t->lp));
	t->lines = calloc(w->nlocs + 1, sizeof(*t->lines));
	t->linep = calloc(w->nlocs + 1, sizeof(*t->linep));
	t->funcs = calloc(w->nfuncs + 1, sizeof(*t->funcs));
	t->fp = calloc(w->nfuncs + 1, sizeof(*t->fp));
	return t->maps && t->mp && t->locs && t->lp && t->lines && t->linep && t->funcs &&
	       t->fp ? 0 : -1;
}

static void tables_free(struct tables *t)
{
	free(t->maps);
	free(t->mp);
	free(t->locs);
	free(t->lp);
	free(t->lines);
	free(t->linep);
	free(t->funcs);
	free(t->fp);
}

static void fill_mappings(struct pp *w, struct tables *t, Profile *p)
{
	char hex[2 * ACA_MR_BUILD_ID_MAX + 1], dso[PERF_NAME_MAX];

	for (size_t i = 0; i < w->nmappings; i++) {
		const struct host_module *m = &w->c->mods.v[w->mappings[i]];
		struct attribution at = { .mod = m, .kernel = !m->pid };
		Mapping *x = &t->maps[i];

		perftools__profiles__mapping__init(x);
		perf_dso(&at, 1, dso, sizeof(dso));
		build_id_hex(m, hex, sizeof(hex));
		x->id = i + 1;
		x->memory_start = m->load;
		x->memory_limit = m->load + m->length;
		x->file_offset = m->page_offset;
		x->filename = str_index(w, dso);
		x->build_id = str_index(w, hex);
		x->has_functions = 1;
		t->mp[i] = x;
	}
	p->n_mapping = w->nmappings;
	p->mapping = t->mp;
}

static void fill_locations(struct pp *w, struct tables *t, Profile *p)
{
	for (size_t i = 0; i < w->nlocs; i++) {
		Location *x = &t->locs[i];

		perftools__profiles__location__init(x);
		perftools__profiles__line__init(&t->lines[i]);
		t->lines[i].function_id = w->locs[i].function;
		t->linep[i] = &t->lines[i];
		x->id = i + 1;
		x->mapping_id = w->locs[i].mapping;
		x->address = w->locs[i].addr;
		x->n_line = 1;
		x->line = &t->linep[i];
		t->lp[i] = x;
	}
	p->n_location = w->nlocs;
	p->location = t->lp;
	for (size_t i = 0; i < w->nfuncs; i++) {
		Function *x = &t->funcs[i];

		perftools__profiles__function__init(x);
		x->id = i + 1;
		x->name = w->funcs[i].name;
		/* The dso is no source file: it stays in the mapping. */
		t->fp[i] = x;
	}
	p->n_function = w->nfuncs;
	p->function = t->fp;
}

/* Everything but the samples, after them: one Profile. */
static void write_tables(struct pp *w, const char *dir)
{
	struct tables t = { 0 };
	Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	int64_t samples = str_index(w, "samples"), count = str_index(w, "count");
	int64_t cpu = str_index(w, "cpu"), ns = str_index(w, "nanoseconds");

	if (tables_alloc(w, &t)) {
		failed(w, ENOMEM);
		tables_free(&t);
		return;
	}
	for (int i = 0; i < 2; i++) {
		perftools__profiles__value_type__init(&t.types[i]);
		t.tp[i] = &t.types[i];
	}
	t.types[0].type = samples;
	t.types[0].unit = count;
	t.types[1].type = cpu;
	t.types[1].unit = ns;
	p.n_sample_type = w->ns ? 2 : 1;
	p.sample_type = t.tp;
	perftools__profiles__value_type__init(&t.period_type);
	t.period_type = t.types[w->ns ? 1 : 0];
	p.period_type = &t.period_type;
	p.period = w->ns ? w->ns : 1;
	p.time_nanos = txt_time(dir);
	p.duration_nanos = span_ns(w);
	fill_mappings(w, &t, &p);
	fill_locations(w, &t, &p);
	/* Every string is in by now: the table goes last. */
	p.n_string_table = w->nstrs;
	p.string_table = w->strs;
	put(w, &p);
	tables_free(&t);
}

/* The tables and the string table's "", sized for @c's module records. */
static int pp_init(struct pp *w)
{
	size_t n = w->c->mods.n + 1;

	w->mod_mapping = calloc(n, sizeof(*w->mod_mapping));
	w->mappings = calloc(n, sizeof(*w->mappings));
	w->strs = grow(NULL, &w->strs_cap, 1, sizeof(*w->strs));
	if (!w->mod_mapping || !w->mappings || !w->strs || !(w->strs[0] = strdup("")))
		return -1;
	w->nstrs = 1;
	w->k_pid = str_index(w, "pid");
	w->k_tid = str_index(w, "tid");
	w->k_cpu = str_index(w, "cpu");
	w->k_event = str_index(w, "event");
	return w->err ? -1 : 0;
}

static void pp_free(struct pp *w)
{
	for (size_t i = 0; i < w->nstrs; i++)
		free(w->strs[i]);
	free(w->strs);
	free(w->str_ids.v);
	free(w->loc_ids.v);
	free(w->func_ids.v);
	free(w->locs);
	free(w->funcs);
	free(w->mod_mapping);
	free(w->mappings);
}

/* The samples o's filters keep, gzipped into @fd; w->err says if it failed. */
static void write_profile(struct pp *w, const char *dir, int fd, size_t *n)
{
	int zerr;

	*n = 0;
	w->gz = gzdopen(fd, "wb");
	if (!w->gz) {
		failed(w, errno ? errno : ENOMEM);
		close(fd);
		return;
	}
	gzbuffer(w->gz, PP_GZ_BUFFER);
	for (size_t i = 0; i < w->c->samples.n && !w->err; i++) {
		const struct host_sample *s = &w->c->samples.v[i];

		if (report_keep(w->c, w->o, s)) {
			write_sample(w, s);
			++*n;
		}
	}
	if (*n)
		write_tables(w, dir);
	zerr = gzclose(w->gz);
	if (zerr != Z_OK)
		failed(w, zerr == Z_ERRNO ? errno : EIO);
}

/* Write @out.tmp and rename it to @out; 0, or 2 with the reason said. */
static int write_out(struct pp *w, const char *dir, const char *out)
{
	char tmp[OUT_TMP_MAX];
	int fd = out_tmp_create(out, tmp), zfd;
	size_t n = 0;

	if (fd < 0) {
		say(w->o, "%s: %s; nothing written", errno == ENAMETOOLONG ? out : tmp,
		    strerror(errno));
		return 2;
	}
	/* zlib closes its own descriptor: @fd stays for out_tmp_finish(). */
	zfd = dup(fd);
	if (zfd < 0)
		failed(w, errno);
	else
		write_profile(w, dir, zfd, &n);
	if (!w->err && !n) {
		out_tmp_finish(fd, tmp, out, ENODATA);
		say(w->o, "%s: no sample to write; %s not written", dir, out);
		return 2;
	}
	w->err = out_tmp_finish(fd, tmp, out, w->err);
	if (w->err) {
		say(w->o, "%s: %s; nothing written", out, strerror(w->err));
		return 2;
	}
	return 0;
}

int pprof_write(const char *dir, const struct report_opts *o, const char *out,
		int argc, char *const *argv)
{
	struct collection c;
	struct report r;
	struct pp w = { .o = o, .c = &c, .r = &r };
	int ret = collection_open_whole(dir, o, &r, &c, PP_CMD, out);

	if (ret)
		return ret;
	if (r.sample_after && r.tsc_hz)
		w.ns = (int64_t)((unsigned __int128)r.sample_after * 1000000000u / r.tsc_hz);
	if (!w.ns)
		say(o, "%s: no sample_after and tsc_hz in " PP_TXT ": samples/count alone, "
		    "no cpu/nanoseconds", dir);
	if (pp_init(&w)) {
		say(o, "out of memory; %s not written", out);
		ret = 2;
	} else {
		ret = write_out(&w, dir, out);
	}
	pp_free(&w);
	collection_close(o, &r, &c);
	report_free(&r);
	return ret;
}
