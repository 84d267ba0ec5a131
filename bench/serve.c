// SPDX-License-Identifier: GPL-2.0-only
/*
 * serve: make bench's way to stream a command's output off the VM, and its
 * echo. It listens on TCP PORT (all addresses: a port the host forwards
 * in), takes one connection, makes it the standard input and output of
 * COMMAND and executes it: COMMAND reads and writes the socket itself,
 * with no copy in between ("serve PORT cat" is an echo).
 *
 *   serve PORT COMMAND [ARG...]
 */
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int one = 1, l, c;
	long port;

	if (argc < 3 || (port = strtol(argv[1], NULL, 10)) < 1 || port > 65535) {
		fprintf(stderr, "usage: serve PORT COMMAND [ARG...]\n");
		return 2;
	}
	a.sin_port = htons((unsigned short)port);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1)) {
		perror("serve: listen");
		return 1;
	}
	c = accept(l, NULL, NULL);
	if (c < 0 || dup2(c, STDIN_FILENO) < 0 || dup2(c, STDOUT_FILENO) < 0) {
		perror("serve: accept");
		return 1;
	}
	close(c);
	close(l);
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
