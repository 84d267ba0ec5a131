// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replay: the fuzz engine (core_fuzz.c) without libFuzzer. Runs every input
 * of each PATH, a file or a directory of them (in name order), once through
 * LLVMFuzzerTestOneInput, and reports each PATH as a TAP test (-v: each
 * input as a comment line too):
 *
 *	core_fuzz_replay [-v] [-t SECONDS] PATH...
 *
 * make fuzz-replay (and make check) runs it on the seeds and the garbage
 * sessions make_seeds writes and on the corpus the fuzzer has kept, built
 * with gcc: no clang, no libFuzzer. An input fails when the engine aborts
 * (its message is on stderr), crashes or runs for more than SECONDS (10):
 * its PATH fails, naming it, and nothing after it runs (the plan counts
 * the PATHs left as failed). An input named garbage-* ends with a whole
 * collection by the next host: it fails too unless that collection started
 * sampling. A PATH without inputs (a corpus not fuzzed yet) is skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core_fuzz.h"

#define GARBAGE_PREFIX	"garbage-"

static char **inputs;
static size_t ninputs, cap;
/* What the signal handler writes: the current input and its PATH failed. */
static char failed_line[8400];
static size_t failed_len;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "core_fuzz_replay: ");
	fprintf(stderr, fmt, arg, strerror(errno));
	fputc('\n', stderr);
	exit(2);
}

static void add(const char *path)
{
	if (ninputs == cap) {
		cap = cap ? 2 * cap : 256;
		inputs = realloc(inputs, cap * sizeof(*inputs));
		if (!inputs)
			die("%s: %s", "realloc");
	}
	inputs[ninputs] = strdup(path);
	if (!inputs[ninputs++])
		die("%s: %s", "strdup");
}

/* A file, or every regular file of a directory, in name order. */
static void collect(const char *path)
{
	struct dirent **ents;
	struct stat st;
	int n;

	if (stat(path, &st))
		die("%s: %s", path);
	if (!S_ISDIR(st.st_mode)) {
		add(path);
		return;
	}
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0)
		die("%s: %s", path);
	for (int i = 0; i < n; i++) {
		char file[4096];

		snprintf(file, sizeof(file), "%s/%s", path, ents[i]->d_name);
		if (!stat(file, &st) && S_ISREG(st.st_mode))
			add(file);
		free(ents[i]);
	}
	free(ents);
}

static unsigned char *load(const char *path, size_t *len)
{
	unsigned char *p = NULL;
	size_t n = 0, got;
	FILE *f = fopen(path, "rb");

	if (!f)
		die("%s: %s", path);
	do {
		p = realloc(p, n + 65536);
		if (!p)
			die("%s: %s", path);
		got = fread(p + n, 1, 65536, f);
		n += got;
	} while (got == 65536);
	if (ferror(f))
		die("%s: %s", path);
	fclose(f);
	*len = n;
	return p;
}

/* The engine aborted, something crashed, or the alarm rang: say which input. */
static void on_signal(int sig)
{
	static const char timeout[] = "# FAIL: timed out\n";

	if (sig == SIGALRM && write(1, timeout, sizeof(timeout) - 1) < 0)
		_exit(1);
	if (write(1, failed_line, failed_len) < 0)
		_exit(1);
	_exit(1);
}

static bool is_garbage(const char *path)
{
	const char *base = strrchr(path, '/');

	return !strncmp(base ? base + 1 : path, GARBAGE_PREFIX, strlen(GARBAGE_PREFIX));
}

/* Every input of @path, through the engine; false if one failed. */
static bool replay(size_t test, const char *path, unsigned int seconds, bool verbose)
{
	size_t first = ninputs, failed = 0;

	collect(path);
	for (size_t i = first; i < ninputs; i++) {
		size_t len;
		unsigned char *data = load(inputs[i], &len);

		failed_len = snprintf(failed_line, sizeof(failed_line),
				      "# FAIL %s (the engine says why on stderr)\nnot ok %zu %s\n",
				      inputs[i], test, path);
		if (failed_len >= sizeof(failed_line))
			failed_len = sizeof(failed_line) - 1;
		alarm(seconds);
		LLVMFuzzerTestOneInput(data, len);
		alarm(0);
		free(data);
		if (is_garbage(inputs[i]) && !core_fuzz_stats.last_session_started) {
			printf("# FAIL %s: the next host's collection never started sampling\n",
			       inputs[i]);
			failed++;
		} else if (verbose) {
			printf("# %s\n", inputs[i]);
		}
		fflush(stdout);
	}
	if (failed)
		printf("not ok %zu %s: %zu of %zu inputs failed\n", test, path, failed,
		       ninputs - first);
	else if (ninputs == first)
		printf("ok %zu %s # SKIP no inputs\n", test, path);
	else
		printf("ok %zu %s: %zu inputs\n", test, path, ninputs - first);
	fflush(stdout);
	return !failed;
}

int main(int argc, char **argv)
{
	unsigned int seconds = 10;
	bool verbose = false;
	int opt, failed = 0;

	while ((opt = getopt(argc, argv, "vt:")) != -1) {
		if (opt == 'v') {
			verbose = true;
		} else if (opt == 't') {
			seconds = strtoul(optarg, NULL, 0);
		} else {
			fprintf(stderr, "usage: %s [-v] [-t SECONDS] PATH...\n", argv[0]);
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: %s [-v] [-t SECONDS] PATH...\n", argv[0]);
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	signal(SIGABRT, on_signal);
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGFPE, on_signal);
	signal(SIGILL, on_signal);
	signal(SIGALRM, on_signal);

	printf("TAP version 13\n1..%d\n", argc - optind);
	fflush(stdout);
	for (int i = optind; i < argc; i++)
		if (!replay(i - optind + 1, argv[i], seconds, verbose))
			failed++;
	printf("# %lu inputs: %lu sessions, %lu started sampling\n",
	       core_fuzz_stats.inputs, core_fuzz_stats.sessions,
	       core_fuzz_stats.starts);
	printf("# Totals: pass:%d fail:%d\n", argc - optind - failed, failed);
	return failed ? 1 : 0;
}
