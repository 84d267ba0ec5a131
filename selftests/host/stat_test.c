// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host stat without a target: its event names (perf's, aliases,
 * duplicates, limits) and its lines, from synthetic READ_AND_RESET replies.
 * Its own program, build/tests/host_stat_test.
 */
#include "host_fixture.h"
#include "../../tools/aca-host/stat_events.h"
#include "../../tools/aca-host/stat_out.h"

static int add_events(struct stat_events *s, const char *list, char *err, size_t len)
{
	memset(s, 0, sizeof(*s));
	return stat_events_add(s, list, err, len);
}

TEST(stat_names_are_perfs)
{
	static const struct {
		const char *name;
		int sw, num, msec;
	} names[] = {
		{ "task-clock", 1, ACA_SW_TASK_CLOCK, 1 },
		{ "cpu-clock", 1, ACA_SW_CPU_CLOCK, 1 },
		{ "context-switches", 1, ACA_SW_CONTEXT_SWITCHES, 0 },
		{ "cpu-migrations", 1, ACA_SW_CPU_MIGRATIONS, 0 },
		{ "page-faults", 1, ACA_SW_PAGE_FAULTS, 0 },
		{ "minor-faults", 1, ACA_SW_PAGE_FAULTS_MIN, 0 },
		{ "major-faults", 1, ACA_SW_PAGE_FAULTS_MAJ, 0 },
		{ "INST_RETIRED.ANY", 0, 0, 0 },
		{ "CPU_CLK_UNHALTED.THREAD", 0, 1, 0 },
		{ "CPU_CLK_UNHALTED.REF_TSC", 0, 2, 0 },
	};
	struct stat_event e;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ASSERT_EQ(0, stat_event_lookup(names[i].name, &e)) TH_LOG("%s", names[i].name);
		EXPECT_EQ(names[i].sw, e.ev.sw) TH_LOG("%s", names[i].name);
		EXPECT_EQ(names[i].num, e.ev.num) TH_LOG("%s", names[i].name);
		EXPECT_EQ(names[i].msec, e.msec) TH_LOG("%s", names[i].name);
		EXPECT_STREQ(names[i].name, e.name);
	}
}

TEST(stat_aliases_name_the_same_event_and_keep_their_spelling)
{
	static const char *const pairs[][2] = {
		{ "cs", "context-switches" }, { "migrations", "cpu-migrations" },
		{ "faults", "page-faults" }, { "instructions", "INST_RETIRED.ANY" },
		{ "cycles", "CPU_CLK_UNHALTED.THREAD" },
		{ "cpu-cycles", "CPU_CLK_UNHALTED.THREAD" },
		{ "ref-cycles", "CPU_CLK_UNHALTED.REF_TSC" },
	};
	struct stat_event a, b;

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		ASSERT_EQ(0, stat_event_lookup(pairs[i][0], &a));
		ASSERT_EQ(0, stat_event_lookup(pairs[i][1], &b));
		EXPECT_EQ(b.ev.sw, a.ev.sw) TH_LOG("%s", pairs[i][0]);
		EXPECT_EQ(b.ev.num, a.ev.num) TH_LOG("%s", pairs[i][0]);
		EXPECT_STREQ(pairs[i][0], a.name);
	}
}

TEST(stat_unknown_and_empty_names_are_refused)
{
	struct stat_events s;
	char err[128];

	EXPECT_EQ(-1, add_events(&s, "branch-misses", err, sizeof(err)));
	EXPECT_STREQ("unknown event 'branch-misses'", err);
	EXPECT_EQ(-1, add_events(&s, "task-clock:u", err, sizeof(err)));
	EXPECT_EQ(-1, add_events(&s, "task-clock,,cs", err, sizeof(err)));
	EXPECT_STREQ("an empty event name", err);
	EXPECT_EQ(-1, add_events(&s, "", err, sizeof(err)));
}

