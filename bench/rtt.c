// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtt: make bench's bare TCP round trip, to set aca-host ping's beside.
 * It connects to 127.0.0.1:PORT (a port forwarded to an echo in the VM),
 * sends 1000 messages of 32 bytes one at a time (a SEP command header and
 * its 8-byte answer are about that), reads each back, and prints the
 * smallest, median, 99th percentile and largest round trip in
 * microseconds, as aca-host ping does.
 *
 *   rtt PORT
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define COUNT	1000
#define SIZE	32

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	static double rtt[COUNT];
	char buf[SIZE] = { 0 };
	int one = 1, c;
	long port;

	if (argc != 2 || (port = strtol(argv[1], NULL, 10)) < 1 || port > 65535) {
		fprintf(stderr, "usage: rtt PORT\n");
		return 2;
	}
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a))) {
		perror("rtt: connect");
		return 1;
	}
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (int i = 0; i < COUNT; i++) {
		double t0 = now_us();
		size_t got = 0;

		if (write(c, buf, SIZE) != SIZE) {
			perror("rtt: write");
			return 1;
		}
		while (got < SIZE) {
			ssize_t r = read(c, buf + got, SIZE - got);

			if (r <= 0) {
				fprintf(stderr, "rtt: the echo ended after %d round trips\n", i);
				return 1;
			}
			got += (size_t)r;
		}
		rtt[i] = now_us() - t0;
	}
	close(c);
	qsort(rtt, COUNT, sizeof(rtt[0]), by_value);
	printf("%d echo round trips: min %.0f us, p50 %.0f us, p99 %.0f us, max %.0f us\n",
	       COUNT, rtt[0], rtt[COUNT / 2], rtt[COUNT * 99 / 100], rtt[COUNT - 1]);
	return 0;
}
