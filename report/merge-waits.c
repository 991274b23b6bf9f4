/*
 * merge-waits.c - the wait states of an experiment (docs/waits.md).
 *
 * A call site's own wait states are summed with it (merge-mpi.c).  What
 * needs every profile is kept here while merging: each rank's slots, by
 * which a message names its sender's call site, and each pair record, its
 * receiving site merged but its sender still a (rank, slot).  Once all are
 * read, waits_merge_finish names every sender's site through the slots
 * (sorted, for a binary search), gives each sending site the Late Receiver
 * time its receivers measured, sums the pairs by (sending site, receiving
 * site), both sites being merged across ranks by their function and call
 * path, and orders the sending sites by the Late Sender time they caused:
 * the culprits.  Sums saturate at 2^64 - 1 (docs/format.md "Sums").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "merge-mpi.h"
#include "merge-waits.h"
#include "../common/sum.h"

static int waits_oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory while merging wait states");
	return -1;
}

/* A slot or pair record of name naming call site site of p's n. */
static int bad_site(const char *name, const char *what, uint32_t i, uint32_t site, uint32_t n,
		    char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s %u names call site %u of %u", name, what, i, site, n);
	return -1;
}

int waits_merge_add(struct rep_waits *w, const struct profile *p, const uint32_t *smap,
		    const char *name, char *err, size_t errlen)
{
	w->present |= prof_has_waits(p);
	for (uint32_t i = 0; i < p->nmpi_slots; i++) {
		const struct prof_mpi_slot *s = &p->mpi_slots[i];

		if (s->site >= p->nmpi_sites)
			return bad_site(name, "mpi_slot", s->slot, s->site, p->nmpi_sites, err, errlen);
		if (mpi_grow((void **)&w->slots, w->nslots, &w->slots_alloc, sizeof(*w->slots)) < 0)
			return waits_oom(err, errlen);
		w->slots[w->nslots++] = (struct rep_slot){ p->merged ? s->rank : p->rank, s->slot,
							   smap[s->site] };
	}
	for (uint32_t i = 0; i < p->nmpi_pairs; i++) {
		const struct prof_mpi_pair *q = &p->mpi_pairs[i];

		if (q->site >= p->nmpi_sites)
			return bad_site(name, "mpi_pair", i, q->site, p->nmpi_sites, err, errlen);
		if (mpi_grow((void **)&w->msgs, w->nmsgs, &w->msgs_alloc, sizeof(*w->msgs)) < 0)
			return waits_oom(err, errlen);
		w->msgs[w->nmsgs++] = (struct rep_msg){ q->send_rank, q->send_slot, {
			REP_NO_SITE, smap[q->site], q->count, q->bytes, q->late_sender_ns,
			q->late_sender_comp_ns, q->late_receiver_ns, q->late_receiver_comp_ns } };
	}
	return 0;
}

#define CMP(a, b) do { if ((a) != (b)) return (a) < (b) ? -1 : 1; } while (0)

static int cmp_slot(const void *a, const void *b)
{
	const struct rep_slot *x = a, *y = b;

	CMP(x->rank, y->rank);
	CMP(x->slot, y->slot);
	return 0;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct rep_site_pair *x = a, *y = b;

	CMP(x->send_site, y->send_site);
	CMP(x->recv_site, y->recv_site);
	return 0;
}

/* Late Sender caused, descending; then the site. */
static int cmp_culprit(const void *a, const void *b)
{
	const struct rep_culprit *x = a, *y = b;

	CMP(y->late_sender_ns, x->late_sender_ns);
	CMP(y->late_sender_comp_ns, x->late_sender_comp_ns);
	CMP(x->site, y->site);
	return 0;
}

/* See merge-waits.h.  A binary search of w->slots, sorted. */
uint32_t waits_slot_site(const struct rep_waits *w, int64_t rank, uint32_t slot)
{
	const struct rep_slot key = { rank, slot, 0 };
	const struct rep_slot *s = w->nslots ? bsearch(&key, w->slots, w->nslots, sizeof(key),
						       cmp_slot) : NULL;

	return s ? s->site : REP_NO_SITE;
}

/* Fold b into a (the same two sites). */
static void add_pair(struct rep_site_pair *a, const struct rep_site_pair *b)
{
	a->count = sum_sat(a->count, b->count);
	a->bytes = sum_sat(a->bytes, b->bytes);
	a->late_sender_ns = sum_sat(a->late_sender_ns, b->late_sender_ns);
	a->late_sender_comp_ns = sum_sat(a->late_sender_comp_ns, b->late_sender_comp_ns);
	a->late_receiver_ns = sum_sat(a->late_receiver_ns, b->late_receiver_ns);
	a->late_receiver_comp_ns = sum_sat(a->late_receiver_comp_ns, b->late_receiver_comp_ns);
}

