/*
 * merge.h - fold profiles one at a time into a struct rep_data (merge.c).
 */
#ifndef CPPERF_REPORT_MERGE_H
#define CPPERF_REPORT_MERGE_H

#include <stddef.h>
#include "data.h"
#include "merge-cp.h"

/* Initialise an empty merge.  Returns 0, or -1 when memory is short. */
int merge_init(struct rep_data *d);
void merge_release(struct rep_data *d);

/*
 * What of p merge_add can do before it, needing p alone (for a thread that
 * reads profiles ahead): its critical-path data, into *prep (NULL when it
 * has none).  Returns 0, or -1 with a message in err.
 */
int merge_prepare(const struct profile *p, struct cpath_prep **prep, char *err, size_t errlen);
void merge_prepared_free(struct cpath_prep *prep);

/*
 * Fold profile p (read from the file called name, used in messages) into d:
 * its modules and frames are re-interned into d->syms, its nodes replayed
 * into d->tree, its threads appended.  Events are matched by name; every
 * profile must have the same set.  prep is merge_prepare's result, taken
 * over (NULL: prepared here).  Time is linear in p's size.  Returns 0, or
 * -1 with a message in err (d stays valid but partly merged).
 */
int merge_add(struct rep_data *d, const struct profile *p, struct cpath_prep *prep,
	      const char *name, char *err, size_t errlen);

/* Demangle every frame name once, sort the threads and finish the MPI
 * data (its wait states' pairs and culprits).  Call after the last
 * merge_add.  Returns 0, or -1 when memory is short. */
int merge_finish(struct rep_data *d, char *err, size_t errlen);

/* Index of the event called name, or -1 with err listing the events. */
int rep_event_index(const struct rep_data *d, const char *name,
		    char *err, size_t errlen);

#endif
