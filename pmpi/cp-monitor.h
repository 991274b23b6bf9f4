/*
 * cp-monitor.h - intermediate values of the critical path during the run
 * (--cp-interval; Hollingsworth's appendix A, docs/critical-path.md): every
 * rank reports its path length to the monitor rank (world rank 0) once per
 * interval, and the monitor keeps, per interval, the largest of the latest
 * values of all ranks as the run's path length so far.
 *
 * Reports travel on a private duplicate of MPI_COMM_WORLD through PMPI_*
 * calls, so they never match, and are never counted as, the program's
 * messages.  Thread-safe; the functions below cannot fail (without memory
 * or a communicator the monitor just records no points).
 */
#ifndef CPPERF_PMPI_CP_MONITOR_H
#define CPPERF_PMPI_CP_MONITOR_H

#include <stdint.h>

/* Inside MPI_Init on every rank, with --cp-interval (collective over MPI_COMM_WORLD): duplicate
 * it for the reports.  Either every rank calls it or none does. */
void pmpi_cpmon_open(void);
/* At MPI_Init's exit on every rank, when the critical path is on and interval_ns > 0; t0 = that
 * exit time (CLOCK_MONOTONIC ns).  Nothing without the communicator of pmpi_cpmon_open. */
void pmpi_cpmon_start(uint64_t interval_ns, uint64_t t0);
/* At the entry of every numbered call, outside any lock: now and the rank's current path length.
 * Costs a compare when no report is due (and, on rank 0, a cheap PMPI_Iprobe at most every
 * interval/10).  Never blocks on another rank. */
void pmpi_cpmon_tick(uint64_t now, uint64_t length);
/* At MPI_Finalize's entry (before PMPI_Finalize, every rank): the final length.  Every rank sends a final report;
 * rank 0 receives all outstanding reports and every rank's final one, then adds a last point whose length is the
 * maximum of the final lengths.  Non-rank-0 ranks Isend and wait for their own sends only; rank 0 waits
 * until every rank has reached its own pmpi_cpmon_end. */
void pmpi_cpmon_end(uint64_t now, uint64_t length);
/* At the end (rank 0): hand the points to the profile (p->cp_points, p->ncp_points; ownership moves).
 * Does nothing on other ranks, or when there are no points. */
struct profile;
void pmpi_cpmon_fill(struct profile *p);

#endif
