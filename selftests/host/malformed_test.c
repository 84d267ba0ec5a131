// SPDX-License-Identifier: GPL-2.0-only
/*
 * Untrusted input: truncated, malformed and random streams and ELF files;
 * a hostile target (mock_target.c): a system configuration that points
 * outside itself, a count of CPUs no session has, escape sequences in its
 * words, bytes trickled to hold the host; files it names outside
 * --sysroot, or FIFOs.
 * Its own program, build/tests/host_malformed_test.
 */
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "host_fixture.h"
#include "../../tools/aca-host/clock.h"
#include "../../tools/aca-host/records.h"
#include "../../tools/aca-host/session.h"
#include "../../tools/aca-host/symbols.h"

static void two_good_records(FIXTURE_DATA(dir) *self)
{
	synth_module(&self->d.modules, 9, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, "/x/one");
	synth_module(&self->d.modules, 9, 0x500000, 0x1000, 0, 0, LOADED, 0, "/x/two");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400001, 9, 9, 1, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x500001, 9, 9, 1, 0);
}

/* Appends a record header with these lengths and @extra bytes after it. */
static void bad_record(FIXTURE_DATA(dir) *self, uint16_t rec_length,
		       uint16_t path_length, size_t extra)
{
	struct sep_module_record r = {
		.rec_length = rec_length,
		.path_length = path_length,
		.pid_rec_index = 9,
		.load_addr64 = 0x400000,
		.length64 = 0x1000,
		.unload_tsc = LOADED,
	};
	uint8_t junk[256];

	memset(junk, 'A', sizeof(junk));
	sbuf_add(&self->d.modules, &r, sizeof(r));
	sbuf_add(&self->d.modules, junk, extra < sizeof(junk) ? extra : sizeof(junk));
}

static void expect_kept_two(struct __test_metadata *_metadata,
			    FIXTURE_DATA(dir) *self, const char *message)
{
	if (self->d.warn_len)
		TH_LOG("report said: %s", self->d.warn);
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(2, self->d.r.nmodules);
	EXPECT_EQ(2, self->d.r.with_module);
	EXPECT_TRUE(said(&self->d, message));
	EXPECT_TRUE(said(&self->d, "module.bin"));
}

TEST_F(dir, zero_rec_length_stops_the_module_stream)
{
	two_good_records(self);
	bad_record(self, 0, 0, 64);
	synth_module(&self->d.modules, 9, 0x600000, 0x1000, 0, 0, LOADED, 0, "/x/never");
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	expect_kept_two(_metadata, self, "record 2 at offset 176: recLength 0");
	EXPECT_EQ(0, tally_get(&self->d.r.modules, "/x/never"));
}

TEST_F(dir, rec_length_below_the_fixed_part)
{
	two_good_records(self);
	bad_record(self, 40, 0, 64);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	expect_kept_two(_metadata, self, "recLength 40 is shorter than the 80-byte fixed part");
}

TEST_F(dir, rec_length_past_the_end)
{
	two_good_records(self);
	bad_record(self, 200, 10, 16);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	expect_kept_two(_metadata, self, "recLength 200 but only 96 bytes left: truncated");
}

TEST_F(dir, path_longer_than_its_record)
{
	two_good_records(self);
	bad_record(self, 96, 17, 16);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	expect_kept_two(_metadata, self, "pathLength 17 does not fit in recLength 96");
}

TEST_F(dir, half_a_record_at_the_end)
{
	two_good_records(self);
	sbuf_add(&self->d.modules, "\x58\x00\x03\x00", 4);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	expect_kept_two(_metadata, self, "4 bytes left, a record needs at least 80: truncated");
}

