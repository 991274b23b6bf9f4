/*
 * cp-zero.c - critical-path zeroing of one rank (cp-zero.h): the selection,
 * each selected function's time per segment from the samples filed there,
 * and the net lengths and shares that travel in the piggyback.
 *
 * A function's time in segment e is seg_ns(e) * c_f(e) / c(e): the share of
 * the segment's samples whose call path contains one of its frames.  The
 * counts of the last ACC segments are kept, which is plenty since the
 * calling thread drains its own samples at every call's entry.  With
 * --cp-auto, rank 0 counts the leaf functions of segment samples until the
 * warm-up has passed and then selects the top K; the others learn the
 * selection (as name hashes) from the first piggyback that carries it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/hash.h"
#include "../sampler/rt.h"
#include "cp-zero.h"
#include "piggyback.h"

#define NF PMPI_PB_SHARES
#define ACC 64			/* segments whose sample counts are kept */
#define MASK_KNOWN 0x100u	/* frame mask computed */

struct seg_count {		/* samples of one segment, all and per function */
	uint64_t seg, c, cf[NF];
};

struct fn_count {		/* --cp-auto: segment samples of a leaf function */
	uint64_t hash, count;
	const char *name;	/* owned by the symbol table */
};

static struct {
	bool wanted;		/* --cp-functions or --cp-auto given */
	int nfns;
	uint64_t hash[NF];
	char *name[NF];		/* NULL when learnt from a piggyback */
	enum prof_cp_how how;
	uint64_t start_event;
	int64_t net[NF], share[NF];
	int64_t end_net[NF], end_share[NF];
	bool decider;		/* rank 0 under --cp-auto */
	uint32_t auto_k;
	uint64_t decide_at;	/* CLOCK_MONOTONIC ns */
	struct seg_count acc[ACC];
	uint16_t *mask;		/* per symbol-table frame: bits of the selection */
	uint32_t nmask;
	struct fn_count *fc;
	uint32_t nfc, capfc;
} z;

static uint64_t fnv1a(const char *s)
{
	uint64_t h = hash_str(s);

	return h ? h : 1;	/* 0 marks an unused slot */
}

static void select_fn(int i, const char *name, uint64_t hash)
{
	z.hash[i] = hash;
	z.name[i] = name ? strdup(name) : NULL;
}

/* Begin zeroing with z.nfns functions chosen: masks are recomputed. */
static void begin(enum prof_cp_how how, uint64_t event, uint64_t length)
{
	z.how = how;
	z.start_event = how == PROF_CP_FN_INIT ? 0 : event;
	for (int f = 0; f < NF; f++) {
		z.net[f] = (int64_t)length;
		z.share[f] = 0;
	}
	free(z.mask);
	z.mask = NULL;
	z.nmask = 0;
	memset(z.acc, 0, sizeof(z.acc));
}

void cpz_start(const struct rt_state *rt, int world_rank, uint64_t t0)
{
	char list[sizeof(rt->opt.cp_functions)], *save = NULL;

	strcpy(list, rt->opt.cp_functions);
	for (char *s = strtok_r(list, ",", &save); s && z.nfns < NF; s = strtok_r(NULL, ",", &save)) {
		select_fn(z.nfns, s, fnv1a(s));
		z.nfns++;
	}
	z.auto_k = rt->opt.cp_auto;
	z.wanted = z.nfns > 0 || z.auto_k > 0;
	if (z.nfns)
		begin(PROF_CP_FN_INIT, 0, 0);
	else if (z.auto_k && world_rank == 0) {
		z.decider = true;
		z.decide_at = t0 + (uint64_t)(rt->opt.cp_warmup * 1e9);
	}
}

bool cpz_active(void)
{
	return z.wanted;
}

