// SPDX-License-Identifier: GPL-2.0-only
/*
 * The local sampling API of /dev/aca (uapi/aca.h), run as root inside a
 * test VM with aca.ko loaded: properties, a whole trace read through the
 * mmap()ed rings, the busy rules against host sessions, bad input, and
 * the lifetime of traces and their mappings.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/status_check.h"
#include "../../uapi/aca.h"
#include "../../driver/core/sep_cmd.h"

#include "trace.h"

static int ioctl_errno(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

/* What a CPU's records must look like. */
struct expect {
	unsigned int cpu;
	uint64_t tsc_min, tsc_max;
	uint32_t pid;		/* 0: any */
	uint64_t ip;		/* 0: any */
};

/*
 * Read every record of a ring as a consumer must (uapi/aca.h), checking
 * each; returns how many were read, or -1 at the first bad one.
 */
static long ring_drain(struct ring *r, const struct expect *e)
{
	uint64_t head = __atomic_load_n(&r->h->head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->h->tail;
	long n = 0;

	if (head - tail > r->size || (head - tail) % sizeof(struct sep_sample_record_pc))
		return -1;
	for (; tail < head; tail += sizeof(struct sep_sample_record_pc), n++) {
		struct sep_sample_record_pc rec;
		uint8_t *p = (uint8_t *)&rec;

		for (size_t i = 0; i < sizeof(rec); i++)
			p[i] = r->data[(tail + i) & (r->size - 1)];
		if (rec.descriptor_id != EVENT_INDEX ||
		    (rec.bit_fields2 & SEP_SAMPLE_EVENT_INDEX_MASK) !=
		    EVENT_INDEX << SEP_SAMPLE_EVENT_INDEX_SHIFT ||
		    (rec.cpu_and_os & SEP_SAMPLE_CPU_NUM_MASK) != e->cpu ||
		    rec.tsc < e->tsc_min || rec.tsc > e->tsc_max ||
		    (e->pid && rec.pid_rec_index != e->pid) || (e->ip && rec.iip != e->ip)) {
			fprintf(stderr, "# cpu %u record %ld: id %u bits %#x cpu %u tsc %llu [%llu, %llu] pid %u\n",
				e->cpu, n, rec.descriptor_id, rec.bit_fields2,
				rec.cpu_and_os & SEP_SAMPLE_CPU_NUM_MASK,
				(unsigned long long)rec.tsc,
				(unsigned long long)e->tsc_min,
				(unsigned long long)e->tsc_max,
				rec.pid_rec_index);
			return -1;
		}
	}
	__atomic_store_n(&r->h->tail, tail, __ATOMIC_RELEASE);
	return n;
}


static struct aca_properties get_props(struct __test_metadata *_metadata)
{
	struct aca_properties p;
	int fd = open_dev();

	memset(&p, 0xff, sizeof(p));
	EXPECT_LE(0, fd);
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_GET_PROPERTIES, &p));
	close(fd);
	return p;
}

/* The status a hello on a fresh file gets. */
static int hello_status(void)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	size_t got = 0;
	int fd = open_dev();

	if (fd < 0 || write(fd, &hello, sizeof(hello)) != sizeof(hello))
		return -1;
	while (got < sizeof(s)) {
		ssize_t n = read(fd, (char *)&s + got, sizeof(s) - got);

		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	return got == sizeof(s) ? s.status : -1;
}

/* The collection file (in debugfs) says no session samples; -1: unread. */
static int collection_none(void)
{
	char buf[64] = { 0 };
	int fd = open("/sys/kernel/debug/aca/collection", O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 0)
		return -1;
	close(fd);
	return !strncmp(buf, "event none", 10);
}

TEST(properties)
{
	struct aca_properties p = get_props(_metadata);

	EXPECT_EQ(ACA_API_VERSION, p.api_version);
	EXPECT_EQ(0, p.flags & ~(ACA_PROP_PMU | ACA_PROP_SW_CLOCK));
	EXPECT_LE(1, p.online_cpus);
	EXPECT_LE(p.online_cpus, p.num_cpus);
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN), p.online_cpus);
	EXPECT_EQ(ACA_MAX_EVENTS, p.max_events);
	EXPECT_EQ(getpagesize(), p.page_size);
	EXPECT_EQ(sizeof(struct sep_sample_record_pc), p.record_size);
	EXPECT_EQ(2, p.min_data_pages);
	EXPECT_EQ(4096, p.max_data_pages);
	EXPECT_LE(p.min_data_pages, p.default_data_pages);
	EXPECT_GE(p.max_data_pages, p.default_data_pages);
	EXPECT_EQ(0, p.default_data_pages & (p.default_data_pages - 1));
	EXPECT_LT(0, p.max_sample_rate);
	EXPECT_EQ(0, p.reserved);
	EXPECT_LT(100000000ull, p.tsc_hz);
	EXPECT_GT(10000000000ull, p.tsc_hz);
	TH_LOG("flags %#x, %u CPUs (%u online), default %u pages, tsc %llu Hz",
	       p.flags, p.num_cpus, p.online_cpus, p.default_data_pages,
	       (unsigned long long)p.tsc_hz);
}

