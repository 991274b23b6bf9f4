/*
 * out-pprof.c - `cpperf report --format=pprof`: the merged call-path tree
 * as pprof's profile.proto (github.com/google/pprof, proto/profile.proto),
 * gzipped, which `go tool pprof` and the tools built on it read.
 *
 * A sample type per event ("EVENT", unit "count"), a Sample per call path
 * with self counts (its locations leaf first, its values the counts), a
 * Location and a Function per frame met (ids: the frame's id + 1), the
 * frame's file and line on them.  The protocol-buffer encoding is written
 * here: varints and length-delimited fields, each message encoded into a
 * buffer of its own and copied into its parent's.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "model.h"
#include "out-pprof.h"
#include "../common/varint.h"

/* A growable byte buffer; bad once memory ran short. */
struct pb {
	unsigned char *b;
	size_t n, alloc;
	bool bad;
};

static void put_bytes(struct pb *p, const void *s, size_t n)
{
	if (p->bad)
		return;
	if (p->n + n > p->alloc) {
		size_t alloc = p->alloc ? p->alloc : 256;
		unsigned char *b;

		while (alloc < p->n + n)
			alloc *= 2;
		if (!(b = realloc(p->b, alloc))) {
			p->bad = true;
			return;
		}
		p->b = b;
		p->alloc = alloc;
	}
	memcpy(p->b + p->n, s, n);
	p->n += n;
}

static void put_varint(struct pb *p, uint64_t v)
{
	unsigned char b[VARINT_MAX];

	put_bytes(p, b, varint_put(b, v));
}

/* Field `field` as a varint (wire type 0); 0 is the default, left out. */
static void put_uint(struct pb *p, unsigned field, uint64_t v)
{
	if (!v)
		return;
	put_varint(p, (uint64_t)field << 3);
	put_varint(p, v);
}

/* Field `field` length-delimited (wire type 2): a string or a message. */
static void put_len(struct pb *p, unsigned field, const void *s, size_t n)
{
	put_varint(p, (uint64_t)field << 3 | 2);
	put_varint(p, n);
	put_bytes(p, s, n);
}

/* A message `msg` as field `field` of p; msg is emptied for reuse. */
static void put_msg(struct pb *p, unsigned field, struct pb *msg)
{
	p->bad |= msg->bad;
	put_len(p, field, msg->b, msg->n);
	msg->n = 0;
}

/* Profile's fields (profile.proto) */
enum { P_SAMPLE_TYPE = 1, P_SAMPLE, P_LOCATION = 4, P_FUNCTION, P_STRING_TABLE,
       P_DEFAULT_SAMPLE_TYPE = 14 };

/* The string table, written as strings are given; a string given again
 * soon after (the same pointer) reuses its index. */
struct strings {
	struct pb *out;
	const char **seen;
	size_t n, alloc;
};

static uint64_t string_index(struct strings *s, const char *str)
{
	/* among the last few: a frame's own strings, the unit after the
	 * event's name; others are written again (the format allows it) and
	 * the search stays short whatever the tree's size */
	for (size_t i = s->n; i-- > 0 && i + 8 >= s->n;)
		if (s->seen[i] == str)
			return i;
	if (s->n == s->alloc) {
		size_t alloc = s->alloc ? 2 * s->alloc : 256;
		const char **seen = realloc(s->seen, alloc * sizeof(*seen));

		if (!seen) {
			s->out->bad = true;
			return 0;
		}
		s->seen = seen;
		s->alloc = alloc;
	}
	s->seen[s->n] = str;
	put_len(s->out, P_STRING_TABLE, str, strlen(str));
	return s->n++;
}

struct pprof_walk {
	const struct rep_model *m;
	struct pb *out, msg, packed;
	uint64_t *ids;		/* location ids of the current path, by depth */
};

