/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A scripted SEP target on a loopback port, for testing `aca-host collect`
 * without a VM: hand-shake, N+2 data channels, every command answered, and
 * at STOP a flood of records on every channel, sent either before the STOP
 * response (the aca ordering of spec 13: a host that does not read while
 * STOP is outstanding deadlocks) or after it. Or a peer that goes wrong at
 * the hello, as relays, busy targets and other servers do.
 */
#ifndef ACA_HOST_TEST_MOCK_TARGET_H
#define ACA_HOST_TEST_MOCK_TARGET_H

#include <pthread.h>
#include <stdint.h>

enum mock_stop {
	MOCK_DRAIN_THEN_ANSWER,		/* flush, STOP response, close */
	MOCK_ANSWER_THEN_DRAIN,		/* STOP response, flush, close */
	MOCK_KEEP_CHANNEL_OPEN,		/* the module channel never ends */
	MOCK_DIE_AT_START,		/* every connection closed at START */
};

/* When the records go when live (struct mock_target's live). */
enum mock_live {
	MOCK_AT_STOP,			/* not live: everything at STOP */
	MOCK_LIVE_ALL,			/* every record at START */
	/*
	 * As aca does: samples and the kernel's module records at START, the
	 * process's mapping at STOP (spec 3.3)
	 */
	MOCK_LIVE_MAPPINGS_AT_STOP,
};

/* The hello: answered, or one of the ways it goes wrong (then no session). */
enum mock_hello {
	MOCK_HELLO_OK,			/* status message, then the session */
	MOCK_HELLO_CLOSE,		/* accept and close, as a relay that drops us */
	MOCK_HELLO_BUSY,		/* status 219: another host's session */
	MOCK_HELLO_GARBAGE,		/* a line of text, then close: no SEP target */
	MOCK_HELLO_WRONG_SIZE,		/* a status message with a wrong msg_size */
	MOCK_HELLO_ONLY,		/* status message, then the host's end: hello */
	/*
	 * The status message a byte every MOCK_TRICKLE_MS, each well within
	 * any receive timeout (a target that holds the host), until the host
	 * goes
	 */
	MOCK_HELLO_TRICKLE,
};

#define MOCK_TRICKLE_MS		100
#define MOCK_ZERO_CPUS		0xffffffffu	/* struct mock_target's num_cpus */

#define MOCK_GARBAGE		"HTTP/1.0 400 Bad Request\r\n\r\n"
#define MOCK_CPUS		2
#define MOCK_HOT_IP		0x401234ull	/* inside the module record sent */
#define MOCK_PID		4321
/*
 * Kernel code (kernel_samples): the symbols KERNEL_SYMBOLS names,
 * mock_kernel_hot in vmlinux and mock_mod_fn in module mock_mod; an address
 * of vmlinux past mock_kernel_hot's end that no symbol holds; and where the
 * unknown_kernel addresses start, 8 bytes apart.
 */
#define MOCK_KSYM_HOT		0xffffffff81100000ull	/* 0x100 bytes */
#define MOCK_KSYM_MOD		0xffffffffc0001000ull	/* 0x80 bytes */
#define MOCK_KGAP		0xffffffff81100200ull
#define MOCK_KUNKNOWN		0xffffffff81300000ull

/* Counting mode: each READ_AND_RESET's TSC delta (0.1 s) and counts. */
#define MOCK_TSC_HZ		2000000000ull
#define MOCK_READ_TSC		(MOCK_TSC_HZ / 10)
#define MOCK_COUNT(k, cpu)	(((uint64_t)(k) + 1) * 1000000 + (cpu))

#define MOCK_MAX_ECBS		16
#define MOCK_ROUNDS		3
#define MOCK_WINDOWS_TSC	100000ull
#define MOCK_TURN_TSC		1000ull	/* one group's turn */
#define MOCK_WINDOW_TSC		900ull	/* of it, enabled */

