// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host collect against the scripted target of mock_target.c: every
 * channel saved while STOP is outstanding (the target answers STOP only
 * after flushing them, spec 13) or after it, the accounting, and the
 * failures that must end in a non-zero exit: a channel that never ends,
 * a target that goes away mid-collection.
 * Its own program, build/tests/host_collect_test.
 */
#include "host_fixture.h"

/* Far beyond what loopback sockets buffer: a host that does not read stalls. */
#define FLOOD_SAMPLES	200000

static void check_full_collection(struct __test_metadata *_metadata,
				  FIXTURE_DATA(dir) *self, struct mock_target *m, int rc)
{
	struct report_opts o = { 0 };
	char *txt = collection_txt(&self->d);
	char dir[4200];

	if (rc)
		TH_LOG("collect said: %s", self->d.run.err ? self->d.run.err : "(nothing)");
	if (m->failed)
		TH_LOG("target: %s", m->why);
	EXPECT_EQ(0, rc);
	EXPECT_EQ(0, m->failed);
	EXPECT_TRUE(m->stop_seen && m->terminate_seen);
	ASSERT_NE(NULL, txt);
	EXPECT_NE(NULL, strstr(txt, "\nnum_cpus=2\n"));
	EXPECT_NE(NULL, strstr(txt, "\ncpu0_records=200000\n"));
	EXPECT_NE(NULL, strstr(txt, "\ncpu1_records=200000\n"));
	EXPECT_NE(NULL, strstr(txt, "\nmodule_records=2\n"));
	EXPECT_NE(NULL, strstr(txt, "\nsamples_reported=400000\n"));
	EXPECT_NE(NULL, strstr(txt, "\nsamples_dropped=14\n"));
	EXPECT_NE(NULL, strstr(txt, "\naccounting=ok: received 400000 + dropped 14 == "
			       "generated 400014\n"));
	EXPECT_NE(NULL, strstr(txt, "\nstart_tsc="));
	EXPECT_NE(NULL, strstr(txt, "\nuname=Mock 1.0 #1 scripted\n"));
	EXPECT_NE(NULL, strstr(txt, "\nall_eof=1\ncomplete=1\n"));
	/* A SEP host configures before it starts, in the spec's order. */
	EXPECT_EQ(SEP_CMD_SET_OSID, m->commands[0]);
	EXPECT_EQ(0, m->data_bytes_from_host);
	/* And what was saved is what was sent. */
	snprintf(dir, sizeof(dir), "%s/c", self->d.path);
	EXPECT_EQ(0, report_load(dir, &o, &self->d.r));
	EXPECT_EQ(400000, self->d.r.samples);
	EXPECT_EQ(400000, tally_get(&self->d.r.modules, "/mock/bin/app"));
	EXPECT_EQ(400000, tally_get(&self->d.r.processes, "4321 /mock/bin/app"));
	free(txt);
}

TEST_F_TIMEOUT(dir, collect_reads_while_stop_is_outstanding, 120)
{
	struct mock_target m = { .mode = MOCK_DRAIN_THEN_ANSWER,
				 .samples_per_cpu = FLOOD_SAMPLES, .dropped_per_cpu = 7 };

	check_full_collection(_metadata, self, &m, run_collect(&self->d, &m, NULL));
}

TEST_F_TIMEOUT(dir, collect_reads_after_the_stop_answer, 120)
{
	struct mock_target m = { .mode = MOCK_ANSWER_THEN_DRAIN,
				 .samples_per_cpu = FLOOD_SAMPLES, .dropped_per_cpu = 7 };

	check_full_collection(_metadata, self, &m, run_collect(&self->d, &m, NULL));
}

TEST_F_TIMEOUT(dir, channel_without_eof_fails_the_collection, 120)
{
	struct mock_target m = { .mode = MOCK_KEEP_CHANNEL_OPEN, .samples_per_cpu = 10 };
	char *txt;

	EXPECT_EQ(1, run_collect(&self->d, &m, NULL));
	txt = collection_txt(&self->d);
	ASSERT_NE(NULL, self->d.run.err);
	ASSERT_NE(NULL, txt);
	EXPECT_NE(NULL, strstr(self->d.run.err,
			       "data channel module did not reach EOF within 2 s after STOP"));
	EXPECT_NE(NULL, strstr(txt, "\nall_eof=0\n"));
	/* The session still ended properly. */
	EXPECT_TRUE(m.terminate_seen);
	free(txt);
}

TEST_F_TIMEOUT(dir, target_gone_mid_collection_fails, 120)
{
	struct mock_target m = { .mode = MOCK_DIE_AT_START, .samples_per_cpu = 10 };

	EXPECT_EQ(1, run_collect(&self->d, &m, "--event=CPU_CLK_UNHALTED.THREAD"));
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, "ended during the collection"));
}

