/* SPDX-License-Identifier: GPL-2.0-only */
/* The /dev/aca node (node.c). */
#ifndef ACA_NODE_H
#define ACA_NODE_H

#include <linux/fs.h>

int aca_node_add(const struct file_operations *fops);
void aca_node_del(void);

#endif /* ACA_NODE_H */
