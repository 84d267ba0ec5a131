/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * /dev/aca: the character device of the aca target driver.
 *
 * Each open file is one protocol connection: write() the peer's bytes in,
 * read() the replies out (or splice both ways). EOF on read means the
 * connection is over and the file should be closed. Or, with the ioctls
 * of the local sampling API below and no protocol, it owns a local trace.
 */
#ifndef _UAPI_ACA_H
#define _UAPI_ACA_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#define ACA_DEVICE_PATH		"/dev/aca"
#define ACA_IOC_MAGIC		0xac

/*
 * Who is at the other end of a connection. aca-relay sets it right after
 * open(): the first connection becomes a session's control channel and the
 * following ones from the same address, opened by the same process on
 * behalf of the same person (ACA_IOC_SET_CLIENT), its data channels; any
 * other connection is a second host and is turned away.
 * It may be set once per file (EBUSY after). A file used without it is a
 * local peer.
 */
struct aca_peer {
	__u16 family;		/* AF_INET, AF_INET6, or AF_UNIX (addr all 0) */
	__u16 port;		/* host byte order; for log lines only */
	__u32 reserved;		/* must be 0 */
	__u8 addr[16];		/* network byte order; IPv4 in addr[0..3] */
};

/*
 * Who the person behind a connection is, for a relay that opens /dev/aca
 * on behalf of others (aca-relay). A file is privileged (it may sample,
 * read the kernel's and modules' layout, the PMU's state and the energy
 * counters) as its opener was at open(); ACA_IOC_SET_CLIENT names the
 * socket the relay serves the connection on, and the module decides from
 * the socket itself, never raising the opener's privilege:
 *
 *   AF_UNIX stream socket: privileged only if the peer's credentials
 *     (SO_PEERCRED, taken when it connected) could sample the system with
 *     perf: CAP_PERFMON or CAP_SYS_ADMIN in the initial user namespace, or
 *     group_perfmon=1 and membership of the group of /dev/aca;
 *   AF_INET or AF_INET6 socket with ACA_CLIENT_ADMITTED (the operator
 *     admitted this network peer, e.g. aca-relay --allow): the opener's
 *     privilege, the operator's choice, unless the peer is this machine
 *     through one of its own addresses other than loopback (a local user,
 *     not the network host admitted); without it, unprivileged.
 *
 * It also names the person a session belongs to: a data channel joins only
 * a session of the same person (the peer's euid for AF_UNIX; one person
 * for all admitted network peers, another for all unadmitted ones, whose
 * sessions are never privileged). Once per
 * file, before its first read, write or ACA_IOC_SET_PEER (EBUSY after).
 * Errors: EBADF, ENOTSOCK (sock_fd), EINVAL (another kind of socket, a
 * flag unknown, or reserved bits), ENOTCONN (an AF_UNIX socket without a
 * peer), EBUSY.
 */
struct aca_client {
	__s32 sock_fd;		/* the relay's socket of this connection */
	__u32 flags;		/* ACA_CLIENT_* */
};

#define ACA_CLIENT_ADMITTED	_BITUL(0)

/*
 * The peer will send nothing more (its TCP half is closed): the connection
 * ends once the replies already queued have been read.
 */
#define ACA_IOC_HANGUP		_IO(ACA_IOC_MAGIC, 0x01)
#define ACA_IOC_SET_PEER	_IOW(ACA_IOC_MAGIC, 0x02, struct aca_peer)
#define ACA_IOC_SET_CLIENT	_IOW(ACA_IOC_MAGIC, 0x03, struct aca_client)

/*
 * The local sampling API: the same engine without the network.
 *
 * A file of /dev/aca that has never carried protocol bytes (no read, write
 * or ACA_IOC_SET_PEER) can instead own the target's one local trace:
 *
 *   GET_PROPERTIES   what the target offers (any file, any time)
 *   ALLOC_TRACE      allocate one ring per online CPU; this file owns them
 *   STAGE_CONFIG     the events to sample (again and again until START)
 *   GET_CONFIG       the staged configuration, as staged
 *   START, STOP      sample, once: a trace is started at most once
 *   GET_COUNTS       per CPU: records generated, written and dropped
 *   FREE_TRACE       stop and free (closing the file does the same)
 *   mmap()           a CPU's ring (below)
 *
 * There is one sampler: while a trace exists, hosts that connect are told
 * "busy" (status 219), and ALLOC_TRACE fails with EBUSY while a host
 * session exists, while another file owns a trace, or when this file is a
 * protocol connection. A file that owns a trace and then talks the
 * protocol is a second host (219). Errors: EBUSY (the sampler, or the
 * trace's state: STAGE_CONFIG or START after START), ENODATA (GET_CONFIG
 * or START with nothing staged), ENXIO (this file owns no trace, or no
 * ring for that CPU), EINVAL (a bad argument), ESRCH (no such process),
 * EFAULT; START also fails as perf_event_create_kernel_counter() does
 * (e.g. ENOENT: no PMU, and sw_clock=N). STOP is a no-op when not running.
 */
