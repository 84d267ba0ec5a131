// SPDX-License-Identifier: GPL-2.0-only
/*
 * Multiplexing: aca-host collect with several --event, one group each,
 * against the scripted target (what it configured, DIR/groups.txt from
 * GROUP_TIMES), and report's estimate of each event's count, scaled by the
 * share of the collection its group ran as perf stat scales it.
 * Its own program, build/tests/host_groups_test.
 */
#include "host_fixture.h"
#include "../../tools/aca-host/groups.h"
#include "../../tools/aca-host/payload.h"
#include "../../tools/aca-host/script.h"

#define SWITCH_MS	"25"

static const char *const three_events[] = {
	"--event", "INST_RETIRED.ANY", "--event", "CPU_CLK_UNHALTED.THREAD",
	"--event", "CPU_CLK_UNHALTED.REF_TSC", "--switch-ms", SWITCH_MS, NULL
};

static char *collection_file(FIXTURE_DATA(dir) *self, const char *name)
{
	char path[4200];
	size_t len;

	snprintf(path, sizeof(path), "%s/c/%s", self->d.path, name);
	return (char *)read_whole_file(path, 1 << 20, &len);
}

static size_t count_lines(const char *txt, const char *prefix)
{
	size_t n = 0;

	for (const char *p = txt; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

TEST_F_TIMEOUT(dir, collect_sends_one_group_per_event_with_the_switch_timer, 60)
{
	struct mock_target m = { .samples_per_cpu = 10 };

	EXPECT_EQ(0, run_collect_argv(&self->d, &m, "c", three_events));
	if (m.failed)
		TH_LOG("target: %s", m.why);
	EXPECT_EQ(0, m.failed);
	EXPECT_EQ(3, m.num_groups);
	EXPECT_EQ(SEP_EM_TIMER_BASED, m.em_mode);
	EXPECT_EQ(atoi(SWITCH_MS), m.em_factor);
	ASSERT_EQ(3, m.necbs);
	for (int g = 0; g < 3; g++) {
		/* Group g's samples carry index g, which has a descriptor. */
		EXPECT_EQ(g, m.ecb_group[g]);
		EXPECT_EQ(g, m.ecb_index[g]);
		EXPECT_EQ(g, m.ecb_desc[g]);
	}
	EXPECT_EQ(3, m.num_descriptors);
	EXPECT_EQ(3, m.descs);
}

/* --switch-samples N: em_mode event-based, em_factor N, every event a trigger. */
TEST_F_TIMEOUT(dir, collect_switch_samples_asks_for_event_based_switching, 60)
{
	static const char *const args[] = {
		"--event", "INST_RETIRED.ANY", "--event", "CPU_CLK_UNHALTED.THREAD",
		"--switch-samples", "40", NULL
	};
	struct mock_target m = { .samples_per_cpu = 10 };
	char *txt;

	EXPECT_EQ(0, run_collect_argv(&self->d, &m, "c", args));
	EXPECT_EQ(0, m.failed);
	EXPECT_EQ(2, m.num_groups);
	EXPECT_EQ(SEP_EM_EVENT_BASED, m.em_mode);
	EXPECT_EQ(40, m.em_factor);
	EXPECT_EQ(-1, m.em_event_num);
	txt = collection_file(self, "collection.txt");
	ASSERT_NE(NULL, txt);
	EXPECT_NE(NULL, strstr(txt, "\nswitch_samples=40\n"));
	EXPECT_EQ(NULL, strstr(txt, "switch_ms="));
	free(txt);
}

TEST_F_TIMEOUT(dir, collect_of_one_event_is_not_multiplexed, 60)
{
	struct mock_target m = { .samples_per_cpu = 10 };

	EXPECT_EQ(0, run_collect(&self->d, &m, "--switch-ms=" SWITCH_MS));
	EXPECT_EQ(1, m.num_groups);
	EXPECT_EQ(SEP_EM_DISABLED, m.em_mode);
	ASSERT_EQ(1, m.necbs);
	EXPECT_EQ(0, m.ecb_group[0]);
	EXPECT_EQ(0, m.ecb_index[0]);
	EXPECT_EQ(HOST_NUM_DESCRIPTORS, m.num_descriptors);
	EXPECT_EQ(HOST_NUM_DESCRIPTORS, m.descs);
}

TEST_F_TIMEOUT(dir, collect_writes_each_group_s_windows_to_groups_txt, 60)
{
	static const char *const names[] = {
		"INST_RETIRED.ANY", "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.REF_TSC",
	};
	struct mock_target m = { .samples_per_cpu = 10 };
	struct group_times gt;
	char dir[4200], err[4200] = "", *txt;

	ASSERT_EQ(0, run_collect_argv(&self->d, &m, "c", three_events));
	EXPECT_TRUE(m.group_times_asked);
	snprintf(dir, sizeof(dir), "%s/c", self->d.path);
	ASSERT_EQ(0, groups_read(dir, &gt, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(atoi(SWITCH_MS), gt.switch_ms);
	EXPECT_EQ(3 * MOCK_ROUNDS - 1, gt.switches);
	EXPECT_EQ(3 * MOCK_ROUNDS, gt.windows_kept);
	EXPECT_EQ(0, gt.windows_lost);
	EXPECT_EQ(2000000000ull, gt.tsc_hz);
	ASSERT_EQ(3, gt.n);
	for (uint32_t g = 0; g < 3; g++) {
		EXPECT_EQ(g, gt.g[g].group);
		EXPECT_STREQ(names[g], gt.g[g].event);
		EXPECT_EQ(g, gt.g[g].index);
		EXPECT_EQ(MOCK_ROUNDS, gt.g[g].windows);
		EXPECT_EQ(MOCK_ROUNDS * MOCK_WINDOW_TSC, gt.g[g].running_tsc);
	}
	/* Every window listed, oldest first, as awk reads them. */
	txt = collection_file(self, GROUPS_FILE);
	ASSERT_NE(NULL, txt);
	EXPECT_EQ(3 * MOCK_ROUNDS, count_lines(txt, "window "));
	EXPECT_NE(NULL, strstr(txt, "\nwindow 0 100000 100900\nwindow 1 101000 101900\n"));
	free(txt);
}

TEST_F_TIMEOUT(dir, target_without_group_times_leaves_no_groups_txt, 60)
{
	struct mock_target m = { .samples_per_cpu = 10,
				 .fail_command = ACA_CMD_GROUP_TIMES,
				 .fail_status = VT_DRIVER_COMM_FAILED };
	char *txt;

	EXPECT_EQ(0, run_collect_argv(&self->d, &m, "c", three_events));
	txt = collection_file(self, GROUPS_FILE);
	EXPECT_EQ(NULL, txt);
	free(txt);
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, "the target keeps no group times (status 159)"));
	txt = collection_file(self, "collection.txt");
	ASSERT_NE(NULL, txt);
	EXPECT_NE(NULL, strstr(txt, "\ncomplete=1\n"));
	free(txt);
}

TEST_F(dir, collect_refuses_the_same_event_twice)
{
	char out[4200];
	const char *args[] = { "collect", "127.0.0.1:1", "--duration", "1", "--out", out,
			       "--event", "INST_RETIRED.ANY", "--event", "INST_RETIRED.ANY",
			       NULL };

	snprintf(out, sizeof(out), "%s/c", self->d.path);
	EXPECT_EQ(2, synth_run_host(self->d.path, args, &self->d.run));
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, "aca-host collect: --event INST_RETIRED.ANY "
			       "given twice: the report names each group by its event, "
			       "and could not tell these two apart\n"));
}