TEST(stat_comma_lists_add_in_order)
{
	struct stat_events s;
	char err[128];

	ASSERT_EQ(0, add_events(&s, "cs,task-clock", err, sizeof(err)));
	ASSERT_EQ(0, stat_events_add(&s, "instructions", err, sizeof(err)));
	ASSERT_EQ(3, s.n);
	EXPECT_STREQ("cs", s.e[0].name);
	EXPECT_STREQ("task-clock", s.e[1].name);
	EXPECT_STREQ("instructions", s.e[2].name);
	EXPECT_TRUE(stat_events_need_pmu(&s));
}

TEST(stat_the_same_event_twice_is_refused)
{
	struct stat_events s;
	char err[128];

	EXPECT_EQ(-1, add_events(&s, "cs,context-switches", err, sizeof(err)));
	EXPECT_STREQ("event context-switches given twice (as cs)", err);
	EXPECT_EQ(-1, add_events(&s, "faults,faults", err, sizeof(err)));
	EXPECT_STREQ("event faults given twice", err);
}

TEST(stat_at_most_eight_events)
{
	struct stat_events s;
	char err[128];

	ASSERT_EQ(0, add_events(&s, "task-clock,cpu-clock,cs,migrations,faults,"
				"minor-faults,major-faults,cycles", err, sizeof(err)));
	EXPECT_EQ(8, s.n);
	EXPECT_EQ(-1, stat_events_add(&s, "instructions", err, sizeof(err)));
	EXPECT_STREQ("more than 8 events", err);
}

TEST(stat_default_events_need_no_pmu)
{
	struct stat_events s;
	char err[128];

	ASSERT_EQ(0, add_events(&s, STAT_DEFAULT_EVENTS, err, sizeof(err)));
	EXPECT_EQ(4, s.n);
	EXPECT_FALSE(stat_events_need_pmu(&s));
}

TEST(stat_counts_have_thousands_separators_and_msec_two_decimals)
{
	char buf[64];

	stat_format_count(buf, sizeof(buf), 0, 0, 1);
	EXPECT_STREQ("0", buf);
	stat_format_count(buf, sizeof(buf), 999, 0, 1);
	EXPECT_STREQ("999", buf);
	stat_format_count(buf, sizeof(buf), 1234567, 0, 1);
	EXPECT_STREQ("1,234,567", buf);
	stat_format_count(buf, sizeof(buf), 1234567, 0, 0);
	EXPECT_STREQ("1234567", buf);
	stat_format_count(buf, sizeof(buf), 18446744073709551615ull, 0, 1);
	EXPECT_STREQ("18,446,744,073,709,551,615", buf);
	/* Nanoseconds as msec, rounded to the nearest hundredth. */
	stat_format_count(buf, sizeof(buf), 1234567895ull, 1, 1);
	EXPECT_STREQ("1,234.57", buf);
	stat_format_count(buf, sizeof(buf), 1234564999ull, 1, 0);
	EXPECT_STREQ("1234.56", buf);
	stat_format_count(buf, sizeof(buf), 4999, 1, 1);
	EXPECT_STREQ("0.00", buf);
	stat_format_count(buf, sizeof(buf), 50000, 1, 1);
	EXPECT_STREQ("0.05", buf);
}

/*
 * Two CPUs, task-clock and cs, and an ECB order where cs answers first:
 * replies are built as the target sends them, printed into a buffer.
 */
struct stat_fixture {
	struct stat_events ev;
	uint32_t order[2];
	struct stat_counts iv, total;
	struct stat_print p;
	char *out;
	size_t len;
};

static void stat_setup(struct stat_fixture *f, const char *sep, int per_cpu)
{
	char err[64];

	memset(f, 0, sizeof(*f));
	stat_events_add(&f->ev, "task-clock,cs", err, sizeof(err));
	f->order[0] = 1;
	f->order[1] = 0;
	stat_counts_init(&f->iv, 2, 2);
	stat_counts_init(&f->total, 2, 2);
	f->p.f = open_memstream(&f->out, &f->len);
	f->p.sep = sep;
	f->p.per_cpu = per_cpu;
	f->p.ev = &f->ev;
	f->p.order = f->order;
}

