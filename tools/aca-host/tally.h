/* SPDX-License-Identifier: GPL-2.0-only */
/* Counting samples per name (process, module, function) for the report. */
#ifndef ACA_HOST_TALLY_H
#define ACA_HOST_TALLY_H

#include <stddef.h>
#include <stdint.h>

struct tally_entry {
	char *key;
	uint64_t count;
};

struct tally {
	struct tally_entry *slots;	/* open addressing, power-of-two size */
	size_t cap, n;
};

/* Returns 0, or -1 when out of memory. */
int tally_add(struct tally *t, const char *key, uint64_t n);
uint64_t tally_get(const struct tally *t, const char *key);
/* Entries by count, descending (then by key); malloc()ed, *@n of them. */
struct tally_entry *tally_sorted(const struct tally *t, size_t *n);
void tally_free(struct tally *t);

#endif /* ACA_HOST_TALLY_H */