/* Any file may ask, even a host session's control connection. */
TEST(properties_on_a_protocol_connection)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	struct aca_properties p;
	int ctl = open_dev();

	ASSERT_LE(0, ctl);
	ASSERT_EQ(sizeof(hello), write(ctl, &hello, sizeof(hello)));
	ASSERT_EQ(sizeof(s), read(ctl, &s, sizeof(s)));
	ASSERT_EQ(VT_SUCCESS, s.status);
	EXPECT_EQ(0, ioctl(ctl, ACA_IOC_GET_PROPERTIES, &p));
	EXPECT_EQ(s.hardware_info.tsc_freq, p.tsc_hz);
	EXPECT_LE(s.hardware_info.num_cpus, p.num_cpus);
	close(ctl);
}

/* ALLOC_TRACE's default is the ring_pages parameter, as it is now. */
TEST(default_ring_size_is_ring_pages)
{
	const char *param = "/sys/module/aca/parameters/ring_pages";
	struct aca_trace_alloc a = { 0 };
	struct aca_properties p;
	char old[16] = { 0 };
	int fd = open(param, O_RDWR), dev = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_LE(0, dev);
	ASSERT_LT(0, read(fd, old, sizeof(old) - 1));
	p = get_props(_metadata);
	EXPECT_EQ(atoi(old), p.default_data_pages);
	ASSERT_EQ(1, pwrite(fd, "8", 1, 0));
	p = get_props(_metadata);
	EXPECT_EQ(8, p.default_data_pages);
	EXPECT_EQ(0, ioctl(dev, ACA_IOC_ALLOC_TRACE, &a));
	EXPECT_EQ(8, a.data_pages);
	EXPECT_EQ(9 * getpagesize(), a.map_size);
	EXPECT_EQ((ssize_t)strlen(old), pwrite(fd, old, strlen(old), 0));
	close(fd);
	close(dev);
}

TEST(sample_and_read_every_ring)
{
	struct aca_properties p = get_props(_metadata);
	struct aca_trace_config staged = cpu_clock_config(1000), got;
	struct aca_trace_alloc a = { .data_pages = 64 };
	struct aca_trace_counts c;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_ALLOC_TRACE, &a));
	EXPECT_EQ(64, a.data_pages);
	EXPECT_EQ(p.num_cpus, a.num_cpus);
	EXPECT_EQ(p.online_cpus, a.nr_rings);
	EXPECT_EQ((uint64_t)(a.data_pages + 1) * getpagesize(), a.map_size);
	ASSERT_EQ(0, get_counts(fd, 0, &c));
	EXPECT_EQ(ACA_TRACE_ALLOCATED, c.state);

	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STAGE_CONFIG, &staged));
	memset(&got, 0xff, sizeof(got));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_GET_CONFIG, &got));
	EXPECT_EQ(0, memcmp(&staged, &got, sizeof(got)));
	ASSERT_EQ(0, get_counts(fd, 0, &c));
	EXPECT_EQ(ACA_TRACE_STAGED, c.state);

	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	ASSERT_EQ(0, get_counts(fd, 0, &c));
	EXPECT_EQ(ACA_TRACE_RUNNING, c.state);
	EXPECT_EQ(0, c.stop_tsc);
	burn_all_cpus(1000);
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STOP));
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_STOP));	/* a no-op now */

	for (unsigned int cpu = 0; cpu < a.num_cpus; cpu++) {
		struct expect e = { .cpu = cpu };
		struct ring r;
		long n;

		ASSERT_EQ(0, get_counts(fd, cpu, &c));
		EXPECT_EQ(ACA_TRACE_STOPPED, c.state);
		if (!(c.flags & ACA_COUNTS_RING))
			continue;
		EXPECT_TRUE(c.flags & ACA_COUNTS_CPU_CLOCK);
		EXPECT_LT(c.start_tsc, c.stop_tsc);
		e.tsc_min = c.start_tsc;
		e.tsc_max = c.stop_tsc;
		ASSERT_EQ(0, ring_map(fd, &a, cpu, &r));
		EXPECT_EQ(c.written, r.h->written);
		EXPECT_EQ(c.dropped, r.h->lost);
		n = ring_drain(&r, &e);
		ASSERT_LE(0, n);
		EXPECT_EQ(c.written, (uint64_t)n);
		EXPECT_EQ(c.generated, n + c.dropped);
		/* ~1000 per second; a slow (TCG, loaded) guest takes fewer. */
		EXPECT_LT(100, n);
		EXPECT_GT(1500, n);
		EXPECT_EQ(0, ring_drain(&r, &e));	/* all consumed */
		TH_LOG("cpu %u: generated %llu read %ld dropped %llu", cpu,
		       (unsigned long long)c.generated, n,
		       (unsigned long long)c.dropped);
		EXPECT_EQ(0, munmap(r.base, r.len));
	}
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_FREE_TRACE));
	EXPECT_EQ(1, collection_none());
	EXPECT_EQ(0, close(fd));
}

