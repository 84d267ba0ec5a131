// SPDX-License-Identifier: GPL-2.0-only
/*
 * Deliberately broken: allocates at load and forgets the pointer. On the
 * debug kernel (tools/debug-kernel), kmemleak's scan at the end of the VM
 * run must report it and the run must fail.
 */
#include <linux/module.h>
#include <linux/slab.h>

/* Where the pointer was, so that no register or stack slot keeps it. */
static void *volatile aca_leak_ptr;

static int __init aca_leak_init(void)
{
	aca_leak_ptr = kmalloc(1000, GFP_KERNEL);
	if (!aca_leak_ptr)
		return -ENOMEM;
	aca_leak_ptr = NULL;
	return 0;
}

static void __exit aca_leak_exit(void)
{
}

module_init(aca_leak_init);
module_exit(aca_leak_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("aca selftest: a module that leaks memory at load");
