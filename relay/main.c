// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-relay: accept connections for the SEP remote protocol (TCP, and a
 * local socket) and hand each one to its own /dev/aca file, telling the
 * module who connected. All protocol logic is in the kernel module.
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
#include <sys/stat.h>
#include <unistd.h>

#include "relay.h"
#include "../uapi/aca.h"

#ifndef ACA_VERSION
#error "ACA_VERSION must be defined (the Makefile takes it from driver/aca.h)"
#endif

#define DEFAULT_PORT	"9321"
#define DEFAULT_UNIX	"/run/aca-relay/relay.sock"

struct options {
	const char *bind_addr;		/* NULL: loopback, or all with --allow */
	char port[8];
	int cpu;			/* -1: not pinned */
	const char *unix_path;		/* "": no local socket */
	bool unix_set;			/* --unix given: failing to listen is fatal */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-relay [options]\n"
		"  -p, --port PORT     TCP port to listen on, 1-65535 (default " DEFAULT_PORT ")\n"
		"  -b, --bind ADDR     listen on this numeric IPv4/IPv6 address only\n"
		"  -a, --allow CIDR    accept connections only from CIDR (repeatable); without\n"
		"                      --bind, listen on all addresses. Loopback only by a\n"
		"                      CIDR inside 127.0.0.0/8, or ::1: not by 0.0.0.0/0\n"
		"  -c, --cpu N         run the relay on CPU N\n"
		"  -d, --device PATH   device to open per connection (default " ACA_DEVICE_PATH ")\n"
		"  -u, --unix PATH     also listen on this local socket, mode 0660 and the\n"
		"                      group of the device (default " DEFAULT_UNIX ");\n"
		"                      '' for none. Its users get their own privilege;\n"
		"                      forward it with ssh -L 9321:PATH\n"
		"      --max-conns N   connections open at once, at most (default: two\n"
		"                      sessions of this machine, 2 x (CPUs + 3) + 8)\n"
		"      --max-peer-conns N\n"
		"                      of them from one address (IPv6: one /64; all of\n"
		"                      loopback is one) or one local user, at most\n"
		"                      (default: a session and 8, CPUs + 3 + 8)\n"
		"      --hello-timeout SEC\n"
		"                      close a connection the device has not answered by\n"
		"                      then, i.e. that sent no whole hello (default 10)\n"
		"      --user-timeout SEC\n"
		"                      TCP_USER_TIMEOUT: close a connection whose data stays\n"
		"                      unacknowledged that long (default 120)\n"
		"      --keepalive SEC probe a host that has sent nothing for SEC/2 s, then\n"
		"                      every SEC/12 s; it is closed once silent for\n"
		"                      --user-timeout, but not before the second probe: after\n"
		"                      about SEC when the two are equal (default 120)\n"
		"      --eof-grace SEC close a connection this long after the device ended\n"
		"                      it, if the host has not closed it (default 10)\n"
		"  -v, --verbose       log every connection\n"
		"  -V, --version       print the version and exit\n"
		"  -h, --help          this text\n"
		"Without --bind or --allow it listens on 127.0.0.1 and ::1 only.\n"
		"TCP peers are unprivileged unless --allow admits them (aca-relay(8)).\n");
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

/*
 * --max-conns, --max-peer-conns and the timeouts: whole numbers, seconds
 * for the timeouts.
 * --keepalive's SEC/2 is TCP_KEEPIDLE, at most 32767 in Linux.
 */
static int parse_limit(struct relay *r, int opt, const char *arg)
{
	static const struct {
		int opt;
		const char *name;
		unsigned long min, max, scale;
	} limits[] = {
		{ 'M', "--max-conns", 1, 1000000, 1 },
		{ 'P', "--max-peer-conns", 1, 1000000, 1 },
		{ 'H', "--hello-timeout", 1, 3600, 1000 },
		{ 'U', "--user-timeout", 1, 86400, 1000 },
		{ 'K', "--keepalive", 1, 65535, 1 },
		{ 'G', "--eof-grace", 0, 3600, 1000 },
	};
	unsigned int *field[] = {
		&r->lim.max_conns, &r->lim.max_peer_conns,
		&r->lim.hello_timeout_ms, &r->lim.user_timeout_ms,
		&r->lim.keepalive_s, &r->lim.eof_grace_ms,
	};
	unsigned long v;

	for (unsigned int i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		if (limits[i].opt != opt)
			continue;
		if (!parse_num(arg, limits[i].min, limits[i].max, &v)) {
			log_err("bad %s '%s': want a whole number from %lu to %lu",
				limits[i].name, arg, limits[i].min, limits[i].max);
			return -1;
		}
		*field[i] = (unsigned int)(v * limits[i].scale);
		return 0;
	}
	return -1;
}