/*
 * Two groups: group 0 ran a quarter of the collection's 100000 ticks and
 * took 30 samples, group 1 half and 10; every sample is 1000 events.
 */
static const char mux_txt[] = "num_cpus=1\nsample_size=48\nevent=INST_RETIRED.ANY,"
			      "CPU_CLK_UNHALTED.THREAD\nsample_after=1000\n"
			      "start_tsc=1000000\nstop_tsc=1100000\n";
static const char mux_groups[] =
	"switch_ms 10 switches 3 windows_kept 2 windows_lost 0 tsc_hz 1000000000\n"
	"group 0 event INST_RETIRED.ANY index 0 windows 1 running_tsc 25000\n"
	"group 1 event CPU_CLK_UNHALTED.THREAD index 1 windows 1 running_tsc 50000\n"
	"window 0 1010000 1035000\n"
	"window 1 1040000 1090000\n";

static void mux_collection_as(FIXTURE_DATA(dir) *self, int with_groups,
			      const char *sampling);

static void mux_collection(FIXTURE_DATA(dir) *self, int with_groups)
{
	mux_collection_as(self, with_groups, "pmu");
}

/* The collection, as sampled with @sampling (collection.txt's key). */
static void mux_collection_as(FIXTURE_DATA(dir) *self, int with_groups,
			      const char *sampling)
{
	char txt[sizeof(mux_txt) + 64];

	for (int i = 0; i < 40; i++) {
		synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400001, 9, 9, 1020000 + i, 0);
		synth_set_event(&self->d.cpu0, SAMPLE_SIZE, i < 30 ? 0 : 1);
	}
	snprintf(txt, sizeof(txt), "%ssampling=%s\n", mux_txt, sampling);
	synth_write(self->d.path, "collection.txt", txt, strlen(txt));
	if (with_groups)
		synth_write(self->d.path, GROUPS_FILE, mux_groups, strlen(mux_groups));
}

