// SPDX-License-Identifier: GPL-2.0-only
/*
 * Deliberately broken: takes lock a then b, later b then a. Nothing
 * deadlocks (one thread), but on the debug kernel (tools/debug-kernel)
 * lockdep must report the inversion and the run must fail.
 */
#include <linux/module.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(aca_lock_a);
static DEFINE_MUTEX(aca_lock_b);

static int __init aca_lockorder_init(void)
{
	mutex_lock(&aca_lock_a);
	mutex_lock(&aca_lock_b);
	mutex_unlock(&aca_lock_b);
	mutex_unlock(&aca_lock_a);

	mutex_lock(&aca_lock_b);
	mutex_lock(&aca_lock_a);
	mutex_unlock(&aca_lock_a);
	mutex_unlock(&aca_lock_b);
	return 0;
}

static void __exit aca_lockorder_exit(void)
{
}

module_init(aca_lockorder_init);
module_exit(aca_lockorder_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("aca selftest: a module that takes two locks in both orders");
