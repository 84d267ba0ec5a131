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
 *
 * With core=1, also a stand-in core PMU, "cpu" of type PERF_TYPE_RAW (no
 * VM here has one), for the PEBS and LBR areas' test (remote_test -f
 * core_stub): it samples the same way, and hands the handler what x86
 * perf decodes from a PEBS record and the LBRs, as far as the event asked
 * for it: the registers (PERF_SAMPLE_REGS_INTR: STUB_GPR + their number),
 * the data address STUB_DLA, the weight STUB_WEIGHT and a branch stack of
 * STUB_BRANCHES entries (from STUB_FROM + k to STUB_TO + k, most recent
 * first, every odd one mispredicted, STUB_CYCLES + k cycles). Its IP is
 * STUB_CORE_IP + precise_ip << 20 + the config's low 20 bits, exact
 * (PERF_EFLAGS_EXACT) with precise_ip 2 but for event 0xCD; its counter
 * index (hw.idx) 34 for fixed counter 2's config, else 0. A precise event
 * that x86 would let batch samples in a large PEBS buffer (no frequency,
 * no wakeup a sample: arch/x86/events/intel/core.c) has STUB_LARGE_PEBS
 * added to its IP: its samples would reach the handler at the drain.
 */
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <asm/irq_regs.h>

#define STUB_IP			0xffffffffabc00000ull
#define STUB_MIN_PERIOD_NS	10000ull

#define STUB_CORE_IP		0xffffffffabd00000ull
#define STUB_GPR		0x5a5a000000000000ull
#define STUB_DLA		0x00007f0000001000ull
#define STUB_WEIGHT		77
#define STUB_BRANCHES		4
#define STUB_FROM		0xffffffffab000000ull
#define STUB_TO			0xffffffffab100000ull
#define STUB_CYCLES		10
#define STUB_NOT_EXACT		0xcd	/* an event whose IP perf cannot make exact */
#define STUB_FIXED2		0x300	/* perf's config of fixed counter 2 */
#define STUB_LARGE_PEBS		(1ull << 24)

struct stub_ibs {
	struct pmu pmu;
	const char *name;
	u64 config_mask;
	unsigned int tag;
	int type;		/* perf type asked: -1 any, or PERF_TYPE_RAW */
	bool registered;
};

static struct perf_branch_stack *stub_brs;

/*
 * An event's timer. Not perf's hw.hrtimer: that shares a union with
 * hw.idx, which the core stand-in sets as x86 perf does.
 */
struct stub_event {
	struct hrtimer timer;
	struct perf_event *event;
};

static struct hrtimer *stub_timer(struct perf_event *event)
{
	return &((struct stub_event *)event->pmu_private)->timer;
}

/* What x86 perf hands the handler of a PEBS (and LBR) sample, as asked. */
static void stub_core_sample(struct perf_event *event, struct perf_sample_data *data,
			     struct pt_regs *regs)
{
	u64 type = event->attr.sample_type;

	const struct perf_event_attr *a = &event->attr;
	bool large_pebs = a->precise_ip && !a->freq && !(a->wakeup_events && !a->watermark);

	instruction_pointer_set(regs, STUB_CORE_IP + ((u64)a->precise_ip << 20) +
				(a->config & 0xfffff) + (large_pebs ? STUB_LARGE_PEBS : 0));
	regs->cs = __KERNEL_CS;
	/*
	 * precise_ip 2: the eventing IP, exact (PEBS format 2 on), but for
	 * event 0xCD, as where perf's LBR fix-up (formats 0, 1) fails.
	 */
	if (event->attr.precise_ip > 1 && (event->attr.config & 0xff) != STUB_NOT_EXACT)
		regs->flags |= PERF_EFLAGS_EXACT;
	if (type & PERF_SAMPLE_REGS_INTR) {
		regs->ax = STUB_GPR + 0;
		regs->bx = STUB_GPR + 1;
		regs->cx = STUB_GPR + 2;
		regs->dx = STUB_GPR + 3;
		regs->si = STUB_GPR + 4;
		regs->di = STUB_GPR + 5;
		regs->bp = STUB_GPR + 6;
		regs->sp = STUB_GPR + 7;
		regs->r8 = STUB_GPR + 8;
		regs->r9 = STUB_GPR + 9;
		regs->r10 = STUB_GPR + 10;
		regs->r11 = STUB_GPR + 11;
		regs->r12 = STUB_GPR + 12;
		regs->r13 = STUB_GPR + 13;
		regs->r14 = STUB_GPR + 14;
		regs->r15 = STUB_GPR + 15;
	}
	if (type & PERF_SAMPLE_ADDR) {
		data->addr = STUB_DLA;
		data->sample_flags |= PERF_SAMPLE_ADDR;
	}
	if (type & PERF_SAMPLE_WEIGHT) {
		data->weight.full = STUB_WEIGHT;
		data->sample_flags |= PERF_SAMPLE_WEIGHT;
	}
	if (has_branch_stack(event)) {
		data->br_stack = stub_brs;
		data->sample_flags |= PERF_SAMPLE_BRANCH_STACK;
	}
}

