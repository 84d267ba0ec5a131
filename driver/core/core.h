/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca protocol core: the SEP remote protocol as plain C.
 *
 * One struct acp_target holds the target's single host session; every
 * connection (an open /dev/aca file in the kernel; a test or the fuzzer in
 * userspace) is a struct acp_conn. The caller serialises all calls with one
 * lock, pushes peer bytes in with acp_conn_input() and pulls replies out
 * with acp_conn_peek()/acp_conn_consume(). Everything the core needs from the
 * machine comes through struct acp_ops.
 */
#ifndef ACA_CORE_H
#define ACA_CORE_H

#include "env.h"
#include "sep.h"

struct acp_conn;
struct acp_config;

/* What the core asks of the machine it runs on. */
struct acp_ops {
	/* uname fields; the core truncates them to fit the wire. */
	const char *(*sysname)(void *ctx);
	const char *(*release)(void *ctx);
	const char *(*version)(void *ctx);
	/* Number of CPU data channels: highest present CPU id + 1. */
	u32 (*num_cpus)(void *ctx);
	/* CPUID on @cpu (or the current CPU if @cpu < 0); false if offline. */
	bool (*cpuid)(void *ctx, int cpu, u32 leaf, u32 subleaf, u32 regs[4]);
	u64 (*tsc_hz)(void *ctx);
	/* Globally non-decreasing TSC, the clock of every timestamp sent. */
	u64 (*tsc_now)(void *ctx);
	/* MSR read on @cpu; false if the MSR faults or the CPU is offline. */
	bool (*rdmsr)(void *ctx, int cpu, u32 msr, u64 *val);
	/* Kernel page-table isolation is active. */
	bool (*pti)(void *ctx);
	u64 (*total_ram)(void *ctx);
	u32 (*page_size)(void *ctx);
	/* Memory the core owns; alloc returns zeroed memory or NULL. */
	void *(*alloc)(void *ctx, size_t size);
	void (*free)(void *ctx, void *ptr);
	/*
	 * INIT_DRIVER: allocate what a collection needs (the rings) before
	 * START; optional. Non-zero fails INIT_DRIVER with VT_NO_MEMORY.
	 */
	int (*configure)(void *ctx, const struct acp_config *cfg);
	/*
	 * Sampling; optional (START fails without it). start() programs and
	 * enables the events of @cfg (or leaves them paused).
	 */
	int (*start)(void *ctx, const struct acp_config *cfg, bool paused);
	/*
	 * Returns once nothing samples any more: no handler still running
	 * may write a record or touch what finish() frees, so finalize() and
	 * finish() may follow at once (acp_session_end()).
	 */
	void (*stop)(void *ctx);
	void (*pause)(void *ctx, bool pause);
	/*
	 * Multiplexing (spec 6.8): sample the next group from now (SWITCH_GROUP).
	 * Non-zero: there is no other group to switch to. Optional.
	 */
	int (*switch_group)(void *ctx);
	/*
	 * [ACA-EXT] GROUP_TIMES: fill @buf (@len bytes, zeroed, at least the
	 * head) as sep_cmd.h describes, for the collection of this session.
	 * Optional.
	 */
	void (*group_times)(void *ctx, void *buf, size_t len);
	/*
	 * Counting mode: fill @buf (@len bytes, zeroed; NULL when 0) with the
	 * reads READ_AND_RESET answers (sep_cmd.h) and start the next counts
	 * from now; with @next_group the next group counts from now on.
	 * Non-zero: nothing counts. Optional.
	 */
	int (*read_counts)(void *ctx, bool next_group, void *buf, size_t len);
	/*
	 * The target has the dynamic perf PMU @name (an uncore box,
	 * "uncore_cha_0", for uncore.c; "ibs_op" or "ibs_fetch" for ecb.c);
	 * its perf type goes in *@type and the contents of its format files
	 * ("config:0-7"), each NUL-terminated, one after the other, in
	 * @formats, at most @len bytes, an empty one last. Optional: without
	 * it the target collects no uncore and no IBS.
	 */
	bool (*find_pmu)(void *ctx, const char *name, u32 *type, char *formats,
			 size_t len);
	/*
	 * STOP, right after stop(): add what ends a collection to the data
	 * channels (the module records of every live process), or have it
	 * added later to a stream not final yet (data_final()). Optional.
	 */
	void (*finalize)(void *ctx);
	/*
	 * [ACA-EXT] MODULE_SNAPSHOT: have the module records of every live
	 * process added to the module channel soon, as finalize() does, the
	 * collection going on (sep_cmd.h). Non-zero: it cannot. Optional (the
	 * command answers 159 without it).
	 */
	int (*module_snapshot)(void *ctx);
	/*
	 * Sampling will use the cpu-clock software event instead of the PMU
	 * (reported in GET_DRV_SETUP_INFO); optional.
	 */
	bool (*sw_clock)(void *ctx);
	/*
	 * KERNEL_SYMBOLS (spec 4.6): the kernel symbol that holds @addr, its
	 * start, size, name and module ("" for the kernel image), each name
	 * NUL-terminated within its buffer; false if none holds it. Optional
	 * (the command answers 159 without it).
	 */
	bool (*kernel_symbol)(void *ctx, u64 addr, u64 *start, u64 *size,
			      char *name, size_t name_len, char *module,
			      size_t module_len);
	/* Samples written and dropped on @cpu in this collection; optional. */
	void (*sample_counts)(void *ctx, u32 cpu, u64 *written, u64 *dropped);
	/*
	 * Bytes of data channel @chan (spec 3.1 order: CPU 0..N-1, uncore N,
	 * module N+1) not yet read: returns how many are contiguous at *@p
	 * (0: none now). data_consume() takes @n of them. A data channel
	 * streams these after its first message; after STOP the response
	 * waits until every channel has given them all and is final (below),
	 * then the channels reach EOF. Optional, together.
	 */
	size_t (*data_peek)(void *ctx, u32 chan, const void **p);
	void (*data_consume)(void *ctx, u32 chan, size_t n);
	/*
	 * Data channel @chan's stream is final: nothing will ever be added
	 * to it again. After STOP a channel counts as drained only once its
	 * stream is final and empty; one that becomes final after finalize()
	 * returned (the kernel's module records) is reported then, with
	 * acp_conn_drained() on its connection. Asked before data_peek(), so
	 * the bytes added before it became final are seen. Optional: without
	 * it every stream is final once finalize() returned.
	 */
	bool (*data_final)(void *ctx, u32 chan);
	/*
	 * Delayed transfer (spec 3.3): data channels stream nothing before
	 * STOP. Asked when a session begins; optional (immediate transfer).
	 */
	bool (*delayed_transfer)(void *ctx);
	/*
	 * An unprivileged session that has sent no request for this many
	 * seconds yields the target to whoever asks for it next (another
	 * host, a local trace); 0: never. Asked when someone asks; optional
	 * (never).
	 */
	u32 (*session_idle_s)(void *ctx);
	/* The session is over: free what its collection held; optional. */
	void (*finish)(void *ctx);
	/*
	 * acp_target_fini(): nothing will be called again; wait for deferred
	 * work of the machine's own. Optional.
	 */
	void (*fini)(void *ctx);
	/* Another connection's readable/writable state changed. */
	void (*wake)(void *ctx, void *conn_ctx);
	/* A line for the system log (rate-limited by the implementation). */
	void (*log)(void *ctx, const char *fmt, va_list args);
};

