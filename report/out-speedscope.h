/*
 * out-speedscope.h - the report in speedscope's file format
 * (out-speedscope.c).
 */
#ifndef CPPERF_REPORT_OUT_SPEEDSCOPE_H
#define CPPERF_REPORT_OUT_SPEEDSCOPE_H

#include <stdio.h>
#include "model.h"

/* The merged tree as one sampled profile per event, then each of the
 * model's ranks of their own as one of the first event.  Returns 0 or -1. */
int rep_speedscope(FILE *out, const struct rep_model *m);

#endif
