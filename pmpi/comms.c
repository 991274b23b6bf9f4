/*
 * comms.c - what the statistics need to know about a communicator (rank,
 * size, peers of a collective, world ranks of its point-to-point peers),
 * asked of MPI once per communicator and cached by handle.
 *
 * The cache is direct-mapped: a communicator whose slot another one took is
 * asked again (local calls only, no communication).  MPI_Comm_free and
 * MPI_Comm_disconnect drop the entry, since MPI may reuse the handle.
 * Each thread keeps a copy of the facts of the communicator it used last,
 * valid while no entry has changed since (a generation count): the
 * wrappers' common case takes no lock.
 *
 * Whether a communicator's members all belong to this process's
 * MPI_COMM_WORLD (the piggyback rides only on those, piggyback.h) is
 * asked of MPI the first time it is needed, from the groups alone: every
 * member finds the same answer without a message.
 */
#include <stdlib.h>

#include "call.h"
#include "comms.h"

#define CACHE 64

struct comm_info {
	bool valid;
	struct pmpi_comm_facts f;
	bool same;		/* peer i is world rank i (MPI_COMM_WORLD, its copies) */
	int *world;		/* [npeers] world rank of each peer, -1 when none */
	int cap;		/* entries world has room for */
	enum { IN_WORLD_UNKNOWN, IN_WORLD_ALL, IN_WORLD_NOT } in_world;	/* every member */
};

/* Guards cache; held while a missing entry is filled (local MPI calls). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct comm_info cache[CACHE];
/* Entries filled or dropped so far, from 1; written under lock. */
static uint64_t generation = 1;
/* This thread's copy of an entry (world NULL) and the generation it is of,
 * 0 (stale) before its first. */
static __thread struct comm_info last __attribute__((tls_model("initial-exec")));
static __thread uint64_t last_gen __attribute__((tls_model("initial-exec")));

static unsigned slot_of(MPI_Comm comm)
{
	return (unsigned)((PMPI_HKEY(comm) * 0x9e3779b97f4a7c15ull) >> 58) % CACHE;
}

/* Neighbour counts of a topology communicator. */
static void degrees(struct comm_info *e)
{
	int topo = MPI_UNDEFINED, n, w;

	e->f.nin = e->f.nout = e->f.npeers;
	if (PMPI_Topo_test(e->f.comm, &topo) != MPI_SUCCESS)
		return;
	if (topo == MPI_CART && PMPI_Cartdim_get(e->f.comm, &n) == MPI_SUCCESS)
		e->f.nin = e->f.nout = 2 * n;
	else if (topo == MPI_GRAPH &&
		 PMPI_Graph_neighbors_count(e->f.comm, e->f.rank, &n) == MPI_SUCCESS)
		e->f.nin = e->f.nout = n;
	else if (topo == MPI_DIST_GRAPH)
		PMPI_Dist_graph_neighbors_count(e->f.comm, &e->f.nin, &e->f.nout, &w);
}

/* World ranks of the peer group; entries stay -1 when memory is short. */
static void translate(struct comm_info *e)
{
	MPI_Group g, wg;
	int *ranks;

	if (e->cap < e->f.npeers) {
		int *w = realloc(e->world, (size_t)e->f.npeers * sizeof(int));

		if (!w) {
			e->f.npeers = e->cap;
			return;
		}
		e->world = w;
		e->cap = e->f.npeers;
	}
	ranks = malloc((size_t)e->f.npeers * sizeof(int));
	for (int i = 0; i < e->f.npeers; i++)
		e->world[i] = -1;
	if (!ranks)
		return;
	for (int i = 0; i < e->f.npeers; i++)
		ranks[i] = i;
	if ((e->f.inter ? PMPI_Comm_remote_group(e->f.comm, &g) :
			  PMPI_Comm_group(e->f.comm, &g)) == MPI_SUCCESS) {
		if (PMPI_Comm_group(MPI_COMM_WORLD, &wg) == MPI_SUCCESS) {
			PMPI_Group_translate_ranks(g, e->f.npeers, ranks, wg, e->world);
			PMPI_Group_free(&wg);
		}
		PMPI_Group_free(&g);
	}
	e->same = true;
	for (int i = 0; i < e->f.npeers; i++) {
		if (e->world[i] == MPI_UNDEFINED)
			e->world[i] = -1;
		e->same = e->same && e->world[i] == i;
	}
	free(ranks);
}

/* The entry of comm, filled when missing.  Caller holds lock. */
static struct comm_info *info(MPI_Comm comm)
{
	struct comm_info *e = &cache[slot_of(comm)];
	int flag = 0;

	if (e->valid && e->f.comm == comm)
		return e;
	__atomic_store_n(&generation, generation + 1, __ATOMIC_RELAXED);
	e->valid = true;
	e->same = false;
	e->in_world = IN_WORLD_UNKNOWN;
	e->f.comm = comm;
	PMPI_Comm_rank(comm, &e->f.rank);
	PMPI_Comm_size(comm, &e->f.size);
	PMPI_Comm_test_inter(comm, &flag);
	e->f.inter = flag;
	e->f.npeers = e->f.size;
	if (e->f.inter)
		PMPI_Comm_remote_size(comm, &e->f.npeers);
	degrees(e);
	translate(e);
	return e;
}

