/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SEP remote-target protocol, version 6: command ids and command payloads.
 *
 * sep.h holds the framing (hellos, control header, data channel hello);
 * this header holds what travels inside a control message and on the data
 * channels: the INIT_DRIVER/INIT/EM_* configuration, the ECB, the info
 * replies and the sample and module records.  Same rules as sep.h:
 * little-endian, natural x86-64 alignment, no packing, bit-field words are
 * plain integers with the masks below.  Host pointers are opaque __u64.
 * Only what aca speaks or checks is named here: command ids, status codes,
 * flag bits and structs that no code uses are left to the spec. layout.c
 * asserts every size and offset.
 * Section numbers refer to Documentation/protocol.md.
 */
#ifndef ACA_CORE_SEP_CMD_H
#define ACA_CORE_SEP_CMD_H

#include <linux/const.h>
#include <linux/types.h>

#include "sep.h"

/* Command ids of the control header (4.4); plain numbers, not ioctl codes. */
#define SEP_CMD_NONE				0	/* agent eats payload, no reply */
#define SEP_CMD_START				1
#define SEP_CMD_STOP				2
#define SEP_CMD_INIT_PMU			3
#define SEP_CMD_INIT				4
#define SEP_CMD_EM_GROUPS			5
#define SEP_CMD_SET_CPU_MASK			17
#define SEP_CMD_GET_NORMALIZED_TSC		24
#define SEP_CMD_EM_CONFIG_NEXT			25
#define SEP_CMD_TSC_SKEW_INFO			27
#define SEP_CMD_NUM_CORES			28
#define SEP_CMD_COLLECT_SYS_CONFIG		29
#define SEP_CMD_GET_SYS_CONFIG			30
#define SEP_CMD_PAUSE				31
#define SEP_CMD_RESUME				32
#define SEP_CMD_TERMINATE			35
#define SEP_CMD_LBR_INFO			37
#define SEP_CMD_RESERVE				38
#define SEP_CMD_KERNEL_CS			42
#define SEP_CMD_VERSION				51
#define SEP_CMD_SWITCH_GROUP			54
#define SEP_CMD_GET_NUM_CORE_CTRS		55
#define SEP_CMD_NUM_DESCRIPTOR			57
#define SEP_CMD_DESC_NEXT			58
#define SEP_CMD_GET_DRIVER_STATE		61
#define SEP_CMD_READ_SWITCH_GROUP		62
#define SEP_CMD_EM_GROUPS_UNC			63
#define SEP_CMD_EM_CONFIG_NEXT_UNC		64
#define SEP_CMD_INIT_UNC			65
#define SEP_CMD_READ_MSR			67
#define SEP_CMD_WRITE_MSR			68
#define SEP_CMD_GET_PLATFORM_INFO		70
#define SEP_CMD_GET_NORMALIZED_TSC_STANDALONE	71
#define SEP_CMD_READ_AND_RESET			72
#define SEP_CMD_SET_CPU_TOPOLOGY		73
#define SEP_CMD_INIT_NUM_DEV			74
#define SEP_CMD_GET_NUM_SAMPLES			76
#define SEP_CMD_SET_DEVICE_NUM_UNITS		78
#define SEP_CMD_SET_SCAN_UNCORE_TOPOLOGY_INFO	82
#define SEP_CMD_GET_SAMPLE_DROP_INFO		85
#define SEP_CMD_GET_DRV_SETUP_INFO		86
#define SEP_CMD_GET_THREAD_COUNT		88
#define SEP_CMD_GET_DRIVER_LOG			90
#define SEP_CMD_CONTROL_DRIVER_LOG		91
#define SEP_CMD_SET_OSID			92
#define SEP_CMD_INIT_DRIVER			94
#define SEP_CMD_GET_PERF_CAPAB			98
/* The only id that is a real ioctl number: _IOW(100, 1, 8) (4.3). */
#define SEP_CMD_PAX_INFO			0x40086401
/*
 * [ACA-EXT] aca's own commands (4.6): ids 0x4143xxxx ("AC"), which no SEP
 * driver has, so a stock target answers them 159 like any unknown id.
 * KERNEL_SYMBOLS: U64 kernel addresses in (at most ACA_KSYM_MAX_ADDRS), one
 * ACA_KSYM_SLOT_SIZE-byte slot out per address, in order: a NUL-terminated
 * line "START SIZE NAME[ MODULE]" (START 16 hex digits, SIZE hex, both
 * without 0x), or all zeros when no symbol holds the address.
 */