static int sample_enter(void *ctx, uint32_t node, uint32_t depth)
{
	struct pprof_walk *w = ctx;
	const uint64_t *self = cct_self(w->m->cp->cct, node);
	uint32_t nev = w->m->d->nevents, e;

	if (node == CCT_ROOT)
		return 1;
	w->ids[depth] = (uint64_t)w->m->cp->cct->frame[node] + 1;
	for (e = 0; e < nev && !self[e]; e++)
		;
	if (e == nev)
		return 1;
	for (uint32_t i = depth; i >= 1; i--)	/* the leaf first */
		put_varint(&w->packed, w->ids[i]);
	put_len(&w->msg, 1, w->packed.b, w->packed.n);	/* location_id, packed */
	w->packed.n = 0;
	for (e = 0; e < nev; e++)
		put_varint(&w->packed, self[e]);
	put_len(&w->msg, 2, w->packed.b, w->packed.n);	/* value, packed */
	w->packed.n = 0;
	put_msg(w->out, P_SAMPLE, &w->msg);
	w->msg.bad |= w->packed.bad;
	return 1;
}

/* A Location and a Function for each frame of the tree. */
static void put_frames(struct pb *out, struct pb *msg, struct pb *line, const struct rep_data *d,
		       const struct tree_view *cp, struct strings *s)
{
	uint8_t *done = calloc((size_t)d->syms.nframes + 1, 1);

	if (!done) {
		out->bad = true;
		return;
	}
	for (uint32_t n = 1; n < cp->cct->nnodes; n++) {
		uint32_t fr = cp->cct->frame[n];
		const struct sym_frame *sf = &d->syms.frames[fr];

		if (done[fr])
			continue;
		done[fr] = 1;
		put_uint(msg, 1, (uint64_t)fr + 1);			/* Function.id */
		put_uint(msg, 2, string_index(s, d->names[fr]));	/* name */
		put_uint(msg, 3, string_index(s, d->names[fr]));	/* system_name */
		put_uint(msg, 4, string_index(s, sf->file));		/* filename */
		put_msg(out, P_FUNCTION, msg);
		put_uint(line, 1, (uint64_t)fr + 1);			/* Line.function_id */
		put_uint(line, 2, sf->line);
		put_uint(msg, 1, (uint64_t)fr + 1);			/* Location.id */
		put_msg(msg, 4, line);					/* line */
		put_msg(out, P_LOCATION, msg);
	}
	free(done);
}

/* out's bytes gzipped onto f.  Returns 0 or -1. */
static int write_gzip(FILE *f, const struct pb *out)
{
	unsigned char buf[1 << 15];
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = out->b;
	z.avail_in = (uInt)out->n;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		rc = deflate(&z, Z_FINISH);
		if (rc == Z_STREAM_ERROR || fwrite(buf, 1, sizeof(buf) - z.avail_out, f) !=
		    sizeof(buf) - z.avail_out)
			break;
	} while (rc != Z_STREAM_END);
	deflateEnd(&z);
	return rc == Z_STREAM_END && !ferror(f) ? 0 : -1;
}

int rep_pprof(FILE *f, const struct rep_model *m)
{
	const struct rep_data *d = m->d;
	struct pb out = { 0 }, msg = { 0 }, line = { 0 };
	struct strings s = { &out, NULL, 0, 0 };
	struct pprof_walk w = { m, &out, { 0 }, { 0 }, NULL };
	int rc = -1;

	if (d->nevents > UINT32_MAX / 2 || !(w.ids = malloc(((size_t)m->cp->cct->nnodes + 1) *
							     sizeof(*w.ids))))
		goto out;
	string_index(&s, "");	/* index 0, as the format wants */
	for (uint32_t e = 0; e < d->nevents; e++) {
		put_uint(&msg, 1, string_index(&s, d->events[e].name));	/* ValueType.type */
		put_uint(&msg, 2, string_index(&s, "count"));		/* unit */
		put_msg(&out, P_SAMPLE_TYPE, &msg);
	}
	if (m->event)
		put_uint(&out, P_DEFAULT_SAMPLE_TYPE, string_index(&s, d->events[m->event].name));
	if (tree_walk(m->cp, sample_enter, NULL, &w) < 0)
		goto out;
	put_frames(&out, &msg, &line, d, m->cp, &s);
	if (!out.bad && !w.msg.bad && !w.packed.bad && !msg.bad && !line.bad)
		rc = write_gzip(f, &out);
out:
	free(out.b);
	free(msg.b);
	free(line.b);
	free(w.msg.b);
	free(w.packed.b);
	free(w.ids);
	free(s.seen);
	return rc;
}