/* Who is at the other end; connections of one session share an address. */
struct acp_peer {
	u16 family;		/* 0: local (no network peer), else AF_INET/6 */
	u8 addr[16];
};

#include "session.h"

/* ---- target (one per module) ---- */
void acp_target_init(struct acp_target *t, const struct acp_ops *ops,
		     void *ctx);
void acp_target_fini(struct acp_target *t);

/* ---- connections ---- */
/*
 * @opener identifies who opened the connection (in the kernel, the opening
 * process): only compared, never dereferenced, and it must stay unique to
 * its opener while the connection exists. A session's data channels must
 * have the opener of its control channel.
 */
void acp_conn_init(struct acp_conn *c, struct acp_target *t, void *ctx,
		   const void *opener);
/*
 * Whether the connection's opener may sample, read the kernel and module
 * layout and the energy counters (in the kernel: CAP_PERFMON or
 * CAP_SYS_ADMIN when /dev/aca was opened, or the module's group_perfmon).
 * A connection starts unprivileged; set before its first use. A session
 * takes the privilege of its control connection: unprivileged, it keeps
 * the handshake and the information commands but INIT_DRIVER and START
 * answer VT_NO_ADMIN_PRIVILEGE (213), and READ_MSR of a RAPL energy
 * counter VT_MSR_ACCESS_ERROR (196).
 */
