// SPDX-License-Identifier: GPL-2.0-only
/* aca-host info: connect like VTune, ask everything, print it as a table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "builtin.h"
#include "host.h"
#include "session.h"
#include "textesc.h"

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

/*
 * GET_SYS_CONFIG's blob (spec 9.3): an answer, so at most the protocol's
 * largest, HOST_MAX_REPLY (1,024 CPUs of 256 CPUID leaves each are
 * 5.4 MB); its node at a fixed place, and at least the fixed part before
 * the first GEN_PER_CPU.
 */
#define SYS_CONFIG_NODE		136
#define SYS_CONFIG_FIXED	248

/*
 * @len bytes at @off of the @size-byte blob into @out: 0, or -1 if they are
 * not all inside it. @off is the target's: compared, never added to.
 */
static int blob_get(const uint8_t *blob, uint32_t size, uint64_t off, size_t len,
		    void *out)
{
	if (off > size || len > size - off)
		return -1;
	memcpy(out, blob + off, len);
	return 0;
}

/* A blob that does not hold what it points at: said, -1. */
static int bad_blob(uint32_t size, const char *what, uint64_t off)
{
	fprintf(stderr, "aca-host: GET_SYS_CONFIG: %s at offset %#llx is not inside the "
		"%u-byte system configuration: not a SEP target's, nothing of it printed\n",
		what, (unsigned long long)off, size);
	return -1;
}

/*
 * CPU @i of the per-CPU array, whose entries start at @at, into @p and its
 * CPUID array's header into @c: 0, or -1 (said). The array's entries are
 * inside the blob already; the CPUID array's offset and count are checked.
 */
static int blob_cpu(const uint8_t *blob, uint32_t size, uint64_t at, uint32_t i,
		    struct sep_gen_per_cpu *p, struct sep_gen_array_hdr *c)
{
	char what[64];

	blob_get(blob, size, at + (uint64_t)i * sizeof(*p), sizeof(*p), p);
	snprintf(what, sizeof(what), "the CPUID array of CPU %u", i);
	if (blob_get(blob, size, p->cpu_cpuid_array.offset, sizeof(*c), c))
		return bad_blob(size, what, p->cpu_cpuid_array.offset);
	/* Inside: offset + sizeof(*c) <= size. */
	if (c->array_num_entries > (size - p->cpu_cpuid_array.offset - sizeof(*c)) /
				   sizeof(struct sep_cpuid_x86)) {
		snprintf(what, sizeof(what), "CPU %u's CPUID array of %u leaves", i,
			 c->array_num_entries);
		return bad_blob(size, what, p->cpu_cpuid_array.offset);
	}
	return 0;
}

/*
 * The CPUs of the blob. Every offset and count in it is the target's: each
 * is checked against @size before anything is printed. 0, or -1 (said).
 */
static int print_cpus(const uint8_t *blob, uint32_t size)
{
	struct sep_gen_array_hdr hdr, c;
	struct sep_gen_per_cpu p;
	struct sep_node_info node;
	uint64_t at;

	if (size < SYS_CONFIG_FIXED) {
		fprintf(stderr, "aca-host: GET_SYS_CONFIG: %u bytes, shorter than the %u of "
			"a system configuration's fixed part\n", size, SYS_CONFIG_FIXED);
		return -1;
	}
	blob_get(blob, size, SYS_CONFIG_NODE, sizeof(node), &node);
	if (blob_get(blob, size, node.node_percpu_array.offset, sizeof(hdr), &hdr))
		return bad_blob(size, "the per-CPU array", node.node_percpu_array.offset);
	/* Inside: at <= size. */
	at = node.node_percpu_array.offset + sizeof(hdr);
	if (hdr.array_num_entries > (size - at) / sizeof(p)) {
		char what[64];

		snprintf(what, sizeof(what), "a per-CPU array of %u CPUs",
			 hdr.array_num_entries);
		return bad_blob(size, what, node.node_percpu_array.offset);
	}
	for (uint32_t i = 0; i < hdr.array_num_entries; i++)
		if (blob_cpu(blob, size, at, i, &p, &c))
			return -1;
	printf("%-20s %.1f GiB\n", "memory", node.node_physical_memory / 1073741824.0);
	printf("%-20s %s\n", "cpu", "package core thread  L2 KiB  L3 KiB  perfmon  gp  fixed  cpuid leaves");
	for (uint32_t i = 0; i < hdr.array_num_entries; i++) {
		blob_cpu(blob, size, at, i, &p, &c);
		printf("%-20u %7u %4u %6u  %6u  %6u  v%-7u %2u  %5u  %u\n", p.cpu_number,
		       p.cpu_package_num, p.cpu_core_num, p.cpu_hw_thread_num,
		       p.cpu_cache_L2, p.cpu_cache_L3, p.arch_perfmon_ver,
		       p.num_gp_counters, p.num_fixed_counters, c.array_num_entries);
	}
	return 0;
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
	if (!err && size > HOST_MAX_REPLY) {
		fprintf(stderr, "aca-host: COLLECT_SYS_CONFIG: a system configuration of %u "
			"bytes, more than the protocol's largest answer (%u): not asked "
			"for\n", size, HOST_MAX_REPLY);
		err = 1;
	}
	if (!err && size) {
		blob = calloc(1, size);
		err = !blob || ask(s, SEP_CMD_GET_SYS_CONFIG, blob, size, "GET_SYS_CONFIG");
	}
	if (!err) {
		/* The target's words, as text a terminal only shows (textesc.h). */
		printf("%-20s ", "os");
		text_put(stdout, s->status.os_info.sysname, sizeof(s->status.os_info.sysname));
		putchar(' ');
		text_put(stdout, s->status.os_info.release, sizeof(s->status.os_info.release));
		putchar('\n');
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
		if (size && print_cpus(blob, size))
			err = 1;
	}
	free(plat);
	free(blob);
	return err ? -1 : 0;
}

static int info(const char *target, int timeout_s)
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

static void usage(FILE *f)
{
	arg_target_usage(f, "aca-host info",
			 "Open a whole session (every channel), print what the target\n"
			 "  reports (CPUs, TSC, topology, platform), and end it cleanly.");
}

int cmd_info(int argc, char **argv)
{
	return arg_target_command("aca-host info", usage, info, argc, argv);
}
