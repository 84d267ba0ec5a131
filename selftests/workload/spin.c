// SPDX-License-Identifier: GPL-2.0-only
/*
 * spin: a known hotspot for profiling tests. THREADS threads (default 2)
 * spin for SECONDS (default 10, fractions allowed) in aca_hot_spin(), a
 * function that does nothing else, so a working profiler puts nearly every
 * user-mode sample of this process there.
 *
 *   spin [THREADS [SECONDS]]
 *
 * It prints its pid and the address of aca_hot_spin() first (tests build
 * module records and samples from them), and exits 0.
 *
 *   spin mix [THREADS [SECONDS]]
 *
 * A profile with a known shape instead: each thread runs mix_thread(),
 * which calls aca_mix_a() .. aca_mix_e() in turn, each spinning for
 * MIX_WEIGHTS of a round, so they take 16:8:6:4:3 of the time (43, 22,
 * 16, 11 and 8 %), each called by mix_thread() alone. Profilers compared
 * on it must agree on that order and those shares.
 *
 *   spin munmap [THREADS [SECONDS]]
 *
 * Each thread maps a page of its own executable as code and unmaps it
 * again, as fast as it can: munmap()s of file code, for the hooks that
 * record them (the soak's churn).
 *
 *   spin kernel [mix|munmap] [THREADS [SECONDS]]
 *
 * As without the word, and the main thread reads KERNEL_READ bytes of
 * /dev/zero every KERNEL_EVERY_NS meanwhile: a few percent of the
 * process's time in the kernel (read_zero's clearing), at moments that
 * owe nothing to the profiler's own timer or wake-ups. A collection of it
 * has kernel-mode samples for certain, even on one CPU under QEMU icount,
 * where every other kernel entry follows a sampling interrupt and none is
 * sampled.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#define MAX_THREADS	1024

static int stop;

/* noinline and not static: it must stay a symbol of its own. */
__attribute__((noinline)) unsigned long aca_hot_spin(void);

__attribute__((noinline)) unsigned long aca_hot_spin(void)
{
	unsigned long n = 0;

	/*
	 * GCC gives a leaf that needs no stack no frame, even with
	 * -fno-omit-frame-pointer, and frame-pointer unwinders (perf's,
	 * aca's) then miss its caller. Asking for the frame keeps one.
	 */
	__asm__ volatile("" : : "r"(__builtin_frame_address(0)));
	/* A relaxed load per round: the loop never leaves this function. */
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
		n++;
	return n;
}

static void *thread(void *arg)
{
	*(unsigned long *)arg = aca_hot_spin();
	return NULL;
}

/* Iterations of a unit of weight: short enough for many rounds a second. */
#define MIX_UNIT	20000

/* @units units of spinning; the volatile keeps the loop whole. */
static inline void mix_spin(unsigned long units)
{
	for (volatile unsigned long i = 0; i < units * MIX_UNIT; i++)
		;
}

#define MIX_FUNC(name, weight)						\
	__attribute__((noinline)) void name(void);			\
	__attribute__((noinline)) void name(void) { mix_spin(weight); }

MIX_FUNC(aca_mix_a, 16)
MIX_FUNC(aca_mix_b, 8)
MIX_FUNC(aca_mix_c, 6)
MIX_FUNC(aca_mix_d, 4)
MIX_FUNC(aca_mix_e, 3)

__attribute__((noinline)) void *mix_thread(void *arg);

__attribute__((noinline)) void *mix_thread(void *arg)
{
	unsigned long rounds = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		aca_mix_a();
		aca_mix_b();
		aca_mix_c();
		aca_mix_d();
		aca_mix_e();
		rounds++;
	}
	*(unsigned long *)arg = rounds;
	return NULL;
}

static void *munmap_thread(void *arg)
{
	unsigned long rounds = 0;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	void *p;

	while (fd >= 0 && !__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			break;
		munmap(p, 4096);
		rounds++;
	}
	if (fd >= 0)
		close(fd);
	*(unsigned long *)arg = rounds;
	return NULL;
}

/*
 * 16 KiB a millisecond: on 6.12 under icount, one vCPU, 2.8 % of the
 * process's samples in the kernel, 1.5 % clearing (rep_stos_alternative).
 */
#define KERNEL_READ	16384
#define KERNEL_EVERY_NS	1000000L

/* Until @end (CLOCK_MONOTONIC): KERNEL_READ bytes, then a sleep, in turn. */
static void kernel_reads(const struct timespec *end)
{
	static char buf[KERNEL_READ];
	struct timespec now, gap = { 0, KERNEL_EVERY_NS };
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		perror("spin: /dev/zero");
		exit(1);
	}
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end->tv_sec ||
		    (now.tv_sec == end->tv_sec && now.tv_nsec >= end->tv_nsec))
			break;
		/* Short or interrupted (a signal mid-read, SIGSTOP): the next. */
		if (read(fd, buf, sizeof(buf)) < 0 && errno != EINTR) {
			perror("spin: /dev/zero");
			exit(1);
		}
		nanosleep(&gap, NULL);
	}
	close(fd);
}

static int parse(const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || *v < lo || *v > hi ? -1 : 0;
}

int main(int argc, char **argv)
{
	static pthread_t threads[MAX_THREADS];
	static unsigned long rounds[MAX_THREADS];
	double nthreads = 2, seconds = 10;
	void *(*run)(void *) = thread;
	struct timespec ts;
	int n, kernel = 0;

	if (argc > 1 && !strcmp(argv[1], "kernel")) {
		kernel = 1;
		argv++;
		argc--;
	}
	if (argc > 1 && (!strcmp(argv[1], "mix") || !strcmp(argv[1], "munmap"))) {
		run = strcmp(argv[1], "mix") ? munmap_thread : mix_thread;
		argv++;
		argc--;
	}
	if (argc > 3 || (argc > 1 && parse(argv[1], 1, MAX_THREADS, &nthreads)) ||
	    (argc > 2 && parse(argv[2], 0, 86400, &seconds))) {
		fprintf(stderr, "usage: spin [kernel] [mix|munmap] [THREADS (1-%d) [SECONDS]]\n",
			MAX_THREADS);
		return 2;
	}
	n = (int)nthreads;
	printf("spin: pid %d, %d threads for %g s in %s at %p\n",
	       (int)getpid(), n, seconds,
	       run == thread ? "aca_hot_spin" : run == mix_thread ? "mix_thread" : "munmap_thread",
	       run == thread ? (void *)aca_hot_spin :
	       run == mix_thread ? (void *)mix_thread : (void *)munmap_thread);
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		if (pthread_create(&threads[i], NULL, run, &rounds[i])) {
			fprintf(stderr, "spin: cannot start thread %d\n", i);
			return 1;
		}
	}
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - ts.tv_sec) * 1e9);
	if (kernel) {
		struct timespec end;

		clock_gettime(CLOCK_MONOTONIC, &end);
		end.tv_sec += ts.tv_sec + (end.tv_nsec + ts.tv_nsec) / 1000000000L;
		end.tv_nsec = (end.tv_nsec + ts.tv_nsec) % 1000000000L;
		kernel_reads(&end);
	} else {
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
