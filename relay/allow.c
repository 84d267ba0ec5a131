// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address allow-list (--allow CIDR): who may reach /dev/aca at all, and the
 * peer keys of --max-peer-conns (limits.c).
 *
 * Loopback is this machine's every user, each with the relay's privilege
 * once admitted (conn.c's set_client()), so it is admitted only by an entry
 * that names it: one inside 127.0.0.0/8, or ::1 (::ffff:127.0.0.0/104 is
 * read as 127.0.0.0/8). A wider entry (0.0.0.0/0, ::/0, 96.0.0.0/3) covers
 * the network hosts it says, never loopback: the operator who allows "all
 * networks" has not chosen to lend every local user CAP_PERFMON.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relay.h"

struct allow {
	struct allow *next;
	int family;
	unsigned int prefix;
	unsigned char addr[16];
	bool loopback;		/* inside loopback: may admit loopback peers */
};

static const unsigned char ip6_loopback[16] = { [15] = 1 };

/* Is @addr of @family (as peer_bytes() gives it) a loopback address? */
static bool loopback(int family, const unsigned char *addr)
{
	if (family == AF_INET)
		return addr[0] == 127;
	return family == AF_INET6 && !memcmp(addr, ip6_loopback, 16);
}

/*
 * An IPv4-mapped entry (::ffff:192.0.2.0/120) is the IPv4 one
 * (192.0.2.0/24): peers are matched so (peer_bytes()). One shorter than
 * /96 stays IPv6, and matches no IPv4 peer.
 */
static void entry_normalise(struct allow *a)
{
	static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (a->family != AF_INET6 || a->prefix < 96 ||
	    memcmp(a->addr, mapped, sizeof(mapped)))
		return;
	memmove(a->addr, a->addr + 12, 4);
	memset(a->addr + 4, 0, 12);
	a->family = AF_INET;
	a->prefix -= 96;
}

int allow_add(struct allow **list, const char *cidr)
{
	struct allow *a = calloc(1, sizeof(*a));
	char host[INET6_ADDRSTRLEN];
	const char *slash = strchr(cidr, '/');
	size_t hlen = slash ? (size_t)(slash - cidr) : strlen(cidr);
	unsigned int max;
	char *end;

	if (!a || hlen >= sizeof(host))
		goto bad;
	memcpy(host, cidr, hlen);
	host[hlen] = 0;
	if (inet_pton(AF_INET, host, a->addr) == 1)
		a->family = AF_INET;
	else if (inet_pton(AF_INET6, host, a->addr) == 1)
		a->family = AF_INET6;
	else
		goto bad;
	max = a->family == AF_INET ? 32 : 128;
	a->prefix = max;
	if (slash) {
		unsigned long v = strtoul(slash + 1, &end, 10);

		if (!slash[1] || *end || v > max)
			goto bad;
		a->prefix = v;
	}
	entry_normalise(a);
	/* Inside loopback: 127.0.0.0/8 or narrower, or ::1 itself. */
	a->loopback = a->family == AF_INET ? a->prefix >= 8 && a->addr[0] == 127 :
		      a->prefix == 128 && loopback(AF_INET6, a->addr);
	/* In the order given, for the start message. */
	while (*list)
		list = &(*list)->next;
	*list = a;
	return 0;
bad:
	free(a);
	return -1;
}

static bool prefix_equal(const unsigned char *x, const unsigned char *y,
			 unsigned int bits)
{
	unsigned int bytes = bits / 8, rest = bits % 8;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));

	if (memcmp(x, y, bytes))
		return false;
	return !rest || ((x[bytes] ^ y[bytes]) & mask) == 0;
}

/* Normalise IPv4-mapped IPv6 peers so "--allow 127.0.0.1" matches them. */
static int peer_bytes(const struct sockaddr *sa, unsigned char out[16])
{
	if (sa->sa_family == AF_INET) {
		memcpy(out, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		return AF_INET;
	}
	if (sa->sa_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;

		if (IN6_IS_ADDR_V4MAPPED(a)) {
			memcpy(out, &a->s6_addr[12], 4);
			return AF_INET;
		}
		memcpy(out, a, 16);
		return AF_INET6;
	}
	return -1;
}

bool allow_match(const struct allow *list, const struct sockaddr *sa)
{
	unsigned char addr[16];
	int family;
	bool loop;

	if (!list)
		return true;
	family = peer_bytes(sa, addr);
	loop = loopback(family, addr);
	for (; list; list = list->next)
		if (list->family == family && (!loop || list->loopback) &&
		    prefix_equal(list->addr, addr, list->prefix))
			return true;
	return false;
}

/* 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104: this machine, any user. */
bool addr_is_loopback(const struct sockaddr *sa)
{
	unsigned char addr[16];
	int family = peer_bytes(sa, addr);

	return loopback(family, addr);
}

/*
 * Loopback as one key (127.0.0.0, AF_INET): its users pick any source
 * address of it; IPv6 by its /64, the rest of it a host's to choose.
 */
void peer_key_addr(struct peer_key *k, const struct sockaddr *sa)
{
	memset(k, 0, sizeof(*k));
	k->family = peer_bytes(sa, k->addr);
	if (loopback(k->family, k->addr)) {
		memset(k->addr, 0, sizeof(k->addr));
		k->family = AF_INET;
		k->addr[0] = 127;
	} else if (k->family == AF_INET6) {
		memset(k->addr + 8, 0, 8);
	} else if (k->family != AF_INET) {
		memset(k->addr, 0, sizeof(k->addr));
		k->family = AF_UNSPEC;
	}
}

void peer_key_uid(struct peer_key *k, uid_t uid)
{
	memset(k, 0, sizeof(*k));
	k->family = AF_UNIX;
	k->uid = uid;
}

/*
 * "local uid 1000", "192.0.2.7", "2001:db8::/64", "loopback (127.0.0.0/8
 * and ::1)": whom a refusal of --max-peer-conns names.
 */
void peer_key_format(const struct peer_key *k, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (k->family == AF_UNIX) {
		snprintf(buf, len, "local uid %u", (unsigned int)k->uid);
		return;
	}
	if (k->family == AF_INET && k->addr[0] == 127) {
		snprintf(buf, len, "loopback (127.0.0.0/8 and ::1)");
		return;
	}
	if (k->family == AF_INET || k->family == AF_INET6)
		inet_ntop(k->family, k->addr, host, sizeof(host));
	snprintf(buf, len, k->family == AF_INET6 ? "%s/64" : "%s", host);
}

void allow_free(struct allow *list)
{
	while (list) {
		struct allow *next = list->next;

		free(list);
		list = next;
	}
}

/* "192.0.2.0/24, ::1/128": the list as the start message shows it. */
void allow_format(const struct allow *list, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN];
	size_t n = 0;

	buf[0] = 0;
	for (; list && n < len; list = list->next) {
		inet_ntop(list->family, list->addr, host, sizeof(host));
		n += snprintf(buf + n, len - n, "%s%s/%u", n ? ", " : "", host,
			      list->prefix);
	}
}

void addr_format(const struct sockaddr *sa, char *buf, size_t len)
{
	unsigned char addr[16];
	char host[INET6_ADDRSTRLEN] = "?";
	int family = peer_bytes(sa, addr);
	unsigned int port = 0;

	if (family > 0)
		inet_ntop(family, addr, host, sizeof(host));
	if (sa->sa_family == AF_INET)
		port = ntohs(((const struct sockaddr_in *)sa)->sin_port);
	else if (sa->sa_family == AF_INET6)
		port = ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	snprintf(buf, len, family == AF_INET6 ? "[%s]:%u" : "%s:%u", host, port);
}
