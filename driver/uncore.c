// SPDX-License-Identifier: GPL-2.0-only
/*
 * Uncore counting (spec 7.2): the target's uncore perf PMUs as the
 * protocol core asks for them (acp_ops.uncore_pmu), and a collection's
 * uncore events (the core's translation of uncore ECBs, core/uncore.c),
 * counted once per package and read every unc_timer_interval ms into
 * uncore records on the uncore channel's ring.
 *
 * The PMUs are read from sysfs (/sys/bus/event_source/devices/uncore_*:
 * type and format files) by aca_uncore_scan(), outside aca_lock, when
 * aca loads and on an open of /dev/aca at most every ACA_UNC_RESCAN_S
 * seconds (intel_uncore may load after aca); the core's calls, under
 * aca_lock, only look the table up.
 *
 * A collection's worker is the uncore ring's one producer: each tick it
 * reads every counter (perf_event_read_value(), a cross-call to the
 * package's CPU) and writes one record per device and package. STOP
 * stops the worker, writes a last round and finalizes the ring.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "aca.h"

#define ACA_UNC_DIR		"/sys/bus/event_source/devices"
#define ACA_UNC_PREFIX		"uncore_"
#define ACA_UNC_MAX_PMUS	256
#define ACA_UNC_MAX_FORMATS	24
#define ACA_UNC_FORMAT_LEN	64	/* one format file: "config:8-15,32-43,45-55" */
#define ACA_UNC_NAME		32	/* a directory entry's name */
#define ACA_UNC_RESCAN_S	1
#define ACA_UNC_RING_PAGES	16
#define ACA_UNC_DEFAULT_MS	10	/* unc_timer_interval 0 */

/* ---- the PMUs ---- */

struct aca_unc_pmu {
	char name[ACP_UNC_PMU_NAME];
	u32 type;
	u32 len;			/* of formats, the NULs included */
	char formats[ACA_UNC_MAX_FORMATS * ACA_UNC_FORMAT_LEN];
};

struct aca_unc_table {
	u32 n;
	struct aca_unc_pmu pmus[];
};

static struct aca_unc_table *aca_unc_pmus;	/* under aca_lock */
static DEFINE_MUTEX(aca_unc_scan_lock);		/* one scan at a time */
static unsigned long aca_unc_scanned;		/* jiffies of the last; under it */

struct aca_names {
	struct dir_context ctx;
	char (*names)[ACA_UNC_NAME];
	u32 n, max;
	const char *prefix;
};

static bool aca_name_actor(struct dir_context *ctx, const char *name, int len,
			   loff_t off, u64 ino, unsigned int type)
{
	struct aca_names *an = container_of(ctx, struct aca_names, ctx);
	size_t plen = strlen(an->prefix);

	if (len >= ACA_UNC_NAME || len < plen || strncmp(name, an->prefix, plen) ||
	    name[0] == '.')
		return true;
	if (an->n == an->max)
		return false;
	memcpy(an->names[an->n], name, len);
	an->names[an->n++][len] = 0;
	return true;
}

/* Names of @path's entries starting with @prefix, at most @an->max. */
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

static int aca_scan_pmu(const char *name, struct aca_unc_pmu *p, char *path,
			struct aca_names *fmts)
{
	char text[ACA_UNC_FORMAT_LEN];
	ssize_t n;

	memset(p, 0, sizeof(*p));
	strscpy(p->name, name, sizeof(p->name));
	snprintf(path, PATH_MAX, ACA_UNC_DIR "/%s/type", name);
	n = aca_read_text(path, text, sizeof(text));
	if (n < 0)
		return n;
	if (kstrtou32(text, 10, &p->type))
		return -EINVAL;
	fmts->n = 0;
	snprintf(path, PATH_MAX, ACA_UNC_DIR "/%s/format", name);
	n = aca_list_dir(path, fmts);
	if (n < 0)
		return n;
	for (u32 i = 0; i < fmts->n; i++) {
		snprintf(path, PATH_MAX, ACA_UNC_DIR "/%s/format/%s", name, fmts->names[i]);
		n = aca_read_text(path, text, sizeof(text));
		if (n <= 0 || p->len + n + 1 > sizeof(p->formats))
			continue;
		memcpy(p->formats + p->len, text, n + 1);
		p->len += n + 1;
	}
	return 0;
}

