// SPDX-License-Identifier: GPL-2.0-only
/*
 * Built-in ECBs (spec 6.1-6.6). The slot layout is the one of the spec's
 * CPU_CLK_UNHALTED.REF_TSC vector, with G general counter slots (4 there):
 *   GLOBAL_REGS 5 | CTRL_GP G | DATA_FIXED 3 | DATA_GP G | OCR 5 | status 1
 * A sampling ECB holds one fixed event, with G = 4; the other fixed events
 * differ only in which counter slot is filled and which enable bits are
 * set, so with REF_TSC and the vector's sample-after value the result is
 * that vector byte for byte (the host unit tests check it). A counting
 * ECB holds several events, with G = HOST_COUNT_GP_SLOTS.
 */
#include <stdbool.h>
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
/* The same without the PMI: a counting ECB never samples. */
#define FIXED_CTRL_OS_USR	0x3
/* IA32_PMC0: general counter k is IA32_PMC0 + k (0xc1..0xc8). */
#define MSR_PMC0		0xc1
/* Event select bits: count in rings > 0, in ring 0. */
#define EVTSEL_USR		(1ull << 16)
#define EVTSEL_OS		(1ull << 17)

/* GLOBAL_REGS slots, fixed counters, OCR slots of every layout. */
#define NUM_GLOBAL		5
#define NUM_FIXED		3
#define NUM_OCR			5
/* General counter slots of the sampling layout: the vector's. */
#define SAMPLING_GP_SLOTS	4

/* Where each section starts in a layout with @gp general counter slots. */
struct layout {
	uint32_t gp;
	uint32_t ctrl_gp, data_fixed, data_gp, ocr, global_status;
	uint32_t num_entries;	/* ALL_REG: the status slot is extra */
	uint32_t num_slots;
};

static void layout(struct layout *l, uint32_t gp)
{
	l->gp = gp;
	l->ctrl_gp = NUM_GLOBAL;
	l->data_fixed = l->ctrl_gp + gp;
	l->data_gp = l->data_fixed + NUM_FIXED;
	l->ocr = l->data_gp + gp;
	l->global_status = l->ocr + NUM_OCR;
	l->num_entries = l->global_status;
	l->num_slots = l->num_entries + 1;
}

/*
 * [ACA-EXT] AMD IBS (spec 6.12): the control register in a DATA_GP slot,
 * its enable bit and maximum count (the period / 16): IbsOpMaxCnt 15:0
 * and, past 16 bits, 22:16 at 26:20; IbsFetchMaxCnt 15:0.
 */
#define MSR_IBS_FETCH_CTL	0xc0011030
#define MSR_IBS_OP_CTL		0xc0011033
#define IBS_FETCH_EN		(1ull << 48)
#define IBS_OP_EN		(1ull << 17)
#define IBS_FETCH_MAX_CNT	0xffffull
#define IBS_OP_MAX_CNT		0x7fffffull

struct host_event {
	const char *name;
	unsigned int counter;	/* IA32_FIXED_CTRn; IBS: its control MSR */
	bool ibs;
	const char *what;
};

static const struct host_event events[] = {
	{ "INST_RETIRED.ANY", 0, false, "instructions retired (fixed counter 0)" },
	{ "CPU_CLK_UNHALTED.THREAD", 1, false, "core cycles while not halted (fixed counter 1)" },
	{ "CPU_CLK_UNHALTED.REF_TSC", 2, false, "reference cycles at the TSC rate (fixed counter 2)" },
	{ "ibs_op", MSR_IBS_OP_CTL, true,
	  "AMD IBS: ops tagged every N cycles at their own IP (perf's ibs_op)" },
	{ "ibs_fetch", MSR_IBS_FETCH_CTL, true,
	  "AMD IBS: fetches tagged every N cycles at their own IP (perf's ibs_fetch)" },
};

static const struct host_event *find(const char *name)
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

/*
 * An ECB in layout @l with every section and the global registers: only
 * the counters whose bits @enable sets in GLOBAL_CTRL (and OVF_CTRL), and
 * the fixed counters' nibbles @fixed_ctrl. No counter slot is filled yet.
 */
