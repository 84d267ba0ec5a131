/* SPDX-License-Identifier: GPL-2.0-only */
/* The host's monotonic clock in seconds, and sleeping by it. */
#ifndef ACA_HOST_CLOCK_H
#define ACA_HOST_CLOCK_H

#include <time.h>

/* CLOCK_MONOTONIC, in seconds. */
static inline double host_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep @s seconds (>= 0), or less if a signal interrupts it. */
static inline void host_sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

#endif /* ACA_HOST_CLOCK_H */
