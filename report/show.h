/*
 * show.h - how the renderers show numbers and names (show.c): percentages,
 * seconds, module and function names.
 */
#ifndef CPPERF_REPORT_SHOW_H
#define CPPERF_REPORT_SHOW_H

#include <stdint.h>
#include "data.h"

/* Percentage part/whole*100, 0 when whole is 0. */
double rep_pct(uint64_t part, uint64_t whole);
/* ns in seconds. */
double rep_secs(uint64_t ns);
/* The samples d unwound, completely or not (saturating at 2^64 - 1). */
uint64_t rep_unwinds(const struct rep_data *d);
/* The last path component of a module path ("" for no module). */
const char *rep_module_name(const struct rep_data *d, uint32_t module);
const char *rep_module_path(const struct rep_data *d, uint32_t module);
/* The function of node n of d's tree, "-" for the root or no node. */
const char *rep_node_function(const struct rep_data *d, uint32_t n);

#endif
