// SPDX-License-Identifier: GPL-2.0-only
/* One reader thread per data channel: socket to file until EOF. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "channels.h"

/* Short enough that an abort is noticed quickly. */
#define POLL_MS		200

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static void *reader(void *arg)
{
	struct chan *c = arg;
	char buf[1 << 16];

	for (;;) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		ssize_t n;
		int r;

		if (atomic_load(c->abort)) {
			atomic_store(&c->state, CHAN_ABORTED);
			return NULL;
		}
		r = poll(&p, 1, POLL_MS);
		if (r < 0 && errno != EINTR) {
			c->error = errno;
			break;
		}
		if (r <= 0)
			continue;
		/* Readable: recv() returns at once (data, EOF or an error). */
		n = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		if (n < 0) {
			c->error = errno;
			break;
		}
		if (n == 0) {
			c->end_s = host_now_s();
			atomic_store(&c->state, CHAN_EOF);
			return NULL;
		}
		if (!c->first_s)
			c->first_s = host_now_s();
		if (write_all(c->out, buf, n)) {
			c->error = errno;
			break;
		}
		atomic_fetch_add(&c->bytes, (uint64_t)n);
	}
	atomic_store(&c->state, CHAN_FAILED);
	return NULL;
}

int chans_start(struct chan_set *cs)
{
	for (uint32_t i = 0; i < cs->n; i++) {
		struct chan *c = &cs->ch[i];
		int err;

		c->abort = &cs->abort;
		atomic_store(&c->state, CHAN_READING);
		err = pthread_create(&c->thread, NULL, reader, c);
		if (err) {
			fprintf(stderr, "aca-host: %s: no reader thread: %s\n", c->name,
				strerror(err));
			return -1;
		}
		c->started = 1;
	}
	return 0;
}

uint32_t chans_reading(struct chan_set *cs)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < cs->n; i++)
		n += cs->ch[i].started &&
		     atomic_load(&cs->ch[i].state) == CHAN_READING;
	return n;
}

uint32_t chans_wait(struct chan_set *cs, int timeout_ms)
{
	struct timespec tick = { .tv_nsec = 20 * 1000 * 1000 };
	uint32_t left;

	for (int waited = 0; (left = chans_reading(cs)) && waited < timeout_ms;
	     waited += 20)
		nanosleep(&tick, NULL);
	return left;
}

void chans_stop(struct chan_set *cs)
{
	atomic_store(&cs->abort, 1);
	for (uint32_t i = 0; i < cs->n; i++) {
		if (cs->ch[i].started)
			pthread_join(cs->ch[i].thread, NULL);
		cs->ch[i].started = 0;
	}
}
