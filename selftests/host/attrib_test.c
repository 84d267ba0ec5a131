// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attribution: processes, modules, functions, TSC windows, kernel IPs.
 * Its own program, build/tests/host_attrib_test.
 */
#include <fnmatch.h>

#include "host_fixture.h"

#define KERNEL_BASE	0xffffffff81000000ull

/*
 * The real thing: spin's own mappings as the target would report them and
 * samples at the address it says aca_hot_spin() is at; the report must
 * find that function in spin's ELF symbols, and libc's qsort() in libc's
 * (stripped: only .dynsym) through this test's own mappings.
 */
TEST_F(dir, spin_samples_land_in_aca_hot_spin)
{
	char exe[4096], proc[64], key[8192], *spin_real;
	const char *spin = synth_spin_path();
	uint64_t hot, qsort_ip = (uintptr_t)qsort;
	uint32_t me = getpid();
	int status, n;
	pid_t pid;

	spin_real = realpath(spin, NULL);
	ASSERT_NE(NULL, spin_real);
	pid = synth_spin("1", "1", &hot);
	ASSERT_LT(0, pid);
	n = synth_maps(&self->d.modules, pid, pid, spin_real);
	ASSERT_LE(2, n);	/* spin's text and libc's at least */
	snprintf(proc, sizeof(proc), "/proc/%u/exe", me);
	ASSERT_LT(0, readlink(proc, exe, sizeof(exe) - 1));
	exe[readlink(proc, exe, sizeof(exe) - 1)] = 0;
	ASSERT_LE(2, synth_maps(&self->d.modules, me, me, exe));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	for (int i = 0; i < 90; i++)
		synth_sample(&self->d.cpu0, SAMPLE_SIZE, hot + i % 8, pid, pid, 1000 + i, 0);
	for (int i = 0; i < 10; i++)
		synth_sample(&self->d.cpu0, SAMPLE_SIZE, qsort_ip + 4, me, me, 2000 + i, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	if (self->d.warn_len)
		TH_LOG("report said: %s", self->d.warn);
	EXPECT_EQ(0, self->d.ret);
	EXPECT_EQ(100, self->d.r.samples);
	EXPECT_EQ(100, self->d.r.with_module);
	EXPECT_EQ(100, self->d.r.with_function);
	EXPECT_EQ(90, tally_get(&self->d.r.functions, "aca_hot_spin (spin)"));
	EXPECT_EQ(90, tally_get(&self->d.r.modules, spin_real));
	snprintf(key, sizeof(key), "%d %s", (int)pid, spin_real);
	EXPECT_EQ(90, tally_get(&self->d.r.processes, key));
	/*
	 * qsort may have an alias of the same address, and under ASan it is
	 * the interceptor in libasan: either way, a symbol named for it.
	 */
	n = 0;
	for (size_t i = 0; i < self->d.r.functions.cap; i++) {
		const struct tally_entry *e = &self->d.r.functions.slots[i];

		if (e->key && strstr(e->key, "qsort") && strstr(e->key, ".so"))
			n += e->count;
	}
	EXPECT_EQ(10, n);
	free(spin_real);
}

/* With --sysroot the module files are looked up below it. */
TEST_F(dir, sysroot_is_prepended_to_module_paths)
{
	const char *spin = synth_spin_path();
	char *spin_real, fake[8192];
	uint64_t hot;
	int status;
	pid_t pid;

	spin_real = realpath(spin, NULL);
	ASSERT_NE(NULL, spin_real);
	pid = synth_spin("1", "0.2", &hot);
	ASSERT_LT(0, pid);
	ASSERT_LE(1, synth_maps(&self->d.modules, pid, pid, spin_real));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, hot, pid, pid, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	/* "/" is the same as no sysroot. */
	ASSERT_EQ(0, run_report(&self->d, "/"));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "aca_hot_spin (spin)"));
	/* A sysroot without the file: module found, function not. */
	ASSERT_EQ(0, run_report(&self->d, self->d.path));
	EXPECT_EQ(1, self->d.r.with_module);
	EXPECT_EQ(0, self->d.r.with_function);
	/* Named by its place in the file instead. */
	for (size_t i = 0; i < self->d.r.functions.cap; i++) {
		const char *key = self->d.r.functions.slots[i].key;

		if (key)
			EXPECT_EQ(0, fnmatch("spin+0x* (spin)", key, 0)) TH_LOG("%s", key);
	}
	snprintf(fake, sizeof(fake), "%s%s", self->d.path, spin_real);
	EXPECT_TRUE(said(&self->d, fake));
	free(spin_real);
}

