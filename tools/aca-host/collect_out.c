// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a collection leaves behind: one file per data channel (the raw
 * stream after its 8-byte first message), DIR/collection.txt with the facts
 * `aca-host report` and people need, and a summary on stdout.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect.h"
#include "files.h"
#include "groups.h"
#include "host.h"
#include "ksym_collect.h"
#include "payload.h"
#include "records.h"
#include "textesc.h"

static int out_problem(const char *dir, const char *what)
{
	fprintf(stderr, "aca-host collect: --out %s: %s\n", dir, what);
	return -1;
}

/*
 * A file collect writes: collection.txt, cpuN.bin, uncore.bin, module.bin,
 * kallsyms, kallsyms.size, groups.txt.
 */
static int is_collection_file(const char *name)
{
	size_t digits;

	if (!strcmp(name, "collection.txt") || !strcmp(name, "uncore.bin") ||
	    !strcmp(name, "module.bin") || !strcmp(name, KSYM_FILE) ||
	    !strcmp(name, KSYM_SIZE_FILE) || !strcmp(name, GROUPS_FILE))
		return 1;
	if (strncmp(name, "cpu", 3))
		return 0;
	digits = strspn(name + 3, "0123456789");
	return digits && !strcmp(name + 3 + digits, ".bin");
}

/*
 * A previous collection: @dir holds collection files and nothing else, so
 * moving or removing it loses nothing a person put there.
 */
static int is_collection(const char *dir)
{
	struct dirent *e;
	int files = 0, others = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (is_collection_file(e->d_name) &&
		    (e->d_type == DT_REG || e->d_type == DT_UNKNOWN))
			files++;
		else
			others++;
	}
	closedir(d);
	return files && !others;
}

/* DIR.old may be replaced: absent, empty, or a previous collection too. */
static int old_replaceable(const char *dir, const char *old)
{
	struct stat st;

	if (lstat(old, &st))
		return errno == ENOENT ? 0 : out_problem(dir, strerror(errno));
	if (S_ISDIR(st.st_mode) && (dir_is_empty(old) == 1 || is_collection(old)))
		return 0;
	fprintf(stderr, "aca-host collect: --out %s: %s is in the way (it is no "
		"collection, so it is not replaced): move it away\n", dir, old);
	return -1;
}

/*
 * What becomes of --out @dir: 0, it is used as it is (absent or empty);
 * 1, it holds a previous collection, to be moved to @old first; -1, it
 * is left alone and not used (said on stderr).
 */
