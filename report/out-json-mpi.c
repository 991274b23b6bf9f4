/*
 * out-json-mpi.c - the MPI keys of `cpperf report --format=json`
 * (docs/json.md): "experiment.ranks" and "experiment.mpi", the per-process
 * "ranks" array (wall and blocked time as --compensate says, and each
 * rank's overhead compensation: walls, overhead, delay, waits, sources)
 * and the "mpi" object (call sites by time, the communication matrix as
 * its pairs, and dense up to REP_LISTED_RANKS ranks, collectives).  Times
 * are seconds.  The dense matrix is written row by row from the sorted
 * pairs, so it costs no size x size memory, only output.
 */
#include <stdlib.h>

#include "compensation.h"
#include "data.h"
#include "json.h"
#include "merge-mpi.h"
#include "out-json.h"
#include "rank-list.h"
#include "model.h"
#include "show.h"

/* See out-json.h. */
void rep_json_seconds(struct json_w *w, const char *key, uint64_t ns)
{
	json_key(w, key);
	json_double(w, (double)ns / 1e9);
}

void rep_json_mpi_experiment(struct json_w *w, const struct rep_data *d)
{
	json_key(w, "ranks");
	json_i64(w, d->mpi.size);
	json_key(w, "mpi");
	if (d->mpi.library)
		json_string(w, d->mpi.library);
	else
		json_null(w);
}

/* The compensation keys of a rank entry: numbers when r has compensation
 * data, null otherwise. */
static void put_rank_comp(struct json_w *w, const struct rep_rank *r)
{
	static const char *const keys[] = { "wall_measured", "wall_compensated",
		"wall_local_compensated", "overhead", "delay", "mpi_wait",
		"mpi_blocked_compensated", "overhead_sources" };
	const struct prof_overhead *o = &r->ovh;

	if (!r->comp_on) {
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			json_key(w, keys[i]);
			json_null(w);
		}
		return;
	}
	rep_json_seconds(w, keys[0], r->comp_wall_ns);
	rep_json_seconds(w, keys[1], comp_wall_parallel_ns(r));
	rep_json_seconds(w, keys[2], comp_wall_local_ns(r));
	rep_json_seconds(w, keys[3], comp_overhead_ns(o));
	rep_json_seconds(w, keys[4], r->comp_delay_ns);
	rep_json_seconds(w, keys[5], r->comp_wait_ns);
	rep_json_seconds(w, keys[6], r->comp_wait_comp_ns);
	json_key(w, keys[7]);
	json_begin_object(w);
#define OVH_JSON(name, count, cost, how) rep_json_seconds(w, #name, o->name##_ns);
	PROF_OVH_SOURCES(OVH_JSON)
#undef OVH_JSON
	json_key(w, "samples");
	json_u64(w, o->samples);
	json_key(w, "calls");
	json_u64(w, o->calls);
	json_key(w, "switches");
	json_u64(w, o->switches);
	json_key(w, "sample_cost_ns");
	json_u64(w, o->sample_cost_ns);
	json_key(w, "call_cost_ns");
	json_u64(w, o->call_cost_ns);
	json_key(w, "switch_cost_ns");
	json_u64(w, o->switch_cost_ns);
	json_key(w, "sample_probes");
	json_u64(w, r->sample_probes);
	json_key(w, "sample_probes_busy");
	json_u64(w, r->sample_probes_busy);
	json_key(w, "sample_cost_lo_ns");
	json_u64(w, r->sample_cost_lo_ns);
	json_key(w, "sample_cost_hi_ns");
	json_u64(w, r->sample_cost_hi_ns);
	json_end_object(w);
}

/* "ranks_summary": every rank's measured times as distributions, when
 * "ranks" lists some of them (rank-list.h); null when it lists all. */
