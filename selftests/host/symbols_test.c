// SPDX-License-Identifier: GPL-2.0-only
/*
 * Names through libdwfl and kallsyms: stripped binaries with a build-id
 * debug file, libc through libc6-dbg, kernel functions from a kallsyms
 * copy or a vmlinux, and files that are not the ones that ran.
 * Its own program, build/tests/host_symbols_test.
 */
#include <dlfcn.h>
#include <libgen.h>

#include "host_fixture.h"
#include "../../tools/aca-host/kallsyms.h"

#define KTEXT		0xffffffff81000000ull

/* Run a shell command line; 0 if it exited 0. */
static int shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int shell(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* spin's own mappings and one sample in aca_hot_spin; spin's real path. */
static char *spin_sampled(FIXTURE_DATA(dir) *self, uint64_t *hot)
{
	const char *spin = synth_spin_path();
	char *real;
	int status;
	pid_t pid;

	if (!spin)
		return NULL;
	real = realpath(spin, NULL);
	if (!real)
		return NULL;
	pid = synth_spin("1", "0.2", hot);
	if (pid <= 0 || synth_maps(&self->d.modules, pid, pid, real) < 1 ||
	    waitpid(pid, &status, 0) != pid) {
		free(real);
		return NULL;
	}
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, *hot, pid, pid, 1, 0);
	return synth_txt(self->d.path, 1, SAMPLE_SIZE) ? NULL : real;
}

/*
 * A stripped copy of spin below the sysroot, its symbols in a separate
 * file under SYSROOT/usr/lib/debug/.build-id: named as if never stripped.
 */
TEST_F(dir, stripped_binary_is_named_from_its_build_id_debug_file)
{
	char root[PATH_MAX], dir[PATH_MAX], id[64] = "";
	uint64_t hot;
	char *spin = spin_sampled(self, &hot);
	FILE *p;

	ASSERT_NE(NULL, spin);
	snprintf(dir, sizeof(dir), "%s", spin);
	dirname(dir);
	snprintf(root, sizeof(root), "%s/root", self->d.path);
	/* readelf -n prints "Build ID: HEX". */
	p = popen("readelf -n build/spin 2>/dev/null | sed -n 's/.*Build ID: //p'", "r");
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, fgets(id, sizeof(id), p));
	pclose(p);
	id[strcspn(id, "\n")] = 0;
	ASSERT_LT(2, strlen(id));
	ASSERT_EQ(0, shell("mkdir -p '%s%s' '%s/usr/lib/debug/.build-id/%.2s' && "
			   "objcopy --only-keep-debug '%s' '%s/usr/lib/debug/.build-id/%.2s/%s.debug' && "
			   "strip -o '%s%s' '%s'", root, dir, root, id,
			   spin, root, id, id + 2, root, spin, spin));
	/* Stripped indeed: without the debug file, no name. */
	ASSERT_EQ(0, shell("mv '%s/usr/lib/debug' '%s/hidden'", root, root));
	ASSERT_EQ(0, run_report(&self->d, root));
	EXPECT_EQ(0, self->d.r.with_function);
	ASSERT_EQ(0, shell("mv '%s/hidden' '%s/usr/lib/debug'", root, root));
	ASSERT_EQ(0, run_report(&self->d, root));
	if (self->d.warn_len)
		TH_LOG("report said: %s", self->d.warn);
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "aca_hot_spin (spin)"));
	free(spin);
}

/*
 * _int_malloc is a local function of libc: only libc6-dbg's debug file,
 * found by libc's build-id, names it. Its address here: libc's load base
 * (dladdr) plus its value in the debug file (nm).
 */
