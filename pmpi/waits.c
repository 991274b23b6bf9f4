/*
 * waits.c - the wait states as a unit of the piggyback (pb-units.h,
 * docs/waits.md): why a call waited, in Scalasca's categories, found
 * online from what the piggyback carries (the sender's rank, site and
 * send time; a collective's latest entry), on rank 0's clock
 * (clock-align.h) and, with compensation, without the tool's delay.
 *
 * A receive's Late Sender and a collective's wait are kept in the call
 * (the latest sender of a Waitall's messages) and added to its site as
 * they grow; a message's pair of sites is counted when it arrives, in the
 * receiving thread's own entries of the site (key-table.h) or, past
 * them, in a shared table.
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
#include "here.h"
#include "wait-rules.h"
#include "key-table.h"
#include "stats.h"
#include "waits.h"

/* the pairs: receiving site, sender's rank and slot */
enum { PAIR_COUNT, PAIR_BYTES, PAIR_LS, PAIR_LS_COMP, PAIR_LR, PAIR_LR_COMP, PAIR_VALUES };
static struct key_table pairs;		/* untouched pages until used */
static pthread_mutex_t pairs_lock = PTHREAD_MUTEX_INITIALIZER;

void pb_waits_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			 const struct pmpi_pb_coll *x)
{
	(void)x;
	pb->t_enter = c->t0 + (uint64_t)pmpi_clock_me;
	pb->t_enter_free = pb->t_enter - c->x0;
}

/* When message pb's data left, on rank 0's clock, and without the
 * tool's delay. */
static uint64_t sent_at(const struct pmpi_pb *pb)
{
	return pb->t_send + (uint64_t)pmpi_clock_to_ref(pb->rank);
}

/* A message's delay is never negative: the wire carries it unsigned. */
static uint64_t sent_free(const struct pmpi_pb *pb, uint64_t sent)
{
	return sent - (uint64_t)pb->delay;
}

/* The Late Receiver of message pb that arrived for call c (a), measured
 * and compensated, into lr: a synchronous send waited from when its data
 * left until the receive was posted.  False when it has none to give. */
static bool late_receiver(const struct pmpi_call *c, const struct pb_arrival *a,
			  const struct pmpi_pb *pb, uint64_t lr[2])
{
	uint64_t post, sent;

	if (!(pb->flags & PMPI_PB_F_SYNC) || !a->t_post)
		return false;
	post = a->t_post + (uint64_t)pmpi_clock_me;
	sent = sent_at(pb);
	lr[0] = wait_for(sent, post, UINT64_MAX);
	lr[1] = wait_for(sent_free(pb, sent), post - c->x0, UINT64_MAX);
	return true;
}

__attribute__((noinline))
static void own_late_receiver(struct key_own *o, const struct pmpi_call *c,
			      const struct pb_arrival *a, const struct pmpi_pb *pb)
{
	uint64_t lr[2];

	if (late_receiver(c, a, pb, lr)) {
		key_own_add(o, PAIR_LR, lr[0]);
		key_own_add(o, PAIR_LR_COMP, lr[1]);
	}
}

/* The pair of call c's site and message pb's sender (rank and slot),
 * new to the thread's site or found in none of its own entries: taken as
 * one, else counted in the shared table (atomically when several threads
 * call MPI). */
__attribute__((noinline))
static void pair_miss(struct pmpi_call *c, const struct pb_arrival *a, const struct pmpi_pb *pb,
		      uint64_t ls, uint64_t ls_comp)
{
	uint64_t v[PAIR_VALUES] = { [PAIR_COUNT] = 1, [PAIR_BYTES] = a->bytes, [PAIR_LS] = ls,
				    [PAIR_LS_COMP] = ls_comp };
	struct key_own *o;
	struct key_entry *e;

	if (pb->site < 0 || c->site < 0)
		return;
	late_receiver(c, a, pb, &v[PAIR_LR]);
	if ((o = key_owned_get(&c->counts->pairs, PMPI_PAIR_FROM(pb->rank, pb->site)))) {
		for (unsigned i = 0; i < PAIR_VALUES; i++)
			key_own_add(o, i, v[i]);
		return;
	}
	pmpi_lock(&pairs_lock);
	e = key_table_get(&pairs, c->site, pb->rank, pb->site);
	pmpi_unlock(&pairs_lock);
	for (unsigned i = 0; e && i < PAIR_VALUES; i++)
		key_entry_add_by(e, i, v[i], !pmpi_one_thread);
}

/* The thread's kept Late Sender proved of wrong order: counted, forgotten. */
__attribute__((noinline))
static void count_wrong_order(void)
{
	const struct wait_order *o = &pmpi_here.order;

	pmpi_site_wait(o->site, PROF_WAIT_late_sender_wrong_order, o->ls, o->ls_comp);
	wait_order_forget(&pmpi_here.order);
}

/* Raise call c's wait *w (*w_comp) of kind k to v (v_comp), the site's
 * counters s taking the difference: a call waits as long as for its
 * latest partner. */
