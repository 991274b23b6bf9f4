/*
 * profile-read.c - profile_parse() and profile_read(): a strict,
 * line-at-a-time parser for the format of docs/format.md.  It first checks
 * the magic line and the trailer (length and CRC-32, so a truncated or
 * damaged file fails before anything else), then checks every record:
 * syntax, order of sections, indices in range, counts matching the number
 * of events, no duplicate modules, frames or nodes.  The MPI records are
 * parsed in profile-read-mpi.c and the critical-path records in
 * profile-read-cp.c, with the field readers of profile-fields.c
 * (profile-read-int.h); the rules between the overhead and compensation
 * scalars are checked at the end (prof_comp_check).  Input is hostile: no
 * loop runs longer than the input, every allocation is bounded by a small
 * multiple of the input's size, and only regular files are opened (a FIFO
 * or a device would block or never end).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "crc32.h"
#include "profile.h"
#include "profile-int.h"
#include "profile-read-int.h"
#include "regular-file.h"

/* Check the id an interning call gave a record that must be new: want,
 * not an earlier entry with the same content, nor UINT32_MAX (memory). */
static int pr_new_id(struct parser *ps, uint32_t id, uint32_t want, const char *what)
{
	if (id == UINT32_MAX)
		return pr_err(ps, "out of memory");
	if (id != want)
		return pr_err(ps, "duplicate of %s %" PRIu32 " (same content)", what, id);
	return 0;
}

static int rec_argv(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	char *s;

	if (pr_grow(ps, (void **)&p->argv, p->argc, &ps->argv_alloc, sizeof(*p->argv)) ||
	    pr_str(ps, c, "argument", &s))
		return -1;
	p->argv[p->argc++] = s;
	return pr_done(ps, c);
}

static int rec_event(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	struct prof_event *e;
	uint32_t i = p->nevents;

	if (pr_seq(ps, c, "event", i) ||
	    pr_grow(ps, (void **)&p->events, i, &ps->events_alloc, sizeof(*e)))
		return -1;
	e = &p->events[i];
	memset(e, 0, sizeof(*e));
	if (pr_str(ps, c, "event name", &e->name))
		return -1;
	p->nevents++;
	if (pr_u64(ps, c, "period", &e->period) || pr_u64(ps, c, "freq", &e->freq) ||
	    pr_index(ps, c, "leader", (uint64_t)i + 1, &e->leader))
		return -1;
	if (p->events[e->leader].leader != e->leader)
		return pr_err(ps, "leader %" PRIu32 " is itself a member of the group of %" PRIu32,
			      e->leader, p->events[e->leader].leader);
	return pr_done(ps, c);
}

static int rec_module(struct parser *ps, struct cursor *c)
{
	struct symtab *st = &ps->p->syms;
	uint32_t want = st->nmodules, id;
	char *path = NULL, *bid = NULL;
	int rc = -1;

	if (pr_seq(ps, c, "module", want) || pr_str(ps, c, "module path", &path) ||
	    pr_str(ps, c, "build id", &bid) || pr_done(ps, c))
		goto out;
	id = symtab_module(st, path, bid);
	rc = pr_new_id(ps, id, want, "module");
out:
	free(path);
	free(bid);
	return rc;
}

/* The module field of a frame: an index or "-" for none. */
static int pr_module_ref(struct parser *ps, struct cursor *c, uint32_t *m)
{
	if (c->end - c->p >= 2 && c->p[0] == '-' && c->p[1] == ' ') {
		c->p += 2;
		*m = SYMTAB_NO_MODULE;
		return 0;
	}
	return pr_index(ps, c, "module", ps->p->syms.nmodules, m);
}

