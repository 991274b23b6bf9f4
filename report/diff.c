/*
 * diff.c - two experiments side by side.
 *
 * Each table is a list of rows keyed by a string (a function and its
 * module's name, a call path's function names joined by ';', an MPI call
 * site's function and caller), with a value per column for each side:
 * the rows of A and B are gathered, sorted by key and rows of one key
 * folded (a key may come from several frames: the same name in modules
 * of one name, or a call path met twice), then ordered by the size of the
 * change in the sorting column, ties by key.  Modules are matched by
 * their file name, not their path: two builds of a program live in
 * different directories.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "json.h"
#include "out-html.h"
#include "show.h"
#include "text.h"

struct row {
	char *key;		/* owned */
	const char *label[2];	/* in key's allocation: the parts shown (the second may be NULL) */
	double *v;		/* [2 * ncols]: A's columns, then B's */
};

struct table {
	const char *name;	/* its JSON key */
	const char *title;	/* what its rows are, in the text */
	const char *labels[2];	/* the labels' JSON keys */
	uint32_t ncols;
	char **cols;		/* owned column names */
	uint32_t sort;		/* the column that orders it */
	struct row *rows;
	size_t n, alloc;
};

/* The events both recorded: their indices in a and b. */
struct common {
	uint32_t n, sort;	/* sort: the one that orders the tables */
	uint32_t *ea, *eb;
};

static void table_release(struct table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->rows[i].key);
		free(t->rows[i].v);
	}
	for (uint32_t c = 0; t->cols && c < t->ncols; c++)
		free(t->cols[c]);
	free(t->cols);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

/* A row of side (0: A, 1: B) with values v; its key is label0, a tab
 * and label1 (when not NULL).  Returns 0 or -1 (memory). */
static int add_row(struct table *t, int side, const char *label0, const char *label1,
		   const double *v)
{
	size_t n0 = strlen(label0), n1 = label1 ? strlen(label1) : 0;
	struct row *r;

	if (t->n == t->alloc) {
		size_t alloc = t->alloc ? 2 * t->alloc : 64;
		struct row *rows = realloc(t->rows, alloc * sizeof(*rows));

		if (!rows)
			return -1;
		t->rows = rows;
		t->alloc = alloc;
	}
	r = &t->rows[t->n];
	/* "label0\tlabel1", then label0 alone for showing */
	r->key = malloc(n0 + n1 + 2 + n0 + 1);
	r->v = calloc(2 * (size_t)t->ncols, sizeof(*r->v));
	if (!r->key || !r->v) {
		free(r->key);
		free(r->v);
		return -1;
	}
	memcpy(r->key, label0, n0 + 1);
	r->label[1] = NULL;
	if (label1) {
		r->key[n0] = '\t';
		memcpy(r->key + n0 + 1, label1, n1 + 1);
		r->label[1] = r->key + n0 + 1;
	}
	r->label[0] = r->key + n0 + n1 + 2;
	memcpy(r->key + n0 + n1 + 2, label0, n0 + 1);
	memcpy(r->v + (size_t)side * t->ncols, v, t->ncols * sizeof(*v));
	t->n++;
	return 0;
}

static int by_key(const void *x, const void *y)
{
	return strcmp(((const struct row *)x)->key, ((const struct row *)y)->key);
}

static double change(const struct row *r, uint32_t c, uint32_t ncols)
{
	return r->v[ncols + c] - r->v[c];
}

/* By the size of the change in the table's sorting column. */
static int by_change(const void *x, const void *y, void *table)
{
	const struct row *a = x, *b = y;
	const struct table *t = table;
	double ca = fabs(change(a, t->sort, t->ncols)), cb = fabs(change(b, t->sort, t->ncols));

	if (ca != cb)
		return ca < cb ? 1 : -1;
	return strcmp(a->key, b->key);
}

/* Sort by key, fold the rows of one key, order by change. */
static void settle(struct table *t)
{
	size_t out = 0;

	if (!t->n)
		return;
	qsort(t->rows, t->n, sizeof(*t->rows), by_key);
	for (size_t i = 0; i < t->n; i++) {
		if (out && !strcmp(t->rows[out - 1].key, t->rows[i].key)) {
			for (uint32_t c = 0; c < 2 * t->ncols; c++)
				t->rows[out - 1].v[c] += t->rows[i].v[c];
			free(t->rows[i].key);
			free(t->rows[i].v);
			continue;
		}
		t->rows[out++] = t->rows[i];
	}
	t->n = out;
	qsort_r(t->rows, t->n, sizeof(*t->rows), by_change, t);
}