/* Paths without NUL, with control bytes and trailing blanks. */
TEST_F(dir, paths_are_bounded_and_printable)
{
	struct sep_module_record r = {
		.rec_length = 96, .path_length = 16, .pid_rec_index = 9,
		.load_addr64 = 0x400000, .length64 = 0x1000, .unload_tsc = LOADED,
	};

	sbuf_add(&self->d.modules, &r, sizeof(r));
	sbuf_add(&self->d.modules, "/x/\033[2Jevil  \n\t", 16);	/* no NUL */
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400001, 9, 9, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(0, self->d.ret);
	EXPECT_EQ(1, tally_get(&self->d.r.modules, "/x/?[2Jevil"));
}

TEST_F(dir, truncated_sample_stream_keeps_whole_records)
{
	two_good_records(self);
	sbuf_add(&self->d.cpu0, "partial record", 14);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(2, self->d.r.samples);
	EXPECT_TRUE(said(&self->d, "cpu0.bin: 14 trailing bytes after 2 records of 48 bytes"));
}

/* No collection.txt: 48-byte samples, CPU files probed. */
TEST_F(dir, missing_metadata_is_survivable)
{
	two_good_records(self);
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(1, self->d.r.ncpus);
	EXPECT_EQ(2, self->d.r.samples);
	EXPECT_TRUE(said(&self->d, "collection.txt"));
}

/* Absurd values in collection.txt are refused, not used. */
TEST_F(dir, bad_metadata_values_are_refused_not_used)
{
	two_good_records(self);
	ASSERT_EQ(0, synth_write(self->d.path, "collection.txt",
				 "num_cpus=99999999999999999999\nsample_size=8\n"
				 "num_cpus=-1\nsample_size=1000000\n=\nnoequals\n", 86));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(1, self->d.r.ncpus);
	EXPECT_EQ(48, self->d.r.sample_size);
	EXPECT_EQ(2, self->d.r.samples);
	EXPECT_TRUE(said(&self->d, "num_cpus '99999999999999999999' out of range"));
	EXPECT_TRUE(said(&self->d, "sample_size '8' out of range"));
}

TEST_F(dir, nothing_to_report_on)
{
	struct report_opts o = { 0 };
	struct report r;

	/* An empty directory, then one that does not exist. */
	EXPECT_EQ(2, report_load(self->d.path, &o, &r));
	report_free(&r);
	EXPECT_EQ(2, report_load("/nonexistent/aca-host-test", &o, &r));
	report_free(&r);
}

TEST_F(dir, no_module_records_still_counts_samples)
{
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400001, 9, 9, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));	/* module.bin is empty */
	EXPECT_EQ(0, self->d.ret);
	EXPECT_EQ(1, self->d.r.samples);
	EXPECT_EQ(0, self->d.r.with_module);
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "[unknown] ([no module record])"));
}

/* Random streams: any verdict, but no crash and no sanitizer report. */
TEST_F(dir, random_streams_never_crash)
{
	uint64_t rng = 0x5eed;

	for (int round = 0; round < 300; round++) {
		size_t mlen = synth_rand(&rng) % 2048, clen = synth_rand(&rng) % 1024;

		sbuf_free(&self->d.modules);
		sbuf_free(&self->d.cpu0);
		/* Half the time a valid record first, so garbage comes later. */
		if (round % 2)
			synth_module(&self->d.modules, 9, 0x400000, 0x1000, 0, 0, LOADED, 0,
				     "/x/ok");
		for (size_t i = 0; i < mlen; i++) {
			uint8_t b = synth_rand(&rng);

			sbuf_add(&self->d.modules, &b, 1);
		}
		for (size_t i = 0; i < clen; i++) {
			uint8_t b = synth_rand(&rng);

			sbuf_add(&self->d.cpu0, &b, 1);
		}
		ASSERT_EQ(0, synth_txt(self->d.path, 1, 48 + 8 * (round % 3)));
		ASSERT_EQ(0, run_report(&self->d, NULL));
		ASSERT_GE(1, self->d.ret);
	}
}

/*
 * [ACA-EXT] Records with build-ids, a few bytes of their lengths or of
 * what follows the path changed at random: any verdict, but no crash, no
 * sanitizer report, and what is accepted is within bounds.
 */
