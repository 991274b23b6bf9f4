/*
 * profile.c - life cycle of a struct profile (init, release), the table
 * of scalar records, the format version a profile needs, the rules of the
 * critical-path records (zeroing and the length series included) and
 * those of the overhead and compensation scalars, which the writer and
 * the reader share.  Writing is in profile-write.c, reading and
 * validation in profile-read.c and profile-read-cp.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "profile.h"
#include "profile-int.h"
#include "sum.h"

#define SCALAR_MAX(k, s, t, f, m) { k, s, t, offsetof(struct profile, f), m, 0 }
#define SCALAR(k, s, t, f) SCALAR_MAX(k, s, t, f, UINT64_MAX)
#define SCALAR_SINCE(k, t, f, v) { k, PS_COUNTER, t, offsetof(struct profile, f), UINT64_MAX, v }

const struct prof_scalar prof_scalars[PROF_NSCALARS] = {
	SCALAR("host", PS_META, PK_STR, host),
	SCALAR("pid", PS_META, PK_I64, pid),
	SCALAR("rank", PS_META, PK_I64, rank),
	SCALAR("size", PS_META, PK_I64, size),
	SCALAR("start_ns", PS_META, PK_U64, start_ns),
	SCALAR("end_ns", PS_META, PK_U64, end_ns),
	SCALAR("backend", PS_META, PK_STR, backend),
	SCALAR("call_graph", PS_META, PK_STR, call_graph),
	SCALAR("mpi_library", PS_META, PK_STR, mpi_library),
	SCALAR("run", PS_META, PK_STR, run),
	SCALAR("partial", PS_META, PK_STR, partial),
	SCALAR("samples", PS_COUNTER, PK_U64, samples),
	SCALAR("lost", PS_COUNTER, PK_U64, lost),
	SCALAR("throttled", PS_COUNTER, PK_U64, throttled),
	SCALAR("unwind_complete", PS_COUNTER, PK_U64, unwind_complete),
	SCALAR("unwind_truncated", PS_COUNTER, PK_U64, unwind_truncated),
	SCALAR("unwind_ns", PS_COUNTER, PK_U64, unwind_ns),
	SCALAR("drain_cpu_ns", PS_COUNTER, PK_U64, drain_cpu_ns),
	SCALAR("cpu_ns", PS_COUNTER, PK_U64, cpu_ns),
	SCALAR("mpi_wall_ns", PS_COUNTER, PK_U64, mpi_wall_ns),
	SCALAR("mpi_cpu_ns", PS_COUNTER, PK_U64, mpi_cpu_ns),
	SCALAR("checkpoints", PS_COUNTER, PK_U64, checkpoints),
	SCALAR("checkpoint_ns", PS_COUNTER, PK_U64, checkpoint_ns),
	SCALAR("cp_events", PS_COUNTER, PK_U64, cp_events),
	SCALAR("cp_length_ns", PS_COUNTER, PK_U64, cp_length_ns),
	SCALAR("cp_wall_ns", PS_COUNTER, PK_U64, cp_wall_ns),
	SCALAR_MAX("cp_trace", PS_COUNTER, PK_U64, cp_trace, 1),
	SCALAR("cp_budget", PS_COUNTER, PK_U64, cp_budget),
	SCALAR("cp_cut", PS_COUNTER, PK_U64, cp_cut),
	SCALAR_MAX("cp_fn_how", PS_COUNTER, PK_U64, cp_fn_how, PROF_CP_FN_MERGE),
	SCALAR("cp_fn_start", PS_COUNTER, PK_U64, cp_fn_start),
	SCALAR_SINCE("cp_folds", PK_U64, cp_folds, PROFILE_VERSION_FOLDS),
	SCALAR_SINCE("cp_fold_event", PK_U64, cp_fold_event, PROFILE_VERSION_FOLDS),
	SCALAR_SINCE("cp_fold_ns", PK_U64, cp_fold_ns, PROFILE_VERSION_FOLDS),
	SCALAR_SINCE("cp_gap_rank", PK_I64, cp_gap_rank, PROFILE_VERSION_FOLDS),
	SCALAR_SINCE("cp_gap_event", PK_U64, cp_gap_event, PROFILE_VERSION_FOLDS),
	SCALAR_MAX("comp_on", PS_COUNTER, PK_U64, comp_on, 1),
#define OVH_FIELD_none
#define OVH_FIELD(f) SCALAR("ovh_" #f, PS_COUNTER, PK_U64, ovh.f),
#define OVH_FIELD_samples OVH_FIELD(samples)
#define OVH_FIELD_sample_cost_ns OVH_FIELD(sample_cost_ns)
#define OVH_FIELD_calls OVH_FIELD(calls)
#define OVH_FIELD_call_cost_ns OVH_FIELD(call_cost_ns)
#define OVH_FIELD_switches OVH_FIELD(switches)
#define OVH_FIELD_switch_cost_ns OVH_FIELD(switch_cost_ns)
#define OVH_SCALARS(name, count, cost, how) \
	OVH_FIELD_##count OVH_FIELD(name##_ns) OVH_FIELD_##cost
	PROF_OVH_SOURCES(OVH_SCALARS)
	SCALAR("comp_wall_ns", PS_COUNTER, PK_U64, comp_wall_ns),
	SCALAR("comp_delay_ns", PS_COUNTER, PK_U64, comp_delay_ns),
	SCALAR("comp_wait_ns", PS_COUNTER, PK_U64, comp_wait_ns),
	SCALAR("comp_wait_comp_ns", PS_COUNTER, PK_U64, comp_wait_comp_ns),
	SCALAR_SINCE("comp_sample_probes", PK_U64, comp_sample_probes, 9),
	SCALAR_SINCE("comp_sample_probes_busy", PK_U64, comp_sample_probes_busy, 9),
	SCALAR_SINCE("comp_sample_cost_lo_ns", PK_U64, comp_sample_cost_lo_ns, 9),
	SCALAR_SINCE("comp_sample_cost_hi_ns", PK_U64, comp_sample_cost_hi_ns, 9),
	SCALAR_SINCE("clock_offset_ns", PK_I64, clock_offset_ns, PROFILE_VERSION_WAITS),
	SCALAR_SINCE("clock_drift_ns", PK_I64, clock_drift_ns, PROFILE_VERSION_WAITS),
};

#define PROF_WAIT_NAME(k) #k,
#define PROF_WAIT_COMP_NAME(k) #k "_comp",
const char *const prof_wait_names[PROF_WAITS] = { PROF_WAIT_KINDS(PROF_WAIT_NAME) };
const char *const prof_wait_comp_names[PROF_WAITS] = { PROF_WAIT_KINDS(PROF_WAIT_COMP_NAME) };
#undef PROF_WAIT_NAME
#undef PROF_WAIT_COMP_NAME

#define PROF_ACT_NAME(k) #k,
const char *const prof_act_names[PROF_ACTS] = { PROF_ACT_COLS(PROF_ACT_NAME) };
#undef PROF_ACT_NAME

/* See profile.h. */
bool prof_waits_any(const struct prof_mpi_waits *w)
{
	for (int k = 0; k < PROF_WAITS; k++)
		if (w->ns[k] || w->comp_ns[k])
			return true;
	return false;
}