struct mock_target {
	enum mock_stop mode;
	enum mock_hello hello;
	/*
	 * A hostile target's words: the status message's os_info.sysname
	 * (at most 63 bytes) when not NULL, else "Mock".
	 */
	const char *sysname;
	/*
	 * The status message's num_cpus when not 0 (else MOCK_CPUS;
	 * MOCK_ZERO_CPUS: 0): a count the host is to refuse. No data channel
	 * is accepted then: the host's end is waited for.
	 */
	uint32_t num_cpus;
	/*
	 * COLLECT_SYS_CONFIG answers sys_config_size, or when that is 0 the
	 * sys_config_len bytes of sys_config (0 without it); GET_SYS_CONFIG
	 * answers those bytes. Asked for more than sys_config holds, it
	 * fails (the host asked a size it should not have: m->failed).
	 */
	const void *sys_config;
	uint32_t sys_config_len;
	uint32_t sys_config_size;
	uint32_t fail_command;		/* answered with fail_status, if non-zero */
	int fail_status;
	/* When this command comes, SIGINT to *sigint_pid, then the answer. */
	uint32_t sigint_at;
	volatile pid_t *sigint_pid;
	uint32_t samples_per_cpu;	/* sent at STOP on each CPU channel */
	uint32_t dropped_per_cpu;	/* reported by GET_SAMPLE_DROP_INFO */
	/*
	 * Kernel-mode samples sent at STOP besides: kernel_samples per CPU,
	 * cpu0's in mock_kernel_hot, cpu1's alternately in mock_mod_fn and at
	 * MOCK_KGAP (with a module record of mock_mod); and unknown_kernel
	 * more on cpu0, each at its own address no symbol holds.
	 */
	uint32_t kernel_samples;
	uint32_t unknown_kernel;
	uint32_t unknown_hits;		/* samples at each of those; 0: 1 */
	/*
	 * Live (aca-host top): the records are sent right after the START
	 * answer, during the collection; KERNEL_SYMBOLS may then ask an
	 * address again in a later request (ascending within each). 0: all
	 * at STOP.
	 */
	enum mock_live live;
	/*
	 * [ACA-EXT] MODULE_SNAPSHOT, answered as aca does while it samples:
	 * success, then on the module channel the records it would send at
	 * STOP (the process's mapping, still loaded); or, non-zero, this
	 * status and nothing sent (159: a stock target, an older aca). Asked
	 * before START or after STOP is the host's fault.
	 */
	int snapshot_status;
	int snapshot_empty;		/* the first so many send nothing (none ran yet) */
	int snapshots;			/* asks answered with success */
	int snapshot_asks;		/* all asks */
	int port;			/* where it listens */
	int listen_fd;
	pthread_t thread;
	/* What the host did, for the checks. */
	uint32_t commands[64];
	int ncommands;
	int connected;			/* the control connection was accepted */
	int stop_seen, terminate_seen;
	uint64_t data_bytes_from_host;
	/* KERNEL_SYMBOLS: requests, the most addresses in one, all of them. */
	int ksym_requests;
	uint32_t ksym_max_batch;
	uint64_t ksym_addrs;
	uint64_t ksym_last;		/* every address is asked once, ascending */
	uint64_t ksym_named;		/* addresses asked that a symbol holds */
	uint32_t ksym_max_live_batch;	/* the most in one request before STOP */
	unsigned int ksym_delay_ms;	/* before each answer to KERNEL_SYMBOLS */
	int ksym_hidden;		/* every slot empty: kallsyms hides them */
	/* EM_GROUPS: groups and switching asked; NUM_DESCRIPTOR, DESC_NEXTs. */
	uint32_t num_groups;
	int32_t em_mode, em_factor, em_event_num;
	uint32_t num_descriptors, descs;
	/*
	 * EM_CONFIG_NEXT, in order: each ECB's group_id, and the event index
	 * and descriptor of its one counter (-1: no counter found).
	 */
	int necbs;
	uint32_t ecb_group[MOCK_MAX_ECBS];
	int32_t ecb_index[MOCK_MAX_ECBS], ecb_desc[MOCK_MAX_ECBS];
	/*
	 * GROUP_TIMES (answered unless fail_command says otherwise): each
	 * configured group had MOCK_ROUNDS windows of MOCK_WINDOW_TSC ticks,
	 * in turns, after a start at MOCK_WINDOWS_TSC.
	 */
	int group_times_asked;
	/* INIT_DRIVER's collection_config; READ_AND_RESETs answered. */
	uint64_t collection_config;
	int reads;
	int failed;			/* the host broke the protocol */
	char why[256];
};

/* Listen on 127.0.0.1 (any free port) and serve one session in a thread. */
int mock_start(struct mock_target *m);
/* Wait for the session to end; returns m->failed. */
int mock_join(struct mock_target *m);

/*
 * A loopback port where nothing listens (connecting is refused), kept so
 * while its socket, *@fd, is open. Returns the port, or -1.
 */
int mock_refusing_port(int *fd);
/*
 * A loopback listener whose accept queue is full (backlog 0, and one
 * connection in it, never accepted): the kernel drops every further SYN,
 * so connecting there times out. Returns its port, or -1; close both
 * @fds (the listener and the queued connection) after.
 */
int mock_full_listener(int fds[2]);

#endif /* ACA_HOST_TEST_MOCK_TARGET_H */
