// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one protocol target of the module and aca_lock, which serialises
 * every call into it: the files of /dev/aca (device.c), the local API
 * (local.c), and under it the core's calls back into the collection
 * (collection.c and its parts' files), which assert it. It is the
 * collection's lock too: the collection's workers take it, and nothing
 * reaches it but by this name.
 */
#include <linux/mutex.h>

#include "core/core.h"
#include "target.h"

DEFINE_MUTEX(aca_lock);		/* the target, every connection, the collection */
struct acp_target aca_target;

/* For the local ioctl API (local.c), which shares the target. */
struct acp_target *aca_target_lock(void)
{
	mutex_lock(&aca_lock);
	return &aca_target;
}

void aca_target_unlock(void)
{
	mutex_unlock(&aca_lock);
}