/* See profile.h.  Linear in the number of call sites and rows. */
bool prof_has_waits(const struct profile *p)
{
	if (p->nmpi_slots || p->nmpi_pairs || p->clock_offset_ns || p->clock_drift_ns)
		return true;
	for (uint32_t i = 0; i < p->nmpi_sites; i++)
		if (prof_waits_any(&p->mpi_sites[i].waits))
			return true;
	for (uint64_t i = 0; p->mranks && i < p->merged; i++)
		if (p->mranks[i].clock_offset_ns || p->mranks[i].clock_drift_ns)
			return true;
	return false;
}

/* See profile.h.  Cannot fail. */
void prof_waits_add(struct prof_mpi_waits *a, const struct prof_mpi_waits *b)
{
	for (int k = 0; k < PROF_WAITS; k++) {
		a->ns[k] = sum_sat(a->ns[k], b->ns[k]);
		a->comp_ns[k] = sum_sat(a->comp_ns[k], b->comp_ns[k]);
	}
}

/* See profile.h.  Only the data of a version makes a file of it, so that
 * the readers of older versions keep reading every other profile. */
uint64_t profile_version(const struct profile *p)
{
	if (p->act_on)
		return PROFILE_VERSION_ACT;
	for (uint32_t i = 0; i < p->nmpi_sites; i++)
		if (prof_mpi_site_threaded(&p->mpi_sites[i]))
			return PROFILE_VERSION_ACT;
	for (uint32_t i = 0; i < p->nmpi_edges; i++)
		if (p->mpi_edges[i].kind != PROF_EDGE_COMPUTE)
			return PROFILE_VERSION_GRAPH;
	if (p->nmpi_edge_paths)
		return PROFILE_VERSION_GRAPH;
	if (prof_has_waits(p) || p->nmpi_edges)
		return PROFILE_VERSION_WAITS;
	return p->cp_folds ? PROFILE_VERSION_FOLDS : PROFILE_VERSION_FOLDS - 1;
}

