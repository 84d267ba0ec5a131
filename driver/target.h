/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one protocol target and aca_lock (target.c), the lock of every call
 * into the target and of the collection behind it: whoever reads or
 * changes what it guards holds it, and asserts so with
 * lockdep_assert_held(&aca_lock).
 */
#ifndef ACA_TARGET_H
#define ACA_TARGET_H

#include <linux/mutex.h>

struct acp_target;

extern struct mutex aca_lock;
extern struct acp_target aca_target;
/* For the local ioctl API (local.c), which shares the target. */
struct acp_target *aca_target_lock(void);
void aca_target_unlock(void);

#endif /* ACA_TARGET_H */
