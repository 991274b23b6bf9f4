/*
 * out-html.h - the report as one HTML page (out-html.c), and the page's
 * parts, made from report/html at build time (embed.pl): the template with
 * its @STYLE@, @DATA@ and @SCRIPT@ markers, the style sheet, and the
 * scripts joined into one.
 */
#ifndef CPPERF_OUT_HTML_H
#define CPPERF_OUT_HTML_H

#include <stdbool.h>
#include <stdio.h>
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "flat.h"
#include "tree.h"

extern const char rep_html_page[];
extern const char rep_html_style[];
extern const char rep_html_script[];

/* The page of the whole report (out-html.c): rep_json's data for a page,
 * arguments alike (cl: the classes of the ranks, NULL for none), in one
 * self-contained HTML file. */
struct cl_result;
int rep_html(FILE *out, const struct rep_data *d, const struct tree_view *cp,
	     const struct flat *f, const struct cpath_result *cpr, const char *cp_why,
	     double min_pct, enum rep_comp comp, bool filtered, const struct cl_result *cl);

#endif