static int rec_frame(struct parser *ps, struct cursor *c)
{
	struct symtab *st = &ps->p->syms;
	uint32_t want = st->nframes, module = 0, id;
	char *fn = NULL, *file = NULL;
	uint64_t line;
	int rc = -1;

	if (pr_seq(ps, c, "frame", want) || pr_module_ref(ps, c, &module) ||
	    pr_str(ps, c, "function", &fn) || pr_str(ps, c, "file", &file) ||
	    pr_u64(ps, c, "line", &line) || pr_done(ps, c))
		goto out;
	if (line > UINT32_MAX) {
		pr_err(ps, "line number %" PRIu64 " too large (the limit is %" PRIu32 ")", line,
		       UINT32_MAX);
		goto out;
	}
	id = symtab_frame(st, module, fn, file, (uint32_t)line);
	rc = pr_new_id(ps, id, want, "frame");
out:
	free(fn);
	free(file);
	return rc;
}

static int rec_thread(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	struct prof_thread *t;

	if (pr_merged_only(ps, "thread", false) ||
	    pr_grow(ps, (void **)&p->threads, p->nthreads, &ps->threads_alloc, sizeof(*t)))
		return -1;
	t = &p->threads[p->nthreads];
	t->rank = 0;
	t->samples = calloc(p->nevents ? p->nevents : 1, sizeof(*t->samples));
	if (!t->samples)
		return pr_err(ps, "out of memory");
	p->nthreads++;
	if (pr_u64(ps, c, "tid", &t->tid))
		return -1;
	return pr_counts(ps, c, t->samples, p->nevents);
}

static int rec_root(struct parser *ps, struct cursor *c)
{
	if (ps->seen & PR_ROOT_SEEN)
		return pr_err(ps, "second 'root' record");
	ps->seen |= PR_ROOT_SEEN;
	return pr_counts(ps, c, cct_self(&ps->p->tree, CCT_ROOT), ps->p->nevents);
}

static int rec_node(struct parser *ps, struct cursor *c)
{
	struct cct *t = &ps->p->tree;
	uint32_t want = t->nnodes, parent = 0, frame = 0, id;

	if (!(ps->seen & PR_ROOT_SEEN))
		return pr_err(ps, "'node' record before the 'root' record");
	if (pr_seq(ps, c, "node", want) || pr_index(ps, c, "parent", want, &parent) ||
	    pr_index(ps, c, "frame", ps->p->syms.nframes, &frame))
		return -1;
	id = cct_child(t, parent, frame);
	if (pr_new_id(ps, id, want, "node"))
		return -1;
	return pr_counts(ps, c, cct_self(t, id), ps->p->nevents);
}

_Static_assert(PROF_NSCALARS < 63, "parser.seen holds a bit per scalar and PR_ROOT_SEEN");

/* See profile-read-int.h. */
int pr_scalar_seen(const struct parser *ps, const char *key)
{
	for (size_t i = 0; i < PROF_NSCALARS; i++)
		if (!strcmp(prof_scalars[i].key, key))
			return !!(ps->seen & (UINT64_C(1) << i));
	return 0;
}

/* A scalar record: one value, once, at most its maximum. */
static int rec_scalar(struct parser *ps, struct cursor *c, size_t i)
{
	const struct prof_scalar *sc = &prof_scalars[i];
	char *field = (char *)ps->p + sc->offset;
	int rc;
	uint64_t v;

	if (ps->seen & (UINT64_C(1) << i))
		return pr_err(ps, "second '%s' record", sc->key);
	if (sc->since > ps->version)
		return pr_err(ps, "'%s' record in a version %" PRIu64 " profile (it came with "
			      "version %u)", sc->key, ps->version, sc->since);
	ps->seen |= UINT64_C(1) << i;
	if (sc->kind == PK_STR)
		rc = pr_str(ps, c, sc->key, (char **)(void *)field);
	else if (sc->kind == PK_I64)
		rc = pr_i64(ps, c, sc->key, (int64_t *)(void *)field);
	else if ((rc = pr_u64(ps, c, sc->key, &v)) == 0) {
		if (v > sc->max)
			return pr_err(ps, "%s %" PRIu64 " out of range (at most %" PRIu64 ")",
				      sc->key, v, sc->max);
		*(uint64_t *)(void *)field = v;
	}
	return rc ? rc : pr_done(ps, c);
}

