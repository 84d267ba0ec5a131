// SPDX-License-Identifier: GPL-2.0-only
/*
 * Deliberately broken: WARNs when loaded. tools/check loads it in a test VM
 * and expects the run to fail, so a kernel warning can never pass unseen.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init aca_broken_init(void)
{
	WARN_ON(1);
	return 0;
}

static void __exit aca_broken_exit(void)
{
}

module_init(aca_broken_init);
module_exit(aca_broken_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("aca selftest: a module that warns at load");
