// SPDX-License-Identifier: GPL-2.0-only
/* A sample's frames, named (stack.h). */
#include <string.h>

#include "stack.h"

/* Callers of @s that @v really holds: none if its indices do not fit. */
static size_t callers(const struct sample_vec *v, const struct host_sample *s)
{
	size_t n = (size_t)s->nkernel + s->nuser;

	if (!n || s->chain > v->nchain || n > v->nchain - s->chain)
		return 0;
	return n;
}

size_t stack_depth(const struct sample_vec *v, const struct host_sample *s)
{
	size_t n = 1 + callers(v, s);

	return n < STACK_MAX_FRAMES ? n : STACK_MAX_FRAMES;
}

void stack_frame(struct attrib *a, const struct sample_vec *v,
		 const struct host_sample *s, size_t i, int want_line,
		 struct stack_frame *f)
{
	memset(f, 0, sizeof(*f));
	if (!i || i > callers(v, s)) {
		f->addr = s->ip;
	} else {
		f->addr = v->chain[s->chain + i - 1];
		/* All return addresses but the user IP a kernel sample came from. */
		f->ret = !(s->ip >= HOST_KERNEL_IP_MIN && i - 1 == s->nkernel);
	}
	attrib_address(a, s, f->addr - f->ret, want_line, &f->at);
	if (f->at.func && f->at.func[0]) {
		perf_printable(f->func, sizeof(f->func), f->at.func);
		f->sym_offset = f->at.sym_offset + f->ret;
	}
	perf_dso(&f->at, 1, f->dso, sizeof(f->dso));
}
