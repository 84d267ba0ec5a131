// SPDX-License-Identifier: GPL-2.0-only
/*
 * What aca-host reads whole is capped before anything is allocated: a
 * collection's record files (cpuN.bin, module.bin) and kallsyms copies at
 * files_read_max() each (1 GiB, or $ACA_HOST_READ_MAX), its text files and
 * an --ecb file at their own limits; past a limit, the file's size and the
 * limit are said, and the rest of the collection is still read. Big files
 * are sparse: nothing here writes more than a few KiB.
 * Its own program, build/tests/host_limits_test.
 */
#include <fcntl.h>

#include "host_fixture.h"
#include "../../tools/aca-host/files.h"

/* @dir/@name, @size bytes of hole. */
static int sparse(const char *dir, const char *name, off_t size)
{
	char path[4200];
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	err = ftruncate(fd, size);
	close(fd);
	return err;
}

/* @n samples of /x/one (pid 9) on @cpu, into @b. */
static void samples(struct sbuf *b, int n, uint16_t cpu)
{
	for (int i = 0; i < n; i++)
		synth_sample(b, SAMPLE_SIZE, 0x400001, 9, 9, 1 + i, cpu);
}

static void one_module(FIXTURE_DATA(dir) *self)
{
	synth_module(&self->d.modules, 9, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, "/x/one");
}

/*
 * A CPU file one byte past the default, 1 GiB: said with its size and the
 * limit, its samples left out, the other CPU's reported. Before, the limit
 * was 4 GiB a file: this one was read whole into memory, 1 GiB of zeros
 * parsed as 22 million samples.
 */
TEST_F(dir, cpu_file_past_the_default_limit_is_not_read)
{
	char want[256];

	one_module(self);
	samples(&self->d.cpu0, 2, 0);
	ASSERT_EQ(0, unsetenv(FILES_READ_MAX_ENV));
	ASSERT_EQ(0, synth_txt(self->d.path, 2, SAMPLE_SIZE));
	ASSERT_EQ(0, sparse(self->d.path, "cpu1.bin", FILES_READ_MAX + 1));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(2, self->d.r.samples);
	EXPECT_EQ(1, self->d.r.past_read_max);
	snprintf(want, sizeof(want), "cpu1.bin: %llu bytes, more than aca-host reads of a "
		 "file (%llu); ACA_HOST_READ_MAX=BYTES raises it: its samples are left out",
		 FILES_READ_MAX + 1, FILES_READ_MAX);
	EXPECT_TRUE(said(&self->d, want)) TH_LOG("report said: %s", self->d.warn);
}

/* The limit is $ACA_HOST_READ_MAX's when set: 4 KiB here. */
TEST_F(dir, cpu_file_past_aca_host_read_max_is_not_read)
{
	struct sbuf cpu1 = { 0 };

	one_module(self);
	samples(&self->d.cpu0, 100, 0);		/* 4800 bytes */
	samples(&cpu1, 50, 1);			/* 2400 */
	ASSERT_EQ(0, setenv(FILES_READ_MAX_ENV, "4K", 1));
	ASSERT_EQ(0, synth_txt(self->d.path, 2, SAMPLE_SIZE));
	ASSERT_EQ(0, synth_write(self->d.path, "cpu1.bin", cpu1.p, cpu1.len));
	sbuf_free(&cpu1);
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(50, self->d.r.samples);
	EXPECT_EQ(50, self->d.r.with_module);
	EXPECT_TRUE(said(&self->d, "cpu0.bin: 4800 bytes, more than aca-host reads of a "
			 "file (4096); ACA_HOST_READ_MAX=BYTES raises it: its samples are "
			 "left out")) TH_LOG("report said: %s", self->d.warn);
}

/* module.bin too: the samples are still counted, attributed to nothing. */
TEST_F(dir, module_file_past_the_limit_is_not_read)
{
	for (int i = 0; i < 12; i++)	/* 88 bytes each */
		synth_module(&self->d.modules, 9, 0x400000 + i * 0x10000, 0x1000, 0, 0,
			     LOADED, 0, "/x/one");
	samples(&self->d.cpu0, 2, 0);
	ASSERT_EQ(0, setenv(FILES_READ_MAX_ENV, "1000", 1));
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(2, self->d.r.samples);
	EXPECT_EQ(0, self->d.r.nmodules);
	EXPECT_EQ(1, self->d.r.past_read_max);
	EXPECT_TRUE(said(&self->d, "module.bin: 1056 bytes, more than aca-host reads of a "
			 "file (1000); ACA_HOST_READ_MAX=BYTES raises it (no module records"))
		TH_LOG("report said: %s", self->d.warn);
}

