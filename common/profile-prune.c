/*
 * profile-prune.c - a process's rare call paths written as one node per
 * caller, so that its profile stops growing with the run's length.
 *
 * Every call path sampled at least once is a node, and a longer run
 * samples more of the paths taken once in a while (a library's start-up,
 * an allocation, an error path): on a 2-rank ring program a rank's file
 * grew by a third between 10 s and 100 s of the same loop.  A node whose
 * inclusive samples are under a share of the process's samples, for every
 * event, is rare: its subtree goes to a "[rare paths]" node under its
 * closest caller that is not, with below it the functions that had
 * samples of their own in the subtree, and frames and modules only rare
 * nodes named leave the symbol table.  The share is of the run's
 * samples, so the nodes kept converge as the run lengthens instead of
 * accumulating.  Every node kept keeps its inclusive samples, every
 * function its self samples, and the critical path's and the activity
 * graph's samples move with the nodes they fell under.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "profile-int.h"

#define RARE_NAME "[rare paths]"

struct prune {
	const struct profile *p;
	struct symtab syms;	/* the frames and modules still named */
	struct cct tree;
	uint32_t *fmap;		/* old frame -> new, UINT32_MAX not yet */
	uint32_t *mmap;		/* old module -> new, UINT32_MAX not yet */
	uint32_t *nmap;		/* old node -> new */
	uint32_t *fold;		/* rare old node -> the new [rare paths] node it is under */
	uint8_t *rare_fn;	/* old frame -> 1: its function has under the share */
	uint32_t rare_frame;	/* UINT32_MAX until a node needs it */
};

/* Whether counts are under share of totals for every event. */
static bool under(const uint64_t *counts, const uint64_t *totals, uint32_t ne, double share)
{
	for (uint32_t e = 0; e < ne; e++)
		if ((double)counts[e] >= share * (double)totals[e])
			return false;
	return true;
}

static bool is_rare_paths(const struct profile *p, uint32_t node)
{
	const struct sym_frame *f = &p->syms.frames[p->tree.frame[node]];

	return node != CCT_ROOT && f->module == SYMTAB_NO_MODULE && !strcmp(f->function, RARE_NAME);
}

/* Which functions (by frame) have under share of the samples of their
 * own, in r->rare_fn.  inc[0..ne) are the totals. */
static int mark_rare_functions(struct prune *r, const uint64_t *inc, double share)
{
	const struct profile *p = r->p;
	uint32_t ne = p->nevents, nf = p->syms.nframes;
	uint64_t *fself = calloc((size_t)nf * ne + 1, sizeof(*fself));

	if (!fself || !(r->rare_fn = malloc((size_t)nf + 1))) {
		free(fself);
		return -1;
	}
	for (uint32_t id = 1; id < p->tree.nnodes; id++)
		for (uint32_t e = 0; e < ne; e++)
			fself[(size_t)p->tree.frame[id] * ne + e] += cct_self(&p->tree, id)[e];
	for (uint32_t f = 0; f < nf; f++)
		r->rare_fn[f] = under(fself + (size_t)f * ne, inc, ne, share);
	free(fself);
	return 0;
}

/* Which nodes are rare (1) in rare[], and which functions (r->rare_fn);
 * returns how many nodes, or -1 when memory is short.  A node an earlier
 * prune wrote, [rare paths] or a function below one, stays what it is. */
static int mark_rare(struct prune *r, double share, uint8_t *rare)
{
	const struct cct *t = &r->p->tree;
	uint32_t ne = r->p->nevents;
	uint64_t *inc = malloc((size_t)t->nnodes * ne * sizeof(*inc));
	int n = 0;

	if (!inc)
		return -1;
	memcpy(inc, t->self, (size_t)t->nnodes * ne * sizeof(*inc));
	for (uint32_t id = t->nnodes; id-- > 1;)	/* children come after parents */
		for (uint32_t e = 0; e < ne; e++)
			inc[(size_t)t->parent[id] * ne + e] += inc[(size_t)id * ne + e];
	rare[CCT_ROOT] = 0;
	for (uint32_t id = 1; id < t->nnodes; id++) {
		rare[id] = !is_rare_paths(r->p, id) && !is_rare_paths(r->p, t->parent[id]) &&
			   under(inc + (size_t)id * ne, inc, ne, share);
		n += rare[id];
	}
	if (n && mark_rare_functions(r, inc, share))
		n = -1;
	free(inc);
	return n;
}

