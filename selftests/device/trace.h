/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A local trace as the tests of the local API (uapi/aca.h) make one: the
 * device, a cpu-clock configuration, threads that keep every CPU busy
 * (cpu-clock does not sample idle ones), a CPU's ring mapped, its counts.
 */
#ifndef ACA_SELFTESTS_DEVICE_TRACE_H
#define ACA_SELFTESTS_DEVICE_TRACE_H

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "../../uapi/aca.h"

#define EVENT_INDEX	3
#define MAX_CPUS	64

static inline int open_dev(void)
{
	return open(ACA_DEVICE_PATH, O_RDWR | O_CLOEXEC);
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* One cpu-clock event at @hz, records tagged EVENT_INDEX. */
static inline struct aca_trace_config cpu_clock_config(uint64_t hz)
{
	struct aca_trace_config c = { .nevents = 1 };

	c.events[0].kind = ACA_EVENT_CPU_CLOCK;
	c.events[0].flags = ACA_EVENT_RATE;
	c.events[0].event_index = EVENT_INDEX;
	c.events[0].period = hz;
	return c;
}

/* ALLOC_TRACE of @pages, then a cpu-clock configuration at @hz. */
static inline int trace_setup(int fd, uint32_t pages, uint64_t hz,
		       struct aca_trace_alloc *a)
{
	struct aca_trace_config c = cpu_clock_config(hz);

	memset(a, 0, sizeof(*a));
	a->data_pages = pages;
	if (ioctl(fd, ACA_IOC_ALLOC_TRACE, a))
		return -1;
	return ioctl(fd, ACA_IOC_STAGE_CONFIG, &c);
}

/* cpu-clock does not sample idle CPUs: keep every online one busy. */
struct burner {
	pthread_t thread;
	int cpu;
	uint64_t until;
};

static inline void *burn(void *arg)
{
	struct burner *b = arg;
	cpu_set_t set;
	volatile uint64_t x = 0;

	CPU_ZERO(&set);
	CPU_SET(b->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (now_ns() < b->until)
		for (int i = 0; i < 10000; i++)
			x += i;
	return NULL;
}

struct burners {
	struct burner b[MAX_CPUS];
	int n;
};

/* One spinning thread per CPU this process may run on, for @ms. */
static inline void burn_start(struct burners *s, unsigned int ms)
{
	uint64_t until = now_ns() + ms * 1000000ull;
	cpu_set_t online;

	s->n = 0;
	sched_getaffinity(0, sizeof(online), &online);
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct burner *b = &s->b[s->n];

		if (!CPU_ISSET(cpu, &online))
			continue;
		b->cpu = cpu;
		b->until = until;
		if (!pthread_create(&b->thread, NULL, burn, b))
			s->n++;
	}
}

static inline void burn_join(struct burners *s)
{
	for (int i = 0; i < s->n; i++)
		pthread_join(s->b[i].thread, NULL);
}

static inline void burn_all_cpus(unsigned int ms)
{
	struct burners s;

	burn_start(&s, ms);
	burn_join(&s);
}

struct ring {
	void *base;
	size_t len;
	struct aca_mmap_header *h;
	uint8_t *data;
	uint64_t size;
};

static inline int ring_map(int fd, const struct aca_trace_alloc *a, unsigned int cpu,
		    struct ring *r)
{
	r->len = a->map_size;
	r->base = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       (off_t)cpu * a->map_size);
	if (r->base == MAP_FAILED)
		return -1;
	r->h = r->base;
	r->data = (uint8_t *)r->base + getpagesize();
	r->size = (uint64_t)a->data_pages * getpagesize();
	return 0;
}

static inline int get_counts(int fd, unsigned int cpu, struct aca_trace_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	return ioctl(fd, ACA_IOC_GET_COUNTS, c);
}

#endif /* ACA_SELFTESTS_DEVICE_TRACE_H */
