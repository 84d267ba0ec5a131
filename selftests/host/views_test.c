// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report's views of samples with callers: --sort keys, the --comms,
 * --dsos and --tid filters, CSV and JSON, the callers table, folded stacks
 * (and their equality with perf script text folded by stackcollapse-perf.pl's
 * rules), `aca-host script`, and the flame graph, drawn by Chromium.
 * Its own program, build/tests/host_views_test.
 */
#include <ctype.h>
#include <math.h>
#include <png.h>

#include "host_fixture.h"
#include "stackcollapse.h"
#include "../../tools/aca-host/filter.h"
#include "../../tools/aca-host/flamegraph.h"
#include "../../tools/aca-host/sortkey.h"
#include "../../tools/aca-host/stack.h"
#include "../../tools/aca-host/symbols.h"
#include "../../tools/aca-host/textesc.h"

#define VIEW_PID	4242
#define VIEW_TID	4243
#define VIEW_LOAD	0x555555555000ull	/* spin's text, file offset 0x1000 */
#define VIEW_KTEXT	0xffffffff81000000ull
#define CHAIN_ROOM	16
#define CHAIN_SIZE	(SYNTH_CALLSTACK_OFFSET + SYNTH_CALLSTACK_HEAD + 8 * CHAIN_ROOM)
#define UNMAPPED_USER	0x7f0000001000ull

/* build/spin's functions where the collection maps it. */
struct spin_map {
	char *path;
	uint64_t hot, thread, main, mix_a;
};

static void spin_map_free(struct spin_map *m)
{
	free(m->path);
}

static int spin_map(struct spin_map *m)
{
	const char *spin = synth_spin_path();
	const char *names[] = { "aca_hot_spin", "thread", "main", "aca_mix_a" };
	uint64_t *at[] = { &m->hot, &m->thread, &m->main, &m->mix_a };
	struct symfile *f;
	char err[256];
	int ret = 0;

	memset(m, 0, sizeof(*m));
	m->path = spin ? realpath(spin, NULL) : NULL;
	f = m->path ? sym_open(m->path, NULL, err, sizeof(err)) : NULL;
	if (!f)
		return -1;
	for (int i = 0; i < 4; i++) {
		uint64_t v;

		if (sym_value(f, names[i], &v) || v < 0x1000) {
			ret = -1;
			break;
		}
		/* The text segment is at file offset and address 0x1000. */
		*at[i] = VIEW_LOAD + v - 0x1000;
	}
	sym_close(f);
	return ret;
}

static void chain(FIXTURE_DATA(dir) *self, uint64_t ip, uint32_t pid, uint32_t tid,
		  uint64_t tsc, uint16_t cpu, uint16_t nk, uint16_t nu, uint32_t flags,
		  const uint64_t *addrs)
{
	synth_sample_chain(&self->d.cpu0, CHAIN_SIZE, ip, pid, tid, tsc, cpu, nk, nu, flags,
			   addrs);
}

/*
 * The collection most tests use, 15 samples with callers, and a kallsyms
 * copy that names the kernel in @ks:
 *   6  aca_hot_spin <- thread <- unmapped user code     tid 4243
 *   3  aca_hot_spin <- main                             tid 4242
 *   2  native_write_msr <- do_idle (kernel) <- aca_hot_spin (user IP the
 *      system call came from) <- thread                 tid 4243
 *   1  aca_mix_a, no callers                            tid 4242
 *   1  "/x/my prog" (pid 77), a file that is not there
 *   1  do_idle <- do_idle, the idle task (pid 0)
 *   1  an unmapped address <- aca_hot_spin              tid 4242
 */
static int chains_collection(FIXTURE_DATA(dir) *self, struct spin_map *m,
			     char *ks, size_t kslen)
{
	char text[512];
	int n;

	if (spin_map(m))
		return -1;
	const uint64_t a[] = { m->thread + 8, UNMAPPED_USER };
	const uint64_t b[] = { m->main + 0x20 };
	const uint64_t c[] = { VIEW_KTEXT + 0x205, m->hot + 2, m->thread + 8 };
	const uint64_t f[] = { VIEW_KTEXT + 0x900 };
	const uint64_t g[] = { m->hot + 4 };

	synth_module(&self->d.modules, VIEW_PID, VIEW_LOAD, 0x1000, 0x1000, 0, LOADED,
		     SEP_MR_EXE, m->path);
	synth_module(&self->d.modules, 77, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE,
		     "/x/my prog");
	synth_module(&self->d.modules, 0, VIEW_KTEXT, 0x2000000, 0, 0, LOADED,
		     SEP_MR_EXE | SEP_MR_GLOBAL_MODULE, "vmlinux");
	for (int i = 0; i < 6; i++)
		chain(self, m->hot + 4, VIEW_PID, VIEW_TID, 1000 + i, 1, 0, 2, 0, a);
	for (int i = 0; i < 3; i++)
		chain(self, m->hot + 4, VIEW_PID, VIEW_PID, 2000 + i, 0, 0, 1, 0, b);
	for (int i = 0; i < 2; i++)
		chain(self, VIEW_KTEXT + 0x104, VIEW_PID, VIEW_TID, 3000 + i, 1, 1, 2,
		      i ? ACA_CALLSTACK_TRUNCATED : 0, c);
	chain(self, m->mix_a + 1, VIEW_PID, VIEW_PID, 4000, 0, 0, 0, 0, NULL);
	chain(self, 0x400010, 77, 77, 5000, 0, 0, 0, 0, NULL);
	chain(self, VIEW_KTEXT + 0x210, 0, 0, 6000, 1, 1, 0, 0, f);
	chain(self, 0x1000, VIEW_PID, VIEW_PID, 7000, 0, 0, 1, 0, g);
	snprintf(ks, kslen, "%s/ksyms", self->d.path);
	n = snprintf(text, sizeof(text), "%016llx T _stext\n%016llx T native_write_msr\n"
		     "%016llx t do_idle\n", VIEW_KTEXT, VIEW_KTEXT + 0x100, VIEW_KTEXT + 0x200);
	if (synth_write(self->d.path, "ksyms", text, n) ||
	    synth_write(self->d.path, "cpu0.bin", self->d.cpu0.p, self->d.cpu0.len) ||
	    synth_write(self->d.path, "module.bin", self->d.modules.p, self->d.modules.len))
		return -1;
	return synth_txt_chain(self->d.path, 1, CHAIN_SIZE, "cpu-clock", 1000000000);
}