/* See profile.h.  Cannot fail; the tree is left zeroed (no root) until the
 * owner calls cct_init(&p->tree, p->nevents). */
void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	p->rank = -1;
	symtab_init(&p->syms);
}

/* See profile.h.  Cannot fail. */
void profile_release(struct profile *p)
{
	for (uint32_t i = 0; i < p->argc; i++)
		free(p->argv[i]);
	free(p->argv);
	free(p->host);
	free(p->backend);
	free(p->call_graph);
	free(p->run);
	free(p->partial);
	for (uint32_t i = 0; i < p->nevents; i++)
		free(p->events[i].name);
	free(p->events);
	for (uint32_t i = 0; i < p->nthreads; i++)
		free(p->threads[i].samples);
	free(p->threads);
	free(p->act_nodes);
	symtab_release(&p->syms);
	cct_release(&p->tree);
	free(p->mpi_library);
	profile_release_mpi(p);
	profile_release_cp(p);
	for (uint64_t i = 0; p->mranks && i < p->merged; i++)
		free(p->mranks[i].host);
	free(p->mranks);
	free(p->node_spread);
	free(p->site_spread);
	free(p->fn_spread);
	for (uint32_t i = 0; i < p->nkept; i++)
		free(p->kept[i].self);
	free(p->kept);
	profile_init(p);
}

/* See profile.h.  Cannot fail. */
void profile_release_cp(struct profile *p)
{
	free(p->cp_links);
	for (uint32_t i = 0; i < p->ncp_segs; i++)
		free(p->cp_segs[i].counts);
	free(p->cp_segs);
	free(p->cp_evs);
	free(p->cp_edges);
	for (uint32_t i = 0; i < p->ncp_fns; i++)
		free(p->cp_fns[i].name);
	free(p->cp_fns);
	free(p->cp_points);
	for (uint32_t i = 0; i < p->ncp_prefix; i++)
		free(p->cp_prefix[i].counts);
	free(p->cp_prefix);
	p->cp_prefix = NULL;
	p->ncp_prefix = 0;
	p->cp_folds = p->cp_fold_event = p->cp_fold_ns = p->cp_gap_event = 0;
	p->cp_gap_rank = 0;
	p->cp_links = NULL;
	p->cp_segs = NULL;
	p->cp_evs = NULL;
	p->cp_edges = NULL;
	p->cp_fns = NULL;
	p->cp_points = NULL;
	p->ncp_links = p->ncp_segs = p->ncp_evs = p->ncp_edges = p->ncp_fns = p->ncp_points = 0;
	p->cp_events = p->cp_length_ns = p->cp_wall_ns = p->cp_trace = 0;
	p->cp_budget = p->cp_cut = p->cp_fn_how = p->cp_fn_start = 0;
}