/* A kallsyms copy is kept in memory line by line: the same limit. */
TEST_F(dir, kallsyms_past_the_limit_is_not_read)
{
	static const char ks[] = "ffffffff81000000 T _stext\n"
				 "ffffffff81000010 T hot\n";
	struct report_opts o = { 0 };
	char path[4200], want[4400];

	synth_module(&self->d.modules, 0, 0xffffffff81000000ull, 0x1000000, 0, 0, LOADED,
		     SEP_MR_EXE, "vmlinux");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0xffffffff81000014ull, 9, 9, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, synth_write(self->d.path, "ks", ks, sizeof(ks) - 1));
	ASSERT_EQ(0, setenv(FILES_READ_MAX_ENV, "40", 1));
	snprintf(path, sizeof(path), "%s/ks", self->d.path);
	o.kallsyms = path;
	ASSERT_EQ(0, run_report_opts(&self->d, &o));
	EXPECT_EQ(0, self->d.r.with_function);
	snprintf(want, sizeof(want), "--kallsyms %s: %zu bytes, more than aca-host reads of "
		 "a file (40); ACA_HOST_READ_MAX=BYTES raises it", path, sizeof(ks) - 1);
	EXPECT_TRUE(said(&self->d, want)) TH_LOG("report said: %s", self->d.warn);
}

/*
 * collection.txt and groups.txt have limits of their own (1 and 4 MiB),
 * said the same way. Before: "File too large".
 */
TEST_F(dir, text_files_past_their_limits_say_their_sizes)
{
	one_module(self);
	samples(&self->d.cpu0, 2, 0);
	ASSERT_EQ(0, sparse(self->d.path, "collection.txt", 2 << 20));
	ASSERT_EQ(0, sparse(self->d.path, "groups.txt", 5 << 20));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(2, self->d.r.samples);
	EXPECT_TRUE(said(&self->d, "collection.txt: 2097152 bytes, more than any "
			 "collection.txt has (1048576) (assuming 48-byte samples)"));
	EXPECT_TRUE(said(&self->d, "groups.txt: 5242880 bytes, more than any groups.txt "
			 "has (4194304) (no multiplexing table)"))
		TH_LOG("report said: %s", self->d.warn);
}

/* An ECB is a request's payload: past the protocol's 1 MiB, never sent. */
TEST_F(dir, ecb_file_past_a_requests_limit_is_refused)
{
	const char *args[] = { "collect", "127.0.0.1:1", "--duration", "1", "--ecb", NULL,
			       "--out", NULL, NULL };
	char ecb[4200], out[4200];

	snprintf(ecb, sizeof(ecb), "%s/big.ecb", self->d.path);
	snprintf(out, sizeof(out), "%s/c", self->d.path);
	args[5] = ecb;
	args[7] = out;
	ASSERT_EQ(0, sparse(self->d.path, "big.ecb", 2 << 20));
	EXPECT_EQ(1, synth_run_host(self->d.path, args, &self->d.run));
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, "big.ecb: 2097152 bytes, more than a "
			       "request may carry (1048576)\n")) {
		TH_LOG("collect said: %s", self->d.run.err);
	}
}

/* $ACA_HOST_READ_MAX: bytes, or K, M, G of them; anything else the default. */
TEST(read_max_values)
{
	static const struct {
		const char *env;
		uint64_t want;
	} v[] = {
		{ "4096", 4096 }, { "1", 1 }, { "64K", 64 << 10 }, { "3M", 3 << 20 },
		{ "8G", 8ull << 30 }, { "4611686018427387904", 1ull << 62 },
		{ "lots", FILES_READ_MAX }, { "0", FILES_READ_MAX },
		{ "-1", FILES_READ_MAX }, { "1T", FILES_READ_MAX },
		{ "1KB", FILES_READ_MAX }, { "4096 ", FILES_READ_MAX },
		{ "", FILES_READ_MAX }, { "4611686018427387905", FILES_READ_MAX },
		{ "4294967297G", FILES_READ_MAX }, { "99999999999999999999", FILES_READ_MAX },
	};

	ASSERT_EQ(0, unsetenv(FILES_READ_MAX_ENV));
	EXPECT_EQ(FILES_READ_MAX, files_read_max());
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		ASSERT_EQ(0, setenv(FILES_READ_MAX_ENV, v[i].env, 1));
		EXPECT_EQ(v[i].want, files_read_max()) TH_LOG("'%s'", v[i].env);
	}
}

TEST_HARNESS_MAIN
