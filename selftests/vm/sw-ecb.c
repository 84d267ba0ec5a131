// SPDX-License-Identifier: GPL-2.0-only
/*
 * sw-ecb: write a sampling ECB for aca-host collect --ecb whose one event
 * is an [ACA-EXT] perf software event (sep_cmd.h, ACA_SW_EVENT_SELECT) in
 * general counter 0, sampling every PERIOD of its counts.
 *
 *   sw-ecb NUM PERIOD FILE
 *
 * NUM is the software event (ACA_SW_*: 2 page faults). aca-host builds
 * sampling ECBs of fixed counters and IBS only: the VM tests of software
 * events' lifetimes (selftests/vm/swevents) sample with this one. It is
 * aca-host's REF_TSC ECB with the fixed counter off and PMC0 on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/aca-host/ecb.h"
#include "../../driver/core/sep_cmd.h"

/* The sampling layout (tools/aca-host/ecb.c): GLOBAL 5 | CTRL_GP 4 | DATA_FIXED 3 | DATA_GP 4. */
#define SLOT_CTRL_GP0		5
#define SLOT_FIXED2		(5 + 4 + 2)
#define SLOT_DATA_GP0		(5 + 4 + 3)
#define MSR_PMC0		0xc1
#define EVTSEL_USR		(1ull << 16)
#define EVTSEL_OS		(1ull << 17)

int main(int argc, char **argv)
{
	struct sep_event_reg *r;
	unsigned long long num, period;
	uint8_t *ecb;
	size_t len;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: sw-ecb NUM PERIOD FILE\n");
		return 2;
	}
	num = strtoull(argv[1], NULL, 0);
	period = strtoull(argv[2], NULL, 0);
	if (num > ACA_SW_MAX || !period || period > HOST_COUNTER_MASK) {
		fprintf(stderr, "sw-ecb: NUM 0 to %d, PERIOD 1 to 2^48 - 1\n", ACA_SW_MAX);
		return 2;
	}
	ecb = host_ecb_build_group("CPU_CLK_UNHALTED.REF_TSC", period, 0, &len);
	if (!ecb)
		return 1;
	r = (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb));
	/* GLOBAL_CTRL and OVF_CTRL: PMC0 only; no fixed counter. */
	r[SEP_GLOBAL_REGS_PERF_GLOBAL_CTRL].reg_value = 1;
	r[SEP_GLOBAL_REGS_PERF_GLOBAL_OVF_CTRL].reg_value = 1;
	r[SEP_GLOBAL_REGS_FIXED_CTR_CTRL].reg_value = 0;
	memset(&r[SLOT_FIXED2], 0, sizeof(r[SLOT_FIXED2]));
	r[SLOT_CTRL_GP0].reg_type = SEP_REG_TYPE_CCCR;
	r[SLOT_CTRL_GP0].event_reg_id.reg_id = ACA_SW_EVENT_SELECT;
	r[SLOT_CTRL_GP0].reg_value = num | EVTSEL_USR | EVTSEL_OS;
	r[SLOT_DATA_GP0].reg_type = SEP_REG_TYPE_DATA;
	r[SLOT_DATA_GP0].event_reg_id.reg_id = MSR_PMC0;
	/* Preloaded with -PERIOD in its 48 bits (spec 6.5). */
	r[SLOT_DATA_GP0].reg_value = (HOST_COUNTER_MASK + 1 - period) & HOST_COUNTER_MASK;
	r[SLOT_DATA_GP0].flags = SEP_EVREG_IS_GP_REG;
	r[SLOT_DATA_GP0].max_bits = HOST_COUNTER_MASK;
	r[SLOT_DATA_GP0].event_id_index = 0;
	r[SLOT_DATA_GP0].desc_id = 0;
	f = fopen(argv[3], "wb");
	if (!f || fwrite(ecb, 1, len, f) != len || fclose(f)) {
		perror(argv[3]);
		return 1;
	}
	free(ecb);
	return 0;
}
