// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every size and offset of the structs that cross a boundary, asserted at
 * compile time in this one file: the SEP wire structs (sep.h, sep_cmd.h),
 * whose layout is the protocol, and the /dev/aca ioctl and mmap ABI
 * (uapi/aca.h), whose layout userspace compiles against. A change to any of
 * them breaks every host or every program built before it. This file holds
 * no code; it is built into aca.ko, the unit tests and the fuzzer, so both
 * the kernel's compiler and the userspace ones check the same numbers.
 */
#include "env.h"
#include "sep_cmd.h"
#include "../../uapi/aca.h"

#define LAYOUT_SIZE(type, size) \
	static_assert(sizeof(struct type) == (size), #type " size")
#define LAYOUT_OFFSET(type, field, off) \
	static_assert(offsetof(struct type, field) == (off), \
		      #type "." #field " offset")

/* The SEP protocol, version 6: framing (sep.h), then payloads (sep_cmd.h). */
LAYOUT_SIZE(sep_control_first_msg, 24);
LAYOUT_OFFSET(sep_control_first_msg, per_cpu_buffer_size, 8);
LAYOUT_OFFSET(sep_control_first_msg, reserved2, 16);

LAYOUT_SIZE(sep_remote_os_info, 200);
LAYOUT_OFFSET(sep_remote_os_info, sysname, 8);
LAYOUT_OFFSET(sep_remote_os_info, release, 72);
LAYOUT_OFFSET(sep_remote_os_info, version, 136);

LAYOUT_SIZE(sep_remote_switch, 8);

LAYOUT_SIZE(sep_remote_hardware_info, 40);
LAYOUT_OFFSET(sep_remote_hardware_info, tsc_freq, 16);

LAYOUT_SIZE(sep_target_status_msg, 296);
LAYOUT_OFFSET(sep_target_status_msg, status, 8);
LAYOUT_OFFSET(sep_target_status_msg, os_info_offset, 24);
LAYOUT_OFFSET(sep_target_status_msg, hardware_info_size, 44);
LAYOUT_OFFSET(sep_target_status_msg, os_info, 48);
LAYOUT_OFFSET(sep_target_status_msg, collect_switch, 248);
LAYOUT_OFFSET(sep_target_status_msg, hardware_info, 256);

LAYOUT_SIZE(sep_control_msg_header, 48);
LAYOUT_OFFSET(sep_control_msg_header, command_id, 8);
LAYOUT_OFFSET(sep_control_msg_header, status, 12);
LAYOUT_OFFSET(sep_control_msg_header, to_target_data_size, 16);
LAYOUT_OFFSET(sep_control_msg_header, from_target_data_size, 24);

LAYOUT_SIZE(sep_data_first_msg, 8);
LAYOUT_OFFSET(sep_data_first_msg, data_type, 4);
LAYOUT_OFFSET(sep_data_first_msg, data_id, 6);

LAYOUT_SIZE(sep_drv_config, 104);
LAYOUT_OFFSET(sep_drv_config, version, 4);
LAYOUT_OFFSET(sep_drv_config, reserved1, 6);
LAYOUT_OFFSET(sep_drv_config, num_events, 8);
LAYOUT_OFFSET(sep_drv_config, num_chipset_events, 12);
LAYOUT_OFFSET(sep_drv_config, chipset_offset, 16);
LAYOUT_OFFSET(sep_drv_config, seed_name_len, 20);
LAYOUT_OFFSET(sep_drv_config, seed_name, 24);
LAYOUT_OFFSET(sep_drv_config, cpu_mask, 32);
LAYOUT_OFFSET(sep_drv_config, collection_config, 40);
LAYOUT_OFFSET(sep_drv_config, target_pid, 48);
LAYOUT_OFFSET(sep_drv_config, os_of_interest, 56);
LAYOUT_OFFSET(sep_drv_config, unc_timer_interval, 60);
LAYOUT_OFFSET(sep_drv_config, unc_em_factor, 62);
LAYOUT_OFFSET(sep_drv_config, p_state_trigger_index, 64);
LAYOUT_OFFSET(sep_drv_config, multi_pebs_enabled, 68);
LAYOUT_OFFSET(sep_drv_config, emon_timer_interval, 72);
LAYOUT_OFFSET(sep_drv_config, unc_collect_in_intr_enabled, 76);
LAYOUT_OFFSET(sep_drv_config, reserved4, 80);

LAYOUT_SIZE(sep_drv_topology_info, 72);
LAYOUT_OFFSET(sep_drv_topology_info, cpu_package_num, 4);
LAYOUT_OFFSET(sep_drv_topology_info, cpu_core_num, 6);
LAYOUT_OFFSET(sep_drv_topology_info, cpu_hw_thread_num, 8);
LAYOUT_OFFSET(sep_drv_topology_info, socket_master, 12);
LAYOUT_OFFSET(sep_drv_topology_info, core_master, 16);
LAYOUT_OFFSET(sep_drv_topology_info, thr_master, 20);
LAYOUT_OFFSET(sep_drv_topology_info, cpu_module_num, 24);
LAYOUT_OFFSET(sep_drv_topology_info, cpu_module_master, 28);
LAYOUT_OFFSET(sep_drv_topology_info, cpu_num_modules, 32);
LAYOUT_OFFSET(sep_drv_topology_info, cpu_core_type, 36);
LAYOUT_OFFSET(sep_drv_topology_info, arch_perfmon_ver, 40);
LAYOUT_OFFSET(sep_drv_topology_info, num_gp_counters, 44);
LAYOUT_OFFSET(sep_drv_topology_info, num_fixed_counters, 48);
LAYOUT_OFFSET(sep_drv_topology_info, reserved2, 52);
LAYOUT_OFFSET(sep_drv_topology_info, reserved3, 56);

LAYOUT_SIZE(sep_dev_config, 4080);
LAYOUT_OFFSET(sep_dev_config, version, 2);
LAYOUT_OFFSET(sep_dev_config, dispatch_id, 4);
LAYOUT_OFFSET(sep_dev_config, pebs_mode, 8);
LAYOUT_OFFSET(sep_dev_config, pebs_record_num, 12);
LAYOUT_OFFSET(sep_dev_config, results_offset, 16);
LAYOUT_OFFSET(sep_dev_config, max_gp_counters, 20);
LAYOUT_OFFSET(sep_dev_config, device_type, 24);
LAYOUT_OFFSET(sep_dev_config, core_type, 28);
LAYOUT_OFFSET(sep_dev_config, enable_bits, 32);
LAYOUT_OFFSET(sep_dev_config, emon_unc_offset, 40);
LAYOUT_OFFSET(sep_dev_config, ebc_group_id_offset, 4040);
LAYOUT_OFFSET(sep_dev_config, num_perf_metrics, 4044);
LAYOUT_OFFSET(sep_dev_config, apebs_num_lbr_entries, 4045);
LAYOUT_OFFSET(sep_dev_config, emon_perf_metrics_offset, 4046);
LAYOUT_OFFSET(sep_dev_config, device_scope, 4048);
LAYOUT_OFFSET(sep_dev_config, num_events, 4052);
LAYOUT_OFFSET(sep_dev_config, device_index, 4056);
LAYOUT_OFFSET(sep_dev_config, reserved1, 4058);
LAYOUT_OFFSET(sep_dev_config, reserved2, 4060);
LAYOUT_OFFSET(sep_dev_config, reserved3, 4064);

LAYOUT_SIZE(sep_dev_unc_config, 4048);
LAYOUT_OFFSET(sep_dev_unc_config, version, 2);
LAYOUT_OFFSET(sep_dev_unc_config, dispatch_id, 4);
LAYOUT_OFFSET(sep_dev_unc_config, results_offset, 8);
LAYOUT_OFFSET(sep_dev_unc_config, device_type, 12);
LAYOUT_OFFSET(sep_dev_unc_config, device_scope, 16);
LAYOUT_OFFSET(sep_dev_unc_config, num_events, 20);
LAYOUT_OFFSET(sep_dev_unc_config, emon_unc_offset, 24);
LAYOUT_OFFSET(sep_dev_unc_config, device_index, 4024);
LAYOUT_OFFSET(sep_dev_unc_config, num_units, 4026);
LAYOUT_OFFSET(sep_dev_unc_config, device_with_intr_events, 4028);
LAYOUT_OFFSET(sep_dev_unc_config, reserved2, 4032);

LAYOUT_SIZE(sep_event_config, 144);
LAYOUT_OFFSET(sep_event_config, em_mode, 4);
LAYOUT_OFFSET(sep_event_config, em_factor, 8);
LAYOUT_OFFSET(sep_event_config, em_event_num, 12);
LAYOUT_OFFSET(sep_event_config, sample_size, 16);
LAYOUT_OFFSET(sep_event_config, max_gp_events, 20);
LAYOUT_OFFSET(sep_event_config, max_fixed_counters, 24);
LAYOUT_OFFSET(sep_event_config, max_ro_counters, 28);
LAYOUT_OFFSET(sep_event_config, pebs_offset, 32);
LAYOUT_OFFSET(sep_event_config, pebs_size, 36);
LAYOUT_OFFSET(sep_event_config, lbr_offset, 40);
LAYOUT_OFFSET(sep_event_config, lbr_num_regs, 44);
LAYOUT_OFFSET(sep_event_config, latency_offset_in_sample, 48);
LAYOUT_OFFSET(sep_event_config, latency_size_in_sample, 52);
LAYOUT_OFFSET(sep_event_config, latency_size_from_pebs_record, 56);
LAYOUT_OFFSET(sep_event_config, latency_offset_in_pebs_record, 60);
LAYOUT_OFFSET(sep_event_config, power_offset_in_sample, 64);
LAYOUT_OFFSET(sep_event_config, ebc_offset, 68);
LAYOUT_OFFSET(sep_event_config, num_groups_unc, 72);
LAYOUT_OFFSET(sep_event_config, ebc_offset_unc, 76);
LAYOUT_OFFSET(sep_event_config, sample_size_unc, 80);
LAYOUT_OFFSET(sep_event_config, eventing_ip_offset, 84);
LAYOUT_OFFSET(sep_event_config, hle_offset, 88);
LAYOUT_OFFSET(sep_event_config, pwr_offset, 92);
LAYOUT_OFFSET(sep_event_config, callstack_offset, 96);
LAYOUT_OFFSET(sep_event_config, callstack_size, 100);
LAYOUT_OFFSET(sep_event_config, p_state_offset, 104);
LAYOUT_OFFSET(sep_event_config, pebs_tsc_offset, 108);
LAYOUT_OFFSET(sep_event_config, reserved1, 112);

LAYOUT_SIZE(sep_lbr_info_head, 8);
LAYOUT_OFFSET(sep_lbr_info_head, n, 4);
LAYOUT_SIZE(sep_lbr_entry, 8);
LAYOUT_OFFSET(sep_lbr_entry, index, 2);
LAYOUT_OFFSET(sep_lbr_entry, reg_id, 4);

LAYOUT_SIZE(sep_event_desc, 112);
LAYOUT_OFFSET(sep_event_desc, pebs_offset, 4);
LAYOUT_OFFSET(sep_event_desc, pebs_size, 8);
LAYOUT_OFFSET(sep_event_desc, lbr_offset, 12);
LAYOUT_OFFSET(sep_event_desc, lbr_num_regs, 16);
LAYOUT_OFFSET(sep_event_desc, latency_offset_in_sample, 20);
LAYOUT_OFFSET(sep_event_desc, latency_size_in_sample, 24);
LAYOUT_OFFSET(sep_event_desc, latency_size_from_pebs_record, 28);
LAYOUT_OFFSET(sep_event_desc, latency_offset_in_pebs_record, 32);
LAYOUT_OFFSET(sep_event_desc, power_offset_in_sample, 36);
LAYOUT_OFFSET(sep_event_desc, ebc_offset, 40);
LAYOUT_OFFSET(sep_event_desc, uncore_ebc_offset, 44);
LAYOUT_OFFSET(sep_event_desc, eventing_ip_offset, 48);
LAYOUT_OFFSET(sep_event_desc, hle_offset, 52);
LAYOUT_OFFSET(sep_event_desc, pwr_offset, 56);
LAYOUT_OFFSET(sep_event_desc, callstack_offset, 60);
LAYOUT_OFFSET(sep_event_desc, callstack_size, 64);
LAYOUT_OFFSET(sep_event_desc, p_state_offset, 68);
LAYOUT_OFFSET(sep_event_desc, pebs_tsc_offset, 72);
LAYOUT_OFFSET(sep_event_desc, perfmetrics_offset, 76);
LAYOUT_OFFSET(sep_event_desc, perfmetrics_size, 80);
LAYOUT_OFFSET(sep_event_desc, applicable_counters_offset, 84);
LAYOUT_OFFSET(sep_event_desc, gpr_info_offset, 86);
LAYOUT_OFFSET(sep_event_desc, gpr_info_size, 88);
LAYOUT_OFFSET(sep_event_desc, xmm_info_offset, 90);
LAYOUT_OFFSET(sep_event_desc, xmm_info_size, 92);
LAYOUT_OFFSET(sep_event_desc, lbr_info_size, 94);
LAYOUT_OFFSET(sep_event_desc, reserved2, 96);
LAYOUT_OFFSET(sep_event_desc, reserved3, 104);

LAYOUT_SIZE(sep_pci_device_entry, 136);
LAYOUT_OFFSET(sep_pci_device_entry, dev_no, 4);
LAYOUT_OFFSET(sep_pci_device_entry, func_no, 8);
LAYOUT_OFFSET(sep_pci_device_entry, bar_offset, 12);
LAYOUT_OFFSET(sep_pci_device_entry, bar_mask, 16);
LAYOUT_OFFSET(sep_pci_device_entry, bit_offset, 24);
LAYOUT_OFFSET(sep_pci_device_entry, size, 28);
LAYOUT_OFFSET(sep_pci_device_entry, bar_address, 32);
LAYOUT_OFFSET(sep_pci_device_entry, enable_offset, 40);
LAYOUT_OFFSET(sep_pci_device_entry, enabled, 44);
LAYOUT_OFFSET(sep_pci_device_entry, base_offset_for_mmio, 48);
LAYOUT_OFFSET(sep_pci_device_entry, operation, 52);
LAYOUT_OFFSET(sep_pci_device_entry, bar_name, 56);
LAYOUT_OFFSET(sep_pci_device_entry, prog_type, 60);
LAYOUT_OFFSET(sep_pci_device_entry, config_type, 64);
LAYOUT_OFFSET(sep_pci_device_entry, bar_shift, 68);
LAYOUT_OFFSET(sep_pci_device_entry, value, 72);
LAYOUT_OFFSET(sep_pci_device_entry, mask, 80);
LAYOUT_OFFSET(sep_pci_device_entry, virtual_address, 88);
LAYOUT_OFFSET(sep_pci_device_entry, port_id, 96);
LAYOUT_OFFSET(sep_pci_device_entry, op_code, 100);
LAYOUT_OFFSET(sep_pci_device_entry, device_id, 104);
LAYOUT_OFFSET(sep_pci_device_entry, bar_num, 108);
LAYOUT_OFFSET(sep_pci_device_entry, feature_id, 110);
LAYOUT_OFFSET(sep_pci_device_entry, reserved2, 112);

LAYOUT_SIZE(sep_pmu_operation, 24);
LAYOUT_OFFSET(sep_pmu_operation, register_start, 4);
LAYOUT_OFFSET(sep_pmu_operation, register_len, 8);

LAYOUT_SIZE(sep_mmio_bar_info, 88);
LAYOUT_OFFSET(sep_mmio_bar_info, dev_no, 4);
LAYOUT_OFFSET(sep_mmio_bar_info, func_no, 8);
LAYOUT_OFFSET(sep_mmio_bar_info, addr_size, 12);
LAYOUT_OFFSET(sep_mmio_bar_info, base_offset_for_mmio, 16);
LAYOUT_OFFSET(sep_mmio_bar_info, map_size_for_mmio, 24);
LAYOUT_OFFSET(sep_mmio_bar_info, main_bar_offset, 28);
LAYOUT_OFFSET(sep_mmio_bar_info, main_bar_mask, 32);
LAYOUT_OFFSET(sep_mmio_bar_info, main_bar_shift, 40);
LAYOUT_OFFSET(sep_mmio_bar_info, secondary_bar_offset, 52);
LAYOUT_OFFSET(sep_mmio_bar_info, secondary_bar_mask, 56);
LAYOUT_OFFSET(sep_mmio_bar_info, secondary_bar_shift, 64);
LAYOUT_OFFSET(sep_mmio_bar_info, feature_id, 72);

LAYOUT_SIZE(sep_ecb, 1728);
LAYOUT_OFFSET(sep_ecb, reserved1, 1);
LAYOUT_OFFSET(sep_ecb, reserved2, 2);
LAYOUT_OFFSET(sep_ecb, num_entries, 4);
LAYOUT_OFFSET(sep_ecb, group_id, 8);
LAYOUT_OFFSET(sep_ecb, num_events, 12);
LAYOUT_OFFSET(sep_ecb, cccr_start, 16);
LAYOUT_OFFSET(sep_ecb, cccr_pop, 20);
LAYOUT_OFFSET(sep_ecb, escr_start, 24);
LAYOUT_OFFSET(sep_ecb, escr_pop, 28);
LAYOUT_OFFSET(sep_ecb, data_start, 32);
LAYOUT_OFFSET(sep_ecb, data_pop, 36);
LAYOUT_OFFSET(sep_ecb, flags, 40);
LAYOUT_OFFSET(sep_ecb, pmu_timer_interval, 42);
LAYOUT_OFFSET(sep_ecb, reserved3, 43);
LAYOUT_OFFSET(sep_ecb, size_of_allocation, 44);
LAYOUT_OFFSET(sep_ecb, group_offset, 48);
LAYOUT_OFFSET(sep_ecb, reserved4, 52);
LAYOUT_OFFSET(sep_ecb, pcidev_entry_node, 56);
LAYOUT_OFFSET(sep_ecb, num_pci_devices, 192);
LAYOUT_OFFSET(sep_ecb, pcidev_list_offset, 196);
LAYOUT_OFFSET(sep_ecb, pcidev_entry_list, 200);
LAYOUT_OFFSET(sep_ecb, device_type, 208);
LAYOUT_OFFSET(sep_ecb, dev_node, 212);
LAYOUT_OFFSET(sep_ecb, operations, 216);
LAYOUT_OFFSET(sep_ecb, descriptor_id, 984);
LAYOUT_OFFSET(sep_ecb, reserved5, 988);
LAYOUT_OFFSET(sep_ecb, metric_start, 992);
LAYOUT_OFFSET(sep_ecb, metric_pop, 996);
LAYOUT_OFFSET(sep_ecb, mmio_bar_list, 1000);
LAYOUT_OFFSET(sep_ecb, num_mmio_secondary_bar, 1704);
LAYOUT_OFFSET(sep_ecb, group_id_offset_in_trigger_evt_desc, 1708);
LAYOUT_OFFSET(sep_ecb, reserved7, 1712);

LAYOUT_SIZE(sep_event_reg_id, 40);
LAYOUT_OFFSET(sep_event_reg_id, pci_bus_no, 4);
LAYOUT_OFFSET(sep_event_reg_id, data_size, 16);
LAYOUT_OFFSET(sep_event_reg_id, bar_index, 20);
LAYOUT_OFFSET(sep_event_reg_id, reserved3, 32);

LAYOUT_SIZE(sep_event_reg, 136);
LAYOUT_OFFSET(sep_event_reg, unit_id, 1);
LAYOUT_OFFSET(sep_event_reg, event_id_index, 2);
LAYOUT_OFFSET(sep_event_reg, counter_event_offset, 4);
LAYOUT_OFFSET(sep_event_reg, reserved1, 6);
LAYOUT_OFFSET(sep_event_reg, event_reg_id.reg_id, 8);
LAYOUT_OFFSET(sep_event_reg, event_reg_id.pci_bus_no, 12);
LAYOUT_OFFSET(sep_event_reg, event_reg_id.pci_dev_no, 16);
LAYOUT_OFFSET(sep_event_reg, event_reg_id.pci_func_no, 20);
LAYOUT_OFFSET(sep_event_reg, event_reg_id.data_size, 24);
LAYOUT_OFFSET(sep_event_reg, event_reg_id.bar_index, 28);
LAYOUT_OFFSET(sep_event_reg, reg_value, 48);
LAYOUT_OFFSET(sep_event_reg, desc_id, 56);
LAYOUT_OFFSET(sep_event_reg, flags, 58);
LAYOUT_OFFSET(sep_event_reg, reserved2, 60);
LAYOUT_OFFSET(sep_event_reg, max_bits, 64);
LAYOUT_OFFSET(sep_event_reg, scheduled, 72);
LAYOUT_OFFSET(sep_event_reg, secondary_pci_offset_shift, 73);
LAYOUT_OFFSET(sep_event_reg, secondary_pci_offset_offset, 74);
LAYOUT_OFFSET(sep_event_reg, counter_type, 76);
LAYOUT_OFFSET(sep_event_reg, event_scope, 80);
LAYOUT_OFFSET(sep_event_reg, reg_prog_type, 84);
LAYOUT_OFFSET(sep_event_reg, reg_rw_type, 85);
LAYOUT_OFFSET(sep_event_reg, reg_order, 86);
LAYOUT_OFFSET(sep_event_reg, bit_position, 87);
LAYOUT_OFFSET(sep_event_reg, secondary_pci_offset_mask, 88);
LAYOUT_OFFSET(sep_event_reg, core_event_id, 96);
LAYOUT_OFFSET(sep_event_reg, uncore_buffer_offset_in_package, 100);
LAYOUT_OFFSET(sep_event_reg, uncore_buffer_offset_in_system, 104);
LAYOUT_OFFSET(sep_event_reg, aux_reg_id_to_read, 108);
LAYOUT_OFFSET(sep_event_reg, aux_read_mask, 112);
LAYOUT_OFFSET(sep_event_reg, reserved3, 120);

LAYOUT_SIZE(sep_drv_ioctl_status, 48);
LAYOUT_OFFSET(sep_drv_ioctl_status, reg_prog_type, 4);
LAYOUT_OFFSET(sep_drv_ioctl_status, reg_key1, 8);
LAYOUT_OFFSET(sep_drv_ioctl_status, reg_key2, 16);

LAYOUT_SIZE(sep_drv_log_control, 296);
LAYOUT_OFFSET(sep_drv_log_control, data, 8);
LAYOUT_OFFSET(sep_drv_log_control, reserved2, 264);

LAYOUT_SIZE(sep_sample_drop, 16);

LAYOUT_SIZE(sep_sample_drop_info, 324);
LAYOUT_OFFSET(sep_sample_drop_info, drop_info, 4);
LAYOUT_OFFSET(sep_sample_drop_info, drop_info[1], 20);
LAYOUT_OFFSET(sep_sample_drop_info, drop_info[19].dropped, 320);

LAYOUT_SIZE(sep_drv_setup_info, 32);
LAYOUT_OFFSET(sep_drv_setup_info, reserved2, 8);

LAYOUT_SIZE(sep_drv_dimm_info, 40);
LAYOUT_OFFSET(sep_drv_dimm_info, channel_num, 4);
LAYOUT_OFFSET(sep_drv_dimm_info, rank_num, 8);
LAYOUT_OFFSET(sep_drv_dimm_info, value, 12);
LAYOUT_OFFSET(sep_drv_dimm_info, mc_num, 16);
LAYOUT_OFFSET(sep_drv_dimm_info, dimm_valid, 17);
LAYOUT_OFFSET(sep_drv_dimm_info, valid_value, 18);
LAYOUT_OFFSET(sep_drv_dimm_info, rank_value, 19);
LAYOUT_OFFSET(sep_drv_dimm_info, density_value, 20);
LAYOUT_OFFSET(sep_drv_dimm_info, width_value, 21);
LAYOUT_OFFSET(sep_drv_dimm_info, socket_num, 22);
LAYOUT_OFFSET(sep_drv_dimm_info, reserved1, 24);

LAYOUT_SIZE(sep_drv_platform_info, 15440);
LAYOUT_OFFSET(sep_drv_platform_info, ddr_freq_index, 8);
LAYOUT_OFFSET(sep_drv_platform_info, misc_valid, 16);
LAYOUT_OFFSET(sep_drv_platform_info, reserved1, 17);
LAYOUT_OFFSET(sep_drv_platform_info, reserved2, 18);
LAYOUT_OFFSET(sep_drv_platform_info, vmm_timer_freq, 20);
LAYOUT_OFFSET(sep_drv_platform_info, misc_info, 24);
LAYOUT_OFFSET(sep_drv_platform_info, ufs_freq, 32);
LAYOUT_OFFSET(sep_drv_platform_info, dimm_info, 40);
LAYOUT_OFFSET(sep_drv_platform_info, energy_multiplier, 15400);
LAYOUT_OFFSET(sep_drv_platform_info, reserved3, 15408);

LAYOUT_SIZE(sep_fixed_ptr, 16);
LAYOUT_OFFSET(sep_fixed_ptr, flags, 4);
LAYOUT_OFFSET(sep_fixed_ptr, offset, 8);

LAYOUT_SIZE(sep_vtsa_sys_info, 72);
LAYOUT_OFFSET(sep_vtsa_sys_info, min_app_address, 16);
LAYOUT_OFFSET(sep_vtsa_sys_info, max_app_address, 24);
LAYOUT_OFFSET(sep_vtsa_sys_info, page_size, 32);
LAYOUT_OFFSET(sep_vtsa_sys_info, allocation_granularity, 36);
LAYOUT_OFFSET(sep_vtsa_sys_info, reserved1, 40);

LAYOUT_SIZE(sep_gen_array_hdr, 64);
LAYOUT_OFFSET(sep_gen_array_hdr, pad, 4);
LAYOUT_OFFSET(sep_gen_array_hdr, next_array, 8);
LAYOUT_OFFSET(sep_gen_array_hdr, hdr_reserved, 24);
LAYOUT_OFFSET(sep_gen_array_hdr, array_num_entries, 52);
LAYOUT_OFFSET(sep_gen_array_hdr, array_entry_size, 56);
LAYOUT_OFFSET(sep_gen_array_hdr, array_type, 60);
LAYOUT_OFFSET(sep_gen_array_hdr, array_subtype, 62);

LAYOUT_SIZE(sep_node_info, 48);
LAYOUT_OFFSET(sep_node_info, node_id, 4);
LAYOUT_OFFSET(sep_node_info, node_num_available, 8);
LAYOUT_OFFSET(sep_node_info, node_num_used, 12);
LAYOUT_OFFSET(sep_node_info, node_physical_memory, 16);
LAYOUT_OFFSET(sep_node_info, node_percpu_array, 24);
LAYOUT_OFFSET(sep_node_info, reserved, 40);

LAYOUT_SIZE(sep_gen_per_cpu, 104);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_speed_mhz, 4);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_fsb_mhz, 8);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_cache_L2, 12);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_cpuid_array, 16);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_tsc_offset, 32);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_intel_processor_number, 40);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_cache_L3, 44);
LAYOUT_OFFSET(sep_gen_per_cpu, platform_id, 48);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_package_num, 56);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_core_num, 58);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_hw_thread_num, 60);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_threads_per_core, 62);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_module_id, 64);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_num_modules, 66);
LAYOUT_OFFSET(sep_gen_per_cpu, cpu_core_type, 68);
LAYOUT_OFFSET(sep_gen_per_cpu, arch_perfmon_ver, 72);
LAYOUT_OFFSET(sep_gen_per_cpu, num_gp_counters, 76);
LAYOUT_OFFSET(sep_gen_per_cpu, num_fixed_counters, 80);
LAYOUT_OFFSET(sep_gen_per_cpu, reserved, 84);