TEST(corrupted_build_id_records_never_crash)
{
	static const char *const paths[] = { "/x/a", "/x/libthing.so.1", "/x/exactly-8" };
	uint64_t rng = 0xb17d;
	uint8_t id[ACA_MR_BUILD_ID_MAX];

	for (int round = 0; round < 2000; round++) {
		struct module_vec v = { 0 };
		struct sbuf b = { 0 };
		size_t starts[3];
		char err[256];

		for (size_t i = 0; i < sizeof(id); i++)
			id[i] = synth_rand(&rng);
		for (int k = 0; k < 3; k++) {
			starts[k] = b.len;
			synth_module_build_id(&b, 9, 0x400000 + k * 0x10000, 0x1000, 0, 0,
					      paths[k], id, 1 + synth_rand(&rng) % 20, NULL, 0);
		}
		for (int flips = 1 + round % 4; flips; flips--) {
			size_t k = synth_rand(&rng) % 3;
			size_t end = k < 2 ? starts[k + 1] : b.len;
			/* rec_length, path_length or anything after the fixed part */
			size_t at = synth_rand(&rng) % 4 == 0 ? starts[k] + synth_rand(&rng) % 2 :
				    synth_rand(&rng) % 4 == 0 ? starts[k] + 52 + synth_rand(&rng) % 2 :
				    starts[k] + 80 + synth_rand(&rng) % (end - starts[k] - 80);

			b.p[at] = synth_rand(&rng);
		}
		if (!records_parse_modules(b.p, b.len, &v, err, sizeof(err)))
			EXPECT_EQ(3, v.n) TH_LOG("round %d", round);
		for (size_t i = 0; i < v.n; i++) {
			EXPECT_GE(ACA_MR_BUILD_ID_MAX, v.v[i].build_id_size) TH_LOG("round %d", round);
			EXPECT_NE(NULL, v.v[i].path);
		}
		module_vec_free(&v);
		sbuf_free(&b);
	}
}

/*
 * spin's own ELF image cut short and corrupted, opened through libdwfl:
 * refused or read safely, symbols and source lines asked of every part.
 */
static void try_symbols(const char *path)
{
	struct symfile *f;
	struct sym_hit hit;
	char err[256];
	uint64_t v;

	f = sym_open(path, "/nonexistent", err, sizeof(err));
	for (uint64_t off = 0; f && off < 0x3000; off += 0x33) {
		if (!sym_addr_of_offset(f, off, &v))
			sym_at(f, v, 1, &hit);
		sym_check_mapping(f, off, 0x1000, err, sizeof(err));
	}
	if (f)
		sym_value(f, "main", &v);
	sym_close(f);
}

TEST_F(dir, symbol_reader_survives_truncation_and_corruption)
{
	const char *spin = synth_spin_path();
	char path[PATH_MAX], err[256];
	uint64_t rng = 42;
	struct symfile *f;
	uint8_t *img, *copy;
	size_t len;

	img = read_whole_file(spin, 64 << 20, &len);
	ASSERT_NE(NULL, img);
	snprintf(path, sizeof(path), "%s/elf", self->d.path);
	f = sym_open(spin, "/nonexistent", err, sizeof(err));
	ASSERT_NE(NULL, f) TH_LOG("%s", err);
	EXPECT_LT(0, sym_count(f));
	sym_close(f);
	for (size_t cut = 0; cut < len; cut += 97) {
		ASSERT_EQ(0, synth_write(self->d.path, "elf", img, cut));
		try_symbols(path);
	}
	copy = malloc(len);
	ASSERT_NE(NULL, copy);
	for (int round = 0; round < 1000; round++) {
		const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;

		memcpy(copy, img, len);
		/* Hit the headers most: that is where the offsets are. */
		for (int k = 0; k < 8; k++) {
			size_t at = round % 2 ? synth_rand(&rng) % 64 :
				    synth_rand(&rng) % len;

			copy[at] = synth_rand(&rng);
		}
		/* And the section headers, where the symbol tables are found. */
		if (eh->e_shoff < len)
			copy[eh->e_shoff + synth_rand(&rng) % (len - eh->e_shoff)] =
				synth_rand(&rng);
		ASSERT_EQ(0, synth_write(self->d.path, "elf", copy, len));
		try_symbols(path);
	}
	ASSERT_EQ(0, synth_write(self->d.path, "elf", "#!/bin/sh\n", 10));
	EXPECT_EQ(NULL, sym_open(path, NULL, err, sizeof(err)));
	free(copy);
	free(img);
}