static const struct pr_record {
	const char *key;
	enum prof_section section;
	int (*parse)(struct parser *ps, struct cursor *c);
} pr_records[] = {
	{ "argv", PS_META, rec_argv },
	{ "merged", PS_META, rec_merged },
	{ "event", PS_EVENT, rec_event },
	{ "module", PS_MODULE, rec_module },
	{ "frame", PS_FRAME, rec_frame },
	{ "thread", PS_THREAD, rec_thread },
	{ "m_thread", PS_THREAD, rec_m_thread },
	{ "root", PS_ROOT, rec_root },
	{ "node", PS_NODE, rec_node },
	{ "act", PS_ACT, rec_act },
	{ "act_thread", PS_ACT_THREAD, rec_act_thread },
	{ "act_node", PS_ACT_NODE, rec_act_node },
	{ "mpi_site", PS_MPI_SITE, rec_mpi_site },
	{ "mpi_peer", PS_MPI_PEER, rec_mpi_peer },
	{ "m_pair", PS_MPI_PEER, rec_m_pair },
	{ "mpi_coll", PS_MPI_COLL, rec_mpi_coll },
	{ "mpi_thread", PS_MPI_THREAD, rec_mpi_thread },
	{ "mpi_wait", PS_MPI_WAIT, rec_mpi_wait },
	{ "mpi_slot", PS_MPI_SLOT, rec_mpi_slot },
	{ "mpi_pair", PS_MPI_PAIR, rec_mpi_pair },
	{ "mpi_edge", PS_MPI_EDGE, rec_mpi_edge },
	{ "mpi_done", PS_MPI_EDGE, rec_mpi_done },
	{ "mpi_edge_path", PS_MPI_EDGE_PATH, rec_mpi_edge_path },
	{ "cp_link", PS_CP_LINK, rec_cp_link },
	{ "cp_seg", PS_CP_SEG, rec_cp_seg },
	{ "cp_prefix", PS_CP_PREFIX, rec_cp_prefix },
	{ "cp_ev", PS_CP_EV, rec_cp_ev },
	{ "cp_edge", PS_CP_EDGE, rec_cp_edge },
	{ "cp_fn", PS_CP_FN, rec_cp_fn },
	{ "cp_point", PS_CP_POINT, rec_cp_point },
	{ "m_rank", PS_M_RANK, rec_m_rank },
	{ "m_node", PS_M_NODE, rec_m_node },
	{ "m_site", PS_M_SITE, rec_m_site },
	{ "m_fn", PS_M_FN, rec_m_fn },
	{ "m_kept", PS_M_KEPT, rec_m_kept },
};

static const char *const pr_section_names[] = {
	"magic", "header", "event", "counter", "module", "frame", "thread",
	"root", "node", "act", "act_thread", "act_node", "mpi_site", "mpi_peer", "mpi_coll", "mpi_thread", "mpi_wait", "mpi_slot", "mpi_pair",
	"mpi_edge", "mpi_edge_path",
	"cp_link", "cp_seg", "cp_prefix", "cp_ev", "cp_edge", "cp_fn", "cp_point",
	"m_rank", "m_node", "m_site", "m_fn", "m_kept",
};
_Static_assert(sizeof(pr_section_names) / sizeof(pr_section_names[0]) == PS_LAST + 1,
	       "a name for every section");

/* A head-only parse ends at the first record after the header. */
#define PR_HEAD_DONE 1

/* Enter section s, which must not come before the current one.  Leaving
 * the events fixes their number, so the tree is created then.  Returns 0,
 * -1 on error, or PR_HEAD_DONE. */
