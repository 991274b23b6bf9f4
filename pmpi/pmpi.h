/*
 * pmpi.h - what the generated MPI wrappers (build/gen/pmpi-wrappers.c, from
 * pmpi/mpi-api.def) call, and the runtime's CPPERF_EXPORT that marks them,
 * in one include for the generated code alone; the hand-written files
 * include the headers of the units they use.
 */
#ifndef CPPERF_PMPI_H
#define CPPERF_PMPI_H

#include "../sampler/rt.h"
#include "call.h"
#include "comms.h"
#include "facts.h"
#include "fortran.h"
#include "init.h"
#include "requests.h"

#endif
