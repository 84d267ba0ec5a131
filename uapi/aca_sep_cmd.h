/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * SEP remote-target protocol, version 6: command ids and command payloads.
 *
 * aca_sep.h holds the framing (hellos, control header, data channel hello);
 * this header holds what travels inside a control message and on the data
 * channels: the INIT_DRIVER/INIT/EM_* configuration, the ECB, the info
 * replies and the sample and module records.  Same rules as aca_sep.h:
 * little-endian, natural x86-64 alignment, no packing, bit-field words are
 * plain integers with the masks below.  Host pointers are opaque __u64.
 * Section numbers refer to shared/spec/sep-remote-protocol.md.
 */
#ifndef _UAPI_ACA_SEP_CMD_H
#define _UAPI_ACA_SEP_CMD_H

#include <linux/const.h>
#include <linux/types.h>

#include "aca_sep.h"

/* Command ids of the control header (4.4); plain numbers, not ioctl codes. */
#define SEP_CMD_NONE				0	/* agent eats payload, no reply */
#define SEP_CMD_START				1
#define SEP_CMD_STOP				2
#define SEP_CMD_INIT_PMU			3
#define SEP_CMD_INIT				4
#define SEP_CMD_EM_GROUPS			5
#define SEP_CMD_SET_CPU_MASK			17
#define SEP_CMD_PCI_READ			18
#define SEP_CMD_PCI_WRITE			19
#define SEP_CMD_READ_PCI_CONFIG			20
#define SEP_CMD_FD_PHYS				21
#define SEP_CMD_WRITE_PCI_CONFIG		22
#define SEP_CMD_INSERT_MARKER			23
#define SEP_CMD_GET_NORMALIZED_TSC		24
#define SEP_CMD_EM_CONFIG_NEXT			25
#define SEP_CMD_SYS_CONFIG			26
#define SEP_CMD_TSC_SKEW_INFO			27
#define SEP_CMD_NUM_CORES			28
#define SEP_CMD_COLLECT_SYS_CONFIG		29
#define SEP_CMD_GET_SYS_CONFIG			30
#define SEP_CMD_PAUSE				31
#define SEP_CMD_RESUME				32
#define SEP_CMD_SET_ASYNC_EVENT			33
#define SEP_CMD_ASYNC_STOP			34
#define SEP_CMD_TERMINATE			35
#define SEP_CMD_READ_MSRS			36
#define SEP_CMD_LBR_INFO			37
#define SEP_CMD_RESERVE				38
#define SEP_CMD_MARK				39
#define SEP_CMD_AWAIT_STOP			40
#define SEP_CMD_SEED_NAME			41
#define SEP_CMD_KERNEL_CS			42
#define SEP_CMD_SET_UID				43
#define SEP_CMD_VERSION				51
#define SEP_CMD_CHIPSET_INIT			52
#define SEP_CMD_GET_CHIPSET_DEVICE_ID		53
#define SEP_CMD_SWITCH_GROUP			54
#define SEP_CMD_GET_NUM_CORE_CTRS		55
#define SEP_CMD_PWR_INFO			56
#define SEP_CMD_NUM_DESCRIPTOR			57
#define SEP_CMD_DESC_NEXT			58
#define SEP_CMD_MARK_OFF			59
#define SEP_CMD_CREATE_MARKER			60
#define SEP_CMD_GET_DRIVER_STATE		61
#define SEP_CMD_READ_SWITCH_GROUP		62
#define SEP_CMD_EM_GROUPS_UNC			63
#define SEP_CMD_EM_CONFIG_NEXT_UNC		64
#define SEP_CMD_INIT_UNC			65
#define SEP_CMD_RO_INFO				66
#define SEP_CMD_READ_MSR			67
#define SEP_CMD_WRITE_MSR			68
#define SEP_CMD_THREAD_SET_NAME			69
#define SEP_CMD_GET_PLATFORM_INFO		70
#define SEP_CMD_GET_NORMALIZED_TSC_STANDALONE	71
#define SEP_CMD_READ_AND_RESET			72
#define SEP_CMD_SET_CPU_TOPOLOGY		73
#define SEP_CMD_INIT_NUM_DEV			74
#define SEP_CMD_SET_GFX_EVENT			75
#define SEP_CMD_GET_NUM_SAMPLES			76
#define SEP_CMD_SET_PWR_EVENT			77
#define SEP_CMD_SET_DEVICE_NUM_UNITS		78
#define SEP_CMD_TIMER_TRIGGER_READ		79
#define SEP_CMD_GET_INTERVAL_COUNTS		80
#define SEP_CMD_FLUSH				81
#define SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO	82
#define SEP_CMD_GET_UNCORE_TOPOLOGY		83
#define SEP_CMD_GET_MARKER_ID			84
#define SEP_CMD_GET_SAMPLE_DROP_INFO		85
#define SEP_CMD_GET_DRV_SETUP_INFO		86
#define SEP_CMD_GET_PLATFORM_TOPOLOGY		87
#define SEP_CMD_GET_THREAD_COUNT		88
#define SEP_CMD_GET_THREAD_INFO			89
#define SEP_CMD_GET_DRIVER_LOG			90
#define SEP_CMD_CONTROL_DRIVER_LOG		91
#define SEP_CMD_SET_OSID			92
#define SEP_CMD_GET_AGENT_MODE			93
#define SEP_CMD_INIT_DRIVER			94
#define SEP_CMD_SET_EMON_BUFFER_DRIVER_HELPER	95
#define SEP_CMD_GET_NUM_VM			96
#define SEP_CMD_GET_VCPU_MAP			97
#define SEP_CMD_GET_PERF_CAPAB			98
/* The only id that is a real ioctl number: _IOW(100, 1, 8) (4.3). */
#define SEP_CMD_PAX_INFO			0x40086401

/* Reference driver states, reported by GET_DRIVER_STATE (8.1). */
#define SEP_STATE_UNINITIALIZED			0
#define SEP_STATE_RESERVED			1
#define SEP_STATE_IDLE				2
#define SEP_STATE_PAUSED			3
#define SEP_STATE_STOPPED			4
#define SEP_STATE_RUNNING			5
#define SEP_STATE_PAUSING			6
#define SEP_STATE_PREPARE_STOP			7
#define SEP_STATE_TERMINATING			8

/* Remaining error codes of section 10 (0, 159, 218, 219 are in aca_sep.h). */
#define VT_FAILURE				(-1)
#define VT_INVALID_MAX_SAMP			1
#define VT_INVALID_SAMP_PER_BUFF		2
#define VT_INVALID_SAMP_INTERVAL		3
#define VT_INVALID_PATH				4
#define VT_TB5_IN_USE				5
#define VT_INVALID_NUM_EVENTS			6
#define VT_INTERNAL_ERROR			8
#define VT_NO_SAMP_SESSION			10
#define VT_NO_EVENTS				11
#define VT_SAMPLING_ALREADY_STARTED		15
#define VT_SAM_ERROR				22
#define VT_NO_MEMORY				26
#define VT_BUFFER_OVERFLOW			29
#define VT_UNEXPECTED_NULL_PTR			36
#define VT_FILE_OPEN_FAILED			44
#define VT_DRIVER_RUNNING			48
#define VT_DRIVER_STOPPED			49
#define VT_DRIVER_INIT_FAILED			52
#define VT_INVALID_CPU_MASK			56
#define VT_SAMP_IN_RUNNING_STATE		57
#define VT_SAMP_IN_PAUSE_STATE			58
#define VT_SAMP_IN_STOP_STATE			59
#define VT_SAMP_NO_SESSION			60
#define VT_NOT_CONFIGURED			61
#define VT_BAD_PARAMETER			63
#define VT_INVALID_STATE_TRANS			65
#define VT_NOT_IMPLEMENTED			73
#define VT_INCOMPATIBLE_VERSION			84
#define VT_DRIVER_OPEN_FAILED			87
#define VT_DRIVER_IOCTL_FAILED			88
#define VT_NO_SAMPLES_COLLECTED			139
#define VT_PMU_IN_USE				150
#define VT_TOO_MANY_INTERRUPTS			151
#define VT_MAX_SAMPLES_REACHED			152
#define VT_MODULE_COLLECTION_FAILED		153
#define VT_INCOMPATIBLE_DRIVER			154
#define VT_COMMAND_NOT_HANDLED			156
#define VT_DRIVER_VERSION_MISMATCH		157
#define VT_PAX_SERVICE_NOT_CONNECTED		162
#define VT_PAX_PMU_RESERVE_FAILED		164
#define VT_NO_VALID_EVENTS			176
#define VT_INVALID_EVENT			177
#define VT_UNSUPPORTED_NON_NATIVE_MODE		182
#define VT_INVALID_DEVICE			183
#define VT_NMI_WATCHDOG_FOUND			188
#define VT_NO_PMU_RESOURCES			189
#define VT_MSR_ACCESS_ERROR			196
#define VT_PEBS_NOT_SUPPORTED			197
#define VT_COMM_CONNECTION_CLOSED_BY_REMOTE	199
#define VT_COMM_LISTEN_ERROR			200
#define VT_COMM_BIND_ERROR			201
#define VT_COMM_ACCEPT_ERROR			202
#define VT_COMM_SEND_ERROR			203
#define VT_COMM_RECV_ERROR			204
#define VT_COMM_SOCKET_ERROR			205
#define VT_COMM_CONNECT_ERROR			206
#define VT_TARGET_COLLECTION_MISMATCH		207
#define VT_INVALID_SEP_DRIVER_LOG		208
#define VT_COMM_PROTOCOL_VER_NOT_SUPPORTED	209
#define VT_SAMP_IN_UNEXPECTED_STATE		210
#define VT_COMM_RECV_BUF_RESIZE_ERROR		211
#define VT_COMM_SEND_BUF_RESIZE_ERROR		212
#define VT_NO_ADMIN_PRIVILEGE			213
#define VT_CORE_EVT_MUX_NOT_SUPPORTED		214
#define VT_OS_VERSION_NOT_SUPPORTED		215
#define VT_COMM_RECV_TIMEOUT_SET_ERROR		216
#define VT_COMM_RECV_TIMEOUT			217
#define VT_COMM_INVALID_TARGET_OS_INFO		220
#define VT_COMM_INVALID_TARGET_HARDWARE_INFO	221
#define VT_COMM_INVALID_TARGET_COLLECT_SWITCH	222
#define VT_NO_OFFCORE_SUPPORT			223
#define VT_INVALID_EMON_STATIC_EVENT		224
#define VT_ACRN_VMM_VERSION_MISMATCH		225
#define VT_COMM_INVALID_NUM_OF_CORE_EVENTS	226
#define VT_EVENT_NEEDS_EXPERIMENTAL_FLAG	227
#define VT_INVALID_PROG_INFO			228
#define VT_UNSUPPORTED_CPU_TOPOLOGY		229

