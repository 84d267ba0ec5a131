/* SPDX-License-Identifier: GPL-2.0-only */
/* The debugfs fault injector: /sys/kernel/debug/aca/event_off (inject.c). */
#ifndef ACA_INJECT_H
#define ACA_INJECT_H

void aca_inject_init(void);
void aca_inject_exit(void);

#endif /* ACA_INJECT_H */