TEST_F(dir, libc_local_function_is_named_through_libc6_dbg)
{
	char exe[PATH_MAX], cmd[PATH_MAX + 128], val[64] = "";
	uint32_t me = getpid();
	Dl_info info;
	ssize_t n;
	FILE *p;

	ASSERT_NE(0, dladdr((void *)qsort, &info));
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, n);
	exe[n] = 0;
	ASSERT_LE(2, synth_maps(&self->d.modules, me, me, exe));
	snprintf(cmd, sizeof(cmd),
		 "id=$(readelf -n '%s' | sed -n 's/.*Build ID: //p'); "
		 "nm \"/usr/lib/debug/.build-id/${id%%${id#??}}/${id#??}.debug\" | "
		 "sed -n 's/ t _int_malloc$//p'", info.dli_fname);
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, fgets(val, sizeof(val), p)) TH_LOG("no libc6-dbg? (make deps)");
	pclose(p);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE,
		     (uintptr_t)info.dli_fbase + strtoull(val, NULL, 16) + 1, me, me, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, NULL));
	EXPECT_EQ(1, self->d.r.with_function) TH_LOG("report said: %s", self->d.warn);
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "_int_malloc (libc.so.6)"));
}

/*
 * The target mapped code at a file offset where the sysroot's file has
 * none: another build. Said, counted as an input error, and the samples
 * stay MODULE+0xOFFSET rather than take a wrong name.
 */
TEST_F(dir, sysroot_file_of_another_build_is_reported_not_used)
{
	const char *spin = synth_spin_path();
	char *real;

	ASSERT_NE(NULL, spin);
	real = realpath(spin, NULL);
	ASSERT_NE(NULL, real);
	synth_module(&self->d.modules, 5, 0x500000, 0x1000, 0x100000, 0, LOADED, SEP_MR_EXE, real);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0x500010, 5, 5, 1, 0);
	ASSERT_EQ(0, synth_txt(self->d.path, 1, SAMPLE_SIZE));
	ASSERT_EQ(0, run_report(&self->d, "/"));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(0, self->d.r.with_function);
	EXPECT_TRUE(said(&self->d, "is not the file that ran")) TH_LOG("%s", self->d.warn);
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "spin+0x100010 (spin)"));
	free(real);
}

/* The build-id of ELF file @path as readelf prints it, into @id; its size or 0. */
static size_t readelf_build_id(const char *path, uint8_t *id, size_t max)
{
	char cmd[PATH_MAX + 64], hex[128] = "";
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null | sed -n 's/.*Build ID: //p'",
		 path);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	if (!fgets(hex, sizeof(hex), p))
		hex[0] = 0;
	pclose(p);
	while (n < max && sscanf(hex + 2 * n, "%2hhx", &id[n]) == 1)
		n++;
	return n;
}

/*
 * [ACA-EXT] spin's records carry a build-id: spin's own names its samples;
 * another one makes the sysroot's spin "not the file that ran", though its
 * segments would hold the mapping: said with both build-ids, counted as an
 * input error, its samples left unnamed.
 */
TEST_F(dir, sysroot_file_with_the_target_build_id_is_used)
{
	uint8_t id[ACA_MR_BUILD_ID_MAX];
	uint64_t hot;
	char *spin = spin_sampled(self, &hot);
	size_t n;

	ASSERT_NE(NULL, spin);
	n = readelf_build_id(spin, id, sizeof(id));
	ASSERT_LT(0, n) TH_LOG("no build-id in %s", spin);
	ASSERT_LE(1, synth_add_build_id(&self->d.modules, spin, id, n));
	ASSERT_EQ(0, run_report(&self->d, "/"));
	EXPECT_EQ(0, self->d.ret) TH_LOG("%s", self->d.warn ? self->d.warn : "");
	EXPECT_EQ(1, self->d.r.with_function);
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "aca_hot_spin (spin)"));
	EXPECT_FALSE(said(&self->d, "not the file that ran"));
	free(spin);
}