/* Fixed sizes of payloads this header does not model (4.4). */
#define SEP_UNCORE_TOPOLOGY_INFO_SIZE		273840
#define SEP_PLATFORM_TOPOLOGY_PROG_SIZE		45224
#define SEP_DRIVER_LOG_SIZE			3146136

/* RESERVE answers "busy" in its S32 payload, never in status (4.5). */
#define SEP_RESERVE_OK				0
#define SEP_RESERVE_BUSY			1

/* KERNEL_CS reply on x86-64 (9.10). */
#define SEP_KERNEL_CS				0x10

/* VERSION reply (9.1): one byte each, major in the low byte. */
#define SEP_VERSION_MAJOR_SHIFT			0
#define SEP_VERSION_MINOR_SHIFT			8
#define SEP_VERSION_API_SHIFT			16
#define SEP_VERSION_UPDATE_SHIFT		24
#define SEP_VERSION_FIELD_MASK			0xff
/* 5.17.5.0: what the reference driver reports; VTune may reject others. */
#define SEP_DRIVER_VERSION			0x00051105

/* DRV_CONFIG (5.2): global collection settings, payload of INIT_DRIVER. */
#define SEP_DRV_CONFIG_VERSION			1

/* collection_config bits */
#define SEP_DRV_CFG_START_PAUSED		_BITULL(0)
#define SEP_DRV_CFG_COUNTING_MODE		_BITULL(1)
#define SEP_DRV_CFG_ENABLE_CHIPSET		_BITULL(2)
#define SEP_DRV_CFG_ENABLE_GFX			_BITULL(3)
#define SEP_DRV_CFG_ENABLE_PWR			_BITULL(4)
#define SEP_DRV_CFG_EMON_MODE			_BITULL(5)
#define SEP_DRV_CFG_DEBUG_INJECT		_BITULL(6)
#define SEP_DRV_CFG_VIRT_PHYS_TRANSLATION	_BITULL(7)
#define SEP_DRV_CFG_ENABLE_P_STATE		_BITULL(8)
#define SEP_DRV_CFG_ENABLE_CP_MODE		_BITULL(9)
#define SEP_DRV_CFG_READ_PSTATE_MSRS		_BITULL(10)
#define SEP_DRV_CFG_USE_PCL			_BITULL(11)
#define SEP_DRV_CFG_ENABLE_EBC			_BITULL(12)
#define SEP_DRV_CFG_ENABLE_TBC			_BITULL(13)
#define SEP_DRV_CFG_DS_AREA_AVAILABLE		_BITULL(14)
#define SEP_DRV_CFG_PER_CPU_TSC			_BITULL(15)
#define SEP_DRV_CFG_MIXED_EBC_AVAILABLE		_BITULL(16)
#define SEP_DRV_CFG_HETERO_SUPPORTED		_BITULL(17)

struct sep_drv_config {
	__u32 size;		/* REF-BUG: test host sends 120, use the payload size */
	__u16 version;
	__u16 reserved1;
	__u32 num_events;
	__u32 num_chipset_events;
	__u32 chipset_offset;
	__s32 seed_name_len;
	__u64 seed_name;		/* host pointer, opaque */
	__u64 cpu_mask;			/* host pointer, ignore */
	__u64 collection_config;	/* SEP_DRV_CFG_* */
	__u64 target_pid;		/* > 0: record only this tgid */
	__u32 os_of_interest;
	__u16 unc_timer_interval;	/* ms */
	__u16 unc_em_factor;		/* timer ticks per uncore group switch */
	__s32 p_state_trigger_index;
	__u32 multi_pebs_enabled;
	__s32 emon_timer_interval;	/* v3: reserved */
	__u32 unc_collect_in_intr_enabled;
	__u64 reserved4;
	__u64 reserved5;
	__u64 reserved6;
};

/* DRV_TOPOLOGY_INFO (5.3): one per CPU, SET_CPU_TOPOLOGY is an array of them. */
struct sep_drv_topology_info {
	__u32 cpu_number;
	__u16 cpu_package_num;
	__u16 cpu_core_num;
	__u16 cpu_hw_thread_num;
	__u16 reserved1;
	__s32 socket_master;		/* packages = sum of socket masters */
	__s32 core_master;
	__s32 thr_master;
	__u32 cpu_module_num;
	__u32 cpu_module_master;
	__u32 cpu_num_modules;
	__u32 cpu_core_type;
	__u32 arch_perfmon_ver;
	__u32 num_gp_counters;
	__u32 num_fixed_counters;
	__u32 reserved2;
	__u64 reserved3;
	__u64 reserved4;
};

/* DEV_CONFIG (5.4): one core PMU device, payload of INIT. */
#define SEP_MAX_EMON_GROUPS			1000

/* dispatch_id of core devices */
#define SEP_DISPATCH_CORE2			1
#define SEP_DISPATCH_COREI7			2
#define SEP_DISPATCH_COREI7_HTOFF		3
#define SEP_DISPATCH_SNB			4
#define SEP_DISPATCH_SNB_HTOFF			5
#define SEP_DISPATCH_SILVERMONT			6
#define SEP_DISPATCH_PERFMON_V4			7
#define SEP_DISPATCH_PERFMON_V4_HTOFF		8
#define SEP_DISPATCH_NEHALEM			9
#define SEP_DISPATCH_KNIGHTS			10
#define SEP_DISPATCH_PERFMON_V4_NOHT		11

/* enable_bits */
#define SEP_DEV_CFG_PEBS_CAPTURE		_BITULL(0)
#define SEP_DEV_CFG_COLLECT_LBRS		_BITULL(1)
#define SEP_DEV_CFG_COLLECT_CALLSTACKS		_BITULL(2)
#define SEP_DEV_CFG_COLLECT_KERNEL_CALLSTACKS	_BITULL(3)
#define SEP_DEV_CFG_LATENCY_CAPTURE		_BITULL(4)
#define SEP_DEV_CFG_POWER_CAPTURE		_BITULL(5)
#define SEP_DEV_CFG_HTOFF_MODE			_BITULL(6)
#define SEP_DEV_CFG_EVENTING_IP_CAPTURE		_BITULL(7)
#define SEP_DEV_CFG_HLE_CAPTURE			_BITULL(8)
#define SEP_DEV_CFG_PRECISE_IP_LBRS		_BITULL(9)
#define SEP_DEV_CFG_STORE_LBRS			_BITULL(10)
#define SEP_DEV_CFG_TSC_CAPTURE			_BITULL(11)
#define SEP_DEV_CFG_ENABLE_PERF_METRICS		_BITULL(12)
#define SEP_DEV_CFG_ENABLE_ADAPTIVE_PEBS	_BITULL(13)
#define SEP_DEV_CFG_APEBS_COLLECT_MEM_INFO	_BITULL(14)
#define SEP_DEV_CFG_APEBS_COLLECT_GPR		_BITULL(15)
#define SEP_DEV_CFG_APEBS_COLLECT_XMM		_BITULL(16)
#define SEP_DEV_CFG_APEBS_COLLECT_LBRS		_BITULL(17)
#define SEP_DEV_CFG_COLLECT_FIXED_COUNTER_PEBS	_BITULL(18)
#define SEP_DEV_CFG_COLLECT_OS_CALLSTACKS	_BITULL(19)

struct sep_dev_config {
	__u16 size;
	__u16 version;
	__u32 dispatch_id;		/* SEP_DISPATCH_* */
	__u32 pebs_mode;
	__u32 pebs_record_num;
	__u32 results_offset;
	__u32 max_gp_counters;
	__u32 device_type;
	__u32 core_type;		/* matches drv_topology_info.cpu_core_type */
	__u64 enable_bits;		/* SEP_DEV_CFG_* */
	__u32 emon_unc_offset[SEP_MAX_EMON_GROUPS];
	__u32 ebc_group_id_offset;
	__u8 num_perf_metrics;
	__u8 apebs_num_lbr_entries;
	__u16 emon_perf_metrics_offset;
	__u32 device_scope;
	__u32 num_events;		/* test host sends 0 although events follow */
	__u16 device_index;
	__u16 reserved1;
	__u32 reserved2;
	__u64 reserved3;
	__u64 reserved4;
};

/* DEV_UNC_CONFIG (5.5): one uncore device, payload of INIT_UNC. */
#define SEP_DISPATCH_UNC_MSR			100
#define SEP_DISPATCH_UNC_PCI			110
#define SEP_DISPATCH_UNC_MMIO			120	/* single BAR */
#define SEP_DISPATCH_UNC_FPGA_MMIO		121
#define SEP_DISPATCH_UNC_MMIO_MULTI_BAR		122
#define SEP_DISPATCH_UNC_POWER			130
#define SEP_DISPATCH_UNC_RDT			131
#define SEP_DISPATCH_UNC_HSW_SA			230
#define SEP_DISPATCH_UNC_GT			400
#define SEP_DISPATCH_UNC_VISA_VLV		700
#define SEP_DISPATCH_UNC_VISA_VLV_B		701
#define SEP_DISPATCH_UNC_VISA_VLV_C		1100

/* dev_unc_config.device_type */
#define SEP_UNC_DEV_PER_PACKAGE			0
#define SEP_UNC_DEV_SINGLE_INSTANCE		1

/* device_scope of dev_config and dev_unc_config */
#define SEP_DEV_SCOPE_PACKAGE			0
#define SEP_DEV_SCOPE_SYSTEM			1

struct sep_dev_unc_config {
	__u16 size;
	__u16 version;
	__u32 dispatch_id;		/* SEP_DISPATCH_UNC_* */
	__u32 results_offset;
	__u32 device_type;		/* SEP_UNC_DEV_* */
	__u32 device_scope;		/* SEP_DEV_SCOPE_* */
	__u32 num_events;		/* test host sends 0 */
	__u32 emon_unc_offset[SEP_MAX_EMON_GROUPS];
	__u16 device_index;		/* test host reuses the core device's 0 */
	__u16 num_units;
	__u32 device_with_intr_events;
	__u64 reserved2;
	__u64 reserved3;
};

/* EVENT_CONFIG (5.6): group layout of a device, payload of EM_GROUPS(_UNC). */
#define SEP_EM_DISABLED				(-1)
#define SEP_EM_TIMER_BASED			0
#define SEP_EM_EVENT_BASED			1
#define SEP_EM_TRIGGER_BASED			2

