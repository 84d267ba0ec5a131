// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host perf-data: a collection written as perf.data and read by
 * Debian's linux-perf as its own. perf report's hottest functions are
 * aca-host report's, in its order and within 0.5 points, with and without
 * callers; perf script prints every sample; perf annotate disassembles the
 * hot function; a truncated or malformed collection writes no file.
 * linux-perf is a dependency (make deps): without perf these tests fail.
 * Its own program, build/tests/host_perfdata_test.
 */
#include <ctype.h>
#include <fcntl.h>
#include <math.h>

#include "host_fixture.h"
#include "spin_collection.h"

#define TOP		5

/* perf with @args (NULL-terminated), HOME in @dir (no ~/.debug, no config). */
static int run_perf(const char *dir, const char *const *args, struct host_run *r)
{
	return synth_run_tool(dir, "perf", args, r);
}

/*
 * perf report --sort sym -q: "  30.00%  [.] aca_hot_spin" lines. Returns
 * how many of at most @max rows were read.
 */
static int perf_top(const char *out, struct hot *h, int max)
{
	int n = 0;

	for (const char *l = out; l && *l && n < max; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *d = l + strspn(l, " ");
		char mode;

		/* A row, not a call graph's line (sscanf's blanks skip newlines). */
		if (isdigit((unsigned char)*d) &&
		    sscanf(d, "%lf%% [%c] %127s", &h[n].pct, &mode, h[n].name) == 3)
			n++;
	}
	return n;
}

struct pd_files {
	char data[PATH_MAX + 32], kallsyms[PATH_MAX + 32];
};

/* aca-host perf-data of the fixture's collection into DIR/perf.data. */
static int perf_data(FIXTURE_DATA(dir) *self, struct pd_files *p)
{
	const char *args[] = { "perf-data", self->d.path, "--out", p->data, NULL };

	snprintf(p->data, sizeof(p->data), "%s/perf.data", self->d.path);
	snprintf(p->kallsyms, sizeof(p->kallsyms), "%s/kallsyms", self->d.path);
	return synth_run_host(self->d.path, args, &self->d.run);
}

#define ASSERT_PERF_RAN(run)							\
	ASSERT_EQ(0, (run)->status) {						\
		TH_LOG("perf exited %d%s: %s", (run)->status,			\
		       (run)->status == 127 ? " (not installed: make deps installs linux-perf)" : "", \
		       (run)->err ? (run)->err : "");				\
	}

/* perf report's five hottest functions are aca-host report's. */
static void same_top(struct __test_metadata *_metadata, FIXTURE_DATA(dir) *self,
		     const struct spin_syms *m, int chains)
{
	struct pd_files p;
	struct host_run run = { 0 };
	struct hot ph[TOP], ah[TOP];
	const char *host_args[] = { "report", self->d.path, "--sysroot", m->symfs,
				    "--sort", "sym", "--format", "csv", NULL };
	int np, na;

	ASSERT_EQ(0, perf_data(self, &p)) {
		TH_LOG("aca-host perf-data: %s", self->d.run.err);
	}
	const char *args[] = { "report", "--stdio", "--sort", "sym", "--no-children",
			       "-i", p.data, "--kallsyms", p.kallsyms, "--symfs", m->symfs,
			       NULL };
	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	TH_LOG("perf report:\n%s%s", run.out, run.err);
	np = perf_top(run.out, ph, TOP);
	ASSERT_EQ(0, synth_run_host(self->d.path, host_args, &self->d.run));
	TH_LOG("aca-host report:\n%s", self->d.run.out);
	na = aca_top(self->d.run.out, ah, TOP);
	ASSERT_EQ(TOP, na);
	ASSERT_EQ(TOP, np);
	for (int i = 0; i < TOP; i++) {
		EXPECT_STREQ(ah[i].name, ph[i].name);
		EXPECT_LE(fabs(ah[i].pct - ph[i].pct), 0.5) {
			TH_LOG("%s: aca-host %.2f%%, perf %.2f%%", ah[i].name, ah[i].pct,
			       ph[i].pct);
		}
	}
	EXPECT_STREQ("aca_hot_spin", ph[0].name);
	EXPECT_EQ(NULL, strstr(run.err, "Warning")) {
		TH_LOG("perf warned: %s", run.err);
	}
	host_run_free(&run);
}