/* w->pairs, sorted, as one pair per (sending site, receiving site); the
 * sending sites' Late Sender time as culprits.  Returns 0 or -1 (memory). */
static int sum_pairs(struct rep_waits *w)
{
	uint32_t n = 0;

	if (w->npairs > 1)
		qsort(w->pairs, w->npairs, sizeof(*w->pairs), cmp_pair);
	for (uint32_t i = 0; i < w->npairs; i++) {
		if (n && !cmp_pair(&w->pairs[n - 1], &w->pairs[i]))
			add_pair(&w->pairs[n - 1], &w->pairs[i]);
		else
			w->pairs[n++] = w->pairs[i];
	}
	w->npairs = n;
	if (!(w->culprits = calloc(n + 1, sizeof(*w->culprits))))
		return -1;
	for (uint32_t i = 0; i < n; i++) {	/* a sending site's pairs are together */
		const struct rep_site_pair *q = &w->pairs[i];
		struct rep_culprit *c;

		if (q->send_site == REP_NO_SITE || (!q->late_sender_ns && !q->late_sender_comp_ns))
			continue;
		if (!w->nculprits || w->culprits[w->nculprits - 1].site != q->send_site)
			w->culprits[w->nculprits++] = (struct rep_culprit){ q->send_site, 0, 0 };
		c = &w->culprits[w->nculprits - 1];
		c->late_sender_ns = sum_sat(c->late_sender_ns, q->late_sender_ns);
		c->late_sender_comp_ns = sum_sat(c->late_sender_comp_ns, q->late_sender_comp_ns);
	}
	if (w->nculprits > 1)
		qsort(w->culprits, w->nculprits, sizeof(*w->culprits), cmp_culprit);
	return 0;
}

int waits_merge_finish(struct rep_waits *w, struct rep_mpi *m, char *err, size_t errlen)
{
	uint32_t *sorted = malloc((m->nsites + 1) * sizeof(*sorted));

	if (!sorted || !(w->pairs = malloc((w->nmsgs + 1) * sizeof(*w->pairs)))) {
		free(sorted);
		return waits_oom(err, errlen);
	}
	/* the sites were named by their index before mpi_merge_finish sorted them */
	for (uint32_t i = 0; i < m->nsites; i++)
		sorted[m->sites[i].merge_id] = i;
	for (uint32_t i = 0; i < w->nslots; i++)
		w->slots[i].site = sorted[w->slots[i].site];
	if (w->nslots > 1)
		qsort(w->slots, w->nslots, sizeof(*w->slots), cmp_slot);
	for (uint32_t i = 0; i < w->nmsgs; i++) {
		struct rep_site_pair *q = &w->pairs[i];

		*q = w->msgs[i].v;
		q->recv_site = sorted[q->recv_site];
		q->send_site = waits_slot_site(w, w->msgs[i].send_rank, w->msgs[i].send_slot);
		if (q->send_site == REP_NO_SITE)
			continue;
		m->sites[q->send_site].late_receiver_ns =
			sum_sat(m->sites[q->send_site].late_receiver_ns, q->late_receiver_ns);
		m->sites[q->send_site].late_receiver_comp_ns =
			sum_sat(m->sites[q->send_site].late_receiver_comp_ns, q->late_receiver_comp_ns);
	}
	w->npairs = w->nmsgs;
	free(sorted);
	free(w->msgs);
	w->msgs = NULL;
	w->nmsgs = w->msgs_alloc = 0;
	return sum_pairs(w) < 0 ? waits_oom(err, errlen) : 0;
}

void waits_merge_release(struct rep_waits *w)
{
	free(w->slots);
	free(w->msgs);
	free(w->pairs);
	free(w->culprits);
	memset(w, 0, sizeof(*w));
}

uint64_t waits_site_ns(const struct rep_site *s)
{
	uint64_t ns = s->late_receiver_ns;

	for (int k = 0; k < PROF_WAITS; k++)
		ns = sum_sat(ns, s->waits.ns[k]);
	return ns;
}

uint64_t waits_transmission_ns(const struct rep_site *s)
{
	uint64_t waits = waits_site_ns(s);

	return s->blocked_ns > waits ? s->blocked_ns - waits : 0;
}
