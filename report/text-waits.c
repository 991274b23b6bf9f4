/*
 * text-waits.c - `cpperf report --view=waits`: where the MPI time went
 * waiting for a late partner (docs/waits.md), over all ranks.
 *
 * Sections: the call sites with wait states, the most first, a row each:
 * each wait state, Late Receiver and transmission (the rest of the
 * blocked time) in seconds and the wait states' % of the experiment's MPI
 * time, and the compensated values in a row below with compensation data; the pairs of call sites
 * that caused the most; the culprits, sending sites by the Late Sender
 * time they caused.  A warning line says when a rank's clock drifted from
 * rank 0's by more than REP_CLOCK_DRIFT_NS, as waits across hosts are then
 * off by that much.  Sites are named by the ids of --view=mpi.
 */
#include <stdio.h>
#include <stdlib.h>
#include "compensation.h"
#include "data.h"
#include "merge-mpi.h"
#include "merge-waits.h"
#include "model.h"
#include "show.h"
#include "text.h"
#include "../common/sum.h"

#define REP_WAITS_TOP_SITES 20	/* call sites shown */
#define REP_WAITS_TOP_PAIRS 20	/* pairs of sites shown */
#define REP_WAITS_TOP_CULPRITS 10
#define REP_CLOCK_DRIFT_NS 100000	/* a drift worth a warning */