/* PMU events (cycles) where there is a PMU, cpu-clock otherwise. */
TEST(raw_event_samples_or_falls_back)
{
	struct aca_properties p = get_props(_metadata);
	struct aca_trace_config cfg = { .nevents = 1 };
	struct aca_trace_alloc a = { .data_pages = 16 };
	struct aca_trace_counts c;
	uint64_t total = 0;
	int fd = open_dev();

	cfg.events[0].kind = ACA_EVENT_RAW;
	cfg.events[0].flags = ACA_EVENT_RATE;
	cfg.events[0].event_index = EVENT_INDEX;
	cfg.events[0].config = 0x003c;	/* unhalted core cycles */
	cfg.events[0].period = 1000;
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_ALLOC_TRACE, &a));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STAGE_CONFIG, &cfg));
	if (!(p.flags & (ACA_PROP_PMU | ACA_PROP_SW_CLOCK))) {
		EXPECT_NE(0, ioctl(fd, ACA_IOC_START));
		return;
	}
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	burn_all_cpus(300);
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STOP));
	for (unsigned int cpu = 0; cpu < a.num_cpus; cpu++) {
		ASSERT_EQ(0, get_counts(fd, cpu, &c));
		if (!(p.flags & ACA_PROP_PMU))
			EXPECT_TRUE(c.flags & ACA_COUNTS_CPU_CLOCK);
		EXPECT_EQ(c.generated, c.written + c.dropped);
		total += c.written;
	}
	EXPECT_LT(0, total);
	close(fd);
}

/* selftests/vm/ibs-stub's samples: their IP tags the config (+ 1 for ibs_fetch). */
#define IBS_STUB_IP		0xffffffffabc00000ull
#define IBS_OP_CNT_CTL		(1ull << 19)

/*
 * An ibs_op event (cnt_ctl, 1000 a second) samples every CPU where the
 * target has the ibs_op PMU (selftests/vm/ibs: the stand-in's, whose IPs
 * are the config's tag); elsewhere STAGE_CONFIG says ENODEV.
 */
TEST(ibs_event_samples_where_the_pmu_exists)
{
	struct aca_trace_config cfg = { .nevents = 1 };
	struct aca_trace_alloc a = { .data_pages = 16 };
	bool pmu = !access("/sys/bus/event_source/devices/ibs_op", F_OK);
	bool stub = !access("/sys/module/aca_ibs_stub", F_OK);
	struct aca_trace_counts c;
	uint64_t total = 0;
	int fd = open_dev();

	cfg.events[0].kind = ACA_EVENT_IBS_OP;
	cfg.events[0].flags = ACA_EVENT_RATE;
	cfg.events[0].event_index = EVENT_INDEX;
	cfg.events[0].config = IBS_OP_CNT_CTL;
	cfg.events[0].period = 1000;
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_ALLOC_TRACE, &a));
	if (!pmu) {
		EXPECT_EQ(ENODEV, ioctl_errno(fd, ACA_IOC_STAGE_CONFIG, &cfg));
		close(fd);
		return;
	}
	/* An option no format file names. */
	cfg.events[0].config = 1ull << 18;
	EXPECT_EQ(EINVAL, ioctl_errno(fd, ACA_IOC_STAGE_CONFIG, &cfg));
	cfg.events[0].config = IBS_OP_CNT_CTL;
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STAGE_CONFIG, &cfg));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	usleep(300000);
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STOP));
	for (unsigned int cpu = 0; cpu < a.num_cpus; cpu++) {
		struct expect e = { .cpu = cpu, .tsc_max = ~0ull,
				    .ip = stub ? IBS_STUB_IP + (IBS_OP_CNT_CTL >> 16) : 0 };
		struct ring r;
		long n;

		ASSERT_EQ(0, get_counts(fd, cpu, &c));
		if (!(c.flags & ACA_COUNTS_RING))
			continue;
		EXPECT_FALSE(c.flags & ACA_COUNTS_CPU_CLOCK);
		ASSERT_EQ(0, ring_map(fd, &a, cpu, &r));
		n = ring_drain(&r, &e);
		EXPECT_EQ(c.written, (uint64_t)n);
		EXPECT_EQ(0, munmap(r.base, r.len));
		total += c.written;
	}
	TH_LOG("%llu IBS samples%s", (unsigned long long)total, stub ? ", stand-in tags" : "");
	EXPECT_LT(0, total);
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_FREE_TRACE));
	close(fd);
}

/*
 * An ibs_op event staged, then its PMU replaced by the command in
 * ACA_IBS_RELOAD (selftests/vm/ibs: the stand-in unloaded and loaded again
 * with ibs_op registered first, so that the staged perf type is ibs_fetch's
 * now): START refuses it (ENODEV) rather than sample ibs_fetch as ibs_op.
 */
