// SPDX-License-Identifier: GPL-2.0-only
/*
 * Untrusted input: truncated, malformed and random streams and ELF files.
 * Its own program, build/tests/host_malformed_test.
 */
#include <elf.h>

#include "host_fixture.h"
#include "../../tools/aca-host/records.h"
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

TEST_HARNESS_MAIN
