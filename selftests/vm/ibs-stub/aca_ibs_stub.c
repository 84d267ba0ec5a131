// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stand-in IBS PMUs for the IBS test VM (selftests/vm/ibs), named and
 * formatted as Linux names and formats a Zen 4's: ibs_fetch (rand_en
 * config:57, l3missonly config:59) and ibs_op (cnt_ctl config:19,
 * l3missonly config:16). They take what perf_ibs_init() takes (the
 * options their formats name, a sample period in units of 16, no ring
 * filter) and sample like the cpu-clock software event: a timer per event
 * that fires every sample_period nanoseconds and calls the event's
 * overflow handler. Each sample's IP is a tag,
 * STUB_IP + the event's config >> 16 (+ 1 for ibs_fetch), where real IBS
 * puts the sampled instruction's: a test sees what perf handed the PMU.
 */
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <asm/irq_regs.h>

#define STUB_IP			0xffffffffabc00000ull
#define STUB_MIN_PERIOD_NS	10000ull

struct stub_ibs {
	struct pmu pmu;
	const char *name;
	u64 config_mask;
	unsigned int tag;
	bool registered;
};

static struct stub_ibs *stub_of(struct perf_event *event)
{
	return container_of(event->pmu, struct stub_ibs, pmu);
}

static enum hrtimer_restart stub_fire(struct hrtimer *timer)
{
	struct hw_perf_event *hwc = container_of(timer, struct hw_perf_event, hrtimer);
	struct perf_event *event = container_of(hwc, struct perf_event, hw);
	u64 period = max(hwc->sample_period, STUB_MIN_PERIOD_NS);
	struct perf_sample_data data;
	struct pt_regs *irq = get_irq_regs(), regs;

	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return HRTIMER_NORESTART;
	local64_add(hwc->sample_period, &event->count);
	if (irq) {
		regs = *irq;
		instruction_pointer_set(&regs, STUB_IP + (event->attr.config >> 16) +
					stub_of(event)->tag);
		perf_sample_data_init(&data, 0, hwc->sample_period);
		/*
		 * What perf_event_overflow(), which modules cannot call, ends
		 * in for a kernel counter: its handler (aca's).
		 */
		if (event->overflow_handler)
			event->overflow_handler(event, &data, &regs);
	}
	hrtimer_forward_now(timer, ns_to_ktime(period));
	return HRTIMER_RESTART;
}

static void stub_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	hwc->state = 0;
	hrtimer_start(&hwc->hrtimer, ns_to_ktime(max(hwc->sample_period, STUB_MIN_PERIOD_NS)),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void stub_stop(struct perf_event *event, int flags)
{
	hrtimer_cancel(&event->hw.hrtimer);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int stub_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		stub_start(event, 0);
	return 0;
}

static void stub_del(struct perf_event *event, int flags)
{
	stub_stop(event, 0);
}

static void stub_read(struct perf_event *event)
{
}

/* perf_ibs_init()'s checks: the options the formats name, a period of 16s. */
static int stub_event_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->attr.config & ~stub_of(event)->config_mask)
		return -EINVAL;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	if (!is_sampling_event(event) || event->attr.freq || (hwc->sample_period & 0xf))
		return -EINVAL;
	hrtimer_init(&hwc->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	hwc->hrtimer.function = stub_fire;
	return 0;
}

PMU_FORMAT_ATTR(rand_en, "config:57");
PMU_FORMAT_ATTR(cnt_ctl, "config:19");
static struct perf_pmu_events_attr fetch_l3missonly = {
	.attr = __ATTR(l3missonly, 0444, perf_event_sysfs_show, NULL), .event_str = "config:59",
};
static struct perf_pmu_events_attr op_l3missonly = {
	.attr = __ATTR(l3missonly, 0444, perf_event_sysfs_show, NULL), .event_str = "config:16",
};

static struct attribute *fetch_formats[] = {
	&format_attr_rand_en.attr, &fetch_l3missonly.attr.attr, NULL,
};

static struct attribute *op_formats[] = {
	&format_attr_cnt_ctl.attr, &op_l3missonly.attr.attr, NULL,
};

static const struct attribute_group fetch_group = { .name = "format", .attrs = fetch_formats };
static const struct attribute_group op_group = { .name = "format", .attrs = op_formats };
static const struct attribute_group *fetch_groups[] = { &fetch_group, NULL };
static const struct attribute_group *op_groups[] = { &op_group, NULL };

/*
 * CPU-wide events only (perf_invalid_context, as 6.1's IBS): 6.1 WARNs at
 * a second PMU of perf_hw_context, and aca asks for per-CPU events.
 */
#define STUB_PMU(_groups) { \
	.module = THIS_MODULE, .task_ctx_nr = perf_invalid_context, \
	.event_init = stub_event_init, .add = stub_add, .del = stub_del, \
	.start = stub_start, .stop = stub_stop, .read = stub_read, \
	.capabilities = PERF_PMU_CAP_NO_EXCLUDE, .attr_groups = (_groups) }

static struct stub_ibs stubs[] = {
	{ STUB_PMU(fetch_groups), "ibs_fetch", BIT_ULL(57) | BIT_ULL(59), 1 },
	{ STUB_PMU(op_groups), "ibs_op", BIT_ULL(19) | BIT_ULL(16), 0 },
};

static void stub_unregister(void)
{
	for (int i = ARRAY_SIZE(stubs) - 1; i >= 0; i--)
		if (stubs[i].registered) {
			perf_pmu_unregister(&stubs[i].pmu);
			stubs[i].registered = false;
		}
}

/*
 * Registered the other way round, ibs_op takes the perf type ibs_fetch had
 * when both were registered before and have been unloaded since (perf
 * hands out the lowest free type): a PMU replaced under a configuration.
 */
static bool reverse;
module_param(reverse, bool, 0444);
MODULE_PARM_DESC(reverse, "register ibs_op before ibs_fetch");

static int __init stub_init(void)
{
	for (size_t k = 0; k < ARRAY_SIZE(stubs); k++) {
		size_t i = reverse ? ARRAY_SIZE(stubs) - 1 - k : k;
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
MODULE_DESCRIPTION("Stand-in AMD IBS PMUs for aca's IBS test");