struct sep_event_config {
	__u32 num_groups;
	__s32 em_mode;			/* SEP_EM_* */
	__s32 em_factor;
	__s32 em_event_num;
	__u32 sample_size;
	__u32 max_gp_events;
	__u32 max_fixed_counters;
	__u32 max_ro_counters;
	__u32 pebs_offset;
	__u32 pebs_size;
	__u32 lbr_offset;
	__u32 lbr_num_regs;
	__u32 latency_offset_in_sample;
	__u32 latency_size_in_sample;
	__u32 latency_size_from_pebs_record;
	__u32 latency_offset_in_pebs_record;
	__u32 power_offset_in_sample;
	__u32 ebc_offset;
	__u32 num_groups_unc;
	__u32 ebc_offset_unc;
	__u32 sample_size_unc;
	__u32 eventing_ip_offset;
	__u32 hle_offset;
	__u32 pwr_offset;
	__u32 callstack_offset;
	__u32 callstack_size;
	__u32 p_state_offset;
	__u32 pebs_tsc_offset;
	__u64 reserved1;
	__u64 reserved2;
	__u64 reserved3;
	__u64 reserved4;
};

/* EVENT_DESC (5.7): record layout of one sample descriptor, DESC_NEXT payload. */
struct sep_event_desc {
	__u32 sample_size;		/* size of every record using this descriptor */
	__u32 pebs_offset;
	__u32 pebs_size;
	__u32 lbr_offset;
	__u32 lbr_num_regs;
	__u32 latency_offset_in_sample;
	__u32 latency_size_in_sample;
	__u32 latency_size_from_pebs_record;
	__u32 latency_offset_in_pebs_record;
	__u32 power_offset_in_sample;
	__u32 ebc_offset;
	__u32 uncore_ebc_offset;
	__u32 eventing_ip_offset;
	__u32 hle_offset;
	__u32 pwr_offset;
	__u32 callstack_offset;
	__u32 callstack_size;
	__u32 p_state_offset;
	__u32 pebs_tsc_offset;
	__u32 perfmetrics_offset;
	__u32 perfmetrics_size;
	__u16 applicable_counters_offset;
	__u16 gpr_info_offset;
	__u16 gpr_info_size;
	__u16 xmm_info_offset;
	__u16 xmm_info_size;
	__u16 lbr_info_size;
	__u32 reserved2;
	__u32 pad;			/* implicit padding in the reference */
	__u64 reserved3;
};

/* ECB (6.1-6.4): one event group of one device, EM_CONFIG_NEXT(_UNC) payload. */
#define SEP_ECB_VERSION				2
#define SEP_MAX_OPERATION_TYPES			32
#define SEP_MAX_MMIO_BARS			8

/* ecb.flags: values, not bits (the reference constants overlap) */
#define SEP_ECB_DIRECT2CORE			1
#define SEP_ECB_BL_BYPASS			2
#define SEP_ECB_PCI_ID_OFFSET			3
#define SEP_ECB_PCU_CCST_DEBUG			4

/* ecb.device_type */
#define SEP_DEVICE_CORE				1
#define SEP_DEVICE_HETERO			2
#define SEP_DEVICE_UNC_CBO			10
#define SEP_DEVICE_UNC_HA			11
#define SEP_DEVICE_UNC_IMC			12
#define SEP_DEVICE_UNC_IRP			13
#define SEP_DEVICE_UNC_NCU			14
#define SEP_DEVICE_UNC_PCU			15
#define SEP_DEVICE_UNC_POWER			16
#define SEP_DEVICE_UNC_QPI			17
#define SEP_DEVICE_UNC_R2PCIE			18
#define SEP_DEVICE_UNC_R3QPI			19
#define SEP_DEVICE_UNC_SBOX			20
#define SEP_DEVICE_UNC_GT			21
#define SEP_DEVICE_UNC_UBOX			22
#define SEP_DEVICE_UNC_WBOX			23
#define SEP_DEVICE_UNC_COREI7			24
#define SEP_DEVICE_UNC_CHA			25
#define SEP_DEVICE_UNC_EDC			26
#define SEP_DEVICE_UNC_IIO			27
#define SEP_DEVICE_UNC_M2M			28
#define SEP_DEVICE_UNC_EDRAM			29
#define SEP_DEVICE_UNC_FPGA_FIRST		30
#define SEP_DEVICE_UNC_FPGA_LAST		34
#define SEP_DEVICE_UNC_MDF			35
#define SEP_DEVICE_UNC_RDT			36
#define SEP_DEVICE_UNC_TELEMETRY		150
#define SEP_DEVICE_CHAP				200
#define SEP_DEVICE_GMCH				201
#define SEP_DEVICE_GFX				202
#define SEP_DEVICE_SOCPERF			300
#define SEP_DEVICE_HFI_FIRST			400
#define SEP_DEVICE_HFI_LAST			401

/* PMU operation types: index into ecb.operations[] (6.2) */
#define SEP_OP_INITIALIZE			0
#define SEP_OP_WRITE				1
#define SEP_OP_ENABLE				2
#define SEP_OP_DISABLE				3
#define SEP_OP_READ				4
#define SEP_OP_CLEANUP				5
#define SEP_OP_READ_LBRS			6
#define SEP_OP_GLOBAL_REGS			7
#define SEP_OP_CTRL_GP				8
#define SEP_OP_DATA_FIXED			9
#define SEP_OP_DATA_GP				10
#define SEP_OP_OCR				11
#define SEP_OP_HW_ERRATA			12
#define SEP_OP_CHECK_OVERFLOW_GP_ERRATA		13
#define SEP_OP_CHECK_OVERFLOW_ERRATA		14
#define SEP_OP_ALL_REG				15
#define SEP_OP_DATA_ALL				16
#define SEP_OP_GLOBAL_STATUS			17
#define SEP_OP_METRICS				18
#define SEP_OP_MAX				SEP_MAX_OPERATION_TYPES

/* fixed slot order inside the GLOBAL_REGS section */
#define SEP_GLOBAL_REGS_PERF_GLOBAL_CTRL	0
#define SEP_GLOBAL_REGS_PERF_GLOBAL_OVF_CTRL	1
#define SEP_GLOBAL_REGS_PEBS_ENABLE		2
#define SEP_GLOBAL_REGS_DEBUGCTL		3
#define SEP_GLOBAL_REGS_FIXED_CTR_CTRL		4

/* DRV_PCI_DEVICE_ENTRY (6.3): PCI/BAR description; the uncore vector's MCHBAR lives here. */
struct sep_pci_device_entry {
	__u32 bus_no;
	__u32 dev_no;
	__u32 func_no;
	__u32 bar_offset;		/* config-space offset of the BAR register */
	__u64 bar_mask;
	__u32 bit_offset;
	__u32 size;
	__u64 bar_address;
	__u32 enable_offset;
	__u32 enabled;
	__u32 base_offset_for_mmio;
	__u32 operation;
	__u32 bar_name;
	__u32 prog_type;
	__u32 config_type;
	__s8 bar_shift;
	__u8 reserved0;
	__u16 reserved1;
	__u64 value;
	__u64 mask;
	__u64 virtual_address;		/* host address, ignore */
	__u32 port_id;
	__u32 op_code;
	__u32 device_id;
	__u16 bar_num;
	__u16 feature_id;
	__u64 reserved2;
	__u64 reserved3;
	__u64 reserved4;
};

/* PMU_OPERATIONS (6.2): one section of the entry array. */
struct sep_pmu_operation {
	__u32 operation_type;		/* SEP_OP_*, equals its index */
	__u32 register_start;
	__u32 register_len;
	__u32 reserved1;
	__u32 reserved2;
	__u32 reserved3;
};

/* MMIO_BAR_INFO (6.3), v6 layout (v3 differs inside, same size). */
struct sep_mmio_bar_info {
	__u32 bus_no;
	__u32 dev_no;
	__u32 func_no;
	__u32 addr_size;
	__u64 base_offset_for_mmio;
	__u32 map_size_for_mmio;
	__u32 main_bar_offset;
	__u64 main_bar_mask;
	__u8 main_bar_shift;
	__u8 reserved1;
	__u16 reserved2;
	__u32 reserved3;
	__u32 reserved4;
	__u32 secondary_bar_offset;
	__u64 secondary_bar_mask;
	__u8 secondary_bar_shift;
	__u8 reserved5;
	__u16 reserved6;
	__u32 reserved7;
	__u16 feature_id;
	__u16 reserved8;
	__u32 reserved9;
	__u64 reserved10;
};

/* ECB header; (size_of_allocation - 1728) / 136 struct sep_event_reg follow. */
struct sep_ecb {
	__u8 version;			/* SEP_ECB_VERSION */
	__u8 reserved1;
	__u16 reserved2;
	__u32 num_entries;		/* may be less than the slots that follow */
	__u32 group_id;
	__u32 num_events;
	__u32 cccr_start;
	__u32 cccr_pop;
	__u32 escr_start;
	__u32 escr_pop;
	__u32 data_start;
	__u32 data_pop;
	__u16 flags;			/* SEP_ECB_* */
	__u8 pmu_timer_interval;
	__u8 reserved3;
	__u32 size_of_allocation;	/* header + all entry slots */
	__u32 group_offset;		/* uncore record offset of the group id */
	__u32 reserved4;
	struct sep_pci_device_entry pcidev_entry_node;
	__u32 num_pci_devices;
	__u32 pcidev_list_offset;
	__u64 pcidev_entry_list;	/* host pointer, ignore */
	__u32 device_type;		/* SEP_DEVICE_* */
	__u32 dev_node;
	struct sep_pmu_operation operations[SEP_MAX_OPERATION_TYPES];
	__u32 descriptor_id;		/* uncore: EVENT_DESC of its records */
	__u32 reserved5;
	__u32 metric_start;
	__u32 metric_pop;
	/* REF-BUG: the reference reads BAR info here, the vectors use pcidev_entry_node */
	struct sep_mmio_bar_info mmio_bar_list[SEP_MAX_MMIO_BARS];
	__u32 num_mmio_secondary_bar;
	__u32 group_id_offset_in_trigger_evt_desc;
	__u64 reserved7;
	__u64 reserved8;
};

/* event_reg.reg_type: values */
#define SEP_REG_TYPE_EMPTY			0
#define SEP_REG_TYPE_CCCR			1
#define SEP_REG_TYPE_ESCR			2
#define SEP_REG_TYPE_DATA			4
#define SEP_REG_TYPE_DATA_RO_DELTA		8
#define SEP_REG_TYPE_DATA_RO_SS			16
#define SEP_REG_TYPE_METRICS			32