/* Same range, different lifetimes: the record alive at the sample wins. */
TEST_F(dir, tsc_window_picks_the_mapping_of_the_moment)
{
	/* a: mapped until 500; b: mapped from 600 on; c: a STOP-time record. */
	synth_module(&self->d.modules, 100, 0x400000, 0x1000, 0, 0, 500, SEP_MR_EXE, "/x/a");
	synth_module(&self->d.modules, 100, 0x400000, 0x1000, 0, 600, LOADED, SEP_MR_EXE, "/x/b");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400010, 100, 100, 400, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400010, 100, 100, 500, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400010, 100, 100, 550, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400010, 100, 100, 700, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x401000, 100, 100, 700, 0); /* past the end */
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(5, self->d.r.samples);
	EXPECT_EQ(2, tally_get(&self->d.r.modules, "/x/a"));
	EXPECT_EQ(1, tally_get(&self->d.r.modules, "/x/b"));
	EXPECT_EQ(2, tally_get(&self->d.r.modules, "[no module record]"));
	/* The process is named by its executable still loaded. */
	EXPECT_EQ(5, tally_get(&self->d.r.processes, "100 /x/b"));

	/* A record of unknown load time alive to the end overlaps a. */
	synth_module(&self->d.modules, 100, 0x400000, 0x1000, 0, 0, LOADED, 0, "/x/c");
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(2, tally_get(&self->d.r.modules, "/x/a"));	/* ended soonest */
	EXPECT_EQ(1, tally_get(&self->d.r.modules, "/x/c"));	/* 550: only c */
	EXPECT_EQ(1, tally_get(&self->d.r.modules, "/x/b"));	/* 700: b loaded later */
}

TEST_F(dir, other_processes_records_never_match)
{
	synth_module(&self->d.modules, 200, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, "/x/p200");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400010, 201, 201, 1, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400010, 200, 200, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, tally_get(&self->d.r.modules, "/x/p200"));
	EXPECT_EQ(1, tally_get(&self->d.r.processes, "201 [unknown]"));
}

/* Unmap/exit records may carry the thread's id (spec 7.3 quirk). */
TEST_F(dir, records_under_a_thread_id_still_match)
{
	synth_module(&self->d.modules, 301, 0x400000, 0x1000, 0, 0, 900, 0, "/x/t");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400010, 300, 301, 800, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, tally_get(&self->d.r.modules, "/x/t"));
}

TEST_F(dir, kernel_ips_go_to_pid_0_records)
{
	synth_module(&self->d.modules, 0, KERNEL_BASE, 0x2000000, 0, 0, LOADED,
		     SEP_MR_EXE | SEP_MR_GLOBAL_MODULE, "vmlinux");
	synth_module(&self->d.modules, 0, 0xffffffffc0000000ull, 0x10000, 0, 0, LOADED,
		     SEP_MR_GLOBAL_MODULE, "aca");
	synth_module(&self->d.modules, 42, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, "/bin/x");
	/* A system call of pid 42, a module's code, the idle task. */
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, KERNEL_BASE + 0x1234, 42, 42, 1, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0xffffffffc0000100ull, 42, 42, 2, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, KERNEL_BASE + 0x10, 0, 0, 3, 0);
	/* Kernel addresses outside every record. */
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0xffffffffa0000000ull, 42, 42, 4, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(4, self->d.r.kernel);
	EXPECT_EQ(2, tally_get(&self->d.r.modules, "vmlinux"));
	EXPECT_EQ(1, tally_get(&self->d.r.modules, "aca"));
	EXPECT_EQ(1, tally_get(&self->d.r.modules, "[kernel: no module record]"));
	/* Unnamed: the offset from the record's start. */
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "vmlinux+0x1234 (vmlinux)"));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "vmlinux+0x10 (vmlinux)"));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "[unknown] ([kernel: no module record])"));
	EXPECT_EQ(3, tally_get(&self->d.r.processes, "42 /bin/x"));
	EXPECT_EQ(1, tally_get(&self->d.r.processes, "0 [swapper]"));
	/* Names that are not paths are never opened. */
	EXPECT_FALSE(said(&self->d, "vmlinux"));
}