/* A reply: TSC deltas, then [cpu][k] counts, cs (k 0) and task-clock (k 1). */
static void stat_reply(struct stat_fixture *f, uint64_t tsc0, uint64_t tsc1,
		       uint64_t cs0, uint64_t ns0, uint64_t cs1, uint64_t ns1)
{
	const uint64_t reply[] = { tsc0, tsc1, cs0, ns0, cs1, ns1 };

	stat_counts_read(reply, &f->iv, &f->total);
}

static const char *stat_output(struct stat_fixture *f)
{
	fclose(f->p.f);
	f->p.f = NULL;
	return f->out;
}

static void stat_teardown(struct stat_fixture *f)
{
	if (f->p.f)
		fclose(f->p.f);
	free(f->out);
	stat_counts_free(&f->iv);
	stat_counts_free(&f->total);
}

TEST(stat_human_interval_lines)
{
	struct stat_fixture f;

	stat_setup(&f, NULL, 0);
	stat_reply(&f, 1000, 999, 7, 1000000000ull, 1005, 234560000ull);
	stat_print_interval(&f.p, 1.0, &f.iv);
	EXPECT_STREQ("#           time             counts unit events\n"
		     "     1.000000000           1,234.56 msec task-clock\n"
		     "     1.000000000              1,012      cs\n", stat_output(&f));
	stat_teardown(&f);
}

/* -A: a line per CPU and none for their sum, as perf stat -A. */
TEST(stat_human_per_cpu_lines_only)
{
	struct stat_fixture f;

	stat_setup(&f, NULL, 1);
	stat_reply(&f, 1000, 999, 7, 1000000000ull, 1005, 234560000ull);
	stat_print_interval(&f.p, 0.5, &f.iv);
	EXPECT_STREQ("#           time CPU                 counts unit events\n"
		     "     0.500000000 CPU0              1,000.00 msec task-clock\n"
		     "     0.500000000 CPU1                234.56 msec task-clock\n"
		     "     0.500000000 CPU0                     7      cs\n"
		     "     0.500000000 CPU1                 1,005      cs\n", stat_output(&f));
	stat_teardown(&f);
}

TEST(stat_csv_interval_lines)
{
	struct stat_fixture f;

	stat_setup(&f, ",", 0);
	stat_reply(&f, 1000, 999, 7, 1000000000ull, 1005, 234560000ull);
	stat_print_interval(&f.p, 1.25, &f.iv);
	EXPECT_STREQ("1.250000000,1234.56,msec,task-clock\n"
		     "1.250000000,1012,,cs\n", stat_output(&f));
	stat_teardown(&f);
}

TEST(stat_csv_per_cpu_lines_have_a_cpu_field)
{
	struct stat_fixture f;

	stat_setup(&f, ";", 1);
	stat_reply(&f, 1000, 999, 7, 1000000000ull, 1005, 234560000ull);
	stat_print_interval(&f.p, 2.0, &f.iv);
	EXPECT_STREQ("2.000000000;CPU0;1000.00;msec;task-clock\n"
		     "2.000000000;CPU1;234.56;msec;task-clock\n"
		     "2.000000000;CPU0;7;;cs\n"
		     "2.000000000;CPU1;1005;;cs\n", stat_output(&f));
	stat_teardown(&f);
}

TEST(stat_totals_sum_every_interval)
{
	struct stat_fixture f;

	stat_setup(&f, NULL, 0);
	stat_reply(&f, 1000, 999, 7, 1000000000ull, 1005, 234560000ull);
	stat_reply(&f, 500, 501, 3, 10000ull, 0, 0);
	EXPECT_EQ(1500, f.total.tsc[0]);
	EXPECT_EQ(1500, f.total.tsc[1]);
	/* The last interval alone in iv. */
	EXPECT_EQ(3, f.iv.count[0]);
	stat_print_totals(&f.p, 1.5, &f.total);
	EXPECT_STREQ("#           time             counts unit events\n"
		     "# total\n"
		     "     1.500000000           1,234.57 msec task-clock\n"
		     "     1.500000000              1,015      cs\n", stat_output(&f));
	stat_teardown(&f);
}

