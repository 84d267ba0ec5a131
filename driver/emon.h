/* SPDX-License-Identifier: GPL-2.0-only */
/* Counting mode's reads and its EMON timer (emon.c). */
#ifndef ACA_EMON_H
#define ACA_EMON_H

#include <linux/workqueue.h>

struct aca_collection;

/* The EMON timer: every emon_ms while counting. */
extern struct delayed_work aca_emon;

void aca_emon_write(struct aca_collection *c);

#endif /* ACA_EMON_H */
