// SPDX-License-Identifier: GPL-2.0-only
/*
 * Configuration of a collection (spec 5): topology, descriptors, devices,
 * event groups and their ECBs. Everything is copied and bounded here; the
 * sampler only ever sees the decoded result.
 */
#include "internal.h"

s32 acp_cmd_init_num_dev(const struct acp_cmd *cmd, struct acp_reply *r)
{
	u32 n;

	memcpy(&n, cmd->in, sizeof(n));
	if (n > ACP_MAX_DEVICES)
		return VT_BAD_PARAMETER;
	cmd->t->cfg.num_devices = n;
	return VT_SUCCESS;
}

/* One DRV_TOPOLOGY_INFO per CPU; the count is the payload's (spec 5.3). */
s32 acp_cmd_topology(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_config *cfg = &cmd->t->cfg;
	u64 n = cmd->in_len / sizeof(*cfg->topology);
	void *copy;

	if (n > cmd->t->ncpus + 0ull)
		n = cmd->t->ncpus;
	copy = acp_zalloc(cmd->t, n * sizeof(*cfg->topology));
	if (!copy)
		return VT_NO_MEMORY;
	memcpy(copy, cmd->in, n * sizeof(*cfg->topology));
	acp_free(cmd->t, cfg->topology);
	cfg->topology = copy;
	cfg->ntopology = n;
	return VT_SUCCESS;
}

s32 acp_cmd_num_descriptor(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_config *cfg = &cmd->t->cfg;
	u32 n;

	memcpy(&n, cmd->in, sizeof(n));
	if (n > ACP_MAX_DESCRIPTORS)
		return VT_BAD_PARAMETER;
	cfg->ndesc_expected = n;
	cfg->ndesc = 0;
	return VT_SUCCESS;
}

/*
 * A callstack area ([ACA-EXT] struct aca_callstack_head) lies in the
 * record after its SampleRecordPC base, 8-byte aligned, with room for its
 * head and one address.
 */
static bool callstack_area_ok(const struct sep_event_desc *d)
{
	u32 base = sizeof(struct sep_sample_record_pc);

	return d->callstack_offset >= base && d->callstack_offset % 8 == 0 &&
	       d->callstack_size % 8 == 0 &&
	       d->callstack_size >= sizeof(struct aca_callstack_head) + sizeof(u64) &&
	       d->callstack_offset <= d->sample_size &&
	       d->callstack_size <= d->sample_size - d->callstack_offset;
}

/*
 * An LBR area (spec 5.7, 6.11): lbr_num_regs U64s in the record after its
 * base, aligned, apart from the callstack area.
 */
static bool lbr_area_ok(const struct sep_event_desc *d)
{
	u32 base = sizeof(struct sep_sample_record_pc);
	u64 end = d->lbr_offset + (u64)d->lbr_num_regs * sizeof(u64);

	if (d->lbr_num_regs > ACP_MAX_LBR_REGS || d->lbr_offset < base ||
	    d->lbr_offset % 8 || end > d->sample_size)
		return false;
	return !d->callstack_size || end <= d->callstack_offset ||
	       d->lbr_offset >= d->callstack_offset + (u64)d->callstack_size;
}

s32 acp_cmd_desc_next(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_config *cfg = &cmd->t->cfg;
	struct acp_pebs_areas pebs;
	struct sep_event_desc d;

	if (cfg->ndesc >= cfg->ndesc_expected)
		return VT_BAD_PARAMETER;
	memcpy(&d, cmd->in, sizeof(d));
	/* Records are at least a SampleRecordPC and must stay aligned. */
	if (d.sample_size && (d.sample_size < sizeof(struct sep_sample_record_pc) ||
			      d.sample_size > 4096 || d.sample_size % 8))
		return VT_BAD_PARAMETER;
	if (d.callstack_size && !callstack_area_ok(&d)) {
		acp_log(cmd->t, "DESC_NEXT: callstack area @%u, %u bytes: not in a %u-byte record",
			d.callstack_offset, d.callstack_size, d.sample_size);
		return VT_BAD_PARAMETER;
	}
	if (d.lbr_num_regs && !lbr_area_ok(&d)) {
		acp_log(cmd->t, "DESC_NEXT: LBR area @%u, %u registers: %s %u-byte record",
			d.lbr_offset, d.lbr_num_regs, "outside, or on the callstack area of, a",
			d.sample_size);
		return VT_BAD_PARAMETER;
	}
	/* Taken all the same: START fills none of them (acp_pebs_layout()). */
	if (!acp_pebs_areas(&d, &pebs))
		acp_log(cmd->t, "DESC_NEXT: PEBS @%u+%u, latency @%u+%u, %s @%u, TSC @%u: %s",
			d.pebs_offset, d.pebs_size, d.latency_offset_in_sample,
			d.latency_size_in_sample, "eventing IP", d.eventing_ip_offset,
			d.pebs_tsc_offset,
			"unaligned, outside the record or on its callstack or LBR area: left zero");
	cfg->desc[cfg->ndesc++] = d;
	return VT_SUCCESS;
}