/* report_load() with @o and the kallsyms copy, then report_print() into @out. */
static int view(FIXTURE_DATA(dir) *self, struct report_opts *o, const char *ks,
		char **out)
{
	size_t len;
	FILE *f;

	o->kallsyms = ks;
	if (run_report_opts(&self->d, o))
		return -1;
	f = open_memstream(out, &len);
	if (!f)
		return -1;
	report_print(&self->d.r, o, self->d.path, f);
	return fclose(f);
}

/* Samples of the --sort row of values @a, @b, @c. */
static uint64_t sorted(FIXTURE_DATA(dir) *self, const char *a, const char *b,
		       const char *c)
{
	char key[1024];

	snprintf(key, sizeof(key), "%s\x1f%s\x1f%s", a, b, c);
	return tally_get(&self->d.r.sorted, key);
}

/* Occurrences of @what in @s, none overlapping. */
static int occurrences(const char *s, const char *what)
{
	int n = 0;

	for (; s && (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

TEST_F(dir, sort_keys_group_samples_by_the_key_tuple)
{
	struct report_opts o = { .top = 0 };
	struct spin_map m;
	char ks[PATH_MAX], *out = NULL;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, sort_keys_parse(&o.sort, "comm,dso,sym", "test"));
	ASSERT_EQ(0, view(self, &o, ks, &out));
	TH_LOG("%s%s", out, self->d.warn ? self->d.warn : "");
	EXPECT_EQ(15, self->d.r.samples);
	EXPECT_EQ(9, sorted(self, "spin", "spin", "aca_hot_spin"));
	EXPECT_EQ(2, sorted(self, "spin", "[kernel.kallsyms]", "native_write_msr"));
	EXPECT_EQ(1, sorted(self, "spin", "spin", "aca_mix_a"));
	EXPECT_EQ(1, sorted(self, "spin", "[unknown]", "[unknown]"));
	EXPECT_EQ(1, sorted(self, "my prog", "my prog", "my prog+0x10"));
	EXPECT_EQ(1, sorted(self, "swapper", "[kernel.kallsyms]", "do_idle"));
	EXPECT_EQ(6, self->d.r.sorted.n);
	/* One table, most first, columns aligned; not the three tables. */
	EXPECT_NE(NULL, strstr(out, "\nBy comm,dso,sym\n   samples        %  comm     "
			       "dso                sym\n"
			       "         9   60.00%  spin     spin               aca_hot_spin\n"
			       "         2   13.33%  spin     [kernel.kallsyms]  native_write_msr\n"));
	EXPECT_EQ(NULL, strstr(out, "By function"));
	free(out);
	spin_map_free(&m);
}

/*
 * A collection still running (aca-host top reading it) has no
 * collection.txt: its records are read as the layout given says, callers
 * included, and the same as once collection.txt is there.
 */
TEST_F(dir, running_collection_reads_with_the_layout_given)
{
	const struct record_layout l = {
		.size = CHAIN_SIZE, .callstack_offset = SYNTH_CALLSTACK_OFFSET,
		.callstack_size = CHAIN_SIZE - SYNTH_CALLSTACK_OFFSET,
	};
	struct report_opts o = { .top = 0 };
	struct spin_map m;
	char ks[PATH_MAX], txt[PATH_MAX + 32], *out = NULL;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	snprintf(txt, sizeof(txt), "%s/collection.txt", self->d.path);
	ASSERT_EQ(0, unlink(txt));
	ASSERT_EQ(0, sort_keys_parse(&o.sort, "comm,dso,sym", "test"));
	o.layout = &l;
	ASSERT_EQ(0, view(self, &o, ks, &out));
	TH_LOG("%s%s", out, self->d.warn ? self->d.warn : "");
	EXPECT_EQ(15, self->d.r.samples);
	EXPECT_EQ(9, sorted(self, "spin", "spin", "aca_hot_spin"));
	EXPECT_EQ(2, sorted(self, "spin", "[kernel.kallsyms]", "native_write_msr"));
	EXPECT_EQ(CHAIN_SIZE, self->d.r.sample_size);
	free(out);
	spin_map_free(&m);
}

/* --sort tid is the per-thread view (perf report --sort tid). */
TEST_F(dir, sort_tid_gives_one_row_per_thread)
{
	struct report_opts o = { .top = 0 };
	struct spin_map m;
	char ks[PATH_MAX], *out = NULL;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, sort_keys_parse(&o.sort, "tid", "test"));
	ASSERT_EQ(0, view(self, &o, ks, &out));
	EXPECT_EQ(8, tally_get(&self->d.r.sorted, "4243"));
	EXPECT_EQ(5, tally_get(&self->d.r.sorted, "4242"));
	EXPECT_EQ(1, tally_get(&self->d.r.sorted, "77"));
	EXPECT_EQ(1, tally_get(&self->d.r.sorted, "0"));
	EXPECT_NE(NULL, strstr(out, "         8   53.33%  4243\n         5   33.33%  4242\n"));
	free(out);
	spin_map_free(&m);
}

/* The line in build/spin's source of aca_hot_spin()'s first and last line. */
static int hot_spin_lines(int *first, int *last)
{
	char path[PATH_MAX], line[512];
	int n = 0;
	FILE *f;

	*first = *last = 0;
	if (synth_repo_path("selftests/workload/spin.c", path, sizeof(path)))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (!*first && strstr(line, "unsigned long aca_hot_spin(void)") &&
		    !strchr(line, ';'))
			*first = n;
		else if (*first && !*last && !strcmp(line, "}\n"))
			*last = n;
	}
	fclose(f);
	return *first && *last ? 0 : -1;
}

TEST_F(dir, sort_srcline_gives_file_and_line_or_unknown)
{
	struct report_opts o = { .top = 0 };
	struct spin_map m;
	char ks[PATH_MAX], *out = NULL;
	int first, last, line = 0, found = 0;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, hot_spin_lines(&first, &last));
	ASSERT_EQ(0, sort_keys_parse(&o.sort, "sym,srcline", "test"));
	ASSERT_EQ(0, view(self, &o, ks, &out));
	TH_LOG("%s", out);
	/* build/spin has DWARF: its samples are on lines of aca_hot_spin(). */
	for (size_t i = 0; i < self->d.r.sorted.cap; i++) {
		const struct tally_entry *e = &self->d.r.sorted.slots[i];

		if (e->key && !strncmp(e->key, "aca_hot_spin\x1fspin.c:", 20)) {
			line = atoi(e->key + 20);
			found += e->count;
		}
	}
	EXPECT_EQ(9, found);
	EXPECT_LE(first, line);
	EXPECT_GE(last, line);
	/* Neither a kallsyms copy nor a missing file has lines: perf's ??:0. */
	EXPECT_EQ(2, tally_get(&self->d.r.sorted, "native_write_msr\x1f??:0"));
	EXPECT_EQ(1, tally_get(&self->d.r.sorted, "my prog+0x10\x1f??:0"));
	free(out);
	spin_map_free(&m);
}

