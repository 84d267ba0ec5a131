// SPDX-License-Identifier: GPL-2.0-only
/*
 * Builds with a compiler warning and nothing else wrong: tools/build-module
 * must fail on it with --strict (make check) and build it without.
 */
#include <linux/module.h>

static int __init aca_warn_init(void)
{
	int unused;	/* the warning: -Wunused-variable */

	return 0;
}
module_init(aca_warn_init);

static void __exit aca_warn_exit(void)
{
}
module_exit(aca_warn_exit);

MODULE_DESCRIPTION("aca selftest: a module with one compiler warning");
MODULE_LICENSE("GPL");
