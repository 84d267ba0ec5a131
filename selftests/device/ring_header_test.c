// SPDX-License-Identifier: GPL-2.0-only
/*
 * A local trace's ring headers are its owner's to write: uapi/aca.h maps
 * them read-write, for tail. Whatever a mapping writes there, into every
 * field and at the module's highest rate on every CPU, the kernel drops
 * records or goes on; it never hangs (a head near 2^64 once sent the
 * sampling interrupt's page loop round 2^52 times), and its counts stay
 * its own: every sample generated is written or dropped, and the trace
 * stops and frees. Run as root inside a test VM with aca.ko loaded; on
 * the debug kernel KASAN, lockdep and a soft lockup's panic watch it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../uapi/aca.h"
#include "../../driver/core/sep_cmd.h"
#include "trace.h"

#include "kselftest_harness.h"

/* How long each variant samples while its values are written. */
#define HOSTILE_MS	1000

/* Values a mapping writes into a header, given the data size. */
typedef void poison_fn(struct aca_mmap_header *h, uint64_t size);

/* The reproducer: the page loop's bound wrapped with head. */
static void head_near_2_64(struct aca_mmap_header *h, uint64_t size)
{
	h->head = -4095ull;
	h->tail = h->head - size + 48;
}

static void head_near_2_63(struct aca_mmap_header *h, uint64_t size)
{
	h->head = (1ull << 63) - 4095;
	h->tail = h->head - size + 48;
}

static void head_all_ones(struct aca_mmap_header *h, uint64_t size)
{
	h->head = ~0ull;
	h->tail = ~0ull - 1;
}

static void tail_near_2_64(struct aca_mmap_header *h, uint64_t size)
{
	h->tail = -4095ull;
}

static void tail_near_2_63(struct aca_mmap_header *h, uint64_t size)
{
	h->tail = (1ull << 63) - 4095;
}

static void tail_ahead_of_head(struct aca_mmap_header *h, uint64_t size)
{
	h->tail = __atomic_load_n(&h->head, __ATOMIC_ACQUIRE) + size / 2;
}

static void tail_a_ring_behind(struct aca_mmap_header *h, uint64_t size)
{
	h->tail = __atomic_load_n(&h->head, __ATOMIC_ACQUIRE) - 2 * size - 48;
}

/* A consumer that is always up to date but for half a record. */
static void tail_mid_record(struct aca_mmap_header *h, uint64_t size)
{
	h->tail = __atomic_load_n(&h->head, __ATOMIC_ACQUIRE) - 24;
}

static void counts(struct aca_mmap_header *h, uint64_t size)
{
	h->lost = ~0ull;
	h->written = 1ull << 63;
}

/* Every byte of the header page. */
static void every_byte(struct aca_mmap_header *h, uint64_t size)
{
	memset(h, 0xff, getpagesize());
}

FIXTURE(hostile) {
	int fd;
	struct aca_properties p;
	struct aca_trace_alloc a;
	struct ring r[MAX_CPUS];
	unsigned int nr;		/* rings mapped */
	volatile bool stop;
};

FIXTURE_VARIANT(hostile) {
	poison_fn *poison;
};

FIXTURE_VARIANT_ADD(hostile, head_near_2_64) { .poison = head_near_2_64 };
FIXTURE_VARIANT_ADD(hostile, head_near_2_63) { .poison = head_near_2_63 };
FIXTURE_VARIANT_ADD(hostile, head_all_ones) { .poison = head_all_ones };
FIXTURE_VARIANT_ADD(hostile, tail_near_2_64) { .poison = tail_near_2_64 };
FIXTURE_VARIANT_ADD(hostile, tail_near_2_63) { .poison = tail_near_2_63 };
FIXTURE_VARIANT_ADD(hostile, tail_ahead_of_head) { .poison = tail_ahead_of_head };
FIXTURE_VARIANT_ADD(hostile, tail_a_ring_behind) { .poison = tail_a_ring_behind };
FIXTURE_VARIANT_ADD(hostile, tail_mid_record) { .poison = tail_mid_record };
FIXTURE_VARIANT_ADD(hostile, counts) { .poison = counts };
FIXTURE_VARIANT_ADD(hostile, every_byte) { .poison = every_byte };

