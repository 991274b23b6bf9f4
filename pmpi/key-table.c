/*
 * key-table.c - counters keyed by three numbers (key-table.h).
 */
#include <stddef.h>

#include "key-table.h"

static unsigned home(int32_t a, int32_t b, int32_t c)
{
	uint64_t k = ((uint64_t)(uint32_t)a << 40) ^ ((uint64_t)(uint32_t)b << 16) ^ (uint32_t)c;

	return (unsigned)((k * 0x9e3779b97f4a7c15ull) >> 40) & (KEY_TABLE - 1);
}

struct key_entry *key_table_get(struct key_table *t, int32_t a, int32_t b, int32_t c)
{
	unsigned i = home(a, b, c);

	for (unsigned n = 0; n < KEY_TABLE; n++, i = (i + 1) & (KEY_TABLE - 1)) {
		struct key_entry *e = &t->e[i];

		if (!e->used) {
			*e = (struct key_entry){ .key = { a, b, c } };
			__atomic_store_n(&e->used, true, __ATOMIC_RELEASE);
			return e;
		}
		if (e->key[0] == a && e->key[1] == b && e->key[2] == c)
			return e;
	}
	t->lost++;
	return NULL;
}

struct key_own *key_owned_get(struct key_owned *o, uint64_t key)
{
	for (unsigned i = 0; i < KEY_OWN; i++) {
		struct key_own *e = &o->e[i];

		if (!e->key) {
			*e = (struct key_own){ 0 };
			__atomic_store_n(&e->key, key + 1, __ATOMIC_RELEASE);
		}
		if (e->key == key + 1) {
			o->at = (uint32_t)(i * sizeof(*e));
			return e;
		}
	}
	return NULL;
}