/* A table's columns: "self EVENT" and "total EVENT" per common event, or
 * the names given. */
static int set_columns(struct table *t, const struct rep_data *d, const struct common *c,
		       const char *const *names, uint32_t n)
{
	t->ncols = names ? n : 2 * c->n;
	t->cols = calloc(t->ncols, sizeof(*t->cols));
	if (!t->cols)
		return -1;
	for (uint32_t k = 0; k < t->ncols; k++) {
		char buf[300];

		if (names)
			snprintf(buf, sizeof(buf), "%s", names[k]);
		else
			snprintf(buf, sizeof(buf), "%s %s", k % 2 ? "total" : "self",
				 d->events[c->ea[k / 2]].name);
		if (!(t->cols[k] = strdup(buf)))
			return -1;
	}
	t->sort = names ? 0 : 2 * c->sort;
	return 0;
}

/* The counts of the common events of one side, as the columns hold them. */
static void event_values(double *v, const struct common *c, int side, const uint64_t *self,
			 const uint64_t *total)
{
	for (uint32_t k = 0; k < c->n; k++) {
		uint32_t e = side ? c->eb[k] : c->ea[k];

		v[2 * k] = (double)self[e];
		v[2 * k + 1] = (double)total[e];
	}
}

static int add_functions(struct table *t, const struct rep_model *m, int side,
			 const struct common *c)
{
	double *v = calloc(t->ncols + 1, sizeof(*v));
	int rc = v ? 0 : -1;

	for (uint32_t i = 0; rc == 0 && i < m->flat->nfns; i++) {
		const struct flat_fn *f = &m->flat->fns[i];

		event_values(v, c, side, f->self, f->total);
		rc = add_row(t, side, f->name, rep_module_name(m->d, f->module), v);
	}
	free(v);
	return rc;
}

/* The walk of one side's tree for the call-path table. */
struct path_walk {
	struct table *t;
	const struct rep_model *m;
	const struct common *c;
	int side;
	char *path;		/* the current path's names joined by ';' */
	size_t *end;		/* its length at each depth */
	double *v;
	int rc;
};

static int path_enter(void *ctx, uint32_t node, uint32_t depth)
{
	struct path_walk *w = ctx;
	const char *name = rep_node_function(w->m->d, node);
	size_t at = depth > 1 ? w->end[depth - 1] : 0, n = strlen(name);
	char *grown;

	if (node == CCT_ROOT)
		return 1;
	if (!(grown = realloc(w->path, at + n + 2))) {
		w->rc = -1;
		return -1;
	}
	w->path = grown;
	if (depth > 1)
		w->path[at++] = ';';
	memcpy(w->path + at, name, n + 1);
	w->end[depth] = at + n;
	event_values(w->v, w->c, w->side, cct_self(w->m->cp->cct, node), tree_total(w->m->cp, node));
	if (add_row(w->t, w->side, w->path, NULL, w->v) < 0) {
		w->rc = -1;
		return -1;
	}
	return 1;
}

static int add_paths(struct table *t, const struct rep_model *m, int side, const struct common *c)
{
	struct path_walk w = { t, m, c, side, NULL, NULL, NULL, 0 };

	w.end = calloc((size_t)m->cp->cct->nnodes + 1, sizeof(*w.end));
	w.v = calloc(t->ncols + 1, sizeof(*w.v));
	if (!w.end || !w.v || tree_walk(m->cp, path_enter, NULL, &w) < 0)
		w.rc = -1;
	free(w.path);
	free(w.end);
	free(w.v);
	return w.rc;
}

static int add_cpath(struct table *t, const struct rep_model *m, int side)
{
	for (uint32_t i = 0; i < m->cpr->nfns; i++) {
		const struct cpath_fn *f = &m->cpr->fns[i];
		double v[1] = { f->cp_time };

		if (add_row(t, side, f->name, rep_module_name(m->d, f->module), v) < 0)
			return -1;
	}
	return 0;
}

static int add_mpi(struct table *t, const struct rep_model *m, int side)
{
	const struct rep_mpi *mpi = &m->d->mpi;

	for (uint32_t i = 0; i < mpi->nsites; i++) {
		const struct rep_site *s = &mpi->sites[i];
		const char *caller = s->nframes ? m->d->names[s->frames[s->nframes - 1]] : "?";
		double v[2] = { rep_secs(s->time_ns), (double)s->calls };

		if (add_row(t, side, s->function, caller, v) < 0)
			return -1;
	}
	return 0;
}