void acp_conn_set_privileged(struct acp_conn *c, bool privileged);

/*
 * Who is behind the connection, as an opaque token only compared: a data
 * channel joins a session only if it is the same person as the session's
 * control channel (acp_conn_attach()). In the kernel: the opener's euid at
 * open(), replaced by the relay's ACA_IOC_SET_CLIENT (the local peer's
 * euid, or one token for every admitted network peer and another for
 * every unadmitted one). Set before the connection's first use; 0 until
 * set.
 */
void acp_conn_set_person(struct acp_conn *c, u64 person);

/*
 * Whether kernel addresses may be shown to the connection's person: what
 * /proc/kallsyms would show them (in the kernel: kptr_restrict and
 * CAP_SYSLOG, client.c). A connection starts without; set before its
 * first use. A session takes it from its control connection: without it,
 * KERNEL_SYMBOLS answers every slot empty and logs why.
 */
void acp_conn_set_kernel_addresses(struct acp_conn *c, bool shown);
/* The connection has its role (attached, or used): too late to set them. */
bool acp_conn_has_role(const struct acp_conn *c);
/* Free what the connection holds; ends the session if it was the control. */
void acp_conn_release(struct acp_conn *c);

/*
 * Give the connection its role in the session (control, data channel, or a
 * second host to turn away). A data channel is one from the session's peer
 * address and the control channel's opener and person; any other
 * connection while a
 * session is active is a second host. False (nothing changed) if the
 * connection already has a role: a peer is given once.
 */
bool acp_conn_attach(struct acp_conn *c, const struct acp_peer *peer);

/*
 * A real read of the connection (read(2), splice(2)) is about to happen:
 * a connection never attached explicitly attaches as a local peer now.
 * acp_conn_input() does the same for writes. Queries (acp_conn_peek(),
 * acp_conn_writable(), acp_conn_eof(), acp_conn_stream()) never attach:
 * before its first use a connection has nothing to read and takes input.
 */
void acp_conn_use(struct acp_conn *c);

/*
 * Feed peer bytes. Returns how many were consumed: at most one protocol
 * unit per call, so callers loop; 0 means the core wants its pending output
 * read first (back-pressure). Never an error. Input after the connection is
 * over is consumed and discarded.
 */
size_t acp_conn_input(struct acp_conn *c, const void *buf, size_t len);

/* Pending output: returns its length and points *@data at it. */
size_t acp_conn_peek(struct acp_conn *c, const void **data);
void acp_conn_consume(struct acp_conn *c, size_t n);

/*
 * True when the bytes acp_conn_peek() would return next come from data
 * channel *@chan's stream (data_peek(), possibly none right now): no reply
 * bytes are queued before them and the channel may stream now. Whoever
 * hands out stream bytes without acp_conn_peek() reports the drained end
 * with acp_conn_drained(): that is how STOP learns the channel is drained.
 */
bool acp_conn_stream(struct acp_conn *c, u32 *chan);

/*
 * A data channel's stream may be drained for good now (empty, and final:
 * data_final()): a pending STOP may answer. Whoever reads the stream
 * without acp_conn_peek() and acp_conn_consume() (the kernel reads its
 * bound ring directly) calls it when it empties a final stream, and so
 * does whoever sees a stream become final after STOP (the kernel's module
 * records). Harmless when it is not drained, or on any other connection.
 */
void acp_conn_drained(struct acp_conn *c);

/* The peer will send nothing more: end once pending output is read. */
void acp_conn_hangup(struct acp_conn *c);

/* True when acp_conn_input() will consume at least one byte. */
bool acp_conn_writable(struct acp_conn *c);