TEST_F(dir, comms_filter_keeps_the_listed_processes)
{
	struct report_opts o = { .top = 0 };
	struct spin_map m;
	char ks[PATH_MAX], *out = NULL;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, name_list_parse(&o.comms, "my prog,swapper", "test"));
	ASSERT_EQ(0, view(self, &o, ks, &out));
	name_list_free(&o.comms);
	EXPECT_EQ(15, self->d.r.all_samples);
	EXPECT_EQ(2, self->d.r.samples);
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "do_idle (vmlinux)"));
	EXPECT_EQ(0, tally_get(&self->d.r.functions, "aca_hot_spin (spin)"));
	EXPECT_NE(NULL, strstr(out, "filtered              2   13.33% of all, alone below: "
			       "comms my prog,swapper\n"));
	free(out);
	spin_map_free(&m);
}

/*
 * Sorted by comm with --comms @comms: a sample of pid 5, whose record is
 * /x/a-very-long-program-name, and one of pid 6, without a record.
 */
static int long_name_collection(FIXTURE_DATA(dir) *self, const char *comms)
{
	struct report_opts o = { .top = 0 };
	int ret;

	synth_module(&self->d.modules, 5, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE,
		     "/x/a-very-long-program-name");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400000, 5, 5, 1, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400000, 6, 6, 2, 0);
	if (synth_txt(self->d.path, 1, SAMPLE_SIZE) ||
	    sort_keys_parse(&o.sort, "comm", "test") ||
	    name_list_parse(&o.comms, comms, "test"))
		return -1;
	ret = run_report_opts(&self->d, &o);
	name_list_free(&o.comms);
	return ret;
}

/* A comm is cut to 15 bytes as the kernel's. */
TEST_F(dir, comms_filter_matches_the_comm_cut_to_15_bytes)
{
	ASSERT_EQ(0, long_name_collection(self, "a-very-long-pro"));
	EXPECT_EQ(1, self->d.r.samples);
	EXPECT_EQ(1, tally_get(&self->d.r.sorted, "a-very-long-pro"));
}

/* The whole base name matches too. */
TEST_F(dir, comms_filter_matches_the_whole_name)
{
	ASSERT_EQ(0, long_name_collection(self, "a-very-long-program-name"));
	EXPECT_EQ(1, self->d.r.samples);
}

/* No record: perf's ":PID". */
TEST_F(dir, comms_filter_matches_a_pid_without_record_as_colon_pid)
{
	ASSERT_EQ(0, long_name_collection(self, ":6"));
	EXPECT_EQ(1, tally_get(&self->d.r.sorted, ":6"));
}

/* chains_collection() reported with --dsos @dsos (NULL: spin's path). */
static int dsos_view(FIXTURE_DATA(dir) *self, struct spin_map *m, const char *dsos)
{
	struct report_opts o = { .top = 0 };
	char ks[PATH_MAX], *out = NULL;
	int ret;

	if (chains_collection(self, m, ks, sizeof(ks)) ||
	    name_list_parse(&o.dsos, dsos ? dsos : m->path, "test"))
		return -1;
	ret = view(self, &o, ks, &out);
	name_list_free(&o.dsos);
	free(out);
	return ret;
}

TEST_F(dir, dsos_filter_keeps_samples_in_the_kernel)
{
	struct spin_map m;

	ASSERT_EQ(0, dsos_view(self, &m, "[kernel.kallsyms]"));
	EXPECT_EQ(3, self->d.r.samples);
	EXPECT_EQ(3, self->d.r.kernel);
	spin_map_free(&m);
}

TEST_F(dir, dsos_filter_keeps_a_user_dso_by_its_short_name)
{
	struct spin_map m;

	ASSERT_EQ(0, dsos_view(self, &m, "spin"));
	EXPECT_EQ(10, self->d.r.samples);
	spin_map_free(&m);
}

TEST_F(dir, dsos_filter_keeps_a_user_dso_by_its_path)
{
	struct spin_map m;

	ASSERT_EQ(0, dsos_view(self, &m, NULL));
	EXPECT_EQ(10, self->d.r.samples);
	EXPECT_EQ(9, tally_get(&self->d.r.functions, "aca_hot_spin (spin)"));
	spin_map_free(&m);
}

TEST_F(dir, tid_filter_keeps_one_thread)
{
	struct report_opts o = { .top = 0, .only_tid = 1, .tid = VIEW_TID };
	struct spin_map m;
	char ks[PATH_MAX], *out = NULL;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, view(self, &o, ks, &out));
	EXPECT_EQ(8, self->d.r.samples);
	EXPECT_EQ(6, tally_get(&self->d.r.functions, "aca_hot_spin (spin)"));
	EXPECT_EQ(2, tally_get(&self->d.r.functions, "native_write_msr (vmlinux)"));
	EXPECT_NE(NULL, strstr(out, "alone below: tid 4243\n"));
	free(out);
	spin_map_free(&m);
}

/* Processes whose names need quoting, one sample each; then the report. */
static int quoting_collection(FIXTURE_DATA(dir) *self, enum report_format format,
			      char **out)
{
	const char *names[] = { "/x/a,\"b", "/x/q\"b\\c", "/x/new\xff", "/x/\xc3\xa9t\xc3\xa9" };
	struct report_opts o = { .top = 0, .format = format };
	size_t len;
	FILE *f;

	for (uint32_t i = 0; i < 4; i++) {
		synth_module(&self->d.modules, 10 + i, 0x400000, 0x1000, 0, 0, LOADED,
			     SEP_MR_EXE, names[i]);
		for (uint32_t j = 0; j <= i; j++)
			synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400000, 10 + i, 10 + i, j, 0);
	}
	if (synth_txt(self->d.path, 1, SAMPLE_SIZE) ||
	    sort_keys_parse(&o.sort, "comm,pid", "test") || run_report_opts(&self->d, &o))
		return -1;
	f = open_memstream(out, &len);
	if (!f)
		return -1;
	report_print(&self->d.r, &o, self->d.path, f);
	return fclose(f);
}