static int by_count(const void *a, const void *b)
{
	const struct fn_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* --cp-auto on rank 0: the top K leaf functions of the segment samples. */
static void decide(uint64_t event, uint64_t length)
{
	if (z.nfc)	/* no samples yet: z.fc is NULL, which qsort may not take */
		qsort(z.fc, z.nfc, sizeof(*z.fc), by_count);
	for (uint32_t i = 0; i < z.nfc && z.nfns < (int)z.auto_k; i++)
		select_fn(z.nfns++, z.fc[i].name, z.fc[i].hash);
	free(z.fc);
	z.fc = NULL;
	z.nfc = z.capfc = 0;
	z.decider = false;
	if (z.nfns)
		begin(PROF_CP_FN_ENTRY, event, length);
}

/* Function f's time in segment e of length seg_ns. */
static int64_t fn_time(uint64_t e, uint64_t seg_ns, int f)
{
	const struct seg_count *a = &z.acc[e % ACC];

	if (a->seg != e || !a->c)
		return 0;
	return (int64_t)((unsigned __int128)seg_ns * a->cf[f] / a->c);
}

void cpz_enter(uint64_t e, uint64_t now, uint64_t seg_ns, uint64_t length)
{
	if (z.how != PROF_CP_FN_NONE) {
		for (int f = 0; f < z.nfns; f++) {
			int64_t ft = fn_time(e, seg_ns, f);

			z.net[f] += (int64_t)seg_ns - ft;
			z.share[f] += ft;
		}
	} else if (z.decider && now >= z.decide_at) {
		decide(e, length);
	}
}

void cpz_stamp(struct pmpi_pb *pb)
{
	if (z.how == PROF_CP_FN_NONE)
		return;
	pb->flags |= PMPI_PB_F_CPFN;
	for (int f = 0; f < z.nfns; f++) {
		pb->net[f] = z.net[f];
		pb->share[f] = z.share[f];
		pb->fn[f] = z.hash[f];
	}
}

void cpz_merge(uint64_t e, uint64_t entry_length, const struct pmpi_pb *pb, bool took)
{
	bool carries = pb->flags & PMPI_PB_F_CPFN;

	if (carries && z.how == PROF_CP_FN_NONE && z.wanted) {
		for (int f = 0; f < NF && pb->fn[f]; f++)
			select_fn(z.nfns++, NULL, pb->fn[f]);
		z.decider = false;
		if (z.nfns)
			begin(PROF_CP_FN_MERGE, e, entry_length);
	}
	if (z.how != PROF_CP_FN_NONE)
		pb_zero_rule(z.nfns, z.share, z.net, pb, took);
}

void cpz_end(void)
{
	memcpy(z.end_net, z.net, sizeof(z.net));
	memcpy(z.end_share, z.share, sizeof(z.share));
}

/* --- samples */

/* Bits of the selected functions among frame fr's. */
static unsigned frame_mask(const struct profile *p, uint32_t fr)
{
	if (fr >= z.nmask) {
		uint32_t n = p->syms.nframes > fr ? p->syms.nframes : fr + 1;
		uint16_t *m = realloc(z.mask, n * sizeof(*m));

		if (!m)
			return 0;
		memset(m + z.nmask, 0, (n - z.nmask) * sizeof(*m));
		z.mask = m;
		z.nmask = n;
	}
	if (!(z.mask[fr] & MASK_KNOWN)) {
		uint64_t h = fr < p->syms.nframes ? fnv1a(p->syms.frames[fr].function) : 0;

		z.mask[fr] = MASK_KNOWN;
		for (int f = 0; f < z.nfns; f++)
			if (z.hash[f] == h)
				z.mask[fr] |= 1u << f;
	}
	return z.mask[fr] & 0xffu;
}

static unsigned path_mask(const struct profile *p, uint32_t node)
{
	unsigned m = 0;

	for (uint32_t n = node; n != CCT_ROOT && n < p->tree.nnodes; n = p->tree.parent[n])
		m |= frame_mask(p, p->tree.frame[n]);
	return m;
}

/* --cp-auto: count the leaf function of a segment sample on the decider. */
static void count_leaf(const struct profile *p, uint32_t node, uint64_t w)
{
	uint32_t fr = node < p->tree.nnodes && node != CCT_ROOT ? p->tree.frame[node] : UINT32_MAX;
	const char *name;
	uint64_t h;

	if (fr >= p->syms.nframes)
		return;
	name = p->syms.frames[fr].function;
	h = fnv1a(name);
	for (uint32_t i = 0; i < z.nfc; i++)
		if (z.fc[i].hash == h) {
			z.fc[i].count += w;
			return;
		}
	if (z.nfc == z.capfc) {
		uint32_t cap = z.capfc ? z.capfc * 2 : 64;
		struct fn_count *v = realloc(z.fc, cap * sizeof(*v));

		if (!v)
			return;
		z.fc = v;
		z.capfc = cap;
	}
	z.fc[z.nfc++] = (struct fn_count){ h, w, name };
}

void cpz_sample(struct rt_state *rt, uint64_t seg, uint32_t node, const uint64_t *w)
{
	const struct profile *p = &rt->prof;

	if (z.decider) {
		count_leaf(p, node, w[0]);
	} else if (z.how != PROF_CP_FN_NONE) {
		struct seg_count *a = &z.acc[seg % ACC];
		unsigned m = path_mask(p, node);

		if (a->seg != seg)
			memset(a, 0, sizeof(*a));
		a->seg = seg;
		a->c += w[0];
		for (int f = 0; f < z.nfns; f++)
			if (m & (1u << f))
				a->cf[f] += w[0];
	}
}

/* --- the end */

/* The name of selected function f: chosen here, or a sampled frame's
 * whose name has its hash, or "#" and the hash. */
static char *fn_name(const struct profile *p, int f)
{
	char buf[32];

	if (z.name[f])
		return strdup(z.name[f]);
	for (uint32_t fr = 0; fr < p->syms.nframes; fr++)
		if (fnv1a(p->syms.frames[fr].function) == z.hash[f])
			return strdup(p->syms.frames[fr].function);
	snprintf(buf, sizeof(buf), "#%016llx", (unsigned long long)z.hash[f]);
	return strdup(buf);
}

static int64_t clamp(int64_t v, uint64_t max)
{
	return v < 0 ? 0 : (uint64_t)v > max ? (int64_t)max : v;
}

void cpz_fill(struct rt_state *rt)
{
	struct profile *p = &rt->prof;
	int n = 0;

	if (z.how != PROF_CP_FN_NONE && (p->cp_fns = calloc((size_t)z.nfns, sizeof(*p->cp_fns)))) {
		for (; n < z.nfns; n++) {
			struct prof_cp_fn *d = &p->cp_fns[n];

			if (!(d->name = fn_name(p, n)))
				break;
			d->net_ns = (uint64_t)clamp(z.end_net[n], p->cp_length_ns);
			d->share_ns = (uint64_t)clamp(z.end_share[n], p->cp_length_ns);
		}
	}
	p->ncp_fns = (uint32_t)n;
	p->cp_fn_how = n ? z.how : PROF_CP_FN_NONE;
	p->cp_fn_start = n && (z.how == PROF_CP_FN_ENTRY || z.how == PROF_CP_FN_MERGE) ? z.start_event : 0;
	for (int f = 0; f < NF; f++)
		free(z.name[f]);
	free(z.mask);
	free(z.fc);
	memset(&z, 0, sizeof(z));
}
