// SPDX-License-Identifier: GPL-2.0-only
/*
 * Module records and the end of a collection, in a test VM with aca.ko
 * loaded (run as root): a whole local session over /dev/aca files. During
 * the collection a child runs a known binary and exits, and a library is
 * dlopen()ed (and another dlopen()ed and dlclose()d); the module channel
 * must then describe the kernel, its modules, this test, the child, both
 * libraries, the vDSO and the kernel threads, in well-formed records. STOP
 * must be answered only once every data channel has been read to its end
 * (spec 13), and in delayed-transfer mode nothing may flow before STOP.
 * The hooks only take what they must and a worker writes the records: a
 * process with thousands of code mappings is wholly described when it
 * exits, an munmap() unloads exactly what it unmapped, STOP ends while
 * processes map and unmap code without pause, STOP's walk of every live
 * process leaves the device's lock free for other files meanwhile, and a
 * session's end lets go of whatever the hooks took. MODULE_SNAPSHOT has
 * the live processes described while sampling, walks a gap apart however
 * often a host asks, and STOP right after an ask ends cleanly.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "once.h"	/* first: it includes kselftest_harness.h */
#include "../common/status_check.h"
#include "fuse_never.h"
#include "session.h"
#include "../../uapi/aca.h"
#include "../../driver/core/sep_cmd.h"

#define MAX_CPUS		SESSION_MAX_CPUS
#define CHILD_BIN	"/bin/true"
#define SLEEPER_BIN	"/bin/sleep"	/* started during, alive at STOP */
#define KEPT_LIB	"libm.so.6"	/* dlopen()ed, kept */
#define CLOSED_LIB	"libz.so.1"	/* dlopen()ed, then dlclose()d */
#define DELAYED_PARAM	"/sys/module/aca/parameters/delayed_transfer"
#define MANY_MAPS	5000	/* code mappings of one process */
#define PAGE		4096UL
#define DEEP_DIRS	500	/* levels above the looped code file */
#define LOCK_HOLDERS	200	/* processes alive across STOP's walk */
#define LOCK_HOLDER_MAPS	200	/* code mappings of each */
#define LOCK_PROBE_DELAY_MS	100	/* STOP sent, then aca_lock taken */
#define LOCK_PROBE_MAX_MS	200	/* for that, at most */





struct coll {
	int n;				/* CPU channels */
	int ctl;
	int data[MAX_CPUS + 2];		/* non-blocking */
	uint64_t tsc_hz;
	uint32_t switches;		/* collect_switch.flags */
	uint8_t *buf[MAX_CPUS + 2];	/* what each channel gave */
	size_t len[MAX_CPUS + 2], cap[MAX_CPUS + 2];
};

static int open_dev(void)
{
	return open(ACA_DEVICE_PATH, O_RDWR | O_CLOEXEC);
}

/* Hello, then all N+2 data channels with their first messages. */
static void coll_open(struct __test_metadata *_metadata, struct coll *c)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	struct sep_target_status_msg s;
	struct sep_data_first_msg first;

	memset(c, 0, sizeof(*c));
	c->n = sysconf(_SC_NPROCESSORS_CONF);
	ASSERT_GE(MAX_CPUS, c->n);
	c->ctl = open_dev();
	ASSERT_LE(0, c->ctl);
	ASSERT_EQ(sizeof(hello), write(c->ctl, &hello, sizeof(hello)));
	ASSERT_EQ(sizeof(s), read_full(c->ctl, &s, sizeof(s)));
	ASSERT_EQ(0, s.status);
	c->tsc_hz = s.hardware_info.tsc_freq;
	c->switches = s.collect_switch.flags;
	for (int i = 0; i < c->n + 2; i++) {
		c->data[i] = open_dev();
		ASSERT_LE(0, c->data[i]);
		ASSERT_EQ(sizeof(first), read_full(c->data[i], &first, sizeof(first)));
		EXPECT_EQ(i == c->n + 1 ? SEP_DATA_MODULE : i == c->n ?
			  SEP_DATA_UNCORE : SEP_DATA_CPU, first.data_type);
		ASSERT_EQ(0, fcntl(c->data[i], F_SETFL, O_NONBLOCK));
	}
}

static void coll_close(struct coll *c)
{
	for (int i = 0; i < c->n + 2; i++) {
		close(c->data[i]);
		free(c->buf[i]);
	}
	close(c->ctl);
}

static void coll_configure(struct __test_metadata *_metadata, struct coll *c)
{
	session_configure(_metadata, c->ctl, c->n, c->tsc_hz);
}

static uint64_t coll_tsc(struct coll *c)
{
	uint64_t tsc = 0;

	return command_io(c->ctl, SEP_CMD_GET_NORMALIZED_TSC, NULL, 0, &tsc, 8) ? 0 : tsc;
}

static size_t stop_after_drain(struct __test_metadata *_metadata,
			       struct coll *c);