TEST(stat_csv_totals_say_total_for_the_time)
{
	struct stat_fixture f;

	stat_setup(&f, ",", 1);
	stat_reply(&f, 1000, 999, 7, 1000000000ull, 1005, 234560000ull);
	stat_print_totals(&f.p, 1.0, &f.total);
	EXPECT_STREQ("total,CPU0,1000.00,msec,task-clock\n"
		     "total,CPU1,234.56,msec,task-clock\n"
		     "total,CPU0,7,,cs\n"
		     "total,CPU1,1005,,cs\n", stat_output(&f));
	stat_teardown(&f);
}

TEST(stat_seconds_are_the_most_ticks_of_a_cpu)
{
	struct stat_fixture f;

	stat_setup(&f, NULL, 0);
	stat_reply(&f, 2000000, 3000000, 0, 0, 0, 0);
	EXPECT_TRUE(stat_counts_seconds(&f.iv, 2000000) == 1.5);
	stat_teardown(&f);
}

TEST(stat_reply_is_the_tsc_deltas_then_the_counts)
{
	EXPECT_EQ(2 * 8 + 2 * 2 * 8, stat_reply_size(2, 2));
	EXPECT_EQ(1024 * 8 + 1024 * 8 * 8, stat_reply_size(1024, 8));
}

TEST(stat_header_is_printed_once)
{
	struct stat_fixture f;
	const char *out;

	stat_setup(&f, NULL, 0);
	stat_reply(&f, 1, 1, 1, 1, 1, 1);
	stat_print_interval(&f.p, 1.0, &f.iv);
	stat_print_interval(&f.p, 2.0, &f.iv);
	stat_print_totals(&f.p, 2.0, &f.total);
	out = stat_output(&f);
	EXPECT_EQ(out, strstr(out, "#           time"));
	EXPECT_EQ(NULL, strstr(out + 1, "#           time"));
	stat_teardown(&f);
}

/*
 * aca-host stat against the scripted target of mock_target.c, which
 * answers READ_AND_RESET in counting mode with MOCK_READ_TSC ticks and
 * MOCK_COUNT(k, cpu) per read. Runs @args after "stat TARGET"
 * (NULL-terminated, at most 12); returns the exit status.
 */
static int run_stat(FIXTURE_DATA(dir) *self, struct mock_target *m,
		    const char *const *extra)
{
	char target[32];
	const char *args[2 + 12 + 1] = { "stat", target };

	for (int i = 0; extra[i]; i++) {
		if (i == 12)
			return -1;
		args[2 + i] = extra[i];
	}
	if (!synth_host_path() || mock_start(m))
		return -1;
	snprintf(target, sizeof(target), "127.0.0.1:%d", m->port);
	synth_run_host(self->d.path, args, &self->d.run);
	mock_join(m);
	return self->d.run.status;
}

