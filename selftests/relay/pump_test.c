// SPDX-License-Identifier: GPL-2.0-only
/*
 * The relay's pump (relay/conn.c) and its budget, without a VM: a pump
 * whose in and out never say EAGAIN (a regular file into the pipe, the
 * pipe into another file) makes PUMP_BUDGET splices, then yields to the
 * other connections with a NOP tagged pump + RELAY_PUMP_RESUME, and goes
 * on when that completes, until in ends: every byte through, in order.
 * Without the budget the first wake-up would move the whole file in one
 * go, the relay's other connections waiting meanwhile. And once in ends,
 * its POLLIN is cancelled, its last completion ignored.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../../relay/relay.h"

/* What relay/conn.c moves per splice (PUMP_CHUNK) and splices per turn. */
#define CHUNK	(64 * 1024)
#define BUDGET	16
/* Enough for several turns: 32 chunks, 64 splices, 4 turns. */
#define FILE_BYTES	(32 * CHUNK)

FIXTURE(pump) {
	struct relay r;
	struct conn *c;
	int out;
	char in_path[64], out_path[64];
};

FIXTURE_SETUP(pump)
{
	static char buf[FILE_BYTES];
	struct pump *p;
	int in;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + i / CHUNK);
	strcpy(self->in_path, "/tmp/aca-pump-in-XXXXXX");
	in = mkstemp(self->in_path);
	ASSERT_LE(0, in);
	ASSERT_EQ(FILE_BYTES, write(in, buf, sizeof(buf)));
	ASSERT_EQ(0, lseek(in, 0, SEEK_SET));
	strcpy(self->out_path, "/tmp/aca-pump-out-XXXXXX");
	self->out = mkstemp(self->out_path);
	ASSERT_LE(0, self->out);

	memset(&self->r, 0, sizeof(self->r));
	ASSERT_EQ(0, io_uring_queue_init(64, &self->r.ring, 0));
	self->c = calloc(1, sizeof(*self->c));
	ASSERT_NE(NULL, self->c);
	self->c->relay = &self->r;
	self->c->sock = -1;
	self->c->dev = -1;
	self->r.conns = self->c;
	self->r.nconns = 1;
	/* The device's side: in, the file; out, the other; no POLLIN to cancel. */
	p = &self->c->down;
	p->conn = self->c;
	p->in = in;
	p->out = dup(self->out);
	ASSERT_LE(0, p->out);
	ASSERT_EQ(0, pipe2(p->pipe, O_CLOEXEC | O_NONBLOCK));
	/* The host's side is done: the file's end ends the connection. */
	self->c->up.eof = true;
	self->c->up.pipe[0] = self->c->up.pipe[1] = -1;
	self->c->up.in = self->c->up.out = -1;
	/* A pump that never yields would move the whole file: fail, not hang. */
	alarm(20);
}

FIXTURE_TEARDOWN(pump)
{
	io_uring_queue_exit(&self->r.ring);
	close(self->out);
	unlink(self->in_path);
	unlink(self->out_path);
}

/* Bytes in the out file so far. */
static off_t out_bytes(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : st.st_size;
}

/* The NOP the pump queued: submitted, completed, its tag. */
static __u64 next_tag(struct relay *r)
{
	struct io_uring_cqe *cqe;
	__u64 tag;

	if (io_uring_submit_and_wait(&r->ring, 1) < 0 ||
	    io_uring_peek_cqe(&r->ring, &cqe))
		return 0;
	tag = cqe->user_data;
	io_uring_cqe_seen(&r->ring, cqe);
	return tag;
}

TEST_F(pump, yields_after_its_budget)
{
	struct pump *p = &self->c->down;

	/* Its POLLIN fired (multishot, still armed). */
	p->polling = true;
	pump_polled(p, false, POLLIN, IORING_CQE_F_MORE);
	/* BUDGET splices: half into the pipe, half out of it. */
	EXPECT_TRUE(p->resuming);
	EXPECT_EQ(BUDGET / 2 * CHUNK, out_bytes(self->out));
	/* One operation queued, its NOP, and no other. */
	EXPECT_EQ(1, io_uring_sq_ready(&self->r.ring));
	EXPECT_EQ((__u64)(uintptr_t)p | RELAY_PUMP_RESUME, next_tag(&self->r));
	/* Its next turn: as much again, then it yields again. */
	p->polling = false;
	pump_resumed(p);
	EXPECT_EQ(BUDGET * CHUNK, out_bytes(self->out));
	EXPECT_TRUE(p->resuming);
}

TEST_F(pump, moves_every_byte_in_turns)
{
	static char got[FILE_BYTES], want[FILE_BYTES];
	struct pump *p = &self->c->down;
	unsigned int turns = 1;
	__u64 tag;

	p->polling = true;
	pump_polled(p, false, POLLIN, IORING_CQE_F_MORE);
	p->polling = false;
	/* Each NOP resumes it; the file's end closes the connection. */
	while ((tag = next_tag(&self->r)) == ((__u64)(uintptr_t)p | RELAY_PUMP_RESUME)) {
		turns++;
		pump_resumed(p);
		if (!self->r.nconns)
			break;
	}
	EXPECT_EQ(0, self->r.nconns);
	/* FILE_BYTES / CHUNK chunks in, as many out, one more for the end. */
	EXPECT_EQ((2 * FILE_BYTES / CHUNK + 1 + BUDGET - 1) / BUDGET, turns);
	ASSERT_EQ(FILE_BYTES, out_bytes(self->out));
	ASSERT_EQ(FILE_BYTES, pread(self->out, got, sizeof(got), 0));
	for (size_t i = 0; i < sizeof(want); i++)
		want[i] = (char)(i * 7 + i / CHUNK);
	EXPECT_EQ(0, memcmp(got, want, sizeof(got)));
}

TEST_F(pump, cancels_its_pollin_once_in_ends)
{
	struct pump *p = &self->c->down;
	struct io_uring_cqe *cqe;
	__u64 tag;

	/* The host's side still open: the device's end alone. */
	self->c->up.eof = false;
	p->polling = true;
	pump_polled(p, false, POLLIN, IORING_CQE_F_MORE);
	while (!p->eof) {
		ASSERT_EQ((__u64)(uintptr_t)p | RELAY_PUMP_RESUME, next_tag(&self->r));
		pump_resumed(p);
	}
	ASSERT_EQ(FILE_BYTES, out_bytes(self->out));
	/* Its last turn queued one thing: the cancel of its POLLIN. */
	EXPECT_EQ(1, io_uring_sq_ready(&self->r.ring));
	tag = next_tag(&self->r);
	EXPECT_EQ(RELAY_TAG_CANCEL, tag);
	/* The poll's last completion: no re-arm, no close, nothing queued. */
	pump_polled(p, false, -ECANCELED, 0);
	EXPECT_FALSE(p->polling);
	EXPECT_EQ(1, self->r.nconns);
	EXPECT_EQ(0, io_uring_sq_ready(&self->r.ring));
	EXPECT_EQ(-EAGAIN, io_uring_peek_cqe(&self->r.ring, &cqe));
}

TEST_HARNESS_MAIN
