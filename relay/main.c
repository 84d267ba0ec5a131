// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-relay: accept TCP connections for the SEP remote protocol and hand each
 * one to its own /dev/aca file. All protocol logic is in the kernel module.
 */
#include <arpa/inet.h>
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

#ifndef ACA_VERSION
#error "ACA_VERSION must be defined (the Makefile takes it from driver/aca.h)"
#endif

#define DEFAULT_PORT	"9321"

struct options {
	const char *bind_addr;		/* NULL: all addresses */
	char port[8];
	int cpu;			/* -1: not pinned */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-relay [options]\n"
		"  -p, --port PORT     TCP port to listen on, 1-65535 (default " DEFAULT_PORT ")\n"
		"  -b, --bind ADDR     listen on this numeric IPv4/IPv6 address only (default: all)\n"
		"  -a, --allow CIDR    accept connections only from CIDR (repeatable)\n"
		"  -c, --cpu N         run the relay and its io_uring workers on CPU N\n"
		"  -d, --device PATH   device to open per connection (default " ACA_DEVICE_PATH ")\n"
		"  -v, --verbose       log every connection\n"
		"  -V, --version       print the version and exit\n"
		"  -h, --help          this text\n");
}

/* A decimal number in [min, max] and nothing else: no sign, space or suffix. */
static bool parse_num(const char *s, unsigned long min, unsigned long max,
		      unsigned long *out)
{
	unsigned long v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > max)
			return false;
	}
	if (v < min)
		return false;
	*out = v;
	return true;
}

static int parse_port(struct options *o, const char *arg)
{
	unsigned long port;

	if (!parse_num(arg, 1, 65535, &port)) {
		log_err("bad --port '%s': want a decimal number from 1 to 65535", arg);
		return -1;
	}
	snprintf(o->port, sizeof(o->port), "%lu", port);
	return 0;
}

/* "0-3,6": the CPUs of @set, for messages. */
static void cpus_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t n = 0;
	int lo, hi;

	buf[0] = 0;
	for (lo = 0; lo < CPU_SETSIZE && n < len; lo = hi + 1) {
		hi = lo;
		if (!CPU_ISSET(lo, set))
			continue;
		while (hi + 1 < CPU_SETSIZE && CPU_ISSET(hi + 1, set))
			hi++;
		n += snprintf(buf + n, len - n, lo == hi ? "%s%d" : "%s%d-%d",
			      n ? "," : "", lo, hi);
	}
}

/* The CPUs this process may run on are the online ones it is allowed. */
static int parse_cpu(struct options *o, const char *arg)
{
	unsigned long cpu;
	cpu_set_t set;
	char cpus[256];

	if (sched_getaffinity(0, sizeof(set), &set)) {
		log_err("cannot check --cpu '%s': sched_getaffinity: %s", arg,
			strerror(errno));
		return -1;
	}
	cpus_format(&set, cpus, sizeof(cpus));
	if (!parse_num(arg, 0, 1UL << 20, &cpu)) {
		log_err("bad --cpu '%s': want a CPU number (online here: %s)", arg, cpus);
		return -1;
	}
	if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &set)) {
		log_err("bad --cpu '%s': CPU %lu is not online (or not allowed to this process); online here: %s",
			arg, cpu, cpus);
		return -1;
	}
	o->cpu = (int)cpu;
	return 0;
}

/*
 * Names are not resolved: the relay listens where it is told, exactly.
 * IPv4 in dotted quads only (not inet_aton's "1.2.3"); IPv6 may have a scope.
 */
static int parse_bind(struct options *o, const char *arg)
{
	struct addrinfo hints = {
		.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_family = AF_INET6,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *res;
	struct in_addr in;

	if (inet_pton(AF_INET, arg, &in) == 1) {
		o->bind_addr = arg;
		return 0;
	}
	if (!strchr(arg, ':') || getaddrinfo(arg, DEFAULT_PORT, &hints, &res)) {
		log_err("bad --bind '%s': a numeric IPv4 or IPv6 address is required", arg);
		return -1;
	}
	freeaddrinfo(res);
	o->bind_addr = arg;
	return 0;
}

static int parse_opt(struct relay *r, struct options *o, int opt)
{
	switch (opt) {
	case 'p':
		return parse_port(o, optarg);
	case 'b':
		return parse_bind(o, optarg);
	case 'a':
		if (allow_add(&r->allow, optarg)) {
			log_err("bad --allow '%s' (want ADDR or ADDR/PREFIX)", optarg);
			return -1;
		}
		return 0;
	case 'c':
		return parse_cpu(o, optarg);
	case 'd':
		if (!*optarg) {
			log_err("bad --device '': want a path");
			return -1;
		}
		r->device = optarg;
		return 0;
	case 'v':
		r->verbose++;
		return 0;
	default:
		usage(stderr);
		return -1;
	}
}

/* 0: serve; 1: done (--help, --version), exit 0; -1: usage error, exit 2. */
static int parse_args(struct relay *r, struct options *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "bind", required_argument, NULL, 'b' },
		{ "allow", required_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "device", required_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "p:b:a:c:d:vVh", opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return 1;
		}
		if (opt == 'V') {
			printf("aca-relay %s\n", ACA_VERSION);
			return 1;
		}
		if (parse_opt(r, o, opt))
			return -1;
	}
	if (optind != argc) {
		log_err("unexpected argument '%s'", argv[optind]);
		usage(stderr);
		return -1;
	}
	return 0;
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
	struct relay r = { .device = ACA_DEVICE_PATH };
	struct options o = { .port = DEFAULT_PORT, .cpu = -1 };
	int err;

	err = parse_args(&r, &o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	/* Fail now, not at the first host: no module, no access, no aca. */
	if (dev_check(r.device))
		return 1;
	/* A vanished host must cost one connection, not the relay. */
	signal(SIGPIPE, SIG_IGN);

	err = io_uring_queue_init(256, &r.ring, 0);
	if (err) {
		log_err("io_uring_queue_init: %s", strerror(-err));
		return 1;
	}
	if (o.cpu >= 0 && pin_to_cpu(&r, o.cpu))
		return 1;
	r.listen_fd = listen_on(o.bind_addr, o.port);
	if (r.listen_fd < 0)
		return 1;
	log_info("listening on %s port %s, device %s",
		 o.bind_addr ? o.bind_addr : "*", o.port, r.device);
	run(&r);
	return 0;
}
