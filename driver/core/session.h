/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * State of the protocol core: the target's one host session, its collection
 * configuration, and each connection's stream state. Included by core.h;
 * callers treat these as opaque and only size them.
 */
#ifndef ACA_CORE_SESSION_H
#define ACA_CORE_SESSION_H

#include "sep_cmd.h"

/* Bounds on what a peer may make the core hold. */
#define ACP_MAX_PAYLOAD		(1024u * 1024)	/* inbound payload per command */
#define ACP_MAX_REPLY		(16u << 20)	/* outbound payload per command */
#define ACP_MAX_GROUPS		64		/* event groups (EM_GROUPS) */
#define ACP_MAX_EVENTS		16		/* events decoded per group */
#define ACP_MAX_DESCRIPTORS	64
#define ACP_MAX_DEVICES		64
#define ACP_MAX_UNC_EVENTS	256		/* uncore counters (EM_CONFIG_NEXT_UNC) */
#define ACP_UNC_PMU_NAME	24		/* "uncore_m2pcie_3" and NUL */
#define ACP_UNC_FIXED		0xff		/* acp_unc_event.counter: the fixed one */
#define ACP_MAX_LBR_ENTRIES	64		/* LBR depth (Arch LBR's largest) */
#define ACP_MAX_LBR_REGS	(3 * ACP_MAX_LBR_ENTRIES + 1)	/* FROM, TO, INFO each, TOS */
/* PMU counter width: a sample-after value (period) is below 2^48. */
#define ACP_COUNTER_BITS	48u
#define ACP_COUNTER_MASK	((1ull << ACP_COUNTER_BITS) - 1)

/* Driver state (spec 8.3 [IMPL]); reported through GET_DRIVER_STATE. */
enum acp_state {
	ACP_IDLE,		/* no reservation */
	ACP_RESERVED,
	ACP_CONFIGURED,
	ACP_RUNNING,
	ACP_PAUSED,
	ACP_STOPPED,
};

/* One sampling event decoded from an ECB (spec 6.5, 6.8). */
struct acp_event {
	u8 fixed;		/* 1: fixed counter @counter, 0: general */
	u8 counter;
	u8 precise;
	u8 exclude_user;
	u8 exclude_kernel;
	u8 software;		/* [ACA-EXT] perf software event @config */
	u8 load_latency;	/* PEBS load latency (its config1 the threshold) */
	u8 trigger;		/* its samples count toward a switch after
				 * em_factor samples (em_mode 1, 2; ecb.c)
				 */
	u16 event_index;	/* the sample's eventIndex and descriptor */
	u32 msr;		/* counter register it came from */
	u64 config;		/* raw event encoding for perf */
	u64 config1;		/* offcore response, load latency, frontend */
	u64 branch_type;	/* perf's branch_sample_type; 0: no LBRs */
	u32 pmu_type;		/* [ACA-EXT] IBS: its PMU's perf type, @config
				 * its options, @period its count, every ring;
				 * 0: PERF_TYPE_RAW or @software
				 */
	u64 period;		/* sample-after value: 1 .. ACP_COUNTER_MASK;
				 * 0 (none) in counting mode only
				 */
};

struct acp_group {
	bool loaded;		/* its ECB arrived */
	u32 nevents;
	struct acp_event events[ACP_MAX_EVENTS];
};

/*
 * One uncore counter decoded from an uncore ECB (uncore.c): an event of
 * the target's perf PMU @pmu, counted once per package, its running count
 * a U64 at @record_offset of the device's uncore record (spec 7.2).
 */
struct acp_unc_event {
	char pmu[ACP_UNC_PMU_NAME];	/* "uncore_cha_3" */
	u32 type;			/* its perf_event_attr.type */
	u16 event_index;
	u16 record_offset;		/* counter_event_offset */
	u16 group_offset;		/* where the record's group number goes */
	u16 device;			/* its ECB's: one record per device and package */
	u16 rec_size;			/* its records' bytes: the descriptor's, at most 4096 */
	u16 desc_id;			/* the record's descriptor */
	u8 counter;			/* its box's counter, or ACP_UNC_FIXED */
	u64 config, config1;
};

/*
 * A record's LBR area (LBR_INFO, spec 5.4a): register k of the area is
 * @kind[k] (SEP_LBR_*) of LBR entry @index[k]. The area shows the
 * branches as the LBRs would hold them with TOS = @depth - 1: entry i
 * holds the (depth - 1 - i)-th most recent branch.
 */
struct acp_lbr_layout {
	u16 n;
	u8 depth;		/* LBR entries named: the largest index + 1 */
	u8 kind[ACP_MAX_LBR_REGS];
	u8 index[ACP_MAX_LBR_REGS];
};

