/*
 * profile-fuzz.c - libFuzzer target for the profile reader.  Each input is
 * parsed twice: as is (the real entry point, where the trailer's length and
 * CRC stop almost every mutation early) and with PROFILE_PARSE_NO_CHECKSUM,
 * so mutated records reach the record parser; then its header alone, as
 * the report reads it first.  Either way the parser must not crash, leak
 * or read out of bounds, and a profile it accepts must be internally
 * consistent (checked here, aborting on a violation).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/profile.h"

/* The MPI records name existing frames and sites (edges both of theirs),
 * and peers and senders inside the job. */
static void check_mpi(const struct profile *p)
{
	for (uint32_t i = 0; i < p->nmpi_sites; i++) {
		if (!p->mpi_sites[i].function)
			abort();
		for (uint32_t k = 0; k < p->mpi_sites[i].nframes; k++)
			if (p->mpi_sites[i].frames[k] >= p->syms.nframes)
				abort();
	}
	for (uint32_t i = 0; i < p->nmpi_peers; i++)
		if (p->mpi_peers[i].peer < 0 ||
		    (p->size > 0 && p->mpi_peers[i].peer >= p->size))
			abort();
	for (uint32_t i = 0; i < p->nmpi_colls; i++)
		if (!p->mpi_colls[i].function)
			abort();
	for (uint32_t i = 0; i < p->nmpi_slots; i++)
		if (p->mpi_slots[i].site >= p->nmpi_sites)
			abort();
	for (uint32_t i = 0; i < p->nmpi_pairs; i++)
		if (p->mpi_pairs[i].site >= p->nmpi_sites || p->mpi_pairs[i].send_rank < 0 ||
		    p->mpi_pairs[i].send_rank >= p->size)
			abort();
	for (uint32_t i = 0; i < p->nmpi_edges; i++)
		if (p->mpi_edges[i].from >= p->nmpi_sites || p->mpi_edges[i].to >= p->nmpi_sites)
			abort();
}

/* The critical-path records: none without cp_events, none of the trace
 * without cp_trace, events and segments in 1..cp_events-1, links and trace
 * events in increasing order, senders inside the job, nodes in the tree. */
static void check_cp(const struct profile *p)
{
	uint64_t n = p->cp_events;

	if (p->cp_trace > 1 || (!n && (p->ncp_links || p->ncp_segs)) ||
	    (!p->cp_trace && (p->ncp_evs || p->ncp_edges)))
		abort();
	for (uint32_t i = 0; i < p->ncp_links; i++)
		if (p->cp_links[i].event < 1 || p->cp_links[i].event >= n ||
		    (i && p->cp_links[i].event <= p->cp_links[i - 1].event) ||
		    p->cp_links[i].rank < 0 || p->cp_links[i].rank >= p->size ||
		    p->cp_links[i].from < 1)
			abort();
	for (uint32_t i = 0; i < p->ncp_segs; i++)
		if (p->cp_segs[i].seg < 1 || p->cp_segs[i].seg >= n ||
		    p->cp_segs[i].node >= p->tree.nnodes || !p->cp_segs[i].counts)
			abort();
	for (uint32_t i = 0; i < p->ncp_evs; i++)
		if (p->cp_evs[i].event < 1 || p->cp_evs[i].event >= n ||
		    (i && p->cp_evs[i].event <= p->cp_evs[i - 1].event) ||
		    p->cp_evs[i].t_exit < p->cp_evs[i].t_entry)
			abort();
	for (uint32_t i = 0; i < p->ncp_edges; i++)
		if (p->cp_edges[i].event < 1 || p->cp_edges[i].event >= n ||
		    p->cp_edges[i].rank < 0 || p->cp_edges[i].rank >= p->size ||
		    p->cp_edges[i].from < 1)
			abort();
}

/* The zeroing and length-series records: how NONE exactly when there is
 * no cp_fn, otherwise a critical path; the start event as how says; at
 * most PROF_CP_FNS functions, named, distinct, with net and share lengths
 * at most cp_length_ns; points only with a critical path, neither time
 * nor length decreasing. */