TEST(ibs_event_is_refused_at_start_when_its_pmu_was_replaced)
{
	struct aca_trace_config cfg = { .nevents = 1 };
	struct aca_trace_alloc a = { .data_pages = 16 };
	const char *reload = getenv("ACA_IBS_RELOAD");
	int fd;

	if (!reload)
		SKIP(return, "ACA_IBS_RELOAD unset: selftests/vm/ibs sets it, with the stand-in");
	fd = open_dev();
	ASSERT_LE(0, fd);
	/* What either stand-in PMU takes: no option, a count of 10000. */
	cfg.events[0].kind = ACA_EVENT_IBS_OP;
	cfg.events[0].event_index = EVENT_INDEX;
	cfg.events[0].period = 160000;
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_ALLOC_TRACE, &a));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STAGE_CONFIG, &cfg));
	ASSERT_EQ(0, system(reload)) TH_LOG("%s failed", reload);
	EXPECT_EQ(ENODEV, ioctl_errno(fd, ACA_IOC_START, NULL));
	close(fd);
}

TEST(second_trace_is_busy)
{
	struct aca_trace_alloc a, b = { 0 };
	int fd = open_dev(), other = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, trace_setup(fd, 0, 1000, &a));
	EXPECT_EQ(EBUSY, ioctl_errno(other, ACA_IOC_ALLOC_TRACE, &b));
	EXPECT_EQ(EBUSY, ioctl_errno(fd, ACA_IOC_ALLOC_TRACE, &b));
	/* The other file owns nothing. */
	EXPECT_EQ(ENXIO, ioctl_errno(other, ACA_IOC_START, NULL));
	EXPECT_EQ(ENXIO, ioctl_errno(other, ACA_IOC_FREE_TRACE, NULL));
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_FREE_TRACE));
	EXPECT_EQ(0, ioctl(other, ACA_IOC_ALLOC_TRACE, &b));
	close(fd);
	close(other);
}

TEST(hosts_are_busy_while_a_trace_exists)
{
	struct aca_trace_alloc a;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, trace_setup(fd, 0, 1000, &a));
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, hello_status());
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, hello_status());
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_FREE_TRACE));
	EXPECT_EQ(VT_SUCCESS, hello_status());
	close(fd);
}

TEST(no_trace_while_a_session_exists)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	struct aca_trace_alloc a = { 0 };
	int ctl = open_dev(), fd = open_dev();

	ASSERT_LE(0, ctl);
	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(hello), write(ctl, &hello, sizeof(hello)));
	ASSERT_EQ(sizeof(s), read(ctl, &s, sizeof(s)));
	ASSERT_EQ(VT_SUCCESS, s.status);
	EXPECT_EQ(EBUSY, ioctl_errno(fd, ACA_IOC_ALLOC_TRACE, &a));
	EXPECT_EQ(EBUSY, ioctl_errno(ctl, ACA_IOC_ALLOC_TRACE, &a));
	/* The session ends; its control file stays a protocol connection. */
	ASSERT_EQ(0, ioctl(ctl, ACA_IOC_HANGUP));
	EXPECT_EQ(EBUSY, ioctl_errno(ctl, ACA_IOC_ALLOC_TRACE, &a));
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_ALLOC_TRACE, &a));
	close(ctl);
	close(fd);
}

TEST(trace_owner_talking_protocol_is_a_second_host)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	struct aca_trace_alloc a;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, trace_setup(fd, 0, 1000, &a));
	ASSERT_EQ(sizeof(hello), write(fd, &hello, sizeof(hello)));
	ASSERT_EQ(sizeof(s), read(fd, &s, sizeof(s)));
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, s.status);
	/* Still the owner of its trace. */
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_START));
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_FREE_TRACE));
	close(fd);
}

TEST(bad_alloc)
{
	static const uint32_t bad[] = { 1, 3, 6, 8192, 1u << 31, 0xffffffff };
	struct aca_trace_alloc a;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a = (struct aca_trace_alloc){ .data_pages = bad[i] };
		EXPECT_EQ(EINVAL, ioctl_errno(fd, ACA_IOC_ALLOC_TRACE, &a));
	}
	a = (struct aca_trace_alloc){ .flags = 1 };
	EXPECT_EQ(EINVAL, ioctl_errno(fd, ACA_IOC_ALLOC_TRACE, &a));
	EXPECT_EQ(EFAULT, ioctl_errno(fd, ACA_IOC_ALLOC_TRACE, (void *)8));
	EXPECT_EQ(ENOTTY, ioctl_errno(fd, _IO(ACA_IOC_MAGIC, 0x1f), NULL));
	/* Nothing was allocated by any of them. */
	EXPECT_EQ(ENXIO, ioctl_errno(fd, ACA_IOC_FREE_TRACE, NULL));
	close(fd);
}

TEST(nothing_before_alloc)
{
	struct aca_trace_config cfg = cpu_clock_config(1000);
	struct aca_trace_counts c = { 0 };
	int fd = open_dev();

	ASSERT_LE(0, fd);
	EXPECT_EQ(ENXIO, ioctl_errno(fd, ACA_IOC_STAGE_CONFIG, &cfg));
	EXPECT_EQ(ENXIO, ioctl_errno(fd, ACA_IOC_GET_CONFIG, &cfg));
	EXPECT_EQ(ENXIO, ioctl_errno(fd, ACA_IOC_START, NULL));
	EXPECT_EQ(ENXIO, ioctl_errno(fd, ACA_IOC_STOP, NULL));
	EXPECT_EQ(ENXIO, ioctl_errno(fd, ACA_IOC_FREE_TRACE, NULL));
	EXPECT_EQ(ENXIO, ioctl_errno(fd, ACA_IOC_GET_COUNTS, &c));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 3 * getpagesize(), PROT_READ,
				   MAP_SHARED, fd, 0));
	EXPECT_EQ(ENXIO, errno);
	close(fd);
}

