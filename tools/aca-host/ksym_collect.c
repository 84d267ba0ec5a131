// SPDX-License-Identifier: GPL-2.0-only
/* The target's kernel symbols through KERNEL_SYMBOLS (ksym_collect.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "files.h"
#include "ksym_collect.h"
#include "util.h"

static int add_addr(struct ksym_addrs *a, uint64_t addr)
{
	/* v and hits share a->cap: from it, grow() gives both the same room. */
	size_t cap = a->cap;
	uint64_t *v = grow(a->v, &cap, a->n + 1, sizeof(*v)), *hits;

	if (!v)
		return -1;
	a->v = v;
	hits = grow(a->hits, &a->cap, a->n + 1, sizeof(*hits));
	if (!hits)
		return -1;
	a->hits = hits;
	a->v[a->n] = addr;
	a->hits[a->n++] = 1;
	return 0;
}

struct addr_hits {
	uint64_t addr, hits;
};

static int by_addr(const void *a, const void *b)
{
	const struct addr_hits *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The most hits first; of as many, the lowest address. */
static int by_heat(const void *a, const void *b)
{
	const struct addr_hits *x = a, *y = b;

	if (x->hits != y->hits)
		return x->hits > y->hits ? -1 : 1;
	return by_addr(a, b);
}

/* Sort @a by @cmp, in place. -1: out of memory. */
static int sort_pairs(struct ksym_addrs *a, int (*cmp)(const void *, const void *))
{
	struct addr_hits *p = malloc((a->n ? a->n : 1) * sizeof(*p));

	if (!p)
		return -1;
	for (size_t i = 0; i < a->n; i++)
		p[i] = (struct addr_hits){ a->v[i], a->hits[i] };
	qsort(p, a->n, sizeof(*p), cmp);
	for (size_t i = 0; i < a->n; i++) {
		a->v[i] = p[i].addr;
		a->hits[i] = p[i].hits;
	}
	free(p);
	return 0;
}

/* Sort by address and keep each once, with the sum of its hits. */
static int sort_unique(struct ksym_addrs *a)
{
	size_t k = 0;

	if (sort_pairs(a, by_addr))
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		if (k && a->v[i] == a->v[k - 1]) {
			a->hits[k - 1] += a->hits[i];
			continue;
		}
		a->v[k] = a->v[i];
		a->hits[k++] = a->hits[i];
	}
	a->n = k;
	return 0;
}

/* The kernel addresses of @v's samples into @out (@flags: KSYM_*). */
static int add_samples(const struct sample_vec *v, unsigned int flags,
		       struct ksym_addrs *out)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct host_sample *s = &v->v[i];

		if (s->ip >= HOST_KERNEL_IP_MIN && add_addr(out, s->ip))
			return -1;
		for (size_t j = 0; !(flags & KSYM_IPS_ONLY) && j < s->nkernel; j++) {
			uint64_t ret = v->chain[s->chain + j];

			/* A return address: the call is the byte before it. */
			if (ret > HOST_KERNEL_IP_MIN && add_addr(out, ret - 1))
				return -1;
		}
	}
	return 0;
}

int ksym_gather(const char *dir, uint32_t ncpus, const struct record_layout *l,
		unsigned int flags, struct ksym_addrs *out, char *err, size_t errlen)
{
	char path[4096], why[256];

	memset(out, 0, sizeof(*out));
	if (records_layout_check(l, err, errlen))
		return -1;
	for (uint32_t cpu = 0; cpu < ncpus; cpu++) {
		struct sample_vec v = { 0 };
		uint8_t *buf;
		size_t len;
		int bad;

		snprintf(path, sizeof(path), "%s/cpu%u.bin", dir, cpu);
		/* At most files_read_max() bytes at once, one file after another. */
		buf = read_record_file(path, &len, why, sizeof(why));
		if (!buf)
			continue;	/* the collection says what is missing */
		/* A stream that stops making sense: the samples before it. */
		records_parse_samples(buf, len, l, &v, why, sizeof(why));
		free(buf);
		/* Keep memory to the distinct addresses as we go. */
		bad = add_samples(&v, flags, out) || sort_unique(out);
		sample_vec_free(&v);
		if (bad) {
			snprintf(err, errlen, "out of memory for kernel addresses");
			ksym_addrs_free(out);
			return -1;
		}
	}
	return 0;
}

