// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the protocol core asks of the kernel (struct acp_ops, core.h): the
 * machine's facts (machine.c; its PMUs by name, pmus.c), then the
 * operations of the session's collection (collection.c, and the
 * sampling's entry points in sampler.c, multiplex.c and emon.c). The core
 * calls each with the collection as ctx (device.c), under aca_lock.
 */
#include "collection.h"
#include "core/core.h"
#include "emon.h"
#include "machine.h"
#include "multiplex.h"
#include "ops.h"
#include "pmus.h"
#include "sampler.h"

const struct acp_ops aca_kernel_ops = {
	/* The machine's facts. */
	.sysname = aca_machine_sysname,
	.release = aca_machine_release,
	.version = aca_machine_version,
	.num_cpus = aca_machine_num_cpus,
	.cpuid = aca_machine_cpuid,
	.tsc_hz = aca_machine_tsc_hz,
	.tsc_now = aca_machine_tsc_now,
	.rdmsr = aca_machine_rdmsr,
	.pti = aca_machine_pti,
	.total_ram = aca_machine_total_ram,
	.page_size = aca_machine_page_size,
	.alloc = aca_machine_alloc,
	.free = aca_machine_free,
	.find_pmu = aca_find_pmu,
	.sw_clock = aca_machine_sw_clock,
	.kernel_symbol = aca_machine_kernel_symbol,
	.wake = aca_machine_wake,
	.log = aca_machine_log,
	.session_idle_s = aca_machine_session_idle_s,
	/* The collection's operations. */
	.configure = aca_collection_configure,
	.start = aca_collection_start,
	.stop = aca_collection_stop,
	.pause = aca_collection_pause,
	.switch_group = aca_sampler_switch_group,
	.group_times = aca_sampler_group_times,
	.read_counts = aca_sampler_read_counts,
	.finalize = aca_collection_finalize,
	.module_snapshot = aca_collection_module_snapshot,
	.sample_counts = aca_sampler_counts,
	.data_peek = aca_collection_peek,
	.data_consume = aca_collection_consume,
	.data_final = aca_collection_final,
	.delayed_transfer = aca_collection_delayed,
	.finish = aca_collection_finish,
};