/* event_reg.flags */
#define SEP_EVREG_PRECISE			_BITUL(0)
#define SEP_EVREG_GLOBAL			_BITUL(1)
#define SEP_EVREG_UNCORE			_BITUL(2)
#define SEP_EVREG_UNCORE_Q_RST			_BITUL(3)
#define SEP_EVREG_LATENCY			_BITUL(4)
#define SEP_EVREG_IS_GP_REG			_BITUL(5)
#define SEP_EVREG_CLEAN_UP			_BITUL(6)
#define SEP_EVREG_EM_TRIGGER			_BITUL(7)
#define SEP_EVREG_LBR_VALUE			_BITUL(8)
#define SEP_EVREG_FIXED_REG			_BITUL(9)
#define SEP_EVREG_UNC_EVT_INTR_READ		_BITUL(10)
#define SEP_EVREG_MULTI_PKG_EVT			_BITUL(12)
#define SEP_EVREG_BRANCH_EVT			_BITUL(13)
#define SEP_EVREG_EBC_SAMPLING_EVT		_BITUL(14)
#define SEP_EVREG_COLLECT_ON_CTX_SW		_BITUL(15)

/* event_reg.counter_type */
#define SEP_COUNTER_STATIC			1
#define SEP_COUNTER_FREERUN			2
#define SEP_COUNTER_PROG_FREERUN		3
#define SEP_COUNTER_PROGRAMMABLE		4

/* event_reg.event_scope */
#define SEP_EVENT_SCOPE_PACKAGE			1
#define SEP_EVENT_SCOPE_MODULE			2
#define SEP_EVENT_SCOPE_THREAD			3
#define SEP_EVENT_SCOPE_SYSTEM			4

/* event_reg.reg_prog_type and drv_ioctl_status.reg_prog_type */
#define SEP_REG_PROG_MSR			1
#define SEP_REG_PROG_PCI			2
#define SEP_REG_PROG_MMIO			3

/* event_reg.reg_rw_type */
#define SEP_REG_RW_READ				1
#define SEP_REG_RW_WRITE			2
#define SEP_REG_RW_READ_WRITE			3
#define SEP_REG_RW_READ_MASK_WRITE		4
#define SEP_REG_RW_READ_VALIDATE_MASK		5
#define SEP_REG_RW_READ_MERGE_READ		6

/* EVENT_REG_ID (6.4): where a register lives. */
struct sep_event_reg_id {
	__u32 reg_id;			/* MSR address, or PCI/MMIO register offset */
	__u32 pci_bus_no;
	__u32 pci_dev_no;
	__u32 pci_func_no;
	__u32 data_size;		/* 4 or 8 */
	__u32 bar_index;		/* into ecb.mmio_bar_list */
	__u32 reserved1;
	__u32 reserved2;
	__u64 reserved3;
};

/* EVENT_REG (6.4): one ECB entry slot; reg_id 0 marks an empty slot. */
struct sep_event_reg {
	__u8 reg_type;			/* SEP_REG_TYPE_* */
	__u8 unit_id;
	__u16 event_id_index;		/* becomes the sample's eventIndex */
	__u16 counter_event_offset;	/* uncore record offset of this counter */
	__u16 reserved1;
	struct sep_event_reg_id event_reg_id;
	__u64 reg_value;		/* for counters: the reload value */
	__u16 desc_id;
	__u16 flags;			/* SEP_EVREG_* */
	__u32 reserved2;
	__u64 max_bits;			/* counter width mask */
	__u8 scheduled;
	__s8 secondary_pci_offset_shift;
	__u16 secondary_pci_offset_offset;
	__u32 counter_type;		/* SEP_COUNTER_* */
	__u32 event_scope;		/* SEP_EVENT_SCOPE_* */
	__u8 reg_prog_type;		/* SEP_REG_PROG_*, 0 in core ECBs */
	__u8 reg_rw_type;		/* SEP_REG_RW_* */
	__u8 reg_order;
	__u8 bit_position;
	__u64 secondary_pci_offset_mask;
	__u32 core_event_id;
	__u32 uncore_buffer_offset_in_package;
	__u32 uncore_buffer_offset_in_system;
	__u32 aux_reg_id_to_read;
	__u64 aux_read_mask;
	__u64 reserved3;
	__u64 reserved4;
};

/* DRV_IOCTL_STATUS (4.5): optional EM_CONFIG_NEXT(_UNC) reply naming a rejected register. */
#define SEP_IOCTL_PCI_KEY_BUS_MASK		0x000000ffULL
#define SEP_IOCTL_PCI_KEY_DEV_SHIFT		8
#define SEP_IOCTL_PCI_KEY_DEV_MASK		0x00001f00ULL
#define SEP_IOCTL_PCI_KEY_FUNC_SHIFT		13
#define SEP_IOCTL_PCI_KEY_FUNC_MASK		0x0000e000ULL
#define SEP_IOCTL_PCI_KEY_OFFSET_SHIFT		16
#define SEP_IOCTL_PCI_KEY_OFFSET_MASK		0xffff0000ULL

struct sep_drv_ioctl_status {
	__u32 drv_status;		/* 0 or VT_INVALID_PROG_INFO */
	__u8 reg_prog_type;		/* SEP_REG_PROG_* */
	__u8 reserved1;
	__u16 reserved2;
	__u64 reg_key1;			/* MSR address or SEP_IOCTL_PCI_KEY_* */
	__u32 reg_key2;			/* MMIO register offset */
	__u32 reserved3;
	__u64 reserved4;
	__u64 reserved5;
	__u64 reserved6;
};

/* LBR_INFO payload (4.4): header, then num_entries struct sep_lbr_entry. */
#define SEP_LBR_ENTRY_TOS			0
#define SEP_LBR_ENTRY_FROM			1
#define SEP_LBR_ENTRY_TO			2
#define SEP_LBR_ENTRY_INFO			3

struct sep_lbr_info {
	__u32 size;
	__u32 num_entries;
};

struct sep_lbr_entry {
	__u16 etype;			/* SEP_LBR_ENTRY_* */
	__u16 type_index;
	__u32 reg_id;
};

/* SET_EMON_BUFFER_DRIVER_HELPER payload (4.4): 7 words, then one per CPU. */
struct sep_emon_buffer_driver_helper {
	__u32 num_entries_per_package;
	__u32 num_cpu;
	__u32 power_num_package_events;
	__u32 power_num_module_events;
	__u32 power_num_thread_events;
	__u32 power_device_offset_in_package;
	__u32 core_num_events;
	__u32 core_index_to_thread_offset_map[];
};

/* DRV_LOG_CONTROL (4.4): CONTROL_DRIVER_LOG request and reply. */
#define SEP_DRV_LOG_CONTROL_MAX_DATA_SIZE	256
#define SEP_DRV_LOG_CMD_NONE			0
#define SEP_DRV_LOG_CMD_ADJUST_VERBOSITY	1
#define SEP_DRV_LOG_CMD_MARK			2
#define SEP_DRV_LOG_CMD_QUERY_SIZE		3
#define SEP_DRV_LOG_CMD_BENCHMARK		4
/* per-category data[] byte of ADJUST_VERBOSITY */
#define SEP_LOG_VERBOSITY_QUERY			0xff
#define SEP_LOG_VERBOSITY_DEFAULT		0xfe

struct sep_drv_log_control {
	__u32 command;			/* SEP_DRV_LOG_CMD_* */
	__u32 reserved1;
	__u8 data[SEP_DRV_LOG_CONTROL_MAX_DATA_SIZE];
	__u64 reserved2;
	__u64 reserved3;
	__u64 reserved4;
	__u64 reserved5;
};

/* SAMPLE_DROP_INFO (9.9): GET_SAMPLE_DROP_INFO reply, first 20 CPUs. */
#define SEP_MAX_SAMPLE_DROP_NODES		20

struct sep_sample_drop {
	__u32 os_id;
	__u32 cpu_id;
	__u32 sampled;
	__u32 dropped;
};

struct sep_sample_drop_info {
	__u32 size;			/* valid entries */
	struct sep_sample_drop drop_info[SEP_MAX_SAMPLE_DROP_NODES];
};

/* DRV_SETUP_INFO (9.2): GET_DRV_SETUP_INFO reply, exactly 32 bytes. */
#define SEP_SETUP_NMI_MODE			_BITULL(0)
#define SEP_SETUP_VMM_MODE			_BITULL(1)
#define SEP_SETUP_VMM_VENDOR_SHIFT		2
#define SEP_SETUP_VMM_VENDOR_MASK		0x00000000000003fcULL
#define SEP_SETUP_VMM_GUEST_VM			_BITULL(10)
#define SEP_SETUP_PEBS_ACCESSIBLE		_BITULL(11)
#define SEP_SETUP_CPU_HOTPLUG_MODE		_BITULL(12)
#define SEP_SETUP_MATRIX_INACCESSIBLE		_BITULL(13)
#define SEP_SETUP_PTI_SHIFT			14
#define SEP_SETUP_PTI_MASK			0x000000000000c000ULL
#define SEP_SETUP_PEBS_IGNORED_BY_PTI		_BITULL(16)
#define SEP_SETUP_CORE_EVENT_MUX_UNAVAILABLE	_BITULL(17)
#define SEP_SETUP_PROFILING_VERSION_UNSUPPORTED	_BITULL(18)
#define SEP_SETUP_TRACEPOINTS_AVAILABLE		_BITULL(19)
#define SEP_SETUP_REGISTER_WHITELIST_DETECTED	_BITULL(20)
#define SEP_SETUP_DRV_TYPE_SHIFT		21
#define SEP_SETUP_DRV_TYPE_MASK			0x0000000000e00000ULL

#define SEP_VMM_UNKNOWN				0
#define SEP_VMM_MOBILEVISOR			1
#define SEP_VMM_KVM				2
#define SEP_VMM_XEN				3
#define SEP_VMM_HYPERV				4
#define SEP_VMM_VMWARE				5
#define SEP_VMM_ACRN				6

#define SEP_PTI_DISABLED			0
#define SEP_PTI_KPTI				1
#define SEP_PTI_KAISER				2
#define SEP_PTI_VA_SHADOW			3
#define SEP_PTI_UNKNOWN				4	/* does not fit the 2-bit field */

#define SEP_DRV_TYPE_UNKNOWN			0
#define SEP_DRV_TYPE_PUBLIC			1
#define SEP_DRV_TYPE_NDA			2
#define SEP_DRV_TYPE_PRIVATE			3

struct sep_drv_setup_info {
	__u64 modes;			/* SEP_SETUP_* */
	__u64 reserved2;		/* 0 in the reference; ACA_SETUP_* */
	__u64 reserved3;
	__u64 reserved4;
};

/*
 * aca's extension in DRV_SETUP_INFO.reserved2 (the reference sends 0):
 * no usable PMU counter, so collections sample on the cpu-clock software
 * event at the requested rate; cycle and instruction events are then
 * approximations by time.
 */
