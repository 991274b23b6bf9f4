/*
 * folded.h - the call-path tree as folded stacks, one line per path with its
 * count, for FlameGraph and speedscope (folded.c).
 */
#ifndef CPPERF_REPORT_FOLDED_H
#define CPPERF_REPORT_FOLDED_H

#include <stdint.h>
#include <stdio.h>
#include "model.h"

/* Write the paths of m's call-path tree (the critical path's for
 * --view=cp) with a count of the event shown; returns 0 or -1. */
int rep_folded(FILE *out, const struct rep_model *m);

#endif
