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
	MPI_Comm comm;
	int rank, size;		/* in the local group */
	bool inter;
	int npeers;		/* size, or remote size of an intercommunicator */
	int nin, nout;		/* neighbours of a topology, else npeers */
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

	e->nin = e->nout = e->npeers;
	if (PMPI_Topo_test(e->comm, &topo) != MPI_SUCCESS)
		return;
	if (topo == MPI_CART && PMPI_Cartdim_get(e->comm, &n) == MPI_SUCCESS)
		e->nin = e->nout = 2 * n;
	else if (topo == MPI_GRAPH && PMPI_Graph_neighbors_count(e->comm, e->rank, &n) == MPI_SUCCESS)
		e->nin = e->nout = n;
	else if (topo == MPI_DIST_GRAPH)
		PMPI_Dist_graph_neighbors_count(e->comm, &e->nin, &e->nout, &w);
}

/* World ranks of the peer group; entries stay -1 when memory is short. */
static void translate(struct comm_info *e)
{
	MPI_Group g, wg;
	int *ranks;

	if (e->cap < e->npeers) {
		int *w = realloc(e->world, (size_t)e->npeers * sizeof(int));

		if (!w) {
			e->npeers = e->cap;
			return;
		}
		e->world = w;
		e->cap = e->npeers;
	}
	ranks = malloc((size_t)e->npeers * sizeof(int));
	for (int i = 0; i < e->npeers; i++)
		e->world[i] = -1;
	if (!ranks)
		return;
	for (int i = 0; i < e->npeers; i++)
		ranks[i] = i;
	if ((e->inter ? PMPI_Comm_remote_group(e->comm, &g) : PMPI_Comm_group(e->comm, &g)) == MPI_SUCCESS) {
		if (PMPI_Comm_group(MPI_COMM_WORLD, &wg) == MPI_SUCCESS) {
			PMPI_Group_translate_ranks(g, e->npeers, ranks, wg, e->world);
			PMPI_Group_free(&wg);
		}
		PMPI_Group_free(&g);
	}
	e->same = true;
	for (int i = 0; i < e->npeers; i++) {
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

	if (e->valid && e->comm == comm)
		return e;
	__atomic_store_n(&generation, generation + 1, __ATOMIC_RELAXED);
	e->valid = true;
	e->same = false;
	e->in_world = IN_WORLD_UNKNOWN;
	e->comm = comm;
	PMPI_Comm_rank(comm, &e->rank);
	PMPI_Comm_size(comm, &e->size);
	PMPI_Comm_test_inter(comm, &flag);
	e->inter = flag;
	e->npeers = e->size;
	if (e->inter)
		PMPI_Comm_remote_size(comm, &e->npeers);
	degrees(e);
	translate(e);
	return e;
}

/* This thread's copy of comm's facts, refreshed (its world stays NULL:
 * that is only read under the lock). */
__attribute__((noinline))
static const struct comm_info *facts_anew(MPI_Comm comm)
{
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
	if (last.comm == comm && last_gen == __atomic_load_n(&generation, __ATOMIC_RELAXED))
		return &last;
	return facts_anew(comm);
}

int pmpi_npeers(MPI_Comm comm, enum pmpi_peers kind)
{
	const struct comm_info *e = facts(comm);

	return kind == PMPI_PEERS_NIN ? e->nin : kind == PMPI_PEERS_NOUT ? e->nout : e->npeers;
}

int pmpi_comm_rank(MPI_Comm comm)
{
	return facts(comm)->rank;
}

int pmpi_comm_size(MPI_Comm comm)
{
	return facts(comm)->size;
}

bool pmpi_comm_inter(MPI_Comm comm)
{
	return facts(comm)->inter;
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

	if (!e->inter && e->same)	/* MPI_COMM_WORLD and its copies */
		return true;
	if (PMPI_Comm_group(e->comm, &g) != MPI_SUCCESS)
		return false;
	in = group_in_world(g);
	PMPI_Group_free(&g);
	if (!in || !e->inter)
		return in;
	if (PMPI_Comm_remote_group(e->comm, &g) != MPI_SUCCESS)
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
	if (r < e->npeers && e->world)
		w = e->world[r];
	pthread_mutex_unlock(&lock);
	return w;
}

int64_t pmpi_world_rank(MPI_Comm comm, int r)
{
	const struct comm_info *f;

	if (r < 0)
		return -1;
	f = facts(comm);
	if (f->same)
		return r < f->npeers ? r : -1;
	return world_rank_looked_up(comm, r);
}

/* Root significance: an intracommunicator's root is rank root; in an
 * intercommunicator the root passes MPI_ROOT, the rest of its group
 * MPI_PROC_NULL, and the other group the root's rank. */
bool pmpi_is_root(MPI_Comm comm, int root)
{
	const struct comm_info *e = facts(comm);

	return e->inter ? root == MPI_ROOT : e->rank == root;
}

bool pmpi_is_leaf(MPI_Comm comm, int root)
{
	return facts(comm)->inter ? root != MPI_ROOT && root != MPI_PROC_NULL : true;
}

bool pmpi_is_nonroot(MPI_Comm comm, int root)
{
	const struct comm_info *e = facts(comm);

	return e->inter ? root != MPI_ROOT && root != MPI_PROC_NULL : e->rank != root;
}

void pmpi_comm_forget(MPI_Comm comm)
{
	struct comm_info *e = &cache[slot_of(comm)];

	pthread_mutex_lock(&lock);
	if (e->valid && e->comm == comm) {
		e->valid = false;
		__atomic_store_n(&generation, generation + 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&lock);
}