/* What a host configured for one collection; freed at session end. */
struct acp_config {
	struct sep_drv_config drv;
	struct sep_drv_topology_info *topology;
	u32 ntopology;
	u32 ndesc_expected;
	u32 ndesc;
	struct sep_event_desc desc[ACP_MAX_DESCRIPTORS];
	u32 num_devices;
	struct sep_dev_config dev;
	bool have_dev;
	struct sep_event_config events;
	struct acp_group *groups;
	u32 ngroups;
	u32 pmu_buffer_size;
	struct acp_unc_event *unc;	/* ACP_MAX_UNC_EVENTS, from EM_GROUPS_UNC */
	u32 nunc;
	u32 nunc_devices;		/* uncore ECBs accepted */
	struct acp_lbr_layout lbr;	/* LBR_INFO's; n 0: none came */
	u32 osid;
	u32 ncpus;		/* CPU data channels; module channel = ncpus + 1 */
	u8 log_verbosity[SEP_DRV_LOG_CONTROL_MAX_DATA_SIZE];
};

/*
 * Counting mode (collection_config bit 1, spec 6.9): events count and are
 * read with READ_AND_RESET / READ_SWITCH_GROUP; nothing samples.
 */
static inline bool acp_counting_mode(const struct acp_config *cfg)
{
	return cfg->drv.collection_config & SEP_DRV_CFG_COUNTING_MODE;
}

/* INIT asked for LBRs (DEV_CONFIG collect_lbrs, spec 5.4). */
static inline bool acp_lbrs_asked(const struct acp_config *cfg)
{
	return cfg->have_dev && (cfg->dev.enable_bits & SEP_DEV_CFG_COLLECT_LBRS);
}

struct acp_target {
	const struct acp_ops *ops;
	void *ctx;
	enum acp_state state;
	struct acp_conn *control;	/* NULL: no session */
	/*
	 * READ_MSR's token bucket (msr.c), the target's: a peer that
	 * reconnects gets no fresh burst. Tokens left, refilled up to now.
	 */
	u32 msr_tokens;
	bool msr_bucket;		/* started (full at the first READ_MSR) */
	u64 msr_refilled;		/* tsc_now() of the last token added */
	struct acp_peer peer;		/* the session's host */
	struct acp_conn **data;		/* channels, in acceptance order */
	u32 ndata;
	u32 nexpected;			/* N CPU channels + uncore + module */
	u32 ncpus;
	struct acp_config cfg;
	u8 *sysconfig;			/* GET_SYS_CONFIG blob, built once */
	u32 sysconfig_len;
	u64 sessions;
	/* tsc_now() of the control channel's last request, or its hello. */
	u64 last_request;
	/* The control connection's opener may sample (acp_conn_set_privileged). */
	bool privileged;
	/* ...and be shown kernel addresses (acp_conn_set_kernel_addresses). */
	bool kernel_addresses;
	bool local_busy;		/* the local ioctl API holds the sampler */
	bool delayed;			/* delayed transfer (spec 3.3) */
	/* STOP answered once every data channel is drained (spec 13). */
	bool stop_pending;
};

enum acp_role {
	ACP_ROLE_NONE,		/* not attached yet */
	ACP_ROLE_CONTROL,
	ACP_ROLE_DATA,
	ACP_ROLE_BUSY,		/* a second host: answered 219, then closed */
};

enum acp_in {
	ACP_IN_HELLO,
	ACP_IN_HEADER,
	ACP_IN_PAYLOAD,
	ACP_IN_SKIP,		/* consume a payload we will not use */
	ACP_IN_NONE,		/* discard everything */
};

/* One queued reply: a head (message or header), then data, then zeros. */
struct acp_out {
	u8 head[sizeof(struct sep_target_status_msg)];
	u32 head_len;
	u32 head_off;
	const u8 *data;
	void *owned;		/* freed once sent */
	u8 small[64];		/* small replies are copied here */
	u64 data_len;
	u64 data_off;
	u64 zeros;
};

struct acp_conn_ops;

struct acp_conn {
	struct acp_target *t;
	void *ctx;
	/* conn.c's replies and closes, for session.c and dispatch.c (internal.h) */
	const struct acp_conn_ops *ops;
	/* Who opened it (opaque): a session's channels share one opener. */
	const void *opener;
	bool privileged;	/* acp_conn_set_privileged() */
	bool kernel_addresses;	/* acp_conn_set_kernel_addresses() */
	u64 person;		/* acp_conn_set_person() */
	enum acp_role role;
	u32 channel;		/* data channel index */
	bool closed;		/* no more output: EOF once drained */
	struct acp_peer peer;
	enum acp_in in;
	u32 in_len;
	union {
		u8 bytes[sizeof(struct sep_control_msg_header)];
		struct sep_control_first_msg hello;
		struct sep_control_msg_header hdr;
	} in_buf;
	u8 *payload;
	u64 payload_len;
	u64 payload_got;
	u64 skip_left;
	struct acp_out out;
};

#endif /* ACA_CORE_SESSION_H */
