// SPDX-License-Identifier: GPL-2.0-only
/* A collection as a perf.data file (perfdata.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "files.h"
#include "perfdata.h"
#include "perfnames.h"
#include "stack.h"

#define PD_MAGIC		0x32454c4946524550ull	/* "PERFILE2" */
#define PD_NAME_ALIGN		64	/* perf pads its strings to this */
#define PD_BUILD_ID_MAX		20	/* what perf's records hold */
#define PD_TXT_MAX		(1u << 20)
#define KERNEL_IMAGE		"vmlinux"	/* the record of the kernel image */
#define KERNEL_MMAP		"[kernel.kallsyms]"
#define HOST_MACHINE_PID	((uint32_t)-1)	/* perf's pid of the host machine */
/* perf's own flag: a build-id record says its size (tools/perf event.h) */
#define PD_MISC_BUILD_ID_SIZE	(1 << 15)

/* The feature bits this writer sets (perf.data-file-format.txt). */
enum {
	FEAT_BUILD_ID = 2,
	FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4,
	FEAT_ARCH = 6,
	FEAT_NRCPUS = 7,
	FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12,
	FEAT_BITS = 256,
};

struct pd_section {
	uint64_t offset, size;
};

struct pd_header {
	uint64_t magic;
	uint64_t size;
	uint64_t attr_size;
	struct pd_section attrs, data, event_types;
	uint64_t features[FEAT_BITS / 64];
};

struct pd_file_attr {
	struct perf_event_attr attr;
	struct pd_section ids;
};

/* What the writer knows of the collection and where it is in the file. */
struct pd {
	FILE *f;
	int failed;			/* a write failed: errno in @err */
	int err;
	struct collection *c;
	struct report *r;
	const struct report_opts *o;
	uint32_t nattr;
	uint64_t sample_type;
	uint64_t period;
	char hostname[256];		/* collection.txt's target, "" if none */
	char release[128];		/* its uname's release, "" if none */
};

#define PD_CMD		"aca-host perf-data"
#define say(o, ...)	report_say(o, PD_CMD, __VA_ARGS__)

static void put(struct pd *w, const void *p, size_t n)
{
	if (w->failed || !n)
		return;
	if (fwrite(p, 1, n, w->f) != n) {
		w->failed = 1;
		w->err = errno ? errno : EIO;
	}
}

static void put_zeros(struct pd *w, size_t n)
{
	static const uint8_t zeros[PD_NAME_ALIGN];

	while (n) {
		size_t k = n < sizeof(zeros) ? n : sizeof(zeros);

		put(w, zeros, k);
		n -= k;
	}
}

static uint64_t pos(struct pd *w)
{
	long at = ftell(w->f);

	if (at < 0 && !w->failed) {
		w->failed = 1;
		w->err = errno;
	}
	return at < 0 ? 0 : (uint64_t)at;
}

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* A TSC as perf's time, nanoseconds (the TSC itself when its rate is unknown). */
static uint64_t tsc_ns(const struct report *r, uint64_t tsc)
{
	if (!r->tsc_hz)
		return tsc;
	return (uint64_t)((unsigned __int128)tsc * 1000000000u / r->tsc_hz);
}

/* The attr (0 .. nattr) a sample belongs to: its group's with several. */
static uint32_t attr_of(const struct pd *w, const struct host_sample *s)
{
	int g = w->nattr > 1 ? report_group_of(w->r, s) : -1;

	return g < 0 ? 0 : (uint32_t)g;
}

/* The id perf finds attr @i by: never 0. */
static uint64_t attr_id(uint32_t i)
{
	return i + 1;
}

/* The event name of attr @i. */
static const char *attr_name(const struct pd *w, uint32_t i)
{
	if (w->nattr > 1)
		return w->r->groups.g[i].event;
	return w->r->event[0] ? w->r->event : "unknown";
}

static void attr_fill(const struct pd *w, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (w->r->cpu_clock) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
	} else {
		/* A SEP event perf has no code for: EVENT_DESC names it. */
		a->type = PERF_TYPE_RAW;
	}
	a->sample_period = w->period;
	a->sample_type = w->sample_type;
	a->sample_id_all = 1;
}

