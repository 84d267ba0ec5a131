/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SEP remote-target protocol, version 6: wire structures.
 *
 * Everything a VTune host and an aca target exchange over TCP is defined here
 * once, for the protocol core (aca.ko), its userspace tests and fuzzer, and
 * the host tool aca-host; it is never installed. Integers are little-endian,
 * structs use natural x86-64 alignment (no packing), so these declarations
 * are the wire format on x86-64; layout.c asserts every size and offset.
 * Documentation/protocol.md gives the meaning of every field.
 */
#ifndef ACA_CORE_SEP_H
#define ACA_CORE_SEP_H

#include <linux/const.h>
#include <linux/types.h>

#define SEP_PROTO_VERSION		6
#define SEP_TCP_PORT			9321

/* Error codes that appear on the wire (spec section 10). */
#define VT_SUCCESS			0
#define VT_DRIVER_COMM_FAILED		159
#define VT_COMM_NOT_COMPATIBLE		218
#define VT_COMM_DATA_CHANNEL_UNAVAILABLE 219

/* Host -> target, first bytes of the control channel (spec 2.1). */
struct sep_control_first_msg {
	__u32 msg_size;			/* must be sizeof(this) */
	__u32 proto_version;
	__u32 per_cpu_buffer_size;
	__u32 reserved1;
	__u64 reserved2;
};

struct sep_remote_os_info {
	__u32 os_family;
	__u32 reserved1;
	char sysname[64];		/* NUL-terminated, truncated */
	char release[64];
	char version[64];
};

/* Collection switches: one __u32 of flags (spec 2.2). */
#define SEP_SWITCH_UNCORE_SUPPORTED	_BITUL(5)
#define SEP_SWITCH_DELAYED_TRANSFER	_BITUL(9)

struct sep_remote_switch {
	__u32 flags;
	__u32 reserved2;
};

struct sep_remote_hardware_info {
	__u32 num_cpus;
	__u32 family;			/* CPUID(1).EAX[11:8], base family only */
	__u32 model;			/* display model incl. extended model */
	__u32 stepping;
	__u64 tsc_freq;			/* Hz */
	__u64 reserved2;
	__u64 reserved3;
};

/* Target -> host reply to the hello (spec 2.2). */
struct sep_target_status_msg {
	__u32 msg_size;
	__u32 proto_version;
	__s32 status;
	__u32 reserved1;
	__u64 reserved2;
	__u32 os_info_offset;
	__u32 os_info_size;
	__u32 collect_switch_offset;
	__u32 collect_switch_size;
	__u32 hardware_info_offset;
	__u32 hardware_info_size;
	struct sep_remote_os_info os_info;
	struct sep_remote_switch collect_switch;
	struct sep_remote_hardware_info hardware_info;
};

/* Request and response header of every control command (spec 4.1). */
struct sep_control_msg_header {
	__u32 header_size;
	__u32 proto_version;
	__u32 command_id;
	__s32 status;
	__u64 to_target_data_size;
	__u64 from_target_data_size;
	__u64 reserved1;
	__u64 reserved2;
};

/* Data channel types (spec 3.1). */
#define SEP_DATA_CPU			0
#define SEP_DATA_MODULE			1
#define SEP_DATA_UNCORE			2

/* Target -> host, first bytes of every data channel (spec 3.2). */
struct sep_data_first_msg {
	__u32 proto_version;
	__u16 data_type;
	__u16 data_id;
};

#endif /* ACA_CORE_SEP_H */