/* |v| without overflow */
static uint64_t magnitude(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

/* The rank whose clock drifted most, when one passed REP_CLOCK_DRIFT_NS. */
static void put_drift(FILE *out, const struct rep_mpi *m)
{
	const struct rep_rank *worst = NULL;
	uint32_t n = 0;

	for (uint32_t i = 0; i < m->nranks; i++) {
		const struct rep_rank *r = &m->ranks[i];

		if (magnitude(r->clock_drift_ns) <= REP_CLOCK_DRIFT_NS)
			continue;
		n++;
		if (!worst || magnitude(r->clock_drift_ns) > magnitude(worst->clock_drift_ns))
			worst = r;
	}
	if (worst)
		fprintf(out, "# warning: rank %lld's clock drifted %+.1f us from rank 0's between "
			"MPI_Init and MPI_Finalize (%u rank%s past %.0f us): wait states between "
			"hosts may be off by that much\n", (long long)worst->rank,
			(double)worst->clock_drift_ns / 1e3, n, n > 1 ? "s" : "",
			REP_CLOCK_DRIFT_NS / 1e3);
}

#define COL 9		/* a wait state's column */

/* The table's head: a column per wait state, Late Receiver, transmission,
 * numbered, and what each number is. */
static void put_head(FILE *out)
{
	int k;

	fputs("#\n# call sites with wait states, the most first (seconds; %MPI: their wait "
	      "states' share of the MPI time); columns:\n#", out);
	for (k = 0; k < PROF_WAITS; k++)
		fprintf(out, " (%d) %s", k + 1, prof_wait_names[k]);
	fprintf(out, " (%d) late_receiver (%d) transmission\n#%6s", k + 1, k + 2, "site");
	for (k = 0; k < PROF_WAITS + 2; k++)
		fprintf(out, " %*s(%d)", COL - 3, "", k + 1);
	fprintf(out, " %6s  function and call path\n", "%MPI");
}

/* A site's row, and with comp the compensated values below it. */
static void put_site(FILE *out, const struct rep_data *d, uint32_t i, bool comp)
{
	const struct rep_site *s = &d->mpi.sites[i];

	fprintf(out, " %6u", i + 1);
	for (int k = 0; k < PROF_WAITS; k++)
		fprintf(out, " %*.3f", COL, rep_secs(s->waits.ns[k]));
	fprintf(out, " %*.3f %*.3f %6.2f  ", COL, rep_secs(s->late_receiver_ns), COL,
		rep_secs(waits_transmission_ns(s)), rep_pct(waits_site_ns(s), d->mpi.time_ns));
	rep_put_clean(out, s->function, 0);
	fputs("  ", out);
	rep_put_site_path(out, d, s);
	fputc('\n', out);
	if (!comp)
		return;
	fprintf(out, " %6s", "comp");
	for (int k = 0; k < PROF_WAITS; k++)
		fprintf(out, " %*.3f", COL, rep_secs(s->waits.comp_ns[k]));
	fprintf(out, " %*.3f\n", COL, rep_secs(s->late_receiver_comp_ns));
}

/* Whether site s has a wait state, measured or compensated. */
static bool waited(const struct rep_site *s)
{
	return waits_site_ns(s) || s->late_receiver_comp_ns || prof_waits_any(&s->waits);
}

/* Something shown in order of the time it waited: a site, or a pair. */
struct ranked {
	uint32_t i;
	uint64_t ns;
};

/* More time first, then the lower index. */
static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The call sites with wait states, the most first.  Returns 0 or -1. */
static int put_sites(FILE *out, const struct rep_data *d, bool comp)
{
	struct ranked *v = malloc((d->mpi.nsites + 1) * sizeof(*v));
	uint32_t n = 0;

	if (!v)
		return -1;
	for (uint32_t i = 0; i < d->mpi.nsites; i++)
		if (waited(&d->mpi.sites[i]))
			v[n++] = (struct ranked){ i, waits_site_ns(&d->mpi.sites[i]) };
	qsort(v, n, sizeof(*v), cmp_ranked);
	if (n)
		put_head(out);
	for (uint32_t i = 0; i < n && i < REP_WAITS_TOP_SITES; i++)
		put_site(out, d, v[i].i, comp);
	if (n > REP_WAITS_TOP_SITES)
		fprintf(out, "# %u more call sites with wait states (--format=json lists them all)\n",
			n - REP_WAITS_TOP_SITES);
	if (!n)
		fputs("#\n# no call site waited for a partner\n", out);
	free(v);
	return 0;
}

/* A site by its id, "?" for REP_NO_SITE. */
static void put_site_id(FILE *out, uint32_t site)
{
	if (site == REP_NO_SITE)
		fprintf(out, " %7s", "?");
	else
		fprintf(out, " %7u", site + 1);
}

/* The pairs of sites whose messages waited most.  Returns 0 or -1. */
static int put_pairs(FILE *out, const struct rep_waits *w, bool comp)
{
	struct ranked *v = malloc((w->npairs + 1) * sizeof(*v));
	uint32_t n = w->npairs < REP_WAITS_TOP_PAIRS ? w->npairs : REP_WAITS_TOP_PAIRS;
	bool unknown = false;

	if (!v)
		return -1;
	for (uint32_t i = 0; i < w->npairs; i++)
		v[i] = (struct ranked){ i, sum_sat(w->pairs[i].late_sender_ns,
						   w->pairs[i].late_receiver_ns) };
	qsort(v, w->npairs, sizeof(*v), cmp_ranked);
	fprintf(out, "#\n# messages from call site to call site, over all ranks, by the time "
		"they waited\n#%7s %7s %12s %12s %14s %16s%s\n", "from", "to", "count", "bytes",
		"late_sender(s)", "late_receiver(s)",
		comp ? " late_sender_comp(s) late_receiver_comp(s)" : "");
	for (uint32_t i = 0; i < n; i++) {
		const struct rep_site_pair *q = &w->pairs[v[i].i];

		put_site_id(out, q->send_site);
		put_site_id(out, q->recv_site);
		fprintf(out, " %12llu %12llu %14.3f %16.3f", (unsigned long long)q->count,
			(unsigned long long)q->bytes, rep_secs(q->late_sender_ns),
			rep_secs(q->late_receiver_ns));
		if (comp)
			fprintf(out, " %19.3f %21.3f", rep_secs(q->late_sender_comp_ns),
				rep_secs(q->late_receiver_comp_ns));
		fputc('\n', out);
		unknown |= q->send_site == REP_NO_SITE;
	}
	if (n < w->npairs)
		fprintf(out, "# %u more pairs (--format=json lists them all)\n", w->npairs - n);
	if (unknown)
		fputs("# ?: a sender's call site no profile names (its rank left no profile)\n", out);
	free(v);
	return 0;
}

/* The sending sites that caused the most Late Sender time. */
static void put_culprits(FILE *out, const struct rep_data *d, bool comp)
{
	const struct rep_waits *w = &d->waits;

	fprintf(out, "#\n# culprits: sending call sites by the Late Sender time they caused\n"
		"#%7s %14s %7s%s  function and call path\n", "site", "late_sender(s)", "%MPI",
		comp ? " late_sender_comp(s)" : "");
	for (uint32_t i = 0; i < w->nculprits && i < REP_WAITS_TOP_CULPRITS; i++) {
		const struct rep_culprit *c = &w->culprits[i];
		const struct rep_site *s = &d->mpi.sites[c->site];

		fprintf(out, " %7u %14.3f %7.2f", c->site + 1, rep_secs(c->late_sender_ns),
			rep_pct(c->late_sender_ns, d->mpi.time_ns));
		if (comp)
			fprintf(out, " %19.3f", rep_secs(c->late_sender_comp_ns));
		fputs("  ", out);
		rep_put_clean(out, s->function, 0);
		fputs("  ", out);
		rep_put_site_path(out, d, s);
		fputc('\n', out);
	}
	if (!w->nculprits)
		fputs("# none: no message arrived late\n", out);
}

int rep_text_waits(FILE *out, const struct rep_data *d)
{
	uint64_t ranks = mpi_rank_count(&d->mpi);
	bool comp = comp_present(d);

	rep_text_intro(out, d);
	fprintf(out, "# wait states (docs/waits.md) over %llu rank%s: MPI time %.3f s, %u call "
		"sites%s\n", (unsigned long long)ranks, ranks == 1 ? "" : "s",
		rep_secs(d->mpi.time_ns), d->mpi.nsites,
		comp ? "; compensated times beside the measured ones" : "");
	put_drift(out, &d->mpi);
	if (put_sites(out, d, comp) < 0 || put_pairs(out, &d->waits, comp) < 0)
		return -1;
	put_culprits(out, d, comp);
	return ferror(out) ? -1 : 0;
}