/*
 * Read the uncore PMUs from sysfs, outside aca_lock, then swap the table
 * in under it. At most every ACA_UNC_RESCAN_S seconds unless @force.
 */
void aca_uncore_scan(bool force)
{
	struct aca_names pmus = { .prefix = ACA_UNC_PREFIX, .max = ACA_UNC_MAX_PMUS };
	struct aca_names fmts = { .prefix = "", .max = ACA_UNC_MAX_FORMATS };
	struct aca_unc_table *t = NULL, *old;
	char *path = NULL;
	u32 n = 0;

	mutex_lock(&aca_unc_scan_lock);
	if (!force && aca_unc_scanned &&
	    time_before(jiffies, aca_unc_scanned + ACA_UNC_RESCAN_S * HZ))
		goto out;
	aca_unc_scanned = jiffies ? jiffies : 1;
	pmus.names = kcalloc(pmus.max, sizeof(*pmus.names), GFP_KERNEL);
	fmts.names = kcalloc(fmts.max, sizeof(*fmts.names), GFP_KERNEL);
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!pmus.names || !fmts.names || !path)
		goto out;
	/* No such directory (no perf): no uncore. */
	if (aca_list_dir(ACA_UNC_DIR, &pmus) < 0)
		pmus.n = 0;
	if (pmus.n) {
		t = kvzalloc(struct_size(t, pmus, pmus.n), GFP_KERNEL);
		if (!t)
			goto out;
		t->n = pmus.n;
		for (u32 i = 0; i < pmus.n; i++)
			if (!aca_scan_pmu(pmus.names[i], &t->pmus[n], path, &fmts))
				n++;
		t->n = n;
	}
	mutex_lock(&aca_lock);
	old = aca_unc_pmus;
	aca_unc_pmus = t;
	mutex_unlock(&aca_lock);
	kvfree(old);
out:
	mutex_unlock(&aca_unc_scan_lock);
	kfree(path);
	kfree(fmts.names);
	kfree(pmus.names);
}

/* acp_ops.uncore_pmu: a table lookup. */
bool aca_uncore_pmu(void *ctx, const char *name, u32 *type, char *formats, size_t len)
{
	struct aca_unc_table *t = aca_unc_pmus;

	lockdep_assert_held(&aca_lock);
	for (u32 i = 0; t && i < t->n; i++) {
		const struct aca_unc_pmu *p = &t->pmus[i];

		if (strcmp(p->name, name))
			continue;
		*type = p->type;
		if (len)
			memcpy(formats, p->formats, min_t(size_t, p->len, len));
		return true;
	}
	return false;
}

/* ---- a collection's uncore counters ---- */

struct aca_uncore {
	struct aca_ring *ring;		/* the uncore channel's */
	struct acp_unc_event *evs;	/* a copy of the configuration's */
	u32 nevs, npkgs, ndevices;
	int *pkg_cpu;			/* package -> the CPU its counters are on */
	struct perf_event **pe;		/* [pkg * nevs + i] */
	u32 *rec_size;			/* device -> its records' size */
	u8 *rec;			/* the worker's record */
	unsigned int period_ms;
	bool paused;			/* under aca_lock; the worker reads it once a tick */
	bool stopping;
	struct delayed_work work;
};

static struct aca_uncore *aca_unc;	/* under aca_lock */

