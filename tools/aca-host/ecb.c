// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixed-counter ECBs (spec 6.1-6.6). The slot layout is the one of the
 * spec's CPU_CLK_UNHALTED.REF_TSC vector; the other fixed events differ
 * only in which counter slot is filled and which enable bits are set, so
 * with REF_TSC and the vector's sample-after value the result is that
 * vector byte for byte (the host unit tests check it).
 */
#include <stdlib.h>
#include <string.h>

#include "ecb.h"
#include "../../driver/core/sep_cmd.h"

#define MSR_PERF_GLOBAL_CTRL	0x38f
#define MSR_PERF_GLOBAL_OVF_CTRL 0x390
#define MSR_PEBS_ENABLE		0x3f1
#define MSR_DEBUGCTL		0x1d9
#define MSR_FIXED_CTR_CTRL	0x38d
#define MSR_FIXED_CTR0		0x309
#define MSR_LBR_SELECT		0x1c8
#define MSR_PERF_GLOBAL_STATUS	0x38e

/* DEBUGCTL as the vector sets it: freeze LBRs and counters on PMI. */
#define DEBUGCTL_FREEZE		0x1800
/* FIXED_CTR_CTRL nibble: count ring 0 and ring > 0, PMI on overflow. */
#define FIXED_CTRL_OS_USR_PMI	0xb

/* Sections of the vector's entry array (spec 6.6): start, length. */
enum {
	SLOT_GLOBAL = 0,	/* GLOBAL_REGS: 5 */
	SLOT_CTRL_GP = 5,	/* 4 */
	SLOT_DATA_FIXED = 9,	/* 3 */
	SLOT_DATA_GP = 12,	/* 4 */
	SLOT_OCR = 16,		/* 5 */
	SLOT_GLOBAL_STATUS = 21,
	NUM_ENTRIES = 21,	/* ALL_REG: the status slot is extra */
	NUM_SLOTS = 22,
};

struct fixed_event {
	const char *name;
	unsigned int counter;	/* IA32_FIXED_CTRn */
	const char *what;
};

static const struct fixed_event events[] = {
	{ "INST_RETIRED.ANY", 0, "instructions retired (fixed counter 0)" },
	{ "CPU_CLK_UNHALTED.THREAD", 1, "core cycles while not halted (fixed counter 1)" },
	{ "CPU_CLK_UNHALTED.REF_TSC", 2, "reference cycles at the TSC rate (fixed counter 2)" },
};

static const struct fixed_event *find(const char *name)
{
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (!strcmp(events[i].name, name))
			return &events[i];
	return NULL;
}

int host_ecb_known(const char *name)
{
	return find(name) != NULL;
}

void host_ecb_list(FILE *f)
{
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		fprintf(f, "  %-26s %s\n", events[i].name, events[i].what);
}

uint64_t host_sample_after(uint64_t tsc_hz, uint32_t rate)
{
	uint64_t sav;

	if (!tsc_hz)
		tsc_hz = 2200000000ull;
	if (!rate)
		rate = 1;
	sav = tsc_hz / rate;
	return sav ? sav : 1;
}

static void section(struct sep_ecb *h, unsigned int op, uint32_t start, uint32_t len)
{
	h->operations[op].operation_type = op;
	h->operations[op].register_start = start;
	h->operations[op].register_len = len;
}

static void reg(struct sep_event_reg *r, uint8_t type, uint32_t msr,
		uint64_t value, uint16_t flags)
{
	r->reg_type = type;
	r->event_reg_id.reg_id = msr;
	r->reg_value = value;
	r->flags = flags;
}