/* See profile.h. */
int prof_mpi_outside_region(const char *fn)
{
	return !strcmp(fn, "MPI_Init") || !strcmp(fn, "MPI_Init_thread") ||
	       !strcmp(fn, "MPI_Finalize");
}

/* See profile.h. */
int prof_count_samples(const struct profile *p, const uint32_t *emap, uint64_t *sum,
		       const char *path, char *err, size_t errlen)
{
	uint32_t e = cct_add_self(&p->tree, emap, sum);

	if (e == p->tree.nevents)
		return 0;
	snprintf(err, errlen, "%s: the samples of event '%s' ('root' and 'node' records) sum "
		 "past 2^64-1 over the profiles read", path,
		 e < p->nevents ? p->events[e].name : "?");
	return -1;
}

/* See profile.h. */
void prof_mpi_region_time(const struct profile *p, uint64_t *mpi_ns, uint64_t *blocked_ns)
{
	*mpi_ns = *blocked_ns = 0;
	for (uint32_t i = 0; i < p->nmpi_sites; i++) {
		const struct prof_mpi_site *s = &p->mpi_sites[i];

		if (s->function && prof_mpi_outside_region(s->function))
			continue;
		*mpi_ns = sum_sat(*mpi_ns, s->time_ns);
		*blocked_ns = sum_sat(*blocked_ns, s->blocked_ns);
	}
}

/* See profile.h. */
void prof_spread_add(struct prof_spread *a, const struct prof_spread *b)
{
	if (!b->ranks)
		return;
	if (!a->ranks || b->min < a->min)
		a->min = b->min;
	if (b->max > a->max || (b->max == a->max && b->max && b->max_rank < a->max_rank)) {
		a->max = b->max;
		a->max_rank = b->max_rank;
	}
	if (!a->max)
		a->max_rank = -1;
	a->ranks += b->ranks;
}

/* See profile.h.  Cannot fail. */
void profile_release_mpi(struct profile *p)
{
	for (uint32_t i = 0; i < p->nmpi_sites; i++) {
		free(p->mpi_sites[i].function);
		free(p->mpi_sites[i].frames);
	}
	free(p->mpi_sites);
	free(p->mpi_peers);
	for (uint32_t i = 0; i < p->nmpi_colls; i++)
		free(p->mpi_colls[i].function);
	free(p->mpi_colls);
	free(p->mpi_slots);
	free(p->mpi_pairs);
	free(p->mpi_edges);
	free(p->mpi_edge_paths);
	p->mpi_sites = NULL;
	p->mpi_peers = NULL;
	p->mpi_colls = NULL;
	p->mpi_slots = NULL;
	p->mpi_pairs = NULL;
	p->mpi_edges = NULL;
	p->mpi_edge_paths = NULL;
	p->nmpi_sites = p->nmpi_peers = p->nmpi_colls = p->nmpi_slots = p->nmpi_pairs = 0;
	p->nmpi_edges = p->nmpi_edge_paths = 0;
}

static bool cp_seg_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct profile *p = ctx;

	return p->cp_segs[a].seg == p->cp_segs[b].seg &&
	       p->cp_segs[a].node == p->cp_segs[b].node;
}

/* See profile-int.h. */
uint32_t prof_cp_seg_dup(struct idset *s, const struct profile *p, uint32_t i)
{
	uint64_t h = hash_u64(hash_u64(p->cp_segs[i].seg) + p->cp_segs[i].node);

	return idset_add(s, p, i, h, cp_seg_eq);
}

/* See profile-int.h. */
int prof_cp_event_ok(const struct profile *p, uint64_t event)
{
	return event >= 1 && event < p->cp_events;
}

/* See profile-int.h. */
int prof_cp_rank_ok(const struct profile *p, int64_t rank)
{
	return rank >= 0 && rank < p->size;
}

/* See profile-int.h. */
int prof_cp_from_ok(uint64_t from)
{
	return from >= 1;
}

