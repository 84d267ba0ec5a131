// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command dispatch (spec 4): one table of every command the target answers,
 * with the states it is legal in and the sizes it accepts, and the framing
 * rules of the response.
 */
#include "internal.h"

#define CONFIGURING	ACP_IN(ACP_CONFIGURED)
#define COLLECTING	(ACP_IN(ACP_RUNNING) | ACP_IN(ACP_PAUSED))

static const struct acp_command commands[] = {
	/* session and state machine */
	{ SEP_CMD_RESERVE, acp_cmd_reserve, ACP_ANY, 0, 0, 4 },
	/* Both privileged only (privileged_command()). */
	{ SEP_CMD_INIT_DRIVER, acp_cmd_init_driver, ACP_IN(ACP_RESERVED),
	  64, ACP_MAX_PAYLOAD, 0 },
	{ SEP_CMD_START, acp_cmd_start, CONFIGURING, 0, 0, 0 },
	{ SEP_CMD_STOP, acp_cmd_stop, COLLECTING, 0, 0, 0 },
	{ SEP_CMD_PAUSE, acp_cmd_pause, ACP_ANY, 0, 0, 0 },
	{ SEP_CMD_RESUME, acp_cmd_resume, ACP_ANY, 0, 0, 0 },
	{ SEP_CMD_SWITCH_GROUP, acp_cmd_switch_group, COLLECTING, 0, 0, 0 },
	/* Counting mode only (6.9); as many bytes as asked, zeros past. */
	{ SEP_CMD_READ_AND_RESET, acp_cmd_read_and_reset, COLLECTING, 0, 0, 0 },
	{ SEP_CMD_READ_SWITCH_GROUP, acp_cmd_read_switch_group, COLLECTING, 0, 0, 0 },
	{ SEP_CMD_TERMINATE, acp_cmd_terminate, ACP_ANY, 0, 0, 0 },
	{ SEP_CMD_GET_DRIVER_STATE, acp_cmd_driver_state, ACP_ANY, 0, 0, 4 },
	/* information */
	{ SEP_CMD_VERSION, acp_cmd_version, ACP_ANY, 0, 0, 4 },
	{ SEP_CMD_GET_DRV_SETUP_INFO, acp_cmd_setup_info, ACP_ANY, 0, 0, 32 },
	{ SEP_CMD_NUM_CORES, acp_cmd_num_cores, ACP_ANY, 0, 0, 4 },
	{ SEP_CMD_GET_NORMALIZED_TSC, acp_cmd_tsc, ACP_ANY, 0, 0, 8 },
	{ SEP_CMD_GET_NORMALIZED_TSC_STANDALONE, acp_cmd_tsc, ACP_ANY, 0, 0, 8 },
	{ SEP_CMD_TSC_SKEW_INFO, acp_cmd_tsc_skew, ACP_ANY, 0, 0, 8 },
	{ SEP_CMD_GET_PLATFORM_INFO, acp_cmd_platform_info, ACP_ANY,
	  0, ACP_MAX_PAYLOAD, sizeof(struct sep_drv_platform_info) },
	{ SEP_CMD_COLLECT_SYS_CONFIG, acp_cmd_collect_sys_config, ACP_ANY, 0, 0, 4 },
	{ SEP_CMD_GET_SYS_CONFIG, acp_cmd_get_sys_config, ACP_ANY, 0, 0, 1 },
	{ SEP_CMD_KERNEL_CS, acp_cmd_kernel_cs, ACP_ANY, 0, 0, 4 },
	{ SEP_CMD_GET_NUM_CORE_CTRS, acp_cmd_num_core_ctrs, ACP_ANY, 0, 0, 4 },
	{ SEP_CMD_GET_PERF_CAPAB, acp_cmd_perf_capab, ACP_ANY, 0, 0, 8 },
	{ SEP_CMD_GET_NUM_SAMPLES, acp_cmd_num_samples, ACP_ANY, 0, 0, 8 },
	{ SEP_CMD_GET_SAMPLE_DROP_INFO, acp_cmd_drop_info, ACP_ANY,
	  0, 0, sizeof(struct sep_sample_drop_info) },
	{ SEP_CMD_GET_THREAD_COUNT, acp_cmd_thread_count, ACP_ANY, 0, 0, 4 },
	{ SEP_CMD_SET_OSID, acp_cmd_set_osid, ACP_ANY, 0, 4, 0 },
	{ SEP_CMD_PAX_INFO, acp_cmd_pax_info, ACP_ANY, 0, 0, 0 },
	{ SEP_CMD_CONTROL_DRIVER_LOG, acp_cmd_driver_log, ACP_ANY,
	  8, ACP_MAX_PAYLOAD, 0 },
	{ SEP_CMD_GET_DRIVER_LOG, acp_cmd_get_driver_log, ACP_ANY, 0, 0, 0 },
	{ SEP_CMD_READ_MSR, acp_cmd_read_msr, ACP_ANY, 4, 4, 0 },
	/* Always refused (196), in any state, leaving the session as it is. */
	{ SEP_CMD_WRITE_MSR, acp_cmd_write_msr, ACP_ANY,
	  sizeof(struct sep_event_reg), sizeof(struct sep_event_reg), 0 },
	/* configuration of a collection */
	{ SEP_CMD_INIT_NUM_DEV, acp_cmd_init_num_dev, ACP_ANY, 4, 4, 0 },
	{ SEP_CMD_SET_DEVICE_NUM_UNITS, acp_cmd_success, ACP_ANY, 0, 4, 0 },
	{ SEP_CMD_SET_CPU_TOPOLOGY, acp_cmd_topology, CONFIGURING,
	  sizeof(struct sep_drv_topology_info), ACP_MAX_PAYLOAD, 0 },
	{ SEP_CMD_NUM_DESCRIPTOR, acp_cmd_num_descriptor, CONFIGURING, 4, 4, 0 },
	{ SEP_CMD_DESC_NEXT, acp_cmd_desc_next, CONFIGURING,
	  sizeof(struct sep_event_desc), sizeof(struct sep_event_desc), 0 },
	{ SEP_CMD_INIT, acp_cmd_init, ACP_ANY,
	  sizeof(struct sep_dev_config), sizeof(struct sep_dev_config), 0 },
	{ SEP_CMD_EM_GROUPS, acp_cmd_em_groups, CONFIGURING,
	  sizeof(struct sep_event_config), sizeof(struct sep_event_config), 0 },
	{ SEP_CMD_EM_CONFIG_NEXT, acp_cmd_em_config_next, CONFIGURING,
	  sizeof(struct sep_ecb), ACP_MAX_PAYLOAD, 0 },
	{ SEP_CMD_INIT_PMU, acp_cmd_init_pmu, CONFIGURING, 0, 4, 0 },
	{ SEP_CMD_LBR_INFO, acp_cmd_lbr_info, CONFIGURING, sizeof(struct sep_lbr_info_head),
	  sizeof(struct sep_lbr_info_head) + ACP_MAX_LBR_REGS * sizeof(struct sep_lbr_entry), 0 },
	{ SEP_CMD_INIT_UNC, acp_cmd_init_unc, CONFIGURING,
	  sizeof(struct sep_dev_unc_config), sizeof(struct sep_dev_unc_config), 0 },
	{ SEP_CMD_EM_GROUPS_UNC, acp_cmd_em_groups_unc, CONFIGURING,
	  sizeof(struct sep_event_config), sizeof(struct sep_event_config), 0 },
	{ SEP_CMD_EM_CONFIG_NEXT_UNC, acp_cmd_em_config_next_unc, CONFIGURING,
	  sizeof(struct sep_ecb), ACP_MAX_PAYLOAD, 0 },
	{ SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO, acp_cmd_success, ACP_ANY,
	  0, ACP_MAX_PAYLOAD, 0 },
	/* [ACA-EXT] privileged only; its own bounds (acp_cmd_kernel_symbols()) */
	{ ACA_CMD_KERNEL_SYMBOLS, acp_cmd_kernel_symbols, ACP_ANY,
	  0, ACP_MAX_PAYLOAD, ACA_KSYM_SLOT_SIZE },
	/* [ACA-EXT] the session's own collection: no privilege needed */
	{ ACA_CMD_GROUP_TIMES, acp_cmd_group_times, ACP_ANY, 0, 0,
	  sizeof(struct aca_group_times_head) },
	/* [ACA-EXT] privileged only: the records describe every process */
	{ ACA_CMD_MODULE_SNAPSHOT, acp_cmd_module_snapshot, COLLECTING, 0, 0, 0 },
};

