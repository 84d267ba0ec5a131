// SPDX-License-Identifier: GPL-2.0-only
/* Collection payloads, as the Intel test host fills them (spec 5.2-5.7). */
#include <string.h>

#include "payload.h"

void host_drv_config(struct sep_drv_config *c)
{
	memset(c, 0, sizeof(*c));
	/* The test host's size is 120 (spec 5.2); the struct's own is honest. */
	c->size = sizeof(*c);
	c->version = SEP_DRV_CONFIG_VERSION;
	c->num_events = 1;
	c->seed_name_len = 5;
	/* Sampling mode: counting_mode and emon_mode clear. */
	c->collection_config = SEP_DRV_CFG_READ_PSTATE_MSRS | SEP_DRV_CFG_DS_AREA_AVAILABLE;
	c->unc_timer_interval = 10;
	c->unc_em_factor = 100;
	c->p_state_trigger_index = -1;
}

/* One flat package: the target samples every CPU the same way. */
void host_topology(struct sep_drv_topology_info *t, uint32_t ncpus)
{
	for (uint32_t i = 0; i < ncpus; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		t[i].cpu_number = i;
		t[i].socket_master = i == 0;
		t[i].core_master = 1;
		t[i].thr_master = 1;
		t[i].cpu_module_num = i;
		t[i].cpu_module_master = 1;
		t[i].cpu_num_modules = 2;
		t[i].arch_perfmon_ver = 4;
		t[i].num_gp_counters = 4;
		t[i].num_fixed_counters = 3;
	}
}

void host_event_desc(struct sep_event_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->sample_size = HOST_SAMPLE_SIZE;
}

void host_dev_config(struct sep_dev_config *d)
{
	memset(d, 0, sizeof(*d));
	d->dispatch_id = SEP_DISPATCH_COREI7;
	d->results_offset = 48;
	d->max_gp_counters = 4;
}

void host_event_config(struct sep_event_config *e)
{
	memset(e, 0, sizeof(*e));
	e->num_groups = 1;
	e->em_mode = SEP_EM_DISABLED;
	e->em_factor = -1;
	e->em_event_num = -1;
	e->sample_size = HOST_SAMPLE_SIZE;
	e->max_gp_events = 4;
	e->max_fixed_counters = 3;
}

void host_groups(struct sep_event_config *e, uint32_t ngroups, uint32_t switch_ms,
		 uint32_t switch_samples)
{
	e->num_groups = ngroups;
	if (ngroups < 2)
		return;
	e->em_mode = switch_samples ? SEP_EM_EVENT_BASED : SEP_EM_TIMER_BASED;
	e->em_factor = switch_samples ? switch_samples : switch_ms;
}

uint32_t host_num_descriptors(uint32_t ngroups)
{
	return ngroups > HOST_NUM_DESCRIPTORS ? ngroups : HOST_NUM_DESCRIPTORS;
}

void host_layout(struct host_layout *l, unsigned int depth)
{
	l->sample_size = HOST_SAMPLE_SIZE;
	l->callstack_offset = 0;
	l->callstack_size = 0;
	if (!depth)
		return;
	l->callstack_offset = HOST_SAMPLE_SIZE;
	l->callstack_size = sizeof(struct aca_callstack_head) + 8 * depth;
	l->sample_size += l->callstack_size;
}

void host_callstacks(const struct host_layout *l, struct sep_event_desc *d,
		     struct sep_dev_config *dev, struct sep_event_config *e)
{
	if (!l->callstack_size)
		return;
	d->sample_size = e->sample_size = l->sample_size;
	d->callstack_offset = e->callstack_offset = l->callstack_offset;
	d->callstack_size = e->callstack_size = l->callstack_size;
	dev->enable_bits |= SEP_DEV_CFG_COLLECT_CALLSTACKS |
			    SEP_DEV_CFG_COLLECT_KERNEL_CALLSTACKS;
}
