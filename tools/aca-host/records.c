// SPDX-License-Identifier: GPL-2.0-only
/* SampleRecordPC and ModuleRecord streams, bounds-checked (spec 7.1, 7.3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "textesc.h"
#include "util.h"

int records_layout_check(const struct record_layout *l, char *err, size_t errlen)
{
	const size_t base = sizeof(struct sep_sample_record_pc);

	if (l->size < base) {
		snprintf(err, errlen, "sample records of %zu bytes: shorter than %zu",
			 l->size, base);
		return -1;
	}
	if (!l->callstack_offset && !l->callstack_size)
		return 0;
	if (l->callstack_offset < base || l->callstack_offset % 8 ||
	    l->callstack_size < sizeof(struct aca_callstack_head) ||
	    l->callstack_offset > l->size ||
	    l->callstack_size > l->size - l->callstack_offset) {
		snprintf(err, errlen, "callstack area of %zu bytes at %zu does not fit "
			 "after the %zu-byte base of %zu-byte records",
			 l->callstack_size, l->callstack_offset, base, l->size);
		return -1;
	}
	return 0;
}

/* The callers in @rec's callstack area, appended to @out->chain. */
static int parse_callstack(const uint8_t *rec, const struct record_layout *l,
			   struct sample_vec *out, struct host_sample *s,
			   char *err, size_t errlen)
{
	const uint8_t *area = rec + l->callstack_offset;
	struct aca_callstack_head h;
	size_t n, room;

	memcpy(&h, area, sizeof(h));
	n = (size_t)h.nkernel + h.nuser;
	room = (l->callstack_size - sizeof(h)) / sizeof(uint64_t);
	if (n > room) {
		snprintf(err, errlen, "a callstack of %zu addresses in an area for %zu", n, room);
		return -1;
	}
	if (n) {
		uint64_t *p = grow(out->chain, &out->chain_cap, out->nchain + n, sizeof(*p));

		if (!p) {
			snprintf(err, errlen, "out of memory for callstacks");
			return -1;
		}
		out->chain = p;
		memcpy(out->chain + out->nchain, area + sizeof(h), n * sizeof(uint64_t));
	}
	s->chain = out->nchain;
	s->nkernel = h.nkernel;
	s->nuser = h.nuser;
	s->truncated = !!(h.flags & ACA_CALLSTACK_TRUNCATED);
	out->nchain += n;
	return 0;
}

int records_parse_samples(const uint8_t *buf, size_t len,
			  const struct record_layout *l,
			  struct sample_vec *out, char *err, size_t errlen)
{
	size_t n, rec_size = l->size;

	if (records_layout_check(l, err, errlen))
		return -1;
	n = len / rec_size;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *rec = buf + i * rec_size;
		struct sep_sample_record_pc r;
		struct host_sample *s;

		/* Streams are byte-exact copies: no alignment to rely on. */
		memcpy(&r, rec, sizeof(r));
		s = grow(out->v, &out->cap, out->n + 1, sizeof(*s));
		if (!s) {
			snprintf(err, errlen, "out of memory after %zu samples", i);
			return -1;
		}
		out->v = s;
		s = &out->v[out->n];
		memset(s, 0, sizeof(*s));
		/* Compat code keeps a 32-bit EIP where iip would be. */
		s->ip = r.bit_fields2 & SEP_SAMPLE_IA64PC ? r.iip : r.eip;
		s->tsc = r.tsc;
		s->pid = r.pid_rec_index;
		s->tid = r.tid;
		s->cs = r.cs;
		s->cpu = r.cpu_and_os & SEP_SAMPLE_CPU_NUM_MASK;
		s->event = (r.bit_fields2 & SEP_SAMPLE_EVENT_INDEX_MASK) >>
			   SEP_SAMPLE_EVENT_INDEX_SHIFT;
		if (l->callstack_size && parse_callstack(rec, l, out, s, err, errlen))
			return -1;
		out->n++;
	}
	if (len % rec_size) {
		snprintf(err, errlen, "%zu trailing bytes after %zu records of %zu bytes: "
			 "the last record is truncated", len % rec_size, n, rec_size);
		return -1;
	}
	return 0;
}

/*
 * Path bytes as a printable string (text_copy()): it stops at NUL, and
 * control characters and bytes that are no UTF-8 become '?'. Every later
 * use, lookups and messages, sees only this.
 */
