/*
 * out-json.h - the JSON report (out-json.c, out-json-mpi.c, out-json-waits.c,
 * out-json-cp.c); its keys are documented in docs/json.md.
 */
#ifndef CPPERF_REPORT_OUT_JSON_H
#define CPPERF_REPORT_OUT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cluster.h"
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "flat.h"
#include "json.h"
#include "model.h"
#include "tree.h"

/* JSON of the whole report of m: "critical_path" filled when m->cpr is
 * there, else written empty with m->cp_why saying why when known; the
 * "compensation" and the "ranks" times as m->comp says; "callpath" leaves
 * out nodes left without counts when --compensate removed samples;
 * "ranks" of a large job lists some (rank-list.h) unless --all-ranks;
 * "clusters" and "graph" with m->cl.  Returns 0 or -1. */
int rep_json(FILE *out, const struct rep_model *m);
/* The same for the HTML page: without what the page does not show and
 * what grows with the run's length ("threads" unless it has thread
 * activity, the spreads, the runs of "path"), every rank listed. */
int rep_json_page(FILE *out, const struct rep_model *m);
/* A call-path tree as JSON at the writer's position (the "callpath"
 * shape); skip_zero leaves out nodes without counts below the root;
 * spreads adds each node's spread over the MPI ranks (d's own tree only;
 * the page does without). */
int rep_json_tree(struct json_w *w, const struct rep_data *d, const struct tree_view *cp,
		  double min_pct, bool skip_zero, bool spreads);
/* "critical_path" (out-json-cp.c), its tree pruned like "callpath"; r
 * NULL writes it empty, "unavailable" saying why (why, or no data); runs
 * false leaves "path" empty.
 * Returns 0 or -1 (memory). */
int rep_json_cpath(struct json_w *w, const struct rep_data *d,
		   const struct cpath_result *r, const char *why, double min_pct,
		   enum rep_comp comp, bool runs);
/* The MPI keys of the JSON report (out-json-mpi.c): inside "experiment",
 * and the top-level "ranks" (wall and blocked as comp says, plus the
 * compensation keys) and "mpi". */
void rep_json_mpi_experiment(struct json_w *w, const struct rep_data *d);
/* "rank": the MPI rank, null for a process outside the job (-1). */
void rep_json_rank(struct json_w *w, int64_t rank);
/* all_ranks: list every rank in "ranks", not only those of rank-list.h.
 * Returns 0 or -1 (memory). */
int rep_json_mpi(struct json_w *w, const struct rep_data *d, bool all_ranks);
/* "key": ns in seconds. */
void rep_json_seconds(struct json_w *w, const char *key, uint64_t ns);
/* Frame fr of d as an object: function, module, file, line. */
void rep_json_frame(struct json_w *w, const struct rep_data *d, uint32_t fr);
/* A call site's "function" and "callpath" keys, as --view=mpi names it
 * (out-json-mpi.c). */
struct rep_site;
void rep_json_site_name(struct json_w *w, const struct rep_data *d, const struct rep_site *s);
/* "waits" (out-json-waits.c): the wait states of every call site, the
 * pairs of sites, the culprits; nothing when d has no wait states. */
void rep_json_waits(struct json_w *w, const struct rep_data *d);
/* "clusters" and "graph" (out-json-graph.c): the classes of r and the
 * graph collapsed by class.  Returns 0 or -1 (memory). */
int rep_json_graph(struct json_w *w, const struct rep_data *d, const struct cl_result *r);

#endif