TEST(bad_config)
{
	struct aca_trace_config good = cpu_clock_config(1000), cfg;
	struct aca_trace_alloc a = { 0 };
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_ALLOC_TRACE, &a));
	EXPECT_EQ(ENODATA, ioctl_errno(fd, ACA_IOC_GET_CONFIG, &cfg));
	EXPECT_EQ(ENODATA, ioctl_errno(fd, ACA_IOC_START, NULL));

#define BAD(errno_, change) do {					\
		cfg = good;						\
		change;							\
		EXPECT_EQ(errno_, ioctl_errno(fd, ACA_IOC_STAGE_CONFIG, &cfg)); \
	} while (0)
	BAD(EINVAL, cfg.nevents = 0);
	BAD(EINVAL, cfg.nevents = ACA_MAX_EVENTS + 1);
	BAD(EINVAL, cfg.nevents = 0x80000001);
	BAD(EINVAL, cfg.flags = 1);
	BAD(EINVAL, cfg.reserved = 1);
	BAD(EINVAL, cfg.events[0].kind = 0);
	BAD(EINVAL, cfg.events[0].kind = 5);
	/* IBS filters no ring, is precise anyway and has no config1. */
	BAD(EINVAL, cfg.events[0].kind = ACA_EVENT_IBS_OP;
	    cfg.events[0].flags |= ACA_EVENT_EXCLUDE_KERNEL);
	BAD(EINVAL, cfg.events[0].kind = ACA_EVENT_IBS_FETCH;
	    cfg.events[0].flags |= ACA_EVENT_PRECISE);
	BAD(EINVAL, cfg.events[0].kind = ACA_EVENT_IBS_OP; cfg.events[0].config1 = 1);
	BAD(EINVAL, cfg.events[0].reserved = 1);
	BAD(EINVAL, cfg.events[0].flags |= 0x10);
	BAD(EINVAL, cfg.events[0].flags |= ACA_EVENT_PRECISE);
	BAD(EINVAL, cfg.events[0].flags |= ACA_EVENT_EXCLUDE_USER |
					    ACA_EVENT_EXCLUDE_KERNEL);
	BAD(EINVAL, cfg.events[0].config = 0x3c);
	BAD(EINVAL, cfg.events[0].event_index = ACA_MAX_EVENT_INDEX + 1);
	BAD(EINVAL, cfg.events[0].period = 0);
	BAD(EINVAL, cfg.events[0].period = 1000001);
	BAD(EINVAL, cfg.events[0].flags = 0; cfg.events[0].period = 1ull << 49);
	BAD(EINVAL, cfg.nevents = 2; cfg.events[1] = cfg.events[0];
	    cfg.events[1].kind = ACA_EVENT_RAW);	/* mixed kinds */
	BAD(ESRCH, cfg.target_pid = 0x7fffffff);
	BAD(ESRCH, cfg.target_pid = 0xffffffff);
#undef BAD
	EXPECT_EQ(EFAULT, ioctl_errno(fd, ACA_IOC_STAGE_CONFIG, (void *)8));
	/* None of them was staged. */
	EXPECT_EQ(ENODATA, ioctl_errno(fd, ACA_IOC_GET_CONFIG, &cfg));

	/* All 16 events, sample-after counts: fine. */
	cfg = good;
	cfg.nevents = ACA_MAX_EVENTS;
	for (int i = 0; i < ACA_MAX_EVENTS; i++) {
		cfg.events[i] = good.events[0];
		cfg.events[i].flags = ACA_EVENT_EXCLUDE_KERNEL;
		cfg.events[i].period = 1ull << 48;
	}
	cfg.target_pid = getpid();
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_STAGE_CONFIG, &cfg));
	/* Restaging replaces it; START makes it final. */
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_STAGE_CONFIG, &good));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	EXPECT_EQ(EBUSY, ioctl_errno(fd, ACA_IOC_STAGE_CONFIG, &good));
	EXPECT_EQ(EBUSY, ioctl_errno(fd, ACA_IOC_START, NULL));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STOP));
	EXPECT_EQ(EBUSY, ioctl_errno(fd, ACA_IOC_START, NULL));
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_GET_CONFIG, &cfg));
	EXPECT_EQ(0, memcmp(&good, &cfg, sizeof(cfg)));
	close(fd);
}

