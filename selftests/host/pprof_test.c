// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host pprof: a collection written as a gzipped pprof profile and read
 * by Debian's go tool pprof. Its five hottest functions are aca-host
 * report's, in its order and within 0.5 points, with and without callers;
 * the callers are the stacks' frames; every sample carries pid, tid and
 * cpu labels; the mappings carry build-ids; cpu/nanoseconds is the
 * sample-after value in TSC time; a truncated or malformed collection
 * writes no file. golang-go is a dependency (make deps): without go these
 * tests fail. Its own program, build/tests/host_pprof_test.
 */
#include <math.h>

#include "host_fixture.h"
#include "spin_collection.h"

#define TOP		5
#define GO_HOME		"/usr/lib/go/bin/go"	/* Debian's golang-go */

/* Debian's go: GO_HOME, else whatever go is on PATH. */
static const char *go_bin(void)
{
	return access(GO_HOME, X_OK) ? "go" : GO_HOME;
}

/* go tool pprof @args... FILE, in @dir. */
static int go_pprof(const char *dir, const char *const *args, struct host_run *r)
{
	const char *argv[16] = { "tool", "pprof" };
	int n = 2;

	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	return synth_run_tool(dir, go_bin(), argv, r);
}

#define ASSERT_GO_RAN(run)							\
	ASSERT_EQ(0, (run)->status) {						\
		TH_LOG("go tool pprof exited %d%s: %s", (run)->status,		\
		       (run)->status == 127 ? " (not installed: make deps installs golang-go)" : "", \
		       (run)->err ? (run)->err : "");				\
	}

/*
 * go tool pprof -top: "      30ms 30.00% 30.00%       30ms 30.00%  NAME"
 * rows after the "flat  flat%" header. Returns how many of at most @max
 * rows were read, their flat shares in @h.
 */
static int pprof_top(const char *out, struct hot *h, int max)
{
	const char *l = out ? strstr(out, "flat%") : NULL;
	int n = 0;

	for (l = l ? strchr(l, '\n') : NULL; l && l[1] && n < max; l = strchr(l + 1, '\n')) {
		char flat[64], sum[16], cum[64], cpct[16];

		if (sscanf(l + 1, " %63s %lf%% %15s %63s %15s %127[^\n]", flat, &h[n].pct, sum,
			   cum, cpct, h[n].name) == 6)
			n++;
	}
	return n;
}

/* The profile's path: DIR/profile.pb.gz. */
static void profile_path(const struct host_dir *d, char *path, size_t len)
{
	snprintf(path, len, "%s/profile.pb.gz", d->path);
}

/* aca-host pprof of the fixture's collection, names from @symfs (or none). */
static int write_pprof(struct host_dir *d, const char *symfs, char *path, size_t len)
{
	const char *args[] = { "pprof", d->path, "--out", path, symfs ? "--sysroot" : NULL,
			       symfs, NULL };

	profile_path(d, path, len);
	return synth_run_host(d->path, args, &d->run);
}

/* collection.txt of the fixture with @more appended; 0 or -1. */
static int txt_append(const struct host_dir *d, const char *more)
{
	char path[PATH_MAX], *txt;
	size_t len;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/collection.txt", d->path);
	txt = (char *)read_whole_file(path, 1 << 20, &len);
	f = txt ? fopen(path, "w") : NULL;
	ret = f && fprintf(f, "%s%s", txt, more) > 0 ? 0 : -1;
	if (f && fclose(f))
		ret = -1;
	free(txt);
	return ret;
}

/* A sample every 1 ms of TSC time: sample_after 1000000 at 1 GHz. */
#define MS_A_SAMPLE	"tsc_hz=1000000000\nsample_after=1000000\n"

/* go tool pprof -top's five hottest functions are aca-host report's. */
static void same_top(struct __test_metadata *_metadata, FIXTURE_DATA(dir) *self,
		     int chains)
{
	struct spin_syms m;
	struct host_run run = { 0 };
	struct hot gh[TOP + 8], ah[TOP];
	char path[PATH_MAX + 32];
	int ng, na;

	ASSERT_EQ(0, spin_collection(&self->d, &m, chains));
	ASSERT_EQ(0, txt_append(&self->d, MS_A_SAMPLE));
	ASSERT_EQ(0, write_pprof(&self->d, m.symfs, path, sizeof(path))) {
		TH_LOG("aca-host pprof: %s", self->d.run.err);
	}
	EXPECT_STREQ("", self->d.run.err);
	const char *host_args[] = { "report", self->d.path, "--sysroot", m.symfs,
				    "--sort", "sym", "--format", "csv", NULL };
	const char *args[] = { "-top", path, NULL };

	go_pprof(self->d.path, args, &run);
	ASSERT_GO_RAN(&run);
	TH_LOG("go tool pprof -top:\n%s%s", run.out, run.err);
	ng = pprof_top(run.out, gh, TOP + 8);
	ASSERT_EQ(0, synth_run_host(self->d.path, host_args, &self->d.run));
	na = aca_top(self->d.run.out, ah, TOP);
	ASSERT_EQ(TOP, na);
	ASSERT_LE(TOP, ng);
	for (int i = 0; i < TOP; i++) {
		EXPECT_STREQ(ah[i].name, gh[i].name);
		EXPECT_LE(fabs(ah[i].pct - gh[i].pct), 0.5) {
			TH_LOG("%s: aca-host %.2f%%, pprof %.2f%%", ah[i].name, ah[i].pct,
			       gh[i].pct);
		}
	}
	EXPECT_STREQ("aca_hot_spin", gh[0].name);
	/* The default sample type is the last: the CPU time, 1 ms a sample. */
	EXPECT_NE(NULL, strstr(run.out, "Type: cpu\n"));
	EXPECT_NE(NULL, strstr(run.out, "of 100ms total")) TH_LOG("%s", run.out);
	host_run_free(&run);
}

