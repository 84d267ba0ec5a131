/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Module parameters (params.c): a session reads ring_pages at INIT_DRIVER
 * (and the local API at ALLOC_TRACE), a collection sw_clock and
 * max_sample_rate at START.
 */
#ifndef ACA_PARAMS_H
#define ACA_PARAMS_H

#include <linux/types.h>

extern unsigned int aca_ring_pages;
extern unsigned int aca_flush_ms;	/* read at INIT_DRIVER */
extern bool aca_sw_clock;
extern unsigned int aca_max_sample_rate;
extern unsigned int aca_group;		/* gid of /dev/aca */
extern bool aca_delayed_transfer;	/* read when a session begins */
extern bool aca_group_perfmon;		/* read at each open() */
extern unsigned int aca_session_idle_s;	/* read when another wants the target */
int aca_params_check(void);

/*
 * Data pages of a sample ring (ring_pages, a local trace's): a power of
 * two, at least two, as a ring page given to a pipe is only rewritten once
 * every byte of it has been read and every reference dropped (ring.c), so
 * a one-page ring could never wrap.
 */
#define ACA_RING_PAGES_MIN	2
#define ACA_RING_PAGES_MAX	4096
bool aca_ring_pages_ok(unsigned int n);

#endif /* ACA_PARAMS_H */