/* See profile-int.h. */
int prof_cp_fn_ns_ok(const struct profile *p, uint64_t ns)
{
	return ns <= p->cp_length_ns;
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* See profile-int.h.  At most PROF_CP_FNS records, so a linear scan. */
uint32_t prof_cp_fn_dup(const struct profile *p, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++)
		if (!strcmp(nz(p->cp_fns[j].name), nz(p->cp_fns[i].name)))
			return j;
	return i;
}

/* See profile-int.h. */
int prof_cp_point_ok(const struct prof_cp_point *prev, const struct prof_cp_point *pt)
{
	return pt->t_ns >= prev->t_ns && pt->length_ns >= prev->length_ns;
}

static const char *const cp_how_names[] = { "none", "init", "entry", "merge" };

/* See profile-int.h. */
const char *prof_cp_fn_how_check(const struct profile *p, char *why, size_t n)
{
	uint64_t how = p->cp_fn_how, start = p->cp_fn_start;
	const char *name = how <= PROF_CP_FN_MERGE ? cp_how_names[how] : "?";

	if (how == PROF_CP_FN_NONE && p->ncp_fns)
		snprintf(why, n, "cp_fn records but cp_fn_how is 0 (none)");
	else if (how != PROF_CP_FN_NONE && !p->cp_events)
		snprintf(why, n, "cp_fn_how %" PRIu64 " (%s) but cp_events is 0", how, name);
	else if (how != PROF_CP_FN_NONE && !p->ncp_fns)
		snprintf(why, n, "cp_fn_how %" PRIu64 " (%s) but no cp_fn record", how, name);
	else if ((how == PROF_CP_FN_NONE || how == PROF_CP_FN_INIT) && start)
		snprintf(why, n, "cp_fn_start %" PRIu64 " but cp_fn_how is %" PRIu64
			 " (%s): must be 0", start, how, name);
	else if ((how == PROF_CP_FN_ENTRY || how == PROF_CP_FN_MERGE) &&
		 !prof_cp_event_ok(p, start))
		snprintf(why, n, "cp_fn_start %" PRIu64 " out of range for cp_fn_how %" PRIu64
			 " (%s) (must be 1 to %" PRIu64 ")", start, how, name, p->cp_events - 1);
	else
		return NULL;
	return why;
}

/* See profile-int.h. */
const char *prof_cp_cut_check(const struct profile *p, char *why, size_t n)
{
	uint64_t cut = p->cp_cut;

	if (!p->cp_events && cut) {
		snprintf(why, n, "cp_cut %" PRIu64 " but cp_events is 0", cut);
		return why;
	}
	if (cut > p->cp_events) {
		snprintf(why, n, "cp_cut %" PRIu64 " beyond cp_events %" PRIu64, cut, p->cp_events);
		return why;
	}
	if (p->ncp_links && p->cp_links[0].event < cut) {
		snprintf(why, n, "cp_link of event %" PRIu64 " before cp_cut %" PRIu64
			 " (dropped links are not written)", p->cp_links[0].event, cut);
		return why;
	}
	for (uint32_t i = 0; !p->cp_trace && i < p->ncp_segs; i++)
		if (p->cp_segs[i].seg < cut) {
			snprintf(why, n, "cp_seg of segment %" PRIu64 " before cp_cut %" PRIu64
				 " without cp_trace", p->cp_segs[i].seg, cut);
			return why;
		}
	return NULL;
}

/* The segments and the cp_prefix records of p with a fold point (see
 * prof_cp_fold_check). */
