/*
 * flat.h - self and total per function, recursion counted once (flat.c).
 */
#ifndef CPPERF_REPORT_FLAT_H
#define CPPERF_REPORT_FLAT_H

#include <stddef.h>
#include <stdint.h>
#include "data.h"
#include "tree.h"

/* One function: (demangled name, module).  Strings belong to rep_data. */
struct flat_fn {
	const char *name;
	uint32_t module;	/* index into syms.modules or SYMTAB_NO_MODULE */
	const char *file;	/* of the first frame seen */
	uint32_t line;
	uint64_t *self;		/* [nevents] */
	uint64_t *total;	/* [nevents]: samples with the function on the path */
	/* over the nranks MPI ranks (0 when not MPI), the function's self
	 * samples of the first event: min, mean, max and the (lowest) rank
	 * of the max, -1 when no rank has any (spread.c) */
	uint32_t nranks;
	uint64_t rank_min, rank_max;
	double rank_mean;
	int64_t rank_max_at;
};

struct flat {
	struct flat_fn *fns;	/* sorted by self of sort_event desc, then name */
	uint32_t nfns;
	uint32_t nevents;
	uint64_t *all;		/* [nevents] all samples (the root's total) */
	uint64_t *counts;	/* storage for self and total */
};

/* Build the flat profile of d from cp, built over d->tree or over a tree
 * of d's frames with other counts (the critical path's, the thread
 * activity's columns: f->nevents is cp's; the spread over the ranks only
 * for d's events).  Totals count
 * a sample once per function even under recursion.  Returns 0, or -1 when
 * memory is short. */
int flat_build(struct flat *f, const struct rep_data *d, const struct tree_view *cp,
	       uint32_t sort_event, char *err, size_t errlen);
void flat_release(struct flat *f);

#endif
