/*
 * way.h - how a call's steps go, chosen once at a quick wrapper's entry
 * (call.h: pmpi_way) and passed down its steps: asking the analyses'
 * state at each step, or the common case's way without a lock (one
 * thread calls MPI) or taking the analyses' lock around what they
 * share, or that way inside a step that holds the lock already
 * (analyses-lock.h), whose analyses then take none.  Any way but
 * PMPI_SLOW is "quick": a step that tests `quick` alone takes the quick
 * ways alike.
 */
#ifndef CPPERF_PMPI_WAY_H
#define CPPERF_PMPI_WAY_H

enum pmpi_way { PMPI_SLOW, PMPI_QUICK, PMPI_QUICK_LOCKED, PMPI_QUICK_HELD };

#endif