#define ACA_SETUP_SW_CLOCK			0x1ull

/* DRV_PLATFORM_INFO (9.4): GET_PLATFORM_INFO reply. */
#define SEP_MAX_PACKAGES			16
#define SEP_MAX_CHANNELS			8
#define SEP_MAX_RANKS				3

struct sep_drv_dimm_info {
	__u32 platform_id;
	__u32 channel_num;
	__u32 rank_num;
	__u32 value;
	__u8 mc_num;
	__u8 dimm_valid;
	__u8 valid_value;
	__u8 rank_value;
	__u8 density_value;
	__u8 width_value;
	__u16 socket_num;
	__u64 reserved1;
	__u64 reserved2;
};

struct sep_drv_platform_info {
	__u64 info;			/* MSR_PLATFORM_INFO */
	__u64 ddr_freq_index;
	__u8 misc_valid;
	__u8 reserved1;
	__u16 reserved2;
	__u32 vmm_timer_freq;
	__u64 misc_info;
	__u64 ufs_freq;
	struct sep_drv_dimm_info dimm_info[SEP_MAX_PACKAGES * SEP_MAX_CHANNELS * SEP_MAX_RANKS];
	__u64 energy_multiplier;
	__u64 reserved3;
	__u64 reserved4;
	__u64 reserved5;
	__u64 reserved6;
};

/* task_info (4.4): GET_THREAD_INFO reply element. */
#define SEP_TASK_NAME_LEN			32

struct sep_task_info {
	__u64 id;
	char name[SEP_TASK_NAME_LEN];
	__u64 address_space_id;
};

/* GET_SYS_CONFIG blob (9.3); every pointer is an offset from the blob start. */
#define SEP_FIXED_PTR_IS_PTR			_BITUL(0)	/* always 0 on the wire */

/* GEN_ARRAY_HDR.array_type */
#define SEP_GEN_ARRAY_UNKNOWN			0
#define SEP_GEN_ARRAY_PER_CPU			1
#define SEP_GEN_ARRAY_PER_CHIPSET		2
#define SEP_GEN_ARRAY_CPUID			3
#define SEP_GEN_ARRAY_NODE			4
#define SEP_GEN_ARRAY_SYSTEM			5
#define SEP_GEN_ARRAY_SAMPLE_RECORD_INFO	6

/* GEN_ARRAY_HDR.array_subtype */
#define SEP_GEN_ARRAY_SUB_UNKNOWN		0
#define SEP_GEN_ARRAY_SUB_X86			1
#define SEP_GEN_ARRAY_SUB_ITANIUM		2
#define SEP_GEN_ARRAY_SUB_SA			3
#define SEP_GEN_ARRAY_SUB_XSC			4
#define SEP_GEN_ARRAY_SUB_EM64T			5
#define SEP_GEN_ARRAY_SUB_CS860			6

/* 16-byte pointer that never holds a host pointer on this wire. */
struct sep_fixed_ptr {
	__u32 unused;
	__u32 flags;			/* SEP_FIXED_PTR_IS_PTR */
	__u64 offset;			/* 0 = none */
};

struct sep_vtsa_sys_info {
	struct sep_fixed_ptr node_array;
	__u64 min_app_address;
	__u64 max_app_address;
	__u32 page_size;
	__u32 allocation_granularity;
	__u64 reserved1;
	__u64 reserved2;
	__u64 reserved3;
	__u64 reserved4;
};

struct sep_gen_array_hdr {
	__u32 hdr_size;
	__u32 pad;
	struct sep_fixed_ptr next_array;
	__u32 hdr_reserved[7];
	__u32 array_num_entries;
	__u32 array_entry_size;
	__u16 array_type;		/* SEP_GEN_ARRAY_* */
	__u16 array_subtype;		/* SEP_GEN_ARRAY_SUB_* */
};

struct sep_node_info {
	__u32 node_type_from_shell;
	__u32 node_id;
	__u32 node_num_available;
	__u32 node_num_used;
	__u64 node_physical_memory;	/* bytes */
	struct sep_fixed_ptr node_percpu_array;
	__u64 reserved;
};

struct sep_gen_per_cpu {
	__u32 cpu_number;
	__u32 cpu_speed_mhz;
	__u32 cpu_fsb_mhz;
	__u32 cpu_cache_L2;		/* KB */
	struct sep_fixed_ptr cpu_cpuid_array;
	__s64 cpu_tsc_offset;
	__u32 cpu_intel_processor_number;
	__u32 cpu_cache_L3;		/* KB */
	__u64 platform_id;
	__u16 cpu_package_num;
	__u16 cpu_core_num;
	__u16 cpu_hw_thread_num;
	__u16 cpu_threads_per_core;
	__u16 cpu_module_id;
	__u16 cpu_num_modules;
	__u32 cpu_core_type;
	__u32 arch_perfmon_ver;
	__u32 num_gp_counters;
	__u32 num_fixed_counters;
	__u32 reserved[5];
};

/* leaf only: the sub-leaf is implied by the order of the entries */
struct sep_cpuid_x86 {
	__u32 eax_input;
	__u32 eax;
	__u32 ebx;
	__u32 ecx;
	__u32 edx;
};

/* PAX_INFO (4.3): answered by the agent itself, zeroed. */
struct sep_pax_info {
	__u64 managed_by;
	__u32 version;
	__u32 pad1;
	__u64 reserved1;
	__u32 reserved2;
	__u32 pad2;
};

/*
 * SampleRecordPC (7.1): one PMI sample on a per-CPU channel.  The record on
 * the wire is EVENT_DESC.sample_size long; this is its 48-byte base.
 */
#define SEP_SAMPLE_CPU_NUM_MASK			0x0fff
#define SEP_SAMPLE_NOT_VMID0			_BITUL(12)
#define SEP_SAMPLE_CODE_MODE_SHIFT		13
#define SEP_SAMPLE_CODE_MODE_MASK		0x6000
#define SEP_SAMPLE_UNCORE_VALID			_BITUL(15)

#define SEP_SAMPLE_MR_INDEX_MASK		0x000fffffU
#define SEP_SAMPLE_EVENT_INDEX_SHIFT		20
#define SEP_SAMPLE_EVENT_INDEX_MASK		0x0ff00000U
#define SEP_SAMPLE_TID_IS_RAW			_BITUL(28)
#define SEP_SAMPLE_IA64PC			_BITUL(29)
#define SEP_SAMPLE_PID_REC_INDEX_RAW		_BITUL(30)
#define SEP_SAMPLE_MR_INDEX_NONE		_BITUL(31)

/* pid_rec_index == tid == this marks a PEBS-style record */
#define SEP_SAMPLE_PEBS_MARKER			0xffffffffU

struct sep_sample_record_pc {
	__u32 descriptor_id;
	__u32 osid;
	union {
		struct {		/* SEP_SAMPLE_IA64PC set: 64-bit code */
			__u64 iip;	/* RIP */
			__u64 ipsr;	/* RFLAGS low 32 | CS DPL << 32 */
		};
		struct {		/* SEP_SAMPLE_IA64PC clear: compat code */
			__u32 eip;
			__u32 eflags;
			__u32 csd_low;	/* raw GDT code descriptor */
			__u32 csd_high;
		};
	};
	__u16 cs;
	__u16 cpu_and_os;		/* SEP_SAMPLE_CPU_NUM_MASK ... UNCORE_VALID */
	__u32 tid;
	__u32 pid_rec_index;		/* tgid */
	__u32 bit_fields2;		/* SEP_SAMPLE_MR_INDEX_MASK ... MR_INDEX_NONE */
	__u64 tsc;
};

/*
 * UncoreSampleRecordPC (7.2): header of an uncore record; the group id and
 * the counters follow at ecb.group_offset / event_reg.counter_event_offset.
 */
#define SEP_UNC_RECORD_UNCORE_VALID		_BITUL(0)

struct sep_uncore_sample_record {
	__u32 descriptor_id;
	__u32 osid;
	__u16 cpu_num;
	__u16 pkg_num;
	__u32 flags;			/* SEP_UNC_RECORD_UNCORE_VALID */
	__u64 reserved2;
	__u64 tsc;
};

/*
 * ModuleRecord (7.3): fixed part of a module-channel record; path_length
 * bytes of NUL-terminated path follow, zero-padded to rec_length.
 */
#define SEP_MR_ALIGN				8
#define SEP_MR_UNLOAD_TSC_LOADED		0xffffffffffffffffULL

/* segment_bits */
#define SEP_MR_SEGMENT_TYPE_MASK		0x0003
#define SEP_MR_LOAD_EVENT			_BITUL(2)
#define SEP_MR_PROCESSED			_BITUL(3)

/* segment types, also the code modes of SampleRecordPC */
#define SEP_MODE_V86				0
#define SEP_MODE_16BIT				1
#define SEP_MODE_32BIT				2
#define SEP_MODE_64BIT				3

/* selector */
#define SEP_MR_SELECTOR_KERNEL			0x10
#define SEP_MR_SELECTOR_USER32			0x23
#define SEP_MR_SELECTOR_USER64			0x33

/* flags */
#define SEP_MR_EXE				_BITUL(0)
#define SEP_MR_GLOBAL_MODULE			_BITUL(1)
#define SEP_MR_BOGUS_WIN95			_BITUL(2)
#define SEP_MR_PID_REC_INDEX_RAW		_BITUL(3)
#define SEP_MR_SAMPLE_FOUND			_BITUL(4)
#define SEP_MR_TSC_USED				_BITUL(5)
#define SEP_MR_DUPLICATE			_BITUL(6)
#define SEP_MR_GLOBAL_MODULE_TB5		_BITUL(7)
#define SEP_MR_SEGMENT_NAME_SET			_BITUL(8)
#define SEP_MR_FIRST_MODULE_REC_IN_PROCESS	_BITUL(9)
#define SEP_MR_SOURCE				_BITUL(10)
#define SEP_MR_UNKNOWN_LOAD_ADDRESS		_BITUL(11)

struct sep_module_record {
	__u16 rec_length;		/* ALIGN(80 + path_length, 8), never 0 */
	__u16 segment_bits;		/* SEP_MR_SEGMENT_TYPE_MASK, LOAD_EVENT, PROCESSED */
	__u16 selector;			/* SEP_MR_SELECTOR_* */
	__u16 segment_name_length;
	__u32 segment_number;
	__u32 flags;			/* SEP_MR_* */
	__u64 length64;
	__u64 load_addr64;
	__u32 pid_rec_index;		/* tgid, 0 for the kernel */
	__u32 osid;
	__u64 unload_tsc;		/* SEP_MR_UNLOAD_TSC_LOADED while mapped */
	__u32 path;
	__u16 path_length;		/* strlen(path) + 1 */
	__u16 filename_offset;
	__u32 segment_name;
	__u32 page_offset_high;		/* file offset of the mapping, high half */
	__u64 tsc;			/* load TSC, REF-BUG: never set by the reference */
	__u32 parent_pid;
	__u32 page_offset_low;
};