static int pr_enter(struct parser *ps, enum prof_section s, const char *key)
{
	if (ps->head_only && s > PS_META)
		return PR_HEAD_DONE;
	if (s < ps->section)
		return pr_err(ps, "'%s' record after %s records (see docs/format.md "
			      "for the order)", key, pr_section_names[ps->section]);
	ps->section = s;
	if (s > PS_EVENT && !ps->tree_ready) {
		if (cct_init(&ps->p->tree, ps->p->nevents))
			return pr_err(ps, "out of memory");
		ps->tree_ready = 1;
	}
	if (s > PS_META && pr_merged_start(ps))
		return -1;
	return 0;
}

/* Parse one record line [s, end) (without its newline). */
#define PR_NRECORDS (sizeof(pr_records) / sizeof(pr_records[0]))

/* Bytes at the start of [s, end), a multiple of 8, known to be printable
 * ASCII (0x20-0x7e): eight at a time, the byte loop after it does the
 * rest and names the first bad byte. */
static size_t printable_prefix(const char *s, const char *end)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	size_t i = 0;

	for (; end - s - (ptrdiff_t)i >= 8; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		/* a high bit, a byte below 0x20, or a byte 0x7f */
		if ((w & high) || ((w - 0x20 * ones) & ~w & high) ||
		    (((w ^ 0x7f * ones) - ones) & ~(w ^ 0x7f * ones) & high))
			break;
	}
	return i;
}

/* The key of kind k: a record of pr_records, then the scalars. */
static const char *pr_kind_key(size_t k)
{
	return k < PR_NRECORDS ? pr_records[k].key : prof_scalars[k - PR_NRECORDS].key;
}

/* Whether key[0..n) is kind k's key.  Called for every line: the keys
 * are short, and a loop beats a call.  key holds no NUL (printable
 * bytes only), so the loop stops at want's end. */
static bool pr_same_kind(size_t k, const char *key, size_t n)
{
	const char *want = k < PR_NRECORDS + PROF_NSCALARS ? pr_kind_key(k) : "";
	size_t i = 0;

	while (i < n && want[i] == key[i])
		i++;
	return i == n && !want[n];
}

/* The kind whose key is key[0..n) into *k; false when there is none.
 * Records come in runs of one kind, so the caller tries the last first. */
static bool pr_find_kind(const char *key, size_t n, size_t *k)
{
	for (size_t i = 0; i < PR_NRECORDS + PROF_NSCALARS; i++)
		if (pr_same_kind(i, key, n)) {
			*k = i;
			return true;
		}
	return false;
}

static int pr_line(struct parser *ps, const char *s, const char *end)
{
	struct cursor c = { s, end };
	const char *key;
	size_t n;
	int rc = rec_cp_link_fast(ps, s, end);

	if (rc != PR_NOT_FAST)
		return rc;
	for (const char *q = s + printable_prefix(s, end); q < end; q++)
		if (*q < 0x20 || *q > 0x7e)
			return pr_err(ps, "byte 0x%02x not allowed (strings must be "
				      "%%-encoded)", (unsigned char)*q);
	if (pr_field(ps, &c, "record key", &key, &n))
		return -1;
	if (n > 2 && !memcmp(key, "x-", 2))
		return 0;
	if (!pr_same_kind(ps->last_kind, key, n) && !pr_find_kind(key, n, &ps->last_kind))
		return pr_err(ps, "unknown record '%.*s' (only 'x-' records may be "
			      "skipped)", (int)(n > 40 ? 40 : n), key);
	if (ps->last_kind < PR_NRECORDS) {
		const struct pr_record *r = &pr_records[ps->last_kind];

		rc = pr_enter(ps, r->section, r->key);
		return rc ? rc : r->parse(ps, &c);
	}
	const struct prof_scalar *sc = &prof_scalars[ps->last_kind - PR_NRECORDS];

	rc = pr_enter(ps, sc->section, sc->key);
	return rc ? rc : rec_scalar(ps, &c, ps->last_kind - PR_NRECORDS);
}

/* After the last record: everything required was there, and the rules
 * between scalars (zeroing, overhead and compensation) hold. */
