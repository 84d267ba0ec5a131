// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm-fwd: tools/vm/run --nic tap's port forwards. The guest's NIC is then a
 * tap in a network namespace of the VM's own, where QEMU hands the host
 * kernel whole 64 KiB segments (virtio-net's offloads need a tap's vnet
 * header; QEMU's user network has none). This forwards each
 * 127.0.0.1:HOSTPORT of the host's namespace to GUESTADDR:GUESTPORT, from
 * within that namespace, as --forward does with the user network.
 *
 *   vm-fwd NETNS_PATH HOSTPORT:GUESTADDR:GUESTPORT...
 *
 * It binds every listener in its own namespace, prints "listening" on
 * stdout, then enters NETNS_PATH; each connection accepted is a child
 * that connects to the guest and moves bytes by splice(2), a process and
 * a pipe a direction, until both directions end. A connection to a guest
 * port nobody listens on is closed at once. Host CPU only: nothing here
 * runs in the guest. Ends on SIGTERM or with its parent; its children end
 * with it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_FWD	16

struct fwd {
	int lfd;
	struct sockaddr_in guest;
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/*
 * One direction, @from to @to through a pipe of its own, until @from ends
 * or either end fails; then @to gets no more (SHUT_WR) and the process
 * ends. Blocking: each direction is a process of its own, so that one
 * waiting for its reader never holds up the other.
 */
static void pump(int from, int to)
{
	int p[2];

	if (pipe(p))
		die("pipe");
	for (;;) {
		ssize_t n = splice(from, NULL, p[1], NULL, 1 << 16, SPLICE_F_MOVE);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		while (n > 0) {
			ssize_t m = splice(p[0], NULL, to, NULL, n, SPLICE_F_MOVE);

			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0)
				goto out;
			n -= m;
		}
	}
out:
	shutdown(to, SHUT_WR);
	_exit(0);
}

/* A connection accepted: to the guest, then a process a direction. */
static void serve(int cfd, const struct sockaddr_in *guest, pid_t parent)
{
	int gfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	/* Gone with the forwarder, even if it went before this ran. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(0);
	/* A peer that went away is an end, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	if (gfd < 0 || connect(gfd, (const struct sockaddr *)guest, sizeof(*guest)))
		_exit(0);	/* nobody listens there: the host sees the close */
	switch (fork()) {
	case 0:
		pump(gfd, cfd);
		break;
	case -1:
		die("vm-fwd: fork");
		break;
	}
	pump(cfd, gfd);
}

int main(int argc, char **argv)
{
	struct fwd fwd[MAX_FWD];
	struct pollfd p[MAX_FWD];
	int n = argc - 2, one = 1, ns;
	pid_t self = getpid();

	if (argc < 3 || n > MAX_FWD) {
		fprintf(stderr, "usage: vm-fwd NETNS_PATH HOSTPORT:GUESTADDR:GUESTPORT... (%d at most)\n",
			MAX_FWD);
		return 2;
	}
	/* Gone with tools/vm/run, however it ends. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	for (int i = 0; i < n; i++) {
		char addr[64];
		unsigned int hp, gp;
		struct sockaddr_in l = { .sin_family = AF_INET };

		if (sscanf(argv[i + 2], "%u:%63[0-9.]:%u", &hp, addr, &gp) != 3 ||
		    !hp || hp > 65535 || !gp || gp > 65535) {
			fprintf(stderr, "vm-fwd: bad forward %s\n", argv[i + 2]);
			return 2;
		}
		fwd[i].guest = (struct sockaddr_in){ .sin_family = AF_INET,
						     .sin_port = htons(gp) };
		if (inet_pton(AF_INET, addr, &fwd[i].guest.sin_addr) != 1) {
			fprintf(stderr, "vm-fwd: bad address %s\n", addr);
			return 2;
		}
		l.sin_port = htons(hp);
		l.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		/* Non-blocking: a connection gone before accept() holds up none. */
		fwd[i].lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fwd[i].lfd < 0)
			die("socket");
		setsockopt(fwd[i].lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fwd[i].lfd, (struct sockaddr *)&l, sizeof(l)) ||
		    listen(fwd[i].lfd, 64))
			die("vm-fwd: bind 127.0.0.1");
		p[i] = (struct pollfd){ .fd = fwd[i].lfd, .events = POLLIN };
	}
	ns = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (ns < 0 || setns(ns, CLONE_NEWNET))
		die("vm-fwd: setns");
	close(ns);
	signal(SIGCHLD, SIG_IGN);	/* no zombies */
	printf("listening\n");
	fflush(stdout);
	for (;;) {
		if (poll(p, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		for (int i = 0; i < n; i++) {
			int cfd;

			if (!p[i].revents)
				continue;
			cfd = accept4(fwd[i].lfd, NULL, NULL, SOCK_CLOEXEC);
			if (cfd < 0)
				continue;
			switch (fork()) {
			case 0:
				for (int j = 0; j < n; j++)
					close(fwd[j].lfd);
				serve(cfd, &fwd[i].guest, self);
				break;
			case -1:
				perror("vm-fwd: fork");
				break;
			}
			close(cfd);
		}
	}
}