TEST_F(dir, sysroot_file_with_another_build_id_is_reported_not_used)
{
	uint8_t id[ACA_MR_BUILD_ID_MAX], other[20];
	char msg[PATH_MAX + 256], ours[41], theirs[41];
	uint64_t hot;
	char *spin = spin_sampled(self, &hot);
	size_t n;

	ASSERT_NE(NULL, spin);
	n = readelf_build_id(spin, id, sizeof(id));
	ASSERT_LT(0, n);
	for (size_t i = 0; i < sizeof(other); i++)
		other[i] = 0xa0 + i;
	ASSERT_LE(1, synth_add_build_id(&self->d.modules, spin, other, sizeof(other)));
	ASSERT_EQ(0, run_report(&self->d, "/"));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(0, self->d.r.with_function);
	EXPECT_EQ(0, tally_get(&self->d.r.functions, "aca_hot_spin (spin)"));
	for (size_t i = 0; i < n; i++)
		sprintf(ours + 2 * i, "%02x", id[i]);
	for (size_t i = 0; i < sizeof(other); i++)
		sprintf(theirs + 2 * i, "%02x", other[i]);
	snprintf(msg, sizeof(msg),
		 "%s is not the file that ran: its build-id is %s, the target's %s; its samples are left unnamed",
		 spin, ours, theirs);
	EXPECT_TRUE(said(&self->d, msg)) TH_LOG("want: %s\nsaid: %s", msg, self->d.warn);
	free(spin);
}

/* A file without a build-id, where the target read one: not the file that ran. */
TEST_F(dir, sysroot_file_without_a_build_id_is_reported_not_used)
{
	char root[PATH_MAX], dir[PATH_MAX];
	uint8_t id[ACA_MR_BUILD_ID_MAX];
	uint64_t hot;
	char *spin = spin_sampled(self, &hot);
	size_t n;

	ASSERT_NE(NULL, spin);
	n = readelf_build_id(spin, id, sizeof(id));
	ASSERT_LT(0, n);
	ASSERT_LE(1, synth_add_build_id(&self->d.modules, spin, id, n));
	snprintf(dir, sizeof(dir), "%s", spin);
	dirname(dir);
	snprintf(root, sizeof(root), "%s/root", self->d.path);
	ASSERT_EQ(0, shell("mkdir -p '%s%s' && objcopy --remove-section .note.gnu.build-id '%s' '%s%s'",
			   root, dir, spin, root, spin));
	ASSERT_EQ(0, run_report(&self->d, root));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_EQ(0, self->d.r.with_function);
	EXPECT_TRUE(said(&self->d, "is not the file that ran: it has no build-id, the target's is "))
		TH_LOG("%s", self->d.warn);
	free(spin);
}

/* A --sysroot below which no file of the collection is: an error. */
TEST_F(dir, sysroot_without_any_of_the_files_is_an_error)
{
	uint64_t hot;
	char *spin = spin_sampled(self, &hot);

	ASSERT_NE(NULL, spin);
	ASSERT_EQ(0, run_report(&self->d, self->d.path));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_TRUE(said(&self->d, "none of the")) TH_LOG("%s", self->d.warn);
	free(spin);
}

/*
 * A kallsyms copy DIR/target.kallsyms, its path in @path: vmlinux at the
 * record's _stext, one module. Not DIR/kallsyms, which report would use
 * without --kallsyms (collect writes it, ksyms_test.c).
 */
static int write_kallsyms(const char *dir, uint64_t stext, int zero, char *path,
			  size_t len)
{
	char text[1024];

	snprintf(path, len, "%s/target.kallsyms", dir);
	snprintf(text, sizeof(text),
		 "%016llx T _stext\n"
		 "%016llx T native_write_msr\n"
		 "%016llx W do_idle\n"
		 "%016llx D some_data\n"
		 "not a line\n"
		 "ffffffffc0000000 t aca_sample\t[aca]\n"
		 "ffffffffc0000400 T aca_ring_write\t[aca]\n",
		 zero ? 0ull : stext, zero ? 0ull : stext + 0x100,
		 zero ? 0ull : stext + 0x200, zero ? 0ull : stext + 0x300);
	if (zero)
		return synth_write(dir, "target.kallsyms",
				   "0000000000000000 T _stext\n0000000000000000 t x\n", 48);
	return synth_write(dir, "target.kallsyms", text, strlen(text));
}