/* C1 controls in a path, as UTF-8 (U+009B, CSI) and as a lone byte. */
TEST_F(dir, c1_controls_in_paths_become_question_marks)
{
	synth_module(&self->d.modules, 9, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE,
		     "/x/\xc2\x9b" "2J\x9b" "evil");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400001, 9, 9, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, tally_get(&self->d.r.modules, "/x/?2J?evil"));
	EXPECT_EQ(1, tally_get(&self->d.r.processes, "9 /x/?2J?evil"));
}

/*
 * A symbol's name as the file has it (here a kallsyms copy) reaches the
 * function table as text: ESC and C1 as '?'.
 */
TEST_F(dir, symbol_names_from_files_become_text)
{
	static const char ks[] = "ffffffff81000000 T _stext\n"
				 "ffffffff81000010 T \033[2Jevil\xc2\x9b\n";
	struct report_opts o = { 0 };
	char path[4200];

	synth_module(&self->d.modules, 0, 0xffffffff81000000ull, 0x1000000, 0, 0, LOADED,
		     SEP_MR_EXE, "vmlinux");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0xffffffff81000014ull, 9, 9, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, synth_write(self->d.path, "ks", ks, sizeof(ks) - 1));
	snprintf(path, sizeof(path), "%s/ks", self->d.path);
	o.kallsyms = path;
	ASSERT_EQ(0, run_report_opts(&self->d, &o));
	EXPECT_EQ(1, self->d.r.with_function);
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "?[2Jevil? (vmlinux)"));
}

/* The directory below the fixture's that --sysroot names, into @root. */
static int make_root(FIXTURE_DATA(dir) *self, char *root, size_t len)
{
	snprintf(root, len, "%s/root", self->d.path);
	return mkdir(root, 0755);
}

/* A module path that climbs out of --sysroot is not looked up. */
TEST_F(dir, module_path_out_of_the_sysroot_is_refused)
{
	char root[4200];

	ASSERT_EQ(0, make_root(self, root, sizeof(root)));
	ASSERT_EQ(0, synth_write(self->d.path, "secret", "no ELF file\n", 12));
	synth_module(&self->d.modules, 9, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE,
		     "/usr/../../secret");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400001, 9, 9, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, root));
	TH_LOG("report said: %s", self->d.warn ? self->d.warn : "");
	EXPECT_EQ(1, self->d.ret);
	EXPECT_TRUE(said(&self->d, "module path /usr/../../secret has a \"..\" component: "
			 "not looked up"));
	EXPECT_FALSE(said(&self->d, "no symbols for"));
	EXPECT_EQ(1, self->d.r.with_module);
}

/* A module file that is a FIFO: said, never opened to wait for a writer. */
TEST_F_TIMEOUT(dir, module_file_that_is_a_fifo_is_not_waited_on, 10)
{
	char root[4200], fifo[4300];

	ASSERT_EQ(0, make_root(self, root, sizeof(root)));
	snprintf(fifo, sizeof(fifo), "%s/app", root);
	ASSERT_EQ(0, mkfifo(fifo, 0644));
	synth_module(&self->d.modules, 9, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, "/app");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400001, 9, 9, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, root));
	EXPECT_TRUE(said(&self->d, "/app: not a regular file"));
	EXPECT_EQ(1, self->d.r.with_module);
	EXPECT_EQ(0, self->d.r.with_function);
}

