// SPDX-License-Identifier: GPL-2.0-only
/*
 * Control-channel handshake: the host's 24-byte hello and the 296-byte
 * target status message (spec section 2).
 */
#include "internal.h"

/* Copy a uname string, always NUL-terminated: the reference overran here. */
static void copy_field(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	if (src)
		while (n < size - 1 && src[n])
			n++;
	memcpy(dst, src ? src : "", n);
	memset(dst + n, 0, size - n);
}

static void fill_hardware_info(const struct acp_target *t,
			       struct sep_remote_hardware_info *hw)
{
	u32 regs[4] = { 0 };
	u32 eax;

	t->ops->cpuid(t->ctx, -1, 1, 0, regs);
	eax = regs[0];
	hw->num_cpus = t->ops->num_cpus(t->ctx);
	/* Base family only, as VTune expects from the reference. */
	hw->family = (eax >> 8) & 0xf;
	hw->model = (((eax >> 16) & 0xf) << 4) | ((eax >> 4) & 0xf);
	hw->stepping = eax & 0xf;
	hw->tsc_freq = t->ops->tsc_hz(t->ctx);
}

void acp_build_status(const struct acp_target *t, s32 status,
		      struct sep_target_status_msg *msg)
{
	memset(msg, 0, sizeof(*msg));
	msg->msg_size = sizeof(*msg);
	msg->proto_version = SEP_PROTO_VERSION;
	msg->status = status;
	msg->os_info_offset = __builtin_offsetof(struct sep_target_status_msg,
						 os_info);
	msg->os_info_size = sizeof(msg->os_info);
	msg->collect_switch_offset =
		__builtin_offsetof(struct sep_target_status_msg, collect_switch);
	msg->collect_switch_size = sizeof(msg->collect_switch);
	msg->hardware_info_offset =
		__builtin_offsetof(struct sep_target_status_msg, hardware_info);
	msg->hardware_info_size = sizeof(msg->hardware_info);

	copy_field(msg->os_info.sysname, sizeof(msg->os_info.sysname),
		   t->ops->sysname(t->ctx));
	copy_field(msg->os_info.release, sizeof(msg->os_info.release),
		   t->ops->release(t->ctx));
	copy_field(msg->os_info.version, sizeof(msg->os_info.version),
		   t->ops->version(t->ctx));

	/* Native agent; uncore where the target has a model's uncore PMUs. */
	msg->collect_switch.flags = t->delayed ? SEP_SWITCH_DELAYED_TRANSFER : 0;
	if (acp_uncore_available(t))
		msg->collect_switch.flags |= SEP_SWITCH_UNCORE_SUPPORTED;
	fill_hardware_info(t, &msg->hardware_info);
}

/* Returns the status the hello earns (spec 2.1: only msg_size is checked). */
s32 acp_check_hello(const struct sep_control_first_msg *hello)
{
	if (hello->msg_size != sizeof(*hello))
		return VT_COMM_NOT_COMPATIBLE;
	return VT_SUCCESS;
}
