// SPDX-License-Identifier: GPL-2.0-only
/* A string-keyed counter: FNV-1a hash table with linear probing. */
#include <stdlib.h>
#include <string.h>

#include "tally.h"

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return h;
}

static struct tally_entry *slot(struct tally_entry *slots, size_t cap, const char *key)
{
	size_t i = hash(key) & (cap - 1);

	while (slots[i].key && strcmp(slots[i].key, key))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/* Twice the slots (64 at first), every key placed anew. */
static int rehash(struct tally *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	struct tally_entry *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].key)
			*slot(slots, cap, t->slots[i].key) = t->slots[i];
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

int tally_add(struct tally *t, const char *key, uint64_t n)
{
	struct tally_entry *e;

	/* At most half full: probe sequences stay short. */
	if (2 * (t->n + 1) > t->cap && rehash(t))
		return -1;
	e = slot(t->slots, t->cap, key);
	if (!e->key) {
		e->key = strdup(key);
		if (!e->key)
			return -1;
		t->n++;
	}
	e->count += n;
	return 0;
}

uint64_t tally_get(const struct tally *t, const char *key)
{
	return t->cap ? slot(t->slots, t->cap, key)->count : 0;
}

static int by_count(const void *a, const void *b)
{
	const struct tally_entry *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->key, y->key);
}

struct tally_entry *tally_sorted(const struct tally *t, size_t *n)
{
	struct tally_entry *v = malloc((t->n ? t->n : 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].key)
			v[(*n)++] = t->slots[i];
	qsort(v, *n, sizeof(*v), by_count);
	return v;
}

void tally_free(struct tally *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i].key);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