static int pr_finish(struct parser *ps)
{
	char why[200];

	ps->lineno++;
	for (size_t i = 0; i < PROF_NSCALARS; i++)
		if (!(ps->seen & (UINT64_C(1) << i)) && ps->version >= prof_scalars[i].since)
			return pr_err(ps, "no '%s' record before the trailer",
				      prof_scalars[i].key);
	if (!(ps->seen & PR_ROOT_SEEN))
		return pr_err(ps, "no 'root' record before the trailer");
	if (pr_cp_finish(ps) || pr_merged_finish(ps))
		return -1;
	if (prof_comp_check(ps->p, why, sizeof(why)))
		return pr_err(ps, "%s", why);
	return 0;
}

/* Check the first line.  Returns its length with newline, or 0 on error. */
static size_t pr_magic(struct parser *ps, const char *buf, size_t len)
{
	const char *nl = len ? memchr(buf, '\n', len) : NULL;
	size_t n = nl ? (size_t)(nl - buf) : len, m = strlen(PROF_MAGIC);
	uint64_t v;

	ps->lineno = 1;
	if (n < m + 2 || memcmp(buf, PROF_MAGIC " ", m + 1)) {
		pr_err(ps, "not a cpperf profile (the first line must be '%s %d')",
		       PROF_MAGIC, PROFILE_VERSION);
		return 0;
	}
	if (pr_digits(buf + m + 1, n - m - 1, &v) || v < PROFILE_VERSION_MIN ||
	    v > PROFILE_VERSION) {
		pr_err(ps, "unsupported format version '%.*s' (this cpperf reads "
		       "versions %d to %d)", (int)(n - m - 1 > 20 ? 20 : n - m - 1),
		       buf + m + 1, PROFILE_VERSION_MIN, PROFILE_VERSION);
		return 0;
	}
	if (!nl) {
		pr_err(ps, "truncated after the first line");
		return 0;
	}
	ps->version = v;
	return n + 1;
}

/* The value of 8 lowercase hex digits (already checked). */
static uint32_t pr_hex32(const char *s)
{
	uint32_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 4 | (uint32_t)(s[i] <= '9' ? s[i] - '0' : s[i] - 'a' + 10);
	return v;
}

/* Check the trailer, the last line.  Returns the length of everything
 * before it, or 0 on error. */
static size_t pr_trailer(struct parser *ps, const char *buf, size_t len,
			 unsigned flags)
{
	const char *t, *crc;
	struct cursor c;
	uint64_t want;
	size_t body, n;

	if (buf[len - 1] != '\n') {
		snprintf(ps->err, ps->errlen, "truncated: the file does not end "
			 "with a newline, so its 'end' trailer is missing");
		return 0;
	}
	t = memrchr(buf, '\n', len - 1);
	body = t ? (size_t)(t - buf) + 1 : 0;
	ps->buf = buf;		/* its line number only for a message */
	ps->line_at = buf + body;
	c.p = buf + body;
	c.end = buf + len - 1;
	if (c.end - c.p < 4 || memcmp(c.p, PROF_TRAILER " ", 4)) {
		pr_err(ps, "truncated or damaged: the last line is not the "
		       "'end <length> <crc32>' trailer");
		return 0;
	}
	c.p += 4;
	if (pr_u64(ps, &c, "trailer length", &want) ||
	    pr_field(ps, &c, "trailer crc32", &crc, &n) || pr_done(ps, &c))
		return 0;
	if (n != 8 || strspn(crc, "0123456789abcdef") < 8) {
		pr_err(ps, "trailer crc32 '%.*s' is not 8 lowercase hex digits",
		       (int)(n > 20 ? 20 : n), crc);
		return 0;
	}
	if (flags & PROFILE_PARSE_NO_CHECKSUM)
		return body;
	if (want != body) {
		pr_err(ps, "trailer says %" PRIu64 " bytes precede it, found %zu "
		       "(truncated or damaged file)", want, body);
		return 0;
	}
	if (pr_hex32(crc) != crc32_update(0, buf, body)) {
		pr_err(ps, "CRC-32 mismatch: the file is damaged");
		return 0;
	}
	return body;
}