/* The new id of old frame f, interned with its module on first use. */
static uint32_t map_frame(struct prune *r, uint32_t f)
{
	const struct symtab *old = &r->p->syms;
	uint32_t m;

	if (r->fmap[f] != UINT32_MAX)
		return r->fmap[f];
	m = old->frames[f].module;
	if (m != SYMTAB_NO_MODULE) {
		if (r->mmap[m] == UINT32_MAX)
			r->mmap[m] = symtab_module(&r->syms, old->modules[m].path,
						   old->modules[m].build_id);
		if ((m = r->mmap[m]) == UINT32_MAX)
			return UINT32_MAX;
	}
	return r->fmap[f] = symtab_frame(&r->syms, m, old->frames[f].function,
					 old->frames[f].file, old->frames[f].line);
}

static bool has_self(const struct cct *t, uint32_t id)
{
	for (uint32_t e = 0; e < t->nevents; e++)
		if (cct_self(t, id)[e])
			return true;
	return false;
}

/* The frame of the [rare paths] nodes, interned on first use. */
static uint32_t rare_frame(struct prune *r)
{
	if (r->rare_frame == UINT32_MAX)
		r->rare_frame = symtab_frame(&r->syms, SYMTAB_NO_MODULE, RARE_NAME, "", 0);
	return r->rare_frame;
}

/*
 * The tree without its rare nodes, in r->tree; r->nmap maps every old
 * node.  A rare subtree becomes a [rare paths] node under its kept
 * caller, and below it one node per function that had samples of its
 * own there, unless the function has under the share in the whole tree:
 * every function a flat profile would show keeps its self samples.  (cct_child fails on a frame or parent that is CCT_NO_FRAME, so
 * a failure anywhere ends in a CCT_NO_FRAME node.)  Returns 0 or -1 when
 * memory is short.
 */
static int rebuild_tree(struct prune *r, const uint8_t *rare)
{
	const struct cct *t = &r->p->tree;

	r->nmap[CCT_ROOT] = CCT_ROOT;
	memcpy(cct_self(&r->tree, CCT_ROOT), cct_self(t, CCT_ROOT), t->nevents * sizeof(uint64_t));
	for (uint32_t id = 1; id < t->nnodes; id++) {
		uint32_t parent = t->parent[id], node;

		if (!rare[id]) {
			node = cct_child(&r->tree, r->nmap[parent], map_frame(r, t->frame[id]));
		} else {
			r->fold[id] = rare[parent] ? r->fold[parent] :
				      cct_child(&r->tree, r->nmap[parent], rare_frame(r));
			node = has_self(t, id) && !r->rare_fn[t->frame[id]] ?
			       cct_child(&r->tree, r->fold[id], map_frame(r, t->frame[id])) :
			       r->fold[id];
		}
		if (node == CCT_NO_FRAME)
			return -1;
		r->nmap[id] = node;
		for (uint32_t e = 0; e < t->nevents; e++)
			cct_self(&r->tree, node)[e] += cct_self(t, id)[e];
	}
	return 0;
}

/* Every call site's path, in the new frames (into a copy first: the
 * profile changes only once nothing can fail). */
static uint32_t *map_sites(struct prune *r)
{
	const struct profile *p = r->p;
	size_t n = 0;
	uint32_t *out;

	for (uint32_t i = 0; i < p->nmpi_sites; i++)
		n += p->mpi_sites[i].nframes;
	if (!(out = malloc((n ? n : 1) * sizeof(*out))))
		return NULL;
	n = 0;
	for (uint32_t i = 0; i < p->nmpi_sites; i++)
		for (uint32_t k = 0; k < p->mpi_sites[i].nframes; k++)
			if ((out[n++] = map_frame(r, p->mpi_sites[i].frames[k])) == UINT32_MAX) {
				free(out);
				return NULL;
			}
	return out;
}

