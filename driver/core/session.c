// SPDX-License-Identifier: GPL-2.0-only
/*
 * The target's single host session (spec 3, 8.3): which connection is the
 * control channel, which are data channels, and the driver state machine
 * RESERVE -> INIT_DRIVER -> START -> STOP -> TERMINATE.
 */
#include "internal.h"

void acp_target_init(struct acp_target *t, const struct acp_ops *ops,
		     void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->ops = ops;
	t->ctx = ctx;
}

void acp_target_fini(struct acp_target *t)
{
	acp_session_end(t);
	acp_sysconfig_free(t);
	if (t->ops->fini)
		t->ops->fini(t->ctx);
}

/* The first connection when no host is here becomes its control channel. */
void acp_session_begin(struct acp_target *t, struct acp_conn *control)
{
	u32 ncpus = t->ops->num_cpus(t->ctx);

	t->data = acp_zalloc(t, (ncpus + 2) * sizeof(*t->data));
	if (!t->data) {
		control->role = ACP_ROLE_BUSY;	/* answered, then closed */
		return;
	}
	control->role = ACP_ROLE_CONTROL;
	t->control = control;
	t->peer = control->peer;
	t->privileged = control->privileged;
	t->kernel_addresses = control->kernel_addresses;
	t->ncpus = ncpus;
	t->nexpected = ncpus + 2;
	t->ndata = 0;
	t->delayed = t->ops->delayed_transfer &&
		     t->ops->delayed_transfer(t->ctx);
	t->stop_pending = false;
	t->sessions++;
	acp_session_touch(t, control);
}

/* A request (or the hello) on @c: an unprivileged session's clock. */
void acp_session_touch(struct acp_target *t, struct acp_conn *c)
{
	if (t->control == c && !t->privileged)
		t->last_request = t->ops->tsc_now(t->ctx);
}

/*
 * Someone else wants the target: a host that is not of the session, or a
 * local trace (@who), @privileged if it may sample. An unprivileged
 * session cannot sample (dispatch.c): it only holds the target, so it
 * yields at once to whoever may sample, and to anyone once its control
 * channel has sent no request for session_idle_s seconds. A privileged
 * session never yields. The host that held it learns it the one way the
 * protocol has, its control channel's end (EOF, as after TERMINATE), and
 * the log says who took the target and why. True when no session holds
 * the target (any more).
 */
bool acp_session_yield(struct acp_target *t, bool privileged, const char *who)
{
	struct acp_conn *old = t->control;
	u32 limit = t->ops->session_idle_s ? t->ops->session_idle_s(t->ctx) : 0;
	u64 hz = t->ops->tsc_hz(t->ctx), idle_s;

	if (!old)
		return true;
	if (t->privileged)
		return false;
	idle_s = hz ? (t->ops->tsc_now(t->ctx) - t->last_request) / hz : 0;
	if (!privileged && (!limit || idle_s < limit))
		return false;
	if (privileged)
		acp_log(t,
			"%s, which may sample, ended the unprivileged host session (its last request %llu s ago)",
			who, (unsigned long long)idle_s);
	else
		acp_log(t,
			"%s ended the unprivileged host session: no request for %llu s, session_idle_s is %u",
			who, (unsigned long long)idle_s, limit);
	acp_session_end(t);
	old->ops->close(old);
	t->ops->wake(t->ctx, old->ctx);
	return true;
}

/* Data channels in spec 3.1 order: CPU 0..N-1, uncore, module. */
void acp_data_attach(struct acp_target *t, struct acp_conn *c)
{
	struct sep_data_first_msg first = { .proto_version = SEP_PROTO_VERSION };
	u32 k = t->ndata++;

	c->role = ACP_ROLE_DATA;
	c->channel = k;
	c->in = ACP_IN_NONE;
	t->data[k] = c;
	if (k < t->ncpus) {
		first.data_type = SEP_DATA_CPU;
		first.data_id = k;
	} else {
		first.data_type = k == t->ncpus ? SEP_DATA_UNCORE : SEP_DATA_MODULE;
	}
	c->ops->queue(c, &first, sizeof(first));
	/* After STOP answered: what its ring still holds, then EOF. */
	if (t->state == ACP_STOPPED && !t->stop_pending)
		c->ops->close(c);
}

