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
 * Who is at the other end of a connection. aca-relay sets it right after
 * open(): the first connection becomes a session's control channel and the
 * following ones from the same address its data channels; a connection
 * from elsewhere is a second host and is turned away. A file used without
 * it is a local peer.
 */
struct aca_peer {
	__u16 family;		/* AF_INET or AF_INET6 */
	__u16 port;		/* host byte order; for log lines only */
	__u32 reserved;		/* must be 0 */
	__u8 addr[16];		/* network byte order; IPv4 in addr[0..3] */
};

/*
 * The peer will send nothing more (its TCP half is closed): the connection
 * ends once the replies already queued have been read.
 */
#define ACA_IOC_HANGUP		_IO(ACA_IOC_MAGIC, 0x01)
#define ACA_IOC_SET_PEER	_IOW(ACA_IOC_MAGIC, 0x02, struct aca_peer)

#ifndef __cplusplus
#ifdef __KERNEL__
#include <linux/build_bug.h>
#else
#include <assert.h>
#endif
static_assert(sizeof(struct aca_peer) == 24, "aca_peer size");
#endif

#endif /* _UAPI_ACA_H */
