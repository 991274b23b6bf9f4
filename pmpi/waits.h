/*
 * waits.h - the wait states' unit (waits.c) beside the piggyback: what a
 * call adds to its site when it ends, and what the profile gets.
 */
#ifndef CPPERF_PMPI_WAITS_H
#define CPPERF_PMPI_WAITS_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/profile.h"

struct pmpi_call;

/* Wait states and the activity graph are kept (not --no-waits; set at
 * MPI_Init with the piggyback's units, pb-units.h). */
extern bool pmpi_waits_on;

/* Call c, with wait states, ends (its site known; they are in its
 * site's counters): whether its earliest message proves the thread's
 * last Late Sender of wrong order; its own kept for telling a later
 * call's. */
void pmpi_waits_leave(struct pmpi_call *c);
/* Into p, whose sites are filled: the slots (site_of: the profile site of
 * each slot of the site table, UINT32_MAX for none), the pairs of sites,
 * the clock's offset and drift.  final: the profile at the end, which
 * says what could not be kept. */
void pmpi_waits_fill(struct profile *p, const uint32_t *site_of, bool final);

#endif
