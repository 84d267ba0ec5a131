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
 * port nobody listens on is closed at once. At most MAX_CONNS connections
 * are forwarded at once: one more is accepted and closed at once (the host
 * sees the close), with a line on stderr when the limit is reached. Host
 * CPU only: nothing here runs in the guest. Ends on SIGTERM or with its
 * parent; its children end with it, each process with the one that forked
 * it (PR_SET_PDEATHSIG, which fork() clears, is set again in each), so none
 * outlives the forwarder and holds the VM's network namespace.
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FWD	16
/*
 * Connections at once, over all forwards: each is two processes, two
 * pipes and three sockets. A session of the test VM takes one connection
 * per vCPU and three more (tools/vm/run --smp), and a reconnecting host
 * a few more while its last ones end: 64 is a session of 32 vCPUs twice
 * over, and a bound on what a runaway test may fork.
 */
#define MAX_CONNS	64

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
 * or either end fails; then @to gets no more (SHUT_WR). Blocking: each
 * direction is a process of its own, so that one waiting for its reader
 * never holds up the other.
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
	close(p[0]);
	close(p[1]);
	shutdown(to, SHUT_WR);
}

/*
 * Gone with @parent, even if it went before this ran: the death signal is
 * set after fork(), which clears it, then the parent checked.
 */
static void die_with(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(0);
}

/*
 * A connection accepted: to the guest, then a process a direction. The
 * host's direction is this process, which ends after the guest's: a host
 * that closed its side may still be reading the guest's replies.
 */
static void serve(int cfd, const struct sockaddr_in *guest, pid_t parent)
{
	pid_t self = getpid(), down;
	int gfd;

	die_with(parent);
	/* A peer that went away is an end, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	gfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (gfd < 0 || connect(gfd, (const struct sockaddr *)guest, sizeof(*guest)))
		_exit(0);	/* nobody listens there: the host sees the close */
	down = fork();
	if (down < 0)
		die("vm-fwd: fork");
	if (!down) {
		die_with(self);
		pump(gfd, cfd);
		_exit(0);
	}
	pump(cfd, gfd);
	while (waitpid(down, NULL, 0) < 0 && errno == EINTR)
		;
	_exit(0);
}

/* SIGCHLD: only to end ppoll(), so that the children are counted again. */
static void on_child(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	struct fwd fwd[MAX_FWD];
	struct pollfd p[MAX_FWD];
	int n = argc - 2, one = 1, ns, live = 0;
	struct sigaction sa = { .sa_handler = on_child };
	sigset_t chld, unblocked;
	bool full = false;
	pid_t self = getpid(), pid;

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
	/*
	 * The connections are counted as their processes end: SIGCHLD is
	 * blocked but in ppoll(), so that none ends unseen between the count
	 * and the wait; the children get the defaults back.
	 */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &chld, &unblocked) ||
	    sigaction(SIGCHLD, &sa, NULL))
		die("vm-fwd: SIGCHLD");
	sigdelset(&unblocked, SIGCHLD);
	printf("listening\n");
	fflush(stdout);
	for (;;) {
		while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
			live--;
		if (full && live < MAX_CONNS) {
			fprintf(stderr, "vm-fwd: %d connections forwarded: accepting again\n",
				live);
			full = false;
		}
		if (ppoll(p, n, NULL, &unblocked) < 0) {
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
			if (live >= MAX_CONNS) {
				if (!full)
					fprintf(stderr, "vm-fwd: %d connections forwarded at once: closing new ones until one ends (a test that needs more: raise MAX_CONNS in tools/vm/fwd.c)\n",
						live);
				full = true;
				close(cfd);
				continue;
			}
			pid = fork();
			if (!pid) {
				sigprocmask(SIG_UNBLOCK, &chld, NULL);
				signal(SIGCHLD, SIG_DFL);
				for (int j = 0; j < n; j++)
					close(fwd[j].lfd);
				serve(cfd, &fwd[i].guest, self);
			}
			if (pid < 0)
				perror("vm-fwd: fork");
			else
				live++;
			close(cfd);
		}
	}
}