/* A collection's own files are read only when regular: a FIFO is said. */
TEST_F_TIMEOUT(dir, collection_txt_that_is_a_fifo_is_not_waited_on, 10)
{
	char fifo[4200];

	two_good_records(self);
	snprintf(fifo, sizeof(fifo), "%s/collection.txt", self->d.path);
	ASSERT_EQ(0, mkfifo(fifo, 0644));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_TRUE(said(&self->d, "collection.txt: "));
	EXPECT_EQ(2, self->d.r.samples);
}

/* And so are the kernel symbols' sizes beside DIR/kallsyms. */
TEST_F_TIMEOUT(dir, kallsyms_sizes_that_are_a_fifo_are_not_waited_on, 10)
{
	static const char ks[] = "ffffffff81000000 T _stext\n"
				 "ffffffff81000010 T hot\n";
	char fifo[4200];

	synth_module(&self->d.modules, 0, 0xffffffff81000000ull, 0x1000000, 0, 0, LOADED,
		     SEP_MR_EXE, "vmlinux");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0xffffffff81000014ull, 9, 9, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, synth_write(self->d.path, "kallsyms", ks, sizeof(ks) - 1));
	snprintf(fifo, sizeof(fifo), "%s/kallsyms.size", self->d.path);
	ASSERT_EQ(0, mkfifo(fifo, 0644));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "hot (vmlinux)"));
}

/*
 * A system configuration as aca builds it (spec 9.3): VTSA_SYS_INFO, the
 * node's array header and NODE_INFO at CFG_NODE, the per-CPU array's
 * header at CFG_PERCPU and CFG_CPUS GEN_PER_CPUs, then each CPU's CPUID
 * array of CFG_LEAVES leaves.
 */
#define CFG_CPUS	2
#define CFG_LEAVES	3
#define CFG_NODE	136
#define CFG_PERCPU	184
#define CFG_CPU(i)	(248 + (i) * sizeof(struct sep_gen_per_cpu))
#define CFG_CPUID(i)	(CFG_CPU(CFG_CPUS) + (i) * (sizeof(struct sep_gen_array_hdr) + \
			 CFG_LEAVES * sizeof(struct sep_cpuid_x86)))
#define CFG_SIZE	CFG_CPUID(CFG_CPUS)

static void sys_config(uint8_t *b)
{
	struct sep_vtsa_sys_info sys = { .node_array.offset = 72 };
	struct sep_gen_array_hdr nodes = {
		.hdr_size = 64, .array_num_entries = 1, .array_entry_size = 48,
		.array_type = 4,
	};
	struct sep_node_info node = {
		.node_num_available = CFG_CPUS, .node_physical_memory = 4ull << 30,
		.node_percpu_array.offset = CFG_PERCPU,
	};
	struct sep_gen_array_hdr cpus = {
		.hdr_size = 64, .array_num_entries = CFG_CPUS, .array_entry_size = 104,
		.array_type = 1, .array_subtype = 5,
	};

	memset(b, 0, CFG_SIZE);
	memcpy(b, &sys, sizeof(sys));
	memcpy(b + 72, &nodes, sizeof(nodes));
	memcpy(b + CFG_NODE, &node, sizeof(node));
	memcpy(b + CFG_PERCPU, &cpus, sizeof(cpus));
	for (uint32_t i = 0; i < CFG_CPUS; i++) {
		struct sep_gen_per_cpu p = {
			.cpu_number = i, .cpu_cpuid_array.offset = CFG_CPUID(i),
			.cpu_core_num = i, .arch_perfmon_ver = 4, .num_gp_counters = 4,
			.num_fixed_counters = 3,
		};
		struct sep_gen_array_hdr leaves = {
			.hdr_size = 64, .array_num_entries = CFG_LEAVES, .array_entry_size = 20,
			.array_type = 3, .array_subtype = 5,
		};

		memcpy(b + CFG_CPU(i), &p, sizeof(p));
		memcpy(b + CFG_CPUID(i), &leaves, sizeof(leaves));
	}
}

static void put_u64(uint8_t *b, size_t at, uint64_t v)
{
	memcpy(b + at, &v, sizeof(v));
}

