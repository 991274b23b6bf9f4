/*
 * json.c - the streaming JSON writer declared in json.h.
 *
 * Used by out-json.c for `cpperf report --format=json`.  Function names,
 * file names and command lines come from the profiled program and may hold
 * any byte, so escaping validates UTF-8 sequence by sequence (no overlong
 * forms, no surrogates, nothing above U+10FFFF) and replaces each invalid
 * byte with U+FFFD.
 */
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include "json.h"

void json_init(struct json_w *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->need_comma = false;
	w->after_key = false;
	w->bad = false;
}

/* Emit the comma a new value or key needs at this level.  Closing a level
 * always ends a value of the enclosing one, so one flag is enough. */
static void sep(struct json_w *w)
{
	if (w->after_key)
		w->after_key = false;
	else if (w->need_comma)
		putc_unlocked(',', w->f);
	w->need_comma = true;
}

static void open_level(struct json_w *w, char c)
{
	sep(w);
	putc_unlocked(c, w->f);
	w->depth++;
	w->need_comma = false;
}

static void close_level(struct json_w *w, char c)
{
	putc_unlocked(c, w->f);
	w->need_comma = true;
	if (w->depth == 0)
		w->bad = true;
	else if (--w->depth == 0)
		putc_unlocked('\n', w->f);
}

void json_begin_object(struct json_w *w) { open_level(w, '{'); }
void json_end_object(struct json_w *w) { close_level(w, '}'); }
void json_begin_array(struct json_w *w) { open_level(w, '['); }
void json_end_array(struct json_w *w) { close_level(w, ']'); }

void json_key(struct json_w *w, const char *key)
{
	sep(w);
	json_write_string(w->f, key);
	putc_unlocked(':', w->f);
	w->after_key = true;
}

/* See json.h. */
int json_utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	int n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
	uint32_t cp = c & (0x3f >> (n - 1));

	if (c < 0xc2 || c > 0xf4)
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Length of the run at s that is written unchanged: printable ASCII other
 * than '"' and '\\', and valid UTF-8 sequences. */
static size_t plain_run(const unsigned char *s)
{
	size_t n = 0;

	for (;;) {
		unsigned c = s[n];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			n++;
		} else if (c >= 0x80) {
			int k = json_utf8_len(s + n);

			if (k == 0)
				return n;
			n += (size_t)k;
		} else {
			return n;
		}
	}
}

/* Write the escape for the byte at s (one that plain_run stopped at). */
static void put_escape(FILE *f, unsigned c)
{
	if (c == '"' || c == '\\') {
		putc_unlocked('\\', f);
		putc_unlocked((int)c, f);
	} else if (c == '\n') {
		fputs("\\n", f);
	} else if (c == '\t') {
		fputs("\\t", f);
	} else if (c == '\r') {
		fputs("\\r", f);
	} else if (c < 0x80) {
		fprintf(f, "\\u%04x", c);
	} else {
		fputs("\\ufffd", f);	/* not valid UTF-8 */
	}
}

void json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putc_unlocked('"', f);
	for (;;) {
		size_t n = plain_run(s);

		fwrite(s, 1, n, f);
		s += n;
		if (!*s)
			break;
		put_escape(f, *s++);
	}
	putc_unlocked('"', f);
}

void json_string(struct json_w *w, const char *s)
{
	sep(w);
	json_write_string(w->f, s ? s : "");
}

void json_u64(struct json_w *w, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	sep(w);
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10));
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), w->f);
}

void json_i64(struct json_w *w, int64_t v)
{
	sep(w);
	fprintf(w->f, "%" PRId64, v);
}

void json_double(struct json_w *w, double v)
{
	sep(w);
	if (isfinite(v))
		fprintf(w->f, "%.6g", v);
	else
		fputs("null", w->f);
}

void json_bool(struct json_w *w, bool v)
{
	sep(w);
	fputs(v ? "true" : "false", w->f);
}

void json_null(struct json_w *w)
{
	sep(w);
	fputs("null", w->f);
}

int json_finish(struct json_w *w)
{
	if (w->bad || w->depth != 0 || ferror(w->f))
		return -1;
	return 0;
}
