// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink: make bench's receiving end of a stream on the host. It connects to
 * 127.0.0.1:PORT (a port forwarded into the VM), reads to end of file into
 * FILE, and prints "bytes B seconds S": from the first byte to end of file,
 * so the sender's start-up is not counted.
 *
 *   sink PORT FILE
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	static char buf[1 << 16];
	long long bytes = 0;
	int c, out;
	long port;
	double t0 = 0;
	ssize_t r;

	if (argc != 3 || (port = strtol(argv[1], NULL, 10)) < 1 || port > 65535) {
		fprintf(stderr, "usage: sink PORT FILE\n");
		return 2;
	}
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a))) {
		perror("sink: connect");
		return 1;
	}
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		perror(argv[2]);
		return 1;
	}
	while ((r = read(c, buf, sizeof(buf))) > 0) {
		if (!bytes)
			t0 = now();
		bytes += r;
		if (write(out, buf, (size_t)r) != r) {
			perror(argv[2]);
			return 1;
		}
	}
	printf("bytes %lld seconds %.6f\n", bytes, bytes ? now() - t0 : 0);
	return r < 0;
}
