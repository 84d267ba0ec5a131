// SPDX-License-Identifier: GPL-2.0-only
/* Building synthetic collection directories (see synth.h). */
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "synth.h"
#include "../../tools/aca-host/files.h"

void sbuf_add(struct sbuf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap < b->len + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

void sbuf_free(struct sbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void synth_module(struct sbuf *b, uint32_t pid, uint64_t load, uint64_t length,
		  uint64_t page_offset, uint64_t load_tsc, uint64_t unload_tsc,
		  uint32_t flags, const char *path)
{
	size_t plen = strlen(path) + 1;
	size_t len = (sizeof(struct sep_module_record) + plen + 7) & ~(size_t)7;
	struct sep_module_record r = {
		.rec_length = len,
		.segment_bits = SEP_MODE_64BIT,
		.selector = pid ? SEP_MR_SELECTOR_USER64 : SEP_MR_SELECTOR_KERNEL,
		.segment_number = pid ? 1 : 0,
		.flags = flags | SEP_MR_PID_REC_INDEX_RAW | SEP_MR_TSC_USED,
		.length64 = length,
		.load_addr64 = load,
		.pid_rec_index = pid,
		.unload_tsc = unload_tsc,
		.path_length = plen,
		.page_offset_high = page_offset >> 32,
		.tsc = load_tsc,
		.page_offset_low = (uint32_t)page_offset,
	};
	static const uint8_t zero[8];

	sbuf_add(b, &r, sizeof(r));
	sbuf_add(b, path, plen);
	sbuf_add(b, zero, len - sizeof(r) - plen);
}

void synth_module_build_id(struct sbuf *b, uint32_t pid, uint64_t load, uint64_t length,
			   uint64_t page_offset, uint32_t flags, const char *path,
			   const uint8_t *id, size_t size, const char *magic, int extra)
{
	size_t start = b->len, at, tlen;
	struct aca_mr_build_id t = {
		.magic = { magic ? magic[0] : ACA_MR_BUILD_ID_MAGIC0,
			   magic ? magic[1] : ACA_MR_BUILD_ID_MAGIC1 },
		.size = size,
	};
	struct sep_module_record r;
	static const uint8_t zero[8];

	synth_module(b, pid, load, length, page_offset, 0, SEP_MR_UNLOAD_TSC_LOADED, flags,
		     path);
	at = b->len - start;
	sbuf_add(b, &t, sizeof(t));
	sbuf_add(b, id, size);
	tlen = (sizeof(t) + size + 7) & ~(size_t)7;
	sbuf_add(b, zero, tlen - sizeof(t) - size);
	for (int i = 0; i < extra; i++)
		sbuf_add(b, zero, 1);
	memcpy(&r, b->p + start, sizeof(r));
	r.rec_length = at + tlen + extra;
	memcpy(b->p + start, &r, sizeof(r));
}

int synth_add_build_id(struct sbuf *b, const char *path, const uint8_t *id, size_t size)
{
	struct aca_mr_build_id t = {
		.magic = { ACA_MR_BUILD_ID_MAGIC0, ACA_MR_BUILD_ID_MAGIC1 }, .size = size,
	};
	static const uint8_t zero[8];
	struct sbuf out = { 0 };
	size_t off = 0;
	int n = 0;

	while (off < b->len) {
		struct sep_module_record r;
		size_t tlen = (sizeof(t) + size + 7) & ~(size_t)7;

		if (b->len - off < sizeof(r))
			goto bad;
		memcpy(&r, b->p + off, sizeof(r));
		if (r.rec_length < sizeof(r) + r.path_length || r.rec_length > b->len - off ||
		    r.rec_length != ((sizeof(r) + r.path_length + 7) & ~(size_t)7))
			goto bad;
		if (strncmp((const char *)b->p + off + sizeof(r), path, r.path_length) ||
		    strlen(path) + 1 != r.path_length) {
			sbuf_add(&out, b->p + off, r.rec_length);
			off += r.rec_length;
			continue;
		}
		n++;
		off += r.rec_length;
		r.rec_length += tlen;
		sbuf_add(&out, &r, sizeof(r));
		sbuf_add(&out, b->p + off - (r.rec_length - tlen) + sizeof(r),
			 r.rec_length - tlen - sizeof(r));
		sbuf_add(&out, &t, sizeof(t));
		sbuf_add(&out, id, size);
		sbuf_add(&out, zero, tlen - sizeof(t) - size);
	}
	sbuf_free(b);
	*b = out;
	return n;
bad:
	sbuf_free(&out);
	return -1;
}

void synth_sample(struct sbuf *b, size_t rec_size, uint64_t ip, uint32_t pid,
		  uint32_t tid, uint64_t tsc, uint16_t cpu)
{
	struct sep_sample_record_pc r = {
		.iip = ip,
		.cs = ip >> 63 ? SEP_MR_SELECTOR_KERNEL : SEP_MR_SELECTOR_USER64,
		.cpu_and_os = cpu & SEP_SAMPLE_CPU_NUM_MASK,
		.tid = tid,
		.pid_rec_index = pid,
		.bit_fields2 = SEP_SAMPLE_IA64PC | SEP_SAMPLE_PID_REC_INDEX_RAW,
		.tsc = tsc,
	};
	uint8_t pad[256] = { 0 };

	sbuf_add(b, &r, sizeof(r));
	if (rec_size > sizeof(r))
		sbuf_add(b, pad, rec_size - sizeof(r) < sizeof(pad) ?
			 rec_size - sizeof(r) : sizeof(pad));
}

void synth_set_event(struct sbuf *b, size_t rec_size, uint32_t event)
{
	struct sep_sample_record_pc r;
	uint8_t *p = b->p + b->len - rec_size;

	memcpy(&r, p, sizeof(r));
	r.bit_fields2 = (r.bit_fields2 & ~SEP_SAMPLE_EVENT_INDEX_MASK) |
			((event << SEP_SAMPLE_EVENT_INDEX_SHIFT) & SEP_SAMPLE_EVENT_INDEX_MASK);
	memcpy(p, &r, sizeof(r));
}

void synth_sample_chain(struct sbuf *b, size_t rec_size, uint64_t ip, uint32_t pid,
			uint32_t tid, uint64_t tsc, uint16_t cpu, uint16_t nkernel,
			uint16_t nuser, uint32_t flags, const uint64_t *addrs)
{
	struct aca_callstack_head h = { .nkernel = nkernel, .nuser = nuser, .flags = flags };
	size_t n = (size_t)nkernel + nuser, start = b->len, used;
	static const uint8_t zero[64];

	synth_sample(b, SYNTH_CALLSTACK_OFFSET, ip, pid, tid, tsc, cpu);
	sbuf_add(b, &h, sizeof(h));
	sbuf_add(b, addrs, n * sizeof(*addrs));
	/* The area's unused room: zero, as the target leaves it. */
	for (used = b->len - start; used < rec_size; used = b->len - start)
		sbuf_add(b, zero, rec_size - used < sizeof(zero) ? rec_size - used : sizeof(zero));
}

int synth_maps(struct sbuf *b, pid_t pid, uint32_t as_pid, const char *exe)
{
	char path[64], line[PATH_MAX + 256];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8], file[PATH_MAX];
		int pos = 0;

		file[0] = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms,
			   &off, &pos) < 4)
			continue;
		if (pos > 0)
			sscanf(line + pos, "%4095[^\n]", file);
		if (perms[2] != 'x' || file[0] != '/')
			continue;
		synth_module(b, as_pid, start, end - start, off, 0,
			     SEP_MR_UNLOAD_TSC_LOADED,
			     exe && !strcmp(file, exe) ? SEP_MR_EXE : 0, file);
		n++;
	}
	fclose(f);
	return n;
}