/* The events both recorded, the sorting one named event (NULL: the
 * first).  Returns 0, or -1 with a message. */
static int common_events(struct common *c, const struct rep_data *a, const struct rep_data *b,
			 const char *event, char *err, size_t errlen)
{
	bool found = !event;

	memset(c, 0, sizeof(*c));
	c->ea = calloc(a->nevents + 1, sizeof(*c->ea));
	c->eb = calloc(a->nevents + 1, sizeof(*c->eb));
	if (!c->ea || !c->eb) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < a->nevents; i++)
		for (uint32_t j = 0; j < b->nevents; j++) {
			if (strcmp(a->events[i].name, b->events[j].name))
				continue;
			if (event && !strcmp(event, a->events[i].name)) {
				c->sort = c->n;
				found = true;
			}
			c->ea[c->n] = i;
			c->eb[c->n++] = j;
		}
	if (!c->n)
		snprintf(err, errlen, "%s and %s recorded no event in common", a->dir, b->dir);
	else if (!found)
		snprintf(err, errlen, "--event=%s: not an event both %s and %s recorded", event,
			 a->dir, b->dir);
	return c->n && found ? 0 : -1;
}

/* --- writing */

static void put_json_table(struct json_w *w, const struct table *t)
{
	static const char *const sides[] = { "a", "b", "delta" };

	json_key(w, t->name);
	json_begin_array(w);
	for (size_t i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];

		json_begin_object(w);
		for (int l = 0; l < 2 && t->labels[l]; l++) {
			json_key(w, t->labels[l]);
			json_string(w, r->label[l] ? r->label[l] : "");
		}
		for (int s = 0; s < 3; s++) {
			json_key(w, sides[s]);
			json_begin_object(w);
			for (uint32_t c = 0; c < t->ncols; c++) {
				json_key(w, t->cols[c]);
				json_double(w, s < 2 ? r->v[(size_t)s * t->ncols + c] : change(r, c, t->ncols));
			}
			json_end_object(w);
		}
		json_end_object(w);
	}
	json_end_array(w);
}

static void put_text_table(FILE *out, const struct table *t, size_t limit)
{
	size_t shown = 0;

	fprintf(out, "#\n# %s, by the change in %s (B - A)\n", t->title, t->cols[t->sort]);
	fprintf(out, "# %12s %12s %12s %8s  %s\n", "A", "B", "change", "of A", t->labels[0]);
	for (size_t i = 0; i < t->n && shown < limit; i++) {
		const struct row *r = &t->rows[i];
		double a = r->v[t->sort], d = change(r, t->sort, t->ncols);

		if (d == 0)
			break;
		fprintf(out, "  %12.6g %12.6g %+12.6g", a, r->v[t->ncols + t->sort], d);
		if (a > 0)
			fprintf(out, " %+7.1f%%", 100 * d / a);
		else
			fprintf(out, " %8s", "new");
		fputs("  ", out);
		rep_put_clean(out, r->label[0], 0);
		if (r->label[1] && *r->label[1]) {
			fputs(t->labels[1] && !strcmp(t->labels[1], "caller") ? "  from " : "  [", out);
			rep_put_clean(out, r->label[1], 0);
			fputs(t->labels[1] && !strcmp(t->labels[1], "caller") ? "" : "]", out);
		}
		fputc('\n', out);
		shown++;
	}
	if (!shown)
		fputs("# no change\n", out);
	else if (shown < t->n && change(&t->rows[shown], t->sort, t->ncols) != 0)
		fprintf(out, "# more rows changed: --limit=N shows N of each table, --format=json all\n");
}

static void put_text_header(FILE *out, const struct rep_model *a, const struct rep_model *b,
			    const struct common *c)
{
	fprintf(out, "# cpperf diff: A %s, B %s\n# events of both:", a->d->dir, b->d->dir);
	for (uint32_t k = 0; k < c->n; k++)
		fprintf(out, "%s %s (A %llu, B %llu samples)%s", k ? "," : "", a->d->events[c->ea[k]].name,
			(unsigned long long)tree_total(a->cp, CCT_ROOT)[c->ea[k]],
			(unsigned long long)tree_total(b->cp, CCT_ROOT)[c->eb[k]],
			k == c->sort ? " sorts" : "");
	fputc('\n', out);
}