static const char *prof_cp_fold_segs_check(const struct profile *p, char *why, size_t n)
{
	for (uint32_t i = 0; !p->cp_trace && i < p->ncp_segs; i++)
		if (p->cp_segs[i].seg <= p->cp_fold_event) {
			snprintf(why, n, "cp_seg of segment %" PRIu64 " up to cp_fold_event %"
				 PRIu64 " without cp_trace", p->cp_segs[i].seg, p->cp_fold_event);
			return why;
		}
	for (uint32_t i = 0; i < p->ncp_prefix; i++) {
		const struct prof_cp_prefix *x = &p->cp_prefix[i];

		if (x->node >= p->tree.nnodes || (p->nevents && !x->counts))
			snprintf(why, n, "cp_prefix %" PRIu32 ": node %" PRIu32 " out of range", i,
				 x->node);
		else if (i && x->node <= x[-1].node)
			snprintf(why, n, "cp_prefix %" PRIu32 ": node %" PRIu32 " not after %" PRIu32,
				 i, x->node, x[-1].node);
		else
			continue;
		return why;
	}
	return NULL;
}

/* See profile-int.h. */
const char *prof_cp_fold_check(const struct profile *p, char *why, size_t n)
{
	uint64_t fe = p->cp_fold_event;

	if (!p->cp_folds && (fe || p->cp_fold_ns || p->cp_gap_rank || p->cp_gap_event ||
			     p->ncp_prefix))
		snprintf(why, n, "cp_folds 0 but cp_fold_event, cp_fold_ns, cp_gap_rank, "
			 "cp_gap_event or a cp_prefix record is not 0");
	else if (!p->cp_folds)
		return NULL;
	else if (!prof_cp_event_ok(p, fe))
		snprintf(why, n, "cp_fold_event %" PRIu64 " out of range (must be 1 to %" PRIu64
			 ")", fe, p->cp_events ? p->cp_events - 1 : 0);
	else if (p->cp_gap_event ? !prof_cp_rank_ok(p, p->cp_gap_rank) : p->cp_gap_rank != 0)
		snprintf(why, n, "cp_gap_rank %" PRId64 " with cp_gap_event %" PRIu64 " (a rank of "
			 "the job of size %" PRId64 " with a gap, 0 without)", p->cp_gap_rank,
			 p->cp_gap_event, p->size);
	else if (p->cp_cut && p->cp_cut <= fe)
		snprintf(why, n, "cp_cut %" PRIu64 " not after cp_fold_event %" PRIu64, p->cp_cut, fe);
	else if (p->ncp_links && p->cp_links[0].event <= fe)
		snprintf(why, n, "cp_link of event %" PRIu64 " up to cp_fold_event %" PRIu64
			 " (folded links are not written)", p->cp_links[0].event, fe);
	else
		return prof_cp_fold_segs_check(p, why, n);
	return why;
}

/* The cp_fn and cp_point records of p (see prof_cp_check). */
static const char *cp_fn_check(const struct profile *p, char *why, size_t n)
{
	if (p->ncp_fns > PROF_CP_FNS) {
		snprintf(why, n, "%" PRIu32 " cp_fn records, more than %d", p->ncp_fns,
			 PROF_CP_FNS);
		return why;
	}
	if (prof_cp_fn_how_check(p, why, n))
		return why;
	for (uint32_t i = 0; i < p->ncp_fns; i++) {
		const struct prof_cp_fn *f = &p->cp_fns[i];
		uint32_t j = prof_cp_fn_dup(p, i);

		if (!prof_cp_fn_ns_ok(p, f->net_ns))
			snprintf(why, n, "cp_fn %" PRIu32 ": net_ns %" PRIu64 " exceeds cp_length_ns %"
				 PRIu64, i, f->net_ns, p->cp_length_ns);
		else if (!prof_cp_fn_ns_ok(p, f->share_ns))
			snprintf(why, n, "cp_fn %" PRIu32 ": share_ns %" PRIu64 " exceeds cp_length_ns %"
				 PRIu64, i, f->share_ns, p->cp_length_ns);
		else if (j != i)
			snprintf(why, n, "cp_fn %" PRIu32 " duplicates cp_fn %" PRIu32 " (same name)",
				 i, j);
		else
			continue;
		return why;
	}
	for (uint32_t i = 1; i < p->ncp_points; i++)
		if (!prof_cp_point_ok(&p->cp_points[i - 1], &p->cp_points[i])) {
			snprintf(why, n, "cp_point %" PRIu32 ": time or length below cp_point %"
				 PRIu32 "'s", i, i - 1);
			return why;
		}
	return NULL;
}