TEST_F(dir, pprof_top_functions_are_aca_host_reports)
{
	same_top(_metadata, self, 0);
}

TEST_F(dir, pprof_top_functions_are_aca_host_reports_with_callers)
{
	same_top(_metadata, self, 1);
}

/*
 * The stacks: go tool pprof -traces shows aca_hot_spin called by thread,
 * and the kernel's frames under their user callers; -top -cum counts
 * thread in every sample it is a caller of.
 */
TEST_F(dir, pprof_traces_show_the_callers)
{
	struct spin_syms m;
	struct host_run run = { 0 };
	struct hot gh[16];
	char path[PATH_MAX + 32];
	int ng;

	ASSERT_EQ(0, spin_collection(&self->d, &m, 1));
	ASSERT_EQ(0, write_pprof(&self->d, m.symfs, path, sizeof(path))) {
		TH_LOG("aca-host pprof: %s", self->d.run.err);
	}
	const char *args[] = { "-traces", path, NULL };

	go_pprof(self->d.path, args, &run);
	ASSERT_GO_RAN(&run);
	TH_LOG("%s", run.out);
	EXPECT_NE(NULL, strstr(run.out, "   aca_hot_spin\n             thread\n"));
	EXPECT_NE(NULL, strstr(run.out, "   native_write_msr\n             do_idle\n"
			       "             aca_hot_spin\n             thread\n"));
	const char *cargs[] = { "-top", "-cum", path, NULL };

	go_pprof(self->d.path, cargs, &run);
	ASSERT_GO_RAN(&run);
	ng = pprof_top(run.out, gh, 16);
	ASSERT_LE(1, ng);
	/* thread is in all 90 user samples' stacks and 6 kernel ones'. */
	EXPECT_NE(NULL, strstr(run.out, " 96.00%  thread\n")) TH_LOG("%s", run.out);
	EXPECT_STREQ("thread", gh[0].name);
	host_run_free(&run);
}

/* Every sample's pid, tid and cpu, as go tool pprof -tags counts them. */
TEST_F(dir, pprof_tags_are_pid_tid_and_cpu)
{
	struct spin_syms m;
	struct host_run run = { 0 };
	char path[PATH_MAX + 32];

	ASSERT_EQ(0, spin_collection(&self->d, &m, 0));
	ASSERT_EQ(0, write_pprof(&self->d, m.symfs, path, sizeof(path))) {
		TH_LOG("aca-host pprof: %s", self->d.run.err);
	}
	const char *args[] = { "-tags", "-sample_index=samples", path, NULL };

	go_pprof(self->d.path, args, &run);
	ASSERT_GO_RAN(&run);
	TH_LOG("%s", run.out);
	/*
	 * 96 samples of spin, 4 of pid 0 (swapper: tid 0 too); spin's odd
	 * ones in thread 4243 and on CPU 1, where the kernel's 10 ran.
	 */
	EXPECT_NE(NULL, strstr(run.out, " pid: Total 100"));
	EXPECT_EQ(1, lines_with(run.out, "96.0 (96.00%): 4242"));
	EXPECT_EQ(2, lines_with(run.out, "4.0 ( 4.00%): 0"));
	EXPECT_NE(NULL, strstr(run.out, " tid: Total 100"));
	EXPECT_EQ(1, lines_with(run.out, "45.0 (45.00%): 4243"));
	EXPECT_NE(NULL, strstr(run.out, " cpu: Total 100"));
	EXPECT_EQ(1, lines_with(run.out, "55.0 (55.00%): 1"));
	EXPECT_EQ(1, lines_with(run.out, "45.0 (45.00%): 0"));
	host_run_free(&run);
}

/* The mappings: spin's path and build-id, the kernel's name. */
TEST_F(dir, pprof_mappings_have_build_ids)
{
	struct spin_syms m;
	struct host_run run = { 0 };
	char path[PATH_MAX + 32], hex[2 * ACA_MR_BUILD_ID_MAX + 1];

	ASSERT_EQ(0, spin_collection(&self->d, &m, 0));
	ASSERT_EQ(0, write_pprof(&self->d, m.symfs, path, sizeof(path))) {
		TH_LOG("aca-host pprof: %s", self->d.run.err);
	}
	const char *args[] = { "-raw", path, NULL };

	go_pprof(self->d.path, args, &run);
	ASSERT_GO_RAN(&run);
	TH_LOG("%s", run.out);
	ASSERT_LT(0, m.build_id_size);
	for (size_t i = 0; i < m.build_id_size; i++)
		snprintf(hex + 2 * i, 3, "%02x", m.build_id[i]);
	EXPECT_NE(NULL, strstr(run.out, SPIN_EXE " " )) TH_LOG("%s", run.out);
	EXPECT_NE(NULL, strstr(run.out, hex));
	EXPECT_NE(NULL, strstr(run.out, "[kernel.kallsyms]"));
	host_run_free(&run);
}