static int put_summary(struct json_w *w, const struct rep_mpi *m, long listed)
{
	json_key(w, "ranks_summary");
	if (listed == (long)m->nranks) {
		json_null(w);
		return 0;
	}
	json_begin_object(w);
	json_key(w, "ranks");
	json_u64(w, m->nranks);
	json_key(w, "listed");
	json_u64(w, (uint64_t)listed);
	for (int c = 0; c < REP_RANK_COLS; c++) {
		struct rep_dist x;

		if (rep_rank_dist(m, rep_rank_cols[c].value, &x) < 0)
			return -1;
		json_key(w, rep_rank_cols[c].key);
		json_begin_object(w);
		json_key(w, "min");
		json_double(w, x.min);
		json_key(w, "median");
		json_double(w, x.median);
		json_key(w, "mean");
		json_double(w, x.mean);
		json_key(w, "max");
		json_double(w, x.max);
		json_key(w, "max_rank");
		json_i64(w, x.max_rank);
		json_end_object(w);
	}
	json_end_object(w);
	return 0;
}

/* "ranks": the ranks rank-list.h lists (every one when all), then
 * "ranks_summary".  Returns 0 or -1 when memory is short. */
static int put_ranks(struct json_w *w, const struct rep_mpi *m, bool all)
{
	bool *listed;
	long n = rep_rank_listing(m, all, &listed);
	int rc;

	if (n < 0)
		return -1;
	json_key(w, "ranks");
	json_begin_array(w);
	for (uint32_t i = 0; i < m->nranks; i++) {
		const struct rep_rank *r = &m->ranks[i];

		if (!listed[i])
			continue;
		json_begin_object(w);
		rep_json_rank(w, r->rank);
		json_key(w, "host");
		json_string(w, r->host);
		/* as measured over the MPI region: the compensated values have
		 * keys of their own */
		rep_json_seconds(w, "wall", r->wall_ns);
		rep_json_seconds(w, "cpu", r->cpu_ns);
		rep_json_seconds(w, "mpi_time", r->mpi_ns);
		rep_json_seconds(w, "mpi_blocked", r->blocked_ns);
		rep_json_seconds(w, "process_wall", r->process_wall_ns);
		rep_json_seconds(w, "process_cpu", r->process_cpu_ns);
		put_rank_comp(w, r);
		json_end_object(w);
	}
	json_end_array(w);
	rc = put_summary(w, m, n);
	free(listed);
	return rc;
}

/* See out-json.h. */
void rep_json_frame(struct json_w *w, const struct rep_data *d, uint32_t fr)
{
	const struct sym_frame *sf = &d->syms.frames[fr];

	json_begin_object(w);
	json_key(w, "function");
	json_string(w, d->names[fr]);
	json_key(w, "module");
	json_string(w, rep_module_path(d, sf->module));
	json_key(w, "file");
	json_string(w, sf->file);
	json_key(w, "line");
	json_u64(w, sf->line);
	json_end_object(w);
}

/* "time_ranks": the site's time over the MPI ranks: min, mean, max (s)
 * and the rank of the max (-1 when it is 0). */
static void put_time_spread(struct json_w *w, const struct rep_site *s, uint64_t n)
{
	if (!n)
		return;
	json_key(w, "time_ranks");
	json_begin_object(w);
	rep_json_seconds(w, "min", prof_spread_min(&s->time_spread, n));
	json_key(w, "mean");
	json_double(w, (double)s->time_ns / (double)n / 1e9);
	rep_json_seconds(w, "max", s->time_spread.max);
	json_key(w, "max_rank");
	json_i64(w, s->time_spread.max ? s->time_spread.max_rank : -1);
	json_end_object(w);
}

/* See out-json.h. */
void rep_json_site_name(struct json_w *w, const struct rep_data *d, const struct rep_site *s)
{
	json_key(w, "function");
	json_string(w, s->function);
	json_key(w, "callpath");
	json_begin_array(w);
	for (uint32_t k = 0; k < s->nframes; k++)
		rep_json_frame(w, d, s->frames[k]);
	json_end_array(w);
}

