/*
 * out-html.c - `cpperf report --format=html`: one self-contained page
 * (docs/html.md) made of the template, style sheet and scripts of
 * report/html around the data: the JSON report, and the call-path trees
 * of a few ranks of their own (every rank of a small job; else the ranks
 * that compute most and least, and rank 0), read again one file each, or
 * from the merged profile that kept them by the same rule.
 * The data travel inside <script type="application/json"> with every '<'
 * written as \u003c (a '<' only occurs inside JSON strings), so no name
 * from a profile can close the script or open markup; the scripts set
 * every text from the data as text, never as markup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "experiment.h"
#include "flat.h"
#include "json.h"
#include "merge.h"
#include "frame-names.h"
#include "out-html.h"
#include "out-json.h"
#include "tree.h"

#define PAGE_RANK_TREES PROF_KEEP_ALL	/* a job up to this size has every
					 * rank's tree, as a merged profile */

/* The JSON data, '<' escaped. */
static int put_data(FILE *out, const char *json, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (json[i] == '<' ? fputs("\\u003c", out) < 0 : putc(json[i], out) == EOF)
			return -1;
	return 0;
}

/* The template with each marker replaced by its part. */
static int put_page(FILE *out, const char *data, size_t n)
{
	static const char *const markers[] = { "@STYLE@", "@DATA@", "@SCRIPT@" };
	const char *at = rep_html_page;

	for (size_t k = 0; k < sizeof(markers) / sizeof(markers[0]); k++) {
		const char *m = strstr(at, markers[k]);
		int rc;

		if (!m)
			return -1;
		fwrite(at, 1, (size_t)(m - at), out);
		if (k == 1)
			rc = put_data(out, data, n);
		else
			rc = fputs(k == 0 ? rep_html_style : rep_html_script, out) < 0 ? -1 : 0;
		if (rc)
			return -1;
		at = m + strlen(markers[k]);
	}
	fputs(at, out);
	return ferror(out) ? -1 : 0;
}

/* Computation of a rank: its MPI region less its time in MPI. */
static uint64_t computing(const struct rep_rank *r)
{
	return r->wall_ns > r->mpi_ns ? r->wall_ns - r->mpi_ns : 0;
}

/* The ranks that compute most and least, whose trees go on the page of a
 * large job (above); -1 when there are no ranks. */
static void extreme_ranks(const struct rep_mpi *m, int64_t *most, int64_t *least)
{
	const struct rep_rank *hi = NULL, *lo = NULL;

	for (uint32_t i = 0; i < m->nranks; i++) {
		if (!hi || computing(&m->ranks[i]) > computing(hi))
			hi = &m->ranks[i];
		if (!lo || computing(&m->ranks[i]) < computing(lo))
			lo = &m->ranks[i];
	}
	*most = hi ? hi->rank : -1;
	*least = lo ? lo->rank : -1;
}

/* {"rank", "callpath"} of one rank read alone, from its file (kept < 0)
 * or as a tree kept in a merged profile, its tree compensated as the
 * report's; nothing when the file can no longer be read (the page goes
 * without that rank's own tree).  Returns 0, or -1 when memory is short. */
/* The tree of one rank, read from its file (kept: the index of its tree
 * in a merged profile, -1 for a rank's own file), its frames named as
 * the page's (raw: their addresses kept; fetch: named by debuginfod). */
static int put_rank_tree(struct json_w *w, int64_t rank, const char *file, int64_t kept,
			 double min_pct, enum rep_comp comp, bool raw, bool fetch)
{
	struct rep_data one;
	struct comp_tree ct;
	struct tree_view cp;
	char err[1024];
	int filtered, rc;

	if ((kept < 0 ? exp_load_file(&one, file, err, sizeof(err)) :
			exp_load_kept(&one, file, (uint32_t)kept, err, sizeof(err))) < 0)
		return 0;
	one.debuginfod = fetch;
	if ((raw && rep_keep_addresses(&one, err, sizeof(err)) < 0) ||
	    (fetch && rep_name_frames(&one, err, sizeof(err)) < 0)) {
		merge_release(&one);
		return -1;
	}
	filtered = comp_tree_build(&ct, &one, comp, err, sizeof(err));
	if (filtered < 0) {
		merge_release(&one);
		return -1;
	}
	rc = tree_build(&cp, filtered ? &ct.tree : &one.tree, 0, err, sizeof(err));
	if (rc == 0) {
		json_begin_object(w);
		rep_json_rank(w, rank);
		json_key(w, "callpath");
		rc = rep_json_tree(w, &one, &cp, min_pct, filtered, false);
		json_end_object(w);
		tree_release(&cp);
	}
	comp_tree_release(&ct);
	merge_release(&one);
	return rc < 0 ? -1 : 0;
}

/* The page's data: {"min_pct", "report", "rank_trees"}. */
static int put_blob(FILE *m, const struct rep_data *d, const struct tree_view *cp,
		    const struct flat *f, const struct cpath_result *cpr, const char *cp_why,
		    double min_pct, enum rep_comp comp, bool filtered, const struct cl_result *cl)
{
	struct json_w w;
	int64_t most, least;

	extreme_ranks(&d->mpi, &most, &least);
	fprintf(m, "{\"min_pct\":%g,\"report\":", min_pct);
	if (rep_json(m, d, cp, f, cpr, cp_why, min_pct, comp, filtered, true, true, cl) < 0)
		return -1;
	fputs(",\"rank_trees\":", m);
	json_init(&w, m);
	json_begin_array(&w);
	for (uint32_t i = 0; i < d->spread.n; i++) {
		int64_t rank = d->spread.ranks[i].rank;
		bool shown = d->spread.n <= PAGE_RANK_TREES || rank == 0 || rank == most ||
			     rank == least;

		if (shown && put_rank_tree(&w, rank, d->spread.ranks[i].file, -1, min_pct,
					   comp, d->raw_addresses, d->debuginfod) < 0)
			return -1;
	}
	for (uint32_t i = 0; i < d->spread.nkept; i++) {	/* kept by the same rule */
		const struct rep_kept *k = &d->spread.kept[i];

		if (put_rank_tree(&w, k->rank, k->file, k->index, min_pct, comp,
				  d->raw_addresses, d->debuginfod) < 0)
			return -1;
	}
	json_end_array(&w);
	if (json_finish(&w) < 0)
		return -1;
	fputs("}", m);
	return ferror(m) ? -1 : 0;
}

int rep_html(FILE *out, const struct rep_data *d, const struct tree_view *cp,
	     const struct flat *f, const struct cpath_result *cpr, const char *cp_why,
	     double min_pct, enum rep_comp comp, bool filtered, const struct cl_result *cl)
{
	char *data = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&data, &n);
	int rc;

	if (!m)
		return -1;
	rc = put_blob(m, d, cp, f, cpr, cp_why, min_pct, comp, filtered, cl);
	if (fclose(m) || rc < 0) {
		free(data);
		return -1;
	}
	rc = put_page(out, data, n);
	free(data);
	return rc;
}