const struct acp_command *acp_find_command(u32 id)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (commands[i].id == id)
			return &commands[i];
	return NULL;
}

static s32 check_request(const struct acp_command *def,
			 const struct acp_cmd *cmd)
{
	struct acp_target *t = cmd->t;

	if (def->states && !(def->states & ACP_IN(t->state))) {
		acp_log(t, "command %u refused in state %d", cmd->id, t->state);
		return VT_DRIVER_COMM_FAILED;
	}
	if (cmd->in_len < def->in_min || cmd->in_len > def->in_max) {
		acp_log(t, "command %u: payload of %llu bytes, want %u..%u",
			cmd->id, (unsigned long long)cmd->in_len, def->in_min,
			def->in_max);
		return VT_DRIVER_COMM_FAILED;
	}
	/* A data command must be given room for its answer. */
	if (cmd->out_len && cmd->out_len < def->out_min)
		return VT_DRIVER_COMM_FAILED;
	if (cmd->out_len > ACP_MAX_REPLY) {
		acp_log(t, "command %u: reply of %llu bytes asked, limit %u",
			cmd->id, (unsigned long long)cmd->out_len, ACP_MAX_REPLY);
		return VT_DRIVER_COMM_FAILED;
	}
	return VT_SUCCESS;
}

/*
 * What only a privileged session may do (acp_conn_set_privileged()):
 * INIT_DRIVER writes the kernel's and modules' layout and allocates the
 * rings, START samples every process, KERNEL_SYMBOLS names kernel
 * addresses (and so tells where the kernel is), MODULE_SNAPSHOT describes
 * every process's mappings. Refused with VT_NO_ADMIN_PRIVILEGE
 * (213) before any other check, the state's included, so the host learns
 * the reason whatever it sent before.
 */
