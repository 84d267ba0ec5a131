// SPDX-License-Identifier: GPL-2.0-only
/*
 * sendfile: make bench's ceiling for moving bytes off the VM. It sends
 * FILE (on tmpfs) to its standard output, a socket (serve PORT sendfile
 * FILE), with sendfile(2), then prints "cpu_ns N" on standard error: the
 * CPU time it took, user and system.
 *
 *   sendfile FILE
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	struct stat st;
	off_t off = 0;
	ssize_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: sendfile FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[1]);
		return 1;
	}
	while (off < st.st_size) {
		n = sendfile(STDOUT_FILENO, fd, &off, (size_t)(st.st_size - off));
		if (n <= 0) {
			perror("sendfile");
			return 1;
		}
	}
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "cpu_ns %lld\n",
		(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
		(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL);
	return 0;
}