/* One round: a record per device and package, the counts since START. */
static void aca_unc_round(struct aca_uncore *u)
{
	u64 tsc = aca_tsc_now();

	for (u32 pkg = 0; pkg < u->npkgs; pkg++) {
		if (u->pkg_cpu[pkg] < 0)
			continue;
		for (u32 d = 0; d < u->ndevices; d++) {
			struct sep_unc_record_head *h = (void *)u->rec;
			bool any = false;

			memset(u->rec, 0, u->rec_size[d]);
			for (u32 i = 0; i < u->nevs; i++) {
				const struct acp_unc_event *e = &u->evs[i];
				struct perf_event *pe = u->pe[pkg * u->nevs + i];
				u64 enabled, running, count = 0;

				if (e->device != d)
					continue;
				if (!any) {
					h->descriptor_id = e->desc_id;
					h->cpu_num = u->pkg_cpu[pkg];
					h->pkg_num = pkg;
					h->flags = SEP_UNC_RECORD_VALID;
					h->tsc = tsc;
					/* The one uncore group: group + 1. */
					*(u64 *)(u->rec + e->group_offset) = 1;
					any = true;
				}
				if (pe)
					count = perf_event_read_value(pe, &enabled, &running);
				/* The core checked both: aligned U64s after the head. */
				*(u64 *)(u->rec + e->record_offset) = count;
			}
			if (any)
				aca_ring_write(u->ring, u->rec, u->rec_size[d], u->rec_size[d]);
		}
	}
}

static void aca_unc_work(struct work_struct *work)
{
	struct aca_uncore *u = container_of(to_delayed_work(work), struct aca_uncore, work);

	if (!READ_ONCE(u->paused))
		aca_unc_round(u);
	if (!READ_ONCE(u->stopping))
		schedule_delayed_work(&u->work, msecs_to_jiffies(u->period_ms));
}

static void aca_unc_release(struct aca_uncore *u)
{
	for (u32 i = 0; u->pe && i < u->npkgs * u->nevs; i++)
		if (u->pe[i]) {
			perf_event_release_kernel(u->pe[i]);
			u->pe[i] = NULL;
		}
}

static void aca_unc_free(struct aca_uncore *u)
{
	if (!u)
		return;
	aca_unc_release(u);
	if (u->ring) {
		aca_ring_detach(u->ring);
		aca_ring_put(u->ring);
	}
	kfree(u->pe);
	kfree(u->evs);
	kfree(u->pkg_cpu);
	kfree(u->rec_size);
	kfree(u->rec);
	kfree(u);
}

/*
 * INIT_DRIVER (sampling mode, a target with uncore PMUs): the uncore
 * channel's ring, there before its reader binds it; the counters come at
 * START.
 */
int aca_uncore_configure(const struct acp_config *cfg)
{
	struct aca_uncore *u;

	lockdep_assert_held(&aca_lock);
	aca_uncore_finish();
	if (acp_counting_mode(cfg) || !aca_unc_pmus || !aca_unc_pmus->n)
		return 0;
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	INIT_DELAYED_WORK(&u->work, aca_unc_work);
	u->ring = aca_ring_alloc(ACA_UNC_RING_PAGES, NUMA_NO_NODE);
	if (!u->ring) {
		kfree(u);
		return -ENOMEM;
	}
	aca_unc = u;
	return 0;
}