TEST(bad_counts)
{
	struct aca_trace_counts c = { 0 };
	struct aca_trace_alloc a;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, trace_setup(fd, 0, 1000, &a));
	c.cpu = a.num_cpus;
	EXPECT_EQ(EINVAL, ioctl_errno(fd, ACA_IOC_GET_COUNTS, &c));
	c.cpu = 0xffffffff;
	EXPECT_EQ(EINVAL, ioctl_errno(fd, ACA_IOC_GET_COUNTS, &c));
	c.cpu = 0;
	c.reserved = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(fd, ACA_IOC_GET_COUNTS, &c));
	close(fd);
}

TEST(bad_mmap)
{
	struct aca_trace_alloc a;
	long pg = getpagesize();
	int fd = open_dev(), other = open_dev();
	void *p;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, trace_setup(fd, 4, 1000, &a));
#define BAD_MAP(errno_, len, prot, flags, f, off) do {			\
		errno = 0;						\
		p = mmap(NULL, len, prot, flags, f, off);		\
		EXPECT_EQ(MAP_FAILED, p);				\
		EXPECT_EQ(errno_, errno);				\
		if (p != MAP_FAILED)					\
			munmap(p, len);					\
	} while (0)
	BAD_MAP(EINVAL, a.map_size - pg, PROT_READ, MAP_SHARED, fd, 0);
	BAD_MAP(EINVAL, a.map_size + pg, PROT_READ, MAP_SHARED, fd, 0);
	BAD_MAP(EINVAL, 2 * a.map_size, PROT_READ, MAP_SHARED, fd, 0);
	BAD_MAP(EINVAL, a.map_size, PROT_READ, MAP_SHARED, fd, pg);
	BAD_MAP(EINVAL, a.map_size, PROT_READ, MAP_PRIVATE, fd, 0);
	BAD_MAP(ENXIO, a.map_size, PROT_READ, MAP_SHARED, fd,
		(off_t)a.num_cpus * a.map_size);
	BAD_MAP(ENXIO, a.map_size, PROT_READ, MAP_SHARED, fd,
		(off_t)0x7fffffff / (a.data_pages + 1) * a.map_size);
	/* Only the owner maps. */
	BAD_MAP(ENXIO, a.map_size, PROT_READ, MAP_SHARED, other, 0);
#undef BAD_MAP
	/* Read-only is fine. */
	p = mmap(NULL, a.map_size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, ((struct aca_mmap_header *)p)->head);
	/* Never grows. */
	EXPECT_EQ(MAP_FAILED, mremap(p, a.map_size, 2 * a.map_size, MREMAP_MAYMOVE));
	EXPECT_EQ(0, munmap(p, a.map_size));
	close(fd);
	close(other);
}

/* Closing a running trace's file frees it all: the next ALLOC works. */
TEST(close_frees_everything)
{
	struct aca_trace_alloc a;

	for (int i = 0; i < 20; i++) {
		int fd = open_dev();

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, trace_setup(fd, i % 2 ? 2 : 0, 1000, &a));
		if (i % 3)
			ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
		ASSERT_EQ(0, close(fd));
		ASSERT_EQ(1, collection_none());
	}
	EXPECT_EQ(VT_SUCCESS, hello_status());
}

/*
 * FREE_TRACE while a ring is mapped: sampling stops, the mapping stays
 * readable, and the trace (and the sampler) are released at munmap().
 */
TEST(munmap_after_free)
{
	struct aca_trace_alloc a, b = { 0 };
	struct aca_trace_counts c;
	struct expect e = { .cpu = 0, .tsc_max = UINT64_MAX };
	struct ring r;
	uint64_t head;
	int fd = open_dev(), other = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, trace_setup(fd, 64, 1000, &a));
	ASSERT_EQ(0, ring_map(fd, &a, 0, &r));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	burn_all_cpus(300);
	ASSERT_EQ(0, get_counts(fd, 0, &c));
	e.tsc_min = c.start_tsc;
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_FREE_TRACE));
	EXPECT_EQ(ENXIO, ioctl_errno(fd, ACA_IOC_GET_COUNTS, &c));

	/* Stopped, still mapped and readable; the sampler still taken. */
	head = __atomic_load_n(&r.h->head, __ATOMIC_ACQUIRE);
	EXPECT_LT(0, head);
	burn_all_cpus(100);
	EXPECT_EQ(head, __atomic_load_n(&r.h->head, __ATOMIC_ACQUIRE));
	EXPECT_EQ(head / sizeof(struct sep_sample_record_pc), ring_drain(&r, &e));
	EXPECT_EQ(EBUSY, ioctl_errno(other, ACA_IOC_ALLOC_TRACE, &b));
	EXPECT_EQ(EBUSY, ioctl_errno(fd, ACA_IOC_ALLOC_TRACE, &b));
	EXPECT_EQ(VT_COMM_DATA_CHANNEL_UNAVAILABLE, hello_status());

	ASSERT_EQ(0, munmap(r.base, r.len));
	EXPECT_EQ(0, ioctl(other, ACA_IOC_ALLOC_TRACE, &b));
	close(fd);
	close(other);
}

