// SPDX-License-Identifier: GPL-2.0-only
/*
 * collect --out DIR: a previous collection there becomes DIR.old (perf's
 * way with perf.data), anything else is left alone and the command
 * refused, and DIR is made only once the target has answered.
 * Its own program, build/tests/host_outdir_test.
 */
#include <sys/stat.h>

#include "host_fixture.h"

/* A previous collection @name in the test's directory, with a file @marker
 * (a name collect could have written). */
static int old_collection(FIXTURE_DATA(dir) *self, const char *name,
			  const char *marker)
{
	char sub[4200];

	snprintf(sub, sizeof(sub), "%s/%s", self->d.path, name);
	if (mkdir(sub, 0755))
		return -1;
	return synth_write(sub, "collection.txt", "format=1\n", 9) ||
	       synth_write(sub, marker, "x", 1) ? -1 : 0;
}

static bool exists(FIXTURE_DATA(dir) *self, const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", self->d.path, name);
	return !access(path, F_OK);
}

/* aca-host collect to a loopback port where nothing listens, into "c". */
static int collect_unreachable(FIXTURE_DATA(dir) *self)
{
	char target[32], out[4200];
	const char *args[] = { "collect", target, "--duration", "1", "--out", out, NULL };
	int fd, port = mock_refusing_port(&fd);

	if (port < 0)
		return -1;
	snprintf(target, sizeof(target), "127.0.0.1:%d", port);
	snprintf(out, sizeof(out), "%s/c", self->d.path);
	synth_run_host(self->d.path, args, &self->d.run);
	close(fd);
	return self->d.run.status;
}

TEST_F_TIMEOUT(dir, collect_moves_a_previous_collection_to_dir_old, 60)
{
	struct mock_target m = { .samples_per_cpu = 10 };
	char said[8500];

	ASSERT_EQ(0, old_collection(self, "c", "cpu101.bin"));
	EXPECT_EQ(0, run_collect(&self->d, &m, NULL));
	EXPECT_TRUE(exists(self, "c.old/cpu101.bin"));
	EXPECT_TRUE(exists(self, "c.old/collection.txt"));
	EXPECT_FALSE(exists(self, "c/cpu101.bin"));
	EXPECT_TRUE(exists(self, "c/cpu0.bin"));
	snprintf(said, sizeof(said), "aca-host: moved the previous collection in %s/c "
		 "to %s/c.old\n", self->d.path, self->d.path);
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, said));
}

TEST_F_TIMEOUT(dir, collect_replaces_an_older_dir_old, 60)
{
	struct mock_target m = { .samples_per_cpu = 10 };

	ASSERT_EQ(0, old_collection(self, "c", "cpu102.bin"));
	ASSERT_EQ(0, old_collection(self, "c.old", "cpu101.bin"));
	EXPECT_EQ(0, run_collect(&self->d, &m, NULL));
	EXPECT_TRUE(exists(self, "c.old/cpu102.bin"));
	EXPECT_FALSE(exists(self, "c.old/cpu101.bin"));
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, "c.old (replacing the older one)\n"));
}

/* Refused before connecting: the target is unreachable, yet exit status 2. */
TEST_F(dir, collect_leaves_a_non_collection_dir_alone)
{
	char c[4200];

	snprintf(c, sizeof(c), "%s/c", self->d.path);
	ASSERT_EQ(0, mkdir(c, 0755));
	ASSERT_EQ(0, synth_write(c, "precious", "x", 1));
	EXPECT_EQ(2, collect_unreachable(self));
	EXPECT_TRUE(exists(self, "c/precious"));
	EXPECT_FALSE(exists(self, "c.old"));
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, "/c: not empty, and not only a "
			       "collection's files"));
}

/* A collection a person added a file to is theirs now: never moved. */
TEST_F(dir, collect_leaves_a_collection_with_other_files_alone)
{
	ASSERT_EQ(0, old_collection(self, "c", "notes.txt"));
	EXPECT_EQ(2, collect_unreachable(self));
	EXPECT_TRUE(exists(self, "c/notes.txt"));
	EXPECT_FALSE(exists(self, "c.old"));
}

/* Nor is an older DIR.old with other files replaced: refused up front. */
TEST_F(dir, collect_keeps_a_dir_old_with_other_files)
{
	ASSERT_EQ(0, old_collection(self, "c", "cpu101.bin"));
	ASSERT_EQ(0, old_collection(self, "c.old", "notes.txt"));
	EXPECT_EQ(2, collect_unreachable(self));
	EXPECT_TRUE(exists(self, "c.old/notes.txt"));
	EXPECT_TRUE(exists(self, "c/cpu101.bin"));
}

TEST_F(dir, collect_to_an_unreachable_target_leaves_no_dir)
{
	EXPECT_EQ(1, collect_unreachable(self));
	EXPECT_FALSE(exists(self, "c"));
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, ": connection refused"));
}

/* Nor is a previous collection moved for a target that did not answer. */
TEST_F(dir, collect_to_an_unreachable_target_keeps_the_previous_collection)
{
	ASSERT_EQ(0, old_collection(self, "c", "cpu101.bin"));
	EXPECT_EQ(1, collect_unreachable(self));
	EXPECT_TRUE(exists(self, "c/cpu101.bin"));
	EXPECT_FALSE(exists(self, "c.old"));
}

/* A relay that accepts and closes (not in its --allow) is no answer either. */
TEST_F(dir, collect_to_a_target_that_drops_us_leaves_no_dir)
{
	struct mock_target m = { .hello = MOCK_HELLO_CLOSE };

	EXPECT_EQ(1, run_collect(&self->d, &m, NULL));
	EXPECT_FALSE(exists(self, "c"));
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err,
			       "closed the connection before the status message"));
}

TEST_HARNESS_MAIN
