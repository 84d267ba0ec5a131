// SPDX-License-Identifier: GPL-2.0-only
/*
 * PEBS record areas (spec 5.7, 6.13): where EVENT_DESC puts a precise
 * event's PEBS record and the fields SEP copies out of it (latency, the
 * eventing IP, the PEBS TSC), and what goes there.
 *
 * perf programs PEBS and hands the overflow handler what it decoded from
 * the hardware record, not the record. The record written here is rebuilt
 * from that in the legacy layout (PEBS formats 0 to 3, Skylake's the
 * longest: 25 U64s); a field perf does not hand back is 0 (see
 * struct acp_pebs_record).
 */
#include "internal.h"

#define PEBS_RECORD_SIZE	((u32)sizeof(struct acp_pebs_record))

/* [@off, @off + @len) lies in a @size-byte record, after its base. */
static bool in_record(u64 off, u64 len, u32 size)
{
	return off >= sizeof(struct sep_sample_record_pc) && off + len <= size;
}

/* [@off, @off + @len) is off [@o2, @o2 + @l2) (an empty one is off all). */
static bool apart(u64 off, u64 len, u64 o2, u64 l2)
{
	return !len || !l2 || off + len <= o2 || o2 + l2 <= off;
}

/* Off the callstack and LBR areas (cmd_config.c checked those). */
static bool off_others(const struct sep_event_desc *d, u64 off, u64 len)
{
	return apart(off, len, d->callstack_offset, d->callstack_size) &&
	       apart(off, len, d->lbr_offset, (u64)d->lbr_num_regs * sizeof(u64));
}

bool acp_pebs_areas(const struct sep_event_desc *d, struct acp_pebs_areas *a)
{
	u32 size = d->sample_size;

	memset(a, 0, sizeof(*a));
	if (d->pebs_size) {
		if (d->pebs_offset % 8 || d->pebs_size % 8 ||
		    !in_record(d->pebs_offset, d->pebs_size, size) ||
		    !off_others(d, d->pebs_offset, d->pebs_size))
			return false;
		a->pebs_offset = d->pebs_offset;
		a->pebs_size = d->pebs_size;
	}
	if (d->latency_size_in_sample) {
		if (!in_record(d->latency_offset_in_sample, d->latency_size_in_sample, size) ||
		    !off_others(d, d->latency_offset_in_sample, d->latency_size_in_sample))
			return false;
		a->lat_offset = d->latency_offset_in_sample;
		/* Bytes past what the host takes, or past our record, stay 0. */
		a->lat_size = d->latency_size_in_sample;
		a->lat_from = d->latency_offset_in_pebs_record;
		a->lat_from_size = d->latency_size_from_pebs_record;
	}
	if (d->eventing_ip_offset) {
		if (d->eventing_ip_offset % 8 || !in_record(d->eventing_ip_offset, 8, size) ||
		    !off_others(d, d->eventing_ip_offset, 8))
			return false;
		a->eventing_ip_offset = d->eventing_ip_offset;
	}
	if (d->pebs_tsc_offset) {
		if (d->pebs_tsc_offset % 8 || !in_record(d->pebs_tsc_offset, 8, size) ||
		    !off_others(d, d->pebs_tsc_offset, 8))
			return false;
		a->tsc_offset = d->pebs_tsc_offset;
	}
	return true;
}

static u32 larger(u32 a, u32 b)
{
	return a > b ? a : b;
}

static u32 smaller(u32 a, u32 b)
{
	return a < b ? a : b;
}

u32 acp_pebs_end(const struct acp_pebs_areas *a)
{
	u32 end = 0;

	if (a->pebs_size)
		end = a->pebs_offset + a->pebs_size;
	if (a->lat_size)
		end = larger(end, a->lat_offset + a->lat_size);
	if (a->eventing_ip_offset)
		end = larger(end, a->eventing_ip_offset + 8);
	if (a->tsc_offset)
		end = larger(end, a->tsc_offset + 8);
	return end;
}

/*
 * NMI-safe: no lock, no allocation, nothing on the stack. @rec is the
 * whole record, zeroed up to acp_pebs_end(@a); the areas were checked
 * against its size.
 */
void acp_pebs_write(u8 *rec, const struct acp_pebs_areas *a, const struct acp_pebs_record *p)
{
	const u8 *words = (const u8 *)p;

	/* A longer area keeps its zeros past ours. */
	if (a->pebs_size)
		memcpy(rec + a->pebs_offset, words, smaller(a->pebs_size, PEBS_RECORD_SIZE));
	if (a->lat_size && a->lat_from < PEBS_RECORD_SIZE)
		memcpy(rec + a->lat_offset, words + a->lat_from,
		       smaller(smaller(a->lat_size, a->lat_from_size),
			       PEBS_RECORD_SIZE - a->lat_from));
	if (a->eventing_ip_offset)
		memcpy(rec + a->eventing_ip_offset, &p->real_ip, 8);
	if (a->tsc_offset)
		memcpy(rec + a->tsc_offset, &p->tsc, 8);
}

bool acp_pebs_layout(const struct acp_config *cfg, u32 index, struct acp_pebs_areas *a)
{
	u64 bits = cfg->have_dev ? cfg->dev.enable_bits : 0;

	memset(a, 0, sizeof(*a));
	if (index >= cfg->ndesc || !acp_pebs_areas(&cfg->desc[index], a)) {
		memset(a, 0, sizeof(*a));
		return false;
	}
	/* An adaptive record's layout, and its offsets, are not ours. */
	if (!(bits & SEP_DEV_CFG_PEBS_CAPTURE) || (bits & SEP_DEV_CFG_ENABLE_ADAPTIVE_PEBS))
		a->pebs_size = 0;
	if (!(bits & SEP_DEV_CFG_LATENCY_CAPTURE) || (bits & SEP_DEV_CFG_ENABLE_ADAPTIVE_PEBS))
		a->lat_size = 0;
	if (!(bits & SEP_DEV_CFG_EVENTING_IP_CAPTURE))
		a->eventing_ip_offset = 0;
	if (!(bits & SEP_DEV_CFG_TSC_CAPTURE))
		a->tsc_offset = 0;
	return acp_pebs_end(a) != 0;
}