/*
 * The core device. num_events may be 0 although an ECB follows (spec 5.4
 * [INCONSISTENCY]): the device counts as active once events arrive.
 */
s32 acp_cmd_init(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_config *cfg = &cmd->t->cfg;

	memcpy(&cfg->dev, cmd->in, sizeof(cfg->dev));
	cfg->have_dev = true;
	if (cfg->dev.enable_bits & SEP_DEV_CFG_ENABLE_ADAPTIVE_PEBS)
		acp_log(cmd->t, "INIT: adaptive PEBS asked; %s",
			"aca rebuilds legacy PEBS records only: PEBS and latency areas stay zero");
	return VT_SUCCESS;
}

s32 acp_cmd_em_groups(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_config *cfg = &cmd->t->cfg;
	struct sep_event_config ec;
	struct acp_group *groups;

	memcpy(&ec, cmd->in, sizeof(ec));
	if (!ec.num_groups || ec.num_groups > ACP_MAX_GROUPS) {
		acp_log(cmd->t, "EM_GROUPS: %u groups, supported 1..%u",
			ec.num_groups, ACP_MAX_GROUPS);
		return VT_BAD_PARAMETER;
	}
	groups = acp_zalloc(cmd->t, ec.num_groups * sizeof(*groups));
	if (!groups)
		return VT_NO_MEMORY;
	acp_free(cmd->t, cfg->groups);
	cfg->groups = groups;
	cfg->ngroups = ec.num_groups;
	cfg->events = ec;
	return VT_SUCCESS;
}

/*
 * Accepted whether or not the host asks for a DRV_IOCTL_STATUS (spec 4.5
 * [IMPL]); a zeroed one is returned when asked for. The ECB is decoded
 * aside and replaces its group only once all of it was accepted: a refused
 * one leaves the group as it was, never half-decoded for START.
 */
s32 acp_cmd_em_config_next(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_config *cfg = &cmd->t->cfg;
	const struct sep_ecb *ecb = (const struct sep_ecb *)cmd->in;
	struct sep_drv_ioctl_status st = { 0 };
	struct acp_group *g;
	bool ok;

	if (ecb->group_id >= cfg->ngroups) {
		acp_log(cmd->t, "EM_CONFIG_NEXT: group %u of %u", ecb->group_id,
			cfg->ngroups);
		return VT_BAD_PARAMETER;
	}
	g = acp_zalloc(cmd->t, sizeof(*g));
	if (!g)
		return VT_NO_MEMORY;
	ok = acp_ecb_decode(cmd->t, cmd->in, cmd->in_len, g, &st);
	if (ok)
		cfg->groups[ecb->group_id] = *g;
	acp_free(cmd->t, g);
	if (!ok)
		return VT_DRIVER_COMM_FAILED;	/* decode logged why */
	if (cmd->out_len >= sizeof(st))
		acp_reply_copy(r, &st, sizeof(st));
	return VT_SUCCESS;
}

s32 acp_cmd_init_pmu(const struct acp_cmd *cmd, struct acp_reply *r)
{
	if (cmd->in_len == 4)
		memcpy(&cmd->t->cfg.pmu_buffer_size, cmd->in, 4);
	return VT_SUCCESS;
}