/* Free what the parser itself owns (not the profile). */
static void pr_release(struct parser *ps)
{
	idset_release(&ps->sites);
	idset_release(&ps->peers);
	idset_release(&ps->colls);
	idset_release(&ps->slots);
	idset_release(&ps->pairs);
	idset_release(&ps->edges);
	idset_release(&ps->edge_paths);
	idset_release(&ps->cp_segs);
}

/* See profile.h. */
int profile_parse_flags(struct profile *p, const char *buf, size_t len,
			unsigned flags, char *err, size_t errlen)
{
	struct parser ps = { .p = p, .err = err, .errlen = errlen };
	size_t pos, body;

	if (errlen)
		err[0] = '\0';
	pos = pr_magic(&ps, buf, len);
	body = pos ? pr_trailer(&ps, buf, len, flags) : 0;
	if (!body)
		goto fail;
	ps.line_at = NULL;
	ps.section = PS_MAGIC;
	ps.body_end = buf + body;
	for (ps.lineno = 2; pos < body; ps.lineno++) {
		const char *s = buf + pos, *nl = memchr(s, '\n', body - pos);

		if (pr_line(&ps, s, nl))
			goto fail;
		pos = (size_t)(nl - buf) + 1;
	}
	ps.lineno--;
	if (pr_enter(&ps, PS_LAST, "end") || pr_finish(&ps))
		goto fail;
	pr_release(&ps);
	return 0;
fail:
	pr_release(&ps);
	profile_release(p);
	return -1;
}

/* See profile.h. */
int profile_parse(struct profile *p, const char *buf, size_t len,
		  char *err, size_t errlen)
{
	return profile_parse_flags(p, buf, len, 0, err, errlen);
}

