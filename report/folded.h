/*
 * folded.h - the call-path tree as folded stacks, one line per path with its
 * count, for FlameGraph and speedscope (folded.c).
 */
#ifndef CPPERF_REPORT_FOLDED_H
#define CPPERF_REPORT_FOLDED_H

#include <stdint.h>
#include <stdio.h>
#include "data.h"
#include "tree.h"

/* Write the paths of cp with a count of event; returns 0 or -1. */
int rep_folded(FILE *out, const struct rep_data *d, const struct tree_view *cp,
	       uint32_t event);

#endif
