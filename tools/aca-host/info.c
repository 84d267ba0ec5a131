// SPDX-License-Identifier: GPL-2.0-only
/* aca-host info: connect like VTune, ask everything, print it as a table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "session.h"

static const char *vmm_name(unsigned int v)
{
	static const char *const names[] = {
		"none/unknown", "MobileVisor", "KVM", "Xen", "Hyper-V", "VMware", "ACRN",
	};

	return v < sizeof(names) / sizeof(names[0]) ? names[v] : "other";
}

static int ask(struct host_session *s, uint32_t id, void *out, uint64_t len,
	       const char *what)
{
	int st = host_command(s, id, NULL, 0, out, len);

	if (st)
		fprintf(stderr, "aca-host: %s failed (status %d)\n", what, st);
	return st;
}

static void print_cpus(const uint8_t *blob, uint32_t size)
{
	const struct sep_node_info *node = (const void *)(blob + 72 + 64);
	const struct sep_gen_array_hdr *hdr;
	uint32_t n;

	if (size < 248)
		return;
	hdr = (const void *)(blob + node->node_percpu_array.offset);
	n = hdr->array_num_entries;
	printf("%-20s %.1f GiB\n", "memory", node->node_physical_memory / 1073741824.0);
	printf("%-20s %s\n", "cpu", "package core thread  L2 KiB  L3 KiB  perfmon  gp  fixed  cpuid leaves");
	for (uint32_t i = 0; i < n; i++) {
		const struct sep_gen_per_cpu *p =
			(const void *)((const uint8_t *)hdr + sizeof(*hdr) + i * sizeof(*p));
		const struct sep_gen_array_hdr *c;

		if ((const uint8_t *)(p + 1) > blob + size ||
		    p->cpu_cpuid_array.offset + sizeof(*c) > size)
			break;
		c = (const void *)(blob + p->cpu_cpuid_array.offset);
		printf("%-20u %7u %4u %6u  %6u  %6u  v%-7u %2u  %5u  %u\n", p->cpu_number,
		       p->cpu_package_num, p->cpu_core_num, p->cpu_hw_thread_num,
		       p->cpu_cache_L2, p->cpu_cache_L3, p->arch_perfmon_ver,
		       p->num_gp_counters, p->num_fixed_counters, c->array_num_entries);
	}
}

static int print_info(struct host_session *s)
{
	const struct sep_remote_hardware_info *hw = &s->status.hardware_info;
	struct sep_drv_platform_info *plat = calloc(1, sizeof(*plat));
	struct sep_drv_setup_info setup;
	uint32_t version, size = 0;
	int32_t cores;
	uint64_t tsc;
	uint8_t *blob = NULL;
	int err = !plat;

	err = err || ask(s, SEP_CMD_VERSION, &version, 4, "VERSION");
	err = err || ask(s, SEP_CMD_NUM_CORES, &cores, 4, "NUM_CORES");
	err = err || ask(s, SEP_CMD_GET_DRV_SETUP_INFO, &setup, 32, "GET_DRV_SETUP_INFO");
	err = err || ask(s, SEP_CMD_GET_PLATFORM_INFO, plat, sizeof(*plat), "GET_PLATFORM_INFO");
	err = err || ask(s, SEP_CMD_GET_NORMALIZED_TSC, &tsc, 8, "GET_NORMALIZED_TSC");
	err = err || ask(s, SEP_CMD_COLLECT_SYS_CONFIG, &size, 4, "COLLECT_SYS_CONFIG");
	if (!err && size) {
		blob = calloc(1, size);
		err = !blob || ask(s, SEP_CMD_GET_SYS_CONFIG, blob, size, "GET_SYS_CONFIG");
	}
	if (!err) {
		printf("%-20s %.64s %.64s\n", "os", s->status.os_info.sysname,
		       s->status.os_info.release);
		printf("%-20s %u.%u.%u (0x%08x)\n", "sep driver", version & 0xff,
		       (version >> 8) & 0xff, (version >> 16) & 0xff, version);
		printf("%-20s %d (data channels: %u cpu + uncore + module)\n", "cpus",
		       cores, s->ndata ? s->ndata - 2 : 0);
		printf("%-20s family %u model 0x%x stepping %u\n", "processor",
		       hw->family, hw->model, hw->stepping);
		printf("%-20s %.3f MHz, now %llu\n", "tsc", hw->tsc_freq / 1e6,
		       (unsigned long long)tsc);
		printf("%-20s nmi %s, vmm %s, pti %s, sampling %s\n", "driver setup",
		       setup.modes & SEP_SETUP_NMI_MODE ? "yes" : "no",
		       setup.modes & SEP_SETUP_VMM_MODE ?
		       vmm_name((setup.modes & SEP_SETUP_VMM_VENDOR_MASK) >>
				SEP_SETUP_VMM_VENDOR_SHIFT) : "none",
		       setup.modes & SEP_SETUP_PTI_MASK ? "on" : "off",
		       setup.reserved2 & ACA_SETUP_SW_CLOCK ?
		       "cpu-clock (no PMU)" : "pmu");
		printf("%-20s 0x%016llx\n", "MSR_PLATFORM_INFO",
		       (unsigned long long)plat->info);
		printf("%-20s %u bytes\n", "system config", size);
		print_cpus(blob, size);
	}
	free(plat);
	free(blob);
	return err ? -1 : 0;
}

int cmd_info(const char *target, int timeout_s)
{
	struct host_session *s = calloc(1, sizeof(*s));
	int ret = 1;

	if (!s || host_session_open_timeout(s, target, 1, timeout_s))
		goto out;
	if (s->status.status != VT_SUCCESS) {
		host_explain_status(target, s->status.status);
		close_quietly(s->ctl);
		goto out;
	}
	printf("%-20s %s, protocol %u\n", "target", target, s->status.proto_version);
	if (print_info(s) == 0)
		ret = 0;
	if (host_session_close(s)) {
		fprintf(stderr, "aca-host: TERMINATE did not end the session cleanly\n");
		ret = 1;
	}
out:
	free(s);
	return ret;
}
