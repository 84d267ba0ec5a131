// SPDX-License-Identifier: GPL-2.0-only
/*
 * The relay's connection limits (relay/limits.c's limits_admit()) without a
 * VM: --max-peer-conns counts the connections open per peer key (an
 * address, all of loopback as one, a local user), closing and parked ones
 * included; one peer at its limit leaves the others theirs; --max-conns
 * still bounds them all; each limit's refusals log one line per 5 s,
 * saying which limit and what to do. And the default leaves another peer a
 * session of this machine under the default --max-conns.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../../relay/relay.h"

static void key_of(struct peer_key *k, const char *text)
{
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in in = { .sin_family = AF_INET };

	if (inet_pton(AF_INET, text, &in.sin_addr) == 1)
		peer_key_addr(k, (struct sockaddr *)&in);
	else if (inet_pton(AF_INET6, text, &in6.sin6_addr) == 1)
		peer_key_addr(k, (struct sockaddr *)&in6);
	else
		abort();
}

FIXTURE(limits) {
	struct relay r;
	char log_path[64];
	int log_fd, saved_stderr;
};

FIXTURE_SETUP(limits)
{
	memset(&self->r, 0, sizeof(self->r));
	limits_default(&self->r);
	self->r.lim.max_conns = 10;
	self->r.lim.max_peer_conns = 3;
	/* The refusals' lines, to count them. */
	strcpy(self->log_path, "/tmp/aca-limits-log-XXXXXX");
	self->log_fd = mkstemp(self->log_path);
	ASSERT_LE(0, self->log_fd);
	self->saved_stderr = dup(2);
	ASSERT_LE(0, self->saved_stderr);
	ASSERT_EQ(2, dup2(self->log_fd, 2));
}

FIXTURE_TEARDOWN(limits)
{
	struct conn *c, *next;

	dup2(self->saved_stderr, 2);
	close(self->saved_stderr);
	close(self->log_fd);
	unlink(self->log_path);
	for (c = self->r.conns; c; c = next) {
		next = c->next;
		free(c);
	}
}

/* A connection of @key open (as conn_open() links it), admitted or not. */
static struct conn *add(struct relay *r, const struct peer_key *key)
{
	struct conn *c = calloc(1, sizeof(*c));

	if (!c)
		abort();
	c->relay = r;
	c->key = *key;
	c->next = r->conns;
	if (c->next)
		c->next->prev = c;
	r->conns = c;
	r->nconns++;
	return c;
}

/* Admit and open: what on_accept() does. */
static bool connect_as(struct relay *r, const struct peer_key *key)
{
	if (!limits_admit(r, key, "peer"))
		return false;
	add(r, key);
	return true;
}

/* What the relay logged so far. */
static const char *logged(int fd)
{
	static char buf[4096];
	ssize_t n;

	fflush(stderr);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static unsigned int lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

TEST_F(limits, one_peer_is_capped_the_others_are_not)
{
	struct peer_key lo, lo6, host, host2, user0, user1000;
	const char *log;

	key_of(&lo, "127.0.0.1");
	key_of(&lo6, "::1");
	key_of(&host, "192.0.2.7");
	key_of(&host2, "2001:db8:0:1::1");
	peer_key_uid(&user0, 0);
	peer_key_uid(&user1000, 1000);

	for (int i = 0; i < 3; i++)
		EXPECT_TRUE(connect_as(&self->r, &lo));
	/* The fourth from loopback, by any of its addresses: refused. */
	EXPECT_FALSE(connect_as(&self->r, &lo));
	EXPECT_FALSE(connect_as(&self->r, &lo6));
	/* Others: each its own three. */
	for (int i = 0; i < 3; i++) {
		EXPECT_TRUE(connect_as(&self->r, &host));
		EXPECT_TRUE(connect_as(&self->r, &user1000));
	}
	EXPECT_FALSE(connect_as(&self->r, &host));
	EXPECT_FALSE(connect_as(&self->r, &user1000));
	EXPECT_EQ(9, self->r.nconns);
	/* Another local user is not uid 1000. */
	EXPECT_TRUE(connect_as(&self->r, &user0));
	/* --max-conns 10: full, whoever it is. */
	EXPECT_FALSE(connect_as(&self->r, &host2));
	EXPECT_FALSE(connect_as(&self->r, &user0));

	/* One line per limit within 5 s, naming it and what to do. */
	log = logged(self->log_fd);
	EXPECT_EQ(2, lines(log)) TH_LOG("%s", log);
	EXPECT_NE(NULL, strstr(log, "peer: refused: 3 connections open from loopback (127.0.0.0/8 and ::1) (--max-peer-conns 3: raise it if one host needs more); 0 more refused since the last line\n"))
		TH_LOG("%s", log);
	EXPECT_NE(NULL, strstr(log, "peer: refused: 10 connections open (--max-conns 10); 0 more refused since the last line\n"))
		TH_LOG("%s", log);
}

TEST_F(limits, a_closed_connection_makes_room_again)
{
	struct peer_key host;
	struct conn *c;

	key_of(&host, "192.0.2.7");
	for (int i = 0; i < 3; i++)
		EXPECT_TRUE(connect_as(&self->r, &host));
	EXPECT_FALSE(connect_as(&self->r, &host));
	/* Closing (its cancels in flight) still counts: it holds descriptors. */
	self->r.conns->closing = true;
	EXPECT_FALSE(connect_as(&self->r, &host));
	/* Freed (conn_free()'s unlinking): room for one. */
	c = self->r.conns;
	self->r.conns = c->next;
	self->r.conns->prev = NULL;
	self->r.nconns--;
	free(c);
	EXPECT_TRUE(connect_as(&self->r, &host));
	EXPECT_FALSE(connect_as(&self->r, &host));
}

TEST_F(limits, the_default_leaves_another_peer_a_session)
{
	struct relay d = { 0 };
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	unsigned int session = (cpus > 0 ? (unsigned int)cpus : 1) + 3;

	limits_default(&d);
	EXPECT_EQ(session + 8, d.lim.max_peer_conns);
	/* A session and 8 strays for one peer, a session for the next. */
	EXPECT_LE(session, d.lim.max_conns - d.lim.max_peer_conns);
	EXPECT_LT(d.lim.max_peer_conns, d.lim.max_conns);
}

TEST_HARNESS_MAIN