TEST_F(dir, perf_report_top_functions_are_aca_host_reports)
{
	struct spin_syms m;

	ASSERT_EQ(0, spin_collection(&self->d, &m, 0));
	same_top(_metadata, self, &m, 0);
}

TEST_F(dir, perf_report_top_functions_are_aca_host_reports_with_callers)
{
	struct spin_syms m;

	ASSERT_EQ(0, spin_collection(&self->d, &m, 1));
	same_top(_metadata, self, &m, 1);
}

/* perf report -g of the callers: aca_hot_spin's caller is thread. */
TEST_F(dir, perf_report_g_shows_the_callers)
{
	struct spin_syms m;
	struct pd_files p;
	struct host_run run = { 0 };

	ASSERT_EQ(0, spin_collection(&self->d, &m, 1));
	ASSERT_EQ(0, perf_data(self, &p));
	const char *args[] = { "report", "--stdio", "-g", "caller", "--no-children",
			       "--sort", "sym", "-i", p.data, "--kallsyms", p.kallsyms,
			       "--symfs", m.symfs, NULL };
	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	TH_LOG("%s", run.out);
	/* The kernel samples' chain crosses into user code: both named. */
	EXPECT_NE(NULL, strstr(run.out, "native_write_msr"));
	EXPECT_NE(NULL, strstr(run.out, "do_idle"));
	EXPECT_NE(NULL, strstr(run.out, "thread"));
	host_run_free(&run);
}

/* perf script prints all 100 samples, with and without callers. */
static void script_prints_every_sample(struct __test_metadata *_metadata,
				       FIXTURE_DATA(dir) *self, int chains)
{
	struct spin_syms m;
	struct pd_files p;
	struct host_run run = { 0 };

	ASSERT_EQ(0, spin_collection(&self->d, &m, chains));
	ASSERT_EQ(0, perf_data(self, &p));
	const char *args[] = { "script", "-G", "-F", "comm,tid,cpu,time,ip,sym", "-i", p.data,
			       "--kallsyms", p.kallsyms, "--symfs", m.symfs, NULL };
	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	EXPECT_EQ(100, lines_with(run.out, ":")) {
		TH_LOG("%s%s", run.out, run.err);
	}
	EXPECT_EQ(30, lines_with(run.out, " aca_hot_spin"));
	EXPECT_EQ(6, lines_with(run.out, " native_write_msr"));
	EXPECT_EQ(4, lines_with(run.out, "swapper"));
	/* The first sample: TSC 1000000 at 1 GHz (or 1 ns a tick), spin on CPU 0. */
	EXPECT_NE(NULL, strstr(run.out, "spin  4242 [000]     0.001000:"))
		TH_LOG("%.400s", run.out);
	host_run_free(&run);
}

TEST_F(dir, perf_script_prints_every_sample)
{
	script_prints_every_sample(_metadata, self, 0);
}

TEST_F(dir, perf_script_prints_every_sample_with_callers)
{
	script_prints_every_sample(_metadata, self, 1);
}

/*
 * The frames of perf script text (tab-indented lines), in order, joined:
 * "SYMBOL+0xOFFSET (DSO)" each, the address left out (perf prints a user
 * frame's relative to its file, as it does for the files it records).
 */
static char *frame_lines(const char *s)
{
	size_t len = s ? strlen(s) : 0, n = 0;
	char *out = calloc(1, len + 1);

	for (const char *l = s; out && l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *f = l + strspn(l, "\t ");
		size_t k;

		if (l[0] != '\t')
			continue;
		f += strspn(f, "0123456789abcdef");
		f += strspn(f, " ");
		k = strcspn(f, "\n");
		memcpy(out + n, f, k);
		n += k;
		out[n++] = '\n';
	}
	return out;
}

