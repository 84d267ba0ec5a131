// SPDX-License-Identifier: GPL-2.0-only
/*
 * The target's kernel symbols (KERNEL_SYMBOLS, spec 4.6): aca-host collect
 * names the kernel addresses of its samples before TERMINATE and writes
 * DIR/kallsyms and DIR/kallsyms.size (empty without kernel samples); a
 * target that will not is said once and the collection stands; report
 * names kernel samples from them when given neither --kallsyms nor
 * --vmlinux, within each symbol's size.
 * Its own program, build/tests/host_ksyms_test.
 */
#include "host_fixture.h"
#include "../../tools/aca-host/kallsyms.h"
#include "../../tools/aca-host/ksym_collect.h"

static char *dir_file(FIXTURE_DATA(dir) *self, const char *sub, const char *name)
{
	char path[4200];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s/%s", self->d.path, sub, name);
	return (char *)read_whole_file(path, 16 << 20, &len);
}

static size_t count_of(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; p && (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

TEST_F_TIMEOUT(dir, collect_writes_kallsyms_from_the_targets_answers, 60)
{
	struct mock_target m = { .samples_per_cpu = 10, .kernel_samples = 10 };
	char *ks, *sizes, *txt;

	EXPECT_EQ(0, run_collect(&self->d, &m, NULL)) TH_LOG("%s", self->d.run.err);
	EXPECT_EQ(0, m.failed) TH_LOG("target: %s", m.why);
	ks = dir_file(self, "c", "kallsyms");
	sizes = dir_file(self, "c", "kallsyms.size");
	txt = collection_txt(&self->d);
	ASSERT_NE(NULL, ks);
	ASSERT_NE(NULL, sizes);
	ASSERT_NE(NULL, txt);
	/* /proc/kallsyms' format, sorted, each symbol once. */
	EXPECT_STREQ("ffffffff81100000 t mock_kernel_hot\n"
		     "ffffffffc0001000 t mock_mod_fn\t[mock_mod]\n", ks);
	EXPECT_STREQ("ffffffff81100000 100\nffffffffc0001000 80\n", sizes);
	/* 16 distinct kernel IPs (10 hot, 5 in the module, the gap), asked once. */
	EXPECT_EQ(1, m.ksym_requests);
	EXPECT_EQ(16, m.ksym_addrs);
	EXPECT_NE(NULL, strstr(txt, "\nkernel_symbols=2\n"));
	EXPECT_NE(NULL, strstr(txt, "\ncomplete=1\n"));
	EXPECT_NE(NULL, strstr(self->d.run.out, "2 symbols named by the target"));
	EXPECT_EQ(NULL, strstr(self->d.run.err, "KERNEL_SYMBOLS")) TH_LOG("%s", self->d.run.err);
	/* Asked after STOP, before TERMINATE. */
	for (int i = 0; i < m.ncommands; i++)
		if (m.commands[i] == ACA_CMD_KERNEL_SYMBOLS) {
			EXPECT_EQ(SEP_CMD_TERMINATE, m.commands[i + 1]);
		}
	free(ks);
	free(sizes);
	free(txt);
}

TEST_F_TIMEOUT(dir, collect_asks_at_most_1024_addresses_at_a_time, 60)
{
	struct mock_target m = { .samples_per_cpu = 10, .kernel_samples = 10,
				 .unknown_kernel = 2000 };
	char *ks;

	EXPECT_EQ(0, run_collect(&self->d, &m, NULL)) TH_LOG("%s", self->d.run.err);
	EXPECT_EQ(0, m.failed) TH_LOG("target: %s", m.why);
	EXPECT_EQ(2, m.ksym_requests);
	EXPECT_EQ(ACA_KSYM_MAX_ADDRS, m.ksym_max_batch);
	EXPECT_EQ(2016, m.ksym_addrs);
	ks = dir_file(self, "c", "kallsyms");
	ASSERT_NE(NULL, ks);
	EXPECT_EQ(2, count_of(ks, "\n"));
	free(ks);
}

/*
 * No sample in the kernel: nothing asked, and DIR/kallsyms and its sizes
 * written empty all the same (perf report --kallsyms of a missing file
 * prints nothing); report takes no kernel names from it and says nothing.
 */
TEST_F_TIMEOUT(dir, collect_writes_empty_kallsyms_without_kernel_samples, 60)
{
	struct mock_target m = { .samples_per_cpu = 10 };
	struct report_opts o = { 0 };
	char dir[4200], *ks, *sizes, *txt, *text = NULL;
	size_t len = 0;
	FILE *f;

	EXPECT_EQ(0, run_collect(&self->d, &m, NULL)) TH_LOG("%s", self->d.run.err);
	EXPECT_EQ(0, m.failed) TH_LOG("target: %s", m.why);
	EXPECT_EQ(0, m.ksym_requests);
	ks = dir_file(self, "c", "kallsyms");
	sizes = dir_file(self, "c", "kallsyms.size");
	txt = collection_txt(&self->d);
	ASSERT_NE(NULL, ks);
	ASSERT_NE(NULL, sizes);
	ASSERT_NE(NULL, txt);
	EXPECT_STREQ("", ks);
	EXPECT_STREQ("", sizes);
	EXPECT_NE(NULL, strstr(txt, "\nkernel_symbols=0\n"));
	snprintf(dir, sizeof(dir), "%s/c", self->d.path);
	EXPECT_EQ(0, report_load(dir, &o, &self->d.r));
	EXPECT_STREQ("", self->d.r.default_kallsyms);
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	report_print(&self->d.r, &o, dir, f);
	fclose(f);
	EXPECT_EQ(NULL, strstr(text, "kallsyms")) TH_LOG("%s", text);
	free(text);
	free(ks);
	free(sizes);
	free(txt);
}

/*
 * A target that refuses (an unprivileged aca session: 213; an older aca or
 * another SEP target: 159): said once, no kallsyms, a good collection.
 */
TEST_F_TIMEOUT(dir, refusing_target_still_gives_a_good_collection, 60)
{
	static const int statuses[] = { VT_NO_ADMIN_PRIVILEGE, VT_DRIVER_COMM_FAILED };

	for (size_t i = 0; i < 2; i++) {
		struct mock_target m = { .samples_per_cpu = 10, .kernel_samples = 10,
					 .fail_command = ACA_CMD_KERNEL_SYMBOLS,
					 .fail_status = statuses[i] };
		char sub[8], want[64], path[4200], *txt;

		snprintf(sub, sizeof(sub), "c%zu", i);
		EXPECT_EQ(0, run_collect_to(&self->d, &m, sub, NULL)) TH_LOG("%s", self->d.run.err);
		EXPECT_EQ(0, m.failed) TH_LOG("target: %s", m.why);
		ASSERT_NE(NULL, self->d.run.err);
		snprintf(want, sizeof(want), "KERNEL_SYMBOLS: status %d", statuses[i]);
		EXPECT_NE(NULL, strstr(self->d.run.err, want)) TH_LOG("%s", self->d.run.err);
		EXPECT_EQ(1, count_of(self->d.run.err, "KERNEL_SYMBOLS")) TH_LOG("%s", self->d.run.err);
		EXPECT_TRUE(m.terminate_seen);
		snprintf(path, sizeof(path), "%s/%s/kallsyms", self->d.path, sub);
		EXPECT_NE(0, access(path, F_OK));
		txt = dir_file(self, sub, "collection.txt");
		ASSERT_NE(NULL, txt);
		EXPECT_NE(NULL, strstr(txt, "\nkernel_symbols=0\n"));
		EXPECT_NE(NULL, strstr(txt, "\nall_eof=1\ncomplete=1\n"));
		free(txt);
	}
}

/*
 * aca hides kernel addresses from a person its /proc/kallsyms would (every
 * slot empty, status 0): said once, with why, and an empty kallsyms.
 */
TEST_F_TIMEOUT(dir, hidden_kernel_addresses_are_said_with_why, 60)
{
	struct mock_target m = { .samples_per_cpu = 10, .kernel_samples = 10,
				 .ksym_hidden = 1 };
	char *ks;

	EXPECT_EQ(0, run_collect(&self->d, &m, NULL)) TH_LOG("%s", self->d.run.err);
	EXPECT_EQ(0, m.failed) TH_LOG("target: %s", m.why);
	EXPECT_LT(0, m.ksym_requests);
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, "the target named none of the "))
		TH_LOG("%s", self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, "kptr_restrict, CAP_SYSLOG"));
	EXPECT_EQ(1, count_of(self->d.run.err, "named none")) TH_LOG("%s", self->d.run.err);
	ks = dir_file(self, "c", "kallsyms");
	ASSERT_NE(NULL, ks);
	EXPECT_STREQ("", ks);
	free(ks);
}