uint8_t *host_ecb_build_group(const char *name, uint64_t sample_after,
			      uint32_t group, size_t *len)
{
	const size_t size = sizeof(struct sep_ecb) + NUM_SLOTS * sizeof(struct sep_event_reg);
	const struct fixed_event *ev = find(name);
	struct sep_event_reg *slots;
	struct sep_ecb *h;
	uint64_t enable;
	uint8_t *buf;

	if (!ev || !sample_after || sample_after > HOST_COUNTER_MASK)
		return NULL;
	buf = calloc(1, size);
	if (!buf)
		return NULL;
	h = (struct sep_ecb *)buf;
	slots = (struct sep_event_reg *)(buf + sizeof(*h));

	h->version = SEP_ECB_VERSION;
	h->num_entries = NUM_ENTRIES;
	h->group_id = group;
	h->num_events = 1;
	/* Legacy cccr/escr/data ranges, as the vector has them. */
	h->cccr_start = 0;
	h->cccr_pop = 9;
	h->escr_start = 16;
	h->escr_pop = 5;
	h->data_start = 9;
	h->data_pop = 7;
	h->size_of_allocation = size;
	h->device_type = SEP_DEVICE_CORE;
	section(h, SEP_OP_GLOBAL_REGS, SLOT_GLOBAL, 5);
	section(h, SEP_OP_CTRL_GP, SLOT_CTRL_GP, 4);
	section(h, SEP_OP_DATA_FIXED, SLOT_DATA_FIXED, 3);
	section(h, SEP_OP_DATA_GP, SLOT_DATA_GP, 4);
	section(h, SEP_OP_OCR, SLOT_OCR, 5);
	section(h, SEP_OP_ALL_REG, 0, NUM_ENTRIES);
	section(h, SEP_OP_DATA_ALL, SLOT_DATA_FIXED, 7);
	section(h, SEP_OP_GLOBAL_STATUS, SLOT_GLOBAL_STATUS, 1);

	/* Only this fixed counter is enabled, in GLOBAL_CTRL and its nibble. */
	enable = 1ull << (32 + ev->counter);
	reg(&slots[SLOT_GLOBAL + SEP_GLOBAL_REGS_PERF_GLOBAL_CTRL], SEP_REG_TYPE_CCCR,
	    MSR_PERF_GLOBAL_CTRL, enable, SEP_EVREG_GLOBAL);
	reg(&slots[SLOT_GLOBAL + SEP_GLOBAL_REGS_PERF_GLOBAL_OVF_CTRL], SEP_REG_TYPE_CCCR,
	    MSR_PERF_GLOBAL_OVF_CTRL, enable, SEP_EVREG_GLOBAL);
	reg(&slots[SLOT_GLOBAL + SEP_GLOBAL_REGS_PEBS_ENABLE], SEP_REG_TYPE_CCCR,
	    MSR_PEBS_ENABLE, 0, SEP_EVREG_GLOBAL);
	reg(&slots[SLOT_GLOBAL + SEP_GLOBAL_REGS_DEBUGCTL], SEP_REG_TYPE_CCCR,
	    MSR_DEBUGCTL, DEBUGCTL_FREEZE, SEP_EVREG_GLOBAL);
	reg(&slots[SLOT_GLOBAL + SEP_GLOBAL_REGS_FIXED_CTR_CTRL], SEP_REG_TYPE_CCCR,
	    MSR_FIXED_CTR_CTRL, (uint64_t)FIXED_CTRL_OS_USR_PMI << (4 * ev->counter),
	    SEP_EVREG_GLOBAL | SEP_EVREG_CLEAN_UP);

	/* The counter is preloaded with -SAV in its 48 bits (spec 6.5). */
	reg(&slots[SLOT_DATA_FIXED + ev->counter], SEP_REG_TYPE_DATA,
	    MSR_FIXED_CTR0 + ev->counter,
	    (HOST_COUNTER_MASK + 1 - sample_after) & HOST_COUNTER_MASK,
	    SEP_EVREG_LBR_VALUE | SEP_EVREG_FIXED_REG);
	slots[SLOT_DATA_FIXED + ev->counter].max_bits = HOST_COUNTER_MASK;
	/* The group's samples carry its number as eventIndex, and descriptor. */
	slots[SLOT_DATA_FIXED + ev->counter].event_id_index = group;
	slots[SLOT_DATA_FIXED + ev->counter].desc_id = group;

	reg(&slots[SLOT_OCR + 4], SEP_REG_TYPE_ESCR, MSR_LBR_SELECT, 0, SEP_EVREG_GLOBAL);
	reg(&slots[SLOT_GLOBAL_STATUS], SEP_REG_TYPE_EMPTY, MSR_PERF_GLOBAL_STATUS, 0, 0);

	*len = size;
	return buf;
}

uint8_t *host_ecb_build(const char *name, uint64_t sample_after, size_t *len)
{
	return host_ecb_build_group(name, sample_after, 0, len);
}
