/*
 * compensation.h - overhead compensation in the report (compensation.c): the
 * samples of cpperf's own runtime kept while merging, the compensated
 * per-rank times and the profile without the tool's samples.
 */
#ifndef CPPERF_REPORT_COMPENSATION_H
#define CPPERF_REPORT_COMPENSATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "data.h"

/* --compensate: the zero value is the default. */
enum rep_comp { REP_COMP_PARALLEL, REP_COMP_LOCAL, REP_COMP_NONE };

/*
 * Keep the samples of cpperf's own runtime that p (a profile with comp_on)
 * took: every node of p's tree with self counts whose frame's module
 * is cpperf's runtime (symtab_runtime_module), node ids mapped through nmap and
 * counts through emap into d->tool.  Nothing is kept when comp_on is 0.
 * Returns 0, or -1 when memory is short.
 */
int comp_merge_add(struct rep_data *d, const struct profile *p, const uint32_t *nmap,
		   const uint32_t *emap, char *err, size_t errlen);
void comp_merge_release(struct rep_tool *t);

/* The mode's name: "parallel", "local" or "none". */
const char *comp_mode_name(enum rep_comp m);
/* Whether any process of d has compensation data (comp_on). */
bool comp_present(const struct rep_data *d);
/* Total overhead o of a rank: sample + wrapper + piggyback + drain + inject
 * (saturating at 2^64 - 1). */
uint64_t comp_overhead_ns(const struct prof_overhead *o);
/* Compensated walls of r: comp_wall - delay (parallel), comp_wall - overhead
 * (local); 0 when what is removed exceeds the wall.  Meaningful only when
 * r->comp_on. */
uint64_t comp_wall_parallel_ns(const struct rep_rank *r);
uint64_t comp_wall_local_ns(const struct rep_rank *r);
/* The wall and blocked time the rank table shows under mode m: measured
 * when m is REP_COMP_NONE or the rank has no compensation data; else the
 * compensated wall, and for parallel the compensated wait W'. */
uint64_t comp_rank_wall_ns(const struct rep_rank *r, enum rep_comp m);
uint64_t comp_rank_blocked_ns(const struct rep_rank *r, enum rep_comp m);
struct cpath_result;
/* The critical path's length in compensated time into *ns: its length
 * less what mode m removes from the rank where it ends (final delay, or
 * overhead); false when m is REP_COMP_NONE or that rank has no
 * compensation data. */
bool comp_cp_length_ns(const struct rep_data *d, const struct cpath_result *r, enum rep_comp m,
		       uint64_t *ns);

/* d's tree without the tool's samples, sharing d->tree's structure. */
struct comp_tree {
	struct cct tree;	/* read-only: parent, frame, slots are d->tree's */
	uint64_t *self;		/* owned: the counts with the tool's removed */
	uint64_t *removed;	/* [nevents] samples removed per event */
};

/*
 * Under m (local or parallel) with tool samples in d, fill t with d's tree
 * minus d->tool and return 1; otherwise (REP_COMP_NONE, or nothing to
 * remove) return 0 and leave t empty.  Node ids are d->tree's.  Returns -1
 * when memory is short.  comp_tree_release frees what t owns.
 */
int comp_tree_build(struct comp_tree *t, const struct rep_data *d, enum rep_comp m,
		    char *err, size_t errlen);
void comp_tree_release(struct comp_tree *t);

#endif
