/*
 * json.h - a small streaming JSON writer.
 *
 * The writer tracks nesting and commas, so callers only say what comes
 * next: json_key() inside objects, values anywhere.  Strings are escaped
 * completely (quotes, backslash, every control character) and bytes that
 * are not valid UTF-8 become U+FFFD, so any C string from a profile yields
 * valid JSON.  Integers are printed exactly; doubles with %.6g (non-finite
 * ones as null).  Output is compact with a newline after the top level.
 */
#ifndef CPPERF_JSON_H
#define CPPERF_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_w {
	FILE *f;
	uint64_t depth;
	bool need_comma;	/* a value was written at the current level */
	bool after_key;
	bool bad;		/* more closes than opens */
};

void json_init(struct json_w *w, FILE *f);
void json_begin_object(struct json_w *w);
void json_end_object(struct json_w *w);
void json_begin_array(struct json_w *w);
void json_end_array(struct json_w *w);
void json_key(struct json_w *w, const char *key);
void json_string(struct json_w *w, const char *s);
void json_u64(struct json_w *w, uint64_t v);
void json_i64(struct json_w *w, int64_t v);
void json_double(struct json_w *w, double v);
void json_bool(struct json_w *w, bool v);
void json_null(struct json_w *w);

/* Length of the valid UTF-8 sequence at s (2 to 4 bytes), 0 when s[0]
 * starts none (ASCII included): what JSON and GraphML keep of a name. */
int json_utf8_len(const unsigned char *s);

/* Write s as a quoted, escaped JSON string to f.  Can't fail (errors show
 * in ferror(f)). */
void json_write_string(FILE *f, const char *s);

/* 0 when everything was written, -1 on a write error or bad nesting. */
int json_finish(struct json_w *w);

#endif