static void put_u32(uint8_t *b, size_t at, uint32_t v)
{
	memcpy(b + at, &v, sizeof(v));
}

/*
 * aca-host @cmd against @m, what it said in self->d.run: its exit status,
 * -1 when it did not exit (a crash).
 */
static int host_against(FIXTURE_DATA(dir) *self, struct mock_target *m, const char *cmd)
{
	char target[32];
	const char *args[] = { cmd, target, NULL };

	if (mock_start(m))
		return -2;
	snprintf(target, sizeof(target), "127.0.0.1:%d", m->port);
	synth_run_host(self->d.path, args, &self->d.run);
	mock_join(m);
	if (self->d.run.status)
		fprintf(stderr, "# %s said: %s", cmd, self->d.run.err ? self->d.run.err : "");
	return self->d.run.status;
}

static bool host_err_has(FIXTURE_DATA(dir) *self, const char *what)
{
	return self->d.run.err && strstr(self->d.run.err, what);
}

static bool host_out_has(FIXTURE_DATA(dir) *self, const char *what)
{
	return self->d.run.out && strstr(self->d.run.out, what);
}

static bool asked(const struct mock_target *m, uint32_t id)
{
	for (int i = 0; i < m->ncommands; i++)
		if (m->commands[i] == id)
			return true;
	return false;
}

TEST_F(dir, info_prints_a_well_formed_system_config)
{
	uint8_t blob[CFG_SIZE];
	struct mock_target m = { .sys_config = blob, .sys_config_len = sizeof(blob) };
	char row[128];

	sys_config(blob);
	EXPECT_EQ(0, host_against(self, &m, "info"));
	EXPECT_EQ(0, m.failed) TH_LOG("target: %s", m.why);
	EXPECT_TRUE(host_out_has(self, " 704 bytes\n"));
	EXPECT_TRUE(host_out_has(self, " 4.0 GiB\n"));
	/* CPU 1: core 1, perfmon v4 with 4 + 3 counters, 3 CPUID leaves. */
	snprintf(row, sizeof(row), "\n%-20u %7u %4u %6u  %6u  %6u  v%-7u %2u  %5u  %u\n",
		 1, 0, 1, 0, 0, 0, 4, 4, 3, CFG_LEAVES);
	EXPECT_TRUE(host_out_has(self, row));
}

/* The offset of a GET_SYS_CONFIG that killed aca-host info with SIGSEGV. */
TEST_F(dir, info_refuses_a_per_cpu_array_outside_the_blob)
{
	uint8_t blob[CFG_SIZE];
	struct mock_target m = { .sys_config = blob, .sys_config_len = sizeof(blob) };

	sys_config(blob);
	put_u64(blob, CFG_NODE + offsetof(struct sep_node_info, node_percpu_array.offset),
		0x7fffffff00000000ull);
	EXPECT_EQ(1, host_against(self, &m, "info"));
	EXPECT_TRUE(host_err_has(self, "aca-host: GET_SYS_CONFIG: the per-CPU array at offset "
				 "0x7fffffff00000000 is not inside the 704-byte system "
				 "configuration"));
	EXPECT_FALSE(host_out_has(self, "memory"));
	EXPECT_TRUE(m.terminate_seen);
}

TEST_F(dir, info_refuses_more_cpus_than_the_blob_holds)
{
	uint8_t blob[CFG_SIZE];
	struct mock_target m = { .sys_config = blob, .sys_config_len = sizeof(blob) };

	sys_config(blob);
	put_u32(blob, CFG_PERCPU + offsetof(struct sep_gen_array_hdr, array_num_entries),
		0xffffffffu);
	EXPECT_EQ(1, host_against(self, &m, "info"));
	EXPECT_TRUE(host_err_has(self, "a per-CPU array of 4294967295 CPUs at offset 0xb8 is "
				 "not inside"));
}

