// SPDX-License-Identifier: GPL-2.0-only
/*
 * The relay's --allow list (relay/allow.c) without a VM: a loopback peer
 * (127.0.0.0/8, ::1, ::ffff:127.0.0.0/104) is admitted only by an entry
 * inside loopback, never by a wider one such as 0.0.0.0/0, which would
 * lend every local user the relay's CAP_PERFMON; network peers match as
 * before. And the peer keys of --max-peer-conns: loopback is one peer, an
 * IPv6 host its /64, a local user its uid.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "kselftest_harness.h"
#include "../../relay/relay.h"

/* @text as a peer's address, IPv4 or IPv6 (an IPv4-mapped one too). */
static const struct sockaddr *peer(const char *text)
{
	static struct sockaddr_storage ss[8];
	static unsigned int next;
	struct sockaddr_storage *s = &ss[next++ % 8];
	struct sockaddr_in *in = (struct sockaddr_in *)s;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)s;

	memset(s, 0, sizeof(*s));
	if (inet_pton(AF_INET, text, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons(40000);
	} else if (inet_pton(AF_INET6, text, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(40000);
	}
	return (const struct sockaddr *)s;
}

/* Does a list of @cidrs (NULL-terminated) let @addr connect? */
static int admits(const char *const *cidrs, const char *addr)
{
	struct allow *list = NULL;
	bool ok;

	for (; *cidrs; cidrs++)
		if (allow_add(&list, *cidrs))
			return -1;
	ok = allow_match(list, peer(addr));
	allow_free(list);
	return ok;
}

#define LIST(...)	((const char *const[]){ __VA_ARGS__, NULL })

static const char *const loopback_peers[] = {
	"127.0.0.1", "127.0.0.2", "127.255.255.254", "::1", "::ffff:127.0.0.1",
};

TEST(wide_entries_do_not_admit_loopback)
{
	const char *const *wide[] = {
		LIST("0.0.0.0/0"), LIST("::/0"), LIST("0.0.0.0/0", "::/0"),
		LIST("96.0.0.0/3"), LIST("126.0.0.0/7"), LIST("::/127"),
		LIST("::ffff:0.0.0.0/96"),
	};

	/* Braces: EXPECT_*() TH_LOG() is more than one statement. */
	for (unsigned int i = 0; i < ARRAY_SIZE(wide); i++) {
		for (unsigned int j = 0; j < ARRAY_SIZE(loopback_peers); j++) {
			EXPECT_EQ(0, admits(wide[i], loopback_peers[j]))
				TH_LOG("--allow %s admits %s", wide[i][0],
				       loopback_peers[j]);
		}
	}
}

TEST(wide_entries_still_admit_network_peers)
{
	EXPECT_EQ(1, admits(LIST("0.0.0.0/0"), "192.0.2.7"));
	EXPECT_EQ(1, admits(LIST("0.0.0.0/0"), "::ffff:192.0.2.7"));
	EXPECT_EQ(1, admits(LIST("0.0.0.0/0"), "128.0.0.1"));
	EXPECT_EQ(1, admits(LIST("0.0.0.0/0"), "126.255.255.255"));
	EXPECT_EQ(1, admits(LIST("96.0.0.0/3"), "100.64.0.1"));
	EXPECT_EQ(1, admits(LIST("::/0"), "2001:db8::1"));
	EXPECT_EQ(1, admits(LIST("::/0"), "::2"));
	/* As before: an IPv6 entry matches no IPv4 peer, nor the reverse. */
	EXPECT_EQ(0, admits(LIST("::/0"), "192.0.2.7"));
	EXPECT_EQ(0, admits(LIST("0.0.0.0/0"), "2001:db8::1"));
	EXPECT_EQ(0, admits(LIST("192.0.2.0/24"), "198.51.100.1"));
}

TEST(loopback_entries_admit_loopback)
{
	for (unsigned int j = 0; j < ARRAY_SIZE(loopback_peers); j++) {
		const char *p = loopback_peers[j];
		bool v6 = !strcmp(p, "::1");

		EXPECT_EQ(!v6, admits(LIST("127.0.0.0/8"), p)) TH_LOG("%s", p);
		EXPECT_EQ(!v6, admits(LIST("::ffff:127.0.0.0/104"), p)) TH_LOG("%s", p);
		EXPECT_EQ(v6, admits(LIST("::1"), p)) TH_LOG("%s", p);
		EXPECT_EQ(v6, admits(LIST("::1/128"), p)) TH_LOG("%s", p);
		/* tools/vm/run's, beside a wide one. */
		EXPECT_EQ(1, admits(LIST("0.0.0.0/0", "127.0.0.0/8", "::1"), p));
	}
	/* A narrower entry admits what it says, no more. */
	EXPECT_EQ(1, admits(LIST("127.0.0.1"), "127.0.0.1"));
	EXPECT_EQ(1, admits(LIST("127.0.0.1/32"), "::ffff:127.0.0.1"));
	EXPECT_EQ(0, admits(LIST("127.0.0.1"), "127.0.0.2"));
	EXPECT_EQ(1, admits(LIST("127.0.0.0/16"), "127.0.9.9"));
	EXPECT_EQ(0, admits(LIST("127.0.0.0/16"), "127.1.0.1"));
	/* An entry inside loopback admits no network peer either. */
	EXPECT_EQ(0, admits(LIST("127.0.0.0/8", "::1"), "192.0.2.7"));
}

TEST(no_list_lets_everyone_connect)
{
	/* Unadmitted (conn_open()'s admitted is r->allow != NULL). */
	EXPECT_TRUE(allow_match(NULL, peer("127.0.0.1")));
	EXPECT_TRUE(allow_match(NULL, peer("::1")));
	EXPECT_TRUE(allow_match(NULL, peer("192.0.2.7")));
}

TEST(ipv4_mapped_entries_read_as_ipv4)
{
	struct allow *list = NULL;
	char text[128];

	ASSERT_EQ(0, allow_add(&list, "::ffff:192.0.2.0/120"));
	ASSERT_EQ(0, allow_add(&list, "::ffff:127.0.0.0/104"));
	ASSERT_EQ(0, allow_add(&list, "::ffff:0.0.0.0/96"));
	allow_format(list, text, sizeof(text));
	EXPECT_STREQ("192.0.2.0/24, 127.0.0.0/8, 0.0.0.0/0", text);
	EXPECT_TRUE(allow_match(list, peer("192.0.2.7")));
	EXPECT_TRUE(allow_match(list, peer("::ffff:192.0.2.7")));
	EXPECT_TRUE(allow_match(list, peer("127.0.0.1")));
	EXPECT_TRUE(allow_match(list, peer("198.51.100.1")));
	EXPECT_FALSE(allow_match(list, peer("::1")));
	allow_free(list);
	EXPECT_EQ(-1, allow_add(&list, "::ffff:127.0.0.0/129"));
	EXPECT_EQ(-1, allow_add(&list, "127.0.0.0/33"));
}

TEST(loopback_addresses)
{
	for (unsigned int j = 0; j < ARRAY_SIZE(loopback_peers); j++) {
		EXPECT_TRUE(addr_is_loopback(peer(loopback_peers[j])))
			TH_LOG("%s", loopback_peers[j]);
	}
	EXPECT_FALSE(addr_is_loopback(peer("128.0.0.1")));
	EXPECT_FALSE(addr_is_loopback(peer("126.255.255.255")));
	EXPECT_FALSE(addr_is_loopback(peer("::2")));
	EXPECT_FALSE(addr_is_loopback(peer("::")));
	EXPECT_FALSE(addr_is_loopback(peer("::127.0.0.1")));
	EXPECT_FALSE(addr_is_loopback(peer("192.0.2.7")));
}

static bool same_key(const char *a, const char *b)
{
	struct peer_key ka, kb;

	peer_key_addr(&ka, peer(a));
	peer_key_addr(&kb, peer(b));
	return !memcmp(&ka, &kb, sizeof(ka));
}

static const char *key_text(const struct peer_key *k)
{
	static char buf[64];

	peer_key_format(k, buf, sizeof(buf));
	return buf;
}

TEST(peer_keys)
{
	struct peer_key k, u0, u1000;

	/* Any local user may pick any loopback source: one peer. */
	EXPECT_TRUE(same_key("127.0.0.1", "127.0.0.2"));
	EXPECT_TRUE(same_key("127.0.0.1", "127.200.1.1"));
	EXPECT_TRUE(same_key("127.0.0.1", "::1"));
	EXPECT_TRUE(same_key("::ffff:127.0.0.1", "::1"));
	/* IPv4: the address. */
	EXPECT_TRUE(same_key("192.0.2.7", "::ffff:192.0.2.7"));
	EXPECT_FALSE(same_key("192.0.2.7", "192.0.2.8"));
	EXPECT_FALSE(same_key("192.0.2.7", "127.0.0.1"));
	/* IPv6: its /64. */
	EXPECT_TRUE(same_key("2001:db8:0:1::1", "2001:db8:0:1:ffff:ffff:ffff:ffff"));
	EXPECT_FALSE(same_key("2001:db8:0:1::1", "2001:db8:0:2::1"));
	EXPECT_FALSE(same_key("::2", "::1"));

	peer_key_addr(&k, peer("::1"));
	EXPECT_STREQ("loopback (127.0.0.0/8 and ::1)", key_text(&k));
	peer_key_addr(&k, peer("::ffff:192.0.2.7"));
	EXPECT_STREQ("192.0.2.7", key_text(&k));
	peer_key_addr(&k, peer("2001:db8:0:1::1"));
	EXPECT_STREQ("2001:db8:0:1::/64", key_text(&k));

	/* Local users by uid, none of them a TCP peer. */
	peer_key_uid(&u0, 0);
	peer_key_uid(&u1000, 1000);
	EXPECT_NE(0, memcmp(&u0, &u1000, sizeof(u0)));
	peer_key_uid(&k, 1000);
	EXPECT_EQ(0, memcmp(&k, &u1000, sizeof(k)));
	peer_key_addr(&k, peer("0.0.0.0"));
	EXPECT_NE(0, memcmp(&k, &u0, sizeof(k)));
	EXPECT_STREQ("local uid 1000", key_text(&u1000));
}

TEST_HARNESS_MAIN
