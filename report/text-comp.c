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
#include <string.h>
#include "report.h"

#define REP_COMP_MAX_HOST 30	/* widest host column */

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static void put_rank_rows(FILE *out, const struct rep_mpi *m)
{
	size_t hw = strlen("host");

	for (uint32_t i = 0; i < m->nranks; i++)
		hw = strlen(m->ranks[i].host) > hw ? strlen(m->ranks[i].host) : hw;
	int w = hw > REP_COMP_MAX_HOST ? REP_COMP_MAX_HOST : (int)hw;

	fprintf(out, "# per process (seconds): wall from the exit of MPI_Init to the entry "
		"of MPI_Finalize\n#   rank  %-*s  %10s %10s %10s %10s %10s %10s %10s\n", w,
		"host", "wall", "local", "parallel", "overhead", "delay", "wait", "wait'");
	for (uint32_t i = 0; i < m->nranks; i++) {
		const struct rep_rank *r = &m->ranks[i];

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
			secs(r->comp_wall_ns), secs(comp_wall_local_ns(r)),
			secs(comp_wall_parallel_ns(r)), secs(comp_overhead_ns(&r->ovh)),
			secs(r->comp_delay_ns), secs(r->comp_wait_ns),
			secs(r->comp_wait_comp_ns));
	}
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
		s.samples += o->samples;
		s.sample_ns += o->sample_ns;
		s.calls += o->calls;
		s.wrapper_ns += o->wrapper_ns;
		s.piggyback_ns += o->piggyback_ns;
		s.drain_ns += o->drain_ns;
		s.inject_ns += o->inject_ns;
		s.switches += o->switches;
		s.switch_ns += o->switch_ns;
		s.contention_ns += o->contention_ns;
	}
	uint64_t all = comp_overhead_ns(&s);

	fprintf(out, "#\n# overhead by source, summed over %u rank%s (seconds, %% of the "
		"overhead)\n", n, n == 1 ? "" : "s");
	fprintf(out, "  sample     %10.6f %7.2f  %llu samples x estimated kernel cost\n",
		secs(s.sample_ns), rep_pct(s.sample_ns, all), (unsigned long long)s.samples);
	fprintf(out, "  wrapper    %10.6f %7.2f  %llu calls x entry cost calibrated at "
		"MPI_Init, exits measured\n", secs(s.wrapper_ns), rep_pct(s.wrapper_ns, all),
		(unsigned long long)s.calls);
	fprintf(out, "  piggyback  %10.6f %7.2f  measured\n", secs(s.piggyback_ns),
		rep_pct(s.piggyback_ns, all));
	fprintf(out, "  drain      %10.6f %7.2f  measured (the drain thread, and unwinding "
		"on the rank's thread)\n", secs(s.drain_ns), rep_pct(s.drain_ns, all));
	fprintf(out, "  inject     %10.6f %7.2f  measured (CPPERF_INJECT_*)\n",
		secs(s.inject_ns), rep_pct(s.inject_ns, all));
	fprintf(out, "  switch     %10.6f %7.2f  %llu context switches x cost calibrated at "
		"MPI_Init\n", secs(s.switch_ns), rep_pct(s.switch_ns, all),
		(unsigned long long)s.switches);
	fprintf(out, "  contention %10.6f %7.2f  measured (the MPI thread waiting for a CPU "
		"outside its waits)\n", secs(s.contention_ns), rep_pct(s.contention_ns, all));
	fprintf(out, "  total      %10.6f\n", secs(all));
}

int rep_text_comp(FILE *out, const struct rep_data *d)
{
	rep_text_intro(out, d);
	fputs("# overhead compensation: local removes each rank's own overhead, parallel "
	      "its final delay\n# (its overhead and the other ranks' that reached it "
	      "through messages); wait' is the\n# time waited in receives and "
	      "collectives after compensation\n#\n", out);
	put_rank_rows(out, &d->mpi);
	put_sources(out, &d->mpi);
	return ferror(out) ? -1 : 0;
}