/* An offset that wraps around when added to: it pointed before the blob. */
TEST_F(dir, info_refuses_a_cpuid_array_outside_the_blob)
{
	uint8_t blob[CFG_SIZE];
	struct mock_target m = { .sys_config = blob, .sys_config_len = sizeof(blob) };

	sys_config(blob);
	put_u64(blob, CFG_CPU(1) + offsetof(struct sep_gen_per_cpu, cpu_cpuid_array.offset),
		(uint64_t)-32);
	EXPECT_EQ(1, host_against(self, &m, "info"));
	EXPECT_TRUE(host_err_has(self, "the CPUID array of CPU 1 at offset 0xffffffffffffffe0 "
				 "is not inside"));
}

TEST_F(dir, info_refuses_more_cpuid_leaves_than_the_blob_holds)
{
	uint8_t blob[CFG_SIZE];
	struct mock_target m = { .sys_config = blob, .sys_config_len = sizeof(blob) };

	sys_config(blob);
	put_u32(blob, CFG_CPUID(0) + offsetof(struct sep_gen_array_hdr, array_num_entries),
		1000000);
	EXPECT_EQ(1, host_against(self, &m, "info"));
	EXPECT_TRUE(host_err_has(self, "CPU 0's CPUID array of 1000000 leaves at offset 0x1c8 "
				 "is not inside"));
}

TEST_F(dir, info_refuses_a_blob_shorter_than_its_fixed_part)
{
	uint8_t blob[CFG_SIZE];
	struct mock_target m = { .sys_config = blob, .sys_config_len = 100 };

	sys_config(blob);
	EXPECT_EQ(1, host_against(self, &m, "info"));
	EXPECT_TRUE(host_err_has(self, "GET_SYS_CONFIG: 100 bytes, shorter than the 248"));
}

/*
 * A size no answer has is not asked for (4 GiB of memory): the protocol's
 * largest is 16 MiB.
 */
TEST_F(dir, info_refuses_a_system_config_larger_than_any)
{
	uint8_t blob[CFG_SIZE];
	struct mock_target m = { .sys_config = blob, .sys_config_len = sizeof(blob),
				 .sys_config_size = 0xffffffffu };

	sys_config(blob);
	EXPECT_EQ(1, host_against(self, &m, "info"));
	EXPECT_TRUE(host_err_has(self, "COLLECT_SYS_CONFIG: a system configuration of "
				 "4294967295 bytes, more than the protocol's largest answer "
				 "(16777216): not asked for"));
	EXPECT_FALSE(asked(&m, SEP_CMD_GET_SYS_CONFIG));
	EXPECT_EQ(0, m.failed) TH_LOG("target: %s", m.why);
}

/*
 * A count of CPUs no session can have: a data channel each, so at most
 * HOST_MAX_CHANNELS - 2, and at least one. Said with the field and the
 * limit before any channel is opened (before, 0 opened two channels and
 * waited for more, and too many said only "more channels than supported").
 */
TEST_F(dir, info_refuses_more_cpus_than_it_opens_channels_for)
{
	struct mock_target m = { .num_cpus = 100000 };

	EXPECT_EQ(1, host_against(self, &m, "info"));
	EXPECT_TRUE(host_err_has(self, "aca-host: the status message says 100000 CPUs "
				 "(num_cpus): aca-host takes 1 to 1024, a data channel each\n"));
	EXPECT_EQ(0, m.failed) TH_LOG("target: %s", m.why);
}

TEST_F_TIMEOUT(dir, info_refuses_a_target_of_no_cpus, 20)
{
	struct mock_target m = { .num_cpus = MOCK_ZERO_CPUS };

	EXPECT_EQ(1, host_against(self, &m, "info"));
	EXPECT_TRUE(host_err_has(self, "aca-host: the status message says 0 CPUs "
				 "(num_cpus): aca-host takes 1 to 1024"));
}

/*
 * A hostile sysname: OSC (set the window title, ended by BEL), "clear the
 * screen", CSI as U+009B and as the lone byte 0x9b; and as it must print.
 */