/*
 * report DIR names kernel samples from DIR/kallsyms by default, and says
 * so; an address past its symbol's size (MOCK_KGAP) stays unnamed rather
 * than taking the nearest name below. --kallsyms overrides it.
 */
TEST_F_TIMEOUT(dir, report_names_kernel_samples_from_dir_kallsyms_by_default, 60)
{
	struct mock_target m = { .samples_per_cpu = 10, .kernel_samples = 10 };
	struct report_opts o = { 0 };
	char dir[4200], ks[4300], *text = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(0, run_collect(&self->d, &m, NULL)) TH_LOG("%s", self->d.run.err);
	snprintf(dir, sizeof(dir), "%s/c", self->d.path);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	EXPECT_EQ(0, report_load(dir, &o, &self->d.r));
	EXPECT_STREQ(ks, self->d.r.default_kallsyms);
	EXPECT_EQ(10, tally_get(&self->d.r.functions, "mock_kernel_hot (vmlinux)"));
	EXPECT_EQ(5, tally_get(&self->d.r.functions, "mock_mod_fn (mock_mod)"));
	EXPECT_EQ(5, tally_get(&self->d.r.functions, "vmlinux+0x100200 (vmlinux)"));
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	report_print(&self->d.r, &o, dir, f);
	fclose(f);
	EXPECT_NE(NULL, strstr(text, "kernel names")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, ks)) TH_LOG("%s", text);
	free(text);
	/* Given --kallsyms (the same file here), that is used, and no default said. */
	report_free(&self->d.r);
	o.kallsyms = ks;
	EXPECT_EQ(0, report_load(dir, &o, &self->d.r));
	EXPECT_STREQ("", self->d.r.default_kallsyms);
	EXPECT_EQ(10, tally_get(&self->d.r.functions, "mock_kernel_hot (vmlinux)"));
	/* And without the file, kernel samples keep MODULE+0xOFFSET. */
	report_free(&self->d.r);
	o.kallsyms = NULL;
	ASSERT_EQ(0, unlink(ks));
	EXPECT_EQ(0, report_load(dir, &o, &self->d.r));
	EXPECT_STREQ("", self->d.r.default_kallsyms);
	EXPECT_EQ(10, tally_get(&self->d.r.functions, "vmlinux+0x100000 (vmlinux)") +
		      tally_get(&self->d.r.functions, "vmlinux+0x100001 (vmlinux)") +
		      tally_get(&self->d.r.functions, "vmlinux+0x100002 (vmlinux)") +
		      tally_get(&self->d.r.functions, "vmlinux+0x100003 (vmlinux)") +
		      tally_get(&self->d.r.functions, "vmlinux+0x100004 (vmlinux)") +
		      tally_get(&self->d.r.functions, "vmlinux+0x100005 (vmlinux)") +
		      tally_get(&self->d.r.functions, "vmlinux+0x100006 (vmlinux)") +
		      tally_get(&self->d.r.functions, "vmlinux+0x100007 (vmlinux)") +
		      tally_get(&self->d.r.functions, "vmlinux+0x100008 (vmlinux)") +
		      tally_get(&self->d.r.functions, "vmlinux+0x100009 (vmlinux)"));
}