/* The sample_id trailer of a non-sample record (sample_id_all). */
static void put_sample_id(struct pd *w, uint32_t pid, uint32_t tid, uint64_t time,
			  uint32_t cpu, uint32_t attr)
{
	uint32_t pt[2] = { pid, tid }, cr[2] = { cpu, 0 };
	uint64_t id = attr_id(attr);

	put(w, pt, sizeof(pt));
	put(w, &time, sizeof(time));
	put(w, cr, sizeof(cr));
	if (w->sample_type & PERF_SAMPLE_IDENTIFIER)
		put(w, &id, sizeof(id));
}

static size_t sample_id_size(const struct pd *w)
{
	return 8 + 8 + 8 + (w->sample_type & PERF_SAMPLE_IDENTIFIER ? 8 : 0);
}

static void put_header(struct pd *w, uint32_t type, uint16_t misc, size_t size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = size };

	put(w, &h, sizeof(h));
}

/* A string padded with NULs to @len bytes (its NUL included). */
static void put_padded(struct pd *w, const char *s, size_t len)
{
	size_t n = strlen(s);

	put(w, s, n);
	put_zeros(w, len - n);
}

static void write_comm(struct pd *w, uint32_t pid, uint32_t tid)
{
	char comm[PERF_COMM_LEN];
	uint32_t pt[2] = { pid, tid };
	size_t len;

	perf_comm(&w->c->a, pid, comm, sizeof(comm), NULL, 0);
	len = align_up(strlen(comm) + 1, 8);
	put_header(w, PERF_RECORD_COMM, 0,
		   sizeof(struct perf_event_header) + 8 + len + sample_id_size(w));
	put(w, pt, sizeof(pt));
	put_padded(w, comm, len);
	put_sample_id(w, pid, tid, 0, 0, 0);
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A COMM for every thread a sample ran in and every process a module
 * record names (pid 0 is perf's own swapper). -1 when out of memory.
 */
static int write_comms(struct pd *w, const size_t *order, size_t n)
{
	size_t m = 0;
	uint64_t *ids = malloc((n + w->c->mods.n + 1) * sizeof(*ids));

	if (!ids)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct host_sample *s = &w->c->samples.v[order[i]];

		ids[m++] = (uint64_t)s->pid << 32 | s->tid;
	}
	for (size_t i = 0; i < w->c->mods.n; i++)
		ids[m++] = (uint64_t)w->c->mods.v[i].pid << 32 | w->c->mods.v[i].pid;
	qsort(ids, m, sizeof(*ids), by_u64);
	for (size_t i = 0; i < m; i++)
		if ((!i || ids[i] != ids[i - 1]) && ids[i] >> 32)
			write_comm(w, ids[i] >> 32, (uint32_t)ids[i]);
	free(ids);
	return 0;
}

/* A build-id perf's records can hold. */
static int has_build_id(const struct host_module *m)
{
	return m->build_id_size && m->build_id_size <= PD_BUILD_ID_MAX;
}

/* The kernel's modules as perf names them: "[NAME]" without ".ko". */
static void kernel_module_name(const char *path, char *buf, size_t len)
{
	char name[PERF_NAME_MAX - 2];
	char *dot;

	perf_printable(name, sizeof(name), perf_base_name(path));
	dot = strstr(name, ".ko");
	if (dot)
		*dot = 0;
	snprintf(buf, len, "[%s]", name);
}

/*
 * The symbol perf places the kernel image by (its "reference relocation
 * symbol", looked up in the kallsyms perf is given): _stext of the kallsyms
 * copy, else the copy's lowest symbol of the image (collect's copy holds
 * only what the samples hit). NULL without one: perf then warns that
 * kernel addresses were restricted.
 */
static const char *kernel_ref(const struct pd *w, uint64_t *addr)
{
	const struct ksyms *k = &w->c->a.ksyms;

	if (k->stext) {
		*addr = k->stext;
		return "_stext";
	}
	for (size_t i = 0; i < k->n; i++)
		if (!k->v[i].module[0] && k->v[i].addr) {
			*addr = k->v[i].addr;
			return k->v[i].name;
		}
	return NULL;
}

/*
 * The file name of module record @m's MMAP2 and its cpumode: the kernel
 * image as [kernel.kallsyms] followed by its reference symbol, whose
 * address is the record's pgoff; kernel modules as [NAME].
 */
static uint16_t mmap_name(const struct pd *w, const struct host_module *m,
			  char *buf, size_t len, uint64_t *pgoff)
{
	const char *ref;

	*pgoff = m->page_offset;
	if (m->pid)
		perf_printable(buf, len, m->path);
	else if (strcmp(m->path, KERNEL_IMAGE))
		kernel_module_name(m->path, buf, len);
	else if ((ref = kernel_ref(w, pgoff)))
		snprintf(buf, len, KERNEL_MMAP "%s", ref);
	else
		snprintf(buf, len, KERNEL_MMAP);
	return m->pid ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
}

static void write_mmap2(struct pd *w, const struct host_module *m)
{
	char name[PERF_NAME_MAX];
	uint64_t pgoff, v[3];
	uint32_t pt[2], prot[2] = { PROT_READ | PROT_EXEC, MAP_PRIVATE };
	uint8_t id[24] = { 0 };
	uint16_t misc = mmap_name(w, m, name, sizeof(name), &pgoff);
	size_t len = align_up(strlen(name) + 1, 8);

	pt[0] = m->pid ? m->pid : HOST_MACHINE_PID;
	pt[1] = m->pid;
	if (has_build_id(m)) {
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		id[0] = m->build_id_size;
		memcpy(id + 4, m->build_id, m->build_id_size);
	}
	v[0] = m->load;
	v[1] = m->length;
	v[2] = pgoff;
	put_header(w, PERF_RECORD_MMAP2, misc, sizeof(struct perf_event_header) +
		   sizeof(pt) + sizeof(v) + sizeof(id) + sizeof(prot) + len +
		   sample_id_size(w));
	put(w, pt, sizeof(pt));
	put(w, v, sizeof(v));
	put(w, id, sizeof(id));
	put(w, prot, sizeof(prot));
	put_padded(w, name, len);
	put_sample_id(w, pt[0], pt[1], tsc_ns(w->r, m->load_tsc), 0, 0);
}

/* Samples by TSC; the order they were read in among equals. */
static int by_time(const void *a, const void *b, void *samples)
{
	const struct host_sample *v = samples;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (v[i].tsc != v[j].tsc)
		return v[i].tsc < v[j].tsc ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int is_kernel_ip(uint64_t ip)
{
	return ip >= HOST_KERNEL_IP_MIN;
}

/*
 * The callers of @s written: aca-host script's frames (stack.h), at most
 * STACK_MAX_FRAMES with the IP, kernel ones first. A user-mode sample has
 * no kernel callers.
 */
static void chain_kept(const struct pd *w, const struct host_sample *s,
		       size_t *nk, size_t *nu)
{
	size_t callers = stack_depth(&w->c->samples, s) - 1;

	*nk = is_kernel_ip(s->ip) ? s->nkernel : 0;
	if (*nk > callers)
		*nk = callers;
	*nu = s->nuser < callers - *nk ? s->nuser : callers - *nk;
}

/* Callchain entries of @s: context markers, its IP, then its callers. */
static size_t chain_entries(const struct pd *w, const struct host_sample *s)
{
	size_t nk, nu;

	chain_kept(w, s, &nk, &nu);
	if (is_kernel_ip(s->ip))
		return 2 + nk + (nu ? 1 + nu : 0);
	return 2 + nu;
}

static void put_u64(struct pd *w, uint64_t v)
{
	put(w, &v, sizeof(v));
}

static void put_chain(struct pd *w, const struct host_sample *s)
{
	const uint64_t *k = w->c->samples.chain + s->chain, *u = k + s->nkernel;
	size_t nk, nu;

	chain_kept(w, s, &nk, &nu);
	put_u64(w, chain_entries(w, s));
	if (is_kernel_ip(s->ip)) {
		put_u64(w, PERF_CONTEXT_KERNEL);
		put_u64(w, s->ip);
		put(w, k, nk * sizeof(*k));
		if (nu)
			put_u64(w, PERF_CONTEXT_USER);
	} else {
		put_u64(w, PERF_CONTEXT_USER);
		put_u64(w, s->ip);
	}
	put(w, u, nu * sizeof(*u));
}

static void write_sample(struct pd *w, const struct host_sample *s)
{
	size_t size = sizeof(struct perf_event_header) + 8 * 5;
	uint32_t pt[2] = { s->pid, s->tid }, cr[2] = { s->cpu, 0 };
	uint32_t attr = attr_of(w, s);

	if (w->sample_type & PERF_SAMPLE_IDENTIFIER)
		size += 8;
	if (w->sample_type & PERF_SAMPLE_CALLCHAIN)
		size += 8 * (1 + chain_entries(w, s));
	put_header(w, PERF_RECORD_SAMPLE, is_kernel_ip(s->ip) ? PERF_RECORD_MISC_KERNEL :
		   PERF_RECORD_MISC_USER, size);
	if (w->sample_type & PERF_SAMPLE_IDENTIFIER)
		put_u64(w, attr_id(attr));
	put_u64(w, s->ip);
	put(w, pt, sizeof(pt));
	put_u64(w, tsc_ns(w->r, s->tsc));
	put(w, cr, sizeof(cr));
	put_u64(w, w->period);
	if (w->sample_type & PERF_SAMPLE_CALLCHAIN)
		put_chain(w, s);
}

/* A perf_header_string: its length, padded, then the string. */
static void put_string(struct pd *w, const char *s)
{
	uint32_t len = align_up(strlen(s) + 1, PD_NAME_ALIGN);

	put(w, &len, sizeof(len));
	put_padded(w, s, len);
}

/* One build_id_event (pid: the host's, where perf keeps the target's files). */
static void put_build_id(struct pd *w, const struct host_module *m)
{
	uint32_t pid = HOST_MACHINE_PID;
	uint8_t id[24] = { 0 };
	char name[PERF_NAME_MAX];
	uint64_t pgoff;
	uint16_t misc = mmap_name(w, m, name, sizeof(name), &pgoff);
	size_t len;

	if (!m->pid && !strcmp(m->path, KERNEL_IMAGE))
		snprintf(name, sizeof(name), KERNEL_MMAP);
	len = align_up(strlen(name) + 1, PD_NAME_ALIGN);
	memcpy(id, m->build_id, m->build_id_size);
	id[20] = m->build_id_size;
	put_header(w, 0, misc | PD_MISC_BUILD_ID_SIZE,
		   sizeof(struct perf_event_header) + sizeof(pid) + sizeof(id) + len);
	put(w, &pid, sizeof(pid));
	put(w, id, sizeof(id));
	put_padded(w, name, len);
}

/* Module records by space, path and build-id: one file's records together. */
static int by_file(const void *a, const void *b, void *mods)
{
	const struct host_module *v = mods;
	const struct host_module *x = &v[*(const size_t *)a], *y = &v[*(const size_t *)b];
	int c = (x->pid == 0) - (y->pid == 0);

	if (!c)
		c = strcmp(x->path, y->path);
	if (!c)
		c = (int)x->build_id_size - (int)y->build_id_size;
	if (!c)
		c = memcmp(x->build_id, y->build_id, x->build_id_size);
	return c;
}

/* The build-id of every file a module record names, each file once. */
static void feat_build_id(struct pd *w)
{
	const struct host_module *v = w->c->mods.v;
	size_t *order = malloc((w->c->mods.n + 1) * sizeof(*order)), n = 0;

	if (!order) {
		w->failed = 1;
		w->err = ENOMEM;
		return;
	}
	for (size_t i = 0; i < w->c->mods.n; i++)
		if (has_build_id(&v[i]))
			order[n++] = i;
	qsort_r(order, n, sizeof(*order), by_file, (void *)v);
	for (size_t i = 0; i < n; i++)
		if (!i || by_file(&order[i - 1], &order[i], (void *)v))
			put_build_id(w, &v[order[i]]);
	free(order);
}

static int have_build_ids(const struct pd *w)
{
	for (size_t i = 0; i < w->c->mods.n; i++)
		if (has_build_id(&w->c->mods.v[i]))
			return 1;
	return 0;
}

static void feat_nrcpus(struct pd *w)
{
	uint32_t n[2] = { w->r->ncpus, w->r->ncpus };

	put(w, n, sizeof(n));
}

static void feat_cmdline(struct pd *w, int argc, char *const *argv)
{
	uint32_t n = argc;

	put(w, &n, sizeof(n));
	for (int i = 0; i < argc; i++)
		put_string(w, argv[i]);
}

static void feat_event_desc(struct pd *w)
{
	uint32_t n[2] = { w->nattr, sizeof(struct perf_event_attr) }, nids = 1;
	struct perf_event_attr a;

	put(w, n, sizeof(n));
	attr_fill(w, &a);
	for (uint32_t i = 0; i < w->nattr; i++) {
		put(w, &a, sizeof(a));
		put(w, &nids, sizeof(nids));
		put_string(w, attr_name(w, i));
		put_u64(w, attr_id(i));
	}
}

/* The features this collection has, each written by its own helper. */
static int has_feature(const struct pd *w, int feat)
{
	switch (feat) {
	case FEAT_BUILD_ID:
		return have_build_ids(w);
	case FEAT_HOSTNAME:
		return w->hostname[0] != 0;
	case FEAT_OSRELEASE:
		return w->release[0] != 0;
	case FEAT_ARCH:
	case FEAT_NRCPUS:
	case FEAT_CMDLINE:
	case FEAT_EVENT_DESC:
		return 1;
	}
	return 0;
}

static void write_feature(struct pd *w, int feat, int argc, char *const *argv)
{
	switch (feat) {
	case FEAT_BUILD_ID:
		feat_build_id(w);
		break;
	case FEAT_HOSTNAME:
		put_string(w, w->hostname);
		break;
	case FEAT_OSRELEASE:
		put_string(w, w->release);
		break;
	case FEAT_ARCH:
		/* SEP targets run 64-bit x86 (the records' 64-bit IPs). */
		put_string(w, "x86_64");
		break;
	case FEAT_NRCPUS:
		feat_nrcpus(w);
		break;
	case FEAT_CMDLINE:
		feat_cmdline(w, argc, argv);
		break;
	case FEAT_EVENT_DESC:
		feat_event_desc(w);
		break;
	}
}

/* The feature sections: their table after the data, then each feature. */
static void write_features(struct pd *w, struct pd_header *h, int argc,
			   char *const *argv)
{
	struct pd_section sec[FEAT_BITS];
	uint64_t table;
	int n = 0;

	for (int f = 1; f < FEAT_BITS; f++)
		if (has_feature(w, f))
			h->features[f / 64] |= 1ull << (f % 64);
	table = pos(w);
	for (int f = 0; f < FEAT_BITS; f++)
		if (h->features[f / 64] >> (f % 64) & 1)
			n++;
	put_zeros(w, n * sizeof(*sec));
	n = 0;
	for (int f = 0; f < FEAT_BITS; f++) {
		if (!(h->features[f / 64] >> (f % 64) & 1))
			continue;
		sec[n].offset = pos(w);
		write_feature(w, f, argc, argv);
		sec[n].size = pos(w) - sec[n].offset;
		n++;
	}
	if (!w->failed && fseek(w->f, table, SEEK_SET)) {
		w->failed = 1;
		w->err = errno;
	}
	put(w, sec, n * sizeof(*sec));
}

/* The attrs and each one's id; @h gets their sections. */
static void write_attrs(struct pd *w, struct pd_header *h)
{
	struct pd_file_attr fa;

	h->attrs.offset = pos(w);
	h->attrs.size = w->nattr * sizeof(fa);
	h->attr_size = sizeof(fa);
	attr_fill(w, &fa.attr);
	for (uint32_t i = 0; i < w->nattr; i++) {
		fa.ids.offset = h->attrs.offset + h->attrs.size + i * sizeof(uint64_t);
		fa.ids.size = sizeof(uint64_t);
		put(w, &fa, sizeof(fa));
	}
	for (uint32_t i = 0; i < w->nattr; i++)
		put_u64(w, attr_id(i));
}

/*
 * The kernel image's record first: perf places its modules by it. A
 * record of length 0 maps nothing (a kernel thread's, which only names
 * it: its COMM says that); as an MMAP2 it would send perf and hotspot
 * looking for an ELF file of that name.
 */
static void write_mmaps(struct pd *w)
{
	for (int kernel = 1; kernel >= 0; kernel--)
		for (size_t i = 0; i < w->c->mods.n; i++) {
			const struct host_module *m = &w->c->mods.v[i];

			if (m->length &&
			    kernel == (!m->pid && !strcmp(m->path, KERNEL_IMAGE)))
				write_mmap2(w, m);
		}
}

static int write_file(struct pd *w, const size_t *order, size_t n, int argc,
		      char *const *argv)
{
	struct pd_header h = { .magic = PD_MAGIC, .size = sizeof(h) };

	put(w, &h, sizeof(h));
	write_attrs(w, &h);
	h.data.offset = pos(w);
	if (write_comms(w, order, n))
		return -1;
	write_mmaps(w);
	for (size_t i = 0; i < n; i++)
		write_sample(w, &w->c->samples.v[order[i]]);
	h.data.size = pos(w) - h.data.offset;
	write_features(w, &h, argc, argv);
	if (!w->failed && fseek(w->f, 0, SEEK_SET)) {
		w->failed = 1;
		w->err = errno;
	}
	put(w, &h, sizeof(h));
	return 0;
}

/* "key=value" of collection.txt into @val, printable; "" if it is not there. */
static void txt_value(const char *txt, const char *key, char *val, size_t len)
{
	size_t k = strlen(key);

	val[0] = 0;
	for (const char *l = txt; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, key, k) && l[k] == '=') {
			size_t n = strcspn(l + k + 1, "\n");
			char v[1024];

			snprintf(v, sizeof(v), "%.*s", (int)(n < sizeof(v) ? n : sizeof(v) - 1),
				 l + k + 1);
			perf_printable(val, len, v);
			return;
		}
	}
}