static void kernel_samples(FIXTURE_DATA(dir) *self)
{
	synth_module(&self->d.modules, 0, KTEXT, 0x2000000, 0, 0, LOADED,
		     SEP_MR_EXE | SEP_MR_GLOBAL_MODULE, "vmlinux");
	synth_module(&self->d.modules, 0, 0xffffffffc0000000ull, 0x1000, 0, 0, LOADED,
		     SEP_MR_GLOBAL_MODULE, "aca");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, KTEXT + 0x104, 42, 42, 1, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, KTEXT + 0x210, 0, 0, 2, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0xffffffffc0000410ull, 42, 42, 3, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, 0xffffffffc0000010ull, 42, 42, 4, 0);
}

static int report_kernel(FIXTURE_DATA(dir) *self, const char *kallsyms,
			 const char *vmlinux)
{
	struct report_opts o = { .kallsyms = kallsyms, .vmlinux = vmlinux };

	return synth_txt(self->d.path, 1, SAMPLE_SIZE) ? -1 : run_report_opts(&self->d, &o);
}

/*
 * Without --kallsyms (a copy in the directory is not one):
 * MODULE+0xOFFSET, the offset from the record's start.
 */
TEST_F(dir, kernel_code_without_kallsyms_is_module_plus_offset)
{
	char ks[PATH_MAX];

	kernel_samples(self);
	ASSERT_EQ(0, write_kallsyms(self->d.path, KTEXT, 0, ks, sizeof(ks)));
	ASSERT_EQ(0, report_kernel(self, NULL, NULL));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "vmlinux+0x104 (vmlinux)"));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "aca+0x410 (aca)"));
}

TEST_F(dir, kallsyms_names_kernel_and_module_functions)
{
	char ks[PATH_MAX];

	kernel_samples(self);
	ASSERT_EQ(0, write_kallsyms(self->d.path, KTEXT, 0, ks, sizeof(ks)));
	ASSERT_EQ(0, report_kernel(self, ks, NULL));
	EXPECT_EQ(0, self->d.ret);
	EXPECT_TRUE(said(&self->d, "1 malformed lines skipped")) TH_LOG("%s", self->d.warn);
	EXPECT_EQ(4, self->d.r.with_function);
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "native_write_msr (vmlinux)"));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "do_idle (vmlinux)"));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "aca_ring_write (aca)"));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "aca_sample (aca)"));
}

/*
 * A copy from another boot: KASLR put _stext elsewhere. vmlinux's names
 * move with it; the modules' may have loaded anywhere, so they are not
 * used. Said either way.
 */
TEST_F(dir, kallsyms_of_another_boot_is_moved_and_said)
{
	char ks[PATH_MAX];

	kernel_samples(self);
	ASSERT_EQ(0, write_kallsyms(self->d.path, KTEXT + 0x4000000, 0, ks, sizeof(ks)));
	ASSERT_EQ(0, report_kernel(self, ks, NULL));
	EXPECT_TRUE(said(&self->d, "is of another boot")) TH_LOG("%s", self->d.warn);
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "native_write_msr (vmlinux)"));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "aca+0x410 (aca)"));
}

/* Read without privilege, every address is 0: refused, with what to do. */
TEST_F(dir, kallsyms_with_hidden_addresses_is_refused)
{
	char ks[PATH_MAX];

	kernel_samples(self);
	ASSERT_EQ(0, write_kallsyms(self->d.path, KTEXT, 1, ks, sizeof(ks)));
	ASSERT_EQ(0, report_kernel(self, ks, NULL));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_TRUE(said(&self->d, "copy /proc/kallsyms as root")) TH_LOG("%s", self->d.warn);
	EXPECT_EQ(0, self->d.r.with_function);
}

/*
 * A vmlinux linked at the usual 0xffffffff81000000, with _stext, two
 * functions and the linker's _end; the target's kernel ran KASLR-moved. Placed at the
 * record's start, it names the samples; a record of another length is
 * another kernel, said and not used.
 */