/* START: a counting event per uncore event and package, then the worker. */
int aca_uncore_start(const struct acp_config *cfg, bool paused)
{
	struct aca_uncore *u = aca_unc;
	int cpu, ret = 0;

	lockdep_assert_held(&aca_lock);
	if (!u || !cfg->nunc)
		return 0;
	u->evs = kmemdup(cfg->unc, cfg->nunc * sizeof(*cfg->unc), GFP_KERNEL);
	u->nevs = cfg->nunc;
	u->ndevices = cfg->nunc_devices;
	u->npkgs = topology_max_packages();
	u->pkg_cpu = kmalloc_array(u->npkgs, sizeof(*u->pkg_cpu), GFP_KERNEL);
	u->pe = kcalloc(u->npkgs * u->nevs, sizeof(*u->pe), GFP_KERNEL);
	u->rec_size = kcalloc(u->ndevices, sizeof(*u->rec_size), GFP_KERNEL);
	u->rec = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!u->evs || !u->pkg_cpu || !u->pe || !u->rec_size || !u->rec) {
		u->nevs = 0;
		return -ENOMEM;
	}
	for (u32 p = 0; p < u->npkgs; p++)
		u->pkg_cpu[p] = -1;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		int pkg = topology_logical_package_id(cpu);

		if (pkg >= 0 && pkg < u->npkgs && u->pkg_cpu[pkg] < 0)
			u->pkg_cpu[pkg] = cpu;
	}
	cpus_read_unlock();
	for (u32 i = 0; i < u->nevs; i++) {
		const struct acp_unc_event *e = &u->evs[i];

		/* The core bounds desc_id and offsets by the descriptor (at most a page). */
		u->rec_size[e->device] = cfg->desc[e->desc_id].sample_size;
		for (u32 p = 0; p < u->npkgs && !ret; p++) {
			struct perf_event_attr attr = {
				.type = e->type,
				.size = sizeof(attr),
				.config = e->config,
				.config1 = e->config1,
				.disabled = paused,
			};
			struct perf_event *pe;

			if (u->pkg_cpu[p] < 0)
				continue;
			pe = perf_event_create_kernel_counter(&attr, u->pkg_cpu[p], NULL, NULL,
							      NULL);
			if (IS_ERR(pe)) {
				ret = PTR_ERR(pe);
				pr_notice_ratelimited("START: perf refused %s config 0x%llx config1 0x%llx on CPU %d (%d)\n",
						      e->pmu, e->config, e->config1,
						      u->pkg_cpu[p], ret);
				break;
			}
			u->pe[p * u->nevs + i] = pe;
		}
	}
	if (ret) {
		aca_unc_release(u);
		u->nevs = 0;
		return ret;
	}
	u->paused = paused;
	u->period_ms = cfg->drv.unc_timer_interval ?: ACA_UNC_DEFAULT_MS;
	schedule_delayed_work(&u->work, msecs_to_jiffies(u->period_ms));
	return 0;
}

void aca_uncore_pause(bool pause)
{
	struct aca_uncore *u = aca_unc;

	lockdep_assert_held(&aca_lock);
	if (!u || !u->nevs)
		return;
	WRITE_ONCE(u->paused, pause);
	for (u32 i = 0; i < u->npkgs * u->nevs; i++) {
		if (!u->pe[i])
			continue;
		if (pause)
			perf_event_disable(u->pe[i]);
		else
			perf_event_enable(u->pe[i]);
	}
}

/* The worker stopped for good: it re-arms itself until it sees @stopping. */
static void aca_unc_halt(struct aca_uncore *u)
{
	WRITE_ONCE(u->stopping, true);
	cancel_delayed_work_sync(&u->work);
}

/*
 * STOP: the worker stopped, a last round written unless paused, the
 * counters released, the ring final. The worker takes no lock, so it is
 * waited for under aca_lock.
 */
void aca_uncore_stop(void)
{
	struct aca_uncore *u = aca_unc;

	lockdep_assert_held(&aca_lock);
	if (!u)
		return;
	aca_unc_halt(u);
	if (u->nevs && !u->paused)
		aca_unc_round(u);
	aca_unc_release(u);
	aca_ring_finalize(u->ring);
}

void aca_uncore_finish(void)
{
	struct aca_uncore *u = aca_unc;

	lockdep_assert_held(&aca_lock);
	if (!u)
		return;
	aca_unc_halt(u);
	aca_unc = NULL;
	aca_unc_free(u);
}

struct aca_ring *aca_uncore_ring(void)
{
	lockdep_assert_held(&aca_lock);
	return aca_unc ? aca_unc->ring : NULL;
}

/* Module load and unload: the first table; the last one freed. */
void aca_uncore_init(void)
{
	aca_uncore_scan(true);
}

void aca_uncore_exit(void)
{
	kvfree(aca_unc_pmus);
	aca_unc_pmus = NULL;
}
