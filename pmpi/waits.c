/*
 * waits.c - the wait states as a unit of the piggyback (pb-units.h,
 * docs/waits.md): why a call waited, in Scalasca's categories, found
 * online from what the piggyback carries (the sender's rank, site and
 * send time; a collective's latest entry), on rank 0's clock
 * (clock-align.h) and, with compensation, without the tool's delay.
 *
 * A receive's Late Sender and a collective's wait are kept in the call
 * (the latest sender of a Waitall's messages) and added to its site when
 * it ends; a message's pair of sites is counted when it arrives.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sampler/rt.h"
#include "call.h"
#include "facts.h"
#include "piggyback.h"
#include "pb-units.h"
#include "compensate.h"
#include "clock-align.h"
#include "wait-rules.h"
#include "key-table.h"
#include "stats.h"
#include "waits.h"

/* the pairs: receiving site, sender's rank and slot */
enum { PAIR_COUNT, PAIR_BYTES, PAIR_LS, PAIR_LS_COMP, PAIR_LR, PAIR_LR_COMP };
static struct key_table pairs;		/* untouched pages until used */
static pthread_mutex_t pairs_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread struct wait_order order __attribute__((tls_model("initial-exec"))) = { .site = -1 };

static void waits_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			     const struct pmpi_pb_coll *x)
{
	(void)x;
	pb->t_enter = c->t0 + (uint64_t)pmpi_clock_me;
	pb->t_enter_free = pb->t_enter - c->x0;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The entry of the pair (call c's site, known; the sender's rank and
 * slot), through the site's hint: a receive site mostly hears from one
 * sender's site.  NULL when the table is full. */
__attribute__((noinline))
static struct key_entry *pair_miss(struct pmpi_call *c, int32_t rank, int32_t slot)
{
	struct pmpi_site_hints *h = c->hints;
	uint64_t from = PMPI_PAIR_FROM(rank, slot);
	struct key_entry *e;

	pmpi_lock(&pairs_lock);
	e = key_table_get(&pairs, c->site, rank, slot);
	pmpi_unlock(&pairs_lock);
	if (e && h) {
		h->pair_from = from;
		h->pair = e;
	}
	return e;
}

static struct key_entry *pair_of(struct pmpi_call *c, int32_t rank, int32_t slot)
{
	struct pmpi_site_hints *h = c->hints;

	return h && h->pair_from == PMPI_PAIR_FROM(rank, slot) ? h->pair : pair_miss(c, rank, slot);
}

/* Count the pair of call c's site (known) and the site of the message pb
 * that arrived (a): the message, its Late Sender ls (ls_comp), and the
 * Late Receiver of a synchronous send (the sender, whose data left at
 * `sent`, waited until the receive was posted).  Entries are added to
 * without a lock: atomically when several threads call MPI. */
static void count_pair(struct pmpi_call *c, const struct pb_arrival *a, const struct pmpi_pb *pb,
		       uint64_t ls, uint64_t ls_comp, uint64_t sent, uint64_t sent_free)
{
	bool shared = !pmpi_one_thread;
	struct key_entry *p = pair_of(c, pb->rank, pb->site);

	if (!p)
		return;
	key_entry_add_by(p, PAIR_COUNT, 1, shared);
	key_entry_add_by(p, PAIR_BYTES, a->bytes, shared);
	key_entry_add_by(p, PAIR_LS, ls, shared);
	key_entry_add_by(p, PAIR_LS_COMP, ls_comp, shared);
	if ((pb->flags & PMPI_PB_F_SYNC) && a->t_post) {
		uint64_t post = a->t_post + (uint64_t)pmpi_clock_me;

		key_entry_add_by(p, PAIR_LR, wait_for(sent, post, UINT64_MAX), shared);
		key_entry_add_by(p, PAIR_LR_COMP, wait_for(sent_free, post - c->x0, UINT64_MAX),
				 shared);
	}
}

__attribute__((noinline))
static void count_wrong_order(const struct wait_order *w)
{
	pmpi_site_wait(w->site, PROF_WAIT_late_sender_wrong_order, w->ls, w->ls_comp);
}

/* Call c's wait states, zero until it waits. */
static void waits_begin(struct pmpi_call *c)
{
	if (!(c->flags & PMPI_CALL_WAITED)) {
		c->flags |= PMPI_CALL_WAITED;
		c->late_sender = c->late_sender_comp = c->late_sent = 0;
		c->wait = c->wait_comp = 0;
		c->wait_kind = PROF_WAITS;
	}
}

/* A message arrived for call c: its Late Sender (the sender's data left
 * after c was entered), the call's if it is the latest; a Late Sender of
 * this thread's that it proves of wrong order; its pair of sites (the
 * call's site is looked up now, its path captured when the call ends). */
static void waits_recv(const struct pb_arrival *a, struct pmpi_pb *pb)
{
	struct pmpi_call *c = a->c;
	uint64_t x = c->x0, entry = c->t0 + (uint64_t)pmpi_clock_me;
	uint64_t sent = pb->t_send + (uint64_t)pmpi_clock_to_ref(pb->rank);
	uint64_t sent_free = sent - (uint64_t)(pb->delay > 0 ? pb->delay : 0);
	uint64_t blocked = a->t > c->t0 ? a->t - c->t0 : 0;
	uint64_t ls = wait_for(entry, sent, blocked), ls_comp = wait_for(entry - x, sent_free, blocked);
	struct wait_order wrong;

	waits_begin(c);
	if (ls > c->late_sender) {
		c->late_sender = ls;
		c->late_sent = sent;
	}
	c->late_sender_comp = max_u64(c->late_sender_comp, ls_comp);
	if (wait_order_check(&order, sent, &wrong))
		count_wrong_order(&wrong);
	if (pb->site >= 0 && c->site >= 0)
		count_pair(c, a, pb, ls, ls_comp, sent, sent_free);
}

static enum wait_shape shape_of(enum pmpi_pb_dir dir)
{
	switch (dir) {
	case PMPI_PB_ALL:
		return WAIT_ALL;
	case PMPI_PB_FROMROOT:
		return WAIT_FROMROOT;
	case PMPI_PB_TOROOT:
		return WAIT_TOROOT;
	case PMPI_PB_PREFIX:
	case PMPI_PB_NBR:
		break;
	}
	return WAIT_OTHER;
}

/* The function numbers of MPI_Barrier and MPI_Ibarrier, found once by
 * name (waits_wanted): a collective's end compares numbers. */
static unsigned barrier_fn[2] = { UINT_MAX, UINT_MAX };

static void find_barriers(void)
{
	for (unsigned fn = 0; fn < pmpi_fn_count; fn++)
		if (!strcmp(pmpi_fn_names[fn], "MPI_Barrier"))
			barrier_fn[0] = fn;
		else if (!strcmp(pmpi_fn_names[fn], "MPI_Ibarrier"))
			barrier_fn[1] = fn;
}

static bool is_barrier(unsigned fn)
{
	return fn == barrier_fn[0] || fn == barrier_fn[1];
}

/* Is this rank the root of x: a broadcast's merged piggyback is the
 * root's own; a reduce's root is asked of its communicator. */
static bool is_root(const struct pmpi_pb_coll *x)
{
	if (x->dir == PMPI_PB_FROMROOT)
		return x->out.rank == x->in.rank;
	return x->dir == PMPI_PB_TOROOT && pmpi_is_root(x->comm, x->root);
}

/* A collective completed: the wait of its category for the partner it
 * needed (the latest entry, or the root's). */
static void waits_coll(const struct pb_arrival *a)
{
	struct pmpi_call *c = a->c;
	const struct pmpi_pb_coll *x = a->x;
	unsigned kind = wait_coll_kind(shape_of(x->dir), is_barrier(c->fn), is_root(x));
	uint64_t entry, blocked;

	if (kind == PROF_WAITS || !x->out.t_enter)
		return;
	entry = c->t0 + (uint64_t)pmpi_clock_me;
	blocked = a->t > c->t0 ? a->t - c->t0 : 0;
	waits_begin(c);
	c->wait = max_u64(c->wait, wait_for(entry, x->out.t_enter, blocked));
	c->wait_comp = max_u64(c->wait_comp, wait_for(entry - c->x0,
						      x->out.t_enter_free, blocked));
	c->wait_kind = kind;
}

bool pmpi_waits_on;

/* Unless --no-waits; the activity graph follows (call.c). */
static bool waits_wanted(const struct rt_state *rt)
{
	pmpi_waits_on = rt->opt.waits;
	if (pmpi_waits_on)
		find_barriers();
	return pmpi_waits_on;
}

const struct pb_unit pb_unit_waits = {
	.name = "wait states",
	.wanted = waits_wanted,
	.stamp_coll = waits_stamp_coll,
	.recv = waits_recv,
	.coll = waits_coll,
};

void pmpi_waits_leave(struct pmpi_call *c)
{
	wait_order_keep(&order, c->site, c->late_sender, c->late_sender_comp, c->late_sent);
}

/* Is pair e in the profile: in use and its receiving site in it. */
static bool pair_kept(const struct key_entry *e, const uint32_t *site_of)
{
	return key_entry_used(e) && e->key[0] >= 0 && e->key[0] < PMPI_SITES &&
	       site_of[e->key[0]] != UINT32_MAX;
}

/* Add pair e, its receiving site now profile site `site`, to p's pairs:
 * the slots of one profile site make one pair of each sender's slot. */
static void add_pair(struct profile *p, const struct key_entry *e, uint32_t site, bool comp)
{
	struct prof_mpi_pair *q = NULL;

	for (uint32_t i = 0; i < p->nmpi_pairs && !q; i++)
		if (p->mpi_pairs[i].site == site && p->mpi_pairs[i].send_rank == e->key[1] &&
		    p->mpi_pairs[i].send_slot == (uint32_t)e->key[2])
			q = &p->mpi_pairs[i];
	if (!q) {
		q = &p->mpi_pairs[p->nmpi_pairs++];
		*q = (struct prof_mpi_pair){ .site = site, .send_rank = e->key[1],
					     .send_slot = (uint32_t)e->key[2] };
	}
	q->count += key_entry_value(e, PAIR_COUNT);
	q->bytes += key_entry_value(e, PAIR_BYTES);
	q->late_sender_ns += key_entry_value(e, PAIR_LS);
	q->late_receiver_ns += key_entry_value(e, PAIR_LR);
	if (comp) {
		q->late_sender_comp_ns += key_entry_value(e, PAIR_LS_COMP);
		q->late_receiver_comp_ns += key_entry_value(e, PAIR_LR_COMP);
	}
}

/* The pairs whose receiving site made it into the profile. */
static void fill_pairs(struct profile *p, const uint32_t *site_of, bool comp)
{
	uint32_t n = 0;

	for (unsigned i = 0; i < KEY_TABLE; i++)
		n += pair_kept(&pairs.e[i], site_of);
	if (!n || !(p->mpi_pairs = calloc(n, sizeof(*p->mpi_pairs))))
		return;
	for (unsigned i = 0, k = 0; i < KEY_TABLE && k < n; i++)
		if (pair_kept(&pairs.e[i], site_of)) {
			add_pair(p, &pairs.e[i], site_of[pairs.e[i].key[0]], comp);
			k++;
		}
}

/* The slots that made a site. */
static void fill_slots(struct profile *p, const uint32_t *site_of)
{
	uint32_t n = 0;

	for (unsigned i = 0; i < PMPI_SITES; i++)
		n += site_of[i] != UINT32_MAX;
	if (!n || !(p->mpi_slots = calloc(n, sizeof(*p->mpi_slots))))
		return;
	for (unsigned i = 0; i < PMPI_SITES; i++)
		if (site_of[i] != UINT32_MAX)
			p->mpi_slots[p->nmpi_slots++] = (struct prof_mpi_slot){ .slot = i,
										.site = site_of[i] };
}

void pmpi_waits_fill(struct profile *p, const uint32_t *site_of, bool final)
{
	bool comp = pmpi_comp_on();

	pmpi_lock(&pairs_lock);
	fill_slots(p, site_of);
	fill_pairs(p, site_of, comp);
	if (final && pairs.lost)
		fprintf(stderr, "cpperf: rank %d: %llu messages of more than %d pairs of call "
			"sites are in their sites' wait states but in no pair\n", pmpi_pb_rank(),
			(unsigned long long)pairs.lost, KEY_TABLE);
	pmpi_unlock(&pairs_lock);
	p->clock_offset_ns = pmpi_clock_offset();
	p->clock_drift_ns = pmpi_clock_drift();
	for (uint32_t i = 0; i < p->nmpi_sites && !comp; i++)
		memset(p->mpi_sites[i].waits.comp_ns, 0, sizeof(p->mpi_sites[i].waits.comp_ns));
}
