/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A sample's stack, named frame by frame as perf script shows it: the
 * sample's own address first, then its callers innermost first (records.h:
 * kernel return addresses, then user ones). A return address is named at
 * address - 1, inside the call that it follows, and its offset is of the
 * address itself, as perf prints it; a kernel-mode sample's first user
 * entry is the exact address its thread entered the kernel from.
 * At most STACK_MAX_FRAMES frames: perf's default --max-stack (the
 * kernel's perf_event_max_stack, 127) of callers after the sample's own.
 */
#ifndef ACA_HOST_STACK_H
#define ACA_HOST_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "attrib.h"
#include "perfnames.h"
#include "records.h"

#define STACK_MAX_FRAMES	128

struct stack_frame {
	uint64_t addr;			/* as recorded */
	int ret;			/* a return address: named at addr - 1 */
	struct attribution at;		/* of addr, or addr - 1 */
	char func[PERF_NAME_MAX];	/* printable; "" when no symbol names it */
	uint64_t sym_offset;		/* of addr from func's start */
	char dso[PERF_NAME_MAX];	/* perf's long name */
};

/* Frames of @s in @v: 1 + its callers, at most STACK_MAX_FRAMES. */
size_t stack_depth(const struct sample_vec *v, const struct host_sample *s);

/* Frame @i (0: the sample's own address) of @s, named. */
void stack_frame(struct attrib *a, const struct sample_vec *v,
		 const struct host_sample *s, size_t i, int want_line,
		 struct stack_frame *f);

#endif /* ACA_HOST_STACK_H */
