// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-relay: accept TCP connections for the SEP remote protocol and hand each
 * one to its own /dev/aca file. All protocol logic is in the kernel module.
 */
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "relay.h"
#include "../uapi/aca.h"

#define DEFAULT_PORT	"9321"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-relay [options]\n"
		"  -p, --port PORT     TCP port to listen on (default " DEFAULT_PORT ")\n"
		"  -b, --bind ADDR     listen on this address only (default: all)\n"
		"  -a, --allow CIDR    accept connections only from CIDR (repeatable)\n"
		"  -c, --cpu N         run the relay and its io_uring workers on CPU N\n"
		"  -d, --device PATH   device to open per connection (default " ACA_DEVICE_PATH ")\n"
		"  -v, --verbose       log every connection\n"
		"  -h, --help          this text\n");
}

static int listen_on(const char *bind_addr, const char *port)
{
	struct addrinfo hints = {
		.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
		/* No address: one dual-stack IPv6 socket serves both families. */
		.ai_family = bind_addr ? AF_UNSPEC : AF_INET6,
	};
	struct addrinfo *res, *ai;
	int fd = -1, one = 1, zero = 0, err;

	err = getaddrinfo(bind_addr, port, &hints, &res);
	if (err && !bind_addr) {
		hints.ai_family = AF_INET;
		err = getaddrinfo(bind_addr, port, &hints, &res);
	}
	if (err) {
		log_err("bad address %s port %s: %s", bind_addr ? bind_addr : "*",
			port, gai_strerror(err));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, SOMAXCONN))
			break;
		err = errno;
		close(fd);
		fd = -1;
		errno = err;
	}
	freeaddrinfo(res);
	if (fd < 0)
		log_err("cannot listen on %s port %s: %s",
			bind_addr ? bind_addr : "*", port, strerror(errno));
	return fd;
}

static int pin_to_cpu(struct relay *r, int cpu)
{
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		log_err("cannot pin to CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	err = io_uring_register_iowq_aff(&r->ring, sizeof(set), &set);
	if (err) {
		log_err("cannot pin io_uring workers to CPU %d: %s", cpu,
			strerror(-err));
		return -1;
	}
	return 0;
}

static void on_accept(struct relay *r, int res)
{
	char peer[64];

	if (res < 0) {
		/* EMFILE and friends: keep serving the connections we have. */
		log_err("accept: %s", strerror(-res));
	} else if (!allow_match(r->allow, (struct sockaddr *)&r->peer)) {
		addr_format((struct sockaddr *)&r->peer, peer, sizeof(peer));
		log_info("%s: refused, not in --allow", peer);
		close(res);
	} else {
		conn_open(r, res);
	}
	relay_submit_accept(r);
}

static void run(struct relay *r)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen;
	int err;

	relay_submit_accept(r);
	for (;;) {
		err = io_uring_submit_and_wait(&r->ring, 1);
		if (err < 0 && err != -EINTR) {
			log_err("io_uring: %s", strerror(-err));
			exit(1);
		}
		seen = 0;
		io_uring_for_each_cqe(&r->ring, head, cqe) {
			__u64 tag = io_uring_cqe_get_data64(cqe);

			seen++;
			if (tag == RELAY_TAG_ACCEPT)
				on_accept(r, cqe->res);
			else if (tag != RELAY_TAG_CANCEL)
				pump_complete(io_uring_cqe_get_data(cqe), cqe->res);
		}
		io_uring_cq_advance(&r->ring, seen);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "bind", required_argument, NULL, 'b' },
		{ "allow", required_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "device", required_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct relay r = { .device = ACA_DEVICE_PATH };
	const char *port = DEFAULT_PORT, *bind_addr = NULL;
	int opt, cpu = -1, err;

	while ((opt = getopt_long(argc, argv, "p:b:a:c:d:vh", opts, NULL)) != -1) {
		switch (opt) {
		case 'p': port = optarg; break;
		case 'b': bind_addr = optarg; break;
		case 'a':
			if (allow_add(&r.allow, optarg)) {
				log_err("bad --allow '%s' (want ADDR or ADDR/PREFIX)", optarg);
				return 2;
			}
			break;
		case 'c': cpu = atoi(optarg); break;
		case 'd': r.device = optarg; break;
		case 'v': r.verbose++; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	/* A vanished host must cost one connection, not the relay. */
	signal(SIGPIPE, SIG_IGN);

	err = io_uring_queue_init(256, &r.ring, 0);
	if (err) {
		log_err("io_uring_queue_init: %s", strerror(-err));
		return 1;
	}
	if (cpu >= 0 && pin_to_cpu(&r, cpu))
		return 1;
	r.listen_fd = listen_on(bind_addr, port);
	if (r.listen_fd < 0)
		return 1;
	log_info("listening on %s port %s, device %s",
		 bind_addr ? bind_addr : "*", port, r.device);
	run(&r);
	return 0;
}