/* SIDEBAND_INFO (7.4): context-switch record, VM agent modes only. */
struct sep_sideband_info {
	__u32 tid;
	__u32 pid;
	__u64 tsc;
};

#ifndef __cplusplus
SEP_ASSERT_SIZE(sep_drv_config, 104);
SEP_ASSERT_SIZE(sep_drv_topology_info, 72);
SEP_ASSERT_SIZE(sep_dev_config, 4080);
SEP_ASSERT_SIZE(sep_dev_unc_config, 4048);
SEP_ASSERT_SIZE(sep_event_config, 144);
SEP_ASSERT_SIZE(sep_event_desc, 112);
SEP_ASSERT_SIZE(sep_pci_device_entry, 136);
SEP_ASSERT_SIZE(sep_pmu_operation, 24);
SEP_ASSERT_SIZE(sep_mmio_bar_info, 88);
SEP_ASSERT_SIZE(sep_ecb, 1728);
SEP_ASSERT_SIZE(sep_event_reg_id, 40);
SEP_ASSERT_SIZE(sep_event_reg, 136);
SEP_ASSERT_SIZE(sep_drv_ioctl_status, 48);
SEP_ASSERT_SIZE(sep_lbr_info, 8);
SEP_ASSERT_SIZE(sep_lbr_entry, 8);
SEP_ASSERT_SIZE(sep_emon_buffer_driver_helper, 28);
SEP_ASSERT_SIZE(sep_drv_log_control, 296);
SEP_ASSERT_SIZE(sep_sample_drop, 16);
SEP_ASSERT_SIZE(sep_sample_drop_info, 324);
SEP_ASSERT_SIZE(sep_drv_setup_info, 32);
SEP_ASSERT_SIZE(sep_drv_dimm_info, 40);
SEP_ASSERT_SIZE(sep_drv_platform_info, 15440);
SEP_ASSERT_SIZE(sep_task_info, 48);
SEP_ASSERT_SIZE(sep_fixed_ptr, 16);
SEP_ASSERT_SIZE(sep_vtsa_sys_info, 72);
SEP_ASSERT_SIZE(sep_gen_array_hdr, 64);
SEP_ASSERT_SIZE(sep_node_info, 48);
SEP_ASSERT_SIZE(sep_gen_per_cpu, 104);
SEP_ASSERT_SIZE(sep_cpuid_x86, 20);
SEP_ASSERT_SIZE(sep_pax_info, 32);
SEP_ASSERT_SIZE(sep_sample_record_pc, 48);
SEP_ASSERT_SIZE(sep_uncore_sample_record, 32);
SEP_ASSERT_SIZE(sep_module_record, 80);
SEP_ASSERT_SIZE(sep_sideband_info, 16);

SEP_ASSERT_OFFSET(sep_drv_config, version, 4);
SEP_ASSERT_OFFSET(sep_drv_config, reserved1, 6);
SEP_ASSERT_OFFSET(sep_drv_config, num_events, 8);
SEP_ASSERT_OFFSET(sep_drv_config, num_chipset_events, 12);
SEP_ASSERT_OFFSET(sep_drv_config, chipset_offset, 16);
SEP_ASSERT_OFFSET(sep_drv_config, seed_name_len, 20);
SEP_ASSERT_OFFSET(sep_drv_config, seed_name, 24);
SEP_ASSERT_OFFSET(sep_drv_config, cpu_mask, 32);
SEP_ASSERT_OFFSET(sep_drv_config, collection_config, 40);
SEP_ASSERT_OFFSET(sep_drv_config, target_pid, 48);
SEP_ASSERT_OFFSET(sep_drv_config, os_of_interest, 56);
SEP_ASSERT_OFFSET(sep_drv_config, unc_timer_interval, 60);
SEP_ASSERT_OFFSET(sep_drv_config, unc_em_factor, 62);
SEP_ASSERT_OFFSET(sep_drv_config, p_state_trigger_index, 64);
SEP_ASSERT_OFFSET(sep_drv_config, multi_pebs_enabled, 68);
SEP_ASSERT_OFFSET(sep_drv_config, emon_timer_interval, 72);
SEP_ASSERT_OFFSET(sep_drv_config, unc_collect_in_intr_enabled, 76);
SEP_ASSERT_OFFSET(sep_drv_config, reserved4, 80);

SEP_ASSERT_OFFSET(sep_drv_topology_info, cpu_package_num, 4);
SEP_ASSERT_OFFSET(sep_drv_topology_info, cpu_core_num, 6);
SEP_ASSERT_OFFSET(sep_drv_topology_info, cpu_hw_thread_num, 8);
SEP_ASSERT_OFFSET(sep_drv_topology_info, socket_master, 12);
SEP_ASSERT_OFFSET(sep_drv_topology_info, core_master, 16);
SEP_ASSERT_OFFSET(sep_drv_topology_info, thr_master, 20);
SEP_ASSERT_OFFSET(sep_drv_topology_info, cpu_module_num, 24);
SEP_ASSERT_OFFSET(sep_drv_topology_info, cpu_module_master, 28);
SEP_ASSERT_OFFSET(sep_drv_topology_info, cpu_num_modules, 32);
SEP_ASSERT_OFFSET(sep_drv_topology_info, cpu_core_type, 36);
SEP_ASSERT_OFFSET(sep_drv_topology_info, arch_perfmon_ver, 40);
SEP_ASSERT_OFFSET(sep_drv_topology_info, num_gp_counters, 44);
SEP_ASSERT_OFFSET(sep_drv_topology_info, num_fixed_counters, 48);
SEP_ASSERT_OFFSET(sep_drv_topology_info, reserved2, 52);
SEP_ASSERT_OFFSET(sep_drv_topology_info, reserved3, 56);

SEP_ASSERT_OFFSET(sep_dev_config, version, 2);
SEP_ASSERT_OFFSET(sep_dev_config, dispatch_id, 4);
SEP_ASSERT_OFFSET(sep_dev_config, pebs_mode, 8);
SEP_ASSERT_OFFSET(sep_dev_config, pebs_record_num, 12);
SEP_ASSERT_OFFSET(sep_dev_config, results_offset, 16);
SEP_ASSERT_OFFSET(sep_dev_config, max_gp_counters, 20);
SEP_ASSERT_OFFSET(sep_dev_config, device_type, 24);
SEP_ASSERT_OFFSET(sep_dev_config, core_type, 28);
SEP_ASSERT_OFFSET(sep_dev_config, enable_bits, 32);
SEP_ASSERT_OFFSET(sep_dev_config, emon_unc_offset, 40);
SEP_ASSERT_OFFSET(sep_dev_config, ebc_group_id_offset, 4040);
SEP_ASSERT_OFFSET(sep_dev_config, num_perf_metrics, 4044);
SEP_ASSERT_OFFSET(sep_dev_config, apebs_num_lbr_entries, 4045);
SEP_ASSERT_OFFSET(sep_dev_config, emon_perf_metrics_offset, 4046);
SEP_ASSERT_OFFSET(sep_dev_config, device_scope, 4048);
SEP_ASSERT_OFFSET(sep_dev_config, num_events, 4052);
SEP_ASSERT_OFFSET(sep_dev_config, device_index, 4056);
SEP_ASSERT_OFFSET(sep_dev_config, reserved1, 4058);
SEP_ASSERT_OFFSET(sep_dev_config, reserved2, 4060);
SEP_ASSERT_OFFSET(sep_dev_config, reserved3, 4064);

SEP_ASSERT_OFFSET(sep_dev_unc_config, version, 2);
SEP_ASSERT_OFFSET(sep_dev_unc_config, dispatch_id, 4);
SEP_ASSERT_OFFSET(sep_dev_unc_config, results_offset, 8);
SEP_ASSERT_OFFSET(sep_dev_unc_config, device_type, 12);
SEP_ASSERT_OFFSET(sep_dev_unc_config, device_scope, 16);
SEP_ASSERT_OFFSET(sep_dev_unc_config, num_events, 20);
SEP_ASSERT_OFFSET(sep_dev_unc_config, emon_unc_offset, 24);
SEP_ASSERT_OFFSET(sep_dev_unc_config, device_index, 4024);
SEP_ASSERT_OFFSET(sep_dev_unc_config, num_units, 4026);
SEP_ASSERT_OFFSET(sep_dev_unc_config, device_with_intr_events, 4028);
SEP_ASSERT_OFFSET(sep_dev_unc_config, reserved2, 4032);

SEP_ASSERT_OFFSET(sep_event_config, em_mode, 4);
SEP_ASSERT_OFFSET(sep_event_config, em_factor, 8);
SEP_ASSERT_OFFSET(sep_event_config, em_event_num, 12);
SEP_ASSERT_OFFSET(sep_event_config, sample_size, 16);
SEP_ASSERT_OFFSET(sep_event_config, max_gp_events, 20);
SEP_ASSERT_OFFSET(sep_event_config, max_fixed_counters, 24);
SEP_ASSERT_OFFSET(sep_event_config, max_ro_counters, 28);
SEP_ASSERT_OFFSET(sep_event_config, pebs_offset, 32);
SEP_ASSERT_OFFSET(sep_event_config, pebs_size, 36);
SEP_ASSERT_OFFSET(sep_event_config, lbr_offset, 40);
SEP_ASSERT_OFFSET(sep_event_config, lbr_num_regs, 44);
SEP_ASSERT_OFFSET(sep_event_config, latency_offset_in_sample, 48);
SEP_ASSERT_OFFSET(sep_event_config, latency_size_in_sample, 52);
SEP_ASSERT_OFFSET(sep_event_config, latency_size_from_pebs_record, 56);
SEP_ASSERT_OFFSET(sep_event_config, latency_offset_in_pebs_record, 60);
SEP_ASSERT_OFFSET(sep_event_config, power_offset_in_sample, 64);
SEP_ASSERT_OFFSET(sep_event_config, ebc_offset, 68);
SEP_ASSERT_OFFSET(sep_event_config, num_groups_unc, 72);
SEP_ASSERT_OFFSET(sep_event_config, ebc_offset_unc, 76);
SEP_ASSERT_OFFSET(sep_event_config, sample_size_unc, 80);
SEP_ASSERT_OFFSET(sep_event_config, eventing_ip_offset, 84);
SEP_ASSERT_OFFSET(sep_event_config, hle_offset, 88);
SEP_ASSERT_OFFSET(sep_event_config, pwr_offset, 92);
SEP_ASSERT_OFFSET(sep_event_config, callstack_offset, 96);
SEP_ASSERT_OFFSET(sep_event_config, callstack_size, 100);
SEP_ASSERT_OFFSET(sep_event_config, p_state_offset, 104);
SEP_ASSERT_OFFSET(sep_event_config, pebs_tsc_offset, 108);
SEP_ASSERT_OFFSET(sep_event_config, reserved1, 112);

