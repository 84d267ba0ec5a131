// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca: Analysis Communication Agent target driver. The SEP remote protocol
 * lives in the kernel; aca-relay only moves bytes between TCP and /dev/aca.
 */
#include <linux/module.h>

#include "aca.h"

static int __init aca_init(void)
{
	int ret;

	ret = aca_params_check();
	if (ret)
		return ret;
	ret = aca_memory_init();
	if (ret)
		return ret;
	ret = aca_sampler_init();
	if (ret)
		goto err_memory;
	ret = aca_modrec_init();
	if (ret)
		goto err_sampler;
	aca_pmus_init();
	ret = aca_device_init();
	if (ret)
		goto err_pmus;
	pr_info("version %s ready on /dev/aca\n", ACA_VERSION);
	return 0;

err_pmus:
	aca_pmus_exit();
	aca_modrec_exit();
err_sampler:
	aca_sampler_exit();
err_memory:
	aca_memory_exit();
	return ret;
}

/* The mirror of aca_init(), and the flush timer of the last session stopped. */
static void __exit aca_exit(void)
{
	aca_device_exit();
	aca_collection_exit();
	aca_pmus_exit();
	aca_modrec_exit();
	aca_sampler_exit();
	aca_memory_exit();
}

module_init(aca_init);
module_exit(aca_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SEP remote-profiling target (VTune) over perf_events");
MODULE_AUTHOR("The aca developers");
MODULE_VERSION(ACA_VERSION);
