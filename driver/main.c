// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca: Analysis Communication Agent target driver. The SEP remote protocol
 * lives in the kernel; aca-relay only moves bytes between TCP and /dev/aca.
 */
#include <linux/err.h>
#include <linux/module.h>

#include "aca.h"
#include "collection.h"
#include "device.h"
#include "machine.h"
#include "memory.h"
#include "params.h"
#include "pmus.h"

/*
 * The module's one collection (collection.c): from aca_init(), before
 * /dev/aca exists, to aca_exit(), after it is gone. Everything else
 * reaches it as the target's ctx or from its own parts.
 */
static struct aca_collection *aca_coll;

static int __init aca_init(void)
{
	int ret;

	ret = aca_params_check();
	if (ret)
		return ret;
	ret = aca_memory_init();
	if (ret)
		return ret;
	aca_machine_init();
	aca_coll = aca_collection_create();
	if (IS_ERR(aca_coll)) {
		ret = PTR_ERR(aca_coll);
		goto err_memory;
	}
	aca_pmus_init();
	ret = aca_device_init(aca_coll);
	if (ret)
		goto err_pmus;
	pr_info("version %s ready on /dev/aca\n", ACA_VERSION);
	return 0;

err_pmus:
	aca_pmus_exit();
	aca_collection_destroy(aca_coll);
err_memory:
	aca_memory_exit();
	return ret;
}

/* The mirror of aca_init(). */
static void __exit aca_exit(void)
{
	aca_device_exit();
	aca_pmus_exit();
	aca_collection_destroy(aca_coll);
	aca_memory_exit();
}

module_init(aca_init);
module_exit(aca_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SEP remote-profiling target (VTune) over perf_events");
MODULE_AUTHOR("The aca developers");
MODULE_VERSION(ACA_VERSION);