char *synth_tmpdir(void)
{
	char tmpl[] = "/tmp/aca-host-test.XXXXXX";
	char *d = mkdtemp(tmpl);

	return d ? strdup(d) : NULL;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

void synth_rmdir(const char *dir)
{
	if (dir)
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int synth_write(const char *dir, const char *name, const void *p, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	err = len && fwrite(p, 1, len, f) != len;
	return fclose(f) || err ? -1 : 0;
}

int synth_txt(const char *dir, uint32_t ncpus, uint32_t sample_size)
{
	char txt[128];
	int n = snprintf(txt, sizeof(txt), "# synthetic\nnum_cpus=%u\nsample_size=%u\n",
			 ncpus, sample_size);

	return synth_write(dir, "collection.txt", txt, n);
}

int synth_txt_chain(const char *dir, uint32_t ncpus, uint32_t sample_size,
		    const char *event, uint64_t tsc_hz)
{
	char txt[512];
	int n = snprintf(txt, sizeof(txt), "# synthetic, with callers\nnum_cpus=%u\n"
			 "sample_size=%u\ncallstack_offset=%u\ncallstack_size=%u\n"
			 "event=%s\n", ncpus, sample_size, SYNTH_CALLSTACK_OFFSET,
			 sample_size - SYNTH_CALLSTACK_OFFSET, event);

	if (tsc_hz)
		n += snprintf(txt + n, sizeof(txt) - n, "tsc_hz=%llu\n",
			      (unsigned long long)tsc_hz);
	return synth_write(dir, "collection.txt", txt, n);
}

/* <repo>/build/tests/host_TOPIC_test -> <repo>/build */
static int build_dir(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = 0;
	for (int i = 0; i < 2; i++) {
		slash = strrchr(exe, '/');
		if (!slash)
			return -1;
		*slash = 0;
	}
	if (strlen(exe) >= len)
		return -1;
	memcpy(out, exe, strlen(exe) + 1);
	return 0;
}

static const char *build_file(const char *env_name, const char *name,
			      char *path, size_t len)
{
	const char *env = getenv(env_name);
	char build[PATH_MAX];

	if (env)
		return access(env, X_OK) ? NULL : env;
	if (build_dir(build, sizeof(build)))
		return NULL;
	snprintf(path, len, "%s/%s", build, name);
	return access(path, X_OK) ? NULL : path;
}

int synth_repo_path(const char *rel, char *path, size_t len)
{
	char build[PATH_MAX];

	if (build_dir(build, sizeof(build)))
		return -1;
	return snprintf(path, len, "%s/../%s", build, rel) < (int)len ? 0 : -1;
}

const char *synth_spin_path(void)
{
	static char path[PATH_MAX + 16];

	return build_file("ACA_SPIN", "spin", path, sizeof(path));
}

const char *synth_host_path(void)
{
	static char path[PATH_MAX + 16];

	return build_file("ACA_HOST_BIN", "aca-host", path, sizeof(path));
}

void host_run_free(struct host_run *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

static char *read_text(const char *dir, const char *name)
{
	char path[2 * PATH_MAX];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return (char *)read_whole_file(path, 64 << 20, &len);
}

/*
 * Run @bin (a path; with @tool, a path or a name looked up on PATH, HOME
 * and PAGER set for it) as @name with @args, its output in @dir/@name.out
 * and .err.
 */
static int run_prog(const char *dir, const char *bin, const char *name, int tool,
		    const char *const *args, struct host_run *r)
{
	char out[PATH_MAX + 80], err[PATH_MAX + 80];
	const char *argv[40] = { name };
	int status, n = 1;
	pid_t pid;

	host_run_free(r);
	r->status = -1;
	while (args[n - 1] && n < 39) {
		argv[n] = args[n - 1];
		n++;
	}
	snprintf(out, sizeof(out), "%s/%.64s.out", dir, name);
	snprintf(err, sizeof(err), "%s/%.64s.err", dir, name);
	if (!bin || (pid = fork()) < 0)
		return -1;
	if (!pid) {
		if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr))
			_exit(126);
		if (tool) {
			/* No ~/.debug, no config, no pager of the user's. */
			setenv("HOME", dir, 1);
			setenv("PAGER", "cat", 1);
			execvp(bin, (char *const *)argv);
		} else {
			execv(bin, (char *const *)argv);
		}
		_exit(127);
	}
	r->pid = pid;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		r->pid = 0;
		return -1;
	}
	r->pid = 0;
	snprintf(out, sizeof(out), "%.64s.out", name);
	snprintf(err, sizeof(err), "%.64s.err", name);
	r->out = read_text(dir, out);
	r->err = read_text(dir, err);
	r->status = r->out && r->err ? WEXITSTATUS(status) : -1;
	return r->status;
}