void ksym_addrs_free(struct ksym_addrs *a)
{
	free(a->v);
	free(a->hits);
	memset(a, 0, sizeof(*a));
}

/* A hex number of 1 to @max digits at *@p, no prefix; advances *@p. */
static int hex(const char **p, int max, uint64_t *v)
{
	int n = 0;

	*v = 0;
	for (; n < max; n++, (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			*v = *v << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v = *v << 4 | (uint64_t)(c - 'a' + 10);
		else
			break;
	}
	return n ? 0 : -1;
}

/* A name: 1 or more printable bytes without a space, up to @end; advances *@p. */
static int word(const char **p, const char *end, char *out)
{
	size_t n = 0;

	while (*p < end && **p > ' ' && **p <= '~')
		out[n++] = *(*p)++;
	out[n] = 0;
	return n ? 0 : -1;
}

int ksym_parse_slot(const uint8_t *slot, uint64_t addr, struct ksym_answer *out)
{
	const char *p = (const char *)slot;
	const char *end = memchr(p, 0, ACA_KSYM_SLOT_SIZE);
	const char *start = p;

	memset(out, 0, sizeof(*out));
	if (!end)
		return -1;
	if (end == p) {
		/* Empty: zeros to the end of the slot. */
		for (size_t i = 0; i < ACA_KSYM_SLOT_SIZE; i++)
			if (slot[i])
				return -1;
		return 0;
	}
	if (hex(&p, 16, &out->start) || p - start != 16 || *p++ != ' ' ||
	    hex(&p, 16, &out->size) || *p++ != ' ' || word(&p, end, out->name))
		return -1;
	if (p < end && (*p++ != ' ' || word(&p, end, out->module) ||
			strlen(out->module) > 55))
		return -1;
	if (p != end || addr < out->start || addr - out->start >= out->size)
		return -1;
	return 1;
}

static int by_start(const void *a, const void *b)
{
	const struct ksym_answer *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Whether a symbol of @k holds @addr. */
static int known_holds(const struct ksym_known *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	/* The last symbol starting at or below @addr is k->v[lo - 1]. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && addr - k->v[lo - 1].start < k->v[lo - 1].size;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether @addr was answered without a symbol. */
static int known_none(const struct ksym_known *k, uint64_t addr)
{
	return k->nnone && bsearch(&addr, k->none, k->nnone, sizeof(*k->none), by_value);
}

/*
 * Remember @addr as answered without a symbol; a failure to is no matter
 * (it is asked again).
 */
static void add_none(struct ksym_known *k, uint64_t addr)
{
	uint64_t *v = grow(k->none, &k->capnone, k->nnone + 1, sizeof(*v));

	if (!v)
		return;
	k->none = v;
	k->none[k->nnone++] = addr;
}

/* Sort @k by start and keep each start once; its addresses without one too. */
static void known_sort(struct ksym_known *k)
{
	size_t n = 0;

	if (k->nnone)
		qsort(k->none, k->nnone, sizeof(*k->none), by_value);
	if (k->n)
		qsort(k->v, k->n, sizeof(*k->v), by_start);
	for (size_t i = 0; i < k->n; i++)
		if (!n || k->v[i].start != k->v[n - 1].start)
			k->v[n++] = k->v[i];
	k->n = n;
}

void ksym_known_free(struct ksym_known *k)
{
	free(k->v);
	free(k->none);
	memset(k, 0, sizeof(*k));
}

/* The status a target refused KERNEL_SYMBOLS with, in words, once. */
static void say_refused(int status)
{
	const char *why = status == VT_NO_ADMIN_PRIVILEGE ?
		"the session lacks CAP_PERFMON on the target" :
		status == VT_DRIVER_COMM_FAILED ?
		"an older aca, or a SEP target that is not aca" : "refused";

	fprintf(stderr, "aca-host: the target does not name kernel addresses "
		"(KERNEL_SYMBOLS: status %d, %s); `aca-host report` names kernel "
		"functions only with --kallsyms or --vmlinux\n", status, why);
}

/*
 * The answer to a request of @n @addrs, status @st with @slots: its
 * symbols appended to @syms, the addresses without one to its none,
 * those that were not a symbol of their address counted in *@bad. 0, 1
 * refused (said), -1 broken, -2 out of memory (said).
 */
static int take_answer(int st, const uint64_t *addrs, size_t n, const uint8_t *slots,
		       struct ksym_known *syms, size_t *bad)
{
	if (st < 0)
		return -1;
	if (st) {
		say_refused(st);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct ksym_answer a, *v;
		int got = ksym_parse_slot(slots + i * ACA_KSYM_SLOT_SIZE, addrs[i], &a);

		if (got < 0)
			(*bad)++;
		if (got <= 0) {
			add_none(syms, addrs[i]);
			continue;
		}
		v = grow(syms->v, &syms->cap, syms->n + 1, sizeof(*v));
		if (!v) {
			fprintf(stderr, "aca-host: out of memory for kernel symbols\n");
			return -2;
		}
		syms->v = v;
		syms->v[syms->n++] = a;
	}
	return 0;
}

/* One request, waited for: as take_answer(). */
static int ask(struct host_session *s, const uint64_t *addrs, size_t n,
	       uint8_t *slots, struct ksym_known *syms, size_t *bad)
{
	int st = host_command(s, ACA_CMD_KERNEL_SYMBOLS, addrs, n * sizeof(*addrs),
			      slots, (uint64_t)n * ACA_KSYM_SLOT_SIZE);

	return take_answer(st, addrs, n, slots, syms, bad);
}

/* Write @syms (sorted, each start once) as DIR/kallsyms and DIR/kallsyms.size. */
static int write_files(const char *dir, const struct ksym_known *syms)
{
	char path[4096], sizes[4096];
	FILE *f, *z;
	int err = 0;

	snprintf(path, sizeof(path), "%s/" KSYM_FILE, dir);
	snprintf(sizes, sizeof(sizes), "%s/" KSYM_SIZE_FILE, dir);
	f = fopen(path, "w");
	z = f ? fopen(sizes, "w") : NULL;
	if (!f || !z) {
		fprintf(stderr, "aca-host: %s: %s\n", f ? sizes : path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	for (size_t i = 0; i < syms->n; i++) {
		const struct ksym_answer *a = &syms->v[i];

		/* /proc/kallsyms' own format; a module's name after a tab. */
		if (a->module[0])
			fprintf(f, "%016llx t %s\t[%s]\n", (unsigned long long)a->start,
				a->name, a->module);
		else
			fprintf(f, "%016llx t %s\n", (unsigned long long)a->start, a->name);
		fprintf(z, "%016llx %llx\n", (unsigned long long)a->start,
			(unsigned long long)a->size);
	}
	if (fclose(f)) {
		fprintf(stderr, "aca-host: %s: %s\n", path, strerror(errno));
		err = -1;
	}
	if (fclose(z)) {
		fprintf(stderr, "aca-host: %s: %s\n", sizes, strerror(errno));
		err = -1;
	}
	return err;
}

/*
 * Keep of @a (ascending) only the @max addresses with the most hits that
 * no symbol of @k holds, ascending. -1: out of memory.
 */
static int hottest_unnamed(struct ksym_addrs *a, const struct ksym_known *k, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n; i++) {
		if (known_holds(k, a->v[i]) || known_none(k, a->v[i]))
			continue;
		a->v[n] = a->v[i];
		a->hits[n++] = a->hits[i];
	}
	a->n = n;
	if (n <= max)
		return 0;
	if (sort_pairs(a, by_heat))
		return -1;
	a->n = max;
	return sort_pairs(a, by_addr);
}

/*
 * After the answers to @asked addresses: @bad said, @syms sorted, the
 * files written from it. None named of many is aca hiding them (its
 * /proc/kallsyms shows the session's user zeros), said with what to do.
 * How many symbols, or -1 (said).
 */
static long long finish_answers(const char *dir, struct ksym_known *syms, size_t bad,
				size_t asked)
{
	if (bad)
		fprintf(stderr, "aca-host: KERNEL_SYMBOLS: %zu answers were not a symbol of "
			"their address, left out\n", bad);
	if (asked && !syms->n && !bad)
		fprintf(stderr, "aca-host: the target named none of the %zu kernel addresses "
			"asked: its /proc/kallsyms shows the session's user no kernel address "
			"(kptr_restrict, CAP_SYSLOG on the target: aca(4) SECURITY); `aca-host "
			"report` names kernel functions only with --kallsyms or --vmlinux\n",
			asked);
	known_sort(syms);
	/*
	 * Empty too: perf report --kallsyms DIR/kallsyms (aca-host(1)) of a
	 * file that is not there prints nothing at all, perf script "Invalid
	 * file".
	 */
	if (write_files(dir, syms))
		return -1;
	return (long long)syms->n;
}

long long ksym_collect(struct host_session *s, const char *dir, uint32_t ncpus,
		       const struct record_layout *l)
{
	struct ksym_known known = { 0 };
	struct ksym_known *syms = &known;
	struct ksym_addrs a;
	uint64_t batch[ACA_KSYM_MAX_ADDRS];
	uint8_t *slots = NULL;
	long long ret = -1;
	size_t k = 0, bad = 0;
	char err[256];

	if (ksym_gather(dir, ncpus, l, 0, &a, err, sizeof(err))) {
		fprintf(stderr, "aca-host: kernel symbols: %s\n", err);
		return -1;
	}
	if (!a.n) {
		ret = finish_answers(dir, syms, 0, 0);
		goto out;
	}
	slots = malloc((size_t)ACA_KSYM_MAX_ADDRS * ACA_KSYM_SLOT_SIZE);
	if (!slots) {
		fprintf(stderr, "aca-host: out of memory for kernel symbols\n");
		goto out;
	}
	while (k < a.n) {
		size_t n = 0;
		int st;

		/* Addresses inside the last answer's symbol need no asking. */
		for (; k < a.n && n < ACA_KSYM_MAX_ADDRS; k++) {
			const struct ksym_answer *last = syms->n ? &syms->v[syms->n - 1] : NULL;

			if (last && a.v[k] >= last->start && a.v[k] - last->start < last->size)
				continue;
			batch[n++] = a.v[k];
		}
		if (!n)
			break;
		st = ask(s, batch, n, slots, syms, &bad);
		if (st == -2)
			goto out;
		if (st < 0) {
			ret = KSYM_SESSION_BROKEN;
			goto out;
		}
		if (st > 0) {
			/* Refused: nothing to write, and the collection goes on. */
			ret = 0;
			goto out;
		}
	}
	ret = finish_answers(dir, syms, bad, a.n);
out:
	free(slots);
	ksym_addrs_free(&a);
	ksym_known_free(&known);
	return ret;
}

int ksym_ask_send(struct host_session *s, const char *dir, uint32_t ncpus,
		  const struct record_layout *l, const struct ksym_known *known,
		  struct ksym_ask *q)
{
	struct ksym_addrs a;
	char err[256];
	int ret = -1;

	if (ksym_gather(dir, ncpus, l, KSYM_IPS_ONLY, &a, err, sizeof(err))) {
		fprintf(stderr, "aca-host: kernel symbols: %s\n", err);
		return -1;
	}
	if (hottest_unnamed(&a, known, KSYM_ASK_MAX)) {
		fprintf(stderr, "aca-host: out of memory for kernel symbols\n");
		goto out;
	}
	ret = 0;
	if (!a.n)
		goto out;
	memcpy(q->addrs, a.v, a.n * sizeof(*a.v));
	q->n = a.n;
	ret = host_command_send(s, ACA_CMD_KERNEL_SYMBOLS, q->addrs, q->n * sizeof(*q->addrs),
				(uint64_t)q->n * ACA_KSYM_SLOT_SIZE) ? KSYM_SESSION_BROKEN : 1;
	if (ret < 0)
		q->n = 0;
out:
	ksym_addrs_free(&a);
	return ret;
}

long long ksym_ask_take(struct host_session *s, const char *dir, struct ksym_known *known,
			struct ksym_ask *q, int *refused)
{
	size_t bad = 0;
	int st;

	if (!q->n)
		return -1;
	st = host_answer_take(s, ACA_CMD_KERNEL_SYMBOLS, q->slots,
			      (uint64_t)q->n * ACA_KSYM_SLOT_SIZE);
	st = take_answer(st, q->addrs, q->n, q->slots, known, &bad);
	q->n = 0;
	if (st == -2) {
		known_sort(known);
		return -1;
	}
	if (st < 0)
		return KSYM_SESSION_BROKEN;
	if (st > 0) {
		*refused = 1;
		return 0;
	}
	/* top asks again at each refresh: its screen, not stderr, says more. */
	return finish_answers(dir, known, bad, 0);
}