/* Every data channel ends once its reader has what it still holds. */
void acp_close_data(struct acp_target *t)
{
	for (u32 i = 0; i < t->ndata; i++) {
		struct acp_conn *c = t->data[i];

		if (c && !c->closed) {
			c->ops->close(c);
			t->ops->wake(t->ctx, c->ctx);
		}
	}
}

static void config_free(struct acp_target *t)
{
	acp_free(t, t->cfg.topology);
	acp_free(t, t->cfg.groups);
	acp_free(t, t->cfg.unc);
	memset(&t->cfg, 0, sizeof(t->cfg));
}

/*
 * TERMINATE, control EOF, or the control file closed: stop whatever runs,
 * release the reservation, end every channel and wait for the next host.
 */
void acp_session_end(struct acp_target *t)
{
	if (!t->control)
		return;
	if (t->stop_pending) {
		/* Nobody waits for the STOP answer any more. */
		t->stop_pending = false;
		t->control->ops->discard_output(t->control);
	}
	/* stop() returns with no handler left (core.h): finish() may follow. */
	if ((t->state == ACP_RUNNING || t->state == ACP_PAUSED) && t->ops->stop)
		t->ops->stop(t->ctx);
	acp_close_data(t);
	for (u32 i = 0; i < t->ndata; i++)
		if (t->data[i])
			t->data[i]->channel = ~0u;	/* detached */
	acp_free(t, t->data);
	t->data = NULL;
	t->ndata = 0;
	t->nexpected = 0;
	/* No channel reads the samples any more: the rings can go. */
	if (t->ops->finish)
		t->ops->finish(t->ctx);
	config_free(t);
	t->state = ACP_IDLE;
	t->control = NULL;
	t->privileged = false;
	t->kernel_addresses = false;
}

bool acp_local_claim(struct acp_target *t)
{
	if (t->local_busy || !acp_session_yield(t, true, "a local trace"))
		return false;
	t->local_busy = true;
	return true;
}

void acp_local_release(struct acp_target *t)
{
	t->local_busy = false;
}

/* RESERVE answers busy in its payload, never in its status (spec 4.5). */
s32 acp_cmd_reserve(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	s32 busy = t->state != ACP_IDLE;

	if (!busy)
		t->state = ACP_RESERVED;
	return acp_reply_copy(r, &busy, sizeof(busy));
}

s32 acp_cmd_init_driver(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	u64 n = cmd->in_len;

	/* DRV_CONFIG.size is not to be trusted (spec 5.2): use the length. */
	if (n > sizeof(t->cfg.drv))
		n = sizeof(t->cfg.drv);
	memset(&t->cfg.drv, 0, sizeof(t->cfg.drv));
	memcpy(&t->cfg.drv, cmd->in, n);
	t->cfg.ncpus = t->ncpus;
	if (t->cfg.drv.collection_config & SEP_DRV_CFG_EMON_MODE) {
		acp_log(t, "INIT_DRIVER: EMON mode (collection_config bit 5) is not supported; %s",
			"counting mode (bit 1) is");
		return VT_DRIVER_COMM_FAILED;
	}
	/* [ACA-EXT] The timer's counts go to the CPU channels (6.9). */
	if (acp_counting_mode(&t->cfg) && t->cfg.drv.emon_timer_interval &&
	    (t->cfg.drv.emon_timer_interval < ACA_EMON_MS_MIN ||
	     t->cfg.drv.emon_timer_interval > ACA_EMON_MS_MAX)) {
		acp_log(t, "INIT_DRIVER: counting mode, %s %d ms: %u to %u, %s",
			"emon_timer_interval", t->cfg.drv.emon_timer_interval,
			ACA_EMON_MS_MIN, ACA_EMON_MS_MAX,
			"or 0 (no timer: read with READ_AND_RESET)");
		return VT_DRIVER_COMM_FAILED;
	}
	if (t->ops->configure && t->ops->configure(t->ctx, &t->cfg)) {
		acp_log(t, "INIT_DRIVER: no memory for the rings; lower aca.ring_pages");
		return VT_NO_MEMORY;
	}
	t->state = ACP_CONFIGURED;
	/* The channels' streams exist now: readers waiting look again. */
	for (u32 i = 0; i < t->ndata; i++)
		if (t->data[i])
			t->ops->wake(t->ctx, t->data[i]->ctx);
	return VT_SUCCESS;
}

