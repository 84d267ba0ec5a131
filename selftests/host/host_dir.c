// SPDX-License-Identifier: GPL-2.0-only
/* The dir fixture's state and what the host tests do with it (host_dir.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_dir.h"
#include "../../tools/aca-host/files.h"

int host_dir_init(struct host_dir *d)
{
	memset(d, 0, sizeof(*d));
	d->path = synth_tmpdir();
	return d->path ? 0 : -1;
}

void host_dir_free(struct host_dir *d)
{
	report_free(&d->r);
	sbuf_free(&d->cpu0);
	sbuf_free(&d->modules);
	free(d->warn);
	host_run_free(&d->run);
	if (d->path)
		synth_rmdir(d->path);
	free(d->path);
	memset(d, 0, sizeof(*d));
}

int run_report_opts(struct host_dir *d, const struct report_opts *opts)
{
	struct report_opts o = *opts;
	FILE *warn;

	if (synth_write(d->path, "cpu0.bin", d->cpu0.p, d->cpu0.len) ||
	    synth_write(d->path, "module.bin", d->modules.p, d->modules.len))
		return -1;
	free(d->warn);
	d->warn = NULL;
	warn = open_memstream(&d->warn, &d->warn_len);
	if (!warn)
		return -1;
	o.warn = warn;
	report_free(&d->r);
	d->ret = report_load(d->path, &o, &d->r);
	fclose(warn);
	return 0;
}

int run_report(struct host_dir *d, const char *sysroot)
{
	struct report_opts o = { .sysroot = sysroot };

	return run_report_opts(d, &o);
}

bool said(const struct host_dir *d, const char *what)
{
	return d->warn && strstr(d->warn, what);
}

int run_collect_argv(struct host_dir *d, struct mock_target *m, const char *out,
		     const char *const *extra)
{
	char target[32], dir[4096];
	const char *args[8 + MAX_EXTRA_ARGS + 1] = { "collect", target, "--duration", "0.3",
						     "--out", dir, "--eof-timeout", "2" };

	for (int i = 0; extra[i]; i++) {
		if (i == MAX_EXTRA_ARGS)
			return -1;
		args[8 + i] = extra[i];
	}
	if (!synth_host_path() || mock_start(m))
		return -1;
	snprintf(target, sizeof(target), "127.0.0.1:%d", m->port);
	snprintf(dir, sizeof(dir), "%s/%s", d->path, out);
	synth_run_host(d->path, args, &d->run);
	mock_join(m);
	return d->run.status;
}

int run_collect_to(struct host_dir *d, struct mock_target *m, const char *out,
		   const char *extra)
{
	const char *args[] = { extra, NULL };

	return run_collect_argv(d, m, out, args);
}

int run_collect(struct host_dir *d, struct mock_target *m, const char *extra)
{
	return run_collect_to(d, m, "c", extra);
}

char *collection_txt(const struct host_dir *d)
{
	char path[4200];
	size_t len;

	snprintf(path, sizeof(path), "%s/c/collection.txt", d->path);
	return (char *)read_whole_file(path, 1 << 20, &len);
}