/* A trace at the highest rate, the smallest rings, each CPU's mapped. */
FIXTURE_SETUP(hostile)
{
	struct aca_trace_counts c;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	self->fd = fd;
	memset(&self->p, 0, sizeof(self->p));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_GET_PROPERTIES, &self->p));
	ASSERT_EQ(0, trace_setup(fd, self->p.min_data_pages, self->p.max_sample_rate, &self->a));
	ASSERT_GE(MAX_CPUS, self->a.num_cpus);
	self->nr = 0;
	for (unsigned int cpu = 0; cpu < self->a.num_cpus; cpu++) {
		self->r[cpu].base = NULL;
		ASSERT_EQ(0, get_counts(fd, cpu, &c));
		if (!(c.flags & ACA_COUNTS_RING))
			continue;
		ASSERT_EQ(0, ring_map(fd, &self->a, cpu, &self->r[cpu]));
		self->nr++;
	}
	ASSERT_LT(0, self->nr);
}

FIXTURE_TEARDOWN(hostile)
{
	for (unsigned int cpu = 0; cpu < self->a.num_cpus && cpu < MAX_CPUS; cpu++)
		if (self->r[cpu].base)
			munmap(self->r[cpu].base, self->r[cpu].len);
	if (self->fd >= 0)
		close(self->fd);
}

struct writer {
	FIXTURE_DATA(hostile) *self;
	poison_fn *poison;
};

/* Writes the variant's values into every mapped header until told. */
static void *write_headers(void *arg)
{
	struct writer *w = arg;

	while (!w->self->stop)
		for (unsigned int cpu = 0; cpu < w->self->a.num_cpus; cpu++)
			if (w->self->r[cpu].base)
				w->poison(w->self->r[cpu].h, w->self->r[cpu].size);
	return NULL;
}

/*
 * Sampling on every CPU while the headers hold hostile values: START and
 * STOP answer, each CPU's samples are all written or dropped, and what
 * the kernel says it wrote fits its ring's laps; then the trace frees,
 * and a new one can be had at once.
 */
TEST_F_TIMEOUT(hostile, sample_stop_and_free, 120)
{
	struct writer w = { .self = self, .poison = variant->poison };
	uint64_t generated = 0, dropped = 0;
	struct aca_trace_alloc again;
	struct aca_trace_counts c;
	struct burners burners;
	pthread_t writer;
	int fd;

	self->stop = false;
	ASSERT_EQ(0, pthread_create(&writer, NULL, write_headers, &w));
	/* Before START too: the first record meets the values. */
	usleep(10000);
	ASSERT_EQ(0, ioctl(self->fd, ACA_IOC_START));
	burn_start(&burners, HOSTILE_MS);
	burn_join(&burners);
	ASSERT_EQ(0, ioctl(self->fd, ACA_IOC_STOP));
	self->stop = true;
	pthread_join(writer, NULL);
	for (unsigned int cpu = 0; cpu < self->a.num_cpus; cpu++) {
		if (!self->r[cpu].base)
			continue;
		ASSERT_EQ(0, get_counts(self->fd, cpu, &c));
		EXPECT_EQ(ACA_TRACE_STOPPED, c.state);
		EXPECT_EQ(c.generated, c.written + c.dropped) TH_LOG("cpu %u", cpu);
		generated += c.generated;
		dropped += c.dropped;
	}
	TH_LOG("%llu samples generated, %llu dropped",
	       (unsigned long long)generated, (unsigned long long)dropped);
	EXPECT_LT(0, generated);
	/* Freed: the owner's FREE_TRACE, then every mapping gone. */
	EXPECT_EQ(0, ioctl(self->fd, ACA_IOC_FREE_TRACE));
	for (unsigned int cpu = 0; cpu < self->a.num_cpus; cpu++) {
		if (self->r[cpu].base)
			munmap(self->r[cpu].base, self->r[cpu].len);
		self->r[cpu].base = NULL;
	}
	fd = open_dev();
	ASSERT_LE(0, fd);
	memset(&again, 0, sizeof(again));
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_ALLOC_TRACE, &again)) TH_LOG("errno %d", errno);
	close(fd);
}

TEST_HARNESS_MAIN
