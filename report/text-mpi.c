/*
 * text-mpi.c - `cpperf report --view=mpi`: the MPI statistics as aligned
 * text, in the manner of mpiP.
 *
 * Sections: the time of every process over its MPI region (wall, CPU,
 * MPI, MPI % of wall, blocked, as measured; then wall and blocked
 * compensated as --compensate says), the ranks
 * with the most and the least MPI time, the top call
 * sites by MPI time (call path cut to its innermost user frames), the
 * communication matrix (dense tables of counts and bytes up to
 * REP_MPI_DENSE ranks, beyond that the REP_MPI_TOP_PAIRS busiest sender ->
 * receiver pairs) and the collectives by communicator size.  An experiment
 * without MPI data gets one line saying so.  JSON holds everything; text
 * shows the top of each list and says what it left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "compensation.h"
#include "data.h"
#include "rank-list.h"
#include "model.h"
#include "show.h"
#include "text.h"

#define REP_MPI_TOP_SITES 20	/* call sites shown */
#define REP_MPI_PATH 3		/* innermost user frames of a call path */
#define REP_MPI_DENSE 16	/* largest job shown as a dense matrix */
#define REP_MPI_TOP_PAIRS 20	/* pairs shown for larger jobs */
#define REP_MPI_MAX_COL 30	/* widest host or function column */

static int width_of(size_t n, int min)
{
	return n > REP_MPI_MAX_COL ? REP_MPI_MAX_COL : (int)n < min ? min : (int)n;
}

static void put_header(FILE *out, const struct rep_data *d)
{
	const struct rep_mpi *m = &d->mpi;

	rep_text_intro(out, d);
	fputs("# MPI: ", out);
	rep_put_clean(out, m->library ? m->library : "(library not named)", 0);
	fprintf(out, "; %lld ranks, %u processes; MPI time %.3f s, %u call sites\n#\n",
		(long long)m->size, d->nprocs, rep_secs(m->time_ns), m->nsites);
}

/* The compensated columns of rank r: "-" without compensation data. */
static void put_rank_comp(FILE *out, const struct rep_rank *r, enum rep_comp comp)
{
	if (!r->comp_on) {
		fprintf(out, " %11s %13s", "-", "-");
		return;
	}
	fprintf(out, " %11.3f %13.3f", rep_secs(comp_rank_wall_ns(r, comp)),
		rep_secs(comp_rank_blocked_ns(r, comp)));
}

/* Each measured column over every rank, when only some are listed. */
static int put_dists(FILE *out, const struct rep_mpi *m, long listed)
{
	fprintf(out, "# %u ranks: listed below are rank 0 and the %d with the most and the "
		"%d with the least MPI time, %ld in all (--all-ranks lists every rank); over "
		"all ranks (seconds):\n#  %-8s %9s %9s %9s %9s  rank of max\n", m->nranks,
		REP_EXTREME_RANKS, REP_EXTREME_RANKS, listed, "", "min", "median", "mean", "max");
	for (int c = 0; c < REP_RANK_COLS; c++) {
		struct rep_dist x;

		if (rep_rank_dist(m, rep_rank_cols[c].value, &x) < 0)
			return -1;
		fprintf(out, "#  %-8s %9.3f %9.3f %9.3f %9.3f  %lld\n", rep_rank_cols[c].name, x.min,
			x.median, x.mean, x.max, (long long)x.max_rank);
	}
	return 0;
}

static int put_ranks(FILE *out, const struct rep_data *d, enum rep_comp comp, bool all)
{
	const struct rep_mpi *m = &d->mpi;
	bool compensated = comp != REP_COMP_NONE && comp_present(d);
	size_t hw = strlen("host");
	bool *listed;
	long n = rep_rank_listing(m, all, &listed);

	if (n < 0)
		return -1;

	for (uint32_t i = 0; i < m->nranks; i++)
		hw = strlen(m->ranks[i].host) > hw ? strlen(m->ranks[i].host) : hw;
	int w = width_of(hw, 4);

	fputs("# time per process (seconds), as measured over its MPI region: exit of "
	      "MPI_Init to entry of MPI_Finalize (or the end of a partial profile); MPI "
	      "and blocked leave out MPI_Init and MPI_Finalize\n", out);
	if (compensated)
		fprintf(out, "# compensated (%s) for ranks with overhead data: %s; "
			"--view=compensation has the details\n", comp_mode_name(comp),
			comp == REP_COMP_LOCAL ?
			"wall(comp) is the region minus the rank's overhead, blocked(comp) as measured" :
			"wall(comp) is the region minus the final delay, blocked(comp) the "
			"compensated waits");
	if (n < (long)m->nranks && put_dists(out, m, n) < 0) {
		free(listed);
		return -1;
	}
	fprintf(out, "#   rank  %-*s  %9s %9s %9s %9s %9s", w, "host", "wall", "cpu", "MPI",
		"MPI%wall", "blocked");
	fputs(compensated ? "  wall(comp) blocked(comp)\n" : "\n", out);
	for (uint32_t i = 0; i < m->nranks; i++) {
		const struct rep_rank *r = &m->ranks[i];

		if (!listed[i])
			continue;
		if (r->rank < 0)
			fprintf(out, "%8s  ", "-");
		else
			fprintf(out, "%8lld  ", (long long)r->rank);
		rep_put_clean(out, r->host, w);
		fprintf(out, "  %9.3f %9.3f %9.3f %9.2f %9.3f", rep_secs(r->wall_ns),
			rep_secs(r->cpu_ns), rep_secs(r->mpi_ns), rep_pct(r->mpi_ns, r->wall_ns),
			rep_secs(r->blocked_ns));
		if (compensated)
			put_rank_comp(out, r, comp);
		fputc('\n', out);
	}
	free(listed);
	return 0;
}