/* A kallsyms copy with sizes beside it: nothing past a symbol's end is its. */
TEST_F(dir, kallsyms_size_file_bounds_each_symbol)
{
	static const char text[] = "ffffffff81000000 T first\n"
				   "ffffffff81000100 T second\n"
				   "ffffffffc0000000 t modfn\t[mod]\n";
	static const char sizes[] = "ffffffff81000000 40\n"
				    "not a line\n"
				    "ffffffffc0000000 10\n";
	char path[4200], err[256];
	struct ksyms k;

	ASSERT_EQ(0, synth_write(self->d.path, "ks", text, strlen(text)));
	snprintf(path, sizeof(path), "%s/ks", self->d.path);
	/* Without the size file: the nearest symbol below. */
	ASSERT_EQ(0, ksyms_load(path, &k, err, sizeof(err)));
	ASSERT_NE(NULL, ksyms_at(&k, 0xffffffff81000080ull, ""));
	EXPECT_STREQ("first", ksyms_at(&k, 0xffffffff81000080ull, "")->name);
	ksyms_free(&k);
	ASSERT_EQ(0, synth_write(self->d.path, "ks.size", sizes, strlen(sizes)));
	ASSERT_EQ(0, ksyms_load(path, &k, err, sizeof(err)));
	EXPECT_EQ(1, k.malformed);
	ASSERT_NE(NULL, ksyms_at(&k, 0xffffffff8100003full, ""));
	EXPECT_STREQ("first", ksyms_at(&k, 0xffffffff8100003full, "")->name);
	EXPECT_EQ(NULL, ksyms_at(&k, 0xffffffff81000040ull, ""));
	EXPECT_EQ(NULL, ksyms_at(&k, 0xffffffff81000080ull, ""));
	/* No size known: up to the next symbol, as before. */
	ASSERT_NE(NULL, ksyms_at(&k, 0xffffffff81009000ull, ""));
	EXPECT_STREQ("second", ksyms_at(&k, 0xffffffff81009000ull, "")->name);
	ASSERT_NE(NULL, ksyms_at(&k, 0xffffffffc000000full, "mod"));
	EXPECT_EQ(NULL, ksyms_at(&k, 0xffffffffc0000010ull, "mod"));
	ksyms_free(&k);
}

