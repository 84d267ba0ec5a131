// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command line of build/aca-host as a newcomer meets it: --version;
 * --help and -h of every command on stdout with exit status 0; unknown
 * commands, options and out-of-range numbers refused with exit status 2
 * and a message on stderr that names the option and the value.
 * Its own program, build/tests/host_cli_test.
 */
#include "host_fixture.h"

static int host(FIXTURE_DATA(dir) *self, const char *const *args)
{
	return synth_run_host(self->d.path, args, &self->d.run);
}

static bool starts_with(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

TEST_F(dir, version_prints_name_and_version)
{
	const char *args[] = { "--version", NULL };

	ASSERT_EQ(0, host(self, args));
	EXPECT_STREQ("aca-host " ACA_VERSION "\n", self->d.run.out);
	EXPECT_STREQ("", self->d.run.err);
}

TEST_F(dir, short_version_option_prints_the_same)
{
	const char *args[] = { "-V", NULL };

	ASSERT_EQ(0, host(self, args));
	EXPECT_STREQ("aca-host " ACA_VERSION "\n", self->d.run.out);
}

TEST_F(dir, help_without_a_command_goes_to_stdout)
{
	const char *args[] = { "--help", NULL };

	ASSERT_EQ(0, host(self, args));
	EXPECT_TRUE(starts_with(self->d.run.out, "usage: aca-host COMMAND"));
	EXPECT_STREQ("", self->d.run.err);
}

TEST_F(dir, no_command_exits_2_with_usage_on_stderr)
{
	const char *args[] = { NULL };

	ASSERT_EQ(2, host(self, args));
	EXPECT_STREQ("", self->d.run.out);
	EXPECT_TRUE(starts_with(self->d.run.err, "usage: aca-host COMMAND"));
}

TEST_F(dir, unknown_command_exits_2_with_usage_on_stderr)
{
	const char *args[] = { "frobnicate", "127.0.0.1", NULL };

	ASSERT_EQ(2, host(self, args));
	EXPECT_STREQ("", self->d.run.out);
	EXPECT_TRUE(starts_with(self->d.run.err, "aca-host: unknown command 'frobnicate'\n"
				"usage: aca-host COMMAND"));
}

TEST_F(dir, unknown_option_exits_2_with_usage_on_stderr)
{
	const char *args[] = { "hello", "--frobnicate", "127.0.0.1", NULL };

	ASSERT_EQ(2, host(self, args));
	EXPECT_STREQ("", self->d.run.out);
	EXPECT_TRUE(starts_with(self->d.run.err, "aca-host hello: unrecognized option "
				"'--frobnicate'\nusage: aca-host hello "));
}

/*
 * The usage and the dispatch are one table (tools/aca-host/aca-host.c):
 * every command the usage lists ("  NAME ARGS" lines) answers its own
 * --help, and there are all ten.
 */
TEST_F(dir, every_command_the_usage_lists_runs)
{
	const char *args[] = { "--help", NULL };
	char *usage, *line, *save = NULL, name[32], want[64];
	int n = 0;

	ASSERT_EQ(0, host(self, args));
	usage = strdup(self->d.run.out);
	ASSERT_NE(NULL, usage);
	for (line = strtok_r(usage, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *help[] = { name, "--help", NULL };

		if (strncmp(line, "  ", 2) || line[2] == ' ' ||
		    sscanf(line + 2, "%31s", name) != 1)
			continue;
		n++;
		EXPECT_EQ(0, host(self, help)) TH_LOG("aca-host %s --help", name);
		snprintf(want, sizeof(want), "usage: aca-host %s ", name);
		EXPECT_TRUE(starts_with(self->d.run.out, want)) TH_LOG("%s", self->d.run.out);
	}
	free(usage);
	EXPECT_EQ(10, n);
}

/* perf-data and pprof write a file: without --out it is a usage error. */
TEST_F(dir, writers_without_out_exit_2_with_usage_on_stderr)
{
	const char *cmds[] = { "perf-data", "pprof" };
	char want[128];

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		const char *args[] = { cmds[i], "/nonexistent/aca-host-test", NULL };

		ASSERT_EQ(2, host(self, args));
		EXPECT_STREQ("", self->d.run.out);
		snprintf(want, sizeof(want), "aca-host %s: --out FILE expected\n"
			 "usage: aca-host %s ", cmds[i], cmds[i]);
		EXPECT_TRUE(starts_with(self->d.run.err, want)) TH_LOG("%s", self->d.run.err);
	}
}

/* The same for every command, with its long and its short option. */
FIXTURE(help) {
	struct host_dir d;
};

FIXTURE_VARIANT(help) {
	const char *command, *option;
};

FIXTURE_VARIANT_ADD(help, hello) { "hello", "--help" };
FIXTURE_VARIANT_ADD(help, hello_h) { "hello", "-h" };
FIXTURE_VARIANT_ADD(help, info) { "info", "--help" };
FIXTURE_VARIANT_ADD(help, info_h) { "info", "-h" };
FIXTURE_VARIANT_ADD(help, ping) { "ping", "--help" };
FIXTURE_VARIANT_ADD(help, ping_h) { "ping", "-h" };
FIXTURE_VARIANT_ADD(help, collect) { "collect", "--help" };
FIXTURE_VARIANT_ADD(help, collect_h) { "collect", "-h" };
FIXTURE_VARIANT_ADD(help, report) { "report", "--help" };
FIXTURE_VARIANT_ADD(help, report_h) { "report", "-h" };
FIXTURE_VARIANT_ADD(help, script) { "script", "--help" };
FIXTURE_VARIANT_ADD(help, script_h) { "script", "-h" };
FIXTURE_VARIANT_ADD(help, perf_data) { "perf-data", "--help" };
FIXTURE_VARIANT_ADD(help, perf_data_h) { "perf-data", "-h" };
FIXTURE_VARIANT_ADD(help, pprof) { "pprof", "--help" };
FIXTURE_VARIANT_ADD(help, pprof_h) { "pprof", "-h" };
FIXTURE_VARIANT_ADD(help, stat) { "stat", "--help" };
FIXTURE_VARIANT_ADD(help, stat_h) { "stat", "-h" };
FIXTURE_VARIANT_ADD(help, top) { "top", "--help" };
FIXTURE_VARIANT_ADD(help, top_h) { "top", "-h" };

FIXTURE_SETUP(help)
{
	host_dir_setup(_metadata, &self->d);
}

FIXTURE_TEARDOWN(help)
{
	host_dir_free(&self->d);
}

TEST_F(help, prints_the_command_usage_on_stdout_and_exits_0)
{
	const char *args[] = { variant->command, variant->option, NULL };
	char usage[64];

	ASSERT_EQ(0, synth_run_host(self->d.path, args, &self->d.run));
	snprintf(usage, sizeof(usage), "usage: aca-host %s ", variant->command);
	EXPECT_TRUE(starts_with(self->d.run.out, usage));
	EXPECT_STREQ("", self->d.run.err);
}

/*
 * Numbers out of range or not numbers at all. TARGET is a port where
 * nothing listens: an option let through would end in exit status 1.
 */
FIXTURE(bad_number) {
	struct host_dir d;
};

FIXTURE_VARIANT(bad_number) {
	const char *args[12];
	const char *said;
};

#define BAD_REPORT(opt, val)	{ "report", "/nonexistent/aca-host-test", opt, val }
#define BAD_COLLECT(opt, val)	{ "collect", "127.0.0.1:1", "--duration", "1", "--out", \
				  "/nonexistent/aca-host-test", opt, val }