/* This thread's copy of comm's facts, refreshed (its world stays NULL:
 * that is only read under the lock).  MPI_COMM_NULL has none: asking MPI
 * would raise an error before the program's call raises its own. */
__attribute__((noinline))
static const struct comm_info *facts_anew(MPI_Comm comm)
{
	static const struct comm_info none = { .f = { .comm = MPI_COMM_NULL, .rank = -1 } };

	if (comm == MPI_COMM_NULL)
		return &none;
	pthread_mutex_lock(&lock);
	last = *info(comm);
	last_gen = generation;
	pthread_mutex_unlock(&lock);
	last.world = NULL;
	return &last;
}

/* comm's scalar facts, valid until the thread's next call: its copy
 * when fresh.  A thread asks of one communicator again and again, and
 * the hit needs no frame (the refresh is out of line). */
static inline const struct comm_info *facts(MPI_Comm comm)
{
	if (last.f.comm == comm && last_gen == __atomic_load_n(&generation, __ATOMIC_RELAXED))
		return &last;
	return facts_anew(comm);
}

struct pmpi_comm_facts pmpi_comm_facts(MPI_Comm comm)
{
	return facts(comm)->f;
}

int pmpi_comm_rank(MPI_Comm comm)
{
	return facts(comm)->f.rank;
}

/* Is every process of group g in MPI_COMM_WORLD (false when MPI cannot
 * tell)?  Local calls only. */
static bool group_in_world(MPI_Group g)
{
	MPI_Group wg, rest;
	int n = -1;

	if (PMPI_Comm_group(MPI_COMM_WORLD, &wg) != MPI_SUCCESS)
		return false;
	if (PMPI_Group_difference(g, wg, &rest) == MPI_SUCCESS) {
		PMPI_Group_size(rest, &n);
		PMPI_Group_free(&rest);
	}
	PMPI_Group_free(&wg);
	return n == 0;
}

/* Every member of e's communicator, in both groups of an
 * intercommunicator, is in MPI_COMM_WORLD. */
static bool all_in_world(const struct comm_info *e)
{
	MPI_Group g;
	bool in;

	if (!e->f.inter && e->same)	/* MPI_COMM_WORLD and its copies */
		return true;
	if (PMPI_Comm_group(e->f.comm, &g) != MPI_SUCCESS)
		return false;
	in = group_in_world(g);
	PMPI_Group_free(&g);
	if (!in || !e->f.inter)
		return in;
	if (PMPI_Comm_remote_group(e->f.comm, &g) != MPI_SUCCESS)
		return false;
	in = group_in_world(g);
	PMPI_Group_free(&g);
	return in;
}

/* Whether comm spans MPI_COMM_WORLD's processes alone, worked out once
 * per communicator: out of line, as facts_anew. */
__attribute__((noinline))
static bool in_world_anew(MPI_Comm comm)
{
	struct comm_info *e;
	bool in;

	pthread_mutex_lock(&lock);
	e = info(comm);
	if (e->in_world == IN_WORLD_UNKNOWN)
		e->in_world = all_in_world(e) ? IN_WORLD_ALL : IN_WORLD_NOT;
	in = e->in_world == IN_WORLD_ALL;
	if (last_gen == generation)	/* this thread's copy is of comm */
		last.in_world = e->in_world;
	pthread_mutex_unlock(&lock);
	return in;
}

bool pmpi_comm_in_world(MPI_Comm comm)
{
	const struct comm_info *f;

	if (comm == MPI_COMM_NULL)	/* the program's call fails in MPI alone */
		return false;
	f = facts(comm);
	if (f->in_world != IN_WORLD_UNKNOWN)
		return f->in_world == IN_WORLD_ALL;
	return in_world_anew(comm);
}

/* Rank r of comm in MPI_COMM_WORLD, looked up in its table: out of line,
 * as facts_anew. */
__attribute__((noinline))
static int64_t world_rank_looked_up(MPI_Comm comm, int r)
{
	struct comm_info *e;
	int64_t w = -1;

	pthread_mutex_lock(&lock);
	e = info(comm);
	if (r < e->f.npeers && e->world)
		w = e->world[r];
	pthread_mutex_unlock(&lock);
	return w;
}

int64_t pmpi_world_rank(MPI_Comm comm, int r)
{
	const struct comm_info *f;

	if (r < 0 || comm == MPI_COMM_NULL)
		return -1;
	f = facts(comm);
	if (f->same)
		return r < f->f.npeers ? r : -1;
	return world_rank_looked_up(comm, r);
}

void pmpi_comm_forget(MPI_Comm comm)
{
	struct comm_info *e = &cache[slot_of(comm)];

	pthread_mutex_lock(&lock);
	if (e->valid && e->f.comm == comm) {
		e->valid = false;
		__atomic_store_n(&generation, generation + 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&lock);
}
