/*
 * out-html.c - `cpperf report --format=html`: one self-contained page
 * (docs/html.md) made of the template, style sheet and scripts of
 * report/html around the JSON report.  The data travel inside
 * <script type="application/json"> with every '<' written as \u003c (a
 * '<' only occurs inside JSON strings), so no name from a profile can
 * close the script or open markup; the scripts set every text from the
 * data as text, never as markup.
 */
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "out-html.h"

/* The JSON report, '<' escaped. */
static int put_data(FILE *out, const char *json, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (json[i] == '<' ? fputs("\\u003c", out) < 0 : putc(json[i], out) == EOF)
			return -1;
	return 0;
}

/* The template with each marker replaced by its part. */
static int put_page(FILE *out, const char *json, size_t n, double min_pct)
{
	static const char *const markers[] = { "@STYLE@", "@DATA@", "@SCRIPT@" };
	const char *at = rep_html_page;

	for (size_t k = 0; k < sizeof(markers) / sizeof(markers[0]); k++) {
		const char *m = strstr(at, markers[k]);
		int rc = 0;

		if (!m)
			return -1;
		fwrite(at, 1, (size_t)(m - at), out);
		if (k == 0)
			rc = fputs(rep_html_style, out) < 0 ? -1 : 0;
		else if (k == 1)
			rc = fprintf(out, "{\"min_pct\":%g,\"report\":", min_pct) < 0 ||
			     put_data(out, json, n) || fputs("}", out) < 0 ? -1 : 0;
		else
			rc = fputs(rep_html_script, out) < 0 ? -1 : 0;
		if (rc)
			return -1;
		at = m + strlen(markers[k]);
	}
	fputs(at, out);
	return ferror(out) ? -1 : 0;
}

int rep_html(FILE *out, const struct rep_data *d, const struct cp_tree *cp,
	     const struct flat *f, const struct cpath_result *cpr, const char *cp_why,
	     double min_pct, enum rep_comp comp, bool filtered)
{
	char *json = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&json, &n);
	int rc;

	if (!m)
		return -1;
	rc = rep_json(m, d, cp, f, cpr, cp_why, min_pct, comp, filtered, true);
	if (fclose(m) || rc < 0) {
		free(json);
		return -1;
	}
	rc = put_page(out, json, n, min_pct);
	free(json);
	return rc;
}