/* True once the connection is over and every reply byte has been read. */
bool acp_conn_eof(struct acp_conn *c);

/*
 * The local ioctl API (no protocol session) takes the sampler: false if a
 * host session exists or the API is already in use. While claimed, hosts
 * get "busy". Its caller is privileged (it may sample): an unprivileged
 * host session yields to it (acp_session_yield()).
 */
bool acp_local_claim(struct acp_target *t);
void acp_local_release(struct acp_target *t);

/*
 * A record's LBR area (@nregs U64s) from perf's branch stack @br, @nr
 * branches most recent first, laid out as LBR_INFO said (lbr.c). NMI-safe.
 */
void acp_lbr_fill(u64 *area, u32 nregs, const struct acp_lbr_layout *l,
		  const struct perf_branch_entry *br, u64 nr);

/*
 * A precise event's PEBS extras in its records (pebs.c, spec 6.13): the
 * PEBS record area, the latency area (bytes of the PEBS record), the
 * eventing IP and the PEBS TSC; a size or offset of 0 is none.
 */
struct acp_pebs_areas {
	u32 pebs_offset, pebs_size;
	u32 lat_offset, lat_size;	/* in the record */
	u32 lat_from, lat_from_size;	/* in the PEBS record */
	u32 eventing_ip_offset;
	u32 tsc_offset;
};

/* The PEBS record's general registers: ax, bx, cx, dx, si, di, bp, sp, r8-r15. */
#define ACP_PEBS_GPRS		16

/*
 * A PEBS record in the legacy layout (formats 0 to 3; Skylake's, the
 * longest, is this one, each older one its beginning), rebuilt from what
 * perf decoded from the hardware's and handed the overflow handler; 0
 * where perf gives nothing (dse and tsx_tuning always: perf hands them
 * back only translated).
 */
struct acp_pebs_record {
	u64 flags, ip;		/* RFLAGS; perf's IP (precise_ip 2: eventing) */
	u64 gprs[ACP_PEBS_GPRS];
	u64 status;		/* the applicable counter's GLOBAL_STATUS bit */
	u64 dla, dse, lat;	/* data address and source, load latency */
	u64 real_ip;		/* the eventing IP */
	u64 tsx_tuning;
	u64 tsc;
};

/*
 * The PEBS areas of descriptor @d: false when one is unaligned, outside
 * its record (after the base) or on its callstack or LBR area.
 */
bool acp_pebs_areas(const struct sep_event_desc *d, struct acp_pebs_areas *a);
/*
 * What START fills in records of descriptor @index: its areas that
 * DEV_CONFIG's enable bits ask for (pebs_capture, latency_capture,
 * eventing_ip_capture, tsc_capture; with enable_adaptive_pebs neither
 * PEBS nor latency area: their layout is not the legacy one); false for
 * none, or for areas DESC_NEXT found out of place.
 */
bool acp_pebs_layout(const struct acp_config *cfg, u32 index, struct acp_pebs_areas *a);
/* The end of the last area (0: none): a record's bytes to zero first. */
u32 acp_pebs_end(const struct acp_pebs_areas *a);
/* Fill @a's areas of record @rec from PEBS record @p. NMI-safe. */
void acp_pebs_write(u8 *rec, const struct acp_pebs_areas *a, const struct acp_pebs_record *p);

/*
 * [ACA-EXT] The local API's IBS event (ibs.c): type, @config and rings of
 * *@e for the target's ibs_fetch (@fetch) or ibs_op PMU. VT_SUCCESS,
 * VT_INVALID_DEVICE without the PMU, VT_BAD_PARAMETER for an option its
 * format files do not name.
 */
s32 acp_ibs_pmu_event(struct acp_target *t, bool fetch, u64 config, struct acp_event *e);
/* The perf PMU of IBS event @e ("ibs_op", "ibs_fetch"), or NULL. */
const char *acp_ibs_pmu_name(const struct acp_event *e);

/* Status message for a hello (exposed for tests). */
void acp_build_status(const struct acp_target *t, s32 status,
		      struct sep_target_status_msg *msg);

#endif /* ACA_CORE_H */