static void raise_wait(struct pmpi_counts *s, unsigned k, uint64_t *w, uint64_t *w_comp,
		       uint64_t v, uint64_t v_comp)
{
	uint64_t d = v > *w ? v - *w : 0, d_comp = v_comp > *w_comp ? v_comp - *w_comp : 0;

	*w += d;
	*w_comp += d_comp;
	pmpi_bump(&s->wait[k], d);
	pmpi_bump(&s->wait_comp[k], d_comp);
}

/* What a message waited for: when its data left (on rank 0's clock), and
 * its Late Sender, measured and compensated. */
struct msg_wait {
	uint64_t sent, ls, ls_comp;
};

/* Message pb's for call c (a): the sender's data left after c was
 * entered. */
static inline struct msg_wait msg_wait(const struct pmpi_call *c, const struct pb_arrival *a,
				       const struct pmpi_pb *pb)
{
	uint64_t entry = c->t0 + (uint64_t)pmpi_clock_me, sent = sent_at(pb);
	uint64_t blocked = a->t > c->t0 ? a->t - c->t0 : 0;

	return (struct msg_wait){ sent, wait_for(entry, sent, blocked),
				  wait_for(entry - c->x0, sent_free(pb, sent), blocked) };
}

/* The rare cases of message pb for call c (a), its Late Sender counted
 * if it is the call's first: a later message of the call (a Waitall's),
 * a pair that is not the thread's own entry o found last (NULL), a
 * synchronous send's Late Receiver. */
__attribute__((noinline))
static void waits_recv_rare(const struct pb_arrival *a, const struct pmpi_pb *pb,
			    struct key_own *o, bool first)
{
	struct pmpi_call *c = a->c;
	struct msg_wait w = msg_wait(c, a, pb);

	if (!first) {
		if (w.ls > c->late_sender)
			c->late_sent = w.sent;
		raise_wait(c->counts, PROF_WAIT_late_sender, &c->late_sender, &c->late_sender_comp,
			   w.ls, w.ls_comp);
		c->first_sent = w.sent < c->first_sent ? w.sent : c->first_sent;
	}
	if (!o)
		pair_miss(c, a, pb, w.ls, w.ls_comp);
	else if (pb->flags & PMPI_PB_F_SYNC)
		own_late_receiver(o, c, a, pb);
}

/*
 * A message pb arrived for call c (a): its Late Sender, the call's and
 * its site's if it is the latest; when the earliest of the call's was
 * sent (whether it proves an earlier Late Sender of wrong order is told
 * when the call ends); its pair of sites (the call's site is looked up
 * now, its path captured when the call ends).  A loop's pair is the
 * thread's own entry it found last: a compare (the sender's slot of -1,
 * no site, is no key).  Every message arrives here: the rare cases are
 * one call at the end, which needs nothing kept.
 */