/* Check one (event, rank, from) dependency of table what, entry i. */
static const char *cp_dep_check(const struct profile *p, const char *what, uint32_t i,
				uint64_t event, int64_t rank, uint64_t from,
				char *why, size_t n)
{
	if (!prof_cp_event_ok(p, event))
		snprintf(why, n, "%s %" PRIu32 ": event %" PRIu64 " outside 1..%" PRIu64,
			 what, i, event, p->cp_events ? p->cp_events - 1 : 0);
	else if (!prof_cp_rank_ok(p, rank))
		snprintf(why, n, "%s %" PRIu32 ": rank %" PRId64 " outside the job of size %"
			 PRId64, what, i, rank, p->size);
	else if (!prof_cp_from_ok(from))
		snprintf(why, n, "%s %" PRIu32 ": from event 0", what, i);
	else
		return NULL;
	return why;
}

/* See profile-int.h.  Linear in the number of records. */
const char *prof_cp_check(const struct profile *p, char *why, size_t n)
{
	const struct cct *t = &p->tree;
	struct idset s = { 0 };
	const char *bad = NULL;

	if (p->cp_trace > 1) {
		snprintf(why, n, "cp_trace %" PRIu64 " is not 0 or 1", p->cp_trace);
		return why;
	}
	if (prof_cp_cut_check(p, why, n) || prof_cp_fold_check(p, why, n))
		return why;
	if (!p->cp_events && (p->ncp_links || p->ncp_segs || p->ncp_evs || p->ncp_edges ||
			      p->ncp_fns || p->ncp_points || p->ncp_prefix)) {
		snprintf(why, n, "critical-path records but cp_events is 0");
		return why;
	}
	if (!p->cp_trace && (p->ncp_evs || p->ncp_edges)) {
		snprintf(why, n, "critical-path trace records without cp_trace");
		return why;
	}
	for (uint32_t i = 0; i < p->ncp_links; i++) {
		const struct prof_cp_link *l = &p->cp_links[i];

		if (cp_dep_check(p, "cp_link", i, l->event, l->rank, l->from, why, n))
			return why;
		if (i && l->event <= l[-1].event) {
			snprintf(why, n, "cp_link %" PRIu32 ": event %" PRIu64 " not after %"
				 PRIu64, i, l->event, l[-1].event);
			return why;
		}
	}
	for (uint32_t i = 0; i < p->ncp_evs; i++) {
		const struct prof_cp_event *e = &p->cp_evs[i];

		if (!prof_cp_event_ok(p, e->event))
			snprintf(why, n, "cp_ev %" PRIu32 ": event %" PRIu64 " outside 1..%"
				 PRIu64, i, e->event, p->cp_events - 1);
		else if (i && e->event <= e[-1].event)
			snprintf(why, n, "cp_ev %" PRIu32 ": event %" PRIu64 " not after %"
				 PRIu64, i, e->event, e[-1].event);
		else if (e->t_exit < e->t_entry)
			snprintf(why, n, "cp_ev %" PRIu32 ": exit before entry", i);
		else
			continue;
		return why;
	}
	for (uint32_t i = 0; i < p->ncp_edges; i++) {
		const struct prof_cp_edge *e = &p->cp_edges[i];

		if (cp_dep_check(p, "cp_edge", i, e->event, e->rank, e->from, why, n))
			return why;
	}
	if (cp_fn_check(p, why, n))
		return why;
	for (uint32_t i = 0; i < p->ncp_segs && !bad; i++) {
		const struct prof_cp_seg *g = &p->cp_segs[i];
		uint32_t j;

		if (!prof_cp_event_ok(p, g->seg) || (g->node && g->node >= t->nnodes) ||
		    (p->nevents && !g->counts)) {
			snprintf(why, n, "cp_seg %" PRIu32 ": segment %" PRIu64 " or node %"
				 PRIu32 " out of range", i, g->seg, g->node);
			bad = why;
		} else if ((j = prof_cp_seg_dup(&s, p, i)) == UINT32_MAX) {
			bad = "out of memory checking cp_seg records";
		} else if (j != i) {
			snprintf(why, n, "cp_seg %" PRIu32 " duplicates cp_seg %" PRIu32
				 " (segment %" PRIu64 ", node %" PRIu32 ")", i, j, g->seg, g->node);
			bad = why;
		}
	}
	idset_release(&s);
	return bad;
}

