/*
 * text-comp.c - `cpperf report --view=compensation`: the measurement
 * overhead of every rank and what removing it changes.
 *
 * One row per process: the measured wall (exit of MPI_Init to entry of
 * MPI_Finalize), the local-compensated wall (minus the rank's own
 * overhead), the parallel-compensated wall (minus its final delay, which
 * carries the other ranks' overhead along the messages), the overhead, the
 * delay, and the time waited in receives and collectives as measured and
 * compensated; processes without compensation data show '-'.  Then one
 * line per source of overhead summed over the ranks, with how each is
 * obtained.  rep_render checks that the experiment has compensation data.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compensation.h"
#include "data.h"
#include "rank-list.h"
#include "model.h"
#include "show.h"
#include "text.h"
#include "../common/sum.h"

#define REP_COMP_MAX_HOST 30	/* widest host column */

static int put_rank_rows(FILE *out, const struct rep_mpi *m, bool all)
{
	size_t hw = strlen("host");
	bool *listed;
	long n = rep_rank_listing(m, all, &listed);

	if (n < 0)
		return -1;
	if (n < (long)m->nranks)
		fprintf(out, "# %u ranks: listed are rank 0 and the %d with the most and the %d "
			"with the least MPI time (--all-ranks lists every rank)\n", m->nranks,
			REP_EXTREME_RANKS, REP_EXTREME_RANKS);

	for (uint32_t i = 0; i < m->nranks; i++)
		hw = strlen(m->ranks[i].host) > hw ? strlen(m->ranks[i].host) : hw;
	int w = hw > REP_COMP_MAX_HOST ? REP_COMP_MAX_HOST : (int)hw;

	fprintf(out, "# per process (seconds): wall from the exit of MPI_Init to the entry "
		"of MPI_Finalize\n#   rank  %-*s  %10s %10s %10s %10s %10s %10s %10s\n", w,
		"host", "wall", "local", "parallel", "overhead", "delay", "wait", "wait'");
	for (uint32_t i = 0; i < m->nranks; i++) {
		const struct rep_rank *r = &m->ranks[i];

		if (!listed[i])
			continue;
		if (r->rank < 0)
			fprintf(out, "%8s  ", "-");
		else
			fprintf(out, "%8lld  ", (long long)r->rank);
		rep_put_clean(out, r->host, w);
		if (!r->comp_on) {
			fprintf(out, "  %10s %10s %10s %10s %10s %10s %10s\n", "-", "-", "-",
				"-", "-", "-", "-");
			continue;
		}
		fprintf(out, "  %10.6f %10.6f %10.6f %10.6f %10.6f %10.6f %10.6f\n",
			rep_secs(r->comp_wall_ns), rep_secs(comp_wall_local_ns(r)),
			rep_secs(comp_wall_parallel_ns(r)), rep_secs(comp_overhead_ns(&r->ovh)),
			rep_secs(r->comp_delay_ns), rep_secs(r->comp_wait_ns),
			rep_secs(r->comp_wait_comp_ns));
	}
	free(listed);
	return 0;
}

/* A source's count in a row ("N samples x ..."), when it has one. */
#define OVH_COUNT_none(o) -1
#define OVH_COUNT_samples(o) (long long)(o)->samples
#define OVH_COUNT_calls(o) (long long)(o)->calls
#define OVH_COUNT_switches(o) (long long)(o)->switches

static void put_source(FILE *out, const char *name, uint64_t ns, uint64_t all, long long count,
		       const char *how)
{
	fprintf(out, "  %-10s %10.6f %7.2f  ", name, rep_secs(ns), rep_pct(ns, all));
	if (count >= 0)
		fprintf(out, "%lld ", count);
	fprintf(out, "%s\n", how);
}

static void put_sources(FILE *out, const struct rep_mpi *m)
{
	struct prof_overhead s = { 0 };
	uint32_t n = 0;

	for (uint32_t i = 0; i < m->nranks; i++) {
		const struct prof_overhead *o = &m->ranks[i].ovh;

		if (!m->ranks[i].comp_on)
			continue;
		n++;
		s.samples = sum_sat(s.samples, o->samples);
		s.calls = sum_sat(s.calls, o->calls);
		s.switches = sum_sat(s.switches, o->switches);
#define OVH_SUM(name, count, cost, how) s.name##_ns = sum_sat(s.name##_ns, o->name##_ns);
		PROF_OVH_SOURCES(OVH_SUM)
#undef OVH_SUM
	}
	uint64_t all = comp_overhead_ns(&s);

	fprintf(out, "#\n# overhead by source, summed over %u rank%s (seconds, %% of the "
		"overhead)\n", n, n == 1 ? "" : "s");
#define OVH_ROW(name, count, cost, how) put_source(out, #name, s.name##_ns, all, OVH_COUNT_##count(&s), how);
	PROF_OVH_SOURCES(OVH_ROW)
#undef OVH_ROW
	fprintf(out, "  total      %10.6f\n", rep_secs(all));
}

/* What a sample was charged, and what the ranks' drain threads measured
 * of it along the run: the widest of their quartiles. */
static void put_sample_cost(FILE *out, const struct rep_mpi *m)
{
	uint64_t samples = 0, ns = 0, kept = 0, busy = 0, lo = UINT64_MAX, hi = 0;

	for (uint32_t i = 0; i < m->nranks; i++) {
		const struct rep_rank *r = &m->ranks[i];

		if (!r->comp_on)
			continue;
		samples = sum_sat(samples, r->ovh.samples);
		ns = sum_sat(ns, r->ovh.sample_ns);
		kept = sum_sat(kept, r->sample_probes);
		busy = sum_sat(busy, r->sample_probes_busy);
		if (r->sample_cost_hi_ns) {
			lo = r->sample_cost_lo_ns < lo ? r->sample_cost_lo_ns : lo;
			hi = r->sample_cost_hi_ns > hi ? r->sample_cost_hi_ns : hi;
		}
	}
	if (!samples)
		return;
	fprintf(out, "# a sample was charged %.1f us on average", ns / (double)samples / 1e3);
	if (hi)
		fprintf(out, "; measured along the run %.1f-%.1f us (quartiles, %" PRIu64
			" pairs kept, %" PRIu64 " rejected)", lo / 1e3, hi / 1e3, kept, busy);
	else if (kept || busy)
		fprintf(out, "; too few measured along the run (%" PRIu64 " pairs kept, %"
			PRIu64 " rejected)", kept, busy);
	fputc('\n', out);
}

int rep_text_comp(FILE *out, const struct rep_data *d, bool all_ranks)
{
	rep_text_intro(out, d);
	fputs("# overhead compensation: local removes each rank's own overhead, parallel "
	      "its final delay\n# (its overhead and the other ranks' that reached it "
	      "through messages); wait' is the\n# time waited in receives and "
	      "collectives after compensation\n#\n", out);
	if (put_rank_rows(out, &d->mpi, all_ranks) < 0)
		return -1;
	put_sources(out, &d->mpi);
	put_sample_cost(out, &d->mpi);
	return ferror(out) ? -1 : 0;
}