#define ACA_CMD_KERNEL_SYMBOLS			0x41430001
#define ACA_KSYM_MAX_ADDRS			1024
#define ACA_KSYM_SLOT_SIZE			512

/*
 * [ACA-EXT] GROUP_TIMES (multiplexing, 6.8): nothing in; out, as many bytes
 * as asked (at least the head; the rest zero): struct aca_group_times_head,
 * then a struct aca_group_time per group that samples (ngroups, in group
 * order), then a struct aca_group_window per window a group sampled, oldest
 * first, as many as were kept and fit. A window is a span of TSC ticks
 * during which the group's events, and no other group's, were enabled on
 * every sampled CPU: on_tsc is read before the first of them is enabled,
 * off_tsc after the last is disabled, so every sample of the group has
 * on_tsc < TSC < off_tsc (as far as the CPUs' TSCs agree). A window still
 * open when asked is not listed; with one group none is kept (nwindows 0),
 * its time is.
 */
#define ACA_CMD_GROUP_TIMES			0x41430002
#define ACA_GROUP_WINDOWS_MAX			8192

/*
 * [ACA-EXT] MODULE_SNAPSHOT (7.3): nothing in, nothing out; privileged,
 * while sampling or paused, not in delayed transfer (which streams nothing
 * before STOP). The module data channel then carries, soon
 * after, what STOP sends: every executable mapping of every live process
 * (still loaded) and a record per kernel thread, so a host can name user
 * code during the collection. Walks run one at a time, at least
 * ACA_MODULE_SNAPSHOT_GAP_MS apart; asks in between are served by the
 * next. A mapping may so be described more than once.
 */
#define ACA_CMD_MODULE_SNAPSHOT			0x41430003
#define ACA_MODULE_SNAPSHOT_GAP_MS		1000

struct aca_group_times_head {
	__u32 ngroups;		/* groups that sample */
	__u32 nwindows;		/* windows closed and kept */
	__u32 windows_lost;	/* closed past ACA_GROUP_WINDOWS_MAX */
	__u32 switch_ms;	/* the switch timer's period; 0: none */
	__u64 switches;		/* group changes, by the timer or SWITCH_GROUP */
};

struct aca_group_time {
	__u32 group;		/* its index in EM_GROUPS (group_id) */
	__u32 windows;		/* closed windows, kept or not */
	__u64 running_tsc;	/* their total length */
};

struct aca_group_window {
	__u64 on_tsc;
	__u64 off_tsc;
	__u32 group;
	__u32 reserved;
};

/*
 * [ACA-EXT] Counting mode with DRV_CONFIG emon_timer_interval (spec 6.9):
 * every that many ms while counting, and once at STOP, each CPU channel
 * carries one record: this head, then @nevents U64s, the counts of the
 * active group's events on the CPU since the previous read (the previous
 * record, READ_AND_RESET, READ_SWITCH_GROUP or START), in ECB order.
 * Nothing else streams in counting mode.
 */
#define ACA_EMON_RECORD_KIND			0x41434d45	/* "EMCA" */
#define ACA_EMON_MS_MIN				10
#define ACA_EMON_MS_MAX				60000

struct aca_emon_record_head {
	__u32 kind;		/* ACA_EMON_RECORD_KIND */
	__u32 size;		/* the head and the counts, bytes */
	__u32 group;		/* the group counted: its index in EM_GROUPS */
	__u32 nevents;
	__u64 tsc;		/* when read */
	__u64 tsc_delta;	/* since the previous read */
};

/*
 * [ACA-EXT] A software event in an ECB (6.8): a general counter slot whose
 * event select slot names this pseudo register instead of an IA32_PERFEVTSELx.
 * Its value is an event select's: bits 7:0 the perf software event
 * (ACA_SW_*), bit 16 USR, bit 17 OS; nothing else may be set. No SEP host
 * sends it; a stock driver refuses it as off its allow-list.
 */
#define ACA_SW_EVENT_SELECT			0x41430100
#define ACA_SW_CPU_CLOCK			0	/* perf's PERF_COUNT_SW_* */
#define ACA_SW_TASK_CLOCK			1
#define ACA_SW_PAGE_FAULTS			2
#define ACA_SW_CONTEXT_SWITCHES			3
#define ACA_SW_CPU_MIGRATIONS			4
#define ACA_SW_PAGE_FAULTS_MIN			5
#define ACA_SW_PAGE_FAULTS_MAJ			6
#define ACA_SW_MAX				6