#define ACA_API_VERSION		1

/* Bounds of the local API (the module's limits may be tighter). */
#define ACA_MAX_EVENTS		16	/* events of one configuration */
#define ACA_MAX_EVENT_INDEX	255	/* what a record's eventIndex holds */

/*
 * aca_properties.flags: PMU, a hardware counter could be created when the
 * module loaded (RAW events should really count); SW_CLOCK, without one
 * RAW events sample with cpu-clock instead (module parameter sw_clock).
 */
#define ACA_PROP_PMU		_BITUL(0)
#define ACA_PROP_SW_CLOCK	_BITUL(1)

struct aca_properties {
	__u32 api_version;	/* ACA_API_VERSION */
	__u32 flags;		/* ACA_PROP_* */
	__u32 num_cpus;		/* CPU ids are below this (nr_cpu_ids) */
	__u32 online_cpus;	/* of which online now: they get rings */
	__u32 max_events;	/* ACA_MAX_EVENTS */
	__u32 page_size;
	__u32 default_data_pages; /* ALLOC_TRACE's 0: module's ring_pages */
	__u32 min_data_pages;	/* data_pages: a power of two in [min, max] */
	__u32 max_data_pages;
	__u32 max_sample_rate;	/* Hz per event and CPU, at most */
	__u32 record_size;	/* bytes of one record (SampleRecordPC) */
	__u32 reserved;		/* 0 */
	__u64 tsc_hz;		/* the clock of every record's tsc */
};

struct aca_trace_alloc {
	__u32 data_pages;	/* in: per CPU ring, 0: default; out: used */
	__u32 flags;		/* in: 0 */
	__u32 num_cpus;		/* out: CPU ids are below this */
	__u32 nr_rings;		/* out: CPUs with a ring (online at ALLOC) */
	__u64 map_size;		/* out: (1 + data_pages) * page_size */
};

/*
 * aca_event.kind: RAW, config and config1 are a raw PMU encoding (perf's
 * PERF_TYPE_RAW: IA32_PERFEVTSELx event | umask | ..., offcore response);
 * CPU_CLOCK, the cpu-clock software event; IBS_OP and IBS_FETCH, AMD's
 * IBS through perf's ibs_op and ibs_fetch PMUs, config their options
 * (what /sys/bus/event_source/devices/ibs_op/format names: cnt_ctl, ...),
 * every ring (no EXCLUDE flag), period in cycles (ops with cnt_ctl),
 * rounded up to 16; ENODEV where the PMU is missing.
 */
#define ACA_EVENT_RAW		1
#define ACA_EVENT_CPU_CLOCK	2
#define ACA_EVENT_IBS_OP	3
#define ACA_EVENT_IBS_FETCH	4

/* aca_event.flags; PRECISE (RAW only): PEBS if possible; RATE: in Hz. */
#define ACA_EVENT_EXCLUDE_USER		_BITUL(0)
#define ACA_EVENT_EXCLUDE_KERNEL	_BITUL(1)
#define ACA_EVENT_PRECISE		_BITUL(2)
#define ACA_EVENT_RATE			_BITUL(3)
#define ACA_EVENT_FLAGS			0xfu

/*
 * One sampling event. period is a sample-after count as in SEP: events
 * counted (for CPU_CLOCK, TSC ticks, like SEP's REF_TSC), or with
 * ACA_EVENT_RATE samples per second (turned into TSC ticks at tsc_hz; for
 * a RAW event that assumes it counts at the TSC rate). Either way at most
 * max_sample_rate per second. A configuration's events are all of one
 * kind (without a PMU and with sw_clock, RAW samples with cpu-clock too:
 * GET_COUNTS says so). cpu-clock does not sample idle CPUs.
 */
struct aca_event {
	__u32 kind;		/* ACA_EVENT_* kind */
	__u32 flags;		/* ACA_EVENT_* */
	__u32 event_index;	/* records' descriptor_id, 0..255 */
	__u32 reserved;		/* 0 */
	__u64 config;		/* RAW: perf raw config; IBS: options; CPU_CLOCK: 0 */
	__u64 config1;		/* RAW: offcore response or 0; others: 0 */
	__u64 period;		/* 1 .. 2^48 counts, or 1 .. 1000000 Hz */
};

/* target_pid is a process id in the caller's pid namespace. */
struct aca_trace_config {
	__u32 nevents;		/* 1 .. ACA_MAX_EVENTS */
	__u32 flags;		/* 0 */
	__u32 target_pid;	/* 0: all; else only this process */
	__u32 reserved;		/* 0 */
	struct aca_event events[ACA_MAX_EVENTS];
};

