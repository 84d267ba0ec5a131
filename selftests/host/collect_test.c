// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host collect against the scripted target of mock_target.c: every
 * channel saved while STOP is outstanding (the target answers STOP only
 * after flushing them, spec 13) or after it, the accounting, and the
 * failures that must end in a non-zero exit: a channel that never ends,
 * a target that goes away mid-collection.
 */
#ifdef ACA_HOST_TEST_UNIT

/* Far beyond what loopback sockets buffer: a host that does not read stalls. */
#define FLOOD_SAMPLES	200000

/* Run aca-host collect against @m; returns its exit status (or -1). */
static int run_collect(FIXTURE_DATA(dir) *self, struct mock_target *m,
		       const char *extra)
{
	const char *bin = synth_host_path();
	char target[32], out[4096];
	int status;
	pid_t pid;

	if (!bin || mock_start(m))
		return -1;
	snprintf(target, sizeof(target), "127.0.0.1:%d", m->port);
	snprintf(out, sizeof(out), "%s/c", self->path);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		/* Keep the harness's output readable: summary and errors to a file. */
		char log[4200];

		snprintf(log, sizeof(log), "%s/collect.log", self->path);
		if (!freopen(log, "w", stdout) || dup2(fileno(stdout), 2) < 0)
			_exit(126);
		execl(bin, "aca-host", "collect", target, "--duration", "0.3", "--out", out,
		      "--eof-timeout", "2", extra, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	mock_join(m);
	return WEXITSTATUS(status);
}

static char *collect_log(FIXTURE_DATA(dir) *self)
{
	char path[4200];
	size_t len;

	snprintf(path, sizeof(path), "%s/collect.log", self->path);
	return (char *)read_whole_file(path, 1 << 20, &len);
}

static char *collection_txt(FIXTURE_DATA(dir) *self)
{
	char path[4200];
	size_t len;

	snprintf(path, sizeof(path), "%s/c/collection.txt", self->path);
	return (char *)read_whole_file(path, 1 << 20, &len);
}

static void check_full_collection(struct __test_metadata *_metadata,
				  FIXTURE_DATA(dir) *self, struct mock_target *m, int rc)
{
	struct report_opts o = { 0 };
	char *log = collect_log(self), *txt = collection_txt(self);
	char dir[4200];

	if (rc)
		TH_LOG("collect said: %s", log ? log : "(nothing)");
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
	snprintf(dir, sizeof(dir), "%s/c", self->path);
	EXPECT_EQ(0, report_load(dir, &o, &self->r));
	EXPECT_EQ(400000, self->r.samples);
	EXPECT_EQ(400000, tally_get(&self->r.modules, "/mock/bin/app"));
	EXPECT_EQ(400000, tally_get(&self->r.processes, "4321 /mock/bin/app"));
	free(log);
	free(txt);
}

TEST_F_TIMEOUT(dir, collect_reads_while_stop_is_outstanding, 120)
{
	struct mock_target m = { .mode = MOCK_DRAIN_THEN_ANSWER,
				 .samples_per_cpu = FLOOD_SAMPLES, .dropped_per_cpu = 7 };

	if (!synth_host_path())
		SKIP(return, "no aca-host next to this test (make host)");
	check_full_collection(_metadata, self, &m, run_collect(self, &m, NULL));
}

TEST_F_TIMEOUT(dir, collect_reads_after_the_stop_answer, 120)
{
	struct mock_target m = { .mode = MOCK_ANSWER_THEN_DRAIN,
				 .samples_per_cpu = FLOOD_SAMPLES, .dropped_per_cpu = 7 };

	if (!synth_host_path())
		SKIP(return, "no aca-host next to this test (make host)");
	check_full_collection(_metadata, self, &m, run_collect(self, &m, NULL));
}

TEST_F_TIMEOUT(dir, channel_without_eof_fails_the_collection, 120)
{
	struct mock_target m = { .mode = MOCK_KEEP_CHANNEL_OPEN, .samples_per_cpu = 10 };
	char *log, *txt;

	if (!synth_host_path())
		SKIP(return, "no aca-host next to this test (make host)");
	EXPECT_EQ(1, run_collect(self, &m, NULL));
	log = collect_log(self);
	txt = collection_txt(self);
	ASSERT_NE(NULL, log);
	ASSERT_NE(NULL, txt);
	EXPECT_NE(NULL, strstr(log, "data channel module did not reach EOF within 2 s after STOP"));
	EXPECT_NE(NULL, strstr(txt, "\nall_eof=0\n"));
	/* The session still ended properly. */
	EXPECT_TRUE(m.terminate_seen);
	free(log);
	free(txt);
}

TEST_F_TIMEOUT(dir, target_gone_mid_collection_fails, 120)
{
	struct mock_target m = { .mode = MOCK_DIE_AT_START, .samples_per_cpu = 10 };
	char *log;

	if (!synth_host_path())
		SKIP(return, "no aca-host next to this test (make host)");
	EXPECT_EQ(1, run_collect(self, &m, "--event=CPU_CLK_UNHALTED.THREAD"));
	log = collect_log(self);
	ASSERT_NE(NULL, log);
	EXPECT_NE(NULL, strstr(log, "ended during the collection"));
	free(log);
}

#endif /* ACA_HOST_TEST_UNIT */
