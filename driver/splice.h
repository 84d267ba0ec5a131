/* SPDX-License-Identifier: GPL-2.0-only */
/* Unread ring bytes to a pipe by page reference (splice.c). */
#ifndef ACA_SPLICE_H
#define ACA_SPLICE_H

#include <linux/types.h>

struct aca_ring;
struct pipe_inode_info;

ssize_t aca_ring_to_pipe(struct aca_ring *r, struct pipe_inode_info *pipe,
			 size_t len);

#endif /* ACA_SPLICE_H */