SEP_ASSERT_OFFSET(sep_event_desc, pebs_offset, 4);
SEP_ASSERT_OFFSET(sep_event_desc, pebs_size, 8);
SEP_ASSERT_OFFSET(sep_event_desc, lbr_offset, 12);
SEP_ASSERT_OFFSET(sep_event_desc, lbr_num_regs, 16);
SEP_ASSERT_OFFSET(sep_event_desc, latency_offset_in_sample, 20);
SEP_ASSERT_OFFSET(sep_event_desc, latency_size_in_sample, 24);
SEP_ASSERT_OFFSET(sep_event_desc, latency_size_from_pebs_record, 28);
SEP_ASSERT_OFFSET(sep_event_desc, latency_offset_in_pebs_record, 32);
SEP_ASSERT_OFFSET(sep_event_desc, power_offset_in_sample, 36);
SEP_ASSERT_OFFSET(sep_event_desc, ebc_offset, 40);
SEP_ASSERT_OFFSET(sep_event_desc, uncore_ebc_offset, 44);
SEP_ASSERT_OFFSET(sep_event_desc, eventing_ip_offset, 48);
SEP_ASSERT_OFFSET(sep_event_desc, hle_offset, 52);
SEP_ASSERT_OFFSET(sep_event_desc, pwr_offset, 56);
SEP_ASSERT_OFFSET(sep_event_desc, callstack_offset, 60);
SEP_ASSERT_OFFSET(sep_event_desc, callstack_size, 64);
SEP_ASSERT_OFFSET(sep_event_desc, p_state_offset, 68);
SEP_ASSERT_OFFSET(sep_event_desc, pebs_tsc_offset, 72);
SEP_ASSERT_OFFSET(sep_event_desc, perfmetrics_offset, 76);
SEP_ASSERT_OFFSET(sep_event_desc, perfmetrics_size, 80);
SEP_ASSERT_OFFSET(sep_event_desc, applicable_counters_offset, 84);
SEP_ASSERT_OFFSET(sep_event_desc, gpr_info_offset, 86);
SEP_ASSERT_OFFSET(sep_event_desc, gpr_info_size, 88);
SEP_ASSERT_OFFSET(sep_event_desc, xmm_info_offset, 90);
SEP_ASSERT_OFFSET(sep_event_desc, xmm_info_size, 92);
SEP_ASSERT_OFFSET(sep_event_desc, lbr_info_size, 94);
SEP_ASSERT_OFFSET(sep_event_desc, reserved2, 96);
SEP_ASSERT_OFFSET(sep_event_desc, reserved3, 104);

SEP_ASSERT_OFFSET(sep_pci_device_entry, dev_no, 4);
SEP_ASSERT_OFFSET(sep_pci_device_entry, func_no, 8);
SEP_ASSERT_OFFSET(sep_pci_device_entry, bar_offset, 12);
SEP_ASSERT_OFFSET(sep_pci_device_entry, bar_mask, 16);
SEP_ASSERT_OFFSET(sep_pci_device_entry, bit_offset, 24);
SEP_ASSERT_OFFSET(sep_pci_device_entry, size, 28);
SEP_ASSERT_OFFSET(sep_pci_device_entry, bar_address, 32);
SEP_ASSERT_OFFSET(sep_pci_device_entry, enable_offset, 40);
SEP_ASSERT_OFFSET(sep_pci_device_entry, enabled, 44);
SEP_ASSERT_OFFSET(sep_pci_device_entry, base_offset_for_mmio, 48);
SEP_ASSERT_OFFSET(sep_pci_device_entry, operation, 52);
SEP_ASSERT_OFFSET(sep_pci_device_entry, bar_name, 56);
SEP_ASSERT_OFFSET(sep_pci_device_entry, prog_type, 60);
SEP_ASSERT_OFFSET(sep_pci_device_entry, config_type, 64);
SEP_ASSERT_OFFSET(sep_pci_device_entry, bar_shift, 68);
SEP_ASSERT_OFFSET(sep_pci_device_entry, value, 72);
SEP_ASSERT_OFFSET(sep_pci_device_entry, mask, 80);
SEP_ASSERT_OFFSET(sep_pci_device_entry, virtual_address, 88);
SEP_ASSERT_OFFSET(sep_pci_device_entry, port_id, 96);
SEP_ASSERT_OFFSET(sep_pci_device_entry, op_code, 100);
SEP_ASSERT_OFFSET(sep_pci_device_entry, device_id, 104);
SEP_ASSERT_OFFSET(sep_pci_device_entry, bar_num, 108);
SEP_ASSERT_OFFSET(sep_pci_device_entry, feature_id, 110);
SEP_ASSERT_OFFSET(sep_pci_device_entry, reserved2, 112);

SEP_ASSERT_OFFSET(sep_pmu_operation, register_start, 4);
SEP_ASSERT_OFFSET(sep_pmu_operation, register_len, 8);

SEP_ASSERT_OFFSET(sep_mmio_bar_info, dev_no, 4);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, func_no, 8);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, addr_size, 12);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, base_offset_for_mmio, 16);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, map_size_for_mmio, 24);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, main_bar_offset, 28);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, main_bar_mask, 32);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, main_bar_shift, 40);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, secondary_bar_offset, 52);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, secondary_bar_mask, 56);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, secondary_bar_shift, 64);
SEP_ASSERT_OFFSET(sep_mmio_bar_info, feature_id, 72);

SEP_ASSERT_OFFSET(sep_ecb, reserved1, 1);
SEP_ASSERT_OFFSET(sep_ecb, reserved2, 2);
SEP_ASSERT_OFFSET(sep_ecb, num_entries, 4);
SEP_ASSERT_OFFSET(sep_ecb, group_id, 8);
SEP_ASSERT_OFFSET(sep_ecb, num_events, 12);
SEP_ASSERT_OFFSET(sep_ecb, cccr_start, 16);
SEP_ASSERT_OFFSET(sep_ecb, cccr_pop, 20);
SEP_ASSERT_OFFSET(sep_ecb, escr_start, 24);
SEP_ASSERT_OFFSET(sep_ecb, escr_pop, 28);
SEP_ASSERT_OFFSET(sep_ecb, data_start, 32);
SEP_ASSERT_OFFSET(sep_ecb, data_pop, 36);
SEP_ASSERT_OFFSET(sep_ecb, flags, 40);
SEP_ASSERT_OFFSET(sep_ecb, pmu_timer_interval, 42);
SEP_ASSERT_OFFSET(sep_ecb, reserved3, 43);
SEP_ASSERT_OFFSET(sep_ecb, size_of_allocation, 44);
SEP_ASSERT_OFFSET(sep_ecb, group_offset, 48);
SEP_ASSERT_OFFSET(sep_ecb, reserved4, 52);
SEP_ASSERT_OFFSET(sep_ecb, pcidev_entry_node, 56);
SEP_ASSERT_OFFSET(sep_ecb, num_pci_devices, 192);
SEP_ASSERT_OFFSET(sep_ecb, pcidev_list_offset, 196);
SEP_ASSERT_OFFSET(sep_ecb, pcidev_entry_list, 200);
SEP_ASSERT_OFFSET(sep_ecb, device_type, 208);
SEP_ASSERT_OFFSET(sep_ecb, dev_node, 212);
SEP_ASSERT_OFFSET(sep_ecb, operations, 216);
SEP_ASSERT_OFFSET(sep_ecb, descriptor_id, 984);
SEP_ASSERT_OFFSET(sep_ecb, reserved5, 988);
SEP_ASSERT_OFFSET(sep_ecb, metric_start, 992);
SEP_ASSERT_OFFSET(sep_ecb, metric_pop, 996);
SEP_ASSERT_OFFSET(sep_ecb, mmio_bar_list, 1000);
SEP_ASSERT_OFFSET(sep_ecb, num_mmio_secondary_bar, 1704);
SEP_ASSERT_OFFSET(sep_ecb, group_id_offset_in_trigger_evt_desc, 1708);
SEP_ASSERT_OFFSET(sep_ecb, reserved7, 1712);

SEP_ASSERT_OFFSET(sep_event_reg_id, pci_bus_no, 4);
SEP_ASSERT_OFFSET(sep_event_reg_id, data_size, 16);
SEP_ASSERT_OFFSET(sep_event_reg_id, bar_index, 20);
SEP_ASSERT_OFFSET(sep_event_reg_id, reserved3, 32);

SEP_ASSERT_OFFSET(sep_event_reg, unit_id, 1);
SEP_ASSERT_OFFSET(sep_event_reg, event_id_index, 2);
SEP_ASSERT_OFFSET(sep_event_reg, counter_event_offset, 4);
SEP_ASSERT_OFFSET(sep_event_reg, reserved1, 6);
SEP_ASSERT_OFFSET(sep_event_reg, event_reg_id.reg_id, 8);
SEP_ASSERT_OFFSET(sep_event_reg, event_reg_id.pci_bus_no, 12);
SEP_ASSERT_OFFSET(sep_event_reg, event_reg_id.pci_dev_no, 16);
SEP_ASSERT_OFFSET(sep_event_reg, event_reg_id.pci_func_no, 20);
SEP_ASSERT_OFFSET(sep_event_reg, event_reg_id.data_size, 24);
SEP_ASSERT_OFFSET(sep_event_reg, event_reg_id.bar_index, 28);
SEP_ASSERT_OFFSET(sep_event_reg, reg_value, 48);
SEP_ASSERT_OFFSET(sep_event_reg, desc_id, 56);
SEP_ASSERT_OFFSET(sep_event_reg, flags, 58);
SEP_ASSERT_OFFSET(sep_event_reg, reserved2, 60);
SEP_ASSERT_OFFSET(sep_event_reg, max_bits, 64);
SEP_ASSERT_OFFSET(sep_event_reg, scheduled, 72);
SEP_ASSERT_OFFSET(sep_event_reg, secondary_pci_offset_shift, 73);
SEP_ASSERT_OFFSET(sep_event_reg, secondary_pci_offset_offset, 74);
SEP_ASSERT_OFFSET(sep_event_reg, counter_type, 76);
SEP_ASSERT_OFFSET(sep_event_reg, event_scope, 80);
SEP_ASSERT_OFFSET(sep_event_reg, reg_prog_type, 84);
SEP_ASSERT_OFFSET(sep_event_reg, reg_rw_type, 85);
SEP_ASSERT_OFFSET(sep_event_reg, reg_order, 86);
SEP_ASSERT_OFFSET(sep_event_reg, bit_position, 87);
SEP_ASSERT_OFFSET(sep_event_reg, secondary_pci_offset_mask, 88);
SEP_ASSERT_OFFSET(sep_event_reg, core_event_id, 96);
SEP_ASSERT_OFFSET(sep_event_reg, uncore_buffer_offset_in_package, 100);
SEP_ASSERT_OFFSET(sep_event_reg, uncore_buffer_offset_in_system, 104);
SEP_ASSERT_OFFSET(sep_event_reg, aux_reg_id_to_read, 108);
SEP_ASSERT_OFFSET(sep_event_reg, aux_read_mask, 112);
SEP_ASSERT_OFFSET(sep_event_reg, reserved3, 120);