/* Lines of @out that start with @prefix. */
static int stat_lines(const char *out, const char *prefix)
{
	int n = 0;

	for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

TEST_F(dir, stat_asks_for_counting_mode_and_reads_every_interval)
{
	static const char *const args[] = { "-e", "cs,task-clock", "-I", "100",
					    "--duration", "0.35", "-x", ",", NULL };
	struct mock_target m = { .mode = MOCK_DRAIN_THEN_ANSWER };
	char want[128];

	ASSERT_EQ(0, run_stat(self, &m, args)) TH_LOG("stderr: %s", self->d.run.err);
	EXPECT_EQ(0, m.failed) TH_LOG("%s", m.why);
	EXPECT_TRUE(m.collection_config & SEP_DRV_CFG_COUNTING_MODE);
	EXPECT_TRUE(m.stop_seen);
	EXPECT_TRUE(m.terminate_seen);
	/*
	 * At 0.1, 0.2 and 0.3 s, and at the end: 0.35 s. A host too loaded
	 * to wake at 0.3 before 0.35 leaves that read to the end's: three.
	 */
	EXPECT_LE(3, m.reads);
	EXPECT_GE(4, m.reads);
	/* The target's TSC says when (0.1 s more a read), not the host's clock. */
	EXPECT_EQ(1, stat_lines(self->d.run.out, "0.100000000,2000001,,cs\n"));
	EXPECT_EQ(1, stat_lines(self->d.run.out, "0.100000000,4.00,msec,task-clock\n"));
	snprintf(want, sizeof(want), "0.%d00000000,2000001,,cs\n", m.reads);
	EXPECT_EQ(1, stat_lines(self->d.run.out, want));
	snprintf(want, sizeof(want), "total,%d,,cs\n", m.reads * 2000001);
	EXPECT_EQ(1, stat_lines(self->d.run.out, want)) TH_LOG("stdout: %s", self->d.run.out);
	snprintf(want, sizeof(want), "total,%d.00,msec,task-clock\n", m.reads * 4);
	EXPECT_EQ(1, stat_lines(self->d.run.out, want));
	EXPECT_EQ(2 * m.reads + 2, stat_lines(self->d.run.out, ""));
}

TEST_F(dir, stat_without_interval_prints_the_totals_alone)
{
	static const char *const args[] = { "-e", "faults", "--duration", "0.1", "-A", NULL };
	struct mock_target m = { .mode = MOCK_DRAIN_THEN_ANSWER };

	ASSERT_EQ(0, run_stat(self, &m, args)) TH_LOG("stderr: %s", self->d.run.err);
	EXPECT_EQ(1, m.reads);
	EXPECT_STREQ("#           time CPU                 counts unit events\n"
		     "# total\n"
		     "     0.100000000 CPU0             1,000,000      faults\n"
		     "     0.100000000 CPU1             1,000,001      faults\n",
		     self->d.run.out);
}

TEST_F(dir, stat_says_a_target_without_counting_mode)
{
	static const char *const args[] = { "--duration", "0.1", NULL };
	struct mock_target m = { .fail_command = SEP_CMD_INIT_DRIVER,
				 .fail_status = VT_DRIVER_COMM_FAILED };

	EXPECT_EQ(1, run_stat(self, &m, args));
	EXPECT_NE(NULL, strstr(self->d.run.err, "does not support counting mode"))
		TH_LOG("stderr: %s", self->d.run.err);
	EXPECT_TRUE(m.terminate_seen);
	EXPECT_STREQ("", self->d.run.out);
}

TEST_F(dir, stat_says_a_hardware_event_needs_a_pmu)
{
	static const char *const args[] = { "-e", "instructions,cs", "--duration", "0.1", NULL };
	struct mock_target m = { .fail_command = SEP_CMD_START,
				 .fail_status = VT_DRIVER_COMM_FAILED };

	EXPECT_EQ(1, run_stat(self, &m, args));
	EXPECT_NE(NULL, strstr(self->d.run.err, "START refused: a hardware event needs a PMU"))
		TH_LOG("stderr: %s", self->d.run.err);
	EXPECT_EQ(0, m.reads);
}

/* Before connecting: nothing listens at TARGET. */
TEST_F(dir, stat_refuses_an_event_given_twice)
{
	static const char *const twice[] = { "stat", "127.0.0.1:1", "-e", "cs", "-e",
					     "context-switches", NULL };

	EXPECT_EQ(2, synth_run_host(self->d.path, twice, &self->d.run));
	EXPECT_NE(NULL, strstr(self->d.run.err, "given twice")) TH_LOG("%s", self->d.run.err);
}

TEST_F(dir, stat_refuses_an_unknown_event)
{
	static const char *const unknown[] = { "stat", "127.0.0.1:1", "-e", "cache-misses",
					       NULL };

	EXPECT_EQ(2, synth_run_host(self->d.path, unknown, &self->d.run));
	EXPECT_NE(NULL, strstr(self->d.run.err, "unknown event 'cache-misses'"));
}

TEST_HARNESS_MAIN
