/*
 * pb-rules.c - the rules that combine piggybacks (pb-rules.h).
 */
#include <string.h>

#include "pb-rules.h"
#include "own-cost.h"

bool pb_path_rule(uint64_t *length, const struct pmpi_pb *pb)
{
	if (pb->cp < 0 || (uint64_t)pb->cp <= *length)
		return false;
	*length = (uint64_t)pb->cp;
	return true;
}

void pb_zero_rule(int nfns, int64_t *share, int64_t *net, const struct pmpi_pb *pb, bool took)
{
	bool carries = pb->flags & PMPI_PB_F_CPFN;

	for (int f = 0; f < nfns; f++) {
		if (took)
			share[f] = carries ? pb->share[f] : 0;
		if (carries && pb->net[f] > net[f])
			net[f] = pb->net[f];
	}
}

/*
 * The call entered at t0, x late; its data left (latest) at A_s = t_send,
 * x_s late, and would have been ready without measurement at U_s = t_free
 * = A_s - x_s.  Measured, the exchange could finish once both were there,
 * at max(A_s, t0); without measurement at max(U_s, t0 - x), the transfer
 * itself taking as long in both.  So the rank is now x' = max(A_s, t0) -
 * max(U_s, t0 - x) late, and it would have waited max(0, U_s - (t0 - x)).
 * That needs clocks that agree: on one host they do; across hosts the
 * paper's rule takes the data as ready when the wait ended
 * (x' = min(x_s, x + w)).
 */
struct comp_step pb_comp_rule(uint64_t t0, uint64_t now, uint64_t x, const struct pmpi_pb *pb,
			      bool local)
{
	uint64_t w = now > t0 ? now - t0 : 0, xs = pb->delay > 0 ? (uint64_t)pb->delay : 0;
	uint64_t start = t0 > x ? t0 - x : 0, arrive, ready;
	struct comp_step r = { .wait = w };

	local = local && pb->t_free && pb->t_send;
	if (local) {
		arrive = pb->t_send > t0 ? pb->t_send : t0;
		ready = pb->t_free;
		r.x = arrive - (ready > start ? ready : start);
	} else {
		ready = now > xs ? now - xs : 0;
		r.x = xs < x + w ? xs : x + w;
	}
	r.wait_comp = ready > start ? ready - start : 0;
	return r;
}

/* b = merge(a, b): the longer critical path wins with its shares and its
 * sender, the lower world rank on a tie (as the reference walk's edges,
 * logged in rank order, decide); net lengths, the latest data and the
 * latest entry (wait states, docs/waits.md) are maxima, the delay the minimum (docs/critical-path.md,
 * docs/compensation.md); a fold point is asked for when any contributor
 * asks; different collective numbers mark a mismatch.
 * Works in place, so that it reads and writes no zeroing block where the
 * job's companions carry none. */
void pmpi_pb_merge_into(const struct pmpi_pb *a, struct pmpi_pb *b)
{
	/* b's zeroing block exists only when a contribution carries one: a
	 * job without zeroing moves PMPI_PB_CORE bytes (pb.h) */
	bool zeroing = (a->flags | b->flags) & PMPI_PB_F_CPFN;

	if (a->cp > b->cp || (a->cp == b->cp && a->rank < b->rank)) {
		b->cp = a->cp;
		b->event = a->event;
		b->rank = a->rank;
		b->site = a->site;
		if (zeroing)	/* a share travels only with the flag */
			for (int i = 0; i < PMPI_PB_SHARES; i++)
				b->share[i] = a->flags & PMPI_PB_F_CPFN ? a->share[i] : 0;
	}
	if (a->flags & PMPI_PB_F_CPFN) {	/* only those that carry zeroing data */
		if (!(b->flags & PMPI_PB_F_CPFN)) {
			memcpy(b->net, a->net, sizeof(b->net));
			memcpy(b->fn, a->fn, sizeof(b->fn));
		}
		for (int i = 0; i < PMPI_PB_SHARES; i++)
			b->net[i] = a->net[i] > b->net[i] ? a->net[i] : b->net[i];
		b->flags |= PMPI_PB_F_CPFN;
	}
	b->t_send = a->t_send > b->t_send ? a->t_send : b->t_send;
	b->delay = a->delay < b->delay ? a->delay : b->delay;
	b->t_free = a->t_free > b->t_free ? a->t_free : b->t_free;
	b->turns = a->turns > b->turns ? a->turns : b->turns;
	b->t_enter = a->t_enter > b->t_enter ? a->t_enter : b->t_enter;
	b->t_enter_free = a->t_enter_free > b->t_enter_free ? a->t_enter_free : b->t_enter_free;
	if (a->host != b->host)
		b->flags |= PMPI_PB_F_HOSTS;
	b->flags |= a->flags & (PMPI_PB_F_HOSTS | PMPI_PB_F_MISMATCH | PMPI_PB_F_FOLD);
	if (a->seq != b->seq)
		b->flags |= PMPI_PB_F_MISMATCH;
}

void pb_turns_apart(struct pmpi_pb *pb, uint64_t turns)
{
	uint64_t d = pb->delay > 0 ? (uint64_t)pb->delay : 0, t = turns < d ? turns : d;

	pb->turns = t;
	pb->t_free += pb->t_free ? t : 0;
	pb->delay -= (int64_t)t;
}

void pb_coll_turns(struct pmpi_pb *pb)
{
	pb->t_free = pb->t_free > pb->turns ? pb->t_free - pb->turns : 0;
	pb->delay += (int64_t)pb->turns;
}

void pb_sampled_add(struct cost_sampled *s, uint64_t t)
{
	uint64_t v[COST_SAMPLED_KEEP];
	unsigned i, j, m;

	s->ns[s->k++ % COST_SAMPLED_KEEP] = t;
	m = s->k < COST_SAMPLED_KEEP ? s->k : COST_SAMPLED_KEEP;
	for (i = 0; i < m; i++) {	/* insertion into v, sorted */
		for (j = i; j > 0 && v[j - 1] > s->ns[i]; j--)
			v[j] = v[j - 1];
		v[j] = s->ns[i];
	}
	s->est = v[(m - 1) / 2];
}