/* The same when the file is closed, and with a forked child's copy. */
TEST(mapping_outlives_close_and_parent)
{
	struct aca_trace_alloc a, b = { 0 };
	struct ring r;
	int fd = open_dev(), status, pipefd[2];
	pid_t pid;
	char ch;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(0, trace_setup(fd, 0, 1000, &a));
	ASSERT_EQ(0, ring_map(fd, &a, a.num_cpus - 1, &r));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	burn_all_cpus(100);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* Wait until the parent let go of everything, then read. */
		close(pipefd[1]);
		if (read(pipefd[0], &ch, 1) != 0)
			_exit(2);
		_exit(r.h->head % sizeof(struct sep_sample_record_pc) ? 1 : 0);
	}
	close(pipefd[0]);
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(0, munmap(r.base, r.len));
	fd = open_dev();
	ASSERT_LE(0, fd);
	/* The child's copy still holds the trace. */
	EXPECT_EQ(EBUSY, ioctl_errno(fd, ACA_IOC_ALLOC_TRACE, &b));
	close(pipefd[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, ioctl(fd, ACA_IOC_ALLOC_TRACE, &b));
	close(fd);
}

/*
 * A 2-page ring (the smallest) nobody reads while every CPU is busy for
 * seconds: records are dropped and counted, never torn or overwritten.
 */
TEST(tiny_ring_overflows_cleanly)
{
	struct aca_properties p = get_props(_metadata);
	struct aca_trace_alloc a;
	struct aca_trace_counts c;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, trace_setup(fd, p.min_data_pages, p.max_sample_rate, &a));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	burn_all_cpus(3000);
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STOP));
	for (unsigned int cpu = 0; cpu < a.num_cpus; cpu++) {
		struct expect e = { .cpu = cpu };
		struct ring r;
		long n;

		ASSERT_EQ(0, get_counts(fd, cpu, &c));
		if (!(c.flags & ACA_COUNTS_RING))
			continue;
		e.tsc_min = c.start_tsc;
		e.tsc_max = c.stop_tsc;
		ASSERT_EQ(0, ring_map(fd, &a, cpu, &r));
		n = ring_drain(&r, &e);
		ASSERT_LE(0, n);
		EXPECT_EQ(c.written, (uint64_t)n);
		EXPECT_GE(r.size / sizeof(struct sep_sample_record_pc), (uint64_t)n);
		EXPECT_LT(0, c.dropped);
		EXPECT_EQ(c.generated, n + c.dropped);
		TH_LOG("cpu %u: generated %llu read %ld dropped %llu", cpu,
		       (unsigned long long)c.generated, n,
		       (unsigned long long)c.dropped);
		munmap(r.base, r.len);
	}
	close(fd);
}

/* A consumer reading as it goes gets every record written, lap after lap. */
TEST(consumer_keeps_up)
{
	struct aca_trace_alloc a;
	struct aca_trace_counts c;
	struct ring r[MAX_CPUS];
	long got[MAX_CPUS] = { 0 }, laps = 0;
	struct burners burners;
	bool wrapped = false;
	uint64_t until;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, trace_setup(fd, 4, 1000, &a));
	ASSERT_GE(MAX_CPUS, a.num_cpus);
	for (unsigned int cpu = 0; cpu < a.num_cpus; cpu++) {
		r[cpu].base = NULL;
		ASSERT_EQ(0, get_counts(fd, cpu, &c));
		if (c.flags & ACA_COUNTS_RING)
			ASSERT_EQ(0, ring_map(fd, &a, cpu, &r[cpu]));
	}
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	ASSERT_EQ(0, get_counts(fd, 0, &c));
	/*
	 * Every CPU busy, this thread draining: ~4 laps of 4 pages a 1.5 s
	 * round; rounds again (6 at most) until a ring has wrapped, for a
	 * guest its host starves of time gets fewer samples of cpu-clock.
	 */
	for (int round = 0; round < 6 && !wrapped; round++) {
		burn_start(&burners, 1500);
		until = now_ns() + 1500000000ull;
		while (now_ns() < until) {
			for (unsigned int cpu = 0; cpu < a.num_cpus; cpu++) {
				struct expect e = { .cpu = cpu, .tsc_min = c.start_tsc,
						    .tsc_max = UINT64_MAX };
				long n;

				if (!r[cpu].base)
					continue;
				n = ring_drain(&r[cpu], &e);
				ASSERT_LE(0, n);
				got[cpu] += n;
				wrapped |= got[cpu] * sizeof(struct sep_sample_record_pc) > r[cpu].size;
			}
			usleep(20000);
		}
		burn_join(&burners);
	}
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STOP));
	for (unsigned int cpu = 0; cpu < a.num_cpus; cpu++) {
		struct expect e = { .cpu = cpu, .tsc_max = UINT64_MAX };
		long n;

		if (!r[cpu].base)
			continue;
		ASSERT_EQ(0, get_counts(fd, cpu, &c));
		e.tsc_min = c.start_tsc;
		e.tsc_max = c.stop_tsc;
		n = ring_drain(&r[cpu], &e);
		ASSERT_LE(0, n);
		got[cpu] += n;
		EXPECT_EQ(c.written, (uint64_t)got[cpu]);
		EXPECT_EQ(c.generated, c.written + c.dropped);
		laps += got[cpu] * sizeof(struct sep_sample_record_pc) / r[cpu].size;
		TH_LOG("cpu %u: generated %llu read %ld dropped %llu", cpu,
		       (unsigned long long)c.generated, got[cpu],
		       (unsigned long long)c.dropped);
		munmap(r[cpu].base, r[cpu].len);
	}
	EXPECT_LT(0, laps);	/* the ring wrapped */
	close(fd);
}

