/*
 * out-pprof.h - the call-path tree as pprof's gzipped profile.proto
 * (out-pprof.c).
 */
#ifndef CPPERF_REPORT_OUT_PPROF_H
#define CPPERF_REPORT_OUT_PPROF_H

#include <stdio.h>
#include "model.h"

/* A sample type per event, a sample per call path with self counts.
 * Returns 0 or -1. */
int rep_pprof(FILE *out, const struct rep_model *m);

#endif