int synth_run_host(const char *dir, const char *const *args, struct host_run *r)
{
	return run_prog(dir, synth_host_path(), "aca-host", 0, args, r);
}

int synth_run_tool(const char *dir, const char *prog, const char *const *args,
		   struct host_run *r)
{
	const char *name = strrchr(prog, '/');

	return run_prog(dir, prog, name ? name + 1 : prog, 1, args, r);
}

pid_t synth_spin(const char *threads, const char *seconds, uint64_t *hot)
{
	const char *bin = synth_spin_path();
	unsigned long long addr;
	char line[256];
	int fds[2], got;
	pid_t pid;
	FILE *f;

	if (!bin || pipe2(fds, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(fds[1], STDOUT_FILENO);
		execl(bin, "spin", threads, seconds, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (!f)
		return -1;
	got = fgets(line, sizeof(line), f) &&
	      sscanf(line, "spin: pid %*d, %*d threads for %*s s in aca_hot_spin at %llx",
		     &addr) == 1;
	fclose(f);
	if (!got)
		return -1;
	*hot = addr;
	return pid;
}

uint8_t *synth_vector(const char *name, size_t *len, char *where, size_t wlen)
{
	char build[PATH_MAX], path[PATH_MAX + 256];
	const char *env = getenv("ACA_VECTORS");

	/* $ACA_VECTORS, else <repo>/build/.. -> <repo>/selftests/vectors */
	if (env)
		snprintf(path, sizeof(path), "%s/%s", env, name);
	else if (!build_dir(build, sizeof(build)))
		snprintf(path, sizeof(path), "%s/../selftests/vectors/%s", build, name);
	else
		snprintf(path, sizeof(path), "selftests/vectors/%s", name);
	snprintf(where, wlen, "%s", path);
	return read_whole_file(path, 1 << 20, len);
}

uint64_t synth_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}