/* perf script's stacks are aca-host script's, frame by frame. */
TEST_F(dir, perf_script_stacks_are_aca_host_scripts)
{
	struct spin_syms m;
	struct pd_files p;
	struct host_run run = { 0 };
	char *want, *got;

	ASSERT_EQ(0, spin_collection(&self->d, &m, 1));
	ASSERT_EQ(0, perf_data(self, &p));
	const char *args[] = { "script", "-F", "comm,tid,cpu,time,ip,sym,symoff,dso", "-i", p.data,
			       "--kallsyms", p.kallsyms, "--symfs", m.symfs, NULL };
	const char *host_args[] = { "script", self->d.path, "--sysroot", m.symfs, NULL };

	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	ASSERT_EQ(0, synth_run_host(self->d.path, host_args, &self->d.run));
	want = frame_lines(self->d.run.out);
	got = frame_lines(run.out);
	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(want, got);
	EXPECT_NE(NULL, strstr(got, "native_write_msr+0x4 ([kernel.kallsyms])\n"
			       "do_idle+0x5 ([kernel.kallsyms])\n"
			       "aca_hot_spin+0x2 (/usr/bin/spin)\nthread+0x8 (/usr/bin/spin)\n"))
		TH_LOG("%.600s", got);
	EXPECT_STREQ("", run.err);
	free(want);
	free(got);
	host_run_free(&run);
}

static int newlines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* --pid keeps one process's samples, as it does for aca-host report. */
TEST_F(dir, pid_filter_keeps_one_process)
{
	struct spin_syms m;
	struct pd_files p;
	struct host_run run = { 0 };
	const char *args[] = { "perf-data", self->d.path, "--out", p.data, "--pid", "0", NULL };

	ASSERT_EQ(0, spin_collection(&self->d, &m, 0));
	snprintf(p.data, sizeof(p.data), "%s/perf.data", self->d.path);
	ASSERT_EQ(0, synth_run_host(self->d.path, args, &self->d.run)) {
		TH_LOG("%s", self->d.run.err);
	}
	const char *sargs[] = { "script", "-F", "comm,tid", "-i", p.data, NULL };

	run_perf(self->d.path, sargs, &run);
	ASSERT_PERF_RAN(&run);
	EXPECT_EQ(4, lines_with(run.out, "swapper"));
	EXPECT_EQ(4, newlines(run.out))
		TH_LOG("%s", run.out);
	host_run_free(&run);
}

/* A stack deeper than perf's 127 callers: the innermost 128 frames, as script. */
TEST_F(dir, deep_stack_keeps_128_frames_as_aca_host_script)
{
	enum { DEEP = 200, DEEP_SIZE = SYNTH_CALLSTACK_OFFSET + SYNTH_CALLSTACK_HEAD + 8 * DEEP };
	uint64_t callers[DEEP];
	struct spin_syms m;
	struct pd_files p;
	struct host_run run = { 0 };
	char *want, *got;

	ASSERT_EQ(0, spin_syms(self->d.path, &m));
	for (int i = 0; i < DEEP; i++)
		callers[i] = i < DEEP - 1 ? m.thread + 8 : m.main + 0x20;
	synth_module(&self->d.modules, SPIN_PID, SPIN_LOAD, 0x1000, 0x1000, 0, LOADED,
		     SEP_MR_EXE, SPIN_EXE);
	synth_module(&self->d.modules, 0, SPIN_KTEXT, 0x2000000, 0, 0, LOADED,
		     SEP_MR_EXE | SEP_MR_GLOBAL_MODULE, "vmlinux");
	synth_sample_chain(&self->d.cpu0, DEEP_SIZE, m.hot + 4, SPIN_PID, SPIN_PID, 1000, 0, 0,
			   DEEP, 0, callers);
	ASSERT_EQ(0, synth_write(self->d.path, "cpu0.bin", self->d.cpu0.p, self->d.cpu0.len));
	ASSERT_EQ(0, synth_write(self->d.path, "module.bin", self->d.modules.p,
				 self->d.modules.len));
	ASSERT_EQ(0, synth_txt_chain(self->d.path, 1, DEEP_SIZE, "cpu-clock", 1000000000));
	ASSERT_EQ(0, perf_data(self, &p)) {
		TH_LOG("%s", self->d.run.err);
	}
	/*
	 * perf's default --max-stack (127) counts the context marker among
	 * the entries: the file holds 128 frames, perf shows 127 of them.
	 */
	const char *args[] = { "script", "-F", "ip,sym,symoff,dso", "--max-stack", "200",
			       "-i", p.data, "--symfs", m.symfs, NULL };
	const char *host_args[] = { "script", self->d.path, "--sysroot", m.symfs, NULL };

	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	ASSERT_EQ(0, synth_run_host(self->d.path, host_args, &self->d.run));
	want = frame_lines(self->d.run.out);
	got = frame_lines(run.out);
	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, got);
	EXPECT_EQ(128, newlines(got));
	EXPECT_STREQ(want, got);
	free(want);
	free(got);
	host_run_free(&run);
}

