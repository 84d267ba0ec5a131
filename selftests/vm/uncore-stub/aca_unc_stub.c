// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stand-in uncore PMUs for the uncore test VM (selftests/vm/uncore), named
 * and formatted as Linux names and formats a Skylake-SP's: uncore_ubox and
 * uncore_cha_0, uncore_cha_1, with the format files of the kernel's skx
 * types; on a Sandy Bridge-EP (family 6, model 0x2d) a Sandy Bridge-EP's:
 * uncore_ubox and uncore_cbox_0, uncore_cbox_1, with its snbep formats;
 * on an Ivy Bridge-EP (model 0x3e) the same PMUs with its ivbep formats,
 * on a Haswell-EP (model 0x3f) with its hswep formats.
 * What they count is known in advance, so a test can check what
 * aca reads: an event counts its umask (at least 1) per microsecond it is
 * enabled; the fixed counter (event 0xff) counts nanoseconds; umask 0xee
 * is refused, and umask 0xed never scheduled (its counters taken: perf
 * puts the pinned event in error). Like an uncore PMU, they count per CPU only, never per
 * task, and never sample.
 */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <asm/processor.h>

#define STUB_SNBEP_MODEL	0x2d
#define STUB_IVBEP_MODEL	0x3e
#define STUB_HSWEP_MODEL	0x3f

#define STUB_FIXED_EVENT	0xff
#define STUB_REFUSED_UMASK	0xee	/* event_init refuses it */
#define STUB_BUSY_UMASK		0xed	/* add fails: its counters are taken */

static u64 stub_now(struct perf_event *event)
{
	u64 ns = ktime_get_ns(), umask = (event->attr.config >> 8) & 0xff;

	if ((event->attr.config & 0xff) == STUB_FIXED_EVENT)
		return ns;
	return div_u64(ns, NSEC_PER_USEC) * (umask ? umask : 1);
}

static void stub_read(struct perf_event *event)
{
	u64 now = stub_now(event), prev = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - prev, &event->count);
}

static void stub_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, stub_now(event));
	event->hw.state = 0;
}

static void stub_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	stub_read(event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int stub_add(struct perf_event *event, int flags)
{
	if (((event->attr.config >> 8) & 0xff) == STUB_BUSY_UMASK)
		return -EBUSY;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		stub_start(event, 0);
	return 0;
}

static void stub_del(struct perf_event *event, int flags)
{
	stub_stop(event, PERF_EF_UPDATE);
}

static int stub_event_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->cpu < 0 || is_sampling_event(event))
		return -EINVAL;
	/* What a box without that event would say: for the failure paths. */
	if (((event->attr.config >> 8) & 0xff) == STUB_REFUSED_UMASK)
		return -EINVAL;
	return 0;
}

PMU_FORMAT_ATTR(event, "config:0-7");
PMU_FORMAT_ATTR(umask, "config:8-15");
PMU_FORMAT_ATTR(edge, "config:18");
PMU_FORMAT_ATTR(tid_en, "config:19");
PMU_FORMAT_ATTR(inv, "config:23");
PMU_FORMAT_ATTR(thresh, "config:24-31");
PMU_FORMAT_ATTR(filter_tid, "config1:0-8");
PMU_FORMAT_ATTR(filter_state, "config1:17-26");
PMU_FORMAT_ATTR(filter_rem, "config1:32");
PMU_FORMAT_ATTR(filter_loc, "config1:33");
PMU_FORMAT_ATTR(filter_all_op, "config1:35");
PMU_FORMAT_ATTR(filter_nm, "config1:36");
PMU_FORMAT_ATTR(filter_not_nm, "config1:37");
PMU_FORMAT_ATTR(filter_opc0, "config1:41-50");
PMU_FORMAT_ATTR(filter_opc1, "config1:51-60");
PMU_FORMAT_ATTR(filter_nc, "config1:62");
PMU_FORMAT_ATTR(filter_isoc, "config1:63");