/*
 * Counting mode (DRV_CONFIG collection_config bit 1, 6.9): READ_AND_RESET
 * (72) and READ_SWITCH_GROUP (62) answer, in RUNNING or PAUSED, as many bytes
 * as asked (the rest zero): a U64 per CPU channel (N, NUM_CORES), the TSC
 * ticks since that CPU's previous read (or START), then a U64 per CPU and
 * event of the active group, counts[cpu * nevents + i] for the group's i-th
 * event (the order of its ECB: fixed counters, then general ones), each the
 * count since the previous read. READ_SWITCH_GROUP then makes the next
 * group active. The reference's layout is the host's (SET_EMON_BUFFER_
 * DRIVER_HELPER, which aca refuses); this one is its 2011 driver's, with a
 * TSC delta per CPU.
 */

/* Reference driver states, reported by GET_DRIVER_STATE (8.1). */
#define SEP_STATE_UNINITIALIZED			0
#define SEP_STATE_RESERVED			1
#define SEP_STATE_IDLE				2
#define SEP_STATE_PAUSED			3
#define SEP_STATE_STOPPED			4
#define SEP_STATE_RUNNING			5

/* More error codes of section 10 (0, 159, 218, 219 are in sep.h). */
#define VT_NO_MEMORY				26
#define VT_BAD_PARAMETER			63
#define VT_INVALID_DEVICE			183
#define VT_MSR_ACCESS_ERROR			196
#define VT_NO_ADMIN_PRIVILEGE			213
#define VT_INVALID_PROG_INFO			228

/* RESERVE answers "busy" in its S32 payload, never in status (4.5). */
#define SEP_RESERVE_OK				0
#define SEP_RESERVE_BUSY			1

/* KERNEL_CS reply on x86-64 (9.10). */
#define SEP_KERNEL_CS				0x10

/*
 * VERSION reply (9.1): one byte each, major in the low byte. 5.17.5.0: what
 * the reference driver reports; VTune may reject others.
 */
#define SEP_DRIVER_VERSION			0x00051105

/* DRV_CONFIG (5.2): global collection settings, payload of INIT_DRIVER. */
#define SEP_DRV_CONFIG_VERSION			1

/* collection_config bits */
#define SEP_DRV_CFG_START_PAUSED		_BITULL(0)
#define SEP_DRV_CFG_COUNTING_MODE		_BITULL(1)
#define SEP_DRV_CFG_EMON_MODE			_BITULL(5)
#define SEP_DRV_CFG_READ_PSTATE_MSRS		_BITULL(10)
#define SEP_DRV_CFG_DS_AREA_AVAILABLE		_BITULL(14)

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
#define SEP_DISPATCH_COREI7			2

/* enable_bits */
#define SEP_DEV_CFG_PEBS_CAPTURE		_BITULL(0)
#define SEP_DEV_CFG_COLLECT_LBRS		_BITULL(1)
#define SEP_DEV_CFG_COLLECT_CALLSTACKS		_BITULL(2)
#define SEP_DEV_CFG_COLLECT_KERNEL_CALLSTACKS	_BITULL(3)
#define SEP_DEV_CFG_LATENCY_CAPTURE		_BITULL(4)
#define SEP_DEV_CFG_EVENTING_IP_CAPTURE		_BITULL(7)
#define SEP_DEV_CFG_TSC_CAPTURE			_BITULL(11)
#define SEP_DEV_CFG_ENABLE_ADAPTIVE_PEBS	_BITULL(13)

/*
 * LBR_INFO payload (spec 5.4a): a head, then @n entries, one per LBR
 * register a record's LBR area holds, in the area's order.
 */
#define SEP_LBR_TOS				0
#define SEP_LBR_FROM				1
#define SEP_LBR_TO				2
#define SEP_LBR_INFO				3

struct sep_lbr_info_head {
	__u32 size;			/* the payload's bytes, this head included */
	__u32 n;
};

struct sep_lbr_entry {
	__u16 type;			/* SEP_LBR_* */
	__u16 index;			/* the LBR entry; 0 for TOS */
	__u32 reg_id;			/* its MSR */
};

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
#define SEP_DISPATCH_UNC_MMIO			120	/* single BAR */

/* dev_unc_config.device_type */
#define SEP_UNC_DEV_SINGLE_INSTANCE		1