LAYOUT_SIZE(sep_cpuid_x86, 20);
LAYOUT_OFFSET(sep_cpuid_x86, eax, 4);
LAYOUT_OFFSET(sep_cpuid_x86, ebx, 8);
LAYOUT_OFFSET(sep_cpuid_x86, ecx, 12);
LAYOUT_OFFSET(sep_cpuid_x86, edx, 16);

LAYOUT_SIZE(sep_unc_record_head, 32);
LAYOUT_OFFSET(sep_unc_record_head, osid, 4);
LAYOUT_OFFSET(sep_unc_record_head, cpu_num, 8);
LAYOUT_OFFSET(sep_unc_record_head, pkg_num, 10);
LAYOUT_OFFSET(sep_unc_record_head, flags, 12);
LAYOUT_OFFSET(sep_unc_record_head, tsc, 24);
LAYOUT_SIZE(sep_sample_record_pc, 48);
LAYOUT_OFFSET(sep_sample_record_pc, osid, 4);
LAYOUT_OFFSET(sep_sample_record_pc, iip, 8);
LAYOUT_OFFSET(sep_sample_record_pc, ipsr, 16);
LAYOUT_OFFSET(sep_sample_record_pc, eip, 8);
LAYOUT_OFFSET(sep_sample_record_pc, eflags, 12);
LAYOUT_OFFSET(sep_sample_record_pc, csd_low, 16);
LAYOUT_OFFSET(sep_sample_record_pc, csd_high, 20);
LAYOUT_OFFSET(sep_sample_record_pc, cs, 24);
LAYOUT_OFFSET(sep_sample_record_pc, cpu_and_os, 26);
LAYOUT_OFFSET(sep_sample_record_pc, tid, 28);
LAYOUT_OFFSET(sep_sample_record_pc, pid_rec_index, 32);
LAYOUT_OFFSET(sep_sample_record_pc, bit_fields2, 36);
LAYOUT_OFFSET(sep_sample_record_pc, tsc, 40);