/* perf annotate disassembles aca_hot_spin from the --symfs copy. */
TEST_F(dir, perf_annotate_prints_the_hot_functions_instructions)
{
	struct spin_syms m;
	struct pd_files p;
	struct host_run run = { 0 };

	ASSERT_EQ(0, spin_collection(&self->d, &m, 1));
	ASSERT_EQ(0, perf_data(self, &p));
	const char *args[] = { "annotate", "--stdio", "-i", p.data, "--symfs", m.symfs,
			       "aca_hot_spin", NULL };
	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	TH_LOG("%s%s", run.out, run.err);
	EXPECT_NE(NULL, strstr(run.out, "aca_hot_spin"));
	/* Its instructions, the sampled one with all 30 samples. */
	EXPECT_LE(3, lines_with(run.out, "      : "));
	EXPECT_NE(NULL, strstr(run.out, "100.00"));
	EXPECT_EQ(NULL, strstr(run.err, "Error"));
	host_run_free(&run);
}

/* The file says where it came from: the target's release, its CPUs, build-ids. */
TEST_F(dir, perf_report_header_has_release_cpus_and_build_ids)
{
	struct spin_syms m;
	struct pd_files p;
	struct host_run run = { 0 };
	char txt[512], hex[2 * ACA_MR_BUILD_ID_MAX + 1];
	int n;

	ASSERT_EQ(0, spin_collection(&self->d, &m, 0));
	/* A second process of the same file: its build-id once in the header. */
	synth_module_build_id(&self->d.modules, SPIN_PID + 10, SPIN_LOAD, 0x1000, 0x1000,
			      SEP_MR_EXE, SPIN_EXE, m.build_id, m.build_id_size, NULL, 0);
	ASSERT_EQ(0, synth_write(self->d.path, "module.bin", self->d.modules.p,
				 self->d.modules.len));
	n = snprintf(txt, sizeof(txt), "num_cpus=2\nsample_size=%u\ntarget=tgt.example\n"
		     "uname=Linux 6.12.99-test #1 SMP\n", SAMPLE_SIZE);
	ASSERT_EQ(0, synth_write(self->d.path, "collection.txt", txt, n));
	ASSERT_EQ(0, perf_data(self, &p));
	const char *args[] = { "report", "--header-only", "-i", p.data, NULL };
	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	TH_LOG("%s", run.out);
	EXPECT_NE(NULL, strstr(run.out, "# os release : 6.12.99-test\n"));
	EXPECT_NE(NULL, strstr(run.out, "# hostname : tgt.example\n"));
	EXPECT_NE(NULL, strstr(run.out, "# nrcpus avail : 2\n"));
	const char *bargs[] = { "buildid-list", "-i", p.data, NULL };
	run_perf(self->d.path, bargs, &run);
	ASSERT_PERF_RAN(&run);
	for (size_t i = 0; i < m.build_id_size; i++)
		snprintf(hex + 2 * i, 3, "%02x", m.build_id[i]);
	EXPECT_NE(NULL, strstr(run.out, hex)) {
		TH_LOG("want %s: %s%s", hex, run.out, run.err);
	}
	EXPECT_EQ(1, lines_with(run.out, SPIN_EXE)) {
		TH_LOG("%s", run.out);
	}
	host_run_free(&run);
}

