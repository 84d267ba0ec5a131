/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Data channel readers of a collection: one thread per channel, started as
 * soon as the channels are open and kept reading until EOF, so that the
 * target never waits on us (it answers STOP only once every channel is
 * drained, spec 13) and nothing is lost when it closes them.
 */
#ifndef ACA_HOST_CHANNELS_H
#define ACA_HOST_CHANNELS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

enum chan_state {
	CHAN_READING,
	CHAN_EOF,		/* the target closed it: complete */
	CHAN_FAILED,		/* receive or file write error */
	CHAN_ABORTED,		/* we gave up on it */
};

struct chan {
	int fd;			/* data socket, after its first message */
	int out;		/* file the stream goes to */
	char name[32];		/* "cpu0", "uncore", "module" */
	uint16_t type;		/* SEP_DATA_* */
	uint16_t id;
	pthread_t thread;
	int started;
	_Atomic uint64_t bytes;
	double first_s, end_s;	/* CLOCK_MONOTONIC: first byte, EOF; 0: none */
	_Atomic int state;	/* enum chan_state */
	int error;		/* errno of a failure */
	int early;		/* ended before STOP was sent */
	const _Atomic int *abort;
};

struct chan_set {
	struct chan *ch;
	uint32_t n;
	_Atomic int abort;
};

/* Start a reader per channel; returns 0 or -1 (message on stderr). */
int chans_start(struct chan_set *cs);

/* Readers still reading (failed and aborted ones count as ended). */
uint32_t chans_reading(struct chan_set *cs);

/* Wait up to @timeout_ms for every reader to end; returns chans_reading(). */
uint32_t chans_wait(struct chan_set *cs, int timeout_ms);

/* Stop whatever still reads, join every thread. */
void chans_stop(struct chan_set *cs);

#endif /* ACA_HOST_CHANNELS_H */