/* One record of @size bytes with a callstack area at 48: @nk kernel callers, @nu user ones. */
static void callstack_sample(struct sbuf *b, size_t size, uint64_t ip, const uint64_t *chain,
			     uint16_t nk, uint16_t nu)
{
	struct aca_callstack_head h = { .nkernel = nk, .nuser = nu };
	size_t at = b->len;

	synth_sample(b, size, ip, 7, 7, 1, 0);
	memcpy(b->p + at + 48, &h, sizeof(h));
	memcpy(b->p + at + 48 + sizeof(h), chain, (size_t)(nk + nu) * 8);
}

/*
 * The addresses collect asks: kernel-mode IPs as they are, kernel callers
 * minus 1 (return addresses), never user ones, each once, ascending.
 */
TEST_F(dir, kernel_addresses_are_ips_and_kernel_callers_each_once)
{
	const struct record_layout l = { .size = 96, .callstack_offset = 48,
					 .callstack_size = 48 };
	const uint64_t k1[] = { 0xffffffff81000105ull, 0xffffffff81000200ull, 0x401000 };
	const uint64_t k2[] = { 0xffffffff81000200ull };
	const uint64_t u1[] = { 0x402000, 0x403000 };
	struct ksym_addrs a;
	char err[256];
	struct sbuf cpu1 = { 0 };

	callstack_sample(&self->d.cpu0, l.size, 0xffffffff81000010ull, k1, 2, 1);
	callstack_sample(&self->d.cpu0, l.size, 0xffffffff81000010ull, k2, 1, 0);
	callstack_sample(&self->d.cpu0, l.size, 0x400010, u1, 0, 2);
	callstack_sample(&cpu1, l.size, 0xffffffffc0000020ull, k2, 1, 0);
	ASSERT_EQ(0, synth_write(self->d.path, "cpu0.bin", self->d.cpu0.p, self->d.cpu0.len));
	ASSERT_EQ(0, synth_write(self->d.path, "cpu1.bin", cpu1.p, cpu1.len));
	sbuf_free(&cpu1);
	ASSERT_EQ(0, ksym_gather(self->d.path, 2, &l, 0, &a, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(4, a.n);
	EXPECT_EQ(0xffffffff81000010ull, a.v[0]);
	EXPECT_EQ(0xffffffff81000104ull, a.v[1]);
	EXPECT_EQ(0xffffffff810001ffull, a.v[2]);
	EXPECT_EQ(0xffffffffc0000020ull, a.v[3]);
	ksym_addrs_free(&a);
	/* Records of another size than asked: refused, not misread. */
	const struct record_layout bad = { .size = 96, .callstack_offset = 44,
					   .callstack_size = 48 };
	EXPECT_EQ(-1, ksym_gather(self->d.path, 2, &bad, 0, &a, err, sizeof(err)));
}

/* KSYM_IPS_ONLY (aca-host top's refreshes): the kernel-mode IPs alone. */
TEST_F(dir, ips_only_leaves_the_callers_out)
{
	const struct record_layout l = { .size = 96, .callstack_offset = 48,
					 .callstack_size = 48 };
	const uint64_t k1[] = { 0xffffffff81000105ull, 0xffffffff81000200ull };
	struct ksym_addrs a;
	char err[256];

	callstack_sample(&self->d.cpu0, l.size, 0xffffffff81000010ull, k1, 2, 0);
	callstack_sample(&self->d.cpu0, l.size, 0xffffffffc0000020ull, k1, 1, 0);
	ASSERT_EQ(0, synth_write(self->d.path, "cpu0.bin", self->d.cpu0.p, self->d.cpu0.len));
	ASSERT_EQ(0, ksym_gather(self->d.path, 1, &l, KSYM_IPS_ONLY, &a, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(2, a.n);
	EXPECT_EQ(0xffffffff81000010ull, a.v[0]);
	EXPECT_EQ(0xffffffffc0000020ull, a.v[1]);
	ksym_addrs_free(&a);
}

/* The slots of the answer, as spec 4.6 has them, and everything else. */
TEST_F(dir, kernel_symbols_slots_are_parsed_strictly)
{
	static const struct {
		const char *line;
		uint64_t addr;
		int want;
	} cases[] = {
		{ "ffffffff81000000 40 startup_64", 0xffffffff81000010ull, 1 },
		{ "ffffffffc0001000 2c8 ext4_readdir ext4", 0xffffffffc00012c7ull, 1 },
		{ "", 0xffffffff81000010ull, 0 },
		/* the symbol does not hold the address */
		{ "ffffffff81000000 40 startup_64", 0xffffffff81000040ull, -1 },
		{ "ffffffff81000000 0 startup_64", 0xffffffff81000000ull, -1 },
		{ "ffffffff81000000 40 startup_64", 0xffffffff80ffffffull, -1 },
		/* not the line */
		{ "ffffffff8100000 40 startup_64", 0xffffffff81000010ull, -1 },
		{ "FFFFFFFF81000000 40 startup_64", 0xffffffff81000010ull, -1 },
		{ "0xffffffff81000000 40 startup_64", 0xffffffff81000010ull, -1 },
		{ "ffffffff81000000 40", 0xffffffff81000010ull, -1 },
		{ "ffffffff81000000 40 ", 0xffffffff81000010ull, -1 },
		{ "ffffffff81000000 40 startup_64 ", 0xffffffff81000010ull, -1 },
		{ "ffffffff81000000 40 a b c", 0xffffffff81000010ull, -1 },
		{ "ffffffff81000000  40 startup_64", 0xffffffff81000010ull, -1 },
		{ "ffffffff81000000 40 start\tup", 0xffffffff81000010ull, -1 },
		{ "ffffffff81000000 40 x m123456789_123456789_123456789_123456789_123456789_123456",
		  0xffffffff81000010ull, -1 },
	};
	uint8_t slot[ACA_KSYM_SLOT_SIZE];
	struct ksym_answer a;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(slot, 0, sizeof(slot));
		memcpy(slot, cases[i].line, strlen(cases[i].line));
		EXPECT_EQ(cases[i].want, ksym_parse_slot(slot, cases[i].addr, &a))
			TH_LOG("\"%s\"", cases[i].line);
	}
	ASSERT_EQ(1, ksym_parse_slot((const uint8_t *)"ffffffffc0001000 2c8 ext4_readdir ext4\0",
				     0xffffffffc0001000ull, &a));
	EXPECT_EQ(0xffffffffc0001000ull, a.start);
	EXPECT_EQ(0x2c8, a.size);
	EXPECT_STREQ("ext4_readdir", a.name);
	EXPECT_STREQ("ext4", a.module);
	/* An empty slot is zeros throughout; a slot without a NUL is nothing. */
	memset(slot, 0, sizeof(slot));
	slot[100] = 1;
	EXPECT_EQ(-1, ksym_parse_slot(slot, 0xffffffff81000010ull, &a));
	memset(slot, 'a', sizeof(slot));
	EXPECT_EQ(-1, ksym_parse_slot(slot, 0xffffffff81000010ull, &a));
}

TEST_HARNESS_MAIN