static bool have_events(const struct acp_target *t)
{
	for (u32 i = 0; i < t->cfg.ngroups; i++)
		if (t->cfg.groups[i].loaded && t->cfg.groups[i].nevents)
			return true;
	return false;
}

s32 acp_cmd_start(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	bool paused = t->cfg.drv.collection_config & SEP_DRV_CFG_START_PAUSED;

	if (!have_events(t)) {
		acp_log(t, "START without any event configured (EM_CONFIG_NEXT)");
		return VT_DRIVER_COMM_FAILED;
	}
	if (!t->ops->start) {
		acp_log(t, "START: sampling is not available in this build");
		return VT_DRIVER_COMM_FAILED;
	}
	if (t->ops->start(t->ctx, &t->cfg, paused))
		return VT_DRIVER_COMM_FAILED;
	t->state = paused ? ACP_PAUSED : ACP_RUNNING;
	return VT_SUCCESS;
}

/*
 * Spec 13: stop the counters, emit the final module records, let every
 * data channel be read to the end, only then answer and close the
 * channels. The answer is queued now but held back (acp_conn_peek) until
 * the last data channel is drained; the control channel takes no further
 * request meanwhile, as with any unread reply.
 */
s32 acp_cmd_stop(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;

	if (t->ops->stop)
		t->ops->stop(t->ctx);
	if (t->ops->finalize)
		t->ops->finalize(t->ctx);
	t->state = ACP_STOPPED;
	cmd->c->ops->stop_wait(t);
	return VT_SUCCESS;
}

/* PAUSE and RESUME outside their state are successful no-ops (spec 8.2). */
s32 acp_cmd_pause(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;

	if (t->state == ACP_RUNNING) {
		if (t->ops->pause)
			t->ops->pause(t->ctx, true);
		t->state = ACP_PAUSED;
	}
	return VT_SUCCESS;
}

/* Multiplexing: the next group samples from now, paused or not. */
s32 acp_cmd_switch_group(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;

	/* Its counts since the last read would go unread until its next turn. */
	if (acp_counting_mode(&t->cfg)) {
		acp_log(t, "SWITCH_GROUP: in counting mode, %s",
			"READ_SWITCH_GROUP (62) switches, reading the group first");
		return VT_DRIVER_COMM_FAILED;
	}
	if (!t->ops->switch_group || t->ops->switch_group(t->ctx)) {
		acp_log(t, "SWITCH_GROUP: the collection samples one group: no other to switch to");
		return VT_DRIVER_COMM_FAILED;
	}
	return VT_SUCCESS;
}

/*
 * Counting mode's reads (sep_cmd.h): the TSC delta of each CPU channel,
 * then the active group's counts by CPU, as much as asked; READ_SWITCH_GROUP
 * then moves to the next group.
 */
static s32 read_counts(const struct acp_cmd *cmd, struct acp_reply *r,
		       bool next_group, const char *name)
{
	struct acp_target *t = cmd->t;
	/* What there can be; the reply's rest is zeros, not memory. */
	u64 len = (u64)t->cfg.ncpus * 8 * (1 + ACP_MAX_EVENTS);
	void *out;

	if (!acp_counting_mode(&t->cfg)) {
		acp_log(t, "%s: the collection samples; %s", name,
			"INIT_DRIVER's collection_config bit 1 asks for counting mode");
		return VT_DRIVER_COMM_FAILED;
	}
	if (!t->ops->read_counts) {
		acp_log(t, "%s: this target cannot count", name);
		return VT_DRIVER_COMM_FAILED;
	}
	len = len < cmd->out_len ? len : cmd->out_len;
	out = len ? acp_reply_alloc(cmd, r, len) : NULL;
	if (len && !out)
		return VT_NO_MEMORY;
	if (t->ops->read_counts(t->ctx, next_group, out, len)) {
		acp_log(t, "%s: no counts to read", name);
		return VT_DRIVER_COMM_FAILED;
	}
	return VT_SUCCESS;
}