FIXTURE_VARIANT_ADD(bad_number, top_negative) {
	BAD_REPORT("--top", "-1"),
	"aca-host report: --top: '-1' is not a number from 0 to 1000000\n"
};
FIXTURE_VARIANT_ADD(bad_number, top_not_a_number) {
	BAD_REPORT("--top", "abc"),
	"aca-host report: --top: 'abc' is not a number from 0 to 1000000\n"
};
FIXTURE_VARIANT_ADD(bad_number, top_too_big) {
	BAD_REPORT("--top", "1000001"),
	"aca-host report: --top: '1000001' is not a number from 0 to 1000000\n"
};
FIXTURE_VARIANT_ADD(bad_number, pid_negative) {
	BAD_REPORT("--pid", "-5"),
	"aca-host report: --pid: '-5' is not a number from 0 to 4194304\n"
};
FIXTURE_VARIANT_ADD(bad_number, pid_too_big) {
	BAD_REPORT("--pid", "4194305"),
	"aca-host report: --pid: '4194305' is not a number from 0 to 4194304\n"
};
FIXTURE_VARIANT_ADD(bad_number, pid_with_a_suffix) {
	BAD_REPORT("--pid", "12x"),
	"aca-host report: --pid: '12x' is not a number from 0 to 4194304\n"
};
FIXTURE_VARIANT_ADD(bad_number, duration_zero) {
	{ "collect", "127.0.0.1:1", "--duration", "0", "--out", "/nonexistent/aca-host-test" },
	"aca-host collect: --duration: '0' is not a number of seconds, more than 0 and "
	"at most 86400\n"
};
FIXTURE_VARIANT_ADD(bad_number, duration_with_a_unit) {
	{ "collect", "127.0.0.1:1", "--duration", "5s", "--out", "/nonexistent/aca-host-test" },
	"aca-host collect: --duration: '5s' is not a number of seconds"
};
FIXTURE_VARIANT_ADD(bad_number, duration_too_long) {
	{ "collect", "127.0.0.1:1", "--duration", "86401", "--out", "/nonexistent/aca-host-test" },
	"aca-host collect: --duration: '86401' is not a number of seconds"
};
FIXTURE_VARIANT_ADD(bad_number, rate_zero) {
	BAD_COLLECT("--rate", "0"),
	"aca-host collect: --rate: '0' is not a number from 1 to 100000\n"
};
FIXTURE_VARIANT_ADD(bad_number, rate_too_high) {
	BAD_COLLECT("--rate", "100001"),
	"aca-host collect: --rate: '100001' is not a number from 1 to 100000\n"
};
FIXTURE_VARIANT_ADD(bad_number, eof_timeout_in_hex) {
	BAD_COLLECT("--eof-timeout", "0x10"),
	"aca-host collect: --eof-timeout: '0x10' is not a number of seconds"
};
FIXTURE_VARIANT_ADD(bad_number, collect_timeout_zero) {
	BAD_COLLECT("--timeout", "0"),
	"aca-host collect: --timeout: '0' is not a number from 1 to 3600\n"
};
FIXTURE_VARIANT_ADD(bad_number, hello_timeout_too_long) {
	{ "hello", "--timeout", "3601", "127.0.0.1:1" },
	"aca-host hello: --timeout: '3601' is not a number from 1 to 3600\n"
};
FIXTURE_VARIANT_ADD(bad_number, hello_timeout_fraction) {
	{ "hello", "--timeout", "1.5", "127.0.0.1:1" },
	"aca-host hello: --timeout: '1.5' is not a number from 1 to 3600\n"
};
FIXTURE_VARIANT_ADD(bad_number, info_timeout_negative) {
	{ "info", "--timeout", "-1", "127.0.0.1:1" },
	"aca-host info: --timeout: '-1' is not a number from 1 to 3600\n"
};
FIXTURE_VARIANT_ADD(bad_number, hello_port_zero) {
	{ "hello", "127.0.0.1:0" },
	"aca-host hello: TARGET '127.0.0.1:0': port '0' is not a number from 1 to 65535\n"
};
FIXTURE_VARIANT_ADD(bad_number, hello_port_not_a_number) {
	{ "hello", "127.0.0.1:http" },
	"aca-host hello: TARGET '127.0.0.1:http': port 'http' is not a number from 1 to 65535\n"
};
FIXTURE_VARIANT_ADD(bad_number, info_port_too_big) {
	{ "info", "[::1]:65536" },
	"aca-host info: TARGET '[::1]:65536': port '65536' is not a number from 1 to 65535\n"
};
FIXTURE_VARIANT_ADD(bad_number, collect_port_too_big) {
	{ "collect", "127.0.0.1:99999", "--duration", "1", "--out", "/nonexistent/aca-host-test" },
	"aca-host collect: TARGET '127.0.0.1:99999': port '99999' is not a number from 1 to 65535\n"
};
FIXTURE_VARIANT_ADD(bad_number, collect_switch_ms_too_big) {
	BAD_COLLECT("--switch-ms", "10001"),
	"aca-host collect: --switch-ms: '10001' is not a number from 1 to 10000\n"
};
FIXTURE_VARIANT_ADD(bad_number, collect_switch_samples_zero) {
	BAD_COLLECT("--switch-samples", "0"),
	"aca-host collect: --switch-samples: '0' is not a number from 1 to 1000000\n"
};
FIXTURE_VARIANT_ADD(bad_number, collect_switch_ms_and_samples) {
	{ "collect", "127.0.0.1:1", "--duration", "1", "--out", "/nonexistent/aca-host-test",
	  "--switch-ms", "5", "--switch-samples", "5" },
	"aca-host collect: --switch-ms and --switch-samples exclude each other\n"
};
/* The report's and script's other values: keys, formats, lists. */
FIXTURE_VARIANT_ADD(bad_number, tid_too_big) {
	BAD_REPORT("--tid", "4194305"),
	"aca-host report: --tid: '4194305' is not a number from 0 to 4194304\n"
};
FIXTURE_VARIANT_ADD(bad_number, script_pid_too_big) {
	{ "script", "/nonexistent/aca-host-test", "--pid", "4194305" },
	"aca-host script: --pid: '4194305' is not a number from 0 to 4194304\n"
};
FIXTURE_VARIANT_ADD(bad_number, sort_unknown_key) {
	BAD_REPORT("--sort", "comm,cpu"),
	"aca-host report: --sort: 'cpu' in 'comm,cpu' is not a key (keys: comm, pid, tid, "
	"dso, sym, srcline)\n"
};
FIXTURE_VARIANT_ADD(bad_number, sort_repeated_key) {
	BAD_REPORT("--sort", "sym,dso,sym"),
	"aca-host report: --sort: 'sym' in 'sym,dso,sym' is a repeated key"
};
FIXTURE_VARIANT_ADD(bad_number, sort_empty_key) {
	BAD_REPORT("--sort", "comm,"),
	"aca-host report: --sort: '' in 'comm,' is not a key"
};
FIXTURE_VARIANT_ADD(bad_number, format_unknown) {
	BAD_REPORT("--format", "xml"),
	"aca-host report: --format: 'xml' is not text, csv or json\n"
};
FIXTURE_VARIANT_ADD(bad_number, comms_empty_name) {
	BAD_REPORT("--comms", "a,,b"),
	"aca-host report: --comms: 'a,,b': an empty name\n"
};
FIXTURE_VARIANT_ADD(bad_number, script_dsos_empty_name) {
	{ "script", "/nonexistent/aca-host-test", "--dsos", "" },
	"aca-host script: --dsos: '': an empty name\n"
};
FIXTURE_VARIANT_ADD(bad_number, folded_with_a_format) {
	{ "report", "/nonexistent/aca-host-test", "--folded", "--format", "csv" },
	"aca-host report: --folded prints the stacks alone: not with --sort or --format\n"
};

FIXTURE_SETUP(bad_number)
{
	host_dir_setup(_metadata, &self->d);
}

FIXTURE_TEARDOWN(bad_number)
{
	host_dir_free(&self->d);
}

TEST_F(bad_number, is_refused_with_exit_status_2)
{
	EXPECT_EQ(2, synth_run_host(self->d.path, variant->args, &self->d.run));
	ASSERT_NE(NULL, self->d.run.err);
	if (!strstr(self->d.run.err, variant->said))
		TH_LOG("aca-host said: %s", self->d.run.err);
	EXPECT_NE(NULL, strstr(self->d.run.err, variant->said));
	EXPECT_STREQ("", self->d.run.out);
}

TEST_HARNESS_MAIN
