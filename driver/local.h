/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The local ioctl API (local.c): ioctls device.c does not know, mmap of a
 * local trace's rings, and cleanup when the file that holds them closes.
 */
#ifndef ACA_LOCAL_H
#define ACA_LOCAL_H

struct file;
struct vm_area_struct;

long aca_local_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
int aca_local_mmap(struct file *file, struct vm_area_struct *vma);
void aca_local_release(struct file *file);

#endif /* ACA_LOCAL_H */