static int parse_opt(struct relay *r, struct options *o, int opt)
{
	switch (opt) {
	case 'M':
	case 'P':
	case 'H':
	case 'U':
	case 'K':
	case 'G':
		return parse_limit(r, opt, optarg);
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
	case 'u':
		o->unix_path = optarg;
		o->unix_set = true;
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
		{ "unix", required_argument, NULL, 'u' },
		{ "max-conns", required_argument, NULL, 'M' },
		{ "max-peer-conns", required_argument, NULL, 'P' },
		{ "hello-timeout", required_argument, NULL, 'H' },
		{ "user-timeout", required_argument, NULL, 'U' },
		{ "keepalive", required_argument, NULL, 'K' },
		{ "eof-grace", required_argument, NULL, 'G' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "p:b:a:c:d:u:vVh", opts, NULL)) != -1) {
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

/* One listening socket on @ai: its fd, or -1 with errno. */
static int listen_one(const struct addrinfo *ai, bool v6only)
{
	int fd, one = 1, v6 = v6only, err;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6, sizeof(v6));
	if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, SOMAXCONN))
		return fd;
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

/*
 * --bind ADDR: there; no address (--allow without --bind): one dual-stack
 * IPv6 socket serves both families on every address, or an IPv4 one where
 * the kernel has no IPv6.
 */
static int listen_on(const char *bind_addr, const char *port)
{
	struct addrinfo hints = {
		.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
		.ai_family = bind_addr ? AF_UNSPEC : AF_INET6,
	};
	struct addrinfo *res, *ai;
	int fd = -1, err;

	for (;;) {
		err = getaddrinfo(bind_addr, port, &hints, &res);
		if (err && hints.ai_family == AF_INET6) {
			hints.ai_family = AF_INET;
			continue;
		}
		if (err) {
			log_err("bad address %s port %s: %s",
				bind_addr ? bind_addr : "*", port, gai_strerror(err));
			return -1;
		}
		for (ai = res; ai && fd < 0; ai = ai->ai_next)
			fd = listen_one(ai, false);
		err = errno;
		freeaddrinfo(res);
		/* No IPv6 in this kernel: IPv4 alone. */
		if (fd >= 0 || err != EAFNOSUPPORT || hints.ai_family != AF_INET6)
			break;
		hints.ai_family = AF_INET;
	}
	if (fd < 0)
		log_err("cannot listen on %s port %s: %s",
			bind_addr ? bind_addr : "*", port, strerror(err));
	return fd;
}

/*
 * Neither --bind nor --allow: 127.0.0.1 and ::1, one socket each, so only
 * this machine reaches the device. A loopback this kernel does not have
 * (IPv6 disabled) is left out; any other error is fatal. @where gets
 * "127.0.0.1 and ::1" (or the one of them that listens).
 */
static int listen_loopback(struct relay *r, const char *port, char *where,
			   size_t len)
{
	static const char *const loopback[] = { "127.0.0.1", "::1" };
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *res;
	size_t n = 0;
	int fd, err;

	where[0] = 0;
	for (unsigned int i = 0; i < 2; i++) {
		err = getaddrinfo(loopback[i], port, &hints, &res);
		if (err) {
			log_err("bad address %s port %s: %s", loopback[i], port,
				gai_strerror(err));
			return -1;
		}
		fd = listen_one(res, true);
		err = errno;
		freeaddrinfo(res);
		if (fd < 0 && (err == EAFNOSUPPORT || err == EADDRNOTAVAIL)) {
			log_info("not listening on %s: %s", loopback[i], strerror(err));
			continue;
		}
		if (fd < 0) {
			log_err("cannot listen on %s port %s: %s", loopback[i],
				port, strerror(err));
			return -1;
		}
		r->listen[r->nlisten++].fd = fd;
		n += snprintf(where + n, n < len ? len - n : 0, "%s%s",
			      n ? " and " : "", loopback[i]);
	}
	if (!r->nlisten) {
		log_err("cannot listen on 127.0.0.1 or ::1 port %s: no loopback address",
			port);
		return -1;
	}
	return 0;
}