/* Read all of fd into a new buffer.  Returns 0 or an errno value. */
static int pr_slurp(int fd, char **out, size_t *outlen)
{
	struct stat sb;
	size_t len = 0, alloc;
	char *buf;

	if (fstat(fd, &sb) < 0)
		return errno;
	alloc = sb.st_size > 0 ? (size_t)sb.st_size + 1 : 4096;
	if (!(buf = malloc(alloc)))
		return ENOMEM;
	for (;;) {
		ssize_t r;

		if (len == alloc) {
			char *b = alloc <= SIZE_MAX / 2 ? realloc(buf, alloc * 2) : NULL;

			if (!b) {
				free(buf);
				return ENOMEM;
			}
			buf = b;
			alloc *= 2;
		}
		r = read(fd, buf + len, alloc - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			return e;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	*out = buf;
	*outlen = len;
	return 0;
}

/* Whether the line at s (cut off before end, no newline) is a record
 * after the header, by its key. */
static bool past_header(const char *s, const char *end)
{
	const char *sp = memchr(s, ' ', (size_t)(end - s));
	size_t n = sp ? (size_t)(sp - s) : 0;

	for (size_t i = 0; n && i < sizeof(pr_records) / sizeof(pr_records[0]); i++)
		if (strlen(pr_records[i].key) == n && !memcmp(pr_records[i].key, s, n))
			return pr_records[i].section > PS_META;
	for (size_t i = 0; n && i < PROF_NSCALARS; i++)
		if (strlen(prof_scalars[i].key) == n && !memcmp(prof_scalars[i].key, s, n))
			return prof_scalars[i].section > PS_META;
	return false;
}

/* The header ended: were all its once records there? */
static int pr_head_whole(struct parser *ps)
{
	for (size_t i = 0; i < PROF_NSCALARS; i++)
		if (prof_scalars[i].section == PS_META && !(ps->seen & (UINT64_C(1) << i)))
			return pr_err(ps, "no '%s' record in the header", prof_scalars[i].key);
	return 0;
}

#define PR_HEAD_SHORT (-2)

/* The header of buf (len bytes, the start of a file): its lines up to the
 * first record after the header section, which may be cut off.  Returns
 * 0, -1, or PR_HEAD_SHORT when the header goes on past len (with the
 * message for a file that ends there). */
static int pr_head(struct parser *ps, const char *buf, size_t len)
{
	size_t pos;

	if (ps->errlen)
		ps->err[0] = '\0';
	if (!(pos = pr_magic(ps, buf, len)))
		return -1;
	ps->head_only = 1;
	for (ps->lineno = 2; pos < len; ps->lineno++) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		int rc = nl ? pr_line(ps, s, nl) : past_header(s, buf + len) ? PR_HEAD_DONE : -1;

		if (rc == PR_HEAD_DONE)
			return pr_head_whole(ps);
		if (rc && nl)
			return -1;
		if (!nl)
			break;
		pos = (size_t)(nl - buf) + 1;
	}
	pr_err(ps, "the header does not end within its first %zu bytes", len);
	return PR_HEAD_SHORT;
}

static int pr_parse_head(struct profile *p, const char *buf, size_t len, char *err,
			 size_t errlen)
{
	struct parser ps = { .p = p, .err = err, .errlen = errlen };
	int rc = pr_head(&ps, buf, len);

	pr_release(&ps);
	if (rc)
		profile_release(p);
	return rc;
}

/* See profile.h. */
int profile_parse_head(struct profile *p, const char *buf, size_t len, char *err, size_t errlen)
{
	return pr_parse_head(p, buf, len, err, errlen) ? -1 : 0;
}

/* Read from fd into buf until it holds want bytes or the file ends. */
static ssize_t pr_read_upto(int fd, char *buf, size_t len, size_t want, bool *eof)
{
	while (len < want) {
		ssize_t n = read(fd, buf + len, want - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			*eof = true;
			break;
		}
		len += (size_t)n;
	}
	return (ssize_t)len;
}

/*
 * See profile.h.  A header is a few hundred bytes and a profile may be
 * megabytes, and the report reads the head of every rank's file before
 * choosing which to read whole: read a few pages, and more only while
 * the header goes on.
 */
int profile_read_head(struct profile *p, const char *path, char *err, size_t errlen)
{
	char *buf = NULL, msg[320];
	size_t want = 8192, len = 0;
	bool eof = false;
	int fd = regfile_open(path, err, errlen), rc = -1;

	if (fd < 0) {
		profile_release(p);
		return -1;
	}
	for (;;) {
		char *b = realloc(buf, want);
		ssize_t n;

		if (!b) {
			snprintf(err, errlen, "cannot read %s: %s", path, strerror(ENOMEM));
			profile_release(p);
			break;
		}
		buf = b;
		if ((n = pr_read_upto(fd, buf, len, want, &eof)) < 0) {
			snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
			profile_release(p);
			break;
		}
		len = (size_t)n;
		rc = pr_parse_head(p, buf, len, msg, sizeof(msg));
		if (rc != PR_HEAD_SHORT || eof || want == PROFILE_HEAD_MAX) {
			if (rc)
				snprintf(err, errlen, "%s: %s", path, msg);
			break;
		}
		profile_init(p);
		want = want * 4 < PROFILE_HEAD_MAX ? want * 4 : PROFILE_HEAD_MAX;
	}
	close(fd);
	free(buf);
	return rc ? -1 : 0;
}

/* See profile.h.  Messages start with the path. */
int profile_read(struct profile *p, const char *path, char *err, size_t errlen)
{
	char *buf = NULL, msg[320];
	size_t len = 0;
	int fd, e, rc;

	fd = regfile_open(path, err, errlen);
	if (fd < 0) {
		profile_release(p);
		return -1;
	}
	e = pr_slurp(fd, &buf, &len);
	close(fd);
	if (e) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		profile_release(p);
		return -1;
	}
	rc = profile_parse(p, buf, len, msg, sizeof(msg));
	if (rc)
		snprintf(err, errlen, "%s: %s", path, msg);
	free(buf);
	return rc;
}