/* The target's name and kernel release (uname's second word). */
static void read_target(const char *dir, struct pd *w)
{
	char path[4096], uname[512], *rel, *end;
	size_t len;
	char *txt;

	snprintf(path, sizeof(path), "%s/collection.txt", dir);
	txt = (char *)read_whole_file(path, PD_TXT_MAX, &len);
	if (!txt)
		return;
	txt_value(txt, "target", w->hostname, sizeof(w->hostname));
	txt_value(txt, "uname", uname, sizeof(uname));
	rel = strchr(uname, ' ');
	if (rel) {
		end = strchr(++rel, ' ');
		if (end)
			*end = 0;
		snprintf(w->release, sizeof(w->release), "%s", rel);
	}
	free(txt);
}

/* The samples o's filters keep, oldest first; NULL when out of memory. */
static size_t *kept_samples(struct pd *w, size_t *n)
{
	size_t *order = malloc((w->c->samples.n ? w->c->samples.n : 1) * sizeof(*order));

	*n = 0;
	if (!order)
		return NULL;
	for (size_t i = 0; i < w->c->samples.n; i++)
		if (report_keep(w->c, w->o, &w->c->samples.v[i]))
			order[(*n)++] = i;
	qsort_r(order, *n, sizeof(*order), by_time, w->c->samples.v);
	return order;
}

