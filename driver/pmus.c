// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dynamic perf PMUs the protocol core asks for by name
 * (acp_ops.find_pmu): Intel's uncore boxes (uncore_*, for uncore ECBs,
 * core/uncore.c) and AMD's IBS (ibs_op, ibs_fetch, core/ibs.c), their
 * perf types and format files.
 *
 * They are read from sysfs (/sys/bus/event_source/devices: type and
 * format files) by a work item, so with the kernel's own credentials and
 * mounts, never an opener's: when aca loads (waited for), and on an open
 * of /dev/aca at most every ACA_PMU_RESCAN_S seconds (intel_uncore may
 * load after aca), queued and not waited for: an open never waits for a
 * worker, which itself takes aca_lock to swap the table in, and aca_lock
 * may be held by a session's end for as long as that takes. A PMU
 * registered since the last scan is seen once the scan the open queued is
 * done (a few milliseconds). The core's calls, under aca_lock, only look
 * the table up.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "core/core.h"
#include "pmus.h"
#include "target.h"

#define ACA_PMU_DIR		"/sys/bus/event_source/devices"
#define ACA_PMU_MAX		256
#define ACA_PMU_MAX_FORMATS	24
#define ACA_PMU_FORMAT_LEN	64	/* one format file: "config:8-15,32-43,45-55" */
#define ACA_PMU_TEXT_LEN	128	/* a longer file is skipped, not cut */
#define ACA_PMU_NAME		32	/* a directory entry's name */
#define ACA_PMU_RESCAN_S	1

/* The PMUs aca may use: whose names start so. */
static const char *const aca_pmu_prefixes[] = { "uncore_", "ibs_", NULL };

struct aca_pmu {
	char name[ACP_UNC_PMU_NAME];
	u32 type;
	u32 len;			/* of formats, the NULs included */
	char formats[ACA_PMU_MAX_FORMATS * ACA_PMU_FORMAT_LEN];
};

struct aca_pmu_table {
	u32 n;
	struct aca_pmu pmus[];
};

static struct aca_pmu_table *aca_pmu_table;	/* under aca_lock */
static unsigned long aca_pmus_scanned;		/* jiffies of the last scan's start */

struct aca_names {
	struct dir_context ctx;
	char (*names)[ACA_PMU_NAME];
	u32 n, max;
	const char *const *prefixes;	/* NULL-ended; NULL: every name */
};

static bool aca_name_wanted(const struct aca_names *an, const char *name, int len)
{
	if (!an->prefixes)
		return true;
	for (const char *const *p = an->prefixes; *p; p++)
		if (len >= strlen(*p) && !strncmp(name, *p, strlen(*p)))
			return true;
	return false;
}

static bool aca_name_actor(struct dir_context *ctx, const char *name, int len,
			   loff_t off, u64 ino, unsigned int type)
{
	struct aca_names *an = container_of(ctx, struct aca_names, ctx);

	if (len >= ACA_PMU_NAME || name[0] == '.' || !aca_name_wanted(an, name, len))
		return true;
	if (an->n == an->max)
		return false;
	memcpy(an->names[an->n], name, len);
	an->names[an->n++][len] = 0;
	return true;
}

/* Names of @path's entries with one of @an's prefixes, at most @an->max. */
static int aca_list_dir(const char *path, struct aca_names *an)
{
	struct file *f = filp_open(path, O_RDONLY | O_DIRECTORY, 0);
	int ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	an->ctx.actor = aca_name_actor;
	an->ctx.pos = 0;
	ret = iterate_dir(f, &an->ctx);
	filp_close(f, NULL);
	return ret;
}

/* A small sysfs file's text, NUL-ended, without its newline; its length or an error. */
static ssize_t aca_read_text(const char *path, char *buf, size_t len)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	return n;
}

static int aca_scan_pmu(const char *name, struct aca_pmu *p, char *path,
			struct aca_names *fmts)
{
	char text[ACA_PMU_TEXT_LEN];
	ssize_t n;

