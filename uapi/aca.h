/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * /dev/aca: the character device of the aca target driver.
 *
 * Each open file is one protocol connection: write() the peer's bytes in,
 * read() the replies out (or splice both ways). EOF on read means the
 * connection is over and the file should be closed.
 */
#ifndef _UAPI_ACA_H
#define _UAPI_ACA_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define ACA_DEVICE_PATH		"/dev/aca"
#define ACA_IOC_MAGIC		0xac

/*
 * The peer will send nothing more (its TCP half is closed): the connection
 * ends once the replies already queued have been read.
 */
#define ACA_IOC_HANGUP		_IO(ACA_IOC_MAGIC, 0x01)

#endif /* _UAPI_ACA_H */