TEST_F(dir, csv_format_has_a_header_row_and_rfc4180_quoting)
{
	char *out = NULL;

	ASSERT_EQ(0, quoting_collection(self, REPORT_CSV, &out));
	/* The rows alone, most first; a field with , or " quoted, " doubled. */
	EXPECT_STREQ("samples,percent,comm,pid\n"
		     "4,40.00,\xc3\xa9t\xc3\xa9,13\n"
		     "3,30.00,new?,12\n"
		     "2,20.00,\"q\"\"b\\c\",11\n"
		     "1,10.00,\"a,\"\"b\",10\n", out);
	free(out);
}

/* A JSON value at *@p (RFC 8259), strictly: 0 and *@p past it, or -1. */
static int json_value(const char **p, int depth);

static void json_ws(const char **p)
{
	while (**p == ' ' || **p == '\n' || **p == '\t' || **p == '\r')
		(*p)++;
}

static int json_str(const char **p)
{
	const unsigned char *s = (const unsigned char *)*p;

	if (*s++ != '"')
		return -1;
	while (*s != '"') {
		if (*s < 0x20)
			return -1;
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit(s[i]))
						return -1;
				s += 4;
			} else if (!strchr("\"\\/bfnrt", *s) || !*s) {
				return -1;
			}
			s++;
		} else if (*s >= 0x80) {
			/* UTF-8: a lead byte and its continuation bytes. */
			int n = *s >= 0xf0 ? 3 : *s >= 0xe0 ? 2 : *s >= 0xc2 ? 1 : -1;

			if (n < 0 || *s > 0xf4)
				return -1;
			for (s++; n--; s++)
				if ((*s & 0xc0) != 0x80)
					return -1;
		} else {
			s++;
		}
	}
	*p = (const char *)s + 1;
	return 0;
}

static int json_value(const char **p, int depth)
{
	char *end;

	json_ws(p);
	if (depth > 32)
		return -1;
	if (**p == '{' || **p == '[') {
		char close = **p == '{' ? '}' : ']';

		(*p)++;
		json_ws(p);
		if (**p == close) {
			(*p)++;
			return 0;
		}
		for (;;) {
			if (close == '}') {
				json_ws(p);
				if (json_str(p))
					return -1;
				json_ws(p);
				if (*(*p)++ != ':')
					return -1;
			}
			if (json_value(p, depth + 1))
				return -1;
			json_ws(p);
			if (**p == close) {
				(*p)++;
				return 0;
			}
			if (*(*p)++ != ',')
				return -1;
		}
	}
	if (**p == '"')
		return json_str(p);
	if (**p == '-' || isdigit((unsigned char)**p)) {
		strtod(*p, &end);
		*p = end;
		return 0;
	}
	for (const char *lit = "true\0false\0null\0"; *lit; lit += strlen(lit) + 1)
		if (!strncmp(*p, lit, strlen(lit))) {
			*p += strlen(lit);
			return 0;
		}
	return -1;
}

static bool json_valid(const char *s)
{
	if (json_value(&s, 0))
		return false;
	json_ws(&s);
	return !*s;
}

TEST_F(dir, json_format_is_valid_with_escaped_strings)
{
	char *out = NULL;

	ASSERT_EQ(0, quoting_collection(self, REPORT_JSON, &out));
	TH_LOG("%s", out);
	EXPECT_TRUE(json_valid(out));
	EXPECT_NE(NULL, strstr(out, "{\"samples\": 10, \"rows_total\": 4, \"sort\": "
			       "[\"comm\", \"pid\"], \"rows\": [\n"));
	EXPECT_NE(NULL, strstr(out, "{\"samples\": 2, \"percent\": 20.00, "
			       "\"comm\": \"q\\\"b\\\\c\", \"pid\": 11}"));
	/* Valid UTF-8 kept, a stray byte as '?'. */
	EXPECT_NE(NULL, strstr(out, "\"comm\": \"\xc3\xa9t\xc3\xa9\""));
	EXPECT_NE(NULL, strstr(out, "\"comm\": \"new?\""));
	free(out);
}

/* The checker itself refuses what is not JSON. */
TEST(json_checker_refuses_what_is_not_json)
{
	EXPECT_FALSE(json_valid("{\"a\": \"\x01\"}"));
	EXPECT_FALSE(json_valid("{\"a\": 1,}"));
	EXPECT_FALSE(json_valid("{\"a\": \"\xff\"}"));
}

/* What @escape (textesc.h) writes for untrusted @s; free() it. */
static char *escaped(void (*escape)(FILE *f, const char *s), const char *s)
{
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	escape(f, s);
	fclose(f);
	return out;
}

TEST(csv_field_quotes_only_what_needs_it)
{
	char *plain = escaped(csv_field, "plain");
	char *line = escaped(csv_field, "line\nbreak");

	EXPECT_STREQ("plain", plain);
	EXPECT_STREQ("\"line\nbreak\"", line);
	free(plain);
	free(line);
}

TEST(json_string_escapes_controls_and_bad_utf8)
{
	char *out = escaped(json_string, "tab\there\x01\x7f\xe2\x82");

	EXPECT_STREQ("\"tab\\there\\u0001\\u007f??\"", out);
	free(out);
}

/* An overlong '/' and a surrogate are not UTF-8 either. */
TEST(xml_text_escapes_markup_and_bad_utf8)
{
	char *out = escaped(xml_text, "<a href='x'>&\"\xc0\xaf\xed\xa0\x80\x02");

	EXPECT_STREQ("&lt;a href=&apos;x&apos;&gt;&amp;&quot;??????", out);
	free(out);
}

/* A spreadsheet takes a cell that starts with = + - @ for a formula. */
TEST(csv_field_makes_formulas_text)
{
	static const char *const in[] = { "=1+2", "+1", "-1", "@SUM(A1)", "=A1,B1", "a=b", "" };
	static const char *const out[] = {
		"'=1+2", "'+1", "'-1", "'@SUM(A1)", "\"'=A1,B1\"", "a=b", "",
	};

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char *got = escaped(csv_field, in[i]);

		EXPECT_STREQ(out[i], got);
		free(got);
	}
}

