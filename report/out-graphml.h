/*
 * out-graphml.h - `cpperf report --format=graphml` (out-graphml.c): the
 * ranks' activity graph collapsed by class, for graph tools (yEd, Gephi,
 * NetworkX).
 */
#ifndef CPPERF_REPORT_OUT_GRAPHML_H
#define CPPERF_REPORT_OUT_GRAPHML_H

#include <stdio.h>
#include "model.h"

/* The classes r found among d's ranks as one directed GraphML graph: a
 * node per class and call site of its representative, its computation
 * edges, and the messages each representative received (docs/graph.md).
 * Returns 0, or -1 on a write error or when memory is short. */
int rep_graphml(FILE *out, const struct rep_model *m);

#endif