LAYOUT_SIZE(aca_callstack_head, 8);
LAYOUT_OFFSET(aca_callstack_head, nuser, 2);
LAYOUT_OFFSET(aca_callstack_head, flags, 4);

LAYOUT_SIZE(sep_module_record, 80);
LAYOUT_OFFSET(sep_module_record, segment_bits, 2);
LAYOUT_OFFSET(sep_module_record, selector, 4);
LAYOUT_OFFSET(sep_module_record, segment_name_length, 6);
LAYOUT_OFFSET(sep_module_record, segment_number, 8);
LAYOUT_OFFSET(sep_module_record, flags, 12);
LAYOUT_OFFSET(sep_module_record, length64, 16);
LAYOUT_OFFSET(sep_module_record, load_addr64, 24);
LAYOUT_OFFSET(sep_module_record, pid_rec_index, 32);
LAYOUT_OFFSET(sep_module_record, osid, 36);
LAYOUT_OFFSET(sep_module_record, unload_tsc, 40);
LAYOUT_OFFSET(sep_module_record, path, 48);
LAYOUT_OFFSET(sep_module_record, path_length, 52);
LAYOUT_OFFSET(sep_module_record, filename_offset, 54);
LAYOUT_OFFSET(sep_module_record, segment_name, 56);
LAYOUT_OFFSET(sep_module_record, page_offset_high, 60);
LAYOUT_OFFSET(sep_module_record, tsc, 64);
LAYOUT_OFFSET(sep_module_record, parent_pid, 72);
LAYOUT_OFFSET(sep_module_record, page_offset_low, 76);