/* The products a x b that the runtime stores: field equals a x b
 * (ovh_sample_ns, ovh_switch_ns), or is at least a x b (ovh_wrapper_ns:
 * the calls' calibrated entries plus their timed exits), guarding against
 * overflow.  Returns NULL, or a description written into why. */
static const char *comp_product_check(const char *field, uint64_t v, bool exact,
				      const char *ka, uint64_t a, const char *kb, uint64_t b,
				      char *why, size_t n)
{
	if (b && a > UINT64_MAX / b)
		snprintf(why, n, "%s * %s overflows (%" PRIu64 " * %" PRIu64 "), so %s %"
			 PRIu64 " cannot hold their product", ka, kb, a, b, field, v);
	else if (exact ? v != a * b : v < a * b)
		snprintf(why, n, "%s %" PRIu64 " is %s %s * %s (%" PRIu64 " * %" PRIu64
			 " = %" PRIu64 ")", field, v, exact ? "not" : "less than", ka, kb, a, b,
			 a * b);
	else
		return NULL;
	return why;
}

/* See profile-int.h.  The comp_ and ovh_ scalars are found in
 * prof_scalars by their prefix, so a new one is covered by the rule that
 * comp_on 0 makes it 0. */
const char *prof_comp_check(const struct profile *p, char *why, size_t n)
{
	const struct prof_overhead *o = &p->ovh;

	if (p->comp_on > 1) {
		snprintf(why, n, "comp_on %" PRIu64 " is not 0 or 1", p->comp_on);
		return why;
	}
	for (size_t i = 0; !p->comp_on && i < PROF_NSCALARS; i++) {
		const struct prof_scalar *sc = &prof_scalars[i];
		uint64_t v;

		if ((strncmp(sc->key, "comp_", 5) && strncmp(sc->key, "ovh_", 4)) ||
		    sc->kind != PK_U64)
			continue;
		memcpy(&v, (const char *)p + sc->offset, sizeof(v));
		if (v) {
			snprintf(why, n, "comp_on 0 but %s is %" PRIu64 " (must be 0 without "
				 "compensation)", sc->key, v);
			return why;
		}
	}
	if (!p->comp_on)
		return NULL;
	if (p->rank < 0) {
		snprintf(why, n, "comp_on 1 but rank is %" PRId64 " (compensation needs an "
			 "MPI rank)", p->rank);
		return why;
	}
	if (comp_product_check("ovh_sample_ns", o->sample_ns, false, "ovh_samples", o->samples,
			       "ovh_sample_cost_ns", o->sample_cost_ns, why, n) ||
	    comp_product_check("ovh_wrapper_ns", o->wrapper_ns, false, "ovh_calls", o->calls,
			       "ovh_call_cost_ns", o->call_cost_ns, why, n) ||
	    comp_product_check("ovh_switch_ns", o->switch_ns, true, "ovh_switches",
			       o->switches, "ovh_switch_cost_ns", o->switch_cost_ns, why, n))
		return why;
	if (p->comp_sample_cost_lo_ns > p->comp_sample_cost_hi_ns) {
		snprintf(why, n, "comp_sample_cost_lo_ns %" PRIu64 " is above "
			 "comp_sample_cost_hi_ns %" PRIu64 " (quartiles)",
			 p->comp_sample_cost_lo_ns, p->comp_sample_cost_hi_ns);
		return why;
	}
	return NULL;
}
