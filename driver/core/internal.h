/* SPDX-License-Identifier: GPL-2.0-only */
/* Functions and types shared between the protocol core's own files. */
#ifndef ACA_CORE_INTERNAL_H
#define ACA_CORE_INTERNAL_H

#include "core.h"

/* What a refusal for want of CAP_PERFMON tells the administrator. */
#define ACP_PRIV_WHO	"the connection's user lacks CAP_PERFMON (aca(4) SECURITY)"
#define ACP_PRIV_GRANT	"connect through aca-relay's local socket as a user who has it, or from a host the relay admits with --allow,"
#define ACP_PRIV_PARAM	"or load aca with group_perfmon=1 and join the group of /dev/aca"

/* A line for the system log (util.c). */
__printf(2, 3) void acp_log(const struct acp_target *t, const char *fmt, ...);

/* A command being run: the request as the host sent it. */
struct acp_cmd {
	struct acp_target *t;
	struct acp_conn *c;
	u32 id;
	const u8 *in;
	u64 in_len;
	u64 out_len;		/* what the host asked for */
};

/* What a command answers; data beyond out_len is cut, short data padded. */
struct acp_reply {
	s32 status;
	const void *data;
	void *owned;		/* freed by the core after sending */
	u64 len;
	bool end_session;	/* TERMINATE: answer, then end the session */
	u8 small[64];
};

typedef s32 (*acp_run_fn)(const struct acp_cmd *cmd, struct acp_reply *r);

struct acp_command {
	u32 id;
	acp_run_fn run;
	u32 states;		/* BIT(enum acp_state) where allowed; 0: any */
	u32 in_min;		/* payload bounds */
	u32 in_max;
	u32 out_min;		/* smallest reply buffer the host may ask */
};

#define ACP_IN(s)	(1u << (s))
#define ACP_ANY		0

/* handshake.c */
s32 acp_check_hello(const struct sep_control_first_msg *hello);

/*
 * conn.c's interface to the layers it drives: calls run one way, conn.c ->
 * dispatch.c -> session.c (and conn.c -> session.c), never back
 * (tools/call-cycles). Replies and closes go back through the table a
 * connection carries (@c->ops, set by acp_conn_init()), which conn.c owns.
 */
struct acp_conn_ops {
	/* Queue a reply head (status message, response header, data hello). */
	void (*queue)(struct acp_conn *c, const void *head, u32 head_len);
	/* No more output will be queued: EOF once the reader has it all. */
	void (*close)(struct acp_conn *c);
	/* Drop the queued reply: a STOP answer nobody waits for any more. */
	void (*discard_output)(struct acp_conn *c);
	/* STOP: its response waits until every data channel is drained. */
	void (*stop_wait)(struct acp_target *t);
};

/* session.c */
void acp_session_begin(struct acp_target *t, struct acp_conn *control);
void acp_session_end(struct acp_target *t);
void acp_session_touch(struct acp_target *t, struct acp_conn *c);
bool acp_session_yield(struct acp_target *t, bool privileged, const char *who);
void acp_data_attach(struct acp_target *t, struct acp_conn *c);
void acp_close_data(struct acp_target *t);

/* dispatch.c */
void acp_dispatch(struct acp_conn *c);
const struct acp_command *acp_find_command(u32 id);

/* util.c: replies and the target's allocations */
s32 acp_reply_copy(struct acp_reply *r, const void *p, u32 n);
void *acp_reply_alloc(const struct acp_cmd *cmd, struct acp_reply *r,
		      u64 n);
void *acp_zalloc(struct acp_target *t, size_t n);
void acp_free(struct acp_target *t, void *p);

/* IA32_PERF_CAPABILITIES; bit 14: PEBS baseline (fixed counters can be precise). */
#define MSR_PERF_CAPABILITIES	0x345
#define PERF_CAP_PEBS_BASELINE	BIT_ULL(14)

/* Command implementations, by file. */
s32 acp_cmd_reserve(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_init_driver(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_start(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_stop(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_pause(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_resume(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_terminate(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_switch_group(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_group_times(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_module_snapshot(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_read_and_reset(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_read_switch_group(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_driver_state(const struct acp_cmd *cmd, struct acp_reply *r);

s32 acp_cmd_version(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_setup_info(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_num_cores(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_tsc(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_tsc_skew(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_platform_info(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_kernel_cs(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_num_core_ctrs(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_perf_capab(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_num_samples(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_drop_info(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_thread_count(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_set_osid(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_pax_info(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_driver_log(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_get_driver_log(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_success(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_kernel_symbols(const struct acp_cmd *cmd, struct acp_reply *r);

s32 acp_cmd_collect_sys_config(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_get_sys_config(const struct acp_cmd *cmd, struct acp_reply *r);

s32 acp_cmd_init_num_dev(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_topology(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_num_descriptor(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_desc_next(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_init(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_em_groups(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_em_config_next(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_init_pmu(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_init_unc(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_em_groups_unc(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_em_config_next_unc(const struct acp_cmd *cmd, struct acp_reply *r);
bool acp_uncore_available(const struct acp_target *t);
bool acp_ecb_sections_fit(struct acp_target *t, const struct sep_ecb *hdr, u32 nslots);

/*
 * format.c: a PMU format file's text ("config1:0-8,21") into the bits it
 * names in config, config1 and config2 (ORed into @bits); false if it is
 * not one.
 */
#define ACP_FORMAT_WORDS	3
bool acp_pmu_format_bits(const char *spec, u64 bits[ACP_FORMAT_WORDS]);

/* lbr.c */
s32 acp_cmd_lbr_info(const struct acp_cmd *cmd, struct acp_reply *r);
bool acp_lbr_branch_type(const struct acp_target *t, u64 select, u64 *type);

/* ibs.c */
bool acp_ibs_register(u32 msr);
bool acp_ibs_event(struct acp_target *t, u32 msr, u64 v, struct acp_event *e, bool *enabled);

s32 acp_cmd_read_msr(const struct acp_cmd *cmd, struct acp_reply *r);
s32 acp_cmd_write_msr(const struct acp_cmd *cmd, struct acp_reply *r);

/*
 * ecb.c: decode one core ECB into events; false if malformed. A refused
 * ECB may leave @g partly decoded: decode into scratch, keep it on success.
 */
bool acp_ecb_decode(struct acp_target *t, const u8 *ecb, u64 len,
		    struct acp_group *g, struct sep_drv_ioctl_status *st);

/* msr.c */
bool acp_msr_allowed(u32 msr);
/* READ_MSR, the target's: ACP_MSR_RATE a second, bursts of ACP_MSR_BURST. */
#define ACP_MSR_RATE	50u
#define ACP_MSR_BURST	100u

/* sysconfig.c */
void acp_sysconfig_free(struct acp_target *t);

#endif /* ACA_CORE_INTERNAL_H */