SEP_ASSERT_OFFSET(sep_drv_ioctl_status, reg_prog_type, 4);
SEP_ASSERT_OFFSET(sep_drv_ioctl_status, reg_key1, 8);
SEP_ASSERT_OFFSET(sep_drv_ioctl_status, reg_key2, 16);

SEP_ASSERT_OFFSET(sep_lbr_entry, type_index, 2);
SEP_ASSERT_OFFSET(sep_lbr_entry, reg_id, 4);
SEP_ASSERT_OFFSET(sep_emon_buffer_driver_helper, core_num_events, 24);
SEP_ASSERT_OFFSET(sep_emon_buffer_driver_helper, core_index_to_thread_offset_map, 28);

SEP_ASSERT_OFFSET(sep_drv_log_control, data, 8);
SEP_ASSERT_OFFSET(sep_drv_log_control, reserved2, 264);

SEP_ASSERT_OFFSET(sep_sample_drop_info, drop_info, 4);
SEP_ASSERT_OFFSET(sep_sample_drop_info, drop_info[1], 20);
SEP_ASSERT_OFFSET(sep_sample_drop_info, drop_info[19].dropped, 320);

SEP_ASSERT_OFFSET(sep_drv_setup_info, reserved2, 8);

SEP_ASSERT_OFFSET(sep_drv_dimm_info, channel_num, 4);
SEP_ASSERT_OFFSET(sep_drv_dimm_info, rank_num, 8);
SEP_ASSERT_OFFSET(sep_drv_dimm_info, value, 12);
SEP_ASSERT_OFFSET(sep_drv_dimm_info, mc_num, 16);
SEP_ASSERT_OFFSET(sep_drv_dimm_info, dimm_valid, 17);
SEP_ASSERT_OFFSET(sep_drv_dimm_info, valid_value, 18);
SEP_ASSERT_OFFSET(sep_drv_dimm_info, rank_value, 19);
SEP_ASSERT_OFFSET(sep_drv_dimm_info, density_value, 20);
SEP_ASSERT_OFFSET(sep_drv_dimm_info, width_value, 21);
SEP_ASSERT_OFFSET(sep_drv_dimm_info, socket_num, 22);
SEP_ASSERT_OFFSET(sep_drv_dimm_info, reserved1, 24);

SEP_ASSERT_OFFSET(sep_drv_platform_info, ddr_freq_index, 8);
SEP_ASSERT_OFFSET(sep_drv_platform_info, misc_valid, 16);
SEP_ASSERT_OFFSET(sep_drv_platform_info, reserved1, 17);
SEP_ASSERT_OFFSET(sep_drv_platform_info, reserved2, 18);
SEP_ASSERT_OFFSET(sep_drv_platform_info, vmm_timer_freq, 20);
SEP_ASSERT_OFFSET(sep_drv_platform_info, misc_info, 24);
SEP_ASSERT_OFFSET(sep_drv_platform_info, ufs_freq, 32);
SEP_ASSERT_OFFSET(sep_drv_platform_info, dimm_info, 40);
SEP_ASSERT_OFFSET(sep_drv_platform_info, energy_multiplier, 15400);
SEP_ASSERT_OFFSET(sep_drv_platform_info, reserved3, 15408);

SEP_ASSERT_OFFSET(sep_task_info, name, 8);
SEP_ASSERT_OFFSET(sep_task_info, address_space_id, 40);

SEP_ASSERT_OFFSET(sep_fixed_ptr, flags, 4);
SEP_ASSERT_OFFSET(sep_fixed_ptr, offset, 8);

SEP_ASSERT_OFFSET(sep_vtsa_sys_info, min_app_address, 16);
SEP_ASSERT_OFFSET(sep_vtsa_sys_info, max_app_address, 24);
SEP_ASSERT_OFFSET(sep_vtsa_sys_info, page_size, 32);
SEP_ASSERT_OFFSET(sep_vtsa_sys_info, allocation_granularity, 36);
SEP_ASSERT_OFFSET(sep_vtsa_sys_info, reserved1, 40);

SEP_ASSERT_OFFSET(sep_gen_array_hdr, pad, 4);
SEP_ASSERT_OFFSET(sep_gen_array_hdr, next_array, 8);
SEP_ASSERT_OFFSET(sep_gen_array_hdr, hdr_reserved, 24);
SEP_ASSERT_OFFSET(sep_gen_array_hdr, array_num_entries, 52);
SEP_ASSERT_OFFSET(sep_gen_array_hdr, array_entry_size, 56);
SEP_ASSERT_OFFSET(sep_gen_array_hdr, array_type, 60);
SEP_ASSERT_OFFSET(sep_gen_array_hdr, array_subtype, 62);

SEP_ASSERT_OFFSET(sep_node_info, node_id, 4);
SEP_ASSERT_OFFSET(sep_node_info, node_num_available, 8);
SEP_ASSERT_OFFSET(sep_node_info, node_num_used, 12);
SEP_ASSERT_OFFSET(sep_node_info, node_physical_memory, 16);
SEP_ASSERT_OFFSET(sep_node_info, node_percpu_array, 24);
SEP_ASSERT_OFFSET(sep_node_info, reserved, 40);

SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_speed_mhz, 4);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_fsb_mhz, 8);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_cache_L2, 12);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_cpuid_array, 16);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_tsc_offset, 32);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_intel_processor_number, 40);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_cache_L3, 44);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, platform_id, 48);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_package_num, 56);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_core_num, 58);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_hw_thread_num, 60);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_threads_per_core, 62);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_module_id, 64);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_num_modules, 66);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, cpu_core_type, 68);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, arch_perfmon_ver, 72);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, num_gp_counters, 76);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, num_fixed_counters, 80);
SEP_ASSERT_OFFSET(sep_gen_per_cpu, reserved, 84);

SEP_ASSERT_OFFSET(sep_cpuid_x86, eax, 4);
SEP_ASSERT_OFFSET(sep_cpuid_x86, ebx, 8);
SEP_ASSERT_OFFSET(sep_cpuid_x86, ecx, 12);
SEP_ASSERT_OFFSET(sep_cpuid_x86, edx, 16);

SEP_ASSERT_OFFSET(sep_pax_info, version, 8);
SEP_ASSERT_OFFSET(sep_pax_info, reserved1, 16);
SEP_ASSERT_OFFSET(sep_pax_info, reserved2, 24);

SEP_ASSERT_OFFSET(sep_sample_record_pc, osid, 4);
SEP_ASSERT_OFFSET(sep_sample_record_pc, iip, 8);
SEP_ASSERT_OFFSET(sep_sample_record_pc, ipsr, 16);
SEP_ASSERT_OFFSET(sep_sample_record_pc, eip, 8);
SEP_ASSERT_OFFSET(sep_sample_record_pc, eflags, 12);
SEP_ASSERT_OFFSET(sep_sample_record_pc, csd_low, 16);
SEP_ASSERT_OFFSET(sep_sample_record_pc, csd_high, 20);
SEP_ASSERT_OFFSET(sep_sample_record_pc, cs, 24);
SEP_ASSERT_OFFSET(sep_sample_record_pc, cpu_and_os, 26);
SEP_ASSERT_OFFSET(sep_sample_record_pc, tid, 28);
SEP_ASSERT_OFFSET(sep_sample_record_pc, pid_rec_index, 32);
SEP_ASSERT_OFFSET(sep_sample_record_pc, bit_fields2, 36);
SEP_ASSERT_OFFSET(sep_sample_record_pc, tsc, 40);

SEP_ASSERT_OFFSET(sep_uncore_sample_record, osid, 4);
SEP_ASSERT_OFFSET(sep_uncore_sample_record, cpu_num, 8);
SEP_ASSERT_OFFSET(sep_uncore_sample_record, pkg_num, 10);
SEP_ASSERT_OFFSET(sep_uncore_sample_record, flags, 12);
SEP_ASSERT_OFFSET(sep_uncore_sample_record, reserved2, 16);
SEP_ASSERT_OFFSET(sep_uncore_sample_record, tsc, 24);

SEP_ASSERT_OFFSET(sep_module_record, segment_bits, 2);
SEP_ASSERT_OFFSET(sep_module_record, selector, 4);
SEP_ASSERT_OFFSET(sep_module_record, segment_name_length, 6);
SEP_ASSERT_OFFSET(sep_module_record, segment_number, 8);
SEP_ASSERT_OFFSET(sep_module_record, flags, 12);
SEP_ASSERT_OFFSET(sep_module_record, length64, 16);
SEP_ASSERT_OFFSET(sep_module_record, load_addr64, 24);
SEP_ASSERT_OFFSET(sep_module_record, pid_rec_index, 32);
SEP_ASSERT_OFFSET(sep_module_record, osid, 36);
SEP_ASSERT_OFFSET(sep_module_record, unload_tsc, 40);
SEP_ASSERT_OFFSET(sep_module_record, path, 48);
SEP_ASSERT_OFFSET(sep_module_record, path_length, 52);
SEP_ASSERT_OFFSET(sep_module_record, filename_offset, 54);
SEP_ASSERT_OFFSET(sep_module_record, segment_name, 56);
SEP_ASSERT_OFFSET(sep_module_record, page_offset_high, 60);
SEP_ASSERT_OFFSET(sep_module_record, tsc, 64);
SEP_ASSERT_OFFSET(sep_module_record, parent_pid, 72);
SEP_ASSERT_OFFSET(sep_module_record, page_offset_low, 76);

SEP_ASSERT_OFFSET(sep_sideband_info, pid, 4);
SEP_ASSERT_OFFSET(sep_sideband_info, tsc, 8);
#endif

#endif /* _UAPI_ACA_SEP_CMD_H */
