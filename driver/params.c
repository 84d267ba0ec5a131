// SPDX-License-Identifier: GPL-2.0-only
/*
 * Module parameters, listed by modinfo and readable in
 * /sys/module/aca/parameters/. They are checked at load: aca refuses to
 * load with a value it could not honour. group is applied when /dev/aca
 * is created (node.c). ring_pages and flush_ms may also be changed at run
 * time by root (checked the same way); a session reads them at
 * INIT_DRIVER, when its rings are allocated and its flush timer starts.
 * delayed_transfer, also writable, is read when a session begins.
 * group_perfmon, also writable, is read at each open(). The sampler reads
 * the others at each collection's START, so a value is the same for all
 * of one collection.
 */
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/uidgid.h>

#include "params.h"

#define ACA_MAX_SAMPLE_RATE_MAX		100000

bool aca_ring_pages_ok(unsigned int n)
{
	return is_power_of_2(n) && n >= ACA_RING_PAGES_MIN &&
	       n <= ACA_RING_PAGES_MAX;
}

/* Whether @n is a valid ring_pages, and if not a log line that says why. */
static bool aca_ring_pages_check(unsigned int n)
{
	if (aca_ring_pages_ok(n))
		return true;
	pr_err("ring_pages=%u: want a power of two from %u to %u\n",
	       n, ACA_RING_PAGES_MIN, ACA_RING_PAGES_MAX);
	return false;
}

#define ACA_FLUSH_MS_MIN	10
#define ACA_FLUSH_MS_MAX	1000

static bool aca_flush_ms_check(unsigned int n)
{
	if (n >= ACA_FLUSH_MS_MIN && n <= ACA_FLUSH_MS_MAX)
		return true;
	pr_err("flush_ms=%u: want %u to %u (ms)\n", n, ACA_FLUSH_MS_MIN,
	       ACA_FLUSH_MS_MAX);
	return false;
}

/* A writable unsigned parameter, set only to a value @check takes. */
static int aca_uint_set(const char *val, const struct kernel_param *kp,
			bool (*check)(unsigned int))
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	if (!check(n))
		return -EINVAL;
	*(unsigned int *)kp->arg = n;
	return 0;
}

static int aca_ring_pages_set(const char *val, const struct kernel_param *kp)
{
	return aca_uint_set(val, kp, aca_ring_pages_check);
}

static const struct kernel_param_ops aca_ring_pages_ops = {
	.set = aca_ring_pages_set,
	.get = param_get_uint,
};

/* Checked at load by aca_params_check() for a clear message. */
unsigned int aca_ring_pages = 64;
module_param_cb(ring_pages, &aca_ring_pages_ops, &aca_ring_pages, 0644);
MODULE_PARM_DESC(ring_pages,
		 "Sample ring size per CPU in pages, a power of two from 2 to 4096 (default 64: 256 KiB per CPU plus one header page; the uncore ring, where there is uncore, as much, at least 16); read when a session configures (INIT_DRIVER)");

bool aca_sw_clock = true;
module_param_named(sw_clock, aca_sw_clock, bool, 0444);
MODULE_PARM_DESC(sw_clock,
		 "Fall back to the cpu-clock software event where no hardware PMU counter is available, e.g. in a VM (default Y); read by each collection at START");

unsigned int aca_max_sample_rate = 10000;
module_param_named(max_sample_rate, aca_max_sample_rate, uint, 0444);
MODULE_PARM_DESC(max_sample_rate,
		 "Highest sample rate of an event on one CPU, in Hz, 1 to 100000 (default 10000): shorter sampling periods are lengthened; read by each collection at START");

static int aca_flush_ms_set(const char *val, const struct kernel_param *kp)
{
	return aca_uint_set(val, kp, aca_flush_ms_check);
}

static const struct kernel_param_ops aca_flush_ms_ops = {
	.set = aca_flush_ms_set,
	.get = param_get_uint,
};

/* Checked at load by aca_params_check() for a clear message. */
unsigned int aca_flush_ms = 50;
module_param_cb(flush_ms, &aca_flush_ms_ops, &aca_flush_ms, 0644);
MODULE_PARM_DESC(flush_ms,
		 "In immediate transfer, the longest a sample waits on the target before its data channel reads it, in ms, 10 to 1000 (default 50: a sample reaches the host within 100 ms at every rate); busy rings are read sooner, at each quarter; longer saves the target a wake-up of the relay per ring and period; read when a session configures (INIT_DRIVER)");

/* Any value is valid; read once per session, when its control connects. */
bool aca_delayed_transfer;
module_param_named(delayed_transfer, aca_delayed_transfer, bool, 0644);
MODULE_PARM_DESC(delayed_transfer,
		 "Delayed transfer (status switch bit 9): data channels send nothing until STOP, so the network stays quiet while sampling; what a collection may hold is the ring size (ring_pages per CPU, module records 4 x ring_pages, at least 4 MiB, uncore records ring_pages, at least 16), more is dropped and counted (GET_SAMPLE_DROP_INFO; uncore records: logged at STOP); read when a session begins (default N)");

/*
 * Read at each open() of /dev/aca; writable by root at run time, so a
 * change applies to files opened afterwards, never to open ones.
 */
bool aca_group_perfmon;
module_param_named(group_perfmon, aca_group_perfmon, bool, 0644);
MODULE_PARM_DESC(group_perfmon,
		 "Whoever may open /dev/aca samples as if it had CAP_PERFMON: equal to giving the device's group CAP_PERFMON, it restores sep5's 'the group is enough' model (default N: sessions, kernel and module layout records and RAPL energy reads need CAP_PERFMON or CAP_SYS_ADMIN in the process that opens /dev/aca); read at each open()");

/*
 * Any value is valid; read when a host or a local trace finds the target
 * held by an unprivileged session (acp_session_yield()).
 */
unsigned int aca_session_idle_s = 60;
module_param_named(session_idle_s, aca_session_idle_s, uint, 0644);
MODULE_PARM_DESC(session_idle_s,
		 "An unprivileged host session (one that may not sample) that has sent no request for this many seconds ends when another host or a local trace wants the target; 0: never (default 60); a host or local trace that may sample ends such a session at once");

unsigned int aca_group;
module_param_named(group, aca_group, uint, 0444);
MODULE_PARM_DESC(group,
		 "Numeric group ID that owns /dev/aca (mode 0660) when it is created at load (default 0, root); a udev rule may change it later");

int aca_params_check(void)
{
	if (!aca_ring_pages_check(aca_ring_pages) ||
	    !aca_flush_ms_check(aca_flush_ms))
		return -EINVAL;
	if (!aca_max_sample_rate ||
	    aca_max_sample_rate > ACA_MAX_SAMPLE_RATE_MAX) {
		pr_err("max_sample_rate=%u: want 1 to %u (Hz)\n",
		       aca_max_sample_rate, ACA_MAX_SAMPLE_RATE_MAX);
		return -EINVAL;
	}
	if (!gid_valid(make_kgid(&init_user_ns, aca_group))) {
		pr_err("group=%u: not a valid group ID\n", aca_group);
		return -EINVAL;
	}
	return 0;
}
