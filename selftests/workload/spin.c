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
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS	1024

static int stop;

/* noinline and not static: it must stay a symbol of its own. */
__attribute__((noinline)) unsigned long aca_hot_spin(void);

__attribute__((noinline)) unsigned long aca_hot_spin(void)
{
	unsigned long n = 0;

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
	struct timespec ts;
	int n;

	if (argc > 3 || (argc > 1 && parse(argv[1], 1, MAX_THREADS, &nthreads)) ||
	    (argc > 2 && parse(argv[2], 0, 86400, &seconds))) {
		fprintf(stderr, "usage: spin [THREADS (1-%d) [SECONDS]]\n", MAX_THREADS);
		return 2;
	}
	n = (int)nthreads;
	printf("spin: pid %d, %d threads for %g s in aca_hot_spin at %p\n",
	       (int)getpid(), n, seconds, (void *)aca_hot_spin);
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		if (pthread_create(&threads[i], NULL, thread, &rounds[i])) {
			fprintf(stderr, "spin: cannot start thread %d\n", i);
			return 1;
		}
	}
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
