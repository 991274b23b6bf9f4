/*
 * folded.c - `cpperf report --format=folded`: folded stacks.
 *
 * One line per call path whose last frame has samples of the chosen event:
 * the function names from outermost to innermost joined by ';', a space,
 * and the count ("main;solve;dot 1234").  FlameGraph's flamegraph.pl and
 * speedscope read this.  Names are made safe for the format: ';' becomes
 * ':', spaces '_', control characters '?'.  Samples with no frame at all
 * (the root's own count) are written as "[unknown]".  Nothing is pruned.
 */
#include <stdio.h>
#include <stdlib.h>
#include "data.h"
#include "folded.h"
#include "model.h"
#include "tree.h"

struct folded {
	FILE *out;
	const struct rep_data *d;
	const struct tree_view *cp;
	uint32_t event;
	uint32_t *path;		/* frame ids of the current path, by depth */
};

static void put_folded_name(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		fputc(c == ';' ? ':' : c == ' ' ? '_' : c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

static int folded_enter(void *ctx, uint32_t node, uint32_t depth)
{
	struct folded *f = ctx;
	uint64_t n = cct_self(f->cp->cct, node)[f->event];

	if (node != CCT_ROOT)
		f->path[depth] = f->cp->cct->frame[node];
	if (tree_total(f->cp, node)[f->event] == 0)
		return 0;
	if (n == 0)
		return 1;
	if (node == CCT_ROOT)
		fputs("[unknown]", f->out);
	for (uint32_t i = 1; i <= depth; i++) {
		if (i > 1)
			fputc(';', f->out);
		put_folded_name(f->out, f->d->names[f->path[i]]);
	}
	fprintf(f->out, " %llu\n", (unsigned long long)n);
	return 1;
}

int rep_folded(FILE *out, const struct rep_model *m)
{
	bool cp_view = m->o->view == REP_CP || m->o->view == REP_CP_REFERENCE;
	const struct tree_view *cp = cp_view ? &m->cpr->cp : m->cp;
	struct folded f = { out, m->d, cp, m->event, NULL };
	int rc;

	f.path = malloc(((size_t)cp->cct->nnodes + 1) * sizeof(*f.path));
	if (!f.path)
		return -1;
	rc = tree_walk(cp, folded_enter, NULL, &f);
	free(f.path);
	return rc < 0 || ferror(out) ? -1 : 0;
}