/*
 * A live spin's mappings as the target records them (this machine's files
 * where they are, pages at their real offsets) and this program's libc:
 * perf report's dsos and hot function are aca-host report's.
 */
TEST_F(dir, perf_report_of_live_mappings_is_aca_host_reports)
{
	const char *spin = synth_spin_path();
	char *spin_real = spin ? realpath(spin, NULL) : NULL;
	uint32_t me = getpid();
	char proc[64], exe[PATH_MAX];
	struct host_run run = { 0 };
	struct pd_files p;
	struct hot ph[2], ah[2];
	uint64_t hot;
	ssize_t len;
	int status;
	pid_t pid;

	ASSERT_NE(NULL, spin_real);
	pid = synth_spin("1", "0.2", &hot);
	ASSERT_LT(0, pid);
	ASSERT_LE(2, synth_maps(&self->d.modules, pid, pid, spin_real));
	snprintf(proc, sizeof(proc), "/proc/%u/exe", me);
	len = readlink(proc, exe, sizeof(exe) - 1);
	ASSERT_LT(0, len);
	exe[len] = 0;
	ASSERT_LE(2, synth_maps(&self->d.modules, me, me, exe));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	for (int i = 0; i < 70; i++)
		synth_sample(&self->d.cpu0, SAMPLE_SIZE, hot + i % 8, pid, pid, 1000 + i, 0);
	for (int i = 0; i < 30; i++)
		synth_sample(&self->d.cpu0, SAMPLE_SIZE, (uintptr_t)qsort + 4, me, me, 2000 + i, 0);
	ASSERT_EQ(0, synth_write(self->d.path, "cpu0.bin", self->d.cpu0.p, self->d.cpu0.len));
	ASSERT_EQ(0, synth_write(self->d.path, "module.bin", self->d.modules.p,
				 self->d.modules.len));
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, perf_data(self, &p)) {
		TH_LOG("%s", self->d.run.err);
	}
	const char *args[] = { "report", "--stdio", "-q", "--sort", "dso", "-i", p.data, NULL };
	const char *host_args[] = { "report", self->d.path, "--sort", "dso", "--format", "csv",
				    NULL };

	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	ASSERT_EQ(0, synth_run_host(self->d.path, host_args, &self->d.run));
	TH_LOG("perf:\n%saca-host:\n%s", run.out, self->d.run.out);
	ASSERT_EQ(2, aca_top(self->d.run.out, ah, 2));
	/* perf's rows of --sort dso have no [.]: read them by hand. */
	ASSERT_EQ(2, sscanf(run.out, " %lf%% %127s", &ph[0].pct, ph[0].name));
	ASSERT_EQ(2, sscanf(strchr(run.out, '\n') + 1, " %lf%% %127s", &ph[1].pct, ph[1].name));
	for (int i = 0; i < 2; i++) {
		EXPECT_STREQ(ah[i].name, ph[i].name);
		EXPECT_LE(fabs(ah[i].pct - ph[i].pct), 0.5);
	}
	const char *sargs[] = { "report", "--stdio", "-q", "--sort", "sym", "-i", p.data, NULL };

	run_perf(self->d.path, sargs, &run);
	ASSERT_PERF_RAN(&run);
	EXPECT_NE(NULL, strstr(run.out, "70.00%  [.] aca_hot_spin\n")) {
		TH_LOG("%s%s", run.out, run.err);
	}
	host_run_free(&run);
	free(spin_real);
}

/* The share of function @name in a table of @n rows; -1 if it is not there. */
static double pct_of(const struct hot *h, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(h[i].name, name))
			return h[i].pct;
	return -1;
}