static char *printable(const uint8_t *p, size_t max)
{
	size_t n = strnlen((const char *)p, max);
	char *s;

	/* The Intel host strips whitespace around the path (spec 11). */
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n'))
		n--;
	s = malloc(n + 1);
	if (!s)
		return NULL;
	text_copy(s, n + 1, (const char *)p, n);
	return s;
}

/*
 * [ACA-EXT] The build-id after the path of the record at @rec, if its
 * recLength leaves room after ALIGN8(80 + pathLength): it must then be
 * whole and well-formed, and recLength end with its padding. Returns 0, or
 * -1 with @err set.
 */
static int parse_build_id(const uint8_t *rec, const struct sep_module_record *r,
			  struct host_module *m, size_t i, size_t off, char *err,
			  size_t errlen)
{
	size_t at = (HOST_MR_FIXED + r->path_length + SEP_MR_ALIGN - 1) &
		    ~(size_t)(SEP_MR_ALIGN - 1);
	struct aca_mr_build_id t;

	if (r->rec_length <= at)
		return 0;
	if (r->rec_length - at < sizeof(t)) {
		snprintf(err, errlen, "record %zu at offset %zu: %zu bytes after the path "
			 "in recLength %u: not a build-id", i, off,
			 r->rec_length - at, r->rec_length);
		return -1;
	}
	memcpy(&t, rec + at, sizeof(t));
	if (t.magic[0] != ACA_MR_BUILD_ID_MAGIC0 || t.magic[1] != ACA_MR_BUILD_ID_MAGIC1) {
		snprintf(err, errlen, "record %zu at offset %zu: bytes 0x%02x 0x%02x after the "
			 "path are not a build-id's magic 'BI'", i, off, t.magic[0],
			 t.magic[1]);
		return -1;
	}
	if (t.size < 1 || t.size > ACA_MR_BUILD_ID_MAX) {
		snprintf(err, errlen, "record %zu at offset %zu: a build-id of %u bytes "
			 "(1 to %d)", i, off, t.size, ACA_MR_BUILD_ID_MAX);
		return -1;
	}
	if (sizeof(t) + t.size > r->rec_length - at) {
		snprintf(err, errlen, "record %zu at offset %zu: a build-id of %u bytes "
			 "at %zu does not fit in recLength %u", i, off, t.size, at,
			 r->rec_length);
		return -1;
	}
	/* Padded to 8, and nothing after it. */
	if (r->rec_length - at != ((sizeof(t) + t.size + SEP_MR_ALIGN - 1) &
				   ~(size_t)(SEP_MR_ALIGN - 1))) {
		snprintf(err, errlen, "record %zu at offset %zu: recLength %u is not that "
			 "of a %u-byte build-id at %zu", i, off, r->rec_length, t.size, at);
		return -1;
	}
	memcpy(m->build_id, rec + at + sizeof(t), t.size);
	m->build_id_size = t.size;
	return 0;
}

int records_parse_modules(const uint8_t *buf, size_t len,
			  struct module_vec *out, char *err, size_t errlen)
{
	size_t off = 0, i = 0;

