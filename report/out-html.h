/*
 * out-html.h - the report page's parts, made from report/html at build
 * time (embed.pl): the template with its @STYLE@, @DATA@ and @SCRIPT@
 * markers, the style sheet, and the scripts joined into one.
 */
#ifndef CPPERF_OUT_HTML_H
#define CPPERF_OUT_HTML_H

extern const char rep_html_page[];
extern const char rep_html_style[];
extern const char rep_html_script[];

#endif