enum { T_FUNCTIONS, T_PATHS, T_CP, T_MPI, NTABLES };

/* The tables as JSON ({"a", "b", "sort", TABLE...}). */
static int put_json(FILE *out, const struct rep_model *a, const struct rep_model *b,
		    const struct common *c, const struct table *t, bool cp, bool mpi)
{
	struct json_w w;

	json_init(&w, out);
	json_begin_object(&w);
	json_key(&w, "a");
	json_string(&w, a->d->dir);
	json_key(&w, "b");
	json_string(&w, b->d->dir);
	json_key(&w, "sort");
	json_string(&w, a->d->events[c->ea[c->sort]].name);
	for (int k = 0; k < NTABLES; k++)
		if ((k != T_CP || cp) && (k != T_MPI || mpi))
			put_json_table(&w, &t[k]);
	json_end_object(&w);
	return json_finish(&w);
}

/* What the page of the tables shows. */
struct diff_page {
	const struct rep_model *a, *b;
	const struct common *c;
	const struct table *t;
	bool cp, mpi;
};

/* The page's data: the tables' JSON as {"diff": ...}, whose script
 * shows a view per table. */
static int put_page_data(FILE *f, const void *ctx)
{
	const struct diff_page *p = ctx;
	int rc;

	fputs("{\"diff\":", f);
	rc = put_json(f, p->a, p->b, p->c, p->t, p->cp, p->mpi);
	fputc('}', f);
	return rc;
}

int rep_diff(FILE *out, const struct rep_model *a, const struct rep_model *b,
	     enum rep_diff_format format, const char *event, size_t limit, char *err,
	     size_t errlen)
{
	static const char *const cp_cols[] = { "cp_time" }, *const mpi_cols[] = { "time", "calls" };
	struct table t[NTABLES] = {
		{ .name = "functions", .title = "functions", .labels = { "function", "module" } },
		{ .name = "callpaths", .title = "call paths", .labels = { "path", NULL } },
		{ .name = "critical_path", .title = "functions on the critical path",
		  .labels = { "function", "module" } },
		{ .name = "mpi", .title = "MPI call sites", .labels = { "function", "caller" } },
	};
	const struct rep_model *side[2] = { a, b };
	bool cp = a->cpr && b->cpr, mpi = a->d->mpi.nsites || b->d->mpi.nsites;
	struct common c;
	int rc = -1;

	if (common_events(&c, a->d, b->d, event, err, errlen) < 0)
		goto out;
	if (set_columns(&t[T_FUNCTIONS], a->d, &c, NULL, 0) < 0 ||
	    set_columns(&t[T_PATHS], a->d, &c, NULL, 0) < 0 ||
	    set_columns(&t[T_CP], a->d, &c, cp_cols, 1) < 0 ||
	    set_columns(&t[T_MPI], a->d, &c, mpi_cols, 2) < 0)
		goto oom;
	for (int s = 0; s < 2; s++)
		if (add_functions(&t[T_FUNCTIONS], side[s], s, &c) < 0 ||
		    add_paths(&t[T_PATHS], side[s], s, &c) < 0 ||
		    (cp && add_cpath(&t[T_CP], side[s], s) < 0) ||
		    (mpi && add_mpi(&t[T_MPI], side[s], s) < 0))
			goto oom;
	for (int k = 0; k < NTABLES; k++)
		settle(&t[k]);
	if (format == REP_DIFF_JSON) {
		rc = put_json(out, a, b, &c, t, cp, mpi);
	} else if (format == REP_DIFF_HTML) {
		rc = rep_html_write(out, put_page_data, &(struct diff_page){ a, b, &c, t, cp, mpi });
	} else {
		put_text_header(out, a, b, &c);
		for (int k = 0; k < NTABLES; k++)
			if ((k != T_CP || cp) && (k != T_MPI || mpi))
				put_text_table(out, &t[k], limit);
		if (!cp && (a->d->mpi.nranks || b->d->mpi.nranks))
			fputs("#\n# critical path: not in both experiments\n", out);
		rc = ferror(out) ? -1 : 0;
	}
	if (rc < 0)
		snprintf(err, errlen, "error writing the differences (disk full? out of memory?)");
	goto out;
oom:
	snprintf(err, errlen, "out of memory comparing %s and %s", a->d->dir, b->d->dir);
out:
	for (int k = 0; k < NTABLES; k++)
		table_release(&t[k]);
	free(c.ea);
	free(c.eb);
	return rc;
}
