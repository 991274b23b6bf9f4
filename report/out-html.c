/*
 * out-html.c - `cpperf report --format=html`: one self-contained page
 * (docs/html.md) made of the template, style sheet and scripts of
 * report/html around the data: the JSON report, and the call-path trees
 * of a few ranks of their own that the model read (model.h).
 * The data travel inside <script type="application/json"> with every '<'
 * written as \u003c (a '<' only occurs inside JSON strings), so no name
 * from a profile can close the script or open markup; the scripts set
 * every text from the data as text, never as markup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "model.h"
#include "out-html.h"
#include "out-json.h"

/* The JSON data, '<' escaped. */
static int put_data(FILE *out, const char *json, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (json[i] == '<' ? fputs("\\u003c", out) < 0 : putc(json[i], out) == EOF)
			return -1;
	return 0;
}

/* The template with each marker replaced by its part, data (n bytes) its
 * data. */
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

/* The page's data: {"min_pct", "report", "rank_trees"}. */
static int put_blob(FILE *out, const void *model)
{
	const struct rep_model *m = model;
	struct json_w w;

	fprintf(out, "{\"min_pct\":%g,\"report\":", m->min_pct);
	if (rep_json_page(out, m) < 0)
		return -1;
	fputs(",\"rank_trees\":", out);
	json_init(&w, out);
	json_begin_array(&w);
	for (uint32_t i = 0; i < m->nrank_trees; i++) {
		const struct rep_rank_tree *t = &m->rank_trees[i];

		json_begin_object(&w);
		rep_json_rank(&w, t->rank);
		json_key(&w, "callpath");
		if (rep_json_tree(&w, &t->one, &t->cp, m->min_pct, t->filtered, false) < 0)
			return -1;
		json_end_object(&w);
	}
	json_end_array(&w);
	if (json_finish(&w) < 0)
		return -1;
	fputs("}", out);
	return ferror(out) ? -1 : 0;
}

int rep_html_write(FILE *out, int (*put_data)(FILE *f, const void *ctx), const void *ctx)
{
	char *data = NULL;
	size_t n = 0;
	FILE *blob = open_memstream(&data, &n);
	int rc;

	if (!blob)
		return -1;
	rc = put_data(blob, ctx);
	if (fclose(blob) || rc < 0) {
		free(data);
		return -1;
	}
	rc = put_page(out, data, n);
	free(data);
	return rc;
}

int rep_html(FILE *out, const struct rep_model *m)
{
	return rep_html_write(out, put_blob, m);
}