static void check_cp_fn(const struct profile *p)
{
	uint64_t n = p->cp_events, how = p->cp_fn_how, start = p->cp_fn_start;

	if (how > PROF_CP_FN_MERGE || (how == PROF_CP_FN_NONE) != (p->ncp_fns == 0) ||
	    (how != PROF_CP_FN_NONE && !n) || p->ncp_fns > PROF_CP_FNS ||
	    (!n && p->ncp_points))
		abort();
	if ((how == PROF_CP_FN_NONE || how == PROF_CP_FN_INIT) ? start != 0
							       : start < 1 || start >= n)
		abort();
	for (uint32_t i = 0; i < p->ncp_fns; i++) {
		const struct prof_cp_fn *f = &p->cp_fns[i];

		if (!f->name || f->net_ns > p->cp_length_ns || f->share_ns > p->cp_length_ns)
			abort();
		for (uint32_t j = 0; j < i; j++)
			if (!strcmp(p->cp_fns[j].name, f->name))
				abort();
	}
	for (uint32_t i = 1; i < p->ncp_points; i++)
		if (p->cp_points[i].t_ns < p->cp_points[i - 1].t_ns ||
		    p->cp_points[i].length_ns < p->cp_points[i - 1].length_ns)
			abort();
}

/* The overhead and compensation scalars: comp_on 0 or 1; with 0 all the
 * others 0; with 1 an MPI rank, the switches' overhead exactly their count
 * times their cost, the samples' and the wrappers' at least that (their
 * costs are means), without overflow, and the sample cost's quartiles in
 * order.  The delay and the compensated
 * waiting are unbounded (a delay may come from another rank, and a rank
 * more delayed than its sender waits longer once compensated). */
static void check_comp(const struct profile *p)
{
	const struct prof_overhead *o = &p->ovh;
	uint64_t prod;

	if (p->comp_on > 1)
		abort();
	if (!p->comp_on) {
		if (o->samples || o->sample_ns || o->sample_cost_ns || o->calls || o->wrapper_ns ||
		    o->call_cost_ns || o->piggyback_ns || o->drain_ns || o->inject_ns ||
		    o->switches || o->switch_ns || o->switch_cost_ns || o->contention_ns ||
		    p->comp_wall_ns || p->comp_delay_ns || p->comp_wait_ns || p->comp_wait_comp_ns ||
		    p->comp_sample_probes || p->comp_sample_probes_busy ||
		    p->comp_sample_cost_lo_ns || p->comp_sample_cost_hi_ns)
			abort();
		return;
	}
	if (p->rank < 0 || p->comp_sample_cost_lo_ns > p->comp_sample_cost_hi_ns)
		abort();
	if (__builtin_mul_overflow(o->samples, o->sample_cost_ns, &prod) || prod > o->sample_ns)
		abort();
	if (__builtin_mul_overflow(o->calls, o->call_cost_ns, &prod) || prod > o->wrapper_ns)
		abort();
	if (__builtin_mul_overflow(o->switches, o->switch_cost_ns, &prod) || prod != o->switch_ns)
		abort();
}

/* Abort when an accepted profile breaks an invariant the readers rely on. */
static void check_profile(const struct profile *p)
{
	const struct cct *t = &p->tree;

	if (t->nnodes < 1 || t->nevents != p->nevents)
		abort();
	for (uint32_t i = 0; i < p->nevents; i++)
		if (p->events[i].leader > i || !p->events[i].name)
			abort();
	for (uint32_t i = 0; i < p->syms.nframes; i++)
		if (p->syms.frames[i].module != SYMTAB_NO_MODULE &&
		    p->syms.frames[i].module >= p->syms.nmodules)
			abort();
	for (uint32_t id = 1; id < t->nnodes; id++)
		if (t->parent[id] >= id || t->frame[id] >= p->syms.nframes)
			abort();
	if (!p->host || !p->backend || !p->call_graph || !p->mpi_library || !p->run || !p->partial)
		abort();
	check_mpi(p);
	check_cp(p);
	check_cp_fn(p);
	check_comp(p);
}

static void parse_once(const uint8_t *data, size_t size, unsigned flags)
{
	struct profile p;
	char err[256];

	profile_init(&p);
	if (profile_parse_flags(&p, (const char *)data, size, flags, err,
				sizeof(err)) == 0)
		check_profile(&p);
	else if (!err[0])
		abort();	/* a refusal must say why */
	profile_release(&p);
}

/* The header alone, as the report reads it first: whole strings and the
 * header's once records, or a refusal that says why. */
static void parse_head(const uint8_t *data, size_t size)
{
	struct profile p;
	char err[256];

	profile_init(&p);
	if (profile_parse_head(&p, (const char *)data, size, err, sizeof(err)) == 0) {
		if (!p.host || !p.backend || !p.call_graph || !p.mpi_library || !p.run || !p.partial)
			abort();
	} else if (!err[0]) {
		abort();
	}
	profile_release(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_once(data, size, 0);
	parse_once(data, size, PROFILE_PARSE_NO_CHECKSUM);
	parse_head(data, size);
	return 0;
}
