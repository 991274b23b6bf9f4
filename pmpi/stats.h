/*
 * stats.h - the statistics that stats.c gathers while the program runs and
 * fill.c copies into the profile: the table of call sites, with the call
 * paths that callpath.c gives them, and what the calls of each site added,
 * kept per thread and summed when the profile is written.
 */
#ifndef CPPERF_PMPI_STATS_H
#define CPPERF_PMPI_STATS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../common/profile.h"
#include "../sampler/rt.h"
#include "bump.h"
#include "call.h"
#include "facts.h"
#include "key-table.h"

#define PMPI_SITES 4096		/* call sites per process (power of 2) */
#define PMPI_COLLS 256		/* (collective, communicator size) pairs */
#define PMPI_PATH_CHECKS 16	/* return addresses checked per call at most */

/* A return address a call of the site must find on its stack: at
 * (char *)call + off, call being the wrapper's struct pmpi_call. */
struct pmpi_check {
	int64_t off;
	uint64_t ra;
};

/* Whether a site's call path is known yet (callpath.c). */
enum pmpi_path { PMPI_PATH_PENDING, PMPI_PATH_DONE };

/*
 * A call site: the key (fn, ra, depth), then the call path that the drain
 * thread found for it (checks, frames).  Wrappers look sites up without a
 * lock: the key is written before used is set (release), the checks
 * before path becomes PMPI_PATH_DONE (release); both are read with
 * acquire.  Sites are added, and frames set, under pmpi_stats_lock.
 */
struct pmpi_site {
	bool used;
	unsigned fn;		/* index into pmpi_fn_names */
	const void *ra;		/* return address in the caller */
	uint64_t depth;		/* thread's stack top - the call's struct pmpi_call, 0 unknown */
	uint8_t path;		/* enum pmpi_path */
	uint32_t ncheck;	/* the call path's return addresses above ra */
	struct pmpi_check *check;
	uint32_t nframes;	/* the call path, outermost first, ending in the */
	uint32_t *frames;	/* caller (0: only ra is known) */
};

/* What the calls of one site added. */
struct pmpi_counts {
	uint64_t calls, sent, recv, time_ns, blocked_ns;
	uint64_t hist[PROF_MPI_HIST];
	/* wait states; late_sender counts those of wrong order too */
	uint64_t wait[PROF_WAITS], wait_comp[PROF_WAITS];
	/* in the sums only: the threads that called, and the calls of the
	 * process's main thread */
	uint64_t threads, main_calls;
	/* in a thread's only: its computation edges into the site and
	 * completions there of requests started elsewhere (graph.h), and the
	 * pairs of sites of the messages it received there (waits.c) */
	struct key_owned edges, completes, pairs;
};

/* A (collective, communicator size) pair, keyed like the sites. */
struct pmpi_coll {
	bool used;
	unsigned fn;
	int64_t comm_size;
};

struct pmpi_coll_counts {
	uint64_t calls, bytes, time_ns;
};

/* Every thread's additions summed (pmpi_stats_total): sites and colls
 * index like the tables, peers by world rank. */
struct pmpi_totals {
	struct pmpi_counts *sites;		/* [PMPI_SITES] */
	struct pmpi_coll_counts *colls;		/* [PMPI_COLLS] */
	uint64_t *peer_count, *peer_bytes;	/* [npeers] */
	int npeers;				/* the world's size when summed */
};

extern pthread_mutex_t pmpi_stats_lock;
extern struct pmpi_site pmpi_sites[PMPI_SITES];
/* The slots of pmpi_sites in use, in the order they were taken: walking
 * them touches no page of the table's unused part.  Under pmpi_stats_lock. */
extern uint16_t pmpi_sites_taken[PMPI_SITES];
extern unsigned pmpi_nsites_taken;
extern struct pmpi_coll pmpi_colls[PMPI_COLLS];

/* The tables for a job of world_size ranks. */
void pmpi_activate(int world_size);
/* Call c's site and this thread's counters of it (c->site, c->counts;
 * PMPI_CALL_FRESH in c->flags when the site is new, its path to be
 * captured): at its entry, for its facts to go there (facts.h), but
 * MPI_Init's at its end, once MPI is up. */
void pmpi_look_up_site(struct pmpi_call *c);
/* Call c's time dt into its site; a collective's (PMPI_CALL_COLL) into
 * its (function, communicator size) too. */
void pmpi_stats_add(struct pmpi_call *c, uint64_t dt);
void pmpi_stats_coll(const struct pmpi_call *c, uint64_t dt);

/* fn(site, s, arg) for every thread's counters s of every site in use. */
void pmpi_counts_each(void (*fn)(int site, const struct pmpi_counts *s, void *arg), void *arg);

/* The sums of every thread's statistics so far; false when memory is
 * short.  pmpi_totals_free releases them. */
bool pmpi_stats_total(struct pmpi_totals *t);
void pmpi_totals_free(struct pmpi_totals *t);

/* callpath.c: the depth of a call for the key, 0 when the thread's stack
 * is unknown. */
uint64_t pmpi_call_depth(const struct pmpi_call *c);
/* Whether call c (of s's key) has s's call path: the return addresses of
 * s->check are where they were.  Needs no lock. */
bool pmpi_path_matches(const struct pmpi_site *s, const struct pmpi_call *c);
/* Whether n checks hold for call c, as pmpi_path_matches for a site whose
 * path is known (stats.c keeps copies of them beside its cache).  Every
 * call asks: inline.  Return addresses sit between other frames' locals,
 * which ASan may have poisoned; the check reads them with plain loads,
 * inside the thread's stack by construction (same depth as at the
 * capture).  All n words are read whatever the first ones hold: no
 * branch per check, and the loads are independent. */
__attribute__((no_sanitize("address")))
static inline bool pmpi_checks_hold(const struct pmpi_check *check, uint32_t n,
				    const struct pmpi_call *c)
{
	const uint8_t *base = (const uint8_t *)c;
	uint64_t differ = 0;

	for (uint32_t i = 0; i < n; i++)
		differ |= *(const volatile uint64_t *)(const volatile void *)(base + check[i].off) ^
			  check[i].ra;
	return !differ;
}
/* The first call of a new site: capture its stack for the drain thread and
 * wait (bounded) until the path is known, so that the next calls can be
 * told apart by it.  Caller holds no lock. */
void pmpi_path_capture(struct pmpi_call *c, int site);
/* Unwind and symbolize the paths captured since the last call (the
 * runtime's resolve hook).  Drain thread only, or the thread that ends the
 * runtime after the drain thread stopped. */
void pmpi_resolve_paths(struct rt_state *rt);

/* fill.c: the tables, the MPI region and, final, the critical path and
 * compensation into rt's profile (the runtime's fill_profile hook). */
void pmpi_fill_profile(struct rt_state *rt, bool final);

#endif