/* aca_trace_counts.state */
#define ACA_TRACE_ALLOCATED	1	/* no configuration staged yet */
#define ACA_TRACE_STAGED	2
#define ACA_TRACE_RUNNING	3
#define ACA_TRACE_STOPPED	4	/* or START failed: FREE and ALLOC again */

/* aca_trace_counts.flags: the CPU has a ring; the trace samples cpu-clock. */
#define ACA_COUNTS_RING		_BITUL(0)
#define ACA_COUNTS_CPU_CLOCK	_BITUL(1)

/*
 * Per CPU, once stopped: generated == written + dropped, and the ring
 * received exactly the written records; while running, snapshots. written
 * and dropped are the ring header page's (below): a mapping that writes
 * them fools only itself.
 */
struct aca_trace_counts {
	__u32 cpu;		/* in */
	__u32 state;		/* out: ACA_TRACE_* */
	__u32 flags;		/* out: ACA_COUNTS_* */
	__u32 reserved;		/* in: 0 */
	__u64 generated;	/* samples the handler produced on the CPU */
	__u64 written;		/* records written to the ring */
	__u64 dropped;		/* records dropped: the ring was full */
	__u64 start_tsc;	/* before the first sample could be taken */
	__u64 stop_tsc;		/* after the last one (0 while running) */
};

#define ACA_IOC_GET_PROPERTIES	_IOR(ACA_IOC_MAGIC, 0x10, struct aca_properties)
#define ACA_IOC_ALLOC_TRACE	_IOWR(ACA_IOC_MAGIC, 0x11, struct aca_trace_alloc)
#define ACA_IOC_STAGE_CONFIG	_IOW(ACA_IOC_MAGIC, 0x12, struct aca_trace_config)
#define ACA_IOC_GET_CONFIG	_IOR(ACA_IOC_MAGIC, 0x13, struct aca_trace_config)
#define ACA_IOC_START		_IO(ACA_IOC_MAGIC, 0x14)
#define ACA_IOC_STOP		_IO(ACA_IOC_MAGIC, 0x15)
#define ACA_IOC_FREE_TRACE	_IO(ACA_IOC_MAGIC, 0x16)
#define ACA_IOC_GET_COUNTS	_IOWR(ACA_IOC_MAGIC, 0x17, struct aca_trace_counts)

/*
 * mmap(): the ring of CPU n, read and consumed in place.
 *
 *   mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
 *        n * map_size)
 *
 * exactly: one CPU per mapping, MAP_SHARED only (PROT_READ alone is fine
 * for looking, but then tail cannot be advanced). Page 0 is struct
 * aca_mmap_header, then data_pages pages of data: data_size =
 * data_pages * page_size bytes, holding records of record_size bytes
 * back to back (a record may wrap from the end of the data to its start).
 * The pages stay valid until munmap(), even after FREE_TRACE or close():
 * the trace is released (and the sampler given back) with its last
 * mapping, a child's copy after fork() included.
 *
 * head and tail are free-running byte counts (never reduced modulo the
 * size); the unread bytes are [tail, head), at data + (x % data_size).
 * The kernel writes head, lost and written; the consumer writes tail.
 * head, lost and written are copies of the kernel's own counts: writing
 * them changes nothing the kernel does (the next record writes them
 * again, and STOP the counts), and no value written into the header can
 * hang, misdirect or miscount the producer; a bad tail only makes it drop.
 * Memory ordering (C11 atomics; the kernel side is ring.c's contract):
 *
 *   head = __atomic_load_n(&h->head, __ATOMIC_ACQUIRE);
 *   ...copy out [tail, head)...
 *   __atomic_store_n(&h->tail, head, __ATOMIC_RELEASE);
 *
 * The acquire makes the record bytes below head visible; the release
 * tells the kernel it may reuse them only once they are copied. The
 * kernel never overwrites unread bytes: a record that does not fit is
 * dropped and counted in lost. Space comes back a page at a time (the
 * producer enters a page only when all of it was consumed), so consume
 * promptly. A tail beyond head, or more than data_size behind it, makes
 * the producer drop everything. lost and written change on the ring's CPU
 * without ordering against head: snapshots, exact once STOP returned
 * (ACA_IOC_GET_COUNTS answers the kernel's own, whatever the header says).
 */
struct aca_mmap_header {
	__u64 head;		/* bytes ever written; the kernel's copy */
	__u64 reserved0[7];
	__u64 tail;		/* bytes ever consumed; the consumer only */
	__u64 reserved1[7];
	__u64 lost;		/* records dropped (ring full); the kernel's copy */
	__u64 written;		/* records written; the kernel's copy */
};

#endif /* _UAPI_ACA_H */