static uint8_t *frame(const struct layout *l, uint32_t group, uint32_t nevents,
		      uint64_t enable, uint64_t fixed_ctrl, size_t *len)
{
	const size_t size = sizeof(struct sep_ecb) + l->num_slots * sizeof(struct sep_event_reg);
	struct sep_event_reg *slots;
	struct sep_ecb *h;
	uint8_t *buf = calloc(1, size);

	if (!buf)
		return NULL;
	h = (struct sep_ecb *)buf;
	slots = (struct sep_event_reg *)(buf + sizeof(*h));

	h->version = SEP_ECB_VERSION;
	h->num_entries = l->num_entries;
	h->group_id = group;
	h->num_events = nevents;
	/* Legacy cccr/escr/data ranges, as the vector has them. */
	h->cccr_start = 0;
	h->cccr_pop = l->data_fixed;
	h->escr_start = l->ocr;
	h->escr_pop = NUM_OCR;
	h->data_start = l->data_fixed;
	h->data_pop = NUM_FIXED + l->gp;
	h->size_of_allocation = size;
	h->device_type = SEP_DEVICE_CORE;
	section(h, SEP_OP_GLOBAL_REGS, 0, NUM_GLOBAL);
	section(h, SEP_OP_CTRL_GP, l->ctrl_gp, l->gp);
	section(h, SEP_OP_DATA_FIXED, l->data_fixed, NUM_FIXED);
	section(h, SEP_OP_DATA_GP, l->data_gp, l->gp);
	section(h, SEP_OP_OCR, l->ocr, NUM_OCR);
	section(h, SEP_OP_ALL_REG, 0, l->num_entries);
	section(h, SEP_OP_DATA_ALL, l->data_fixed, NUM_FIXED + l->gp);
	section(h, SEP_OP_GLOBAL_STATUS, l->global_status, 1);

	reg(&slots[SEP_GLOBAL_REGS_PERF_GLOBAL_CTRL], SEP_REG_TYPE_CCCR,
	    MSR_PERF_GLOBAL_CTRL, enable, SEP_EVREG_GLOBAL);
	reg(&slots[SEP_GLOBAL_REGS_PERF_GLOBAL_OVF_CTRL], SEP_REG_TYPE_CCCR,
	    MSR_PERF_GLOBAL_OVF_CTRL, enable, SEP_EVREG_GLOBAL);
	reg(&slots[SEP_GLOBAL_REGS_PEBS_ENABLE], SEP_REG_TYPE_CCCR,
	    MSR_PEBS_ENABLE, 0, SEP_EVREG_GLOBAL);
	reg(&slots[SEP_GLOBAL_REGS_DEBUGCTL], SEP_REG_TYPE_CCCR,
	    MSR_DEBUGCTL, DEBUGCTL_FREEZE, SEP_EVREG_GLOBAL);
	reg(&slots[SEP_GLOBAL_REGS_FIXED_CTR_CTRL], SEP_REG_TYPE_CCCR,
	    MSR_FIXED_CTR_CTRL, fixed_ctrl, SEP_EVREG_GLOBAL | SEP_EVREG_CLEAN_UP);

	reg(&slots[l->ocr + 4], SEP_REG_TYPE_ESCR, MSR_LBR_SELECT, 0, SEP_EVREG_GLOBAL);
	reg(&slots[l->global_status], SEP_REG_TYPE_EMPTY, MSR_PERF_GLOBAL_STATUS, 0, 0);
	*len = size;
	return buf;
}

static struct sep_event_reg *ecb_slots(uint8_t *ecb)
{
	return (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb));
}

uint64_t host_ibs_control(const char *name, uint64_t sample_after)
{
	const struct host_event *ev = find(name);
	uint64_t cnt = sample_after >> 4;

	if (!ev || !ev->ibs)
		return 0;
	cnt = cnt ? cnt : 1;
	if (ev->counter == MSR_IBS_FETCH_CTL)
		return IBS_FETCH_EN | (cnt < IBS_FETCH_MAX_CNT ? cnt : IBS_FETCH_MAX_CNT);
	cnt = cnt < IBS_OP_MAX_CNT ? cnt : IBS_OP_MAX_CNT;
	return IBS_OP_EN | (cnt & 0xffff) | (cnt >> 16 << 20);
}

/* An IBS event: nothing counts but its control register, DATA_GP slot 0. */
static uint8_t *ibs_group(const struct host_event *ev, uint64_t sample_after,
			  uint32_t group, size_t *len)
{
	struct sep_event_reg *data;
	struct layout l;
	uint8_t *buf;

	layout(&l, SAMPLING_GP_SLOTS);
	buf = frame(&l, group, 1, 0, 0, len);
	if (!buf)
		return NULL;
	data = &ecb_slots(buf)[l.data_gp];
	reg(data, SEP_REG_TYPE_DATA, ev->counter, host_ibs_control(ev->name, sample_after), 0);
	data->event_id_index = group;
	data->desc_id = group;
	return buf;
}