/* text_put() of the whole of @s. */
static void text_all(FILE *f, const char *s)
{
	text_put(f, s, SIZE_MAX);
}

/*
 * C0 (ESC, BEL), DEL, C1 as UTF-8 (U+009B, CSI) and as a lone byte: '?';
 * U+00A0 and other text as it is.
 */
TEST(text_put_shows_every_control_as_a_question_mark)
{
	char *out = escaped(text_all, "a\033[2J\a\x7f\xc2\x9b\x9b\xc2\xa0\xc3\xa9z");

	EXPECT_STREQ("a?[2J????\xc2\xa0\xc3\xa9z", out);
	free(out);
}

/* Bounded by its room and by @max: a character is never cut in two. */
TEST(text_copy_never_cuts_a_character)
{
	char buf[4];

	EXPECT_EQ(2, text_copy(buf, sizeof(buf), "ab\xc3\xa9", SIZE_MAX));
	EXPECT_STREQ("ab", buf);
	EXPECT_EQ(3, text_copy(buf, sizeof(buf), "a\xc3\xa9", SIZE_MAX));
	EXPECT_STREQ("a\xc3\xa9", buf);
	/* Its second byte past @max: not a character, a '?'. */
	EXPECT_EQ(2, text_copy(buf, sizeof(buf), "a\xc3\xa9", 2));
	EXPECT_STREQ("a?", buf);
}

TEST(json_string_escapes_c1_controls)
{
	char *out = escaped(json_string, "\xc2\x9b" "2J");

	EXPECT_STREQ("\"\\u009b2J\"", out);
	free(out);
}

TEST_F(dir, callers_table_lists_the_immediate_callers_of_the_hottest)
{
	struct report_opts o = { .top = REPORT_DEFAULT_TOP };
	struct spin_map m;
	char ks[PATH_MAX], *out = NULL;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, view(self, &o, ks, &out));
	TH_LOG("%s", out);
	/* The three tables as ever, then the callers. */
	EXPECT_NE(NULL, strstr(out, "\nBy function\n"));
	EXPECT_NE(NULL, strstr(out, "\nCallers of the hottest functions (13 samples with "
			       "callers, 86.67%)\n"));
	EXPECT_NE(NULL, strstr(out, "         9   60.00%  aca_hot_spin (spin)\n"
			       "         6   66.67%      thread (spin)\n"
			       "         3   33.33%      main (spin)\n"
			       "         2   13.33%  native_write_msr (vmlinux)\n"
			       "         2  100.00%      do_idle (vmlinux)\n"));
	EXPECT_NE(NULL, strstr(out, "         1  100.00%      " REPORT_NO_CALLER "\n"));
	free(out);
	spin_map_free(&m);
}

/*
 * The top-down view: a function counts each sample whose stack holds it,
 * once however often it recurs (do_idle under do_idle), and its callees
 * and REPORT_SELF are shares of that.
 */
TEST_F(dir, callees_table_counts_a_function_once_a_stack)
{
	struct report_opts o = { .top = REPORT_DEFAULT_TOP };
	struct spin_map m;
	char ks[PATH_MAX], *out = NULL;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, view(self, &o, ks, &out));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\nCallees of the functions in the most stacks (self and "
			       "children, perf report --children)\n"));
	/* 9 samples in aca_hot_spin, 2 under it in the kernel, 1 it called. */
	EXPECT_NE(NULL, strstr(out, "        12   80.00%  aca_hot_spin (spin)\n"
			       "         9   75.00%      " REPORT_SELF "\n"
			       "         2   16.67%      do_idle (vmlinux)\n"
			       "         1    8.33%      [unknown] ([no module record])\n"
			       "         8   53.33%  thread (spin)\n"
			       "         8  100.00%      aca_hot_spin (spin)\n"));
	EXPECT_NE(NULL, strstr(out, "         3   20.00%  do_idle (vmlinux)\n"
			       "         2   66.67%      native_write_msr (vmlinux)\n"
			       "         1   33.33%      " REPORT_SELF "\n"
			       "         1   33.33%      do_idle (vmlinux)\n"));
	free(out);
	spin_map_free(&m);
}

/* Without callers in the records there is no callers table. */
TEST_F(dir, callers_table_needs_callers_in_the_records)
{
	struct report_opts o = { .top = REPORT_DEFAULT_TOP };
	char *out = NULL;
	size_t len;
	FILE *f;

	synth_module(&self->d.modules, 7, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, "/x/t");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400000, 7, 7, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report_opts(&self->d, &o));
	f = open_memstream(&out, &len);
	ASSERT_NE(NULL, f);
	report_print(&self->d.r, &o, self->d.path, f);
	fclose(f);
	EXPECT_EQ(NULL, strstr(out, "Callers"));
	EXPECT_EQ(NULL, strstr(out, "Callees"));
	free(out);
}

static int host_view(FIXTURE_DATA(dir) *self, const char *cmd, const char *ks,
		     const char *opt)
{
	const char *args[] = { cmd, self->d.path, "--kallsyms", ks, opt, NULL };

	return synth_run_host(self->d.path, args, &self->d.run);
}

TEST_F(dir, folded_stacks_are_comm_then_frames_outermost_first)
{
	struct spin_map m;
	char ks[PATH_MAX];

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, host_view(self, "report", ks, "--folded"));
	/*
	 * Byte order; unnamed code as [DSO], [unknown] without one; kernel
	 * frames plain; the frame of "/x/my prog" left out, as
	 * stackcollapse-perf.pl leaves out a module with a blank.
	 */
	EXPECT_STREQ("my_prog 1\n"
		     "spin;[unknown];thread;aca_hot_spin 6\n"
		     "spin;aca_hot_spin;[unknown] 1\n"
		     "spin;aca_mix_a 1\n"
		     "spin;main;aca_hot_spin 3\n"
		     "spin;thread;aca_hot_spin;do_idle;native_write_msr 2\n"
		     "swapper;do_idle;do_idle 1\n", self->d.run.out);
	spin_map_free(&m);
}

