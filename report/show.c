/*
 * show.c - what the renderers share: how they show numbers and names, and
 * the ranks' computation they name.
 */
#include <string.h>
#include "show.h"
#include "../common/sum.h"

double rep_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

double rep_secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

uint64_t rep_unwinds(const struct rep_data *d)
{
	return sum_sat(d->unwind_complete, d->unwind_truncated);
}

const char *rep_module_path(const struct rep_data *d, uint32_t module)
{
	if (module == SYMTAB_NO_MODULE || module >= d->syms.nmodules)
		return "";
	return d->syms.modules[module].path;
}

const char *rep_node_function(const struct rep_data *d, uint32_t n)
{
	return n != CCT_ROOT && n < d->tree.nnodes ? d->names[d->tree.frame[n]] : "-";
}

const char *rep_module_name(const struct rep_data *d, uint32_t module)
{
	const char *path = rep_module_path(d, module), *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

uint64_t rep_rank_work(const struct rep_rank *r)
{
	return r->wall_ns > r->mpi_ns ? r->wall_ns - r->mpi_ns : 0;
}

void rep_rank_extremes(const struct rep_mpi *m, const struct rep_rank **most,
		       const struct rep_rank **least)
{
	*most = *least = NULL;
	for (uint32_t i = 0; i < m->nranks; i++) {
		const struct rep_rank *r = &m->ranks[i];

		if (r->rank < 0)	/* not an MPI process */
			continue;
		if (!*most || rep_rank_work(r) > rep_rank_work(*most))
			*most = r;
		if (!*least || rep_rank_work(r) < rep_rank_work(*least))
			*least = r;
	}
}