/* A collection started: open, configured, sampling; its first TSC. */
static uint64_t coll_begin(struct __test_metadata *_metadata, struct coll *c)
{
	uint64_t tsc0;

	coll_open(_metadata, c);
	coll_configure(_metadata, c);
	tsc0 = coll_tsc(c);
	ASSERT_NE(0, tsc0);
	ASSERT_EQ(0, command_io(c->ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	return tsc0;
}

/* STOP, every channel read to its end, then TERMINATE; the last TSC. */
static uint64_t coll_end(struct __test_metadata *_metadata, struct coll *c)
{
	uint64_t tsc1;

	stop_after_drain(_metadata, c);
	tsc1 = coll_tsc(c);
	ASSERT_NE(0, tsc1);
	EXPECT_EQ(0, command_io(c->ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	return tsc1;
}

/*
 * Read channel @i until it has nothing now (0) or is over (1); -1 on an
 * error.
 */
static int take(struct coll *c, int i)
{
	for (;;) {
		ssize_t n;

		if (c->cap[i] - c->len[i] < 65536) {
			c->cap[i] = c->cap[i] * 2 + 65536;
			c->buf[i] = realloc(c->buf[i], c->cap[i]);
			if (!c->buf[i])
				return -1;
		}
		n = read(c->data[i], c->buf[i] + c->len[i], c->cap[i] - c->len[i]);
		if (n > 0) {
			c->len[i] += n;
			continue;
		}
		if (!n)
			return 1;
		return errno == EAGAIN ? 0 : -1;
	}
}

/* Every channel read as far as it goes now; how many are over. */
static int take_all(struct __test_metadata *_metadata, struct coll *c)
{
	int over = 0, r;

	for (int i = 0; i < c->n + 2; i++) {
		r = take(c, i);
		EXPECT_LE(0, r) TH_LOG("channel %d: %s", i, strerror(errno));
		over += r == 1;
	}
	return over;
}

static bool readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/*
 * After STOP: read every channel as its records come (STOP's walk writes
 * the module channel's after STOP returned) until the answer is readable,
 * within @ms; false if it is not by then.
 */
static bool take_until_answer(struct __test_metadata *_metadata,
			      struct coll *c, int ms)
{
	struct pollfd p[MAX_CPUS + 3];
	double end = now_ms() + ms;

	p[0] = (struct pollfd){ .fd = c->ctl, .events = POLLIN };
	for (int i = 0; i < c->n + 2; i++)
		p[1 + i] = (struct pollfd){ .fd = c->data[i], .events = POLLIN };
	for (;;) {
		take_all(_metadata, c);
		if (poll(p, c->n + 3, 1000) < 0)
			return false;
		if (p[0].revents & POLLIN)
			return true;
		if (now_ms() > end)
			return false;
	}
}



/*
 * STOP (spec 13): it is held back while any data channel has bytes left,
 * and comes once they are all read. Returns the bytes read meanwhile.
 */
static size_t stop_after_drain(struct __test_metadata *_metadata,
			       struct coll *c)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h), .proto_version = SEP_PROTO_VERSION,
		.command_id = SEP_CMD_STOP,
	};
	size_t before = 0, after = 0;

	for (int i = 0; i < c->n + 2; i++)
		before += c->len[i];
	ASSERT_EQ(sizeof(h), write(c->ctl, &h, sizeof(h)));
	/* Nothing read yet: the module channel at least has records. */
	EXPECT_FALSE(readable(c->ctl, 300));
	/* All read, STOP's records too: the answer comes, then every end. */
	EXPECT_TRUE(take_until_answer(_metadata, c, 60000));
	ASSERT_EQ(sizeof(h), read_full(c->ctl, &h, sizeof(h)));
	EXPECT_EQ(SEP_CMD_STOP, h.command_id);
	EXPECT_EQ(0, h.status);
	for (int i = 0; i < c->n + 2; i++)
		after += c->len[i];
	/* Not one byte more after the answer: only EOF. */
	EXPECT_EQ(c->n + 2, take_all(_metadata, c));
	for (int i = 0; i < c->n + 2; i++)
		after -= c->len[i];
	EXPECT_EQ(0, after);
	return after;
}

/* ---- the module channel ---- */

struct mrec {
	const struct sep_module_record *r;
	const char *path;
	const uint8_t *bid;	/* [ACA-EXT] build-id, or NULL */
	size_t bid_size;
};

/*
 * A record's [ACA-EXT] build-id trailer at @at of its @rec_length bytes
 * (ALIGN8(80 + pathLength)): magic, reserved 0, size 1..20, zero padding
 * to exactly its rec_length.
 */
static void parse_build_id(struct __test_metadata *_metadata, const uint8_t *rec,
			   size_t at, struct mrec *m)
{
	const struct sep_module_record *r = m->r;
	struct aca_mr_build_id t;
	size_t end;

	ASSERT_LE(at + sizeof(t), r->rec_length) TH_LOG("%s", m->path);
	memcpy(&t, rec + at, sizeof(t));
	ASSERT_EQ(ACA_MR_BUILD_ID_MAGIC0, t.magic[0]) TH_LOG("%s", m->path);
	ASSERT_EQ(ACA_MR_BUILD_ID_MAGIC1, t.magic[1]) TH_LOG("%s", m->path);
	ASSERT_EQ(0, t.reserved) TH_LOG("%s", m->path);
	ASSERT_LE(1, t.size) TH_LOG("%s", m->path);
	ASSERT_GE(ACA_MR_BUILD_ID_MAX, t.size) TH_LOG("%s", m->path);
	end = at + sizeof(t) + t.size;
	ASSERT_EQ((end + 7) / 8 * 8, r->rec_length) TH_LOG("%s", m->path);
	for (size_t k = end; k < r->rec_length; k++)
		ASSERT_EQ(0, rec[k]) TH_LOG("padding of the build-id of %s", m->path);
	m->bid = rec + at + sizeof(t);
	m->bid_size = t.size;
}

/* Split the module channel into records; all must be well-formed. */
static size_t parse_records(struct __test_metadata *_metadata,
			    const uint8_t *p, size_t len, struct mrec **out)
{
	struct mrec *recs = NULL;
	size_t n = 0, cap = 0, off = 0, base;

	while (off < len) {
		const struct sep_module_record *r = (const void *)(p + off);
		const char *path = (const char *)(r + 1);

		ASSERT_LE(sizeof(*r), len - off) TH_LOG("truncated at %zu", off);
		ASSERT_LT(0, r->rec_length) TH_LOG("record at %zu", off);
		ASSERT_EQ(0, r->rec_length % 8) TH_LOG("record at %zu", off);
		ASSERT_LE(r->rec_length, len - off) TH_LOG("record at %zu", off);
		ASSERT_LT(0, r->path_length) TH_LOG("record at %zu", off);
		ASSERT_LE(sizeof(*r) + r->path_length, r->rec_length);
		ASSERT_EQ(0, path[r->path_length - 1]) TH_LOG("record at %zu", off);
		ASSERT_EQ(r->path_length - 1, strlen(path)) TH_LOG("record at %zu", off);
		base = (sizeof(*r) + r->path_length + 7) / 8 * 8;
		/* Exactly that, or a build-id after it (user files only). */
		ASSERT_LE(base, r->rec_length) TH_LOG("record at %zu", off);
		for (size_t k = sizeof(*r) + r->path_length; k < base; k++)
			ASSERT_EQ(0, p[off + k]) TH_LOG("padding of the record at %zu", off);
		EXPECT_EQ(SEP_MR_PID_REC_INDEX_RAW | SEP_MR_TSC_USED,
			  r->flags & (SEP_MR_PID_REC_INDEX_RAW | SEP_MR_TSC_USED));
		EXPECT_EQ(0, r->osid);
		EXPECT_EQ(0, r->tsc);
		if (n == cap) {
			cap = cap * 2 + 256;
			recs = realloc(recs, cap * sizeof(*recs));
			ASSERT_NE(NULL, recs);
		}
		recs[n] = (struct mrec){ .r = r, .path = path };
		if (r->rec_length > base) {
			EXPECT_EQ('/', path[0]) TH_LOG("a build-id for %s", path);
			parse_build_id(_metadata, p + off, base, &recs[n]);
		}
		n++;
		off += r->rec_length;
	}
	*out = recs;
	return n;
}

/* The first record of @pid (or any, -1) with @path (or any, NULL) and
 * unload state (loaded: ~0, else finite). */
static const struct sep_module_record *find(const struct mrec *recs, size_t n,
					    int64_t pid, const char *path,
					    bool loaded)
{
	for (size_t i = 0; i < n; i++) {
		const struct sep_module_record *r = recs[i].r;

		if ((pid < 0 || r->pid_rec_index == pid) &&
		    (!path || !strcmp(recs[i].path, path)) &&
		    loaded == (r->unload_tsc == SEP_MR_UNLOAD_TSC_LOADED))
			return r;
	}
	return NULL;
}

/* The record of @pid's @path mapped at @addr, loaded or not. */
static const struct sep_module_record *find_at(const struct mrec *recs,
					       size_t n, int64_t pid,
					       const char *path, uint64_t addr,
					       bool loaded)
{
	for (size_t i = 0; i < n; i++) {
		const struct sep_module_record *r = recs[i].r;

		if (r->pid_rec_index == pid && r->load_addr64 == addr &&
		    !strcmp(recs[i].path, path) &&
		    loaded == (r->unload_tsc == SEP_MR_UNLOAD_TSC_LOADED))
			return r;
	}
	return NULL;
}

/* ACA_MODREC_DUMP=1: every record, for a human. */
static void dump_records(const struct mrec *recs, size_t n, uint64_t tsc0)
{
	for (size_t i = 0; i < n; i++) {
		const struct sep_module_record *r = recs[i].r;

		printf("# %6u %6u flags %03x sel %02x seg %u %016llx +%-10llx off %08x%08x %s %s\n",
		       r->pid_rec_index, r->parent_pid, r->flags, r->selector,
		       r->segment_number, (unsigned long long)r->load_addr64,
		       (unsigned long long)r->length64, r->page_offset_high,
		       r->page_offset_low,
		       r->unload_tsc == SEP_MR_UNLOAD_TSC_LOADED ? "loaded" :
		       r->unload_tsc >= tsc0 ? "gone" : "gone-before", recs[i].path);
	}
}

/* A name from /proc/kallsyms, or 0 when addresses are hidden. */
static unsigned long kallsyms(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], type;
	unsigned long addr, found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

static unsigned long sysfs_ulong(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long v = 0;

	if (f) {
		if (fscanf(f, "%lx", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* The file a loaded library was mapped from, as the kernel names it. */
static int lib_path(void *handle, char *path)
{
	struct link_map *lm;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) || !realpath(lm->l_name, path))
		return -1;
	return 0;
}

static int set_param(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

/*
 * One collection in immediate-transfer mode with something of each kind to
 * describe: a spinner on every CPU, a child that runs CHILD_BIN and exits,
 * one that starts SLEEPER_BIN and is alive at STOP, a library dlopen()ed
 * and kept, another dlopen()ed and dlclose()d. Each test of the fixture
 * checks one behaviour of what that collection gave; it is made once for
 * them all (once.h), by the setup of whichever runs first, in that test's
 * process: pid and ppid name it for the others. Everything it needs is in
 * the test VM (the host's root, read-only): a missing binary or library
 * fails the setup.
 */
ONCE_DEFINE(collection_once, 64 << 20)

FIXTURE(collection) {
	/* Plain data, kept whole for the later setups. */
	pid_t pid, ppid;		/* the process that collected, its parent */
	int n;				/* CPU channels */
	uint32_t switches;		/* collect_switch.flags */
	size_t len[MAX_CPUS + 2];	/* what each channel gave, in bytes */
	uint64_t tsc0, tsc1;		/* before START, after STOP */
	pid_t child, sleeper;
	char self_path[PATH_MAX], child_path[PATH_MAX], sleeper_path[PATH_MAX];
	char kept_path[PATH_MAX], closed_path[PATH_MAX];
	/* Seen before STOP: was the module channel readable, what it had. */
	bool mod_readable;
	int over_before_stop;		/* channels over then */
	size_t mod_before_stop;		/* the module channel's bytes then */
	int num_samples_status;		/* GET_NUM_SAMPLES after STOP */
	uint64_t num_samples;
	/* Each setup's own. */
	struct mrec *recs;		/* the module channel, well-formed */
	size_t nrec;
};

/* The collection, its figures in @self and its module channel kept in @o. */
static void collect(struct __test_metadata *_metadata,
		    FIXTURE_DATA(collection) *self, struct once *o)
{
	pid_t spinners[MAX_CPUS];
	void *kept, *closed;
	struct coll c;
	int status, mod;

	self->pid = getpid();
	self->ppid = getppid();
	ASSERT_NE(NULL, realpath("/proc/self/exe", self->self_path));
	ASSERT_NE(NULL, realpath(CHILD_BIN, self->child_path));
	ASSERT_NE(NULL, realpath(SLEEPER_BIN, self->sleeper_path));
	coll_open(_metadata, &c);
	coll_configure(_metadata, &c);
	self->n = c.n;
	self->switches = c.switches;
	mod = c.n + 1;
	self->tsc0 = coll_tsc(&c);
	ASSERT_NE(0, self->tsc0);
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	spin_all(spinners, c.n, 300);

	/* A child runs a known binary and is gone before STOP. */
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child) {
		execl(CHILD_BIN, CHILD_BIN, (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(self->child, waitpid(self->child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	/* Another starts and is still there at STOP. */
	self->sleeper = fork();
	ASSERT_LE(0, self->sleeper);
	if (!self->sleeper) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl(SLEEPER_BIN, SLEEPER_BIN, "60", (char *)NULL);
		_exit(127);
	}
	/* A library comes and stays; another comes and goes. */
	kept = dlopen(KEPT_LIB, RTLD_NOW);
	ASSERT_NE(NULL, kept) TH_LOG("%s", dlerror());
	ASSERT_EQ(0, lib_path(kept, self->kept_path));
	closed = dlopen(CLOSED_LIB, RTLD_NOW);
	ASSERT_NE(NULL, closed) TH_LOG("%s", dlerror());
	ASSERT_EQ(0, lib_path(closed, self->closed_path));
	ASSERT_EQ(0, dlclose(closed));
	ASSERT_EQ(0, wait_all(spinners, c.n));
	/* Within 3 s: the flush timer makes a read due within a second. */
	self->mod_readable = readable(c.data[mod], 3000);
	self->over_before_stop = take_all(_metadata, &c);
	self->mod_before_stop = c.len[mod];

	usleep(200 * 1000);	/* the sleeper has exec()ed */
	stop_after_drain(_metadata, &c);
	self->tsc1 = coll_tsc(&c);
	ASSERT_LT(self->tsc0, self->tsc1);
	kill(self->sleeper, SIGKILL);
	ASSERT_EQ(self->sleeper, waitpid(self->sleeper, &status, 0));
	/* What the tests would ask the session after STOP, asked now. */
	self->num_samples_status = command_io(c.ctl, SEP_CMD_GET_NUM_SAMPLES,
					      NULL, 0, &self->num_samples, 8);
	EXPECT_EQ(0, command_io(c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	memcpy(self->len, c.len, sizeof(self->len));
	once_put(_metadata, o, self, sizeof(*self));
	once_put(_metadata, o, c.buf[mod], c.len[mod]);
	coll_close(&c);
}

FIXTURE_SETUP(collection)
{
	const uint8_t *mod;
	size_t len;

	ONCE_SETUP(collection_once, collect);
	mod = once_get(_metadata, collection_once, &len);
	ASSERT_EQ(self->len[self->n + 1], len);
	self->nrec = parse_records(_metadata, mod, len, &self->recs);
	ASSERT_LT(0, self->nrec);
	TH_LOG("%zu module records, %zu bytes", self->nrec, len);
	if (getenv("ACA_MODREC_DUMP"))
		dump_records(self->recs, self->nrec, self->tsc0);
}

/* The session ended in the setup that made the collection. */
FIXTURE_TEARDOWN(collection)
{
	free(self->recs);
}

/*
 * Immediate transfer (switch bit 9 clear): the module channel's records
 * flow during the collection, at the latest when the flush timer makes a
 * read due, and no channel is over before STOP.
 */
TEST_F(collection, module_records_flow_during_the_collection)
{
	EXPECT_EQ(0, self->switches & SEP_SWITCH_DELAYED_TRANSFER);
	EXPECT_TRUE(self->mod_readable);
	EXPECT_EQ(0, self->over_before_stop);
	EXPECT_LT(0, self->mod_before_stop);
}

/*
 * Every sample GET_NUM_SAMPLES counts is a record of a CPU channel; the
 * uncore channel has none (no uncore events).
 */
TEST_F(collection, samples_counted_are_the_records_sent)
{
	uint64_t cpu_records = 0;

	for (int i = 0; i < self->n; i++)
		cpu_records += self->len[i] / sizeof(struct sep_sample_record_pc);
	EXPECT_LT(0, cpu_records);
	EXPECT_EQ(0, self->len[self->n]);
	ASSERT_EQ(0, self->num_samples_status);
	EXPECT_EQ(cpu_records, self->num_samples);
}

/*
 * The kernel first: "vmlinux", pid 0, segment 0, the kernel's selector,
 * loaded, from where kallsyms puts _text past _etext. Run as root,
 * kallsyms shows addresses (kptr_restrict below 2, as in the test VM).
 */
TEST_F(collection, kernel_is_the_first_record)
{
	const struct sep_module_record *r = self->recs[0].r;
	unsigned long text = kallsyms("_text"), etext = kallsyms("_etext");

	ASSERT_NE(0, text) TH_LOG("/proc/kallsyms hides _text: not root, or kptr_restrict 2");
	ASSERT_NE(0, etext) TH_LOG("/proc/kallsyms hides _etext");
	EXPECT_STREQ("vmlinux", self->recs[0].path);
	EXPECT_EQ(0, r->pid_rec_index);
	EXPECT_EQ(0, r->segment_number);
	EXPECT_EQ(SEP_MR_SELECTOR_KERNEL, r->selector);
	EXPECT_EQ(SEP_MR_EXE | SEP_MR_GLOBAL_MODULE | SEP_MR_GLOBAL_MODULE_TB5 |
		  SEP_MR_FIRST_MODULE_REC_IN_PROCESS | SEP_MR_PID_REC_INDEX_RAW |
		  SEP_MR_TSC_USED, r->flags);
	EXPECT_EQ(SEP_MR_UNLOAD_TSC_LOADED, r->unload_tsc);
	EXPECT_LT(4096, r->length64);
	EXPECT_EQ(text, r->load_addr64);
	EXPECT_LT(etext, r->load_addr64 + r->length64);
}

/* Kernel modules, pid 0, global: aca itself, around its text as sysfs says. */
TEST_F(collection, kernel_modules_are_described)
{
	const struct sep_module_record *r;
	unsigned long aca_text = sysfs_ulong("/sys/module/aca/sections/.text");

	ASSERT_NE(0, aca_text) TH_LOG("no address in /sys/module/aca/sections/.text: not root?");
	r = find(self->recs, self->nrec, 0, "aca", true);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(SEP_MR_GLOBAL_MODULE | SEP_MR_GLOBAL_MODULE_TB5 |
		  SEP_MR_PID_REC_INDEX_RAW | SEP_MR_TSC_USED, r->flags);
	EXPECT_LE(r->load_addr64, aca_text);
	EXPECT_GT(r->load_addr64 + r->length64, aca_text);
}

/*
 * The process that collected, alive at STOP, described by STOP's walk: its
 * executable (segment 1, 64-bit user), the library it keeps, the vDSO; all
 * loaded.
 */
TEST_F(collection, live_process_is_described_at_stop)
{
	const struct sep_module_record *r;

	r = find(self->recs, self->nrec, self->pid, self->self_path, true);
	ASSERT_NE(NULL, r) TH_LOG("no record of %s", self->self_path);
	EXPECT_TRUE(r->flags & SEP_MR_EXE);
	EXPECT_EQ(self->ppid, r->parent_pid);
	EXPECT_EQ(1, r->segment_number);
	EXPECT_EQ(SEP_MR_SELECTOR_USER64, r->selector);
	EXPECT_EQ(SEP_MODE_64BIT, r->segment_bits & SEP_MR_SEGMENT_TYPE_MASK);
	r = find(self->recs, self->nrec, self->pid, self->kept_path, true);
	ASSERT_NE(NULL, r) TH_LOG("no record of %s", self->kept_path);
	EXPECT_FALSE(r->flags & SEP_MR_EXE);
	EXPECT_NE(NULL, find(self->recs, self->nrec, self->pid, "[vdso]", true));
}

/* A library dlclose()d during the collection: unloaded then, not loaded at STOP. */
TEST_F(collection, dlclose_unloads_the_library)
{
	const struct sep_module_record *r;

	r = find(self->recs, self->nrec, self->pid, self->closed_path, false);
	ASSERT_NE(NULL, r) TH_LOG("no unload record of %s", self->closed_path);
	EXPECT_LE(self->tsc0, r->unload_tsc);
	EXPECT_GE(self->tsc1, r->unload_tsc);
	EXPECT_EQ(NULL, find(self->recs, self->nrec, self->pid, self->closed_path, true));
}

/* A child that exits during the collection: its executable, unloaded inside it. */
TEST_F(collection, exited_child_is_unloaded_at_its_exit)
{
	const struct sep_module_record *r;

	r = find(self->recs, self->nrec, self->child, self->child_path, false);
	ASSERT_NE(NULL, r) TH_LOG("no exit record of %s (pid %d)", self->child_path,
				  self->child);
	EXPECT_TRUE(r->flags & SEP_MR_EXE);
	EXPECT_EQ(self->pid, r->parent_pid);
	EXPECT_LE(self->tsc0, r->unload_tsc);
	EXPECT_GE(self->tsc1, r->unload_tsc);
	EXPECT_LT(0, r->length64);
	EXPECT_EQ(NULL, find(self->recs, self->nrec, self->child, self->child_path, true));
}

/* A process started during the collection and alive at STOP: loaded. */
TEST_F(collection, process_started_mid_collection_is_described)
{
	const struct sep_module_record *r;

	r = find(self->recs, self->nrec, self->sleeper, self->sleeper_path, true);
	ASSERT_NE(NULL, r) TH_LOG("no record of %s (pid %d)", self->sleeper_path,
				  self->sleeper);
	EXPECT_TRUE(r->flags & SEP_MR_EXE);
	EXPECT_EQ(self->pid, r->parent_pid);
}

/* Kernel threads: one record each, named, at no address. */
TEST_F(collection, kernel_threads_are_named_nowhere)
{
	const struct sep_module_record *r;

	r = find(self->recs, self->nrec, 2, "kthreadd", false);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(0, r->load_addr64);
	EXPECT_EQ(0, r->length64);
	EXPECT_TRUE(r->flags & SEP_MR_EXE);
}

/* The parsed record that is @r. */
static const struct mrec *mrec_of(const struct mrec *recs, size_t n,
				  const struct sep_module_record *r)
{
	for (size_t i = 0; i < n; i++)
		if (recs[i].r == r)
			return &recs[i];
	return NULL;
}

/*
 * The GNU build-id of the 64-bit ELF file @path, read here from the file,
 * apart from the target's reader: the notes of every PT_NOTE segment, each
 * name and descriptor ending padded to the segment's alignment (4 or 8,
 * from the file's start, where an aligned segment starts). Returns
 * its size, or 0 if it has none or cannot be read.
 */
static size_t file_build_id(const char *path, uint8_t id[ACA_MR_BUILD_ID_MAX])
{
	size_t len = 0, cap = 0, size = 0;
	uint8_t *buf = NULL;
	Elf64_Ehdr eh;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	while (cap < (64u << 20)) {	/* the whole file, at most 64 MiB */
		cap = cap * 2 + 65536;
		buf = realloc(buf, cap);
		if (!buf)
			break;
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap)
			break;
	}
	fclose(f);
	if (!buf || len < sizeof(eh))
		goto out;
	memcpy(&eh, buf, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > len ||
	    (size_t)eh.e_phnum * sizeof(Elf64_Phdr) > len - eh.e_phoff)
		goto out;
	for (size_t i = 0; i < eh.e_phnum && !size; i++) {
		Elf64_Phdr ph;
		size_t pos, end, align;

		memcpy(&ph, buf + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_NOTE || ph.p_offset > len || ph.p_filesz > len - ph.p_offset)
			continue;
		align = ph.p_align == 8 ? 8 : 4;
		end = ph.p_offset + ph.p_filesz;
		for (pos = ph.p_offset; end - pos >= sizeof(Elf64_Nhdr);) {
			Elf64_Nhdr nh;
			size_t name, desc;

			memcpy(&nh, buf + pos, sizeof(nh));
			name = pos + sizeof(nh);
			desc = (name + nh.n_namesz + align - 1) / align * align;
			if (desc > end || nh.n_descsz > end - desc)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp(buf + name, "GNU", 4) && nh.n_descsz >= 1 &&
			    nh.n_descsz <= ACA_MR_BUILD_ID_MAX) {
				memcpy(id, buf + desc, nh.n_descsz);
				size = nh.n_descsz;
				break;
			}
			pos = (desc + nh.n_descsz + align - 1) / align * align;
			if (pos >= end)
				break;
		}
	}
out:
	free(buf);
	return size;
}

static void hex(const uint8_t *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = 0;
}

/* Every record of @path carries build-id @id (@size bytes); how many. */
static int expect_build_id(struct __test_metadata *_metadata, const struct mrec *recs,
			   size_t n, const char *path, const uint8_t *id, size_t size)
{
	char want[2 * ACA_MR_BUILD_ID_MAX + 1], got[2 * ACA_MR_BUILD_ID_MAX + 1];
	int seen = 0;

	hex(id, size, want);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(recs[i].path, path))
			continue;
		seen++;
		hex(recs[i].bid ? recs[i].bid : id, recs[i].bid ? recs[i].bid_size : 0, got);
		EXPECT_TRUE(recs[i].bid && recs[i].bid_size == size &&
			    !memcmp(recs[i].bid, id, size))
			TH_LOG("%s (pid %u): build-id '%s' in its record, '%s' in the file",
			       path, recs[i].r->pid_rec_index, got, want);
	}
	return seen;
}

/*
 * [ACA-EXT] A user file's records carry the build-id its ELF note has:
 * this test's executable described at STOP, a child's executable when it
 * exits, a library when dlclose() unmaps it. The vDSO and the kernel's
 * records carry none.
 */
TEST(records_carry_the_build_ids_of_their_files)
{
	uint8_t self_id[ACA_MR_BUILD_ID_MAX], child_id[ACA_MR_BUILD_ID_MAX];
	uint8_t closed_id[ACA_MR_BUILD_ID_MAX];
	char self_path[PATH_MAX], child_path[PATH_MAX], closed_path[PATH_MAX];
	size_t self_size, child_size, closed_size, nrec;
	const struct sep_module_record *r;
	const struct mrec *m;
	struct mrec *recs;
	int status, mod;
	struct coll c;
	void *closed;
	pid_t child;

	ASSERT_NE(NULL, realpath("/proc/self/exe", self_path));
	ASSERT_NE(NULL, realpath(CHILD_BIN, child_path));
	self_size = file_build_id(self_path, self_id);
	ASSERT_LT(0, self_size) TH_LOG("%s has no build-id note", self_path);
	child_size = file_build_id(child_path, child_id);
	ASSERT_LT(0, child_size) TH_LOG("%s has no build-id note", child_path);

	coll_begin(_metadata, &c);
	mod = c.n + 1;
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		execl(CHILD_BIN, CHILD_BIN, (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	closed = dlopen(CLOSED_LIB, RTLD_NOW);
	ASSERT_NE(NULL, closed) TH_LOG("%s", dlerror());
	ASSERT_EQ(0, lib_path(closed, closed_path));
	closed_size = file_build_id(closed_path, closed_id);
	ASSERT_LT(0, closed_size) TH_LOG("%s has no build-id note", closed_path);
	ASSERT_EQ(0, dlclose(closed));
	take_all(_metadata, &c);
	coll_end(_metadata, &c);

	nrec = parse_records(_metadata, c.buf[mod], c.len[mod], &recs);
	ASSERT_LT(0, nrec);
	EXPECT_EQ(NULL, recs[0].bid) TH_LOG("a build-id for %s", recs[0].path);
	/* STOP's walk. */
	r = find(recs, nrec, getpid(), self_path, true);
	ASSERT_NE(NULL, r) TH_LOG("no record of %s", self_path);
	m = mrec_of(recs, nrec, r);
	ASSERT_NE(NULL, m);
	EXPECT_NE(NULL, m->bid);
	EXPECT_LE(1, expect_build_id(_metadata, recs, nrec, self_path, self_id, self_size));
	/* The exit hook's. */
	r = find(recs, nrec, child, child_path, false);
	ASSERT_NE(NULL, r) TH_LOG("no exit record of %s (pid %d)", child_path, child);
	m = mrec_of(recs, nrec, r);
	ASSERT_NE(NULL, m);
	EXPECT_NE(NULL, m->bid);
	EXPECT_LE(1, expect_build_id(_metadata, recs, nrec, child_path, child_id, child_size));
	/* The munmap() hook's. */
	r = find(recs, nrec, getpid(), closed_path, false);
	ASSERT_NE(NULL, r) TH_LOG("no unload record of %s", closed_path);
	m = mrec_of(recs, nrec, r);
	ASSERT_NE(NULL, m);
	EXPECT_NE(NULL, m->bid);
	EXPECT_LE(1, expect_build_id(_metadata, recs, nrec, closed_path, closed_id,
				     closed_size));
	/* No file, no build-id. */
	r = find(recs, nrec, getpid(), "[vdso]", true);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(NULL, mrec_of(recs, nrec, r)->bid);
	free(recs);
	coll_close(&c);
}

/* ---- crafted ELF files: the target's build-id reader within bounds ---- */

#define CRAFT_SIZE	(2 * PAGE)	/* each file, mapped whole */
#define CRAFT_NOTES	512		/* where the notes are */

struct craft {
	const char *name;
	bool is64;
	uint8_t data;		/* EI_DATA */
	uint16_t phnum;		/* claimed; one PT_NOTE is written */
	uint64_t note_off;	/* p_offset; 0: CRAFT_NOTES */
	int64_t filesz_delta;	/* p_filesz: the notes' size plus this */
	uint32_t align;		/* p_align; the notes are padded so */
	bool property_first;	/* a NT_GNU_PROPERTY_TYPE_0 note before */
	uint32_t id_size;	/* the build-id's descriptor size */
	uint32_t want;		/* the size the record must carry; 0: none */
};

static void put_note(uint8_t *p, size_t *at, uint32_t align, uint32_t type,
		     const char *name, uint32_t namesz, const uint8_t *desc, uint32_t descsz)
{
	uint32_t h[3] = { namesz, descsz, type };

	memcpy(p + *at, h, sizeof(h));
	memcpy(p + *at + 12, name, namesz);
	*at = (*at + 12 + namesz + align - 1) / align * align;
	memcpy(p + *at, desc, descsz);
	*at = (*at + descsz + align - 1) / align * align;
}

/* Write @c as @path: an ELF header, one PT_NOTE, its notes; the id is 0x40 + i. */
static int craft_write(const struct craft *c, const char *path, uint8_t *id)
{
	uint8_t file[CRAFT_SIZE] = { 0 }, prop[16] = { 1, 2, 3 };
	size_t notes = CRAFT_NOTES, nlen;
	int fd, ok;

	for (uint32_t i = 0; i < 32; i++)
		id[i] = 0x40 + i;
	if (c->property_first)
		put_note(file, &notes, c->align, 5, "GNU", 4, prop, sizeof(prop));
	put_note(file, &notes, c->align, NT_GNU_BUILD_ID, "GNU", 4, id, c->id_size);
	nlen = notes - CRAFT_NOTES;
	if (c->is64) {
		Elf64_Ehdr eh = {
			.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, c->data,
				     EV_CURRENT },
			.e_type = ET_DYN, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
			.e_phoff = sizeof(eh), .e_ehsize = sizeof(eh),
			.e_phentsize = sizeof(Elf64_Phdr), .e_phnum = c->phnum,
		};
		Elf64_Phdr ph = {
			.p_type = PT_NOTE, .p_flags = PF_R,
			.p_offset = c->note_off ? c->note_off : CRAFT_NOTES,
			.p_filesz = nlen + c->filesz_delta, .p_memsz = nlen,
			.p_align = c->align,
		};

		memcpy(file, &eh, sizeof(eh));
		memcpy(file + sizeof(eh), &ph, sizeof(ph));
	} else {
		Elf32_Ehdr eh = {
			.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS32, c->data,
				     EV_CURRENT },
			.e_type = ET_DYN, .e_machine = EM_386, .e_version = EV_CURRENT,
			.e_phoff = sizeof(eh), .e_ehsize = sizeof(eh),
			.e_phentsize = sizeof(Elf32_Phdr), .e_phnum = c->phnum,
		};
		Elf32_Phdr ph = {
			.p_type = PT_NOTE, .p_flags = PF_R,
			.p_offset = c->note_off ? c->note_off : CRAFT_NOTES,
			.p_filesz = nlen + c->filesz_delta, .p_memsz = nlen,
			.p_align = c->align,
		};

		memcpy(file, &eh, sizeof(eh));
		memcpy(file + sizeof(eh), &ph, sizeof(ph));
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	ok = write(fd, file, sizeof(file)) == sizeof(file);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Files mapped as code whose notes are right, and wrong in the ways a
 * file's bytes can be: the record carries the build-id exactly when one is
 * there, of the size it has, in ELF64 and ELF32, in 4- and 8-aligned
 * segments; nothing out of bounds is taken for one.
 */
TEST(crafted_elf_notes_are_read_within_bounds)
{
	static const struct craft cases[] = {
		{ "elf64-20", true, ELFDATA2LSB, 1, 0, 0, 4, false, 20, 20 },
		{ "elf64-1", true, ELFDATA2LSB, 1, 0, 0, 4, false, 1, 1 },
		{ "elf64-align8", true, ELFDATA2LSB, 1, 0, 0, 8, true, 20, 20 },
		{ "elf64-after-property", true, ELFDATA2LSB, 1, 0, 0, 4, true, 8, 8 },
		{ "elf32-16", false, ELFDATA2LSB, 1, 0, 0, 4, false, 16, 16 },
		{ "elf64-21", true, ELFDATA2LSB, 1, 0, 0, 4, false, 21, 0 },
		{ "elf64-0", true, ELFDATA2LSB, 1, 0, 0, 4, false, 0, 0 },
		{ "elf64-cut", true, ELFDATA2LSB, 1, 0, -4, 4, false, 20, 0 },
		{ "elf64-past-eof", true, ELFDATA2LSB, 1, 1ull << 40, 0, 4, false, 20, 0 },
		{ "elf64-at-eof", true, ELFDATA2LSB, 1, CRAFT_SIZE - 8, 0, 4, false, 20, 0 },
		{ "elf64-huge-filesz", true, ELFDATA2LSB, 1, 0, 1ll << 40, 4, false, 20, 20 },
		{ "elf64-200-phdrs", true, ELFDATA2LSB, 200, 0, 0, 4, false, 20, 0 },
		{ "elf64-no-phdrs", true, ELFDATA2LSB, 0, 0, 0, 4, false, 20, 0 },
		{ "elf64-big-endian", true, ELFDATA2MSB, 1, 0, 0, 4, false, 20, 0 },
		{ "elf32-past-eof", false, ELFDATA2LSB, 1, 0xfffffff0u, 0, 4, false, 20, 0 },
		{ "not-elf", true, 0, 1, 0, 0, 4, false, 20, 0 },	/* made text below */
	};
	enum { N = sizeof(cases) / sizeof(cases[0]) };
	char dir[] = "/tmp/aca-bid-XXXXXX", path[N][PATH_MAX];
	uint8_t id[N][32];
	void *maps[N];
	struct mrec *recs;
	struct coll c;
	size_t nrec;
	int mod;

	ASSERT_NE(NULL, mkdtemp(dir));
	for (int i = 0; i < N; i++) {
		int fd;

		snprintf(path[i], sizeof(path[i]), "%s/%s", dir, cases[i].name);
		ASSERT_EQ(0, craft_write(&cases[i], path[i], id[i])) TH_LOG("%s", path[i]);
		if (!cases[i].data) {	/* text where the ELF header was, notes kept */
			char text[64];

			memset(text, '#', sizeof(text));
			memcpy(text, "#!/bin/sh\n", 10);
			text[sizeof(text) - 1] = '\n';
			fd = open(path[i], O_WRONLY | O_CLOEXEC);
			ASSERT_LE(0, fd);
			ASSERT_EQ(sizeof(text), pwrite(fd, text, sizeof(text), 0));
			close(fd);
		}
		fd = open(path[i], O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		maps[i] = mmap(NULL, CRAFT_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		ASSERT_NE(MAP_FAILED, maps[i]) TH_LOG("%s: %s", path[i], strerror(errno));
		close(fd);
	}
	coll_begin(_metadata, &c);
	mod = c.n + 1;
	coll_end(_metadata, &c);

	nrec = parse_records(_metadata, c.buf[mod], c.len[mod], &recs);
	for (int i = 0; i < N; i++) {
		const struct sep_module_record *r = find(recs, nrec, getpid(), path[i], true);
		const struct mrec *m = r ? mrec_of(recs, nrec, r) : NULL;

		ASSERT_NE(NULL, m) TH_LOG("no record of %s", path[i]);
		if (!cases[i].want) {
			EXPECT_EQ(NULL, m->bid) TH_LOG("%s: a build-id of %zu bytes",
							cases[i].name, m->bid_size);
			continue;
		}
		ASSERT_NE(NULL, m->bid) TH_LOG("%s: no build-id", cases[i].name);
		EXPECT_EQ(cases[i].want, m->bid_size) TH_LOG("%s", cases[i].name);
		EXPECT_EQ(0, memcmp(id[i], m->bid, m->bid_size)) TH_LOG("%s", cases[i].name);
	}
	free(recs);
	coll_close(&c);
	for (int i = 0; i < N; i++) {
		munmap(maps[i], CRAFT_SIZE);
		unlink(path[i]);
	}
	rmdir(dir);
}

/* Delayed transfer: bit 9 of the switches, nothing before STOP, all after. */
TEST(delayed_transfer_sends_everything_at_stop)
{
	pid_t spinners[MAX_CPUS];
	uint64_t nsamples = 0, cpu_records = 0;
	struct mrec *recs;
	struct coll c;
	size_t held;
	int mod;

	ASSERT_EQ(0, set_param(DELAYED_PARAM, "Y"));
	coll_open(_metadata, &c);
	ASSERT_EQ(0, set_param(DELAYED_PARAM, "N"));	/* read at session start */
	EXPECT_EQ(SEP_SWITCH_DELAYED_TRANSFER, c.switches & SEP_SWITCH_DELAYED_TRANSFER);
	coll_configure(_metadata, &c);
	mod = c.n + 1;
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	spin_all(spinners, c.n, 500);
	EXPECT_EQ(0, wait_all(spinners, c.n));
	/* Samples and records exist, yet no channel has anything. */
	EXPECT_EQ(0, take_all(_metadata, &c));
	held = 0;
	for (int i = 0; i < c.n + 2; i++)
		held += c.len[i];
	EXPECT_EQ(0, held);
	EXPECT_FALSE(readable(c.data[mod], 100));

	stop_after_drain(_metadata, &c);
	for (int i = 0; i < c.n; i++)
		cpu_records += c.len[i] / sizeof(struct sep_sample_record_pc);
	EXPECT_LT(0, cpu_records);
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_GET_NUM_SAMPLES, NULL, 0, &nsamples, 8));
	EXPECT_EQ(cpu_records, nsamples);
	EXPECT_LT(0, parse_records(_metadata, c.buf[mod], c.len[mod], &recs));
	EXPECT_STREQ("vmlinux", recs[0].path);
	free(recs);
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	coll_close(&c);
}

/* ---- [ACA-EXT] MODULE_SNAPSHOT (spec 4.8) ---- */

/*
 * A process started before the collection, alive all along (its path in
 * @path), then a collection begun: the process's pid.
 */
static pid_t begin_after_sleeper(struct __test_metadata *_metadata, struct coll *c,
				 char path[PATH_MAX])
{
	pid_t pid;

	if (!realpath(SLEEPER_BIN, path))
		return -1;
	pid = fork();
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl(SLEEPER_BIN, SLEEPER_BIN, "60", (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	usleep(200 * 1000);	/* it has exec()ed */
	coll_begin(_metadata, c);
	return pid;
}

static void stop_sleeper(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

/* Loaded records of @pid's @path in the module channel so far. */
static size_t count_loaded(struct __test_metadata *_metadata, struct coll *c,
			   pid_t pid, const char *path)
{
	struct mrec *recs = NULL;
	size_t n, hits = 0;

	n = parse_records(_metadata, c->buf[c->n + 1], c->len[c->n + 1], &recs);
	for (size_t i = 0; i < n; i++)
		hits += recs[i].r->pid_rec_index == (uint32_t)pid &&
			recs[i].r->unload_tsc == SEP_MR_UNLOAD_TSC_LOADED &&
			!strcmp(recs[i].path, path);
	free(recs);
	return hits;
}

/*
 * Read every channel for up to @ms until @pid's @path has @want loaded
 * records; how many it has then.
 */
static size_t wait_loaded(struct __test_metadata *_metadata, struct coll *c,
			  pid_t pid, const char *path, size_t want, int ms)
{
	double end = now_ms() + ms;
	size_t hits;

	for (;;) {
		take_all(_metadata, c);
		hits = count_loaded(_metadata, c, pid, path);
		if (hits >= want || now_ms() > end)
			return hits;
		readable(c->data[c->n + 1], 100);
	}
}

/*
 * While sampling, a process that was running before START (no exec or
 * exit of it in the collection) is described on the module channel soon
 * after MODULE_SNAPSHOT, before STOP, as STOP describes it: loaded, its
 * executable; and a kernel thread too.
 */
TEST(snapshot_describes_running_processes_before_stop)
{
	char path[PATH_MAX];
	struct mrec *recs;
	struct coll c;
	pid_t sleeper;
	size_t n;

	sleeper = begin_after_sleeper(_metadata, &c, path);
	ASSERT_LT(0, sleeper);
	/* INIT_DRIVER's records only, as long as nobody asks. */
	EXPECT_EQ(0, wait_loaded(_metadata, &c, sleeper, path, 1, 1500));
	ASSERT_EQ(0, command_io(c.ctl, ACA_CMD_MODULE_SNAPSHOT, NULL, 0, NULL, 0));
	/* The walk, then the flush timer's read within a second. */
	EXPECT_EQ(1, wait_loaded(_metadata, &c, sleeper, path, 1, 10000));
	n = parse_records(_metadata, c.buf[c.n + 1], c.len[c.n + 1], &recs);
	EXPECT_NE(NULL, find(recs, n, sleeper, "[vdso]", true));
	EXPECT_NE(NULL, find(recs, n, getpid(), "[vdso]", true));
	/* kthreadd: a kernel thread, named after itself. */
	EXPECT_NE(NULL, find(recs, n, 2, "kthreadd", false));
	free(recs);
	EXPECT_EQ(0, take_all(_metadata, &c));	/* no channel over */
	coll_end(_metadata, &c);
	/* STOP's walk describes it again. */
	EXPECT_EQ(2, count_loaded(_metadata, &c, sleeper, path));
	stop_sleeper(sleeper);
	coll_close(&c);
}

/*
 * Walks come at most one a gap (ACA_MODULE_SNAPSHOT_GAP_MS), however
 * often a host asks, and no ask is lost: asks every 100 ms for 3 s make
 * from 2 walks (the first ask's, and one for those after it) to 5 (a
 * kick at 0, 1, 2, 3 s and one for the last asks), each describing the
 * process once; STOP once more.
 */
TEST(snapshot_walks_are_a_gap_apart)
{
	char path[PATH_MAX];
	size_t walks, last;
	struct coll c;
	pid_t sleeper;
	double quiet;

	sleeper = begin_after_sleeper(_metadata, &c, path);
	ASSERT_LT(0, sleeper);
	for (int i = 0; i < 30; i++) {
		ASSERT_EQ(0, command_io(c.ctl, ACA_CMD_MODULE_SNAPSHOT, NULL, 0, NULL, 0));
		take_all(_metadata, &c);
		usleep(100 * 1000);
	}
	/* Until no walk came for 2.5 s (15 s at most). */
	last = count_loaded(_metadata, &c, sleeper, path);
	quiet = now_ms() + 2500;
	for (double end = now_ms() + 15000; now_ms() < quiet && now_ms() < end;) {
		walks = wait_loaded(_metadata, &c, sleeper, path, last + 1, 500);
		if (walks != last) {
			last = walks;
			quiet = now_ms() + 2500;
		}
	}
	walks = count_loaded(_metadata, &c, sleeper, path);
	TH_LOG("%zu walks for 30 asks in 3 s", walks);
	EXPECT_LE(2, walks);
	EXPECT_GE(5, walks);
	coll_end(_metadata, &c);
	EXPECT_EQ(walks + 1, count_loaded(_metadata, &c, sleeper, path));
	stop_sleeper(sleeper);
	coll_close(&c);
}

/* STOP right after an ask, its kick still queued: STOP answers, records whole. */
TEST(stop_right_after_a_snapshot_ask)
{
	char path[PATH_MAX];
	struct coll c;
	pid_t sleeper;

	sleeper = begin_after_sleeper(_metadata, &c, path);
	ASSERT_LT(0, sleeper);
	ASSERT_EQ(0, command_io(c.ctl, ACA_CMD_MODULE_SNAPSHOT, NULL, 0, NULL, 0));
	ASSERT_EQ(0, command_io(c.ctl, ACA_CMD_MODULE_SNAPSHOT, NULL, 0, NULL, 0));
	stop_after_drain(_metadata, &c);
	/* STOP's, and the snapshot's if STOP did not cut its walk short. */
	EXPECT_LE(1, count_loaded(_metadata, &c, sleeper, path));
	EXPECT_GE(2, count_loaded(_metadata, &c, sleeper, path));
	/* After STOP: 159, and the session goes on. */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  command_io(c.ctl, ACA_CMD_MODULE_SNAPSHOT, NULL, 0, NULL, 0));
	EXPECT_EQ(0, command_io(c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	stop_sleeper(sleeper);
	coll_close(&c);
}

/* The control file closed while STOP waits: the session ends cleanly. */
TEST(control_closed_while_stop_waits)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h), .proto_version = SEP_PROTO_VERSION,
		.command_id = SEP_CMD_STOP,
	};
	struct coll c;
	char buf[4096];

	coll_open(_metadata, &c);
	coll_configure(_metadata, &c);
	ASSERT_EQ(0, command_io(c.ctl, SEP_CMD_START, NULL, 0, NULL, 0));
	ASSERT_EQ(sizeof(h), write(c.ctl, &h, sizeof(h)));
	EXPECT_FALSE(readable(c.ctl, 200));
	close(c.ctl);
	/* Every channel ends, what was unread is dropped. */
	for (int i = 0; i < c.n + 2; i++) {
		ssize_t n;

		ASSERT_EQ(0, fcntl(c.data[i], F_SETFL, 0));
		do {
			n = read(c.data[i], buf, sizeof(buf));
		} while (n > 0);
		EXPECT_EQ(0, n);
		close(c.data[i]);
	}
	/* The next host gets a fresh session. */
	coll_open(_metadata, &c);
	coll_close(&c);
}

/* @path's size in pages (at least one), opened read-only in *@fd. */
static size_t code_file(struct __test_metadata *_metadata, const char *path,
			int *fd)
{
	struct stat st;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, *fd) TH_LOG("%s: %s", path, strerror(errno));
	ASSERT_EQ(0, fstat(*fd, &st));
	return st.st_size > PAGE ? st.st_size / PAGE : 1;
}

/*
 * Maps page i % @pages of @fd, executable, at @base + 2i pages for each i
 * < @n; the pages between stay PROT_NONE, so no two mappings merge.
 */
static int map_apart(int fd, size_t pages, uint8_t *base, int n)
{
	for (int i = 0; i < n; i++)
		if (mmap(base + 2 * (size_t)i * PAGE, PAGE, PROT_READ | PROT_EXEC,
			 MAP_PRIVATE | MAP_FIXED, fd, (i % pages) * PAGE) == MAP_FAILED)
			return -1;
	return 0;
}

/*
 * A process with thousands of code mappings exits during a collection:
 * its exit hook only keeps the mm, the worker describes every mapping.
 */
/*
 * Thousands of mappings and processes: seconds on Debian's kernels under
 * TCG, minutes on the debug kernel (KASAN, lockdep, kmemleak).
 */
FIXTURE(heavy) {};

/*
 * The code files of these tests live in /tmp: it must allow executable
 * mappings (the test VM's /tmp, a tmpfs, does).
 */
FIXTURE_SETUP(heavy)
{
	char path[] = "/tmp/aca-exec-XXXXXX";
	int fd = mkostemp(path, O_CLOEXEC);
	void *p;

	ASSERT_LE(0, fd) TH_LOG("%s: %s", path, strerror(errno));
	unlink(path);
	ASSERT_EQ(0, ftruncate(fd, PAGE));
	p = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("no executable mapping in /tmp: %s", strerror(errno));
	munmap(p, PAGE);
	close(fd);
}

FIXTURE_TEARDOWN(heavy) {}

TEST_F_TIMEOUT(heavy, exit_describes_every_one_of_many_mappings, 600)
{
	uint64_t tsc0, tsc1;
	char path[PATH_MAX];
	uint8_t *base, *seen;
	struct mrec *recs;
	size_t pages, nrec, found = 0, twice = 0;
	int fd, status, ready[2], mod;
	struct coll c;
	pid_t child;
	char x;

	ASSERT_NE(NULL, realpath(CHILD_BIN, path));
	pages = code_file(_metadata, path, &fd);
	/* Reserved here, so the parent knows every address the child maps. */
	base = mmap(NULL, 2 * (size_t)MANY_MAPS * PAGE, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, base);
	ASSERT_EQ(0, pipe(ready));
	tsc0 = coll_begin(_metadata, &c);
	mod = c.n + 1;

	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		x = map_apart(fd, pages, base, MANY_MAPS) ? 'E' : 'R';
		_exit(write(ready[1], &x, 1) == 1 && x == 'R' ? 0 : 1);
	}
	ASSERT_EQ(1, read(ready[0], &x, 1));
	ASSERT_EQ('R', x) TH_LOG("the child could not map %d pages", MANY_MAPS);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	take_all(_metadata, &c);
	tsc1 = coll_end(_metadata, &c);

	nrec = parse_records(_metadata, c.buf[mod], c.len[mod], &recs);
	seen = calloc(MANY_MAPS, 1);
	ASSERT_NE(NULL, seen);
	for (size_t k = 0; k < nrec; k++) {
		const struct sep_module_record *r = recs[k].r;
		uint64_t at = r->load_addr64 - (uintptr_t)base;
		size_t i = at / (2 * PAGE);
		uint64_t off = (uint64_t)r->page_offset_high << 32 | r->page_offset_low;

		if (r->pid_rec_index != child || strcmp(recs[k].path, path) ||
		    r->load_addr64 < (uintptr_t)base || i >= MANY_MAPS)
			continue;
		EXPECT_EQ(0, at % (2 * PAGE));
		EXPECT_EQ(PAGE, r->length64);
		EXPECT_EQ((i % pages) * PAGE, off);
		EXPECT_EQ(getpid(), r->parent_pid);
		EXPECT_NE(SEP_MR_UNLOAD_TSC_LOADED, r->unload_tsc);
		EXPECT_LE(tsc0, r->unload_tsc);
		EXPECT_GE(tsc1, r->unload_tsc);
		twice += seen[i];
		found += !seen[i];
		seen[i] = 1;
	}
	TH_LOG("%zu of %d mappings described at exit", found, MANY_MAPS);
	EXPECT_EQ(MANY_MAPS, found);
	EXPECT_EQ(0, twice);
	free(seen);
	free(recs);
	munmap(base, 2 * (size_t)MANY_MAPS * PAGE);
	close(ready[0]);
	close(ready[1]);
	close(fd);
	coll_close(&c);
}

/*
 * munmap() of the middle of a code mapping during a collection: that part
 * is unloaded then, and what is left is still loaded at STOP.
 */
TEST(munmap_unloads_the_unmapped_part_of_code)
{
	const struct sep_module_record *r;
	uint64_t tsc0, tsc1, off;
	char path[PATH_MAX];
	struct mrec *recs;
	size_t nrec;
	uint8_t *p;
	struct coll c;
	int fd, mod;

	ASSERT_NE(NULL, realpath(CHILD_BIN, path));
	code_file(_metadata, path, &fd);
	tsc0 = coll_begin(_metadata, &c);
	mod = c.n + 1;
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p + PAGE, 2 * PAGE));
	take_all(_metadata, &c);
	tsc1 = coll_end(_metadata, &c);

	nrec = parse_records(_metadata, c.buf[mod], c.len[mod], &recs);
	r = find_at(recs, nrec, getpid(), path, (uintptr_t)p + PAGE, false);
	ASSERT_NE(NULL, r) TH_LOG("no unload record of %s at %p", path, p + PAGE);
	off = (uint64_t)r->page_offset_high << 32 | r->page_offset_low;
	EXPECT_EQ(2 * PAGE, r->length64);
	EXPECT_EQ(PAGE, off);
	EXPECT_LE(tsc0, r->unload_tsc);
	EXPECT_GE(tsc1, r->unload_tsc);
	EXPECT_EQ(NULL, find_at(recs, nrec, getpid(), path, (uintptr_t)p, false));
	/* The pages left: loaded at STOP, one page each. */
	r = find_at(recs, nrec, getpid(), path, (uintptr_t)p, true);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(PAGE, r->length64);
	r = find_at(recs, nrec, getpid(), path, (uintptr_t)p + 3 * PAGE, true);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(PAGE, r->length64);
	off = (uint64_t)r->page_offset_high << 32 | r->page_offset_low;
	EXPECT_EQ(3 * PAGE, off);
	free(recs);
	munmap(p, PAGE);
	munmap(p + 3 * PAGE, PAGE);
	close(fd);
	coll_close(&c);
}

/*
 * A file @depth directories down a new directory in /tmp, one page long:
 * naming it (d_path()) costs far more than mapping it. Its path in @path,
 * the top directory in @top, opened read-only in *@fd.
 */
/*
 * @n children that each map and unmap a page of code of @fd for ever,
 * until killed; one that exits 1 saw an mmap() or munmap() fail.
 */
static void start_loopers(struct __test_metadata *_metadata, int fd,
			  pid_t *loopers, int n)
{
	for (int i = 0; i < n; i++) {
		loopers[i] = fork();
		ASSERT_LE(0, loopers[i]);
		if (!loopers[i]) {
			for (;;) {
				void *p = mmap(NULL, PAGE, PROT_READ | PROT_EXEC,
					       MAP_PRIVATE, fd, 0);

				if (p == MAP_FAILED || munmap(p, PAGE))
					_exit(1);
			}
		}
	}
}

static void deep_code_file(struct __test_metadata *_metadata, int depth,
			   char *top, char *path, int *fd)
{
	int dir, sub;
	size_t len;

	strcpy(top, "/tmp/aca-deep-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(top));
	dir = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, dir);
	len = strlen(strcpy(path, top));
	for (int i = 0; i < depth; i++) {
		ASSERT_EQ(0, mkdirat(dir, "a", 0700));
		sub = openat(dir, "a", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ASSERT_LE(0, sub);
		close(dir);
		dir = sub;
		ASSERT_GT(PATH_MAX - 16, len + 2);
		len += strlen(strcpy(path + len, "/a"));
	}
	strcpy(path + len, "/code");
	*fd = openat(dir, "code", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	ASSERT_LE(0, *fd);
	ASSERT_EQ(0, ftruncate(*fd, PAGE));
	close(dir);
}

/* Remove what deep_code_file() made below directory @dir, @depth down. */
static void deep_remove(int dir, int depth)
{
	int sub;

	if (!depth) {
		unlinkat(dir, "code", 0);
		return;
	}
	sub = openat(dir, "a", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sub < 0)
		return;
	deep_remove(sub, depth - 1);
	close(sub);
	unlinkat(dir, "a", AT_REMOVEDIR);
}

/*
 * STOP is answered, every channel ends, while processes map and unmap
 * code in a loop throughout, code whose deep path makes each record cost
 * the worker more than each munmap() costs them: however fast the hooks
 * queue, STOP's work ends.
 */
TEST_F_TIMEOUT(heavy, stop_answers_while_code_is_mapped_and_unmapped, 600)
{
	char top[PATH_MAX], path[PATH_MAX];
	pid_t loopers[MAX_CPUS];
	size_t nrec, unloads = 0;
	struct mrec *recs;
	struct coll c;
	int fd, mod;

	deep_code_file(_metadata, DEEP_DIRS, top, path, &fd);
	coll_begin(_metadata, &c);
	mod = c.n + 1;
	start_loopers(_metadata, fd, loopers, c.n);
	usleep(300 * 1000);
	take_all(_metadata, &c);
	coll_end(_metadata, &c);
	for (int i = 0; i < c.n; i++) {
		int status;

		kill(loopers[i], SIGKILL);
		ASSERT_EQ(loopers[i], waitpid(loopers[i], &status, 0));
		/* Killed while looping: no mmap() or munmap() failed. */
		EXPECT_TRUE(WIFSIGNALED(status));
	}

	nrec = parse_records(_metadata, c.buf[mod], c.len[mod], &recs);
	for (size_t k = 0; k < nrec; k++)
		unloads += recs[k].r->pid_rec_index == loopers[0] &&
			   !strcmp(recs[k].path, path) &&
			   recs[k].r->unload_tsc != SEP_MR_UNLOAD_TSC_LOADED;
	TH_LOG("%zu unload records of the first looper", unloads);
	EXPECT_LT(0, unloads);
	free(recs);
	close(fd);
	fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		deep_remove(fd, DEEP_DIRS);
		close(fd);
	}
	rmdir(top);
	coll_close(&c);
}

/*
 * @n processes that hold @maps code mappings of @fd each, say so on
 * @ready, and live until pipe @hold is closed: the first maps them, then
 * forks the others, which copy its mappings (far cheaper than mapping
 * them anew), and waits for them before it exits. Its pid.
 */
static pid_t holders(int fd, int n, int maps, int ready, const int hold[2])
{
	pid_t pid = fork();
	char x = 'R';

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	close(hold[1]);
	for (int i = 0; i < maps && x == 'R'; i++)
		if (mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd,
			 0) == MAP_FAILED)
			x = 'E';
	for (int i = 1; i < n && x == 'R'; i++) {
		pid = fork();
		if (pid < 0)
			x = 'E';
		if (!pid) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			break;
		}
	}
	if (write(ready, &x, 1) != 1 || x != 'R')
		_exit(1);
	while (read(hold[0], &x, 1) > 0)
		;
	while (pid && wait(NULL) > 0)
		;
	_exit(0);
}

/* What the prober saw: how long a call that takes aca_lock waited. */
struct lock_probe {
	int go;			/* readable: STOP is about to be sent */
	double took, end;	/* ms: the call, and when it returned */
	int polled;
};

/*
 * A fresh /dev/aca file's poll() takes aca_lock (and gives no role):
 * LOCK_PROBE_DELAY_MS after STOP went, so well inside STOP's walk.
 */
static void *probe_lock(void *arg)
{
	struct lock_probe *p = arg;
	struct pollfd pfd = { .events = POLLIN };
	double t0;
	char x;

	p->polled = -1;
	if (read(p->go, &x, 1) != 1)
		return NULL;
	usleep(LOCK_PROBE_DELAY_MS * 1000);
	t0 = now_ms();
	pfd.fd = open_dev();
	if (pfd.fd >= 0) {
		p->polled = poll(&pfd, 1, 0);
		close(pfd.fd);
	}
	p->end = now_ms();
	p->took = p->end - t0;
	return NULL;
}

/*
 * STOP's walk does not hold the device's lock: while it describes
 * LOCK_HOLDERS processes of LOCK_HOLDER_MAPS code mappings each, of a file
 * whose deep path makes each record cost, another file's call that takes
 * aca_lock (poll() of a fresh file) returns at once, long before STOP is
 * answered. (Before, STOP waited for the walk holding aca_lock, and so
 * did every other file of the device.)
 */
TEST_F_TIMEOUT(heavy, stop_walk_leaves_the_device_lock_free, 600)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h), .proto_version = SEP_PROTO_VERSION,
		.command_id = SEP_CMD_STOP,
	};
	char top[PATH_MAX], path[PATH_MAX], x = 'G';
	int fd, mod, status, ready[2], hold[2], go[2];
	size_t nrec, described = 0;
	double t_stop, t_answer;
	struct lock_probe probe;
	struct mrec *recs;
	pthread_t prober;
	struct coll c;
	pid_t first;

	deep_code_file(_metadata, DEEP_DIRS, top, path, &fd);
	ASSERT_EQ(0, pipe2(ready, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(hold, O_CLOEXEC));
	first = holders(fd, LOCK_HOLDERS, LOCK_HOLDER_MAPS, ready[1], hold);
	ASSERT_LE(0, first);
	close(hold[0]);
	ASSERT_EQ(0, pipe2(go, O_CLOEXEC));
	for (int i = 0; i < LOCK_HOLDERS; i++) {
		ASSERT_EQ(1, read(ready[0], &x, 1));
		ASSERT_EQ('R', x) TH_LOG("no %d holders of %d mappings",
					 LOCK_HOLDERS, LOCK_HOLDER_MAPS);
	}
	coll_begin(_metadata, &c);
	mod = c.n + 1;
	take_all(_metadata, &c);

	probe = (struct lock_probe){ .go = go[0] };
	ASSERT_EQ(0, pthread_create(&prober, NULL, probe_lock, &probe));
	t_stop = now_ms();
	ASSERT_EQ(1, write(go[1], &x, 1));
	ASSERT_EQ(sizeof(h), write(c.ctl, &h, sizeof(h)));
	EXPECT_TRUE(take_until_answer(_metadata, &c, 60000));
	t_answer = now_ms();
	ASSERT_EQ(0, pthread_join(prober, NULL));
	TH_LOG("STOP answered after %.0f ms; the probe, %d ms in, took %.1f ms",
	       t_answer - t_stop, LOCK_PROBE_DELAY_MS, probe.took);
	EXPECT_EQ(0, probe.polled);
	EXPECT_GT(LOCK_PROBE_MAX_MS, probe.took);
	/* The answer comes once the walk is done: it still ran then. */
	EXPECT_LT(probe.end, t_answer);

	ASSERT_EQ(sizeof(h), read_full(c.ctl, &h, sizeof(h)));
	EXPECT_EQ(SEP_CMD_STOP, h.command_id);
	EXPECT_EQ(0, h.status);
	EXPECT_EQ(c.n + 2, take_all(_metadata, &c));
	EXPECT_EQ(0, command_io(c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	nrec = parse_records(_metadata, c.buf[mod], c.len[mod], &recs);
	for (size_t k = 0; k < nrec; k++)
		described += recs[k].r->unload_tsc == SEP_MR_UNLOAD_TSC_LOADED &&
			     !strcmp(recs[k].path, path);
	TH_LOG("%zu of %d mappings described at STOP", described,
	       LOCK_HOLDERS * LOCK_HOLDER_MAPS);
	EXPECT_LT(0, described);
	free(recs);

	close(hold[1]);
	ASSERT_EQ(first, waitpid(first, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	close(fd);
	fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		deep_remove(fd, DEEP_DIRS);
		close(fd);
	}
	rmdir(top);
	coll_close(&c);
}

/*
 * A session that ends without STOP while processes map and unmap code:
 * whatever the hooks took and the worker had not written yet is let go,
 * so the file's last reference goes once the processes and the test's
 * own descriptor do (inotify reports that last close).
 */
TEST_F_TIMEOUT(heavy, session_end_lets_go_of_what_the_hooks_took, 600)
{
	char top[PATH_MAX], path[PATH_MAX];
	pid_t loopers[MAX_CPUS];
	struct inotify_event *ev;
	char evbuf[4096];
	struct coll c;
	int fd, in;

	deep_code_file(_metadata, DEEP_DIRS, top, path, &fd);
	close(fd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	in = inotify_init1(IN_CLOEXEC);
	ASSERT_LE(0, in);
	ASSERT_LE(0, inotify_add_watch(in, path, IN_CLOSE));
	coll_begin(_metadata, &c);
	start_loopers(_metadata, fd, loopers, c.n);
	usleep(300 * 1000);
	EXPECT_EQ(0, command_io(c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	for (int i = 0; i < c.n; i++) {
		kill(loopers[i], SIGKILL);
		ASSERT_EQ(loopers[i], waitpid(loopers[i], NULL, 0));
	}
	close(fd);
	/* The one open file of it is closed: its last reference went. */
	ASSERT_TRUE(readable(in, 5000)) TH_LOG("the file under %s is still referenced", top);
	ASSERT_LT(0, read(in, evbuf, sizeof(evbuf)));
	ev = (struct inotify_event *)evbuf;
	EXPECT_TRUE(ev->mask & IN_CLOSE_NOWRITE);
	close(in);
	fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		deep_remove(fd, DEEP_DIRS);
		close(fd);
	}
	rmdir(top);
	coll_close(&c);
}

/* Lines of /sys/kernel/debug/kprobes/list: the kprobes registered, or -1. */
static int kprobes_registered(void)
{
	FILE *f = fopen("/sys/kernel/debug/kprobes/list", "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The hooks exist only during a session: INIT_DRIVER registers its four
 * kprobes (exit, exec, munmap and its 32-bit entry) and TERMINATE removes
 * them, SESSIONS times over. What that costs, each time, is printed as a
 * figure: INIT_DRIVER also allocates the rings and writes the kernel's
 * records, so it bounds the registering from above.
 */
#define SESSIONS	20
/* ---- a mapped file whose reads never complete ---- */

#define FUSE_STOP_MAX_MS	10000	/* STOP's answer, at most */
#define FUSE_OPEN_MAX_MS	3000	/* an open() of /dev/aca, at most */
#define FUSE_RESCUE_S		20	/* the daemon killed anyway, then */
#define FUSE_MAP_LEN		(64 * PAGE)
#define MODREC_COUNTS	"/sys/module/aca/module_records"

/*
 * An open() of /dev/aca in a child, @delay_ms from now: a pipe that gives
 * how long it took (a double) once it is done. The caller polls it with a
 * bound, so a hung open() fails the test instead of hanging it.
 */
static int open_probe(int delay_ms, pid_t *pid)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -1;
	*pid = fork();
	if (*pid < 0)
		return -1;
	if (!*pid) {
		double t0, took;
		int fd;

		/* Not the session's files: their last close is the test's. */
		close_range(3, p[1] - 1, 0);
		close_range(p[1] + 1, ~0U, 0);
		usleep(delay_ms * 1000);
		t0 = now_ms();
		fd = open_dev();
		took = fd >= 0 ? now_ms() - t0 : -1;
		if (write(p[1], &took, sizeof(took)) != sizeof(took))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

/* The probe's time within @ms of now, or -1 (not done, or failed). */
static double open_probe_took(int fd, pid_t pid, int ms)
{
	double took = -1;

	if (readable(fd, ms) && read(fd, &took, sizeof(took)) != sizeof(took))
		took = -1;
	close(fd);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return took;
}

/* "no_build_id N" of MODREC_COUNTS, or -1. */
static long long modrec_no_build_id(void)
{
	char line[256], *p;
	long long n = -1;
	FILE *f = fopen(MODREC_COUNTS, "r");

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f) && (p = strstr(line, "no_build_id ")))
		n = strtoll(p + strlen("no_build_id "), NULL, 10);
	fclose(f);
	return n;
}

/*
 * This test maps FUSE_MAP_LEN bytes of a file of the stand-in FUSE file
 * system (fuse_never.h), executable and untouched: none of its pages is
 * in memory, and reading one waits for a daemon that never answers. A
 * rescuer kills the daemon after FUSE_RESCUE_S whatever happens, so a
 * module that waits for the read does not keep the test (nor its session)
 * forever. No FUSE in the kernel (no /dev/fuse after modprobe): skipped.
 */
FIXTURE(fuse) {
	char dir[64], path[PATH_MAX];
	pid_t daemon, rescuer;
	void *map;
	int fd;
};

FIXTURE_SETUP(fuse)
{
	unsigned char resident[FUSE_MAP_LEN / PAGE];
	size_t in_memory = 0;
	pid_t daemon;

	self->fd = -1;
	self->map = MAP_FAILED;
	if (access("/dev/fuse", F_OK) && system("modprobe fuse 2>/dev/null"))
		SKIP(return, "no /dev/fuse, and modprobe fuse failed: a kernel without FUSE");
	strcpy(self->dir, "/tmp/aca-fuse-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	self->daemon = fuse_never_mount(self->dir);
	ASSERT_LT(0, self->daemon) TH_LOG("mount fuse on %s: %s", self->dir, strerror(errno));
	daemon = self->daemon;
	self->rescuer = fork();
	ASSERT_LE(0, self->rescuer);
	if (!self->rescuer) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sleep(FUSE_RESCUE_S);
		kill(daemon, SIGKILL);
		_exit(0);
	}
	snprintf(self->path, sizeof(self->path), "%s/%s", self->dir, FUSE_NEVER_NAME);
	self->fd = open(self->path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("%s: %s", self->path, strerror(errno));
	self->map = mmap(NULL, FUSE_MAP_LEN, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			 self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->map) TH_LOG("%s", strerror(errno));
	/* The stand-in is what it says: not one page in memory. */
	ASSERT_EQ(0, mincore(self->map, FUSE_MAP_LEN, resident));
	for (size_t i = 0; i < sizeof(resident); i++)
		in_memory += resident[i] & 1;
	ASSERT_EQ(0, in_memory) TH_LOG("pages of %s in memory", self->path);
}

FIXTURE_TEARDOWN(fuse)
{
	if (self->map != MAP_FAILED)
		munmap(self->map, FUSE_MAP_LEN);
	if (self->fd >= 0)
		close(self->fd);
	fuse_never_kill(self->daemon);
	fuse_never_kill(self->rescuer);
	if (self->dir[0]) {
		umount2(self->dir, MNT_DETACH);
		rmdir(self->dir);
	}
}

/*
 * STOP's walk describes this process, the file's mapping among its own:
 * STOP answers within FUSE_STOP_MAX_MS, the mapping recorded without a
 * build-id (its pages are not in memory, and are not read) and counted
 * so; an open() of /dev/aca answers meanwhile, and again while the
 * session ends. Then the module can go (make check unloads it).
 */
TEST_F_TIMEOUT(fuse, stop_answers_while_a_mapped_file_never_reads, 120)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h), .proto_version = SEP_PROTO_VERSION,
		.command_id = SEP_CMD_STOP,
	};
	double t_stop, t_answer, took, t_end;
	const struct mrec *m = NULL;
	bool answered;
	struct mrec *recs = NULL;
	size_t nrec = 0;
	struct coll c;
	int probe, mod;
	pid_t prober;

	coll_begin(_metadata, &c);
	mod = c.n + 1;
	take_all(_metadata, &c);

	probe = open_probe(200, &prober);
	ASSERT_LE(0, probe);
	t_stop = now_ms();
	ASSERT_EQ(sizeof(h), write(c.ctl, &h, sizeof(h)));
	answered = take_until_answer(_metadata, &c, FUSE_STOP_MAX_MS);
	t_answer = now_ms();
	EXPECT_TRUE(answered) TH_LOG("no STOP answer in %d ms", FUSE_STOP_MAX_MS);
	took = open_probe_took(probe, prober, FUSE_OPEN_MAX_MS);
	EXPECT_LE(0, took) TH_LOG("an open() of /dev/aca during STOP: no answer");
	EXPECT_GT(FUSE_OPEN_MAX_MS, took);
	TH_LOG("STOP answered after %.0f ms; an open() during it took %.1f ms",
	       t_answer - t_stop, took);
	if (answered) {
		ASSERT_EQ(sizeof(h), read_full(c.ctl, &h, sizeof(h)));
		EXPECT_EQ(SEP_CMD_STOP, h.command_id);
		EXPECT_EQ(0, h.status);
		EXPECT_EQ(c.n + 2, take_all(_metadata, &c));
		nrec = parse_records(_metadata, c.buf[mod], c.len[mod], &recs);
		for (size_t k = 0; k < nrec && !m; k++)
			if (recs[k].r->pid_rec_index == getpid() &&
			    !strcmp(recs[k].path, self->path))
				m = &recs[k];
		ASSERT_NE(NULL, m) TH_LOG("no record of %s", self->path);
		EXPECT_EQ(SEP_MR_UNLOAD_TSC_LOADED, m->r->unload_tsc);
		EXPECT_EQ((uintptr_t)self->map, m->r->load_addr64);
		EXPECT_EQ(NULL, m->bid) TH_LOG("a build-id read from %s", self->path);
	}

	/*
	 * The session ends (its files closed; TERMINATE first if STOP
	 * answered, else it would wait behind STOP's answer); an open() a
	 * second later, when the PMU rescan is due again, answers meanwhile.
	 */
	probe = open_probe(1000, &prober);
	ASSERT_LE(0, probe);
	t_end = now_ms();
	if (answered)
		EXPECT_EQ(0, command_io(c.ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
	coll_close(&c);
	t_end = now_ms() - t_end;
	took = open_probe_took(probe, prober, FUSE_OPEN_MAX_MS);
	EXPECT_LE(0, took) TH_LOG("an open() of /dev/aca as the session ends: no answer");
	EXPECT_GT(FUSE_OPEN_MAX_MS, took) TH_LOG("an open() as the session ends");
	EXPECT_GT(FUSE_OPEN_MAX_MS, t_end) TH_LOG("the session took %.0f ms to end", t_end);
	/* Counted: the mapping above, at least. */
	EXPECT_LE(1, modrec_no_build_id()) TH_LOG("%s", MODREC_COUNTS);
	free(recs);
}

TEST(hooks_exist_only_during_a_session)
{
	struct sep_control_first_msg hello = sep_hello(sizeof(hello));
	double init[SESSIONS], term[SESSIONS], t0;
	int before = kprobes_registered();
	struct sep_target_status_msg s;
	struct sep_drv_config dc;
	int32_t busy = -1;

	ASSERT_LE(0, before) TH_LOG("no /sys/kernel/debug/kprobes/list (debugfs mounted?)");
	host_drv_config(&dc);
	for (int i = 0; i < SESSIONS; i++) {
		int ctl = open_dev();

		ASSERT_LE(0, ctl);
		ASSERT_EQ(sizeof(hello), write(ctl, &hello, sizeof(hello)));
		ASSERT_EQ(sizeof(s), read_full(ctl, &s, sizeof(s)));
		ASSERT_EQ(0, s.status);
		ASSERT_EQ(0, command_io(ctl, SEP_CMD_RESERVE, NULL, 0, &busy, 4));
		t0 = now_ms();
		ASSERT_EQ(0, command_io(ctl, SEP_CMD_INIT_DRIVER, &dc, sizeof(dc), NULL, 0));
		init[i] = now_ms() - t0;
		ASSERT_EQ(before + 4, kprobes_registered()) TH_LOG("session %d", i);
		t0 = now_ms();
		ASSERT_EQ(0, command_io(ctl, SEP_CMD_TERMINATE, NULL, 0, NULL, 0));
		term[i] = now_ms() - t0;
		close(ctl);
		ASSERT_EQ(before, kprobes_registered()) TH_LOG("session %d", i);
	}
	qsort(init, SESSIONS, sizeof(init[0]), cmp_double);
	qsort(term, SESSIONS, sizeof(term[0]), cmp_double);
	TH_LOG("figure: %d sessions: INIT_DRIVER (rings, kernel records, 4 kprobes) %.2f ms median, %.2f ms at most; TERMINATE (kprobes removed) %.2f ms median, %.2f ms at most",
	       SESSIONS, init[SESSIONS / 2], init[SESSIONS - 1],
	       term[SESSIONS / 2], term[SESSIONS - 1]);
}

TEST_HARNESS_MAIN