TEST_F(dir, script_prints_perf_script_text_oldest_first)
{
	struct spin_map m;
	char ks[PATH_MAX], want[4096];
	const char *first, *kernel;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, host_view(self, "script", ks, NULL));
	/* Time: TSC / tsc_hz, so 1000 ticks at 1 GHz are 0.000001 s. */
	snprintf(want, sizeof(want),
		 "spin    4242/4243    [001]     0.000001:          1 cpu-clock: \n"
		 "\t%16llx aca_hot_spin+0x4 (%s)\n"
		 "\t%16llx thread+0x8 (%s)\n"
		 "\t    7f0000001000 [unknown] ([unknown])\n\n",
		 (unsigned long long)m.hot + 4, m.path, (unsigned long long)m.thread + 8,
		 m.path);
	first = self->d.run.out;
	EXPECT_EQ(0, strncmp(first, want, strlen(want)));
	/*
	 * A kernel sample: the return address named at its call, offset of
	 * the address itself; the user IP it came from exact.
	 */
	snprintf(want, sizeof(want),
		 "spin    4242/4243    [001]     0.000003:          1 cpu-clock: \n"
		 "\tffffffff81000104 native_write_msr+0x4 ([kernel.kallsyms])\n"
		 "\tffffffff81000205 do_idle+0x5 ([kernel.kallsyms])\n"
		 "\t%16llx aca_hot_spin+0x2 (%s)\n"
		 "\t%16llx thread+0x8 (%s)\n\n",
		 (unsigned long long)m.hot + 2, m.path, (unsigned long long)m.thread + 8,
		 m.path);
	kernel = strstr(self->d.run.out, want);
	EXPECT_NE(NULL, kernel);
	EXPECT_NE(NULL, strstr(self->d.run.out, "swapper       0/0       [001]     0.000006:"
			       "          1 cpu-clock: \n"
			       "\tffffffff81000210 do_idle+0x10 ([kernel.kallsyms])\n"
			       "\tffffffff81000900 do_idle+0x700 ([kernel.kallsyms])\n\n"));
	EXPECT_NE(NULL, strstr(self->d.run.out, "my prog      77/77      [000]     0.000005:"
			       "          1 cpu-clock: \n"
			       "\t          400010 [unknown] (/x/my prog)\n\n"));
	/* 15 samples, each ending with an empty line. */
	EXPECT_EQ(15, occurrences(self->d.run.out, "\n\n"));
	spin_map_free(&m);
}

/* perf script is in time order: the CPUs' streams merged by TSC. */
TEST_F(dir, script_orders_samples_by_time_across_cpus)
{
	const char *args[] = { "script", self->d.path, NULL };
	struct sbuf cpu1 = { 0 };
	const char *t10, *t20, *t30;

	synth_module(&self->d.modules, 5, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, "/x/t");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400000, 5, 5, 30, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400000, 5, 5, 10, 0);
	synth_sample(&cpu1, SAMPLE_SIZE, 0x400000, 5, 6, 20, 1);
	ASSERT_EQ(0, synth_write(self->d.path, "cpu1.bin", cpu1.p, cpu1.len));
	sbuf_free(&cpu1);
	ASSERT_EQ(0, synth_write(self->d.path, "cpu0.bin", self->d.cpu0.p, self->d.cpu0.len));
	ASSERT_EQ(0, synth_write(self->d.path, "module.bin", self->d.modules.p, self->d.modules.len));
	ASSERT_EQ(0, synth_txt(self->d.path, 2, SAMPLE_SIZE));
	ASSERT_EQ(0, synth_run_host(self->d.path, args, &self->d.run));
	/* No tsc_hz: the TSC itself; no event name: perf's [unknown]. */
	t10 = strstr(self->d.run.out, "t       5/5       [000]           10:          1 [unknown]: \n");
	t20 = strstr(self->d.run.out, "t       5/6       [001]           20:");
	t30 = strstr(self->d.run.out, "t       5/5       [000]           30:");
	EXPECT_TRUE(t10 && t20 && t30 && t10 < t20 && t20 < t30);
	EXPECT_EQ(3, occurrences(self->d.run.out, "\n\n"));
}

TEST_F(dir, script_keeps_only_the_filtered_samples)
{
	struct spin_map m;
	char ks[PATH_MAX];
	const char *args[] = { "script", self->d.path, "--kallsyms", ks, "--tid", "4242",
			       "--comms", "spin,swapper", "--dsos", "spin,[unknown]", NULL };

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, synth_run_host(self->d.path, args, &self->d.run));
	/* Thread 4242 of spin: 3 in aca_hot_spin, aca_mix_a, the unmapped one. */
	EXPECT_EQ(5, occurrences(self->d.run.out, "\n\n"));
	EXPECT_EQ(5, occurrences(self->d.run.out, "spin    4242/4242    [000]"));
	EXPECT_EQ(0, occurrences(self->d.run.out, "4243"));
	spin_map_free(&m);
}

/* The acceptance test of --folded: perf script's folding, reproduced. */
TEST_F(dir, script_folded_by_stackcollapse_rules_is_report_folded)
{
	struct spin_map m;
	char ks[PATH_MAX], *folded, *script;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	ASSERT_EQ(0, host_view(self, "report", ks, "--folded"));
	folded = strdup(self->d.run.out);
	ASSERT_EQ(0, host_view(self, "script", ks, NULL));
	script = stackcollapse_perf(self->d.run.out);
	ASSERT_NE(NULL, script);
	TH_LOG("stackcollapse:\n%s", script);
	EXPECT_STREQ(folded, script);
	/* Not by accident: every stack of the collection is in both. */
	EXPECT_EQ(7, occurrences(script, "\n"));
	free(folded);
	free(script);
	spin_map_free(&m);
}

/*
 * The yardstick's own rules on perf script text as perf writes it: C++
 * names tidied, inlined frames split, offsets and process-name frames
 * dropped, another event's samples left out, periods summed.
 */
TEST(stackcollapse_rules_fold_perf_script_text)
{
	char *out = stackcollapse_perf(
		"# a comment\n"
		"V8 Worker 11/12 [000] 1.000000: 250 cycles:P: \n"
		"\t1 std::vector<int>::push(int)+0x10 (/usr/lib/libstdc++.so.6)\n"
		"\t2 inl_a->inl_b+0x4 (/bin/x)\n"
		"\t3 (anonymous namespace)::f+0x1 (/bin/x)\n"
		"\t4 [unknown] (/usr/lib/libc.so.6)\n"
		"\t5 [unknown] ([unknown])\n"
		"\n"
		"java 13 2.000000: 1 instructions: \n"
		"\t1 f+0x1 (/bin/java)\n"
		"\n"
		"V8 Worker 11/12 [000] 3.000000: 250 cycles:P: \n"
		"\t1 std::vector<int>::push(int)+0x10 (/usr/lib/libstdc++.so.6)\n"
		"\t2 inl_a->inl_b+0x4 (/bin/x)\n"
		"\t3 (anonymous namespace)::f+0x1 (/bin/x)\n"
		"\t4 [unknown] (/usr/lib/libc.so.6)\n"
		"\t5 [unknown] ([unknown])\n"
		"\n");

	ASSERT_NE(NULL, out);
	EXPECT_STREQ("V8_Worker;[unknown];[libc.so.6];inl_a;inl_b;std::vectorint::push 500\n", out);
	free(out);
}

