// SPDX-License-Identifier: GPL-2.0-only
/* The one clock of every timestamp aca sends, and its rate. */
#include <linux/atomic.h>
#include <linux/time64.h>
#include <asm/tsc.h>

#include "tsc.h"

u64 aca_tsc_hz(void)
{
	return tsc_khz ? (u64)tsc_khz * 1000 : NSEC_PER_SEC;
}

/*
 * TSCs of different CPUs may differ by a few cycles even when the kernel
 * calls them synchronised; clamp so no reader ever sees time go back.
 */
static atomic64_t aca_last_tsc;

u64 aca_tsc_now(void)
{
	s64 now = rdtsc_ordered();
	s64 last = atomic64_read(&aca_last_tsc);

	do {
		if (now <= last)
			return last;
	} while (!atomic64_try_cmpxchg(&aca_last_tsc, &last, now));
	return now;
}

/*
 * A sample's timestamp, in the NMI: the TSC as it is, which never goes
 * back on one CPU, and agrees across CPUs as far as the kernel found the
 * TSCs synchronised at boot (it stops using an unstable TSC). No shared
 * cache line is written per sample, unlike aca_tsc_now()'s clamp, which
 * only the commands' timestamps take.
 */
u64 aca_tsc_sample(void)
{
	return rdtsc_ordered();
}