/* A format file named @_name whose text is @_spec (names the Skylake-SP's take already). */
#define STUB_FORMAT(_var, _name, _spec) \
static ssize_t _var##_show(struct device *dev, struct device_attribute *attr, char *page) \
{ \
	return sysfs_emit(page, _spec "\n"); \
} \
static struct device_attribute _var = __ATTR(_name, 0444, _var##_show, NULL)

STUB_FORMAT(snbep_thresh5, thresh, "config:24-28");
STUB_FORMAT(snbep_filter_tid, filter_tid, "config1:0-4");
STUB_FORMAT(snbep_filter_nid, filter_nid, "config1:10-17");
STUB_FORMAT(snbep_filter_state, filter_state, "config1:18-22");
STUB_FORMAT(snbep_filter_opc, filter_opc, "config1:23-31");
STUB_FORMAT(ivbep_filter_tid, filter_tid, "config1:0-4");
STUB_FORMAT(ivbep_filter_link, filter_link, "config1:5-8");
STUB_FORMAT(ivbep_filter_state, filter_state, "config1:17-22");
STUB_FORMAT(ivbep_filter_nid, filter_nid, "config1:32-47");
STUB_FORMAT(ivbep_filter_opc, filter_opc, "config1:52-60");
STUB_FORMAT(ivbep_filter_c6, filter_c6, "config1:61");
STUB_FORMAT(hswep_filter_tid1, filter_tid, "config1:0");
STUB_FORMAT(hswep_filter_cid, filter_cid, "config1:5");
STUB_FORMAT(hswep_filter_tid, filter_tid, "config1:0-5");
STUB_FORMAT(hswep_filter_link, filter_link, "config1:6-8");
STUB_FORMAT(hswep_filter_state, filter_state, "config1:17-23");

static struct attribute *stub_snbep_ubox_formats[] = {
	&format_attr_event.attr, &format_attr_umask.attr, &format_attr_edge.attr,
	&format_attr_inv.attr, &snbep_thresh5.attr, NULL,
};

static struct attribute *stub_snbep_cbox_formats[] = {
	&format_attr_event.attr, &format_attr_umask.attr, &format_attr_edge.attr,
	&format_attr_tid_en.attr, &format_attr_inv.attr, &format_attr_thresh.attr,
	&snbep_filter_tid.attr, &snbep_filter_nid.attr, &snbep_filter_state.attr,
	&snbep_filter_opc.attr, NULL,
};

/* Ivy Bridge-EP's ubox formats are Sandy Bridge-EP's; its CBo has no inv and more filters. */
static struct attribute *stub_ivbep_cbox_formats[] = {
	&format_attr_event.attr, &format_attr_umask.attr, &format_attr_edge.attr,
	&format_attr_tid_en.attr, &format_attr_thresh.attr, &ivbep_filter_tid.attr,
	&ivbep_filter_link.attr, &ivbep_filter_state.attr, &ivbep_filter_nid.attr,
	&ivbep_filter_opc.attr, &format_attr_filter_nc.attr, &ivbep_filter_c6.attr,
	&format_attr_filter_isoc.attr, NULL,
};

/* Haswell-EP's ubox has a thread and core filter; its CBo filters are laid out anew. */
static struct attribute *stub_hswep_ubox_formats[] = {
	&format_attr_event.attr, &format_attr_umask.attr, &format_attr_edge.attr,
	&format_attr_inv.attr, &snbep_thresh5.attr, &hswep_filter_tid1.attr,
	&hswep_filter_cid.attr, NULL,
};

static struct attribute *stub_hswep_cbox_formats[] = {
	&format_attr_event.attr, &format_attr_umask.attr, &format_attr_edge.attr,
	&format_attr_tid_en.attr, &format_attr_thresh.attr, &hswep_filter_tid.attr,
	&hswep_filter_link.attr, &hswep_filter_state.attr, &ivbep_filter_nid.attr,
	&ivbep_filter_opc.attr, &format_attr_filter_nc.attr, &ivbep_filter_c6.attr,
	&format_attr_filter_isoc.attr, NULL,
};

static struct attribute *stub_ubox_formats[] = {
	&format_attr_event.attr, &format_attr_umask.attr, &format_attr_edge.attr,
	&format_attr_inv.attr, &format_attr_thresh.attr, NULL,
};

static struct attribute *stub_cha_formats[] = {
	&format_attr_event.attr, &format_attr_umask.attr, &format_attr_edge.attr,
	&format_attr_tid_en.attr, &format_attr_inv.attr, &format_attr_thresh.attr,
	&format_attr_filter_tid.attr, &format_attr_filter_state.attr,
	&format_attr_filter_rem.attr, &format_attr_filter_loc.attr,
	&format_attr_filter_all_op.attr, &format_attr_filter_nm.attr,
	&format_attr_filter_not_nm.attr, &format_attr_filter_opc0.attr,
	&format_attr_filter_opc1.attr, &format_attr_filter_nc.attr,
	&format_attr_filter_isoc.attr, NULL,
};

static const struct attribute_group stub_ubox_group = {
	.name = "format", .attrs = stub_ubox_formats,
};

static const struct attribute_group stub_cha_group = {
	.name = "format", .attrs = stub_cha_formats,
};

static const struct attribute_group stub_snbep_ubox_group = {
	.name = "format", .attrs = stub_snbep_ubox_formats,
};

static const struct attribute_group stub_snbep_cbox_group = {
	.name = "format", .attrs = stub_snbep_cbox_formats,
};

static const struct attribute_group stub_ivbep_cbox_group = {
	.name = "format", .attrs = stub_ivbep_cbox_formats,
};

static const struct attribute_group stub_hswep_ubox_group = {
	.name = "format", .attrs = stub_hswep_ubox_formats,
};

static const struct attribute_group stub_hswep_cbox_group = {
	.name = "format", .attrs = stub_hswep_cbox_formats,
};

static const struct attribute_group *stub_ubox_groups[] = { &stub_ubox_group, NULL };
static const struct attribute_group *stub_cha_groups[] = { &stub_cha_group, NULL };
static const struct attribute_group *stub_snbep_ubox_groups[] = { &stub_snbep_ubox_group, NULL };
static const struct attribute_group *stub_snbep_cbox_groups[] = { &stub_snbep_cbox_group, NULL };
static const struct attribute_group *stub_ivbep_cbox_groups[] = { &stub_ivbep_cbox_group, NULL };
static const struct attribute_group *stub_hswep_ubox_groups[] = { &stub_hswep_ubox_group, NULL };
static const struct attribute_group *stub_hswep_cbox_groups[] = { &stub_hswep_cbox_group, NULL };

#define STUB_PMU(_groups) { \
	.module = THIS_MODULE, .task_ctx_nr = perf_invalid_context, \
	.event_init = stub_event_init, .add = stub_add, .del = stub_del, \
	.start = stub_start, .stop = stub_stop, .read = stub_read, \
	.capabilities = PERF_PMU_CAP_NO_EXCLUDE, .attr_groups = (_groups) }