static const char *privileged_command(u32 id)
{
	switch (id) {
	case SEP_CMD_INIT_DRIVER:
		return "INIT_DRIVER";
	case SEP_CMD_START:
		return "START";
	case ACA_CMD_KERNEL_SYMBOLS:
		return "KERNEL_SYMBOLS";
	case ACA_CMD_MODULE_SNAPSHOT:
		return "MODULE_SNAPSHOT";
	default:
		return NULL;
	}
}

static s32 run(const struct acp_cmd *cmd, struct acp_reply *r)
{
	const struct acp_command *def = acp_find_command(cmd->id);
	const char *name;
	s32 status;

	if (!def) {
		acp_log(cmd->t, "command %u is not supported", cmd->id);
		return VT_DRIVER_COMM_FAILED;
	}
	name = privileged_command(cmd->id);
	if (name && !cmd->t->privileged) {
		acp_log(cmd->t, "%s refused: %s; %s %s", name, ACP_PRIV_WHO,
			ACP_PRIV_GRANT, ACP_PRIV_PARAM);
		return VT_NO_ADMIN_PRIVILEGE;
	}
	status = check_request(def, cmd);
	if (status != VT_SUCCESS)
		return status;
	return def->run(cmd, r);
}

/* Response framing (spec 4.1): exactly the asked length on success only. */
static void respond(struct acp_conn *c, u32 id, const struct acp_reply *r,
		    u64 asked)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h),
		.proto_version = SEP_PROTO_VERSION,
		.command_id = id,
		.status = r->status,
	};
	struct acp_out *o = &c->out;
	u64 n = r->len < asked ? r->len : asked;

	if (r->status != VT_SUCCESS)
		asked = 0;
	h.from_target_data_size = asked;
	c->ops->queue(c, &h, sizeof(h));
	if (!asked) {
		acp_free(c->t, r->owned);
		return;
	}
	if (r->data == r->small) {
		/* The reply lives on the dispatcher's stack: keep a copy. */
		memcpy(o->small, r->small, n);
		o->data = o->small;
	} else {
		o->data = r->data;
	}
	o->data_len = n;
	o->owned = r->owned;
	o->zeros = asked - n;
}

void acp_dispatch(struct acp_conn *c)
{
	struct acp_target *t = c->t;
	const struct sep_control_msg_header *h = &c->in_buf.hdr;
	struct acp_cmd cmd = {
		.t = t, .c = c, .id = h->command_id,
		.in = c->payload, .in_len = c->payload_len,
		.out_len = h->from_target_data_size,
	};
	struct acp_reply r = { .status = VT_SUCCESS };
	bool refuse = c->payload_len > ACP_MAX_PAYLOAD;

	acp_session_touch(t, c);
	c->in = ACP_IN_HEADER;
	if (h->header_size == sizeof(*h) && h->command_id == SEP_CMD_NONE &&
	    !refuse)
		return;		/* the reference answers nothing (spec 4.1.6) */
	if (h->header_size != sizeof(*h) || refuse) {
		r.status = VT_COMM_NOT_COMPATIBLE;
		if (refuse)
			acp_log(t, "command %u: payload of %llu bytes exceeds %u, session ended",
				cmd.id, (unsigned long long)c->payload_len,
				ACP_MAX_PAYLOAD);
	} else if (c->payload_len && !c->payload) {
		r.status = VT_NO_MEMORY;
	} else {
		r.status = run(&cmd, &r);
	}
	if (r.status != VT_SUCCESS)
		r.len = 0;
	respond(c, cmd.id, &r, cmd.out_len);
	acp_free(t, c->payload);
	c->payload = NULL;
	c->payload_len = 0;
	if (refuse || r.end_session) {
		if (t->control == c)
			acp_session_end(t);
		c->ops->close(c);
	}
}