TEST_F(dir, stacks_are_cut_at_perfs_default_max_stack)
{
	struct report_opts o = { .folded = 1 };
	static const char txt[] = "num_cpus=1\nsample_size=2104\ncallstack_offset=48\n"
				  "callstack_size=2056\n";
	uint64_t callers[CHAIN_ROOM * 16];
	char *line = NULL;

	synth_module(&self->d.modules, 9, 0x400000, 0x100000, 0, 0, LOADED, SEP_MR_EXE, "/x/deep");
	for (size_t i = 0; i < CHAIN_ROOM * 16; i++)
		callers[i] = 0x400000 + 16 * i + 1;
	synth_sample_chain(&self->d.cpu0, SYNTH_CALLSTACK_OFFSET + SYNTH_CALLSTACK_HEAD +
			   8 * 256, 0x400000, 9, 9, 1, 0, 0, 256, 0, callers);
	ASSERT_EQ(0, synth_write(self->d.path, "collection.txt", txt, strlen(txt)));
	ASSERT_EQ(0, run_report_opts(&self->d, &o));
	EXPECT_EQ(0, self->d.ret);
	ASSERT_EQ(1, self->d.r.stacks.n);
	for (size_t i = 0; i < self->d.r.stacks.cap; i++)
		if (self->d.r.stacks.slots[i].key)
			line = self->d.r.stacks.slots[i].key;
	/* deep, then 128 frames: the IP and 127 of the 256 callers. */
	EXPECT_EQ(STACK_MAX_FRAMES, occurrences(line, ";"));
}

/* Garbage callers: every view stays bounded and says nothing it cannot. */
TEST_F(dir, random_callers_never_crash_the_views)
{
	struct report_opts o = { .folded = 1, .stacks = 1, .top = 0 };
	const char *script[] = { "script", self->d.path, NULL };
	uint64_t seed = 0x5eed, addrs[CHAIN_ROOM];
	char *svg = NULL;
	size_t len;
	FILE *f;

	ASSERT_EQ(0, sort_keys_parse(&o.sort, "comm,pid,tid,dso,sym,srcline", "test"));
	synth_module(&self->d.modules, 3, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, "/x/r");
	synth_module(&self->d.modules, 0, VIEW_KTEXT, 0x1000, 0, 0, LOADED, 0, "vmlinux");
	for (int i = 0; i < 600; i++) {
		uint16_t nk = synth_rand(&seed) % (CHAIN_ROOM + 1);
		uint16_t nu = synth_rand(&seed) % (CHAIN_ROOM + 1 - nk);

		for (int j = 0; j < CHAIN_ROOM; j++) {
			uint64_t r = synth_rand(&seed);

			addrs[j] = r & 1 ? r : r & 2 ? VIEW_KTEXT + (r >> 52) :
				   0x400000 + (r >> 53);
		}
		synth_sample_chain(&self->d.cpu0, CHAIN_SIZE, synth_rand(&seed) & 4 ?
				   0x400000 + i : VIEW_KTEXT + i, 1 + i % 4, i % 7, i, 0, nk,
				   nu, (uint32_t)synth_rand(&seed), addrs);
	}
	ASSERT_EQ(0, synth_txt_chain(self->d.path, 1, CHAIN_SIZE, "x y\n", 0));
	ASSERT_EQ(0, run_report_opts(&self->d, &o));
	EXPECT_EQ(600, self->d.r.samples);
	EXPECT_LT(0, self->d.r.stacks.n);
	f = open_memstream(&svg, &len);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, flamegraph_write(&self->d.r.stacks, "t", f));
	fclose(f);
	EXPECT_NE(NULL, strstr(svg, "</svg>\n"));
	free(svg);
	EXPECT_EQ(0, synth_run_host(self->d.path, script, &self->d.run));
	EXPECT_EQ(600, occurrences(self->d.run.out, "\n\n"));
}

/* x, y, width, height and fill of the frame titled @name in @svg. */
static int svg_frame(const char *svg, const char *name, double *x, double *y,
		     double *w, double *h, unsigned int rgb[3])
{
	char title[256];
	const char *p;

	snprintf(title, sizeof(title), "<title>%s (", name);
	p = strstr(svg, title);
	if (!p || !(p = strstr(p, "<rect ")))
		return -1;
	return sscanf(p, "<rect x=\"%lf\" y=\"%lf\" width=\"%lf\" height=\"%lf\" "
		      "fill=\"rgb(%u,%u,%u)\"", x, y, w, h, &rgb[0], &rgb[1], &rgb[2]) == 7 ?
	       0 : -1;
}

TEST_F(dir, flamegraph_frames_are_as_wide_as_their_samples)
{
	struct spin_map m;
	char ks[PATH_MAX], svg_path[PATH_MAX + 16], *svg;
	const char *args[] = { "report", self->d.path, "--kallsyms", ks, "--flamegraph",
			       svg_path, NULL };
	double x, y, w, h, x2, y2, w2, h2;
	unsigned int rgb[3], rgb2[3];
	size_t len;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	snprintf(svg_path, sizeof(svg_path), "%s/flame.svg", self->d.path);
	ASSERT_EQ(0, synth_run_host(self->d.path, args, &self->d.run));
	/* The report is printed as ever. */
	EXPECT_NE(NULL, strstr(self->d.run.out, "\nBy function\n"));
	svg = (char *)read_whole_file(svg_path, 1 << 20, &len);
	ASSERT_NE(NULL, svg);
	EXPECT_EQ(0, strncmp(svg, "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg ", 43));
	EXPECT_EQ(NULL, strstr(svg, "<script"));
	/* The root spans 1180 pixels; "spin" 13 of 15 samples of it, a row up. */
	ASSERT_EQ(0, svg_frame(svg, "all", &x, &y, &w, &h, rgb));
	EXPECT_TRUE(x == 10 && w == 1180 && h == 15);
	ASSERT_EQ(0, svg_frame(svg, "spin", &x2, &y2, &w2, &h2, rgb2));
	EXPECT_TRUE(y2 == y - FLAME_FRAME_HEIGHT);
	EXPECT_TRUE(fabs(w2 - 1180.0 * 13 / 15) < 0.1);
	/* The colour is the name's: the same in every graph. */
	EXPECT_EQ(flame_color("spin"), rgb2[0] << 16 | rgb2[1] << 8 | rgb2[2]);
	EXPECT_NE(NULL, strstr(svg, "<title>aca_hot_spin (6 samples, 40.00%)</title>"));
	EXPECT_NE(NULL, strstr(svg, "<title>my_prog (1 samples, 6.67%)</title>"));
	free(svg);
	spin_map_free(&m);
}

