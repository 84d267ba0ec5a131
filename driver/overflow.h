/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The overflow handler of the sampling's perf events (overflow.c), its
 * context their struct aca_sev (sampler.h). NMI (PMU), hard IRQ
 * (cpu-clock) or wherever a software event fires: no lock, no allocation.
 */
#ifndef ACA_OVERFLOW_H
#define ACA_OVERFLOW_H

struct perf_event;
struct perf_sample_data;
struct pt_regs;

void aca_overflow(struct perf_event *event, struct perf_sample_data *data,
		  struct pt_regs *regs);

#endif /* ACA_OVERFLOW_H */
