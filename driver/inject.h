/* SPDX-License-Identifier: GPL-2.0-only */
/* The debugfs fault injector: /sys/kernel/debug/aca/event_off (inject.c). */
#ifndef ACA_INJECT_H
#define ACA_INJECT_H

struct aca_collection;

void aca_inject_init(struct aca_collection *coll);
void aca_inject_exit(struct aca_collection *coll);

#endif /* ACA_INJECT_H */
