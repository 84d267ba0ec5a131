/* SPDX-License-Identifier: GPL-2.0-only */
/* /dev/aca and its files (device.c). */
#ifndef ACA_DEVICE_H
#define ACA_DEVICE_H

#include <linux/types.h>

struct aca_collection;
struct file;

/* @coll outlives the device: the ctx of every acp_ops call. */
int aca_device_init(struct aca_collection *coll);
void aca_device_exit(void);

/*
 * A /dev/aca file as the local API sees it: under aca_lock, @file has
 * taken a role in the protocol; CAP_PERFMON, CAP_SYS_ADMIN or
 * group_perfmon when @file was opened.
 */
bool aca_file_is_conn(struct file *file);
bool aca_file_opener_privileged(struct file *file);

#endif /* ACA_DEVICE_H */
