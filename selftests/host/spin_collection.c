// SPDX-License-Identifier: GPL-2.0-only
/* The synthetic spin collection of the writers' tests (spin_collection.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/aca-host/files.h"
#include "../../tools/aca-host/symbols.h"
#include "spin_collection.h"

#define SAMPLE_SIZE	((uint32_t)sizeof(struct sep_sample_record_pc))
#define LOADED		SEP_MR_UNLOAD_TSC_LOADED

/* Copy @from to @to; 0 or -1. */
static int copy_file(const char *from, const char *to)
{
	size_t len;
	uint8_t *p = read_whole_file(from, 64 << 20, &len);
	int fd, ret = -1;

	if (!p)
		return -1;
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd >= 0 && write(fd, p, len) == (ssize_t)len)
		ret = 0;
	if (fd >= 0 && close(fd))
		ret = -1;
	free(p);
	return ret;
}

int spin_syms(const char *dir, struct spin_syms *m)
{
	const char *names[] = { "aca_hot_spin", "aca_mix_a", "aca_mix_b", "aca_mix_c",
				"thread", "main" };
	uint64_t *at[] = { &m->hot, &m->mix_a, &m->mix_b, &m->mix_c, &m->thread, &m->main };
	char exe[PATH_MAX + 32], bin[PATH_MAX + 32], err[256];
	const uint8_t *id;
	struct symfile *f;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	snprintf(m->symfs, sizeof(m->symfs), "%s/symfs", dir);
	snprintf(bin, sizeof(bin), "%s/usr/bin", m->symfs);
	snprintf(exe, sizeof(exe), "%s" SPIN_EXE, m->symfs);
	if (!synth_spin_path() || make_dirs(bin) || copy_file(synth_spin_path(), exe))
		return -1;
	f = sym_open(exe, NULL, err, sizeof(err));
	if (!f)
		return -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint64_t v;

		if (sym_value(f, names[i], &v) || v < 0x1000) {
			ret = -1;
			break;
		}
		/* The text segment is at file offset and address 0x1000. */
		*at[i] = SPIN_LOAD + v - 0x1000;
	}
	m->build_id_size = sym_build_id(f, &id);
	if (m->build_id_size > sizeof(m->build_id))
		ret = -1;
	else
		memcpy(m->build_id, id, m->build_id_size);
	sym_close(f);
	return ret;
}

int spin_collection(struct host_dir *d, struct spin_syms *m, int chains)
{
	const struct {
		uint64_t *ip;
		uint64_t off;
		int n;
	} user[] = {
		{ &m->hot, 4, 30 }, { &m->mix_a, 8, 22 }, { &m->mix_b, 8, 16 },
		{ &m->thread, 8, 12 }, { &m->main, 0x20, 8 }, { &m->mix_c, 4, 2 },
	};
	size_t size = chains ? SPIN_CHAIN_SIZE : SAMPLE_SIZE;
	uint64_t tsc = 1000000;
	char text[512];
	int n;

	if (spin_syms(d->path, m))
		return -1;
	const uint64_t ucall[] = { m->thread + 8 };
	const uint64_t kcall[] = { SPIN_KTEXT + 0x205, m->hot + 2, m->thread + 8 };

	synth_module_build_id(&d->modules, SPIN_PID, SPIN_LOAD, 0x1000, 0x1000, SEP_MR_EXE,
			      SPIN_EXE, m->build_id, m->build_id_size, NULL, 0);
	synth_module(&d->modules, 0, SPIN_KTEXT, 0x2000000, 0, 0, LOADED,
		     SEP_MR_EXE | SEP_MR_GLOBAL_MODULE, "vmlinux");
	for (size_t u = 0; u < sizeof(user) / sizeof(user[0]); u++)
		for (int i = 0; i < user[u].n; i++, tsc += 1000)
			if (chains)
				synth_sample_chain(&d->cpu0, size, *user[u].ip + user[u].off,
						   SPIN_PID, i & 1 ? SPIN_TID : SPIN_PID, tsc, i & 1,
						   0, 1, 0, ucall);
			else
				synth_sample(&d->cpu0, size, *user[u].ip + user[u].off,
					     SPIN_PID, i & 1 ? SPIN_TID : SPIN_PID, tsc, i & 1);
	for (int i = 0; i < 10; i++, tsc += 1000) {
		uint64_t ip = i < 6 ? SPIN_KTEXT + 0x104 : SPIN_KTEXT + 0x210;
		uint32_t pid = i < 6 ? SPIN_PID : 0;

		if (chains)
			synth_sample_chain(&d->cpu0, size, ip, pid, pid, tsc, 1,
					   1, i < 6 ? 2 : 0, 0, kcall);
		else
			synth_sample(&d->cpu0, size, ip, pid, pid, tsc, 1);
	}
	n = snprintf(text, sizeof(text), "%016llx T _stext\n%016llx T native_write_msr\n"
		     "%016llx t do_idle\n%016llx T _etext\n", SPIN_KTEXT, SPIN_KTEXT + 0x100,
		     SPIN_KTEXT + 0x200, SPIN_KTEXT + 0x1000);
	/* Two CPUs, every sample in cpu0.bin (the CPU field says which ran it). */
	if (synth_write(d->path, "kallsyms", text, n) ||
	    synth_write(d->path, "cpu1.bin", "", 0) ||
	    synth_write(d->path, "cpu0.bin", d->cpu0.p, d->cpu0.len) ||
	    synth_write(d->path, "module.bin", d->modules.p, d->modules.len))
		return -1;
	if (chains)
		return synth_txt_chain(d->path, 2, size, "cpu-clock", 1000000000);
	return synth_txt(d->path, 2, size);
}

int spin_collection_flawed(struct host_dir *d, enum spin_flaw flaw)
{
	struct spin_syms m;

	if (spin_collection(d, &m, flaw == SPIN_TRUNCATED))
		return -1;
	switch (flaw) {
	case SPIN_TRUNCATED:
		/* Half a record at the end: the stream was cut. */
		return synth_write(d->path, "cpu0.bin", d->cpu0.p,
				   d->cpu0.len - SPIN_CHAIN_SIZE / 2);
	case SPIN_BAD_MODULES:
		memset(d->modules.p, 0, 2);	/* recLength */
		return synth_write(d->path, "module.bin", d->modules.p, d->modules.len);
	case SPIN_NO_SAMPLES:
		return synth_write(d->path, "cpu0.bin", "", 0);
	}
	return -1;
}

int aca_top(const char *out, struct hot *h, int max)
{
	const char *l = out ? strchr(out, '\n') : NULL;
	int n = 0;

	for (; l && l[1] && n < max; l = strchr(l + 1, '\n')) {
		unsigned long long count;

		if (sscanf(l + 1, "%llu,%lf,%127[^\n]", &count, &h[n].pct, h[n].name) == 3)
			n++;
	}
	return n;
}


int lines_with(const char *s, const char *what)
{
	int n = 0;

	for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e = strchr(l, '\n');
		const char *hit = strstr(l, what);

		n += hit && (!e || hit < e);
	}
	return n;
}
