/*
 * out-html.h - the report as one HTML page (out-html.c), and the page's
 * parts, made from report/html at build time (embed.pl): the template with
 * its @STYLE@, @DATA@ and @SCRIPT@ markers, the style sheet, and the
 * scripts joined into one.
 */
#ifndef CPPERF_OUT_HTML_H
#define CPPERF_OUT_HTML_H

#include <stdio.h>
#include "model.h"

extern const char rep_html_page[];
extern const char rep_html_style[];
extern const char rep_html_script[];

/* The page of the whole report of m (out-html.c): rep_json_page's data
 * and the model's trees of ranks of their own, in one self-contained HTML
 * file. */
int rep_html(FILE *out, const struct rep_model *m);
/* The page with the data put_data writes on f (a JSON object the page's
 * script reads: {"report", ...}, or {"diff"} for cpperf diff's page),
 * every '<' in it escaped.  Returns 0 or -1. */
int rep_html_write(FILE *out, int (*put_data)(FILE *f, const void *ctx), const void *ctx);

#endif
