/*
 * pb-units.h - the door between the piggyback's transport and the
 * analyses that ride on it (docs/mpi.md "Piggyback").
 *
 * Each analysis is a unit with the same small interface: it stamps its
 * fields into a piggyback that leaves with a call, and merges a received
 * one when a receive completes and a collective's merged one when the
 * collective completes.  The units are registered in one table
 * (pb-units.c), which also fixes the order they run in; the transport
 * (p2p.c, piggyback-coll.c) calls the functions below and names none of
 * them.  The fields themselves and how a collective combines the ranks'
 * contributions are in pb.h and pb-rules.h.
 */
#ifndef CPPERF_PMPI_PB_UNITS_H
#define CPPERF_PMPI_PB_UNITS_H

#include <stdbool.h>
#include <stdint.h>

struct pmpi_call;
struct pmpi_pb;
struct pmpi_pb_core;
struct pmpi_pb_coll;

/* A piggyback that arrived, as the transport knows it. */
struct pb_arrival {
	struct pmpi_call *c;	/* the call that completed it */
	uint64_t t;		/* when: the user's data were in */
	uint64_t bytes;		/* a message's size; 0 for a collective */
	uint64_t t_post;	/* when a message's receive was posted, 0 unknown */
	struct pmpi_pb_coll *x;	/* a collective's companion, NULL for a message */
};

struct rt_state;

struct pb_unit {
	const char *name;
	/* Whether it runs in this process (its options); NULL: always.  A
	 * unit that does not run costs nothing. */
	bool (*wanted)(const struct rt_state *rt);
	/* Its fields of pb, which leaves with call c (pb's transport fields,
	 * rank, site and t_send, are set). */
	void (*stamp)(struct pmpi_pb *pb, const struct pmpi_call *c);
	/* The same for a message whose header is the core alone (k->t_send
	 * set): a unit with stamp has this too. */
	void (*stamp_core)(struct pmpi_pb_core *k, const struct pmpi_call *c);
	/* A collective's contribution, after stamp (x->dir, x->heap set). */
	void (*stamp_coll)(struct pmpi_pb *pb, const struct pmpi_call *c,
			   const struct pmpi_pb_coll *x);
	/* A message's piggyback pb arrived (a->c's site looked up, its path
	 * captured when the call ends). */
	void (*recv)(const struct pb_arrival *a, struct pmpi_pb *pb);
	/* A collective's merged piggyback (a->x->out) arrived. */
	void (*coll)(const struct pb_arrival *a);
	/* After the collective's merge and the charge of the transport's
	 * work: what may communicate (blocking collectives only). */
	void (*coll_after)(const struct pb_arrival *a);
	/* Whether it needs every participant's piggyback of a collective
	 * gathered beside the companion (x->who), not only the merged one. */
	bool (*wants_who)(void);
};

/* The units, each a file of its own. */
extern const struct pb_unit pb_unit_critpath;	/* critical path, zeroing, fold points */
extern const struct pb_unit pb_unit_waits;	/* wait states, site pairs */
extern const struct pb_unit pb_unit_comp;	/* overhead compensation */

/* At MPI_Init, once the options are known: the units that run. */
void pb_units_start(const struct rt_state *rt);

/* The running units in the table's order. */
void pb_units_stamp(struct pmpi_pb *pb, const struct pmpi_call *c);
void pb_units_stamp_core(struct pmpi_pb_core *k, const struct pmpi_call *c);
void pb_units_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			 const struct pmpi_pb_coll *x);
void pb_units_recv(const struct pb_arrival *a, struct pmpi_pb *pb);
void pb_units_coll(const struct pb_arrival *a);
void pb_units_coll_after(const struct pb_arrival *a);
bool pb_units_want_who(void);

#endif