/* Run Chromium headless on @svg, its screenshot into @png; its exit status. */
static int chromium_screenshot(const char *dir, const char *svg, const char *png,
			       int width, int height)
{
	char shot[2 * PATH_MAX], size[64], url[2 * PATH_MAX], profile[2 * PATH_MAX];
	char log[2 * PATH_MAX];
	int status;
	pid_t pid;

	snprintf(shot, sizeof(shot), "--screenshot=%s", png);
	snprintf(size, sizeof(size), "--window-size=%d,%d", width, height);
	snprintf(url, sizeof(url), "file://%s", svg);
	snprintf(profile, sizeof(profile), "--user-data-dir=%s/chromium", dir);
	snprintf(log, sizeof(log), "%s/chromium.log", dir);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (!freopen(log, "w", stdout) || !freopen(log, "w", stderr))
			_exit(126);
		/* Chromium wants a home; a hung one is killed by the timeout. */
		setenv("HOME", dir, 1);
		alarm(90);
		execlp("chromium", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
		       "--hide-scrollbars", "--force-device-scale-factor=1", profile, shot,
		       size, url, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * The PNG at @path as 8-bit sRGB rows of 3 bytes, read by libpng (its
 * simplified API, any PNG Chromium writes; alpha, if any, composited on
 * black); NULL with libpng's reason in @err. Free it with free().
 */
static uint8_t *png_read_rgb(const char *path, png_image *img, char *err, size_t errlen)
{
	uint8_t *px = NULL;

	memset(img, 0, sizeof(*img));
	img->version = PNG_IMAGE_VERSION;
	if (png_image_begin_read_from_file(img, path)) {
		img->format = PNG_FORMAT_RGB;
		px = calloc(1, PNG_IMAGE_SIZE(*img));
		if (px && !png_image_finish_read(img, NULL, px, 0, NULL)) {
			free(px);
			px = NULL;
		}
	}
	snprintf(err, errlen, "%s", px ? "" : img->warning_or_error ? img->message :
		 "out of memory");
	png_image_free(img);
	return px;
}

/* The pixel at (@x, @y) of png_read_rgb()'s @px as 0xRRGGBB; ~0 outside. */
static uint32_t png_rgb(const png_image *img, const uint8_t *px, uint32_t x, uint32_t y)
{
	const uint8_t *p;

	if (x >= img->width || y >= img->height)
		return ~0u;
	p = px + ((size_t)y * img->width + x) * 3;
	return (uint32_t)p[0] << 16 | p[1] << 8 | p[2];
}

/*
 * A real browser draws the SVG: at the centre of the hot function's frame
 * is the fill the SVG gave that frame. Chromium is a dependency (make
 * deps): without it this fails.
 */
TEST_F_TIMEOUT(dir, flamegraph_draws_the_hot_frame_in_chromium, 180)
{
	struct spin_map m;
	char ks[PATH_MAX], svg_path[PATH_MAX + 16], png_path[PATH_MAX + 16], err[256];
	const char *args[] = { "report", self->d.path, "--kallsyms", ks, "--flamegraph",
			       svg_path, NULL };
	double x, y, w, h;
	unsigned int rgb[3], width, height;
	uint8_t *px;
	char *svg;
	png_image img;
	size_t len;
	uint32_t got, want;
	int status;

	ASSERT_EQ(0, chains_collection(self, &m, ks, sizeof(ks)));
	snprintf(svg_path, sizeof(svg_path), "%s/flame.svg", self->d.path);
	snprintf(png_path, sizeof(png_path), "%s/flame.png", self->d.path);
	ASSERT_EQ(0, synth_run_host(self->d.path, args, &self->d.run));
	svg = (char *)read_whole_file(svg_path, 1 << 20, &len);
	ASSERT_NE(NULL, svg);
	ASSERT_EQ(2, sscanf(svg, "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg version=\"1.1\" "
			    "width=\"%u\" height=\"%u\"", &width, &height));
	/* aca_hot_spin under thread: 6 of 15 samples, 472 pixels wide. */
	ASSERT_EQ(0, svg_frame(svg, "aca_hot_spin", &x, &y, &w, &h, rgb));
	free(svg);
	want = rgb[0] << 16 | rgb[1] << 8 | rgb[2];
	EXPECT_EQ(flame_color("aca_hot_spin"), want);
	/*
	 * Headless Chromium's page is shorter than a small window: leave it
	 * room below the graph.
	 */
	status = chromium_screenshot(self->d.path, svg_path, png_path, width, height + 200);
	ASSERT_EQ(0, status) {
		char log[PATH_MAX + 16];
		char *text;

		snprintf(log, sizeof(log), "%s/chromium.log", self->d.path);
		text = (char *)read_whole_file(log, 1 << 20, &len);
		TH_LOG("chromium exited %d%s: %s", status,
		       status == 127 ? " (not installed: make deps)" : "", text ? text : "");
		free(text);
	}
	px = png_read_rgb(png_path, &img, err, sizeof(err));
	ASSERT_NE(NULL, px) {
		TH_LOG("%s: %s", png_path, err);
	}
	EXPECT_EQ(width, img.width);
	got = png_rgb(&img, px, (uint32_t)(x + w / 2), (uint32_t)(y + h / 2));
	TH_LOG("frame at %.1f,%.1f %.1fx%.1f: want %06x, got %06x", x, y, w, h, want, got);
	EXPECT_EQ(want, got);
	/* And the background outside every frame is the SVG's. */
	EXPECT_EQ(0xeeeeee, png_rgb(&img, px, 2, (uint32_t)y));
	free(px);
	spin_map_free(&m);
}

TEST_HARNESS_MAIN
