/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A FUSE file whose reads never complete, for the tests (root, in the
 * test VM): a daemon written against /dev/fuse directly (no libfuse)
 * that answers INIT, LOOKUP, GETATTR, OPEN, FLUSH and RELEASE, and never
 * answers READ. Its one file, FUSE_NEVER_NAME, is a regular file of
 * FUSE_NEVER_SIZE bytes; none of its pages is ever in the page cache, so
 * whoever reads it waits until the daemon dies (the connection is then
 * aborted and the read fails).
 *
 *   fuse_never_mount(dir)    mount on @dir, fork the daemon: its pid
 *   fuse_never_kill(pid)     kill it (the mount's waiters fail), reap it
 * The daemon alone holds the /dev/fuse descriptor, so its death aborts
 * the connection; unmount @dir afterwards (umount2(MNT_DETACH)).
 */
#ifndef ACA_FUSE_NEVER_H
#define ACA_FUSE_NEVER_H

#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FUSE_NEVER_NAME		"never"
#define FUSE_NEVER_SIZE		(1 << 20)
#define FUSE_NEVER_INO		2
#define FUSE_NEVER_BUF		(1 << 20)	/* >= FUSE_MIN_READ_BUFFER */

static void fuse_never_attr(struct fuse_attr *a, uint64_t ino)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	if (ino == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	} else {
		a->mode = S_IFREG | 0755;
		a->nlink = 1;
		a->size = FUSE_NEVER_SIZE;
		a->blocks = FUSE_NEVER_SIZE / 512;
	}
	a->blksize = 4096;
}

/* Answer request @unique with @error and @len bytes of @out. */
static void fuse_never_reply(int fd, uint64_t unique, int error,
			     const void *out, size_t len)
{
	char buf[sizeof(struct fuse_out_header) + 256];
	struct fuse_out_header h = {
		.len = sizeof(h) + len, .error = error, .unique = unique,
	};

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), out, len);
	/* A request interrupted meanwhile makes this fail: nothing to do. */
	if (write(fd, buf, h.len) < 0)
		return;
}

/* One request at @in (@n bytes); READ is never answered. */
static void fuse_never_serve(int fd, const char *in, size_t n)
{
	const struct fuse_in_header *h = (const void *)in;
	const char *arg = in + sizeof(*h);
	union {
		struct fuse_init_out init;
		struct fuse_entry_out entry;
		struct fuse_attr_out attr;
		struct fuse_open_out open;
	} out;

	if (n < sizeof(*h))
		return;
	memset(&out, 0, sizeof(out));
	switch (h->opcode) {
	case FUSE_INIT: {
		const struct fuse_init_in *i = (const void *)arg;

		out.init.major = FUSE_KERNEL_VERSION;
		out.init.minor = FUSE_KERNEL_MINOR_VERSION;
		out.init.max_readahead = i->max_readahead;
		out.init.max_write = 4096;
		out.init.max_background = 16;
		out.init.congestion_threshold = 12;
		fuse_never_reply(fd, h->unique, 0, &out.init, sizeof(out.init));
		break;
	}
	case FUSE_LOOKUP:
		if (h->nodeid != FUSE_ROOT_ID || strcmp(arg, FUSE_NEVER_NAME)) {
			fuse_never_reply(fd, h->unique, -ENOENT, NULL, 0);
			break;
		}
		out.entry.nodeid = FUSE_NEVER_INO;
		out.entry.entry_valid = 3600;
		out.entry.attr_valid = 3600;
		fuse_never_attr(&out.entry.attr, FUSE_NEVER_INO);
		fuse_never_reply(fd, h->unique, 0, &out.entry, sizeof(out.entry));
		break;
	case FUSE_GETATTR:
		out.attr.attr_valid = 3600;
		fuse_never_attr(&out.attr.attr, h->nodeid);
		fuse_never_reply(fd, h->unique, 0, &out.attr, sizeof(out.attr));
		break;
	case FUSE_OPEN:
	case FUSE_OPENDIR:
		out.open.fh = 1;	/* the page cache is used: no direct I/O */
		fuse_never_reply(fd, h->unique, 0, &out.open, sizeof(out.open));
		break;
	case FUSE_FLUSH:
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
		fuse_never_reply(fd, h->unique, 0, NULL, 0);
		break;
	case FUSE_READ:		/* never */
	case FUSE_FORGET:	/* no answer is expected */
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		break;
	default:
		fuse_never_reply(fd, h->unique, -ENOSYS, NULL, 0);
		break;
	}
}

static void fuse_never_daemon(int fd)
{
	char *buf = malloc(FUSE_NEVER_BUF);
	ssize_t n;

	if (!buf)
		_exit(1);
	for (;;) {
		n = read(fd, buf, FUSE_NEVER_BUF);
		if (n < 0 && (errno == EINTR || errno == ENOENT || errno == EAGAIN))
			continue;
		if (n <= 0)
			_exit(0);	/* unmounted: ENODEV */
		fuse_never_serve(fd, buf, n);
	}
}

/*
 * Mount the file system on @dir and fork its daemon, which dies with the
 * caller: its pid, or -1 with errno (ENOENT: no /dev/fuse).
 */
static pid_t fuse_never_mount(const char *dir)
{
	char opts[128];
	pid_t pid;
	int fd;

	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=%u,group_id=%u", fd,
		 (unsigned int)getuid(), (unsigned int)getgid());
	if (mount("aca-fuse-never", dir, "fuse.aca-fuse-never",
		  MS_NOSUID | MS_NODEV, opts)) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(fd);
		umount2(dir, MNT_DETACH);
		errno = err;
		return -1;
	}
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fuse_never_daemon(fd);
	}
	close(fd);
	return pid;
}

static void fuse_never_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

#endif /* ACA_FUSE_NEVER_H */
