/*
 * key-table.h - counters keyed by three numbers in a table of fixed size
 * (open addressing), so that what the MPI layer keeps per pair of call
 * sites never grows with the run: the wait states' pairs of sites
 * (waits.c) and the activity graph's edges (graph.c).  An entry that finds
 * no room is counted lost.  No MPI: the unit tests drive it.
 *
 * Most of them are counted in entries that a thread owns beside its
 * counters of the receiving site (struct key_owned): a loop finds its own
 * with one compare and adds with plain stores; the table takes the keys
 * a thread's site has no room for.
 *
 * A profile written while wrappers add (a checkpoint) reads entries in
 * use: a new entry's key is written before it is marked used (release).
 */
#ifndef CPPERF_PMPI_KEY_TABLE_H
#define CPPERF_PMPI_KEY_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "bump.h"

#define KEY_TABLE 4096		/* entries, power of 2 */
#define KEY_VALUES 6		/* counters per entry */

struct key_entry {
	bool used;
	int32_t key[3];
	uint64_t v[KEY_VALUES];
};

struct key_table {
	struct key_entry e[KEY_TABLE];
	uint64_t lost;		/* additions that found no room */
};

/* The entry of (a, b, c), made when missing; NULL when full. */
struct key_entry *key_table_get(struct key_table *t, int32_t a, int32_t b, int32_t c);

/* Whether entry e is in use (read by another thread than the writers). */
static inline bool key_entry_used(const struct key_entry *e)
{
	return __atomic_load_n(&e->used, __ATOMIC_ACQUIRE);
}

/* Add v to counter i of e; its writers hold one lock, a reader may be
 * looking. */
static inline void key_entry_add(struct key_entry *e, unsigned i, uint64_t v)
{
	pmpi_bump(&e->v[i], v);
}

/* The same when writers may be several threads without a lock (shared). */
static inline void key_entry_add_by(struct key_entry *e, unsigned i, uint64_t v, bool shared)
{
	if (shared)
		__atomic_fetch_add(&e->v[i], v, __ATOMIC_RELAXED);
	else
		key_entry_add(e, i, v);
}

static inline uint64_t key_entry_value(const struct key_entry *e, unsigned i)
{
	return __atomic_load_n(&e->v[i], __ATOMIC_RELAXED);
}

#define KEY_OWN 4		/* keys a thread owns per site */

/* An entry of a thread's own: its key + 1 (0 while free; no key is
 * UINT64_MAX), its counters. */
struct key_own {
	uint64_t key;
	uint64_t v[KEY_VALUES];
};

/* A thread's own entries of one site, and the one it found last: its
 * byte offset in e, so that zeroed memory is a valid start and the
 * compare needs no index arithmetic. */
struct key_owned {
	uint32_t at;
	struct key_own e[KEY_OWN];
};

/* The entry of key that the thread found last, NULL when that was
 * another: a loop's key costs a compare. */
static inline struct key_own *key_owned_last(struct key_owned *o, uint64_t key)
{
	struct key_own *e = (struct key_own *)((char *)o->e + o->at);

	return e->key == key + 1 ? e : NULL;
}

/* The entry of key among o's, taken when missing; NULL when all are
 * others'.  The key is written last (release): a profile written
 * meanwhile reads only entries whose counters are set. */
struct key_own *key_owned_get(struct key_owned *o, uint64_t key);

/* The key of entry e (read by another thread than the owner), and
 * whether it is in use. */
static inline bool key_own_used(const struct key_own *e, uint64_t *key)
{
	uint64_t k = __atomic_load_n(&e->key, __ATOMIC_ACQUIRE);

	*key = k - 1;
	return k != 0;
}

/* Add v to counter i of e, which only its owner writes. */
static inline void key_own_add(struct key_own *e, unsigned i, uint64_t v)
{
	pmpi_bump(&e->v[i], v);
}

static inline uint64_t key_own_value(const struct key_own *e, unsigned i)
{
	return __atomic_load_n(&e->v[i], __ATOMIC_RELAXED);
}

#endif