static char *report_text(FIXTURE_DATA(dir) *self)
{
	struct report_opts o = { 0 };
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	report_print(&self->d.r, &o, self->d.path, f);
	fclose(f);
	return text;
}

TEST_F(dir, report_scales_each_group_by_its_running_share)
{
	double share;
	char *text;

	mux_collection(self, 1);
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(0, self->d.ret);
	ASSERT_EQ(2, self->d.r.groups.n);
	EXPECT_EQ(30, self->d.r.group_samples[0]);
	EXPECT_EQ(10, self->d.r.group_samples[1]);
	/*
	 * samples x sample_after x enabled / running, enabled the 75000 ticks
	 * some group sampled (not stop_tsc - start_tsc, which has set-up and
	 * drain in it).
	 */
	EXPECT_EQ(90000, (long)(report_group_estimate(&self->d.r, 0, &share) + 0.5));
	EXPECT_EQ(3333, (long)(share * 10000));
	EXPECT_EQ(15000, (long)(report_group_estimate(&self->d.r, 1, &share) + 0.5));
	EXPECT_EQ(6667, (long)(share * 10000 + 0.5));
	text = report_text(self);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "        30    33.33%              90000  "
			       "INST_RETIRED.ANY  (33.33%)\n"));
	EXPECT_NE(NULL, strstr(text, "        10    66.67%              15000  "
			       "CPU_CLK_UNHALTED.THREAD  (66.67%)\n"));
	free(text);
}

/* cpu-clock stand-ins sample at the rate asked: the table says what it estimates. */
TEST_F(dir, report_says_cpu_clock_estimates_are_of_the_rate_asked)
{
	const char *note = "(cpu-clock stand-ins, no PMU: each estimate is the count";
	char *text;

	mux_collection_as(self, 1, "cpu-clock (no PMU on the target)");
	ASSERT_EQ(0, run_report(&self->d, NULL));
	text = report_text(self);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, note)) TH_LOG("%s", text);
	free(text);
	mux_collection(self, 1);
	ASSERT_EQ(0, run_report(&self->d, NULL));
	text = report_text(self);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, note));
	free(text);
}

TEST_F(dir, report_without_groups_txt_has_no_event_table)
{
	char *text;

	mux_collection(self, 0);
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(0, self->d.r.groups.n);
	text = report_text(self);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, "By event"));
	free(text);
}

static size_t count_in(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; p && (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

TEST_F(dir, script_names_each_sample_s_event_by_its_group)
{
	struct report_opts o = { 0 };
	char *text = NULL;
	size_t len;
	FILE *f;

	mux_collection(self, 1);
	/* run_report() writes cpu0.bin and module.bin for script to read. */
	ASSERT_EQ(0, run_report(&self->d, NULL));
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, script_print(self->d.path, &o, f));
	fclose(f);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(30, count_in(text, " INST_RETIRED.ANY: \n"));
	EXPECT_EQ(10, count_in(text, " CPU_CLK_UNHALTED.THREAD: \n"));
	free(text);
}

TEST_HARNESS_MAIN