LAYOUT_SIZE(aca_group_times_head, 24);
LAYOUT_OFFSET(aca_group_times_head, switch_ms, 12);
LAYOUT_OFFSET(aca_group_times_head, switches, 16);
LAYOUT_SIZE(aca_group_time, 16);
LAYOUT_OFFSET(aca_group_time, running_tsc, 8);
LAYOUT_SIZE(aca_group_window, 24);
LAYOUT_OFFSET(aca_group_window, group, 16);
LAYOUT_SIZE(aca_emon_record_head, 32);
LAYOUT_OFFSET(aca_emon_record_head, nevents, 12);
LAYOUT_OFFSET(aca_emon_record_head, tsc_delta, 24);

LAYOUT_SIZE(aca_mr_build_id, 4);
LAYOUT_OFFSET(aca_mr_build_id, reserved, 2);
LAYOUT_OFFSET(aca_mr_build_id, size, 3);
LAYOUT_OFFSET(aca_mr_build_id, id, 4);

/* The /dev/aca ioctls and the ring header page (uapi/aca.h). */
LAYOUT_SIZE(aca_peer, 24);

LAYOUT_SIZE(aca_properties, 56);
LAYOUT_OFFSET(aca_properties, tsc_hz, 48);

LAYOUT_SIZE(aca_trace_alloc, 24);
LAYOUT_OFFSET(aca_trace_alloc, map_size, 16);

LAYOUT_SIZE(aca_event, 40);
LAYOUT_OFFSET(aca_event, config, 16);
LAYOUT_OFFSET(aca_event, period, 32);

LAYOUT_SIZE(aca_trace_config, 16 + 16 * 40);
LAYOUT_OFFSET(aca_trace_config, events, 16);

LAYOUT_SIZE(aca_trace_counts, 56);
LAYOUT_OFFSET(aca_trace_counts, generated, 16);
LAYOUT_OFFSET(aca_trace_counts, stop_tsc, 48);

LAYOUT_SIZE(aca_mmap_header, 144);
LAYOUT_OFFSET(aca_mmap_header, tail, 64);
LAYOUT_OFFSET(aca_mmap_header, lost, 128);
LAYOUT_OFFSET(aca_mmap_header, written, 136);