/* The MPI ranks with the most and the least MPI time (lowest rank on ties). */
static void put_extremes(FILE *out, const struct rep_mpi *m)
{
	const struct rep_rank *hi = NULL, *lo = NULL;

	for (uint32_t i = 0; i < m->nranks; i++) {
		const struct rep_rank *r = &m->ranks[i];

		if (r->rank < 0)
			continue;
		if (!hi || r->mpi_ns > hi->mpi_ns)
			hi = r;
		if (!lo || r->mpi_ns < lo->mpi_ns)
			lo = r;
	}
	if (!hi)
		return;
	fprintf(out, "# most MPI time: rank %lld (%.3f s, %.2f%% of wall); least: rank "
		"%lld (%.3f s, %.2f%% of wall)\n", (long long)hi->rank, rep_secs(hi->mpi_ns),
		rep_pct(hi->mpi_ns, hi->wall_ns), (long long)lo->rank,
		rep_secs(lo->mpi_ns), rep_pct(lo->mpi_ns, lo->wall_ns));
}

/* Whether a frame belongs to the MPI library or its wrappers. */
static bool mpi_frame(const char *name)
{
	return !strncasecmp(name, "mpi_", 4) || !strncasecmp(name, "pmpi_", 5);
}

/* See text.h. */
void rep_put_site_path(FILE *out, const struct rep_data *d, const struct rep_site *s)
{
	uint32_t end = s->nframes, start;

	while (end > 0 && mpi_frame(d->names[s->frames[end - 1]]))
		end--;
	start = end > REP_MPI_PATH ? end - REP_MPI_PATH : 0;
	if (start > 0)
		fputs("... > ", out);
	for (uint32_t k = start; k < end; k++) {
		if (k > start)
			fputs(" > ", out);
		rep_put_clean(out, d->names[s->frames[k]], 0);
	}
	if (end == 0)
		fputs("[no user frame]", out);
}

/* Which threads called site s: "main" when only the ranks' main threads
 * did, else the most threads of a rank that did. */
static void put_site_threads(FILE *out, const struct rep_site *s)
{
	if (s->threads <= 1 && s->main_calls == s->calls)
		fprintf(out, " %7s", "main");
	else
		fprintf(out, " %7llu", (unsigned long long)s->threads);
}

static void put_sites(FILE *out, const struct rep_data *d)
{
	const struct rep_mpi *m = &d->mpi;
	uint32_t n = m->nsites < REP_MPI_TOP_SITES ? m->nsites : REP_MPI_TOP_SITES;
	size_t fw = strlen("function");

	for (uint32_t i = 0; i < n; i++)
		fw = strlen(m->sites[i].function) > fw ? strlen(m->sites[i].function) : fw;
	int w = width_of(fw, 8);

	fprintf(out, "#\n# top call sites by MPI time (threads: main when only the ranks' main "
		"threads called, else the most threads of a rank that did)\n#  id  %-*s %10s %7s "
		"%9s %7s %12s %12s  call path (innermost last)\n", w, "function", "calls", "threads",
		"time(s)", "%MPI", "sent(B)", "recv(B)");
	for (uint32_t i = 0; i < n; i++) {
		const struct rep_site *s = &m->sites[i];

		fprintf(out, "%5u  ", i + 1);
		rep_put_clean(out, s->function, w);
		fprintf(out, " %10llu", (unsigned long long)s->calls);
		put_site_threads(out, s);
		fprintf(out, " %9.3f %7.2f %12llu %12llu  ", rep_secs(s->time_ns), rep_pct(s->time_ns, m->time_ns),
			(unsigned long long)s->bytes_sent, (unsigned long long)s->bytes_recv);
		rep_put_site_path(out, d, s);
		fputc('\n', out);
	}
	if (n < m->nsites)
		fprintf(out, "# %u more call sites (--format=json lists them all)\n",
			m->nsites - n);
}