TEST_F(dir, vmlinux_is_placed_where_the_kernel_ran)
{
	static const char src[] =
		".text\n.globl _stext\n_stext:\n.fill 256,1,0x90\n"
		".globl native_write_msr\n.type native_write_msr,@function\n"
		"native_write_msr:\n.fill 256,1,0x90\n.size native_write_msr,256\n"
		".globl do_idle\n.type do_idle,@function\n"
		"do_idle:\n.fill 256,1,0x90\n.size do_idle,256\n";
	uint64_t slid = KTEXT + 0x2a00000, len;
	char vm[PATH_MAX], cmd[PATH_MAX + 64], val[64] = "";
	FILE *p;

	ASSERT_EQ(0, synth_write(self->d.path, "vmlinux.S", src, strlen(src)));
	snprintf(vm, sizeof(vm), "%s/vmlinux", self->d.path);
	ASSERT_EQ(0, shell("cc -nostdlib -static -no-pie -Wl,-Ttext=0x%llx -Wl,-e,_stext "
			   "-o '%s' '%s/vmlinux.S'", KTEXT, vm, self->d.path));
	/* The record spans [_stext, _end); the linker places _end (nm). */
	snprintf(cmd, sizeof(cmd), "nm '%s' | sed -n 's/ [A-Za-z] _end$//p'", vm);
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, fgets(val, sizeof(val), p));
	pclose(p);
	len = strtoull(val, NULL, 16) - KTEXT;
	synth_module(&self->d.modules, 0, slid, len, 0, 0, LOADED,
		     SEP_MR_EXE | SEP_MR_GLOBAL_MODULE, "vmlinux");
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, slid + 0x104, 42, 42, 1, 0);
	synth_sample(&self->d.cpu0, SAMPLE_SIZE, slid + 0x2ff, 0, 0, 2, 0);
	ASSERT_EQ(0, report_kernel(self, NULL, vm));
	EXPECT_EQ(0, self->d.ret) TH_LOG("%s", self->d.warn);
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "native_write_msr (vmlinux)"));
	EXPECT_EQ(1, tally_get(&self->d.r.functions, "do_idle (vmlinux)"));

	sbuf_free(&self->d.modules);
	synth_module(&self->d.modules, 0, slid, 0x2000000, 0, 0, LOADED,
		     SEP_MR_EXE | SEP_MR_GLOBAL_MODULE, "vmlinux");
	ASSERT_EQ(0, report_kernel(self, NULL, vm));
	EXPECT_EQ(1, self->d.ret);
	EXPECT_TRUE(said(&self->d, "is not the kernel that ran")) TH_LOG("%s", self->d.warn);
	EXPECT_EQ(0, self->d.r.with_function);
}

/* kallsyms lines of every malformed kind: skipped, counted, never fatal. */
TEST_F(dir, kallsyms_parser_bounds_every_line)
{
	struct ksyms k;
	char err[256], path[PATH_MAX], *big;
	struct sbuf b = { 0 };
	uint64_t rng = 7;

	sbuf_add(&b, "ffffffff81000000 T _stext\n", 26);
	sbuf_add(&b, "ffffffff81000010 T a\t[", 22);	/* no closing bracket */
	sbuf_add(&b, "\n", 1);
	big = malloc(5000);
	ASSERT_NE(NULL, big);
	memset(big, 'x', 4999);
	big[4999] = '\n';
	sbuf_add(&b, big, 5000);			/* an overlong line */
	sbuf_add(&b, "ffffffff81000020 T b [", 22);
	sbuf_add(&b, big, 100);			/* a module name too long */
	sbuf_add(&b, "]\n", 2);
	sbuf_add(&b, "ffffffff81000030 T with\0nul\n", 28);
	for (int i = 0; i < 20000; i++) {
		uint8_t c = synth_rand(&rng);

		sbuf_add(&b, &c, 1);
	}
	free(big);
	ASSERT_EQ(0, synth_write(self->d.path, "ks", b.p, b.len));
	snprintf(path, sizeof(path), "%s/ks", self->d.path);
	ASSERT_EQ(0, ksyms_load(path, &k, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0xffffffff81000000ull, k.stext);
	EXPECT_LE(4, k.malformed);
	EXPECT_NE(NULL, ksyms_at(&k, 0xffffffff81000005ull, ""));
	ksyms_free(&k);
	sbuf_free(&b);
	EXPECT_EQ(-1, ksyms_load("/nonexistent/kallsyms", &k, err, sizeof(err)));
}

TEST_HARNESS_MAIN