/* Write @out.tmp and rename it to @out; 0, or 2 with the reason said. */
static int write_out(struct pd *w, const size_t *order, size_t n, const char *out,
		     int argc, char *const *argv)
{
	char tmp[OUT_TMP_MAX];
	int fd = out_tmp_create(out, tmp);

	w->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!w->f) {
		say(w->o, "%s: %s", fd < 0 && errno == ENAMETOOLONG ? out : tmp,
		    strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return 2;
	}
	if (write_file(w, order, n, argc, argv)) {
		w->failed = 1;
		w->err = ENOMEM;
	}
	if (fflush(w->f) && !w->failed) {
		w->failed = 1;
		w->err = errno;
	}
	/* The descriptor stays open for out_tmp_finish(): only the FILE goes. */
	fd = dup(fileno(w->f));
	if (fd < 0 && !w->failed) {
		w->failed = 1;
		w->err = errno;
	}
	fclose(w->f);
	w->err = out_tmp_finish(fd, tmp, out, w->failed ? w->err : 0);
	if (w->err) {
		say(w->o, "%s: %s; nothing written", out, strerror(w->err));
		return 2;
	}
	return 0;
}

int perfdata_write(const char *dir, const struct report_opts *o, const char *out,
		   int argc, char *const *cmdline)
{
	struct collection c;
	struct report r;
	struct pd w = { .o = o, .c = &c, .r = &r };
	size_t *order, n;
	int ret = collection_open_whole(dir, o, &r, &c, PD_CMD, out);

	if (ret)
		return ret;
	w.nattr = r.groups.n > 1 ? r.groups.n : 1;
	w.period = r.sample_after ? r.sample_after : 1;
	w.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (r.callstack_size)
		w.sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (w.nattr > 1)
		w.sample_type |= PERF_SAMPLE_IDENTIFIER;
	read_target(dir, &w);
	order = kept_samples(&w, &n);
	if (!order) {
		say(o, "out of memory; %s not written", out);
		ret = 2;
	} else if (!n) {
		say(o, "%s: no sample to write; %s not written", dir, out);
		ret = 2;
	} else {
		ret = write_out(&w, order, n, out, argc, cmdline);
	}
	free(order);
	collection_close(o, &r, &c);
	report_free(&r);
	return ret;
}