s32 acp_cmd_read_and_reset(const struct acp_cmd *cmd, struct acp_reply *r)
{
	return read_counts(cmd, r, false, "READ_AND_RESET");
}

s32 acp_cmd_read_switch_group(const struct acp_cmd *cmd, struct acp_reply *r)
{
	return read_counts(cmd, r, true, "READ_SWITCH_GROUP");
}

/* [ACA-EXT] Each group's sampling windows (sep_cmd.h), as much as asked. */
s32 acp_cmd_group_times(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;
	/* What there can be; the reply's rest is zeros, not memory. */
	u64 len = sizeof(struct aca_group_times_head) +
		  ACP_MAX_GROUPS * sizeof(struct aca_group_time) +
		  ACA_GROUP_WINDOWS_MAX * sizeof(struct aca_group_window);
	void *out;

	if (!t->ops->group_times) {
		acp_log(t, "GROUP_TIMES: this target keeps no group times");
		return VT_DRIVER_COMM_FAILED;
	}
	if (cmd->out_len < sizeof(struct aca_group_times_head)) {
		acp_log(t, "GROUP_TIMES: reply of %llu bytes asked, at least %zu needed",
			(unsigned long long)cmd->out_len,
			sizeof(struct aca_group_times_head));
		return VT_DRIVER_COMM_FAILED;
	}
	len = len < cmd->out_len ? len : cmd->out_len;
	out = acp_reply_alloc(cmd, r, len);
	if (!out)
		return VT_NO_MEMORY;
	t->ops->group_times(t->ctx, out, len);
	return VT_SUCCESS;
}

/*
 * [ACA-EXT] The module records of every live process, soon, the
 * collection going on (sep_cmd.h); dispatch.c checked the state and the
 * privilege.
 */
s32 acp_cmd_module_snapshot(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;

	if (!t->ops->module_snapshot) {
		acp_log(t, "MODULE_SNAPSHOT: this target sends module records at STOP only");
		return VT_DRIVER_COMM_FAILED;
	}
	/* Nothing streams before STOP: the walks would only fill the ring. */
	if (t->delayed) {
		acp_log(t, "MODULE_SNAPSHOT: delayed transfer sends the records at STOP");
		return VT_DRIVER_COMM_FAILED;
	}
	if (t->ops->module_snapshot(t->ctx)) {
		acp_log(t, "MODULE_SNAPSHOT: no module records in counting mode");
		return VT_DRIVER_COMM_FAILED;
	}
	return VT_SUCCESS;
}

s32 acp_cmd_resume(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_target *t = cmd->t;

	if (t->state == ACP_PAUSED) {
		if (t->ops->pause)
			t->ops->pause(t->ctx, false);
		t->state = ACP_RUNNING;
	}
	return VT_SUCCESS;
}

/*
 * Unlike the reference, TERMINATE succeeds in every state and always
 * releases the reservation (spec 8.2 [INCONSISTENCY], 12.8).
 */
s32 acp_cmd_terminate(const struct acp_cmd *cmd, struct acp_reply *r)
{
	r->end_session = true;
	return VT_SUCCESS;
}

s32 acp_cmd_driver_state(const struct acp_cmd *cmd, struct acp_reply *r)
{
	static const u32 wire[] = {
		[ACP_IDLE] = SEP_STATE_UNINITIALIZED,
		[ACP_RESERVED] = SEP_STATE_RESERVED,
		[ACP_CONFIGURED] = SEP_STATE_IDLE,
		[ACP_RUNNING] = SEP_STATE_RUNNING,
		[ACP_PAUSED] = SEP_STATE_PAUSED,
		[ACP_STOPPED] = SEP_STATE_STOPPED,
	};

	return acp_reply_copy(r, &wire[cmd->t->state], sizeof(u32));
}