	for (; off < len; i++) {
		struct sep_module_record r;
		struct host_module *m;
		size_t left = len - off;

		if (left < HOST_MR_FIXED) {
			snprintf(err, errlen, "record %zu at offset %zu: %zu bytes left, "
				 "a record needs at least %zu: truncated", i, off, left,
				 HOST_MR_FIXED);
			return -1;
		}
		memcpy(&r, buf + off, sizeof(r));
		if (r.rec_length == 0) {
			snprintf(err, errlen, "record %zu at offset %zu: recLength 0 "
				 "(the stream cannot be followed past it)", i, off);
			return -1;
		}
		if (r.rec_length < HOST_MR_FIXED) {
			snprintf(err, errlen, "record %zu at offset %zu: recLength %u is "
				 "shorter than the %zu-byte fixed part", i, off,
				 r.rec_length, HOST_MR_FIXED);
			return -1;
		}
		if (r.rec_length > left) {
			snprintf(err, errlen, "record %zu at offset %zu: recLength %u but "
				 "only %zu bytes left: truncated", i, off, r.rec_length, left);
			return -1;
		}
		if (r.path_length > r.rec_length - HOST_MR_FIXED) {
			snprintf(err, errlen, "record %zu at offset %zu: pathLength %u does "
				 "not fit in recLength %u", i, off, r.path_length,
				 r.rec_length);
			return -1;
		}
		m = grow(out->v, &out->cap, out->n + 1, sizeof(*m));
		if (!m) {
			snprintf(err, errlen, "out of memory after %zu module records", i);
			return -1;
		}
		out->v = m;
		m = &out->v[out->n];
		memset(m, 0, sizeof(*m));
		if (parse_build_id(buf + off, &r, m, i, off, err, errlen))
			return -1;
		m->path = printable(buf + off + HOST_MR_FIXED, r.path_length);
		if (!m->path) {
			snprintf(err, errlen, "out of memory after %zu module records", i);
			return -1;
		}
		out->n++;
		m->load = r.load_addr64;
		m->length = r.length64;
		m->page_offset = (uint64_t)r.page_offset_high << 32 | r.page_offset_low;
		m->load_tsc = r.tsc;
		m->unload_tsc = r.unload_tsc;
		m->pid = r.pid_rec_index;
		m->ppid = r.parent_pid;
		m->flags = r.flags;
		m->selector = r.selector;
		off += r.rec_length;
	}
	return 0;
}

/* By key (pid, start, length, build-id, path), then stream order. */
static int by_key(const void *a, const void *b, void *mods)
{
	const struct host_module *v = mods;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct host_module *x = &v[i], *y = &v[j];
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->load != y->load)
		return x->load < y->load ? -1 : 1;
	if (x->length != y->length)
		return x->length < y->length ? -1 : 1;
	if (x->build_id_size != y->build_id_size)
		return x->build_id_size < y->build_id_size ? -1 : 1;
	c = memcmp(x->build_id, y->build_id, x->build_id_size);
	if (!c)
		c = strcmp(x->path, y->path);
	if (c)
		return c;
	return i < j ? -1 : i > j;
}

static int same_key(const struct host_module *x, const struct host_module *y)
{
	return x->pid == y->pid && x->load == y->load && x->length == y->length &&
	       x->build_id_size == y->build_id_size &&
	       !memcmp(x->build_id, y->build_id, x->build_id_size) &&
	       !strcmp(x->path, y->path);
}

/* The records order[0 .. n) of one key, in stream order: the repeats marked in @drop. */
static void mark_repeats(const struct host_module *v, const size_t *order, size_t n,
			 uint8_t *drop)
{
	const size_t none = SIZE_MAX;
	size_t open = none, closed = none;

	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];

		if (!v[i].length) {
			/* A name, not a mapping: the latest one. */
			if (k)
				drop[order[k - 1]] = 1;
			continue;
		}
		if (open != none) {
			/* Described again, or gone: this record says it now. */
			drop[open] = 1;
			open = none;
		} else if (v[i].unload_tsc != SEP_MR_UNLOAD_TSC_LOADED && closed != none &&
			   v[closed].unload_tsc == v[i].unload_tsc) {
			drop[i] = 1;
			continue;
		}
		if (v[i].unload_tsc == SEP_MR_UNLOAD_TSC_LOADED)
			open = i;
		else
			closed = i;
	}
}

long long records_merge_repeats(struct module_vec *v)
{
	size_t *order, k = 0, n = v->n;
	uint8_t *drop;

	if (n < 2)
		return 0;
	order = malloc(n * sizeof(*order));
	drop = calloc(n, 1);
	if (!order || !drop) {
		free(order);
		free(drop);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_key, v->v);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && same_key(&v->v[order[i]], &v->v[order[j]]); j++)
			;
		mark_repeats(v->v, order + i, j - i, drop);
	}
	for (size_t i = 0; i < n; i++) {
		if (drop[i])
			free(v->v[i].path);
		else
			v->v[k++] = v->v[i];
	}
	v->n = k;
	free(order);
	free(drop);
	return (long long)(n - k);
}

void sample_vec_free(struct sample_vec *v)
{
	free(v->v);
	free(v->chain);
	memset(v, 0, sizeof(*v));
}

void module_vec_free(struct module_vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i].path);
	free(v->v);
	memset(v, 0, sizeof(*v));
}