	memset(p, 0, sizeof(*p));
	/* Longer than any PMU the core names (uncore_iio_free_running_0): not one of them. */
	if (strscpy(p->name, name, sizeof(p->name)) < 0)
		return -ENAMETOOLONG;
	snprintf(path, PATH_MAX, ACA_PMU_DIR "/%s/type", name);
	n = aca_read_text(path, text, sizeof(text));
	if (n < 0)
		return n;
	if (kstrtou32(text, 10, &p->type))
		return -EINVAL;
	fmts->n = 0;
	snprintf(path, PATH_MAX, ACA_PMU_DIR "/%s/format", name);
	n = aca_list_dir(path, fmts);
	if (n < 0)
		return n;
	for (u32 i = 0; i < fmts->n; i++) {
		snprintf(path, PATH_MAX, ACA_PMU_DIR "/%s/format/%s", name, fmts->names[i]);
		n = aca_read_text(path, text, sizeof(text));
		/* Unread, cut or past the room: its bits stay refused (core/uncore.c). */
		if (n <= 0 || n >= sizeof(text) - 2 || p->len + n + 1 > sizeof(p->formats))
			continue;
		memcpy(p->formats + p->len, text, n + 1);
		p->len += n + 1;
	}
	return 0;
}

/*
 * Read the PMUs from sysfs, then swap the table in under aca_lock.
 * A directory that cannot be read keeps the table there was.
 */
static void aca_pmus_scan_fn(struct work_struct *work)
{
	struct aca_names pmus = { .prefixes = aca_pmu_prefixes, .max = ACA_PMU_MAX };
	struct aca_names fmts = { .max = ACA_PMU_MAX_FORMATS };
	struct aca_pmu_table *t = NULL, *old;
	char *path = NULL;
	u32 n = 0;

	WRITE_ONCE(aca_pmus_scanned, jiffies ?: 1);
	pmus.names = kcalloc(pmus.max, sizeof(*pmus.names), GFP_KERNEL);
	fmts.names = kcalloc(fmts.max, sizeof(*fmts.names), GFP_KERNEL);
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!pmus.names || !fmts.names || !path || aca_list_dir(ACA_PMU_DIR, &pmus) < 0)
		goto out;
	if (pmus.n) {
		t = kvzalloc(struct_size(t, pmus, pmus.n), GFP_KERNEL);
		if (!t)
			goto out;
		for (u32 i = 0; i < pmus.n; i++)
			if (!aca_scan_pmu(pmus.names[i], &t->pmus[n], path, &fmts))
				n++;
		t->n = n;
	}
	mutex_lock(&aca_lock);
	old = aca_pmu_table;
	aca_pmu_table = t;
	mutex_unlock(&aca_lock);
	kvfree(old);
out:
	kfree(path);
	kfree(fmts.names);
	kfree(pmus.names);
}

static DECLARE_WORK(aca_pmus_scan_work, aca_pmus_scan_fn);

/*
 * Read the PMUs again, in a kernel worker (the kernel's view of sysfs, not
 * the caller's): at most every ACA_PMU_RESCAN_S seconds. Not waited for
 * (an open of /dev/aca); see the top.
 */
void aca_pmus_scan(void)
{
	unsigned long last = READ_ONCE(aca_pmus_scanned);

	if (last && time_before(jiffies, last + ACA_PMU_RESCAN_S * HZ))
		return;
	queue_work(system_unbound_wq, &aca_pmus_scan_work);
}

/* acp_ops.find_pmu: a table lookup. */
bool aca_find_pmu(void *ctx, const char *name, u32 *type, char *formats, size_t len)
{
	struct aca_pmu_table *t = aca_pmu_table;

	lockdep_assert_held(&aca_lock);
	for (u32 i = 0; t && i < t->n; i++) {
		const struct aca_pmu *p = &t->pmus[i];

		if (strcmp(p->name, name))
			continue;
		*type = p->type;
		if (len)
			memcpy(formats, p->formats, min_t(size_t, p->len, len));
		return true;
	}
	return false;
}

/* The table has a PMU whose name starts with @prefix. */
bool aca_pmus_have(const char *prefix)
{
	struct aca_pmu_table *t = aca_pmu_table;

	lockdep_assert_held(&aca_lock);
	for (u32 i = 0; t && i < t->n; i++)
		if (!strncmp(t->pmus[i].name, prefix, strlen(prefix)))
			return true;
	return false;
}

/*
 * Module load and unload (/dev/aca gone first): the first table, waited
 * for (no session exists, so nothing holds aca_lock for long); the last
 * one freed.
 */
void aca_pmus_init(void)
{
	queue_work(system_unbound_wq, &aca_pmus_scan_work);
	flush_work(&aca_pmus_scan_work);
}

void aca_pmus_exit(void)
{
	cancel_work_sync(&aca_pmus_scan_work);
	kvfree(aca_pmu_table);
	aca_pmu_table = NULL;
}