/*
 * What aca-host collect saved from a target (the scripted one: user and
 * kernel samples, a kernel module, the kallsyms of the symbols it named,
 * without _stext): perf report names the kernel's and the module's
 * functions from it, without a warning, as aca-host report does. One
 * difference: an address past a kernel symbol's end (kallsyms.size) is
 * nobody's to aca-host, the symbol below's to perf, which has no sizes.
 */
TEST_F_TIMEOUT(dir, perf_report_of_a_collect_is_aca_host_reports, 60)
{
	struct mock_target mt = { .samples_per_cpu = 10, .kernel_samples = 10 };
	char dir[PATH_MAX + 8], data[PATH_MAX + 16], ks[PATH_MAX + 32], gap[64];
	struct host_run run = { 0 };
	struct hot ph[32], ah[32];
	int np, na;

	ASSERT_EQ(0, run_collect(&self->d, &mt, NULL)) TH_LOG("%s", self->d.run.err);
	snprintf(dir, sizeof(dir), "%s/c", self->d.path);
	snprintf(data, sizeof(data), "%s/perf.data", self->d.path);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	snprintf(gap, sizeof(gap), "vmlinux+0x%llx", MOCK_KGAP - 0xffffffff81000000ull);
	const char *data_args[] = { "perf-data", dir, "--out", data, NULL };
	const char *host_args[] = { "report", dir, "--sort", "sym", "--format", "csv", NULL };
	const char *args[] = { "report", "--stdio", "--sort", "sym", "-i", data,
			       "--kallsyms", ks, NULL };

	ASSERT_EQ(0, synth_run_host(self->d.path, data_args, &self->d.run)) {
		TH_LOG("%s", self->d.run.err);
	}
	ASSERT_LE(0, synth_run_host(self->d.path, host_args, &self->d.run));
	na = aca_top(self->d.run.out, ah, 32);
	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	TH_LOG("perf:\n%s%saca-host:\n%s", run.out, run.err, self->d.run.out);
	np = perf_top(run.out, ph, 32);
	ASSERT_LE(3, na);
	ASSERT_LE(2, np);
	EXPECT_STREQ("mock_kernel_hot", ah[0].name);
	EXPECT_STREQ("mock_kernel_hot", ph[0].name);
	EXPECT_LT(0, pct_of(ph, np, "mock_mod_fn"));
	EXPECT_LE(fabs(pct_of(ah, na, "mock_mod_fn") - pct_of(ph, np, "mock_mod_fn")), 0.5);
	EXPECT_LE(fabs(pct_of(ah, na, "mock_kernel_hot") + pct_of(ah, na, gap) -
		       pct_of(ph, np, "mock_kernel_hot")), 0.5);
	EXPECT_EQ(NULL, strstr(run.err, "Warning"));
	host_run_free(&run);
}

