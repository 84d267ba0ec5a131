// SPDX-License-Identifier: GPL-2.0-only
/* The local ioctl API: not implemented yet. */
#include "aca.h"

long aca_local_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

int aca_local_mmap(struct file *file, struct vm_area_struct *vma)
{
	return -ENODEV;
}

void aca_local_release(struct file *file)
{
}
