/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fixture's collection made once per test program. The harness forks a
 * child for each test and runs FIXTURE_SETUP there, so a collection made
 * in the setup is made again for every test of the fixture. Where those
 * tests check independent behaviours of one collection, the first setup
 * to run makes it and keeps what the tests look at (lengths, the bytes of
 * channels, figures, the answers of the session they would have asked) in
 * a region mapped MAP_SHARED by a constructor, before any fork; the later
 * setups take it from there. Whichever test of the fixture runs first
 * makes it, so one test alone (-t, -T) still has its collection.
 *
 * A setup that failed (an ASSERT, an EXPECT, a crash, its timeout) leaves
 * the region begun and never made: every later setup fails then, with
 * what the first one logged, its failure's reason. For that, TH_LOG's
 * stream copies into the region while the first setup runs: include this
 * before kselftest_harness.h (which it includes).
 */
#ifndef ACA_SELFTESTS_DEVICE_ONCE_H
#define ACA_SELFTESTS_DEVICE_ONCE_H

#ifdef __KSELFTEST_HARNESS_H
#error "once.h sets TH_LOG_STREAM: include it before kselftest_harness.h"
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static inline FILE *once_log_stream(void);
#define TH_LOG_STREAM once_log_stream()
#include "kselftest_harness.h"

enum { ONCE_NONE, ONCE_BEGUN, ONCE_MADE };

struct once {
	int state;		/* ONCE_*: BEGUN and not MADE is a failure */
	char test[128];		/* whose setup made it, or began to */
	char log[4096];		/* what that setup logged, cut at the end */
	size_t log_len;
	size_t cap, len;	/* of data[], where once_put() writes */
	size_t at;		/* where once_get() reads next */
	uint8_t data[];
};

/* The region whose first setup is running in this process, if any. */
static struct once *once_recording;

/* TH_LOG's stream: stderr, and the log of once_recording. */
static inline ssize_t once_log_write(void *cookie, const char *buf, size_t len)
{
	struct once *o = once_recording;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(STDERR_FILENO, buf + done, len - done);

		if (n <= 0)
			break;
		done += n;
	}
	if (o && o->log_len < sizeof(o->log) - 1) {
		size_t room = sizeof(o->log) - 1 - o->log_len;
		size_t n = len < room ? len : room;

		memcpy(o->log + o->log_len, buf, n);
		o->log_len += n;
	}
	return len;
}

static inline FILE *once_log_stream(void)
{
	static FILE *f;

	if (!f) {
		f = fopencookie(NULL, "w", (cookie_io_functions_t){
			.write = once_log_write });
		if (!f)
			return stderr;
		setvbuf(f, NULL, _IONBF, 0);	/* in order with stderr */
	}
	return f;
}

/* A region of @cap bytes of data, shared by every later fork; or NULL. */
static inline struct once *once_map(size_t cap)
{
	struct once *o = mmap(NULL, sizeof(*o) + cap, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (o == MAP_FAILED)
		return NULL;
	o->cap = cap;
	return o;
}

/* A static region @name of @cap bytes, mapped before main() and any fork. */
#define ONCE_DEFINE(name, cap)						\
	static struct once *name;					\
	static void __attribute__((constructor)) name##_map(void)	\
	{								\
		name = once_map(cap);					\
		once_log_stream();					\
	}

/*
 * In a FIXTURE_SETUP: true when this setup is the first and makes the
 * collection, keeps its results with once_put() and ends with once_done();
 * false when an earlier setup made it. Then (either way) once_get() gives
 * the results back in the order they were put. An earlier setup that
 * failed fails this one.
 */
static inline bool once_begin(struct __test_metadata *_metadata, struct once *o)
{
	ASSERT_NE(NULL, o) TH_LOG("no shared region (mmap failed before main())");
	o->at = 0;
	if (o->state == ONCE_MADE) {
		TH_LOG("the collection of %s's setup", o->test);
		return false;
	}
	while (o->log_len && o->log[o->log_len - 1] == '\n')
		o->log_len--;
	ASSERT_EQ(ONCE_NONE, o->state)
		TH_LOG("the collection failed in %s's setup, which logged:\n%.*s",
		       o->test, (int)o->log_len, o->log);
	o->state = ONCE_BEGUN;
	snprintf(o->test, sizeof(o->test), "%s", _metadata->name);
	once_recording = o;
	return true;
}

/* Keep @len bytes at @p; where they are kept. */
static inline void *once_put(struct __test_metadata *_metadata, struct once *o,
			     const void *p, size_t len)
{
	size_t need = sizeof(len) + (len + 7) / 8 * 8;
	uint8_t *at = o->data + o->len;

	ASSERT_GE(o->cap - o->len, need) TH_LOG("%zu bytes more than the region's %zu",
						 len, o->cap);
	memcpy(at, &len, sizeof(len));
	if (len)
		memcpy(at + sizeof(len), p, len);
	o->len += need;
	return at + sizeof(len);
}

/* The first setup's collection is made, without a failure. */
static inline void once_done(struct __test_metadata *_metadata, struct once *o)
{
	once_recording = NULL;
	if (_metadata->exit_code == KSFT_PASS)
		o->state = ONCE_MADE;
}

/* The next bytes once_put() kept, and their length in @len. */
static inline const void *once_get(struct __test_metadata *_metadata,
				   struct once *o, size_t *len)
{
	const uint8_t *at = o->data + o->at;

	ASSERT_LE(o->at + sizeof(*len), o->len) TH_LOG("nothing more was kept");
	memcpy(len, at, sizeof(*len));
	o->at += sizeof(*len) + (*len + 7) / 8 * 8;
	return at + sizeof(*len);
}

/*
 * A FIXTURE_SETUP's first part: the first setup makes the collection with
 * @make(_metadata, self, @o), which keeps *self first; every setup then
 * takes *self back. What @make kept after it, the caller takes next.
 */
#define ONCE_SETUP(o, make) do {					\
	const void *once_kept_;						\
	size_t once_len_;						\
									\
	if (once_begin(_metadata, (o))) {				\
		make(_metadata, self, (o));				\
		once_done(_metadata, (o));				\
	}								\
	once_kept_ = once_get(_metadata, (o), &once_len_);		\
	ASSERT_EQ(sizeof(*self), once_len_);				\
	memcpy(self, once_kept_, sizeof(*self));			\
} while (0)

#endif
