/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The small helpers every part of aca-host uses alike: a dynamic array's
 * growth and a percentage.
 */
#ifndef ACA_HOST_UTIL_H
#define ACA_HOST_UTIL_H

#include <stdint.h>
#include <stdlib.h>

/*
 * Room in @v, an array of *@cap elements of @size bytes, for @need of
 * them: @v itself when it has it, else @v moved to a capacity doubled
 * (from 64) until it does, *@cap updated. NULL when out of memory or the
 * size would overflow: @v and *@cap are then as they were.
 */
static inline void *grow(void *v, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 64;

	if (need <= *cap)
		return v;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return NULL;
		c *= 2;
	}
	if (c > SIZE_MAX / size)
		return NULL;
	v = realloc(v, c * size);
	if (v)
		*cap = c;
	return v;
}

/* @n as a percentage of @of; 0 of nothing. */
static inline double pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * n / of : 0.0;
}

#endif /* ACA_HOST_UTIL_H */
