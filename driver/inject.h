/* SPDX-License-Identifier: GPL-2.0-only */
/* The debugfs fault injector: /sys/kernel/debug/aca/event_off (inject.c). */
#ifndef ACA_INJECT_H
#define ACA_INJECT_H

struct aca_collection;

/*
 * The tests' hooks are in a test build only (Kbuild: ACA_TEST_HOOKS=y,
 * tools/build-module --test-hooks). make, make install and DKMS build
 * aca.ko without inject.c: these stubs instead, no file in debugfs.
 */
#ifdef ACA_TEST_HOOKS
void aca_inject_init(struct aca_collection *coll);
void aca_inject_started(struct aca_collection *coll);
#else
static inline void aca_inject_init(struct aca_collection *coll) { }
static inline void aca_inject_started(struct aca_collection *coll) { }
#endif

#endif /* ACA_INJECT_H */