/*
 * Without sample_after and tsc_hz in collection.txt: samples/count alone,
 * said on stderr; still the same functions.
 */
TEST_F(dir, pprof_without_a_period_counts_samples)
{
	struct spin_syms m;
	struct host_run run = { 0 };
	struct hot gh[TOP];
	char path[PATH_MAX + 32];

	ASSERT_EQ(0, spin_collection(&self->d, &m, 0));
	ASSERT_EQ(0, write_pprof(&self->d, m.symfs, path, sizeof(path))) {
		TH_LOG("aca-host pprof: %s", self->d.run.err);
	}
	EXPECT_NE(NULL, strstr(self->d.run.err, "samples/count alone"));
	const char *args[] = { "-top", path, NULL };

	go_pprof(self->d.path, args, &run);
	ASSERT_GO_RAN(&run);
	TH_LOG("%s", run.out);
	EXPECT_NE(NULL, strstr(run.out, "Type: samples\n"));
	EXPECT_NE(NULL, strstr(run.out, "of 100 total"));
	ASSERT_EQ(TOP, pprof_top(run.out, gh, TOP));
	EXPECT_STREQ("aca_hot_spin", gh[0].name);
	EXPECT_LE(fabs(gh[0].pct - 30), 0.5);
	host_run_free(&run);
}

/* --pid keeps one process's samples, as it does for aca-host report. */
TEST_F(dir, pprof_pid_filter_keeps_one_process)
{
	struct spin_syms m;
	struct host_run run = { 0 };
	char path[PATH_MAX + 32];
	const char *args[] = { "pprof", self->d.path, "--out", path, "--pid", "0", NULL };

	ASSERT_EQ(0, spin_collection(&self->d, &m, 0));
	profile_path(&self->d, path, sizeof(path));
	ASSERT_EQ(0, synth_run_host(self->d.path, args, &self->d.run)) {
		TH_LOG("%s", self->d.run.err);
	}
	const char *gargs[] = { "-top", path, NULL };

	go_pprof(self->d.path, gargs, &run);
	ASSERT_GO_RAN(&run);
	EXPECT_NE(NULL, strstr(run.out, "of 4 total")) TH_LOG("%s", run.out);
	EXPECT_NE(NULL, strstr(run.out, "100%  do_idle\n")) TH_LOG("%s", run.out);
	host_run_free(&run);
}

/*
 * What aca-host collect saved from the scripted target: its kernel and
 * module functions named from the collection's kallsyms, as aca-host
 * report names them.
 */
TEST_F_TIMEOUT(dir, pprof_of_a_collect_is_aca_host_reports, 60)
{
	struct mock_target mt = { .samples_per_cpu = 10, .kernel_samples = 10 };
	char dir[PATH_MAX + 8], path[PATH_MAX + 32];
	struct host_run run = { 0 };
	struct hot gh[TOP], ah[TOP];
	int ng, na;

	ASSERT_EQ(0, run_collect(&self->d, &mt, NULL)) TH_LOG("%s", self->d.run.err);
	snprintf(dir, sizeof(dir), "%s/c", self->d.path);
	snprintf(path, sizeof(path), "%s/profile.pb.gz", self->d.path);
	const char *pp_args[] = { "pprof", dir, "--out", path, NULL };
	const char *host_args[] = { "report", dir, "--sort", "sym", "--format", "csv", NULL };
	const char *args[] = { "-top", path, NULL };

	ASSERT_EQ(0, synth_run_host(self->d.path, pp_args, &self->d.run)) {
		TH_LOG("%s", self->d.run.err);
	}
	ASSERT_LE(0, synth_run_host(self->d.path, host_args, &self->d.run));
	na = aca_top(self->d.run.out, ah, TOP);
	go_pprof(self->d.path, args, &run);
	ASSERT_GO_RAN(&run);
	TH_LOG("pprof:\n%saca-host:\n%s", run.out, self->d.run.out);
	ng = pprof_top(run.out, gh, TOP);
	ASSERT_LE(2, na);
	ASSERT_EQ(na, ng);
	for (int i = 0; i < na; i++) {
		EXPECT_STREQ(ah[i].name, gh[i].name);
		EXPECT_LE(fabs(ah[i].pct - gh[i].pct), 0.5);
	}
	EXPECT_STREQ("mock_kernel_hot", gh[0].name);
	host_run_free(&run);
}

#define WRITER_CMD	"pprof"
#define WRITER_FILE	"profile.pb.gz"
#include "writer_refusals.h"

TEST_HARNESS_MAIN