/* One dense size x size table of counts or bytes (size <= REP_MPI_DENSE). */
static void put_dense(FILE *out, const struct rep_mpi *m, bool bytes)
{
	uint32_t at = 0;

	fprintf(out, "#  %s   to:", bytes ? "bytes " : "count ");
	for (int64_t j = 0; j < m->size; j++)
		fprintf(out, " %11lld", (long long)j);
	fputc('\n', out);
	for (int64_t i = 0; i < m->size; i++) {
		fprintf(out, "#  from %5lld", (long long)i);
		for (int64_t j = 0; j < m->size; j++) {
			const struct rep_pair *q = at < m->npairs ? &m->pairs[at] : NULL;
			bool here = q && q->src == i && q->dst == j;

			fprintf(out, " %11llu", (unsigned long long)(!here ? 0 :
					bytes ? q->bytes : q->count));
			at += here;
		}
		fputc('\n', out);
	}
}

static int cmp_pair_bytes(const void *a, const void *b)
{
	const struct rep_pair *x = *(const struct rep_pair *const *)a;
	const struct rep_pair *y = *(const struct rep_pair *const *)b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The busiest pairs by bytes.  Returns 0, or -1 when memory is short. */
static int put_top_pairs(FILE *out, const struct rep_mpi *m)
{
	const struct rep_pair **order = malloc((m->npairs + 1) * sizeof(*order));
	uint32_t n = m->npairs < REP_MPI_TOP_PAIRS ? m->npairs : REP_MPI_TOP_PAIRS;

	if (!order)
		return -1;
	for (uint32_t i = 0; i < m->npairs; i++)
		order[i] = &m->pairs[i];
	qsort(order, m->npairs, sizeof(*order), cmp_pair_bytes);
	fprintf(out, "#   from      to       count        bytes\n");
	for (uint32_t i = 0; i < n; i++)
		fprintf(out, "%8lld %7lld %11llu %12llu\n", (long long)order[i]->src,
			(long long)order[i]->dst, (unsigned long long)order[i]->count,
			(unsigned long long)order[i]->bytes);
	fprintf(out, "# %u of %u sender -> receiver pairs with messages shown, by bytes\n",
		n, m->npairs);
	free(order);
	return 0;
}

static int put_matrix(FILE *out, const struct rep_mpi *m)
{
	fputs("#\n# point-to-point messages sent (row: sender, column: receiver)\n", out);
	if (m->size > REP_MPI_DENSE)
		return put_top_pairs(out, m);
	put_dense(out, m, false);
	put_dense(out, m, true);
	return 0;
}

static void put_colls(FILE *out, const struct rep_mpi *m)
{
	size_t fw = strlen("function");

	for (uint32_t i = 0; i < m->ncolls; i++)
		fw = strlen(m->colls[i].function) > fw ? strlen(m->colls[i].function) : fw;
	int w = width_of(fw, 8);

	fprintf(out, "#\n# collectives by communicator size\n#   size  %-*s %10s %12s %9s\n",
		w, "function", "calls", "bytes", "time(s)");
	for (uint32_t i = 0; i < m->ncolls; i++) {
		const struct rep_coll *c = &m->colls[i];

		fprintf(out, "%8lld  ", (long long)c->comm_size);
		rep_put_clean(out, c->function, w);
		fprintf(out, " %10llu %12llu %9.3f\n", (unsigned long long)c->calls,
			(unsigned long long)c->bytes, rep_secs(c->time_ns));
	}
	if (m->ncolls == 0)
		fputs("# none\n", out);
}

int rep_text_mpi(FILE *out, const struct rep_data *d, enum rep_comp comp, bool all_ranks)
{
	const struct rep_mpi *m = &d->mpi;

	if (m->size == 0 && m->nsites == 0 && m->ncolls == 0) {
		fputs("no MPI data in this experiment\n", out);
		return ferror(out) ? -1 : 0;
	}
	put_header(out, d);
	if (put_ranks(out, d, comp, all_ranks) < 0)
		return -1;
	put_extremes(out, m);
	put_sites(out, d);
	if (put_matrix(out, m) < 0)
		return -1;
	put_colls(out, m);
	return ferror(out) ? -1 : 0;
}