TEST_F(dir, records_larger_than_48_bytes_use_the_configured_size)
{
	synth_module(&self->d.modules, 7, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, "/x/big");
	for (int i = 0; i < 5; i++)
		synth_sample(&self->d.cpu0, 80, 0x400000 + i, 7, 7, i, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, 80));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(0, self->d.ret);
	EXPECT_EQ(5, self->d.r.samples);
	EXPECT_EQ(5, tally_get(&self->d.r.modules, "/x/big"));
}

TEST_F(dir, report_prints_three_sorted_tables_and_totals)
{
	struct report_opts o = { .top = 2 };
	char *out = NULL;
	size_t len;
	FILE *f;

	for (int p = 1; p <= 3; p++) {
		char path[32];

		snprintf(path, sizeof(path), "/x/p%d", p);
		synth_module(&self->d.modules, p, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, path);
		for (int i = 0; i < p * 10; i++)
			synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400000, p, p, i, 0);
	}
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	f = open_memstream(&out, &len);
	ASSERT_NE(NULL, f);
	report_print(&self->d.r, &o, self->d.path, f);
	fclose(f);
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "samples              60"));
	EXPECT_NE(NULL, strstr(out, "By process (top 2 of 3)"));
	EXPECT_NE(NULL, strstr(out, "By module (top 2 of 3)"));
	EXPECT_NE(NULL, strstr(out, "By function (top 2 of 3)"));
	/* Most first, and the third is cut. */
	EXPECT_NE(NULL, strstr(out, "        30   50.00%  3 /x/p3\n        20   33.33%  2 /x/p2\n"));
	EXPECT_EQ(NULL, strstr(out, "1 /x/p1"));
	EXPECT_NE(NULL, strstr(out, "p3+0x0 (p3)"));
	free(out);
}

/* --pid: the tables and percentages are of that process alone. */
TEST_F(dir, pid_filter_reports_one_process)
{
	struct report_opts o = { .only_pid = 1, .pid = 2 };
	char *out = NULL;
	size_t len;
	FILE *f;

	for (int p = 1; p <= 3; p++) {
		synth_module(&self->d.modules, p, 0x400000, 0x1000, 0, 0, LOADED, SEP_MR_EXE, "/x/p");
		for (int i = 0; i < p * 10; i++)
			synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400000, p, p, i, 0);
	}
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, synth_write(self->d.path, "cpu0.bin", self->d.cpu0.p, self->d.cpu0.len));
	ASSERT_EQ(0, synth_write(self->d.path, "module.bin", self->d.modules.p, self->d.modules.len));
	ASSERT_EQ(0, report_load(self->d.path, &o, &self->d.r));
	EXPECT_EQ(60, self->d.r.all_samples);
	EXPECT_EQ(20, self->d.r.samples);
	EXPECT_EQ(20, tally_get(&self->d.r.processes, "2 /x/p"));
	EXPECT_EQ(0, tally_get(&self->d.r.processes, "3 /x/p"));
	f = open_memstream(&out, &len);
	ASSERT_NE(NULL, f);
	report_print(&self->d.r, &o, self->d.path, f);
	fclose(f);
	EXPECT_NE(NULL, strstr(out, "pid filter           20   33.33% of all, pid 2 alone below"));
	EXPECT_NE(NULL, strstr(out, "        20  100.00%  p+0x0 (p)\n"));
	free(out);
}

TEST_HARNESS_MAIN
