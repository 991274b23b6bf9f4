/*
 * render.c - `cpperf report`'s driver: the model of a loaded experiment
 * built once (model.c), then written by the renderer of the chosen format
 * and view, which only writes.
 */
#include <stdio.h>
#include "folded.h"
#include "model.h"
#include "out-graphml.h"
#include "out-html.h"
#include "out-hatchet.h"
#include "out-json.h"
#include "out-pprof.h"
#include "out-speedscope.h"
#include "render.h"
#include "text.h"

/* The renderer of m's format and view. */
static int render_model(const struct rep_model *m, FILE *out)
{
	const struct rep_opts *o = m->o;

	switch (o->format) {
	case REP_JSON:
		return rep_json(out, m);
	case REP_HTML:
		return rep_html(out, m);
	case REP_FOLDED:
		return rep_folded(out, m);
	case REP_GRAPHML:
		return rep_graphml(out, m);
	case REP_SPEEDSCOPE:
		return rep_speedscope(out, m);
	case REP_HATCHET:
		return rep_hatchet(out, m);
	case REP_PPROF:
		return rep_pprof(out, m);
	case REP_TEXT:
		break;
	}
	switch (o->view) {
	case REP_GRAPH:
		return rep_text_graph(out, m);
	case REP_CP:
	case REP_CP_REFERENCE:
		return rep_text_cpath(out, m);
	case REP_MPI:
		return rep_text_mpi(out, m->d, m->comp, o->all_ranks);
	case REP_COMPENSATION:
		return rep_text_comp(out, m->d, o->all_ranks);
	case REP_WAITS:
		return rep_text_waits(out, m->d);
	case REP_THREADS:
		return rep_text_threads(out, m);
	case REP_CALLPATH:
		return rep_text_callpath(out, m);
	case REP_FLAT:
		break;
	}
	return rep_text_flat(out, m);
}

int rep_render(const struct rep_data *d, const struct rep_opts *o, FILE *out,
	       char *err, size_t errlen)
{
	return rep_render_comp(d, o, REP_COMP_PARALLEL, REP_CLUSTER_TOL, out, err, errlen);
}

int rep_render_comp(const struct rep_data *d, const struct rep_opts *o,
		    enum rep_comp comp, double cluster_tol, FILE *out, char *err, size_t errlen)
{
	struct rep_model m;
	int rc = rep_model_build(&m, d, o, comp, cluster_tol, err, errlen);

	if (rc)
		return rc;
	if ((rc = render_model(&m, out)) < 0)
		snprintf(err, errlen, "error writing the report (disk full? out of memory?)");
	rep_model_release(&m);
	return rc;
}
