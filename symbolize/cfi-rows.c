/*
 * cfi-rows.c - the CFI rows whose rules were derived, by address range,
 * for rules.c.
 *
 * A row of a function's call frame information holds for a range of
 * addresses (up to the next advance of its program), and the rule rules.c
 * derives from it is the same for every address of the range.  Compiled
 * loops put many sampled addresses in one row: on NAS LU each rank derived
 * about 2 600 rules at about 6 us each (libdw's FDE search and the run of
 * the CIE and FDE programs).  A row is kept from the first address whose
 * rule was derived in it to its end (libdw's start of a row can be too
 * early, see rules.c), sorted, so a later address inside copies its rule:
 * 0.7 us an address against 3.7 us from libdw in test-symbolize.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* The index of the first row starting above addr. */
static uint32_t upper(const struct sym_rows *t, uint64_t addr)
{
	return sym_upper(t->v, t->n, sizeof(*t->v), addr);
}

const struct sym_row *sym_row_find(const struct sym_rows *t, uint64_t addr)
{
	uint32_t i = upper(t, addr);

	return i && addr < t->v[i - 1].hi ? &t->v[i - 1] : NULL;
}

void sym_row_add(struct sym_rows *t, const struct sym_row *row)
{
	uint32_t i = upper(t, row->lo);
	uint64_t lo = row->lo, hi = row->hi;

	/* rules hold for any part of a row: the part not kept yet is kept */
	if (i && t->v[i - 1].hi > lo)
		lo = t->v[i - 1].hi;
	if (i < t->n && t->v[i].lo < hi)
		hi = t->v[i].lo;
	if (lo >= hi)
		return;
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 256;
		struct sym_row *v = realloc(t->v, (size_t)cap * sizeof(*v));

		if (!v)
			return;	/* not kept: derived again next time */
		t->v = v;
		t->cap = cap;
	}
	memmove(t->v + i + 1, t->v + i, (size_t)(t->n - i) * sizeof(*t->v));
	t->v[i] = *row;
	t->v[i].lo = lo;
	t->v[i].hi = hi;
	t->n++;
}

void sym_rows_forget(struct sym_rows *t, uint64_t lo, uint64_t hi)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < t->n; i++)
		if (t->v[i].hi <= lo || t->v[i].lo >= hi)
			t->v[k++] = t->v[i];
	t->n = k;
}

void sym_rows_release(struct sym_rows *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
