// SPDX-License-Identifier: GPL-2.0-only
/*
 * work: the workloads make bench profiles. THREADS threads run MODE for
 * SECONDS, then it prints "ops N" (the work all threads completed) and
 * "seconds S" (the window, measured), and exits 0.
 *
 *   work cpu|syscall THREADS SECONDS
 *
 *   cpu      ALU work and a read-modify-write of a 256 KiB array per
 *            thread at pseudo-random places (in L2): an op is one such
 *            step. Small on purpose: under TCG a larger array is as much a
 *            test of the emulator's TLB as of the CPU, and swings widely.
 *   syscall  1-byte write() and read() on the thread's own pipe: an op is
 *            one pair, two system calls
 *
 * More threads than CPUs gives the many-thread workload.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS	1024
#define ARRAY_WORDS	(256u << 10 >> 3)	/* 256 KiB of uint64_t */
#define BATCH		256		/* ops between two looks at stop */

static int stop;
static int mode_syscall;

struct worker {
	pthread_t tid;
	uint64_t ops;
};

static uint64_t cpu_work(void)
{
	uint64_t *a = calloc(ARRAY_WORDS, sizeof(*a));
	uint64_t x = (uintptr_t)&x | 1, ops = 0;

	if (!a) {
		perror("work: calloc");
		exit(1);
	}
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		for (int i = 0; i < BATCH; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			a[x % ARRAY_WORDS] += x;
		}
		ops += BATCH;
	}
	free(a);
	return ops;
}

static uint64_t syscall_work(void)
{
	uint64_t ops = 0;
	int p[2];
	char c = 0;

	if (pipe(p)) {
		perror("work: pipe");
		exit(1);
	}
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1) {
			perror("work: pipe I/O");
			exit(1);
		}
		ops++;
	}
	close(p[0]);
	close(p[1]);
	return ops;
}

static void *worker(void *arg)
{
	struct worker *w = arg;

	w->ops = mode_syscall ? syscall_work() : cpu_work();
	return NULL;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static struct worker w[MAX_THREADS];
	struct timespec d;
	double secs, t0;
	uint64_t ops = 0;
	long n;
	int err;

	if (argc != 4 || (strcmp(argv[1], "cpu") && strcmp(argv[1], "syscall"))) {
		fprintf(stderr, "usage: work cpu|syscall THREADS SECONDS\n");
		return 2;
	}
	mode_syscall = !strcmp(argv[1], "syscall");
	n = strtol(argv[2], NULL, 10);
	secs = strtod(argv[3], NULL);
	if (n < 1 || n > MAX_THREADS || !(secs > 0 && secs <= 3600)) {
		fprintf(stderr, "work: THREADS 1 to %d, SECONDS > 0 up to 3600\n",
			MAX_THREADS);
		return 2;
	}
	t0 = now();
	for (long i = 0; i < n; i++) {
		err = pthread_create(&w[i].tid, NULL, worker, &w[i]);
		if (err) {
			fprintf(stderr, "work: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	d.tv_sec = (time_t)secs;
	d.tv_nsec = (long)((secs - (double)d.tv_sec) * 1e9);
	while (nanosleep(&d, &d) && errno == EINTR)
		;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (long i = 0; i < n; i++) {
		pthread_join(w[i].tid, NULL);
		ops += w[i].ops;
	}
	printf("ops %llu\nseconds %.3f\n", (unsigned long long)ops, now() - t0);
	return 0;
}