/*
 * The local socket (local.c), in the group of the device: by default at
 * DEFAULT_UNIX if it can be made there (the relay run by hand, as a user
 * who cannot write /run, goes on with TCP alone and says so); with --unix
 * PATH, there or not at all.
 */
static int listen_local(struct relay *r, const struct options *o)
{
	struct listener *l = &r->listen[r->nlisten];
	struct stat st;
	int fd;

	if (!*o->unix_path)
		return 0;
	if (stat(r->device, &st)) {
		log_err("cannot stat %s: %s", r->device, strerror(errno));
		return -1;
	}
	fd = local_listen(o->unix_path, st.st_gid, !o->unix_set);
	if (fd < 0 && !o->unix_set) {
		log_info("not listening on a local socket (give --unix PATH, or --unix '' to say so)");
		return 0;
	}
	if (fd < 0)
		return -1;
	l->fd = fd;
	l->local = true;
	r->nlisten++;
	log_info("listening on %s (mode 0660, group %u: each user with their own privilege)",
		 o->unix_path, (unsigned int)st.st_gid);
	return 0;
}

/*
 * Closed by default: loopback only unless --bind or --allow says which
 * other hosts to serve. Logs where, with the "listening" that scripts wait
 * for.
 */
static int listen_all(struct relay *r, const struct options *o)
{
	char where[64], allowed[512], how[600];
	int fd;

	if (!o->bind_addr && !r->allow) {
		if (listen_loopback(r, o->port, where, sizeof(where)))
			return -1;
		log_info("listening on %s port %s (loopback only: serve other hosts with --allow CIDR or --bind ADDR), device %s; its peers are unprivileged unless --allow admits them",
			 where, o->port, r->device);
		return listen_local(r, o);
	}
	fd = listen_on(o->bind_addr, o->port);
	if (fd < 0)
		return -1;
	r->listen[r->nlisten++].fd = fd;
	how[0] = 0;
	if (r->allow) {
		allow_format(r->allow, allowed, sizeof(allowed));
		snprintf(how, sizeof(how), " (only from %s)", allowed);
	}
	log_info("listening on %s port %s%s, device %s; %s",
		 o->bind_addr ? o->bind_addr : "*", o->port, how, r->device,
		 r->allow ? "its peers are admitted (--allow): the relay's privilege" :
		 "its peers are unprivileged: none is admitted by --allow");
	return listen_local(r, o);
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
	/* None should ever run (conn.c); one that did would stay there too. */
	err = io_uring_register_iowq_aff(&r->ring, sizeof(set), &set);
	if (err) {
		log_err("cannot pin io_uring workers to CPU %d: %s", cpu,
			strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * The relay's one thread is the ring's only submitter, and completions
 * are worked on only when it asks for them (io_uring_enter() waiting in
 * run()), never by interrupting it: IORING_SETUP_SINGLE_ISSUER and
 * IORING_SETUP_DEFER_TASKRUN, both in Linux 6.1. A kernel without them
 * (EINVAL) gets the defaults, and one line says so.
 */
static int ring_init(struct relay *r)
{
	const unsigned int lean = IORING_SETUP_SINGLE_ISSUER |
				  IORING_SETUP_DEFER_TASKRUN;
	struct io_uring_params p = {
		.flags = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP | lean,
		.cq_entries = relay_cq_entries(r),
	};
	int err;

	err = io_uring_queue_init_params(256, &r->ring, &p);
	if (err == -EINVAL) {
		p = (struct io_uring_params){
			.flags = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP,
			.cq_entries = relay_cq_entries(r),
		};
		err = io_uring_queue_init_params(256, &r->ring, &p);
		if (!err)
			log_info("io_uring: no IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN in this kernel (Linux 6.1 has them): completions are worked on at any system call");
	}
	if (err) {
		log_err("io_uring_queue_init: %s", strerror(-err));
		return -1;
	}
	return 0;
}

static void on_accept(struct relay *r, unsigned int i, int res)
{
	const struct sockaddr *sa = (const struct sockaddr *)&r->listen[i].peer;
	struct peer_key key;
	char peer[64];

	if (res < 0) {
		/* EMFILE and friends: keep serving the connections we have. */
		limits_accept_failed(r, i, -res);
		return;
	}
	limits_accepted(r, i);
	if (r->listen[i].local) {
		uid_t uid;

		local_peer(res, peer, sizeof(peer), &uid);
		peer_key_uid(&key, uid);
		if (!limits_admit(r, &key, peer))
			close(res);
		else
			conn_open(r, res, NULL, peer, &key, false);
		relay_submit_accept(r, i);
		return;
	}
	addr_format(sa, peer, sizeof(peer));
	peer_key_addr(&key, sa);
	if (!allow_match(r->allow, sa)) {
		/* Loopback: only an entry inside it admits it (allow.c). */
		log_info("%s: refused, not in --allow%s", peer,
			 addr_is_loopback(sa) ?
			 " (loopback only by an entry inside it, --allow 127.0.0.1 or ::1, which gives every local user the relay's privilege; local users: the local socket, --unix)" :
			 "");
		close(res);
	} else if (!limits_admit(r, &key, peer)) {
		close(res);
	} else {
		/* Matched a --allow: the operator admitted it. */
		conn_open(r, res, sa, NULL, &key, r->allow != NULL);
	}
	relay_submit_accept(r, i);
}

static void run(struct relay *r)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen;
	int err;

	for (unsigned int i = 0; i < r->nlisten; i++)
		relay_submit_accept(r, i);
	limits_arm_tick(r);
	for (;;) {
		err = io_uring_submit_and_wait(&r->ring, 1);
		/* Transient (a signal, no memory for now): reap, go on. */
		if (err < 0 && err != -EINTR && err != -EAGAIN && err != -EBUSY &&
		    err != -ETIME) {
			log_err("io_uring: %s", strerror(-err));
			exit(1);
		}
		seen = 0;
		io_uring_for_each_cqe(&r->ring, head, cqe) {
			__u64 tag = io_uring_cqe_get_data64(cqe);

			seen++;
			if (tag >= RELAY_TAG_ACCEPT && tag < RELAY_TAG_ACCEPT + r->nlisten)
				on_accept(r, (unsigned int)(tag - RELAY_TAG_ACCEPT), cqe->res);
			else if (tag >= RELAY_TAG_RETRY && tag < RELAY_TAG_RETRY + r->nlisten)
				relay_submit_accept(r, (unsigned int)(tag - RELAY_TAG_RETRY));
			else if (tag == RELAY_TAG_TICK)
				conn_sweep(r);
			else if (tag == RELAY_TAG_PARK)
				conn_park_timeout(r);
			else if (tag & RELAY_PUMP_RESUME)
				pump_resumed((struct pump *)(uintptr_t)(tag & ~(__u64)RELAY_PUMP_RESUME));
			else if (tag != RELAY_TAG_CANCEL)
				pump_polled((struct pump *)(uintptr_t)(tag & ~(__u64)RELAY_POLL_OUT),
					    tag & RELAY_POLL_OUT, cqe->res, cqe->flags);
		}
		io_uring_cq_advance(&r->ring, seen);
		/* What parked connections waited for may have ended. */
		if (r->park_check)
			conn_unpark(r);
	}
}

int main(int argc, char **argv)
{
	struct relay r = { .device = ACA_DEVICE_PATH };
	struct options o = {
		.port = DEFAULT_PORT, .cpu = -1, .unix_path = DEFAULT_UNIX,
	};
	int err;

	limits_default(&r);
	err = parse_args(&r, &o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	/* Fail now, not at the first host: no module, no access, no aca. */
	if (dev_check(r.device))
		return 1;
	if (limits_apply(&r))
		return 1;
	/* A vanished host must cost one connection, not the relay. */
	signal(SIGPIPE, SIG_IGN);

	if (ring_init(&r))
		return 1;
	if (o.cpu >= 0 && pin_to_cpu(&r, o.cpu))
		return 1;
	if (listen_all(&r, &o))
		return 1;
	run(&r);
	return 0;
}