#define HOSTILE_NAME	"\033]0;owned\a\033[2J\xc2\x9b\x9bX"
#define HOSTILE_SHOWN	"?]0;owned??[2J??X"

/* No ESC, BEL or CSI in @text (the byte 0x9b, alone or in U+009B). */
static bool plain(const char *text)
{
	return text && !strchr(text, '\033') && !strchr(text, '\a') && !strchr(text, '\x9b');
}

TEST_F(dir, info_prints_the_target_os_name_as_text)
{
	struct mock_target m = { .sysname = HOSTILE_NAME };

	EXPECT_EQ(0, host_against(self, &m, "info"));
	EXPECT_TRUE(plain(self->d.run.out));
	EXPECT_TRUE(host_out_has(self, " " HOSTILE_SHOWN " 1.0\n"));
}

TEST_F(dir, hello_prints_the_target_os_name_as_text)
{
	struct mock_target m = { .hello = MOCK_HELLO_ONLY, .sysname = HOSTILE_NAME };

	EXPECT_EQ(0, host_against(self, &m, "hello"));
	EXPECT_TRUE(plain(self->d.run.out));
	EXPECT_TRUE(host_out_has(self, " " HOSTILE_SHOWN " 1.0\n"));
}

TEST_F(dir, collection_txt_holds_the_target_os_name_as_text)
{
	struct mock_target m = { .sysname = HOSTILE_NAME, .samples_per_cpu = 10 };
	char *txt;

	EXPECT_EQ(0, run_collect(&self->d, &m, NULL));
	txt = collection_txt(&self->d);
	ASSERT_NE(NULL, txt);
	EXPECT_TRUE(plain(txt));
	EXPECT_NE(NULL, strstr(txt, "\nuname=" HOSTILE_SHOWN " 1.0 #1 scripted\n"));
	free(txt);
}

TEST_F(dir, collect_summary_prints_the_target_os_name_as_text)
{
	struct mock_target m = { .sysname = HOSTILE_NAME, .samples_per_cpu = 10 };

	EXPECT_EQ(0, run_collect(&self->d, &m, NULL));
	EXPECT_TRUE(plain(self->d.run.out));
	EXPECT_TRUE(host_out_has(self, " (" HOSTILE_SHOWN " 1.0, 2 CPUs) for "));
}

/* A peer that sends a byte every 20 ms on @fd until @stop. */
struct trickler {
	int fd;
	volatile int stop;
};

static void *trickle(void *arg)
{
	struct trickler *t = arg;

	while (!t->stop && write(t->fd, "x", 1) == 1)
		usleep(20000);
	return NULL;
}

/* Each byte well within the receive timeout, but no end: the deadline ends it. */
TEST_F_TIMEOUT(dir, drain_gives_up_on_a_trickling_target_at_its_deadline, 20)
{
	struct trickler t = { 0 };
	double t0, took;
	pthread_t th;
	long long n;
	int sv[2], err;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	t.fd = sv[1];
	ASSERT_EQ(0, pthread_create(&th, NULL, trickle, &t));
	t0 = host_now_s();
	n = host_drain_until(sv[0], t0 + 0.5);
	err = errno;
	took = host_now_s() - t0;
	t.stop = 1;
	pthread_join(th, NULL);
	close(sv[0]);
	close(sv[1]);
	EXPECT_EQ(-1, n);
	EXPECT_EQ(ETIMEDOUT, err);
	EXPECT_LE(0.5, took);
	EXPECT_GT(5.0, took);
}

/* Past its deadline, an end already there still counts. */
TEST(drain_past_its_deadline_takes_an_end_already_there)
{
	int sv[2];

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	ASSERT_EQ(5, write(sv[1], "bytes", 5));
	ASSERT_EQ(0, shutdown(sv[1], SHUT_WR));
	EXPECT_EQ(5, host_drain_until(sv[0], host_now_s() - 1));
	close(sv[0]);
	close(sv[1]);
}

TEST_HARNESS_MAIN