static struct stub_ibs *stub_of(struct perf_event *event)
{
	return container_of(event->pmu, struct stub_ibs, pmu);
}

static enum hrtimer_restart stub_fire(struct hrtimer *timer)
{
	struct perf_event *event = container_of(timer, struct stub_event, timer)->event;
	struct hw_perf_event *hwc = &event->hw;
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
		if (stub_of(event)->type == PERF_TYPE_RAW)
			stub_core_sample(event, &data, &regs);
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
	hrtimer_start(stub_timer(event), ns_to_ktime(max(hwc->sample_period, STUB_MIN_PERIOD_NS)),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void stub_stop(struct perf_event *event, int flags)
{
	hrtimer_cancel(stub_timer(event));
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int stub_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	/* x86's counter index: fixed counter 2 at 32 + 2, else PMC0. */
	event->hw.idx = event->attr.config == STUB_FIXED2 ? 34 : 0;
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

static void stub_destroy(struct perf_event *event)
{
	kfree(event->pmu_private);
}

static int stub_timer_init(struct perf_event *event)
{
	struct stub_event *se = kzalloc(sizeof(*se), GFP_KERNEL);

	if (!se)
		return -ENOMEM;
	se->event = event;
	hrtimer_init(&se->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	se->timer.function = stub_fire;
	event->pmu_private = se;
	event->destroy = stub_destroy;
	return 0;
}

/* perf_ibs_init()'s checks: the options the formats name, a period of 16s. */
static int stub_event_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* The core stand-in: any raw config, sampling, precise_ip to 2, LBRs. */
	if (stub_of(event)->type == PERF_TYPE_RAW) {
		if (!is_sampling_event(event) || event->attr.freq || event->attr.precise_ip > 2)
			return -EINVAL;
		return stub_timer_init(event);
	}
	if (event->attr.config & ~stub_of(event)->config_mask)
		return -EINVAL;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	if (!is_sampling_event(event) || event->attr.freq || (hwc->sample_period & 0xf))
		return -EINVAL;
	return stub_timer_init(event);
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
#define STUB_PMU(_groups, _caps) { \
	.module = THIS_MODULE, .task_ctx_nr = perf_invalid_context, \
	.event_init = stub_event_init, .add = stub_add, .del = stub_del, \
	.start = stub_start, .stop = stub_stop, .read = stub_read, \
	.capabilities = (_caps), .attr_groups = (_groups) }

static struct stub_ibs stubs[] = {
	{ STUB_PMU(fetch_groups, PERF_PMU_CAP_NO_EXCLUDE), "ibs_fetch",
	  BIT_ULL(57) | BIT_ULL(59), 1, -1 },
	{ STUB_PMU(op_groups, PERF_PMU_CAP_NO_EXCLUDE), "ibs_op",
	  BIT_ULL(19) | BIT_ULL(16), 0, -1 },
	/* Last: registered with core=1 only. */
	{ STUB_PMU(NULL, 0), "cpu", 0, 0, PERF_TYPE_RAW },
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

/* Where the VM has no core PMU: perf's PERF_TYPE_RAW is free. */
static bool core;
module_param(core, bool, 0444);
MODULE_PARM_DESC(core, "also register a stand-in core PMU (PERF_TYPE_RAW) with PEBS and LBR data");

static int __init stub_init(void)
{
	size_t n = ARRAY_SIZE(stubs) - !core, ibs = ARRAY_SIZE(stubs) - 1;

	stub_brs = kzalloc(struct_size(stub_brs, entries, STUB_BRANCHES), GFP_KERNEL);
	if (!stub_brs)
		return -ENOMEM;
	stub_brs->nr = STUB_BRANCHES;
	for (u32 k = 0; k < STUB_BRANCHES; k++) {
		struct perf_branch_entry *b = &stub_brs->entries[k];

		b->from = STUB_FROM + k;
		b->to = STUB_TO + k;
		b->mispred = k & 1;
		b->predicted = !(k & 1);
		b->cycles = STUB_CYCLES + k;
	}
	for (size_t k = 0; k < n; k++) {
		size_t i = reverse && k < ibs ? ibs - 1 - k : k;
		int ret = perf_pmu_register(&stubs[i].pmu, stubs[i].name, stubs[i].type);

		/* perf gives another type (and WARNs) when the one asked is taken. */
		if (!ret && stubs[i].type >= 0 && stubs[i].pmu.type != stubs[i].type) {
			perf_pmu_unregister(&stubs[i].pmu);
			ret = -EBUSY;
		}

		if (ret) {
			pr_err("cannot register %s (%d)\n", stubs[i].name, ret);
			stub_unregister();
			kfree(stub_brs);
			return ret;
		}
		stubs[i].registered = true;
	}
	return 0;
}

static void __exit stub_exit(void)
{
	stub_unregister();
	kfree(stub_brs);
}

module_init(stub_init);
module_exit(stub_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Stand-in AMD IBS PMUs, and a core PMU with PEBS and LBR data, for aca's tests");