/* Whether the target was asked @cmd. */
static bool asked(const struct mock_target *m, uint32_t cmd)
{
	for (int i = 0; i < m->ncommands; i++)
		if (m->commands[i] == cmd)
			return true;
	return false;
}

/* A ^C while the host configures: nothing more sent, no START; TERMINATE. */
TEST_F_TIMEOUT(dir, sigint_before_start_ends_the_session, 60)
{
	struct mock_target m = { .samples_per_cpu = 10, .sigint_at = SEP_CMD_INIT,
				 .sigint_pid = &self->d.run.pid };

	EXPECT_EQ(1, run_collect(&self->d, &m, NULL));
	ASSERT_NE(NULL, self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, "interrupted before START: EM_GROUPS not sent"));
	EXPECT_FALSE(asked(&m, SEP_CMD_START));
	EXPECT_TRUE(m.terminate_seen);
	EXPECT_EQ(0, m.failed);
}

/* A ^C while STOP drains: the collection goes on to its end, whole. */
TEST_F_TIMEOUT(dir, sigint_during_stop_keeps_the_collection, 120)
{
	struct mock_target m = { .mode = MOCK_DRAIN_THEN_ANSWER, .samples_per_cpu = FLOOD_SAMPLES,
				 .dropped_per_cpu = 7, .sigint_at = SEP_CMD_STOP,
				 .sigint_pid = &self->d.run.pid };

	check_full_collection(_metadata, self, &m, run_collect(&self->d, &m, NULL));
}

/* collection.txt says which aca-host wrote it. */
TEST_F_TIMEOUT(dir, collection_txt_names_the_tool_version, 60)
{
	struct mock_target m = { .samples_per_cpu = 10 };
	char *txt;

	EXPECT_EQ(0, run_collect(&self->d, &m, NULL));
	txt = collection_txt(&self->d);
	ASSERT_NE(NULL, txt);
	EXPECT_NE(NULL, strstr(txt, "\nformat=1\nwritten_by=aca-host " ACA_VERSION "\n"));
	free(txt);
}

/*
 * A target without GET_SAMPLE_DROP_INFO (the reference answers 159): the
 * accounting says that is what it lacks, not GET_NUM_SAMPLES.
 */
TEST_F_TIMEOUT(dir, accounting_names_the_missing_drop_info, 60)
{
	struct mock_target m = { .samples_per_cpu = 10,
				 .fail_command = SEP_CMD_GET_SAMPLE_DROP_INFO,
				 .fail_status = VT_DRIVER_COMM_FAILED };
	char *txt;

	EXPECT_EQ(0, run_collect(&self->d, &m, NULL));
	txt = collection_txt(&self->d);
	ASSERT_NE(NULL, txt);
	EXPECT_NE(NULL, strstr(txt, "\naccounting=unknown: GET_SAMPLE_DROP_INFO "
			       "unavailable (status 159)\n"));
	EXPECT_NE(NULL, strstr(txt, "\nsamples_reported=20\n"));
	EXPECT_EQ(NULL, strstr(txt, "GET_NUM_SAMPLES"));
	free(txt);
}

/* And when GET_NUM_SAMPLES fails, that alone: the collection fails too. */
TEST_F_TIMEOUT(dir, accounting_names_a_failed_get_num_samples, 60)
{
	struct mock_target m = { .samples_per_cpu = 10,
				 .fail_command = SEP_CMD_GET_NUM_SAMPLES,
				 .fail_status = VT_DRIVER_COMM_FAILED };
	char *txt;

	EXPECT_EQ(1, run_collect(&self->d, &m, NULL));
	txt = collection_txt(&self->d);
	ASSERT_NE(NULL, txt);
	EXPECT_NE(NULL, strstr(txt, "\naccounting=unknown: GET_NUM_SAMPLES failed\n"));
	EXPECT_NE(NULL, strstr(txt, "\nsamples_dropped=0\n"));
	free(txt);
}

/* collection.txt of a newer aca-host: who wrote it is shown. */
TEST_F(dir, report_reads_the_version_that_wrote_the_collection)
{
	static const char txt[] = "format=1\nwritten_by=aca-host 9.8.7\nnum_cpus=1\n"
				  "sample_size=48\n";

	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400001, 9, 9, 1, 0);
	ASSERT_EQ(0, synth_write(self->d.path, "collection.txt", txt, strlen(txt)));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(0, self->d.ret);
	EXPECT_STREQ("aca-host 9.8.7", self->d.r.written_by);
	EXPECT_EQ(1, self->d.r.samples);
}

/* And one of an older aca-host, without the line, still reads. */
TEST_F(dir, report_reads_collections_without_a_version)
{
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x400001, 9, 9, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(0, self->d.ret);
	EXPECT_STREQ("", self->d.r.written_by);
	EXPECT_EQ(1, self->d.r.samples);
}

TEST_HARNESS_MAIN