/* Two groups multiplexed: one attr each, their samples apart, named. */
TEST_F(dir, perf_report_shows_each_multiplexed_event)
{
	static const char groups[] =
		"switch_ms 10 switches 3 windows_kept 2 windows_lost 0 tsc_hz 1000000000\n"
		"group 0 event INST_RETIRED.ANY index 0 windows 1 running_tsc 25000\n"
		"group 1 event CPU_CLK_UNHALTED.THREAD index 1 windows 1 running_tsc 50000\n"
		"window 0 1010000 1035000\n"
		"window 1 1040000 1090000\n";
	struct spin_syms m;
	struct pd_files p;
	struct host_run run = { 0 };

	ASSERT_EQ(0, spin_syms(self->d.path, &m));
	synth_module(&self->d.modules, SPIN_PID, SPIN_LOAD, 0x1000, 0x1000, 0, LOADED,
		     SEP_MR_EXE, SPIN_EXE);
	synth_module(&self->d.modules, 0, SPIN_KTEXT, 0x2000000, 0, 0, LOADED,
		     SEP_MR_EXE | SEP_MR_GLOBAL_MODULE, "vmlinux");
	for (int i = 0; i < 15; i++) {
		synth_sample(&self->d.cpu0, SAMPLE_SIZE, i < 10 ? m.hot + 4 : m.mix_a + 8,
			     SPIN_PID, SPIN_PID, 1000 + i, 0);
		synth_set_event(&self->d.cpu0, SAMPLE_SIZE, i < 10 ? 0 : 1);
	}
	ASSERT_EQ(0, synth_write(self->d.path, "cpu0.bin", self->d.cpu0.p, self->d.cpu0.len));
	ASSERT_EQ(0, synth_write(self->d.path, "module.bin", self->d.modules.p,
				 self->d.modules.len));
	ASSERT_EQ(0, synth_write(self->d.path, "groups.txt", groups, strlen(groups)));
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, perf_data(self, &p)) {
		TH_LOG("%s", self->d.run.err);
	}
	const char *args[] = { "report", "--stdio", "--sort", "sym", "-i", p.data,
			       "--symfs", m.symfs, NULL };
	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	TH_LOG("%s", run.out);
	EXPECT_NE(NULL, strstr(run.out, "# Samples: 10  of event 'INST_RETIRED.ANY'"));
	EXPECT_NE(NULL, strstr(run.out, "# Samples: 5  of event 'CPU_CLK_UNHALTED.THREAD'"));
	EXPECT_NE(NULL, strstr(run.out, "100.00%  [.] aca_hot_spin"));
	EXPECT_NE(NULL, strstr(run.out, "100.00%  [.] aca_mix_a"));
	EXPECT_STREQ("", run.err);
	host_run_free(&run);
}

/*
 * A kernel module's record is perf's [NAME], its functions from kallsyms.
 * perf 6.1 splits kallsyms among the modules when it first names a
 * sample of the kernel image: a module's samples before that one stay
 * unnamed (it looks for NAME.ko instead). Here the image's sample is first.
 */
TEST_F(dir, perf_names_kernel_module_functions)
{
	char text[512];
	struct pd_files p;
	struct host_run run = { 0 };
	int n;

	synth_module(&self->d.modules, 0, SPIN_KTEXT, 0x2000000, 0, 0, LOADED,
		     SEP_MR_EXE | SEP_MR_GLOBAL_MODULE, "vmlinux");
	synth_module(&self->d.modules, 0, 0xffffffffc0000000ull, 0x10000, 0, 0, LOADED,
		     SEP_MR_GLOBAL_MODULE, "aca");
	for (int i = 0; i < 4; i++)
		synth_sample(&self->d.cpu0, SAMPLE_SIZE, i > 0 ? 0xffffffffc0000110ull :
			     SPIN_KTEXT + 0x104, 0, 0, 1000 + i, 0);
	n = snprintf(text, sizeof(text), "%016llx T _stext\n%016llx T native_write_msr\n"
		     "%016llx T _etext\nffffffffc0000100 t aca_poll\t[aca]\n"
		     "ffffffffc0000200 t aca_read\t[aca]\n",
		     SPIN_KTEXT, SPIN_KTEXT + 0x100, SPIN_KTEXT + 0x1000);
	ASSERT_EQ(0, synth_write(self->d.path, "kallsyms", text, n));
	ASSERT_EQ(0, synth_write(self->d.path, "cpu0.bin", self->d.cpu0.p, self->d.cpu0.len));
	ASSERT_EQ(0, synth_write(self->d.path, "module.bin", self->d.modules.p,
				 self->d.modules.len));
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, perf_data(self, &p)) {
		TH_LOG("%s", self->d.run.err);
	}
	const char *args[] = { "report", "--stdio", "-q", "--sort", "dso,sym", "-i", p.data,
			       "--kallsyms", p.kallsyms, NULL };
	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	TH_LOG("%s%s", run.out, run.err);
	EXPECT_NE(NULL, strstr(run.out, "75.00%  [aca]              [k] aca_poll"));
	EXPECT_NE(NULL, strstr(run.out, "25.00%  [kernel.kallsyms]  [k] native_write_msr"));
	host_run_free(&run);
}