static void put_site(struct json_w *w, const struct rep_data *d, const struct rep_site *s,
		     uint32_t id, uint64_t nranks)
{
	json_begin_object(w);
	json_key(w, "id");
	json_u64(w, id);
	rep_json_site_name(w, d, s);
	json_key(w, "calls");
	json_u64(w, s->calls);
	json_key(w, "threads");
	json_u64(w, s->threads);
	json_key(w, "main_thread_calls");
	json_u64(w, s->main_calls);
	rep_json_seconds(w, "time", s->time_ns);
	put_time_spread(w, s, nranks);
	rep_json_seconds(w, "blocked", s->blocked_ns);
	json_key(w, "bytes_sent");
	json_u64(w, s->bytes_sent);
	json_key(w, "bytes_recv");
	json_u64(w, s->bytes_recv);
	json_key(w, "histogram");
	json_begin_array(w);
	for (int k = 0; k < PROF_MPI_HIST; k++)
		json_u64(w, s->hist[k]);
	json_end_array(w);
	json_end_object(w);
}

/* "pairs": [[src, dst, count, bytes], ...] for every pair that
 * exchanged, by sender then receiver: the matrix however many ranks. */
static void put_pairs(struct json_w *w, const struct rep_mpi *m)
{
	json_key(w, "pairs");
	json_begin_array(w);
	for (uint32_t i = 0; i < m->npairs; i++) {
		const struct rep_pair *q = &m->pairs[i];

		json_begin_array(w);
		json_i64(w, q->src);
		json_i64(w, q->dst);
		json_u64(w, q->count);
		json_u64(w, q->bytes);
		json_end_array(w);
	}
	json_end_array(w);
}

/* One size x size matrix of the pairs' counts (bytes false) or bytes. */
static void put_matrix(struct json_w *w, const struct rep_mpi *m, const char *key,
		       bool bytes)
{
	uint32_t at = 0;

	json_key(w, key);
	json_begin_array(w);
	for (int64_t i = 0; i < m->size; i++) {
		json_begin_array(w);
		for (int64_t j = 0; j < m->size; j++) {
			const struct rep_pair *q = at < m->npairs ? &m->pairs[at] : NULL;
			bool here = q && q->src == i && q->dst == j;

			json_u64(w, !here ? 0 : bytes ? q->bytes : q->count);
			at += here;
		}
		json_end_array(w);
	}
	json_end_array(w);
}

static void put_colls(struct json_w *w, const struct rep_mpi *m)
{
	json_key(w, "collectives");
	json_begin_array(w);
	for (uint32_t i = 0; i < m->ncolls; i++) {
		const struct rep_coll *c = &m->colls[i];

		json_begin_object(w);
		json_key(w, "function");
		json_string(w, c->function);
		json_key(w, "comm_size");
		json_i64(w, c->comm_size);
		json_key(w, "calls");
		json_u64(w, c->calls);
		json_key(w, "bytes");
		json_u64(w, c->bytes);
		rep_json_seconds(w, "time", c->time_ns);
		json_end_object(w);
	}
	json_end_array(w);
}

int rep_json_mpi(struct json_w *w, const struct rep_data *d, bool all_ranks)
{
	const struct rep_mpi *m = &d->mpi;
	uint64_t nranks = mpi_rank_count(m);

	if (put_ranks(w, m, all_ranks) < 0)
		return -1;
	json_key(w, "mpi");
	json_begin_object(w);
	json_key(w, "callsites");
	json_begin_array(w);
	for (uint32_t i = 0; i < m->nsites; i++)
		put_site(w, d, &m->sites[i], i + 1, nranks);
	json_end_array(w);
	json_key(w, "matrix");
	json_begin_object(w);
	json_key(w, "ranks");
	json_i64(w, m->size);
	put_pairs(w, m);
	if (m->size <= REP_LISTED_RANKS) {	/* quadratic: small jobs only */
		put_matrix(w, m, "count", false);
		put_matrix(w, m, "bytes", true);
	}
	json_end_object(w);
	put_colls(w, m);
	json_end_object(w);
	return 0;
}
