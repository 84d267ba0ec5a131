// SPDX-License-Identifier: GPL-2.0-only
/*
 * burst: a known amount of the work software events count, then exit.
 *
 *   burst ROUNDS PAGES
 *
 * Two threads pass a byte back and forth over a pair of pipes ROUNDS times
 * (each pass blocks one thread in read() and wakes the other: two context
 * switches a round at least, on one CPU or two), then the process writes
 * to PAGES fresh anonymous pages, 256 to a mapping (a page fault each).
 * Counting tools run over it must count at least that much; that they
 * agree with each other is the test's (selftests/vm/counting). It prints
 * what it did and exits 0, or 1 if a system call failed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHUNK	256	/* pages a mapping */

static int ping[2], pong[2];
static long rounds;

static void *echo(void *arg)
{
	char c;

	for (long i = 0; i < rounds; i++)
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			return (void *)1;
	return NULL;
}

static int pass(void)
{
	pthread_t t;
	void *ret;
	char c = 0;

	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, echo, NULL))
		return -1;
	for (long i = 0; i < rounds; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return -1;
	return pthread_join(t, &ret) || ret ? -1 : 0;
}

static int fault(long pages)
{
	long size = sysconf(_SC_PAGESIZE);

	for (long done = 0; done < pages; done += CHUNK) {
		long n = pages - done < CHUNK ? pages - done : CHUNK;
		char *p = mmap(NULL, n * size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return -1;
		for (long i = 0; i < n; i++)
			p[i * size] = 1;
		munmap(p, n * size);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long pages;

	if (argc != 3 || (rounds = atol(argv[1])) < 0 || (pages = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: burst ROUNDS PAGES\n");
		return 2;
	}
	if (pass() || fault(pages)) {
		perror("burst");
		return 1;
	}
	printf("burst: %ld rounds, %ld pages\n", rounds, pages);
	return 0;
}