#define WRITER_CMD	"perf-data"
#define WRITER_FILE	"perf.data"
#include "writer_refusals.h"

/*
 * A kernel thread's module record (address and length 0: it only names
 * the thread) maps nothing: no MMAP2 of it, which would send perf and
 * hotspot looking for an ELF file named after the thread.
 */
TEST_F(dir, a_kernel_threads_record_maps_nothing)
{
	struct spin_syms m;
	struct pd_files p;
	struct host_run run = { 0 };
	struct sbuf b = { 0 };
	char path[PATH_MAX + 32];
	FILE *f;

	ASSERT_EQ(0, spin_collection(&self->d, &m, 0));
	synth_module(&b, 77, 0, 0, 0, 0, LOADED, SEP_MR_EXE, "kworker/0:1");
	snprintf(path, sizeof(path), "%s/module.bin", self->d.path);
	f = fopen(path, "ab");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fwrite(b.p, b.len, 1, f));
	ASSERT_EQ(0, fclose(f));
	sbuf_free(&b);
	ASSERT_EQ(0, perf_data(self, &p)) {
		TH_LOG("aca-host perf-data: %s", self->d.run.err);
	}
	const char *args[] = { "script", "--show-mmap-events", "-F", "comm,tid,ip,sym",
			       "-i", p.data, "--kallsyms", p.kallsyms, "--symfs", m.symfs,
			       NULL };
	run_perf(self->d.path, args, &run);
	ASSERT_PERF_RAN(&run);
	EXPECT_NE(0, lines_with(run.out, "PERF_RECORD_MMAP2")) {
		TH_LOG("%s%s", run.out, run.err);
	}
	EXPECT_EQ(0, lines_with(run.out, "kworker/0:1")) {
		TH_LOG("%s", run.out);
	}
	host_run_free(&run);
}

/* perf script's MMAP2 lines of DIR/perf.data, written anew; -1 on failure. */
static int mmap2_lines(struct __test_metadata *_metadata, FIXTURE_DATA(dir) *self,
		       const struct spin_syms *m)
{
	struct pd_files p;
	struct host_run run = { 0 };
	int n;

	if (perf_data(self, &p)) {
		TH_LOG("aca-host perf-data: %s", self->d.run.err);
		return -1;
	}
	const char *args[] = { "script", "--show-mmap-events", "-F", "comm,tid,ip,sym",
			       "-i", p.data, "--kallsyms", p.kallsyms, "--symfs", m->symfs,
			       NULL };
	run_perf(self->d.path, args, &run);
	n = run.status ? -1 : lines_with(run.out, "PERF_RECORD_MMAP2");
	if (n < 0)
		TH_LOG("perf exited %d: %s", run.status, run.err ? run.err : "");
	host_run_free(&run);
	return n;
}

/*
 * [ACA-EXT] A target that answered MODULE_SNAPSHOT describes each live
 * mapping again at STOP: module.bin holding every record twice gives the
 * same MMAP2 records, once each, and the same hottest functions.
 */
TEST_F(dir, mappings_described_twice_are_one_mmap2)
{
	struct spin_syms m;
	char path[PATH_MAX + 32];
	uint8_t *buf;
	size_t len;
	int once;
	FILE *f;

	ASSERT_EQ(0, spin_collection(&self->d, &m, 0));
	once = mmap2_lines(_metadata, self, &m);
	ASSERT_LT(0, once);
	snprintf(path, sizeof(path), "%s/module.bin", self->d.path);
	buf = read_whole_file(path, 1 << 24, &len);
	ASSERT_NE(NULL, buf);
	f = fopen(path, "ab");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fwrite(buf, len, 1, f));
	ASSERT_EQ(0, fclose(f));
	free(buf);
	EXPECT_EQ(once, mmap2_lines(_metadata, self, &m));
	same_top(_metadata, self, &m, 0);
}

TEST_HARNESS_MAIN