static int seg_order(const void *a, const void *b)
{
	const struct prof_cp_seg *x = a, *y = b;

	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static int prefix_order(const void *a, const void *b)
{
	const struct prof_cp_prefix *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

/* Sort the n records of size bytes at base by cmp, and sum the counts
 * (a uint64_t * at counts_at, ne of them) of those equal under it into
 * the first; returns how many are left. */
static uint32_t sort_and_sum(void *base, uint32_t n, size_t size, size_t counts_at, uint32_t ne,
			     int (*cmp)(const void *, const void *))
{
	char *b = base;
	uint32_t k = 0;

	if (n > 1)	/* qsort takes no NULL, even for none */
		qsort(base, n, size, cmp);
	for (uint32_t i = 0; i < n; i++) {
		char *rec = b + i * size, *last = k ? b + (size_t)(k - 1) * size : NULL;
		uint64_t *to, *from;

		if (last && !cmp(last, rec)) {
			memcpy(&to, last + counts_at, sizeof(to));
			memcpy(&from, rec + counts_at, sizeof(from));
			for (uint32_t e = 0; e < ne; e++)
				to[e] += from[e];
			free(from);
		} else {
			memmove(b + (size_t)k++ * size, rec, size);
		}
	}
	return k;
}

/* The segments and the prefix re-keyed by nmap, those that now share a
 * key summed, in the order the format asks. */
static void map_cp(struct profile *p, const uint32_t *nmap)
{
	for (uint32_t i = 0; i < p->ncp_segs; i++)
		p->cp_segs[i].node = nmap[p->cp_segs[i].node];
	p->ncp_segs = sort_and_sum(p->cp_segs, p->ncp_segs, sizeof(*p->cp_segs),
				   offsetof(struct prof_cp_seg, counts), p->nevents, seg_order);
	for (uint32_t i = 0; i < p->ncp_prefix; i++)
		p->cp_prefix[i].node = nmap[p->cp_prefix[i].node];
	p->ncp_prefix = sort_and_sum(p->cp_prefix, p->ncp_prefix, sizeof(*p->cp_prefix),
				     offsetof(struct prof_cp_prefix, counts), p->nevents,
				     prefix_order);
}

static int edge_path_order(const void *a, const void *b)
{
	const struct prof_mpi_edge_path *x = a, *y = b;

	if (x->edge != y->edge)
		return x->edge < y->edge ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* The computation edges' paths re-keyed by nmap, those that now share a
 * node summed. */
static void map_edge_paths(struct profile *p, const uint32_t *nmap)
{
	struct prof_mpi_edge_path *v = p->mpi_edge_paths;
	uint32_t k = 0;

	for (uint32_t i = 0; i < p->nmpi_edge_paths; i++)
		v[i].node = nmap[v[i].node];
	if (p->nmpi_edge_paths > 1)
		qsort(v, p->nmpi_edge_paths, sizeof(*v), edge_path_order);
	for (uint32_t i = 0; i < p->nmpi_edge_paths; i++)
		if (k && !edge_path_order(&v[k - 1], &v[i])) {
			v[k - 1].samples += v[i].samples;
		} else {
			v[k++] = v[i];
		}
	p->nmpi_edge_paths = k;
}

/* Put r's tables in p. */
static void apply(struct profile *p, struct prune *r, const uint32_t *site_frames)
{
	size_t n = 0;

	for (uint32_t i = 0; i < p->nmpi_sites; i++) {
		memcpy(p->mpi_sites[i].frames, site_frames + n,
		       p->mpi_sites[i].nframes * sizeof(*site_frames));
		n += p->mpi_sites[i].nframes;
	}
	map_cp(p, r->nmap);
	map_edge_paths(p, r->nmap);
	prof_act_map(p, r->nmap);
	symtab_release(&p->syms);
	p->syms = r->syms;
	cct_release(&p->tree);
	p->tree = r->tree;
}

int profile_prune(struct profile *p, double share)
{
	struct prune r = { .p = p, .rare_frame = UINT32_MAX };
	uint32_t nodes = p->tree.nnodes, *site_frames = NULL;
	uint8_t *rare = NULL;
	int rc = -1, nrare;

	if (share <= 0 || p->merged || nodes < 2 || !p->nevents)
		return 0;
	symtab_init(&r.syms);
	if (!(rare = malloc(nodes)) || cct_init(&r.tree, p->nevents) < 0)
		goto out;
	if ((nrare = mark_rare(&r, share, rare)) <= 0) {
		rc = nrare;
		goto out;
	}
	r.fmap = malloc(((size_t)p->syms.nframes + 1) * sizeof(*r.fmap));
	r.mmap = malloc(((size_t)p->syms.nmodules + 1) * sizeof(*r.mmap));
	r.nmap = malloc((size_t)nodes * sizeof(*r.nmap));
	r.fold = malloc((size_t)nodes * sizeof(*r.fold));
	if (!r.fmap || !r.mmap || !r.nmap || !r.fold)
		goto out;
	memset(r.fmap, 0xff, ((size_t)p->syms.nframes + 1) * sizeof(*r.fmap));
	memset(r.mmap, 0xff, ((size_t)p->syms.nmodules + 1) * sizeof(*r.mmap));
	if (rebuild_tree(&r, rare) || !(site_frames = map_sites(&r)))
		goto out;
	apply(p, &r, site_frames);
	rc = nrare;
	symtab_init(&r.syms);	/* now p's */
	memset(&r.tree, 0, sizeof(r.tree));
out:
	free(site_frames);
	free(r.fmap);
	free(r.mmap);
	free(r.nmap);
	free(r.fold);
	free(r.rare_fn);
	free(rare);
	symtab_release(&r.syms);
	cct_release(&r.tree);
	return rc;
}