static int out_plan(const char *dir, char *old, size_t len)
{
	size_t n = strlen(dir);
	struct stat st;
	int empty;

	if (!n)
		return out_problem(dir, "no directory named");
	if (stat(dir, &st))
		return errno == ENOENT ? 0 : out_problem(dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return out_problem(dir, "exists and is not a directory");
	empty = dir_is_empty(dir);
	if (empty)
		return empty < 0 ? out_problem(dir, strerror(errno)) : 0;
	if (!is_collection(dir))
		return out_problem(dir, "not empty, and not only a collection's files "
				   "(collection.txt, cpuN.bin, uncore.bin, module.bin, "
				   "kallsyms, kallsyms.size): "
				   "left alone; name a new or empty directory");
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (snprintf(old, len, "%.*s.old", (int)n, dir) >= (int)len)
		return out_problem(dir, strerror(ENAMETOOLONG));
	return old_replaceable(dir, old) ? -1 : 1;
}

int collect_check_out(const char *dir)
{
	char old[PATH_MAX];

	return out_plan(dir, old, sizeof(old)) < 0 ? -1 : 0;
}

/* perf's way with perf.data: the previous one becomes DIR.old. */
static int move_to_old(const char *dir, const char *old)
{
	int replace = !access(old, F_OK);

	if ((replace && remove_tree(old)) || rename(dir, old)) {
		fprintf(stderr, "aca-host collect: --out %s: cannot move the previous "
			"collection to %s: %s\n", dir, old, strerror(errno));
		return -1;
	}
	fprintf(stderr, "aca-host: moved the previous collection in %s to %s%s\n", dir,
		old, replace ? " (replacing the older one)" : "");
	return 0;
}

int collect_prepare_out(const char *dir)
{
	char old[PATH_MAX];
	int plan = out_plan(dir, old, sizeof(old));

	if (plan < 0 || (plan && move_to_old(dir, old)))
		return -1;
	if (make_dirs(dir))
		return out_problem(dir, strerror(errno));
	return 0;
}

/* Name each channel by its first message (spec 3.1), each name once. */
static int name_channel(const struct host_session *s, uint32_t i, uint8_t *seen,
			struct chan *c)
{
	const struct sep_data_first_msg *f = &s->first[i];

	c->type = f->data_type;
	c->id = f->data_id;
	switch (f->data_type) {
	case SEP_DATA_CPU:
		if (f->data_id >= s->ncpus || seen[f->data_id])
			break;
		seen[f->data_id] = 1;
		snprintf(c->name, sizeof(c->name), "cpu%u", f->data_id);
		return 0;
	case SEP_DATA_UNCORE:
	case SEP_DATA_MODULE:
		if (seen[s->ncpus + f->data_type - 1])
			break;
		seen[s->ncpus + f->data_type - 1] = 1;
		snprintf(c->name, sizeof(c->name), "%s",
			 f->data_type == SEP_DATA_MODULE ? "module" : "uncore");
		return 0;
	}
	fprintf(stderr, "aca-host: data channel %u: unexpected type %u id %u\n", i,
		f->data_type, f->data_id);
	return -1;
}

int collect_open_files(const struct host_session *s, const char *dir,
		       struct chan_set *cs)
{
	uint8_t *seen = calloc(s->ncpus + 2, 1);
	char path[4096];
	int err = -1;

	cs->ch = calloc(s->ndata, sizeof(*cs->ch));
	if (!seen || !cs->ch) {
		fprintf(stderr, "aca-host: out of memory\n");
		goto out;
	}
	cs->n = s->ndata;
	for (uint32_t i = 0; i < cs->n; i++)
		cs->ch[i].out = -1;
	for (uint32_t i = 0; i < cs->n; i++) {
		struct chan *c = &cs->ch[i];

		c->fd = s->data[i];
		if (name_channel(s, i, seen, c))
			goto out;
		if (dir)
			snprintf(path, sizeof(path), "%s/%s.bin", dir, c->name);
		else
			snprintf(path, sizeof(path), "/dev/null");
		c->out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (c->out < 0) {
			fprintf(stderr, "aca-host: %s: %s\n", path, strerror(errno));
			goto out;
		}
	}
	err = 0;
out:
	free(seen);
	return err;
}

void collect_close_files(struct chan_set *cs)
{
	for (uint32_t i = 0; i < cs->n; i++)
		if (cs->ch[i].out >= 0)
			close(cs->ch[i].out);
	free(cs->ch);
	cs->ch = NULL;
	cs->n = 0;
}

uint64_t collect_samples_received(struct chan_set *cs, uint32_t sample_size)
{
	uint64_t bytes = 0;

	for (uint32_t i = 0; i < cs->n; i++)
		if (cs->ch[i].type == SEP_DATA_CPU)
			bytes += atomic_load(&cs->ch[i].bytes);
	return bytes / sample_size;
}

static struct chan *find_chan(const struct collect_result *r, uint16_t type,
			      uint16_t id)
{
	for (uint32_t i = 0; i < r->chans.n; i++)
		if (r->chans.ch[i].type == type && r->chans.ch[i].id == id)
			return &r->chans.ch[i];
	return NULL;
}

static uint64_t chan_bytes(const struct collect_result *r, uint16_t type, uint16_t id)
{
	struct chan *c = find_chan(r, type, id);

	return c ? atomic_load(&c->bytes) : 0;
}

/*
 * When samples flowed, in seconds after START: the first byte of any CPU
 * channel and the last one's end of file (read only after chans_stop()).
 * With delayed transfer they all flow after STOP, so end - first is how
 * long moving what the sample rings held took.
 */
static void print_data_times(FILE *f, const struct collect_result *r)
{
	double first = 0, end = 0;
	bool all_ended = r->ncpus > 0;

	for (uint32_t i = 0; i < r->ncpus; i++) {
		const struct chan *c = find_chan(r, SEP_DATA_CPU, i);

		if (!c) {
			all_ended = false;
			continue;
		}

		if (c->first_s && (!first || c->first_s < first))
			first = c->first_s;
		if (c->end_s > end)
			end = c->end_s;
		all_ended &= c->end_s > 0;
	}
	if (first)
		fprintf(f, "data_first_s=%.6f\n", first - r->start_s);
	if (first && all_ended)
		fprintf(f, "data_end_s=%.6f\n", end - r->start_s);
}

/* Module records in module.bin, or -1 with the reason in @err. */
static long long count_modules(const char *dir, char *err, size_t errlen)
{
	struct module_vec mods = { 0 };
	char path[4096], why[256];
	long long n;
	uint8_t *buf;
	size_t len;

	snprintf(path, sizeof(path), "%s/module.bin", dir);
	buf = read_record_file(path, &len, why, sizeof(why));
	if (!buf) {
		snprintf(err, errlen, "module.bin: %s", why);
		return -1;
	}
	n = records_parse_modules(buf, len, &mods, err, errlen) ? -1 : (long long)mods.n;
	module_vec_free(&mods);
	free(buf);
	return n;
}

/*
 * Values go on one line each, as text (text_put()): no newline, escape
 * sequence or other control character from the target gets through.
 */
static void kv_str(FILE *f, const char *key, const char *v, size_t max)
{
	fprintf(f, "%s=", key);
	text_put(f, v, max);
	fputc('\n', f);
}

struct accounting {
	uint64_t received, dropped, generated;
	int have_drops;
	int ok;			/* 1 holds, 0 does not, -1 cannot say */
};

static void account(const struct collect_result *r, struct accounting *a)
{
	uint32_t n = r->drops.size;

	memset(a, 0, sizeof(*a));
	a->ok = -1;
	a->received = collect_samples_received((struct chan_set *)&r->chans,
					       r->layout.sample_size);
	a->have_drops = r->queried && r->drop_status == VT_SUCCESS;
	if (n > SEP_MAX_SAMPLE_DROP_NODES)
		n = SEP_MAX_SAMPLE_DROP_NODES;
	for (uint32_t i = 0; a->have_drops && i < n; i++) {
		a->dropped += r->drops.drop_info[i].dropped;
		a->generated += r->drops.drop_info[i].sampled;
	}
	if (!r->have_num_samples || !a->have_drops || r->drops.size < r->ncpus)
		return;
	/*
	 * The target counts every sample taken (sampled) and those it had to
	 * drop; the rest, and only those, must have arrived, and be what
	 * GET_NUM_SAMPLES says it wrote.
	 */
	a->ok = a->received + a->dropped == a->generated &&
		a->received == r->num_samples;
}

/* What the accounting lacks when it cannot be checked, in words. */
static void accounting_gaps(const struct collect_result *r, char *buf, size_t len)
{
	char drops[96] = "";

	if (!r->queried) {
		snprintf(buf, len, "the collection ended before GET_NUM_SAMPLES and "
			 "GET_SAMPLE_DROP_INFO were asked");
		return;
	}
	if (r->drop_status < 0)
		snprintf(drops, sizeof(drops), "GET_SAMPLE_DROP_INFO got no valid answer");
	else if (r->drop_status)
		snprintf(drops, sizeof(drops), "GET_SAMPLE_DROP_INFO unavailable (status %d)",
			 r->drop_status);
	else if (r->drops.size < r->ncpus)
		snprintf(drops, sizeof(drops), "GET_SAMPLE_DROP_INFO covers %u of %u CPUs",
			 r->drops.size, r->ncpus);
	snprintf(buf, len, "%s%s%s", r->have_num_samples ? "" : "GET_NUM_SAMPLES failed",
		 !r->have_num_samples && drops[0] ? "; " : "", drops);
}

/* The --event names, comma-separated in group order. */
static void event_names(const struct collect_opts *o, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (uint32_t i = 0; i < o->nevents && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? "," : "", o->events[i]);
}

static void write_txt(FILE *f, const struct host_session *s,
		      const struct collect_opts *o, const struct collect_result *r,
		      const struct accounting *a, long long nmod, const char *moderr)
{
	const struct sep_remote_os_info *os = &s->status.os_info;
	char uname[3 * 64 + 3];

	fprintf(f, "# aca-host collect: one collection; key=value, see aca-host(1)\n");
	fprintf(f, "format=1\n");
	fprintf(f, "written_by=aca-host %s\n", ACA_VERSION);
	kv_str(f, "target", o->target, 256);
	snprintf(uname, sizeof(uname), "%.64s %.64s %.64s", os->sysname, os->release,
		 os->version);
	kv_str(f, "uname", uname, sizeof(uname));
	fprintf(f, "num_cpus=%u\n", r->ncpus);
	fprintf(f, "tsc_hz=%llu\n", (unsigned long long)r->tsc_hz);
	if (o->ecb_file) {
		char ev[4096 + 8];

		snprintf(ev, sizeof(ev), "ecb:%s", o->ecb_file);
		kv_str(f, "event", ev, sizeof(ev));
	} else {
		char ev[HOST_MAX_GROUPS * 256];

		event_names(o, ev, sizeof(ev));
		kv_str(f, "event", ev, sizeof(ev));
		fprintf(f, "sample_after=%llu\n", (unsigned long long)r->sample_after);
		fprintf(f, "rate_hz=%u\n", o->rate);
		if (o->nevents > 1) {
			fprintf(f, "groups=%u\n", o->nevents);
			if (o->switch_samples)
				fprintf(f, "switch_samples=%u\n", o->switch_samples);
			else
				fprintf(f, "switch_ms=%u\n", o->switch_ms);
		}
	}
	fprintf(f, "sampling=%s\n", r->sw_clock ? "cpu-clock (no PMU on the target)" : "pmu");
	fprintf(f, "sample_size=%u\n", r->layout.sample_size);
	if (r->layout.callstack_size) {
		fprintf(f, "callstack_offset=%u\n", r->layout.callstack_offset);
		fprintf(f, "callstack_size=%u\n", r->layout.callstack_size);
	}
	fprintf(f, "duration_s=%.3f\n", o->duration);
	fprintf(f, "elapsed_s=%.3f\n", r->elapsed);
	fprintf(f, "sampled_s=%.3f\n", r->sampled);
	fprintf(f, "interrupted=%d\n", r->interrupted);
	print_data_times(f, r);
	fprintf(f, "start_tsc=%llu\n", (unsigned long long)r->start_tsc);
	fprintf(f, "stop_tsc=%llu\n", (unsigned long long)r->stop_tsc);
	for (uint32_t i = 0; i < r->ncpus; i++) {
		uint64_t b = chan_bytes(r, SEP_DATA_CPU, i);

		fprintf(f, "cpu%u_bytes=%llu\n", i, (unsigned long long)b);
		fprintf(f, "cpu%u_records=%llu\n", i,
			(unsigned long long)(b / r->layout.sample_size));
		if (a->have_drops && i < r->drops.size && i < SEP_MAX_SAMPLE_DROP_NODES) {
			fprintf(f, "cpu%u_sampled=%u\n", i, r->drops.drop_info[i].sampled);
			fprintf(f, "cpu%u_dropped=%u\n", i, r->drops.drop_info[i].dropped);
		}
	}
	fprintf(f, "uncore_bytes=%llu\n", (unsigned long long)chan_bytes(r, SEP_DATA_UNCORE, 0));
	fprintf(f, "module_bytes=%llu\n", (unsigned long long)chan_bytes(r, SEP_DATA_MODULE, 0));
	if (nmod >= 0)
		fprintf(f, "module_records=%lld\n", nmod);
	else
		kv_str(f, "module_records_error", moderr, 512);
	if (r->kernel_symbols >= 0)
		fprintf(f, "kernel_symbols=%lld\n", r->kernel_symbols);
	fprintf(f, "samples_received=%llu\n", (unsigned long long)a->received);
	if (r->have_num_samples)
		fprintf(f, "samples_reported=%llu\n", (unsigned long long)r->num_samples);
	if (a->have_drops)
		fprintf(f, "samples_dropped=%llu\n", (unsigned long long)a->dropped);
	else if (r->queried)
		fprintf(f, "drop_info=unavailable (status %d)\n", r->drop_status);
	if (a->ok >= 0) {
		fprintf(f, "samples_generated=%llu\n", (unsigned long long)a->generated);
		fprintf(f, "accounting=%s: received %llu + dropped %llu %s generated %llu\n",
			a->ok ? "ok" : "MISMATCH", (unsigned long long)a->received,
			(unsigned long long)a->dropped, a->ok ? "==" : "!=",
			(unsigned long long)a->generated);
	} else {
		char why[256];

		accounting_gaps(r, why, sizeof(why));
		fprintf(f, "accounting=unknown: %s\n", why);
	}
	fprintf(f, "started=%d\n", r->started);
	fprintf(f, "all_eof=%d\n", r->all_eof);
	fprintf(f, "complete=%d\n", r->complete);
}

static void print_summary(const struct host_session *s, const struct collect_opts *o,
			  const struct collect_result *r, const struct accounting *a,
			  long long nmod, const char *moderr)
{
	const struct sep_remote_os_info *os = &s->status.os_info;
	char ev[HOST_MAX_GROUPS * 256], sysname[sizeof(os->sysname) + 1];
	char release[sizeof(os->release) + 1];

	event_names(o, ev, sizeof(ev));
	text_copy(sysname, sizeof(sysname), os->sysname, sizeof(os->sysname));
	text_copy(release, sizeof(release), os->release, sizeof(os->release));
	printf("collected %s on %s (%s %s, %u CPUs) for %.1f s\n",
	       o->ecb_file ? o->ecb_file : ev, o->target, sysname, release, r->ncpus,
	       r->elapsed);
	if (r->sw_clock)
		printf("  note: the target has no usable PMU counter; it sampled with cpu-clock at the requested rate\n");
	for (uint32_t i = 0; i < r->ncpus; i++) {
		uint64_t n = chan_bytes(r, SEP_DATA_CPU, i) / r->layout.sample_size;

		printf("  cpu%-4u %10llu samples  %7.0f/s", i, (unsigned long long)n,
		       r->elapsed > 0 ? n / r->elapsed : 0.0);
		if (a->have_drops && i < r->drops.size && i < SEP_MAX_SAMPLE_DROP_NODES)
			printf("  (%u dropped on the target)", r->drops.drop_info[i].dropped);
		printf("\n");
	}
	printf("  total   %10llu samples received", (unsigned long long)a->received);
	if (a->ok >= 0)
		printf(", %llu dropped, %llu generated: %s\n", (unsigned long long)a->dropped,
		       (unsigned long long)a->generated,
		       a->ok ? "received + dropped == generated" :
		       "MISMATCH: received + dropped != generated");
	else
		printf("\n");
	if (nmod >= 0)
		printf("  module  %10lld records (%llu bytes)\n", nmod,
		       (unsigned long long)chan_bytes(r, SEP_DATA_MODULE, 0));
	else
		printf("  module  %s\n", moderr);
	printf("  uncore  %10llu bytes\n",
	       (unsigned long long)chan_bytes(r, SEP_DATA_UNCORE, 0));
	if (r->kernel_symbols > 0)
		printf("  kernel  %10lld symbols named by the target, in %s/" KSYM_FILE "\n",
		       r->kernel_symbols, o->out);
	printf("  files   %s/{cpu0..cpu%u,uncore,module}.bin, %s/collection.txt%s\n",
	       o->out, r->ncpus ? r->ncpus - 1 : 0, o->out,
	       r->groups_written ? ", groups.txt" : "");
}

int collect_report(const struct host_session *s, const struct collect_opts *o,
		   const struct collect_result *r)
{
	char path[4096], moderr[512] = "";
	struct accounting a;
	long long nmod;
	FILE *f;
	int err = 0;

	account(r, &a);
	nmod = count_modules(o->out, moderr, sizeof(moderr));
	snprintf(path, sizeof(path), "%s/collection.txt", o->out);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "aca-host: %s: %s\n", path, strerror(errno));
		err = -1;
	} else {
		write_txt(f, s, o, r, &a, nmod, moderr);
		if (fclose(f)) {
			fprintf(stderr, "aca-host: %s: %s\n", path, strerror(errno));
			err = -1;
		}
	}
	/* Before START there is nothing to sum up; collection.txt says so. */
	if (r->started)
		print_summary(s, o, r, &a, nmod, moderr);
	if (a.ok == 0) {
		fprintf(stderr, "aca-host: sample accounting does not add up: received %llu + "
			"dropped %llu != generated %llu\n", (unsigned long long)a.received,
			(unsigned long long)a.dropped, (unsigned long long)a.generated);
		err = -1;
	}
	if (nmod < 0) {
		fprintf(stderr, "aca-host: module records: %s\n", moderr);
		err = -1;
	}
	return err;
}
