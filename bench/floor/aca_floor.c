// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca_floor: the floor of make bench. While loaded, one cpu-clock event
 * per online CPU, every period_ns, with the attributes aca gives its own
 * cpu-clock events (pinned, exclude_hv, exclude_idle unless idle=1), and
 * an overflow handler that only counts. What the profiled workload loses
 * to it is what any sampler built on perf_events pays for the event
 * alone; the rest of a sampler's cost is its own.
 *
 *   insmod aca_floor.ko period_ns=1000000 [idle=1]
 *   cat /sys/module/aca_floor/parameters/samples	(sum over CPUs)
 *
 * Bench only: CPUs plugged while loaded are not sampled.
 */
#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/slab.h>

static unsigned int period_ns = 1000000;
module_param(period_ns, uint, 0444);
MODULE_PARM_DESC(period_ns, "cpu-clock period in ns, at least 10000 (default 1 ms)");

static bool idle;
module_param(idle, bool, 0444);
MODULE_PARM_DESC(idle, "sample idle CPUs too, as perf record does (default N, as aca does)");

static DEFINE_PER_CPU(u64, floor_samples);
static struct perf_event **floor_events;

static void floor_overflow(struct perf_event *pe, struct perf_sample_data *data,
			   struct pt_regs *regs)
{
	this_cpu_inc(floor_samples);
}

static int samples_get(char *buf, const struct kernel_param *kp)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(floor_samples, cpu);
	return sysfs_emit(buf, "%llu\n", sum);
}

static const struct kernel_param_ops samples_ops = {
	.get = samples_get,
};
module_param_cb(samples, &samples_ops, NULL, 0444);
MODULE_PARM_DESC(samples, "samples taken so far, all CPUs");

static void floor_release(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (!IS_ERR_OR_NULL(floor_events[cpu]))
			perf_event_release_kernel(floor_events[cpu]);
	kfree(floor_events);
}

static int __init floor_init(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.pinned = 1,
		.exclude_hv = 1,
	};
	int cpu, ret = 0;

	if (period_ns < 10000)
		return -EINVAL;
	attr.sample_period = period_ns;
	attr.exclude_idle = !idle;
	floor_events = kcalloc(nr_cpu_ids, sizeof(*floor_events), GFP_KERNEL);
	if (!floor_events)
		return -ENOMEM;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		floor_events[cpu] = perf_event_create_kernel_counter(&attr, cpu, NULL,
								     floor_overflow,
								     NULL);
		if (IS_ERR(floor_events[cpu])) {
			ret = PTR_ERR(floor_events[cpu]);
			break;
		}
	}
	cpus_read_unlock();
	if (ret)
		floor_release();
	return ret;
}

static void __exit floor_exit(void)
{
	floor_release();
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_DESCRIPTION("make bench's floor: cpu-clock sampling with an overflow handler that only counts");
MODULE_LICENSE("GPL");
