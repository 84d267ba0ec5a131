/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The refusals every writer of a collection as a file (perf-data, pprof)
 * is tested for: a truncated CPU file, a malformed module record, a missing
 * collection, one without samples, an --out that cannot be written. Each
 * gives its exit status and says why, and leaves neither the file nor its
 * FILE.tmp. Included once by the writer's test program, after
 * host_fixture.h and spin_collection.h, with
 *   WRITER_CMD    the command ("pprof")
 *   WRITER_FILE   the name of the file it writes in the fixture's
 *                 directory ("profile.pb.gz")
 * defined: these tests are the program's own.
 */
#ifndef ACA_HOST_TEST_WRITER_REFUSALS_H
#define ACA_HOST_TEST_WRITER_REFUSALS_H

#if !defined(WRITER_CMD) || !defined(WRITER_FILE)
#error "define WRITER_CMD and WRITER_FILE first"
#endif

/* aca-host WRITER_CMD @dir --out DIR/WRITER_FILE (its path in @out). */
static int writer_run(FIXTURE_DATA(dir) *self, const char *dir, char *out, size_t len)
{
	const char *args[] = { WRITER_CMD, dir, "--out", out, NULL };

	snprintf(out, len, "%s/" WRITER_FILE, self->d.path);
	return synth_run_host(self->d.path, args, &self->d.run);
}

/* A bad collection: the status, a message naming the problem, no file. */
static void refused(struct __test_metadata *_metadata, FIXTURE_DATA(dir) *self,
		    const char *dir, int want_status, const char *what)
{
	char out[PATH_MAX + 32], tmp[PATH_MAX + 40];

	EXPECT_EQ(want_status, writer_run(self, dir, out, sizeof(out)));
	TH_LOG("%s", self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, what));
	EXPECT_NE(NULL, strstr(self->d.run.err, WRITER_FILE " not written"));
	EXPECT_NE(0, access(out, F_OK));
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	EXPECT_NE(0, access(tmp, F_OK));
}

TEST_F(dir, truncated_cpu_file_writes_nothing)
{
	ASSERT_EQ(0, spin_collection_flawed(&self->d, SPIN_TRUNCATED));
	refused(_metadata, self, self->d.path, 1, "cpu0.bin");
}

TEST_F(dir, malformed_module_records_write_nothing)
{
	ASSERT_EQ(0, spin_collection_flawed(&self->d, SPIN_BAD_MODULES));
	refused(_metadata, self, self->d.path, 1, "module.bin");
}

TEST_F(dir, missing_collection_writes_nothing)
{
	char gone[PATH_MAX + 16];

	snprintf(gone, sizeof(gone), "%s/none", self->d.path);
	refused(_metadata, self, gone, 2, "none");
}

/* Module records and no sample: nothing to write, status 2. */
TEST_F(dir, collection_without_samples_writes_nothing)
{
	ASSERT_EQ(0, spin_collection_flawed(&self->d, SPIN_NO_SAMPLES));
	refused(_metadata, self, self->d.path, 2, "no sample to write");
}

/* An --out that cannot be written: status 2, no FILE.tmp left behind. */
TEST_F(dir, unwritable_out_writes_nothing)
{
	struct spin_syms m;
	char out[PATH_MAX + 32];
	const char *args[] = { WRITER_CMD, self->d.path, "--out", out, NULL };

	ASSERT_EQ(0, spin_collection(&self->d, &m, 0));
	snprintf(out, sizeof(out), "%s/no/such/dir/" WRITER_FILE, self->d.path);
	EXPECT_EQ(2, synth_run_host(self->d.path, args, &self->d.run));
	EXPECT_NE(NULL, strstr(self->d.run.err, WRITER_FILE ".tmp"));
}

#endif /* ACA_HOST_TEST_WRITER_REFUSALS_H */