void pb_waits_recv(const struct pb_arrival *a, struct pmpi_pb *pb)
{
	struct pmpi_call *c = a->c;
	struct pmpi_counts *s = c->counts;
	struct msg_wait w = msg_wait(c, a, pb);
	bool first = !(c->flags & PMPI_CALL_WAITED);
	struct key_own *o = key_owned_last(&s->pairs, PMPI_PAIR_FROM(pb->rank, pb->site));

	if (first) {
		c->flags |= PMPI_CALL_WAITED;
		c->late_sender = w.ls;
		c->late_sender_comp = w.ls_comp;
		c->late_sent = c->first_sent = w.sent;
		pmpi_bump(&s->wait[PROF_WAIT_late_sender], w.ls);
		pmpi_bump(&s->wait_comp[PROF_WAIT_late_sender], w.ls_comp);
	}
	if (o) {
		key_own_add(o, PAIR_COUNT, 1);
		key_own_add(o, PAIR_BYTES, a->bytes);
		key_own_add(o, PAIR_LS, w.ls);
		key_own_add(o, PAIR_LS_COMP, w.ls_comp);
	}
	if (!o || !first || (pb->flags & PMPI_PB_F_SYNC))
		waits_recv_rare(a, pb, o, first);
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
 * name (pb_waits_wanted): a collective's end compares numbers. */
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

/* Is this rank the root of x, of direction dir: a broadcast's merged
 * piggyback is the root's own; a reduce's root was told at its start. */
static bool is_root(const struct pmpi_pb_coll *x, enum pmpi_pb_dir dir)
{
	if (dir == PMPI_PB_FROMROOT)
		return x->out.rank == x->in.rank;
	return dir == PMPI_PB_TOROOT && x->is_root;
}

/* A collective completed: the wait of its category for the partner it
 * needed (the latest entry, or the root's). */
void pb_waits_coll(const struct pb_arrival *a)
{
	struct pmpi_call *c = a->c;
	const struct pmpi_pb_coll *x = a->x;
	enum pmpi_pb_dir dir = a->dir;
	unsigned kind = wait_coll_kind(shape_of(dir), is_barrier(c->fn), is_root(x, dir));
	uint64_t entry, blocked;

	if (kind == PROF_WAITS || !x->out.t_enter)
		return;
	entry = c->t0 + (uint64_t)pmpi_clock_me;
	blocked = a->t > c->t0 ? a->t - c->t0 : 0;
	if (!(c->flags & PMPI_CALL_COLL_WAITED)) {
		c->flags |= PMPI_CALL_COLL_WAITED;
		c->wait = c->wait_comp = 0;
	}
	raise_wait(c->counts, kind, &c->wait, &c->wait_comp, wait_for(entry, x->out.t_enter, blocked),
		   wait_for(entry - c->x0, x->out.t_enter_free, blocked));
}

bool pmpi_waits_on;

/* Unless --no-waits; the activity graph follows (call.c). */
bool pb_waits_wanted(const struct rt_state *rt)
{
	pmpi_waits_on = rt->opt.waits;
	if (pmpi_waits_on)
		find_barriers();
	return pmpi_waits_on;
}

void pmpi_waits_leave(struct pmpi_call *c)
{
	if (wait_order_wrong(&pmpi_here.order, c->first_sent))
		count_wrong_order();
	wait_order_keep(&pmpi_here.order, c->site, c->late_sender, c->late_sender_comp, c->late_sent);
}

/* Is pair e in the profile: in use and its receiving site in it. */
static bool pair_kept(const struct key_entry *e, const uint32_t *site_of)
{
	return key_entry_used(e) && e->key[0] >= 0 && e->key[0] < PMPI_SITES &&
	       site_of[e->key[0]] != UINT32_MAX;
}

/* Add the counters v of a pair of senders' slot and the receiving site,
 * now profile site `site`, to p's pairs: the slots of one profile site
 * make one pair of each sender's slot. */
static void add_pair(struct profile *p, uint32_t site, int32_t rank, int32_t slot,
		     const uint64_t *v, bool comp)
{
	struct prof_mpi_pair *q = NULL;

	for (uint32_t i = 0; i < p->nmpi_pairs && !q; i++)
		if (p->mpi_pairs[i].site == site && p->mpi_pairs[i].send_rank == rank &&
		    p->mpi_pairs[i].send_slot == (uint32_t)slot)
			q = &p->mpi_pairs[i];
	if (!q) {
		q = &p->mpi_pairs[p->nmpi_pairs++];
		*q = (struct prof_mpi_pair){ .site = site, .send_rank = rank,
					     .send_slot = (uint32_t)slot };
	}
	q->count += v[PAIR_COUNT];
	q->bytes += v[PAIR_BYTES];
	q->late_sender_ns += v[PAIR_LS];
	q->late_receiver_ns += v[PAIR_LR];
	if (comp) {
		q->late_sender_comp_ns += v[PAIR_LS_COMP];
		q->late_receiver_comp_ns += v[PAIR_LR_COMP];
	}
}

/* The threads' own pairs at their sites, counted (n, p NULL) or added to
 * p, as fill_pairs. */
struct own_pairs {
	struct profile *p;
	const uint32_t *site_of;
	bool comp;
	uint32_t n;
};

static void add_own_pairs(int site, const struct pmpi_counts *s, void *arg)
{
	struct own_pairs *f = arg;
	uint64_t from, v[PAIR_VALUES];

	for (unsigned i = 0; i < KEY_OWN && f->site_of[site] != UINT32_MAX; i++) {
		const struct key_own *e = &s->pairs.e[i];

		if (!key_own_used(e, &from))
			continue;
		if (!f->p) {
			f->n++;
		} else if (f->p->nmpi_pairs < f->n) {
			for (unsigned k = 0; k < PAIR_VALUES; k++)
				v[k] = key_own_value(e, k);
			add_pair(f->p, f->site_of[site], (int32_t)(from >> 32), (int32_t)(uint32_t)from,
				 v, f->comp);
		}
	}
}

/* The pairs whose receiving site made it into the profile. */
static void fill_pairs(struct profile *p, const uint32_t *site_of, bool comp)
{
	struct own_pairs own = { .site_of = site_of };
	uint64_t v[PAIR_VALUES];
	uint32_t n;

	pmpi_counts_each(add_own_pairs, &own);
	n = own.n;
	for (unsigned i = 0; i < KEY_TABLE; i++)
		n += pair_kept(&pairs.e[i], site_of);
	if (!n || !(p->mpi_pairs = calloc(n, sizeof(*p->mpi_pairs))))
		return;
	own = (struct own_pairs){ p, site_of, comp, n };
	pmpi_counts_each(add_own_pairs, &own);
	for (unsigned i = 0; i < KEY_TABLE; i++) {
		const struct key_entry *e = &pairs.e[i];

		if (!pair_kept(e, site_of) || p->nmpi_pairs >= n)
			continue;
		for (unsigned k = 0; k < PAIR_VALUES; k++)
			v[k] = key_entry_value(e, k);
		add_pair(p, site_of[e->key[0]], e->key[1], e->key[2], v, comp);
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