#define STUB_NPMUS	3

struct stub {
	const char *name;
	struct pmu pmu;
	bool registered;
};

static struct stub skx_stubs[STUB_NPMUS] = {
	{ "uncore_ubox", STUB_PMU(stub_ubox_groups) },
	{ "uncore_cha_0", STUB_PMU(stub_cha_groups) },
	{ "uncore_cha_1", STUB_PMU(stub_cha_groups) },
};

static struct stub snbep_stubs[STUB_NPMUS] = {
	{ "uncore_ubox", STUB_PMU(stub_snbep_ubox_groups) },
	{ "uncore_cbox_0", STUB_PMU(stub_snbep_cbox_groups) },
	{ "uncore_cbox_1", STUB_PMU(stub_snbep_cbox_groups) },
};

static struct stub ivbep_stubs[STUB_NPMUS] = {
	{ "uncore_ubox", STUB_PMU(stub_snbep_ubox_groups) },
	{ "uncore_cbox_0", STUB_PMU(stub_ivbep_cbox_groups) },
	{ "uncore_cbox_1", STUB_PMU(stub_ivbep_cbox_groups) },
};

static struct stub hswep_stubs[STUB_NPMUS] = {
	{ "uncore_ubox", STUB_PMU(stub_hswep_ubox_groups) },
	{ "uncore_cbox_0", STUB_PMU(stub_hswep_cbox_groups) },
	{ "uncore_cbox_1", STUB_PMU(stub_hswep_cbox_groups) },
};

/* The set this CPU's model names: set once at init, before any is registered. */
static struct stub *stubs;

static void stub_unregister(void)
{
	for (int i = STUB_NPMUS - 1; i >= 0; i--)
		if (stubs[i].registered) {
			perf_pmu_unregister(&stubs[i].pmu);
			stubs[i].registered = false;
		}
}

static int __init stub_init(void)
{
	stubs = skx_stubs;
	if (boot_cpu_data.x86 == 6 && boot_cpu_data.x86_model == STUB_SNBEP_MODEL)
		stubs = snbep_stubs;
	else if (boot_cpu_data.x86 == 6 && boot_cpu_data.x86_model == STUB_IVBEP_MODEL)
		stubs = ivbep_stubs;
	else if (boot_cpu_data.x86 == 6 && boot_cpu_data.x86_model == STUB_HSWEP_MODEL)
		stubs = hswep_stubs;
	for (size_t i = 0; i < STUB_NPMUS; i++) {
		int ret = perf_pmu_register(&stubs[i].pmu, stubs[i].name, -1);

		if (ret) {
			pr_err("cannot register %s (%d)\n", stubs[i].name, ret);
			stub_unregister();
			return ret;
		}
		stubs[i].registered = true;
	}
	return 0;
}

static void __exit stub_exit(void)
{
	stub_unregister();
}

module_init(stub_init);
module_exit(stub_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Stand-in Skylake-SP or Xeon E5 uncore PMUs for aca's uncore test");
