/*
 * out-hatchet.h - the call-path tree in Hatchet's literal format
 * (out-hatchet.c).
 */
#ifndef CPPERF_REPORT_OUT_HATCHET_H
#define CPPERF_REPORT_OUT_HATCHET_H

#include <stdio.h>
#include "model.h"

/* Every event, derived metric, critical-path and MPI time per call path,
 * as one tree under "<root>".  Returns 0 or -1. */
int rep_hatchet(FILE *out, const struct rep_model *m);

#endif