struct sep_dev_unc_config {
	__u16 size;
	__u16 version;
	__u32 dispatch_id;		/* SEP_DISPATCH_UNC_* */
	__u32 results_offset;
	__u32 device_type;		/* SEP_UNC_DEV_* */
	__u32 device_scope;		/* 0 package, 1 system */
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

/*
 * [ACA-EXT] Contents of a sample's callstack area (EVENT_DESC
 * callstack_offset and callstack_size, enable bits collect_callstacks and
 * collect_kernel_callstacks): this head, then @nkernel kernel addresses,
 * then @nuser user ones, innermost caller first. The sample's own IP (the
 * record's iip) is not repeated. Kernel entries are return addresses,
 * except where the unwinder crossed an interrupt or exception frame: there
 * the interrupted IP. User entries are return addresses, except that a
 * kernel-mode sample's first user entry is the user IP its thread entered
 * the kernel from. The rest of the area is zero.
 */
#define ACA_CALLSTACK_TRUNCATED			_BITUL(0)	/* the chain went on */

struct aca_callstack_head {
	__u16 nkernel;
	__u16 nuser;
	__u32 flags;			/* ACA_CALLSTACK_* */
};

/* ECB (6.1-6.4): one event group of one device, EM_CONFIG_NEXT(_UNC) payload. */
#define SEP_ECB_VERSION				2
#define SEP_MAX_OPERATION_TYPES			32
#define SEP_MAX_MMIO_BARS			8

/* ecb.device_type */
#define SEP_DEVICE_CORE				1
#define SEP_DEVICE_HETERO			2
#define SEP_DEVICE_UNC_IMC			12
#define SEP_DEVICE_UNC_UBOX			22
#define SEP_DEVICE_UNC_CHA			25

/* PMU operation types: index into ecb.operations[] (6.2) */
#define SEP_OP_WRITE				1	/* uncore: selects, filters */
#define SEP_OP_READ				4	/* uncore: the counters read */
#define SEP_OP_GLOBAL_REGS			7
#define SEP_OP_CTRL_GP				8
#define SEP_OP_DATA_FIXED			9
#define SEP_OP_DATA_GP				10
#define SEP_OP_OCR				11
#define SEP_OP_ALL_REG				15
#define SEP_OP_DATA_ALL				16
#define SEP_OP_GLOBAL_STATUS			17

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
	__u16 flags;			/* values, not bits */
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

/* event_reg.flags */
#define SEP_EVREG_PRECISE			_BITUL(0)
#define SEP_EVREG_GLOBAL			_BITUL(1)
#define SEP_EVREG_IS_GP_REG			_BITUL(5)
#define SEP_EVREG_CLEAN_UP			_BITUL(6)
#define SEP_EVREG_EM_TRIGGER			_BITUL(7)
#define SEP_EVREG_LBR_VALUE			_BITUL(8)
#define SEP_EVREG_FIXED_REG			_BITUL(9)

/* event_reg.reg_prog_type and drv_ioctl_status.reg_prog_type */
#define SEP_REG_PROG_MSR			1
#define SEP_REG_PROG_PCI			2
#define SEP_REG_PROG_MMIO			3

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
	__u32 counter_type;
	__u32 event_scope;
	__u8 reg_prog_type;		/* SEP_REG_PROG_*, 0 in core ECBs */
	__u8 reg_rw_type;
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
struct sep_drv_ioctl_status {
	__u32 drv_status;		/* 0 or VT_INVALID_PROG_INFO */
	__u8 reg_prog_type;		/* SEP_REG_PROG_* */
	__u8 reserved1;
	__u16 reserved2;
	__u64 reg_key1;			/* MSR address, or a PCI bus/dev/func/offset key */
	__u32 reg_key2;			/* MMIO register offset */
	__u32 reserved3;
	__u64 reserved4;
	__u64 reserved5;
	__u64 reserved6;
};

/* DRV_LOG_CONTROL (4.4): CONTROL_DRIVER_LOG request and reply. */
#define SEP_DRV_LOG_CONTROL_MAX_DATA_SIZE	256
#define SEP_DRV_LOG_CMD_ADJUST_VERBOSITY	1
#define SEP_DRV_LOG_CMD_QUERY_SIZE		3
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
#define SEP_SETUP_PTI_SHIFT			14
#define SEP_SETUP_PTI_MASK			0x000000000000c000ULL
#define SEP_SETUP_TRACEPOINTS_AVAILABLE		_BITULL(19)
#define SEP_SETUP_REGISTER_WHITELIST_DETECTED	_BITULL(20)
#define SEP_SETUP_DRV_TYPE_SHIFT		21
#define SEP_SETUP_DRV_TYPE_MASK			0x0000000000e00000ULL

#define SEP_VMM_KVM				2
#define SEP_VMM_XEN				3
#define SEP_VMM_HYPERV				4
#define SEP_VMM_VMWARE				5
#define SEP_VMM_ACRN				6

#define SEP_PTI_KPTI				1

#define SEP_DRV_TYPE_PUBLIC			1

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

/* GET_SYS_CONFIG blob (9.3); every pointer is an offset from the blob start. */

/* GEN_ARRAY_HDR.array_type */
#define SEP_GEN_ARRAY_PER_CPU			1
#define SEP_GEN_ARRAY_CPUID			3
#define SEP_GEN_ARRAY_NODE			4

/* GEN_ARRAY_HDR.array_subtype */
#define SEP_GEN_ARRAY_SUB_EM64T			5

/* 16-byte pointer that never holds a host pointer on this wire. */
struct sep_fixed_ptr {
	__u32 unused;
	__u32 flags;			/* bit 0, "is a pointer": always 0 here */
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

/*
 * SampleRecordPC (7.1): one PMI sample on a per-CPU channel.  The record on
 * the wire is EVENT_DESC.sample_size long; this is its 48-byte base.
 */
#define SEP_SAMPLE_CPU_NUM_MASK			0x0fff
#define SEP_SAMPLE_CODE_MODE_SHIFT		13
#define SEP_SAMPLE_CODE_MODE_MASK		0x6000

#define SEP_SAMPLE_EVENT_INDEX_SHIFT		20
#define SEP_SAMPLE_EVENT_INDEX_MASK		0x0ff00000U
#define SEP_SAMPLE_TID_IS_RAW			_BITUL(28)
#define SEP_SAMPLE_IA64PC			_BITUL(29)
#define SEP_SAMPLE_PID_REC_INDEX_RAW		_BITUL(30)

/*
 * Uncore record head (7.2): each record on the uncore channel, one per
 * uncore device and package every unc_timer_interval ms, is its
 * descriptor's sample_size bytes; the group number (+1) and each
 * counter's running sum are U64s at the offsets its ECB gives.
 */
#define SEP_UNC_RECORD_VALID			_BITUL(0)

struct sep_unc_record_head {
	__u32 descriptor_id;
	__u32 osid;
	__u16 cpu_num;
	__u16 pkg_num;
	__u32 flags;			/* SEP_UNC_RECORD_VALID */
	__u64 reserved;
	__u64 tsc;
};

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
	__u16 cpu_and_os;		/* SEP_SAMPLE_CPU_NUM_MASK, CODE_MODE_MASK */
	__u32 tid;
	__u32 pid_rec_index;		/* tgid */
	__u32 bit_fields2;		/* SEP_SAMPLE_EVENT_INDEX_MASK ... PID_REC_INDEX_RAW */
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

/* segment types, also the code modes of SampleRecordPC */
#define SEP_MODE_32BIT				2
#define SEP_MODE_64BIT				3

/* selector */
#define SEP_MR_SELECTOR_KERNEL			0x10
#define SEP_MR_SELECTOR_USER32			0x23
#define SEP_MR_SELECTOR_USER64			0x33

/* flags */
#define SEP_MR_EXE				_BITUL(0)
#define SEP_MR_GLOBAL_MODULE			_BITUL(1)
#define SEP_MR_PID_REC_INDEX_RAW		_BITUL(3)
#define SEP_MR_TSC_USED				_BITUL(5)
#define SEP_MR_GLOBAL_MODULE_TB5		_BITUL(7)
#define SEP_MR_FIRST_MODULE_REC_IN_PROCESS	_BITUL(9)

struct sep_module_record {
	__u16 rec_length;		/* ALIGN(80 + path_length, 8) [+ build-id], never 0 */
	__u16 segment_bits;		/* SEP_MR_SEGMENT_TYPE_MASK */
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

/*
 * [ACA-EXT] The GNU build-id of a user mapping's file, when the target
 * read one from it: after the zero-padded path, at
 * ALIGN(80 + path_length, 8), this head and @size bytes of id, zero-padded
 * to 8, so that rec_length = ALIGN(80 + path_length, 8) +
 * ALIGN(4 + size, 8). A host that does not know it skips it by rec_length.
 */
#define ACA_MR_BUILD_ID_MAGIC0			'B'
#define ACA_MR_BUILD_ID_MAGIC1			'I'
#define ACA_MR_BUILD_ID_MAX			20	/* BUILD_ID_SIZE_MAX */

struct aca_mr_build_id {
	__u8 magic[2];			/* ACA_MR_BUILD_ID_MAGIC0, MAGIC1 */
	__u8 reserved;			/* 0 */
	__u8 size;			/* 1 .. ACA_MR_BUILD_ID_MAX */
	__u8 id[];
};

#endif /* ACA_CORE_SEP_CMD_H */