/* A tail the kernel cannot believe makes it drop, never overwrite. */
TEST(bogus_tail_only_drops)
{
	struct aca_trace_alloc a;
	struct aca_trace_counts c;
	struct ring r;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, trace_setup(fd, 2, 1000, &a));
	ASSERT_EQ(0, ring_map(fd, &a, 0, &r));
	r.h->tail = 1ull << 40;		/* ahead of head */
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	burn_all_cpus(300);
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STOP));
	ASSERT_EQ(0, get_counts(fd, 0, &c));
	EXPECT_EQ(0, c.written);
	EXPECT_EQ(0, r.h->head);
	EXPECT_LT(0, c.dropped);
	EXPECT_EQ(c.generated, c.dropped);
	munmap(r.base, r.len);
	close(fd);
}

/* target_pid: only that process's samples. */
TEST(target_pid_filters)
{
	struct aca_trace_config cfg = cpu_clock_config(1000);
	struct aca_trace_alloc a = { .data_pages = 64 };
	struct aca_trace_counts c;
	uint64_t total = 0;
	int fd = open_dev(), status;
	pid_t child;

	ASSERT_LE(0, fd);
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		burn_all_cpus(1500);
		_exit(0);
	}
	cfg.target_pid = child;
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_ALLOC_TRACE, &a));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STAGE_CONFIG, &cfg));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_START));
	burn_all_cpus(500);	/* this process: never sampled */
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, ioctl(fd, ACA_IOC_STOP));
	for (unsigned int cpu = 0; cpu < a.num_cpus; cpu++) {
		struct expect e = { .cpu = cpu, .pid = child };
		struct ring r;
		long n;

		ASSERT_EQ(0, get_counts(fd, cpu, &c));
		if (!(c.flags & ACA_COUNTS_RING))
			continue;
		e.tsc_min = c.start_tsc;
		e.tsc_max = c.stop_tsc;
		ASSERT_EQ(0, ring_map(fd, &a, cpu, &r));
		n = ring_drain(&r, &e);
		ASSERT_LE(0, n);
		total += n;
		munmap(r.base, r.len);
	}
	EXPECT_LT(100, total);
	close(fd);
}

/*
 * Mappings come and go while another thread allocates, starts and frees
 * traces on the same file: whatever fails must fail cleanly (EBUSY, ENXIO,
 * EINVAL), and at the end everything is released.
 */
struct race {
	int fd;
	uint64_t map_size;	/* of the current trace, racy on purpose */
	uint64_t until;
	long maps, bad;
};

static void *race_mapper(void *arg)
{
	struct race *rc = arg;

	while (now_ns() < rc->until) {
		size_t len = __atomic_load_n(&rc->map_size, __ATOMIC_RELAXED);
		void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       rc->fd, 0);

		if (p == MAP_FAILED) {
			if (errno != ENXIO && errno != EINVAL)
				rc->bad++;
			continue;
		}
		rc->maps++;
		/* The header page is readable however the trace is doing. */
		(void)*(volatile uint64_t *)p;
		munmap(p, len);
	}
	return NULL;
}

TEST(maps_race_alloc_and_free)
{
	struct race rc = { .fd = open_dev(), .until = now_ns() + 2000000000ull };
	struct aca_trace_alloc a = { 0 };
	pthread_t mapper;
	long cycles = 0, bad = 0;
	int other;

	ASSERT_LE(0, rc.fd);
	rc.map_size = 3 * getpagesize();
	ASSERT_EQ(0, pthread_create(&mapper, NULL, race_mapper, &rc));
	while (now_ns() < rc.until) {
		a.data_pages = cycles % 2 ? 2 : 4;
		if (trace_setup(rc.fd, a.data_pages, 1000, &a)) {
			bad += errno != EBUSY;	/* a mapping still holds one */
			continue;
		}
		__atomic_store_n(&rc.map_size, a.map_size, __ATOMIC_RELAXED);
		if (cycles % 3)
			EXPECT_EQ(0, ioctl(rc.fd, ACA_IOC_START));
		usleep(1000);
		EXPECT_EQ(0, ioctl(rc.fd, ACA_IOC_FREE_TRACE));
		cycles++;
	}
	pthread_join(mapper, NULL);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, rc.bad);
	EXPECT_LT(5, cycles);
	EXPECT_LT(5, rc.maps);
	TH_LOG("%ld traces, %ld mappings", cycles, rc.maps);
	/* No mapping is left: another file can have the sampler. */
	other = open_dev();
	ASSERT_LE(0, other);
	EXPECT_EQ(0, ioctl(other, ACA_IOC_ALLOC_TRACE, &a));
	close(other);
	close(rc.fd);
}

TEST_HARNESS_MAIN
