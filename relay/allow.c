// SPDX-License-Identifier: GPL-2.0-only
/* Address allow-list (--allow CIDR): who may reach /dev/aca at all. */
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
};

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

	if (!list)
		return true;
	family = peer_bytes(sa, addr);
	for (; list; list = list->next)
		if (list->family == family &&
		    prefix_equal(list->addr, addr, list->prefix))
			return true;
	return false;
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