uint8_t *host_ecb_build_group(const char *name, uint64_t sample_after,
			      uint32_t group, size_t *len)
{
	const struct host_event *ev = find(name);
	struct sep_event_reg *data;
	struct layout l;
	uint8_t *buf;

	if (!ev || !sample_after || sample_after > HOST_COUNTER_MASK)
		return NULL;
	if (ev->ibs)
		return ibs_group(ev, sample_after, group, len);
	layout(&l, SAMPLING_GP_SLOTS);
	/* Only this fixed counter is enabled, in GLOBAL_CTRL and its nibble. */
	buf = frame(&l, group, 1, 1ull << (32 + ev->counter),
		    (uint64_t)FIXED_CTRL_OS_USR_PMI << (4 * ev->counter), len);
	if (!buf)
		return NULL;
	data = &ecb_slots(buf)[l.data_fixed + ev->counter];
	/* The counter is preloaded with -SAV in its 48 bits (spec 6.5). */
	reg(data, SEP_REG_TYPE_DATA, MSR_FIXED_CTR0 + ev->counter,
	    (HOST_COUNTER_MASK + 1 - sample_after) & HOST_COUNTER_MASK,
	    SEP_EVREG_LBR_VALUE | SEP_EVREG_FIXED_REG);
	data->max_bits = HOST_COUNTER_MASK;
	/* The group's samples carry its number as eventIndex, and descriptor. */
	data->event_id_index = group;
	data->desc_id = group;
	return buf;
}

uint8_t *host_ecb_build(const char *name, uint64_t sample_after, size_t *len)
{
	return host_ecb_build_group(name, sample_after, 0, len);
}

int host_ecb_fixed_counter(const char *name)
{
	const struct host_event *ev = find(name);

	return ev && !ev->ibs ? (int)ev->counter : -1;
}

/*
 * The events' checks: 1 to HOST_MAX_COUNT_EVENTS, fixed counters that
 * exist, software events that do, none twice.
 */
static int count_events_ok(const struct host_count_event *ev, uint32_t n)
{
	if (!n || n > HOST_MAX_COUNT_EVENTS)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		if (ev[i].sw ? ev[i].num > ACA_SW_MAX : ev[i].num >= NUM_FIXED)
			return 0;
		for (uint32_t j = 0; j < i; j++)
			if (ev[j].sw == ev[i].sw && ev[j].num == ev[i].num)
				return 0;
	}
	return 1;
}

uint8_t *host_ecb_build_counting(const struct host_count_event *ev, uint32_t n,
				 uint32_t *order, size_t *len)
{
	uint64_t enable = 0, fixed_ctrl = 0;
	uint32_t nfixed = 0, gp = 0;
	struct sep_event_reg *slots;
	struct layout l;
	uint8_t *buf;

	if (!count_events_ok(ev, n))
		return NULL;
	layout(&l, HOST_COUNT_GP_SLOTS);
	/* Fixed counters answer first, by counter number; then general slots. */
	for (uint32_t i = 0; i < n; i++) {
		if (ev[i].sw)
			continue;
		enable |= 1ull << (32 + ev[i].num);
		fixed_ctrl |= (uint64_t)FIXED_CTRL_OS_USR << (4 * ev[i].num);
		nfixed++;
	}
	for (uint32_t i = 0; i < n; i++)
		if (ev[i].sw)
			enable |= 1ull << gp++;
	buf = frame(&l, 0, n, enable, fixed_ctrl, len);
	if (!buf)
		return NULL;
	slots = ecb_slots(buf);
	gp = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct sep_event_reg *data;

		if (ev[i].sw) {
			/* General slot k: its counter, and the pseudo event select. */
			order[i] = nfixed + gp;
			reg(&slots[l.ctrl_gp + gp], SEP_REG_TYPE_CCCR, ACA_SW_EVENT_SELECT,
			    ev[i].num | EVTSEL_USR | EVTSEL_OS, 0);
			data = &slots[l.data_gp + gp];
			reg(data, SEP_REG_TYPE_DATA, MSR_PMC0 + gp, 0, SEP_EVREG_IS_GP_REG);
			gp++;
		} else {
			order[i] = 0;
			for (uint32_t j = 0; j < n; j++)
				order[i] += !ev[j].sw && ev[j].num < ev[i].num;
			data = &slots[l.data_fixed + ev[i].num];
			reg(data, SEP_REG_TYPE_DATA, MSR_FIXED_CTR0 + ev[i].num, 0,
			    SEP_EVREG_FIXED_REG);
		}
		/* reg_value 0: no sample-after value, the event only counts. */
		data->max_bits = HOST_COUNTER_MASK;
		data->event_id_index = order[i];
	}
	return buf;
}
