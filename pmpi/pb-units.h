/*
 * pb-units.h - the door between the piggyback's transport and the
 * analyses that ride on it (docs/mpi.md "Piggyback").
 *
 * Each analysis is a unit with the same small interface: it stamps its
 * fields into a piggyback that leaves with a call, and merges a received
 * one when a receive completes and a collective's merged one when the
 * collective completes.  pb-units.c calls the units and fixes the order
 * they run in; the transport (p2p.c, piggyback-coll.c) calls the
 * pb_units_* functions at the end of this file and names no unit.  The
 * fields themselves and how a collective combines the ranks'
 * contributions are in pb.h and pb-rules.h.
 */
#ifndef CPPERF_PMPI_PB_UNITS_H
#define CPPERF_PMPI_PB_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include "pb.h"
#include "way.h"

struct pmpi_call;
struct pmpi_pb_coll;

/* A piggyback that arrived, as the transport knows it. */
struct pb_arrival {
	struct pmpi_call *c;	/* the call that completed it */
	uint64_t t;		/* when: the user's data were in */
	uint64_t bytes;		/* a message's size; 0 for a collective */
	uint64_t t_post;	/* when a message's receive was posted, 0 unknown */
	struct pmpi_pb_coll *x;	/* a collective's companion, NULL for a message */
	enum pmpi_pb_dir dir;	/* a collective's direction: x->dir, a constant
				 * where the caller knows it */
};

struct rt_state;

/*
 * What a unit does, each where it has something to do (pb_<unit>_<op>
 * below):
 *   stamp       its fields of pb, which leaves with call c (pb's transport
 *               fields, rank, site and t_send, are set); quick as call.h
 *               says, where a unit has a use for it;
 *   stamp_core  the same for a message whose header is the core alone
 *               (k->t_send set): a unit with stamp has this too;
 *   stamp_coll  a collective's contribution, after stamp (x->dir, x->heap
 *               set; a quick one's as piggyback.h says);
 *   recv        a message's piggyback pb arrived (a->c's site looked up,
 *               its path captured when the call ends);
 *   coll        a collective's merged piggyback (a->x->out) arrived;
 *   coll_after  after the collective's merge and the charge of the
 *               transport's work: what may communicate (blocking
 *               collectives only);
 *   wants_who   whether it needs every participant's piggyback of a
 *               collective gathered beside the companion (x->who), not
 *               only the merged one;
 *   wanted      whether it runs in this process (its options); a unit
 *               without it always runs.  A unit that does not run costs
 *               nothing.
 * They are called by name, not through a table of pointers: the
 * link-time optimizer then inlines them into the sends and receives that
 * every message passes through (a frame and a call less per unit).
 */

/* The critical path, zeroing, fold points (cp-unit.c). */
void pb_cp_stamp(struct pmpi_pb *pb, const struct pmpi_call *c, enum pmpi_way quick);
void pb_cp_stamp_core(struct pmpi_pb_core *k, const struct pmpi_call *c, enum pmpi_way quick);
void pb_cp_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
		      const struct pmpi_pb_coll *x, enum pmpi_way quick);
void pb_cp_recv(const struct pb_arrival *a, struct pmpi_pb *pb, enum pmpi_way quick);
void pb_cp_coll(const struct pb_arrival *a, enum pmpi_way quick);
void pb_cp_coll_after(const struct pb_arrival *a, enum pmpi_way quick);
bool pb_cp_wants_who(void);

/* Wait states, site pairs (waits.c). */
bool pb_waits_wanted(const struct rt_state *rt);
void pb_waits_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			 const struct pmpi_pb_coll *x);
void pb_waits_recv(const struct pb_arrival *a, struct pmpi_pb *pb);
void pb_waits_coll(const struct pb_arrival *a);

/* Overhead compensation (compensate.c). */
void pb_comp_stamp(struct pmpi_pb *pb, const struct pmpi_call *c, enum pmpi_way quick);
void pb_comp_stamp_core(struct pmpi_pb_core *k, const struct pmpi_call *c, enum pmpi_way quick);
void pb_comp_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			const struct pmpi_pb_coll *x, enum pmpi_way quick);
void pb_comp_recv(const struct pb_arrival *a, struct pmpi_pb *pb, enum pmpi_way quick);
void pb_comp_coll(const struct pb_arrival *a, enum pmpi_way quick);

/* At MPI_Init, once the options are known: the units that run. */
void pb_units_start(const struct rt_state *rt);

/* The running units, in their order. */
void pb_units_stamp(struct pmpi_pb *pb, const struct pmpi_call *c, enum pmpi_way quick);
void pb_units_stamp_core(struct pmpi_pb_core *k, const struct pmpi_call *c, enum pmpi_way quick);
void pb_units_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			 const struct pmpi_pb_coll *x, enum pmpi_way quick);
void pb_units_recv(const struct pb_arrival *a, struct pmpi_pb *pb, enum pmpi_way quick);
void pb_units_coll(const struct pb_arrival *a, enum pmpi_way quick);
void pb_units_coll_after(const struct pb_arrival *a, enum pmpi_way quick);
bool pb_units_want_who(void);

#endif
