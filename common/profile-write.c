/*
 * profile-write.c - profile_write(): serialise a struct profile in the
 * text format of docs/format.md through a small buffered writer that
 * keeps the running length and CRC-32 for the trailer, and publish it
 * atomically: temporary file in the same directory, fsync, rename, with
 * the permissions asked for (0600 by default: a profile holds the command
 * line).  A profile the reader would reject fails first, named
 * (profile-check.c).  Every failing system call is reported and removes
 * the temporary, so no partial file ever appears under the final name.
 * Records are written in the profile's order, except cp_seg records,
 * which are sorted by (segment, node) so that a file does not depend on
 * the order in which the runtime collected them.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "crc32.h"
#include "pctenc.h"
#include "profile.h"
#include "profile-int.h"

#define PW_BUFSIZE 65536

/* Buffered output to fd, or to memory when fd is -1; the first failure's
 * errno sticks in err. */
struct pw {
	int fd;
	char *mem;		/* fd -1: what was written, mem_len bytes of mem_cap */
	size_t mem_len, mem_cap;
	int err;
	uint64_t len;		/* bytes handed to write(2) so far */
	uint32_t crc;		/* CRC-32 of those bytes */
	size_t n;		/* bytes waiting in buf */
	const struct prof_cp_seg **segs;	/* the cp_seg records, sorted */
	char buf[PW_BUFSIZE];
};

static void pw_flush_mem(struct pw *w, const char *p, size_t n)
{
	if (w->err || !n)
		return;
	if (w->mem_len + n > w->mem_cap) {
		size_t cap = w->mem_cap ? w->mem_cap : PW_BUFSIZE;
		char *m;

		while (cap < w->mem_len + n)
			cap *= 2;
		if (!(m = realloc(w->mem, cap))) {
			w->err = ENOMEM;
			return;
		}
		w->mem = m;
		w->mem_cap = cap;
	}
	memcpy(w->mem + w->mem_len, p, n);
	w->mem_len += n;
}

static void pw_flush(struct pw *w)
{
	const char *p = w->buf;
	size_t left = w->n;

	w->crc = crc32_update(w->crc, w->buf, w->n);
	w->len += w->n;
	w->n = 0;
	if (w->fd < 0) {
		pw_flush_mem(w, p, left);
		return;
	}
	while (left && !w->err) {
		ssize_t r = write(w->fd, p, left);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			w->err = r < 0 ? errno : EIO;
		else {
			p += r;
			left -= (size_t)r;
		}
	}
}

static void pw_put(struct pw *w, const char *s, size_t n)
{
	while (n) {
		size_t k = PW_BUFSIZE - w->n < n ? PW_BUFSIZE - w->n : n;

		memcpy(w->buf + w->n, s, k);
		w->n += k;
		s += k;
		n -= k;
		if (w->n == PW_BUFSIZE)
			pw_flush(w);
	}
}

/* A record's key; its fields follow, each written with its space. */
static void pw_key(struct pw *w, const char *key)
{
	pw_put(w, key, strlen(key));
}

/* Write " ", a minus sign when neg, and mag in decimal: most of a profile
 * is numbers, and vsnprintf made them most of the cost of a checkpoint. */
static void pw_num(struct pw *w, uint64_t mag, bool neg)
{
	char tmp[24], *end = tmp + sizeof(tmp), *d = end;

	do {
		*--d = (char)('0' + mag % 10);
		mag /= 10;
	} while (mag);
	if (neg)
		*--d = '-';
	*--d = ' ';
	pw_put(w, d, (size_t)(end - d));
}

static void pw_u64(struct pw *w, uint64_t v)
{
	pw_num(w, v, false);
}

static void pw_i64(struct pw *w, int64_t v)
{
	pw_num(w, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

static void pw_eol(struct pw *w)
{
	pw_put(w, "\n", 1);
}

/* Write " " and s percent-encoded; NULL and "" are written "-". */
static void pw_str(struct pw *w, const char *s)
{
	pw_put(w, " ", 1);
	if (!s || !*s || !strcmp(s, "-")) {
		pw_put(w, s && *s ? "%2D" : "-", s && *s ? 3 : 1);
		return;
	}
	for (; *s; s++) {
		char esc[3];

		if (pct_plain((unsigned char)*s)) {
			pw_put(w, s, 1);
		} else {
			pct_escape((unsigned char)*s, esc);
			pw_put(w, esc, 3);
		}
	}
}

static void pw_counts(struct pw *w, const uint64_t *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		pw_u64(w, c[i]);
	pw_eol(w);
}

/* The scalars of section s that a file of version has. */
static void pw_scalars(struct pw *w, const struct profile *p, enum prof_section s,
		       uint64_t version)
{
	for (size_t i = 0; i < PROF_NSCALARS; i++) {
		const struct prof_scalar *sc = &prof_scalars[i];
		const char *field = (const char *)p + sc->offset;

		if (sc->section != s || sc->since > version)
			continue;
		pw_put(w, sc->key, strlen(sc->key));
		if (sc->kind == PK_STR)
			pw_str(w, *(char *const *)field);
		else if (sc->kind == PK_I64)
			pw_i64(w, *(const int64_t *)field);
		else
			pw_u64(w, *(const uint64_t *)field);
		pw_eol(w);
	}
}

static void pw_events(struct pw *w, const struct profile *p)
{
	for (uint32_t i = 0; i < p->nevents; i++) {
		const struct prof_event *e = &p->events[i];

		pw_key(w, "event");
		pw_u64(w, i);
		pw_str(w, e->name);
		pw_u64(w, e->period);
		pw_u64(w, e->freq);
		pw_u64(w, e->leader);
		pw_eol(w);
	}
}

static void pw_symbols(struct pw *w, const struct symtab *st)
{
	for (uint32_t i = 0; i < st->nmodules; i++) {
		pw_key(w, "module");
		pw_u64(w, i);
		pw_str(w, st->modules[i].path);
		pw_str(w, st->modules[i].build_id);
		pw_eol(w);
	}
	for (uint32_t i = 0; i < st->nframes; i++) {
		const struct sym_frame *f = &st->frames[i];

		pw_put(w, "frame", 5);
		pw_u64(w, i);
		if (f->module == SYMTAB_NO_MODULE)
			pw_put(w, " -", 2);
		else
			pw_u64(w, f->module);
		pw_str(w, f->function);
		pw_str(w, f->file);
		pw_u64(w, f->line);
		pw_eol(w);
	}
}

static void pw_tree(struct pw *w, const struct profile *p)
{
	const struct cct *t = &p->tree;

	pw_put(w, "root", 4);
	for (uint32_t i = 0; i < p->nevents; i++)
		pw_u64(w, t->nnodes ? cct_self(t, CCT_ROOT)[i] : 0);
	pw_eol(w);
	for (uint32_t id = 1; id < t->nnodes; id++) {
		pw_put(w, "node", 4);
		pw_u64(w, id);
		pw_u64(w, t->parent[id]);
		pw_u64(w, t->frame[id]);
		pw_counts(w, cct_self(t, id), p->nevents);
	}
}

static bool act_any(const uint64_t *v)
{
	for (int k = 0; k < PROF_ACTS; k++)
		if (v[k])
			return true;
	return false;
}

/* The thread activity: act, act_thread and act_node records. */
static void pw_act(struct pw *w, const struct profile *p)
{
	if (!p->act_on)
		return;
	pw_key(w, "act");
	pw_u64(w, p->act_event);
	pw_u64(w, p->act_window_ns);
	pw_eol(w);
	for (uint32_t i = 0; i < p->nthreads; i++)
		if (act_any(p->threads[i].act)) {
			pw_key(w, "act_thread");
			pw_u64(w, i);
			pw_counts(w, p->threads[i].act, PROF_ACTS);
		}
	for (uint32_t i = 0; i < p->nact_nodes; i++) {
		pw_key(w, "act_node");
		pw_u64(w, p->act_nodes[i].node);
		pw_counts(w, p->act_nodes[i].v, PROF_ACTS);
	}
}

/* The mpi_site, mpi_peer and mpi_coll records, in that order. */
static void pw_mpi(struct pw *w, const struct profile *p)
{
	for (uint32_t i = 0; i < p->nmpi_sites; i++) {
		const struct prof_mpi_site *m = &p->mpi_sites[i];
		const uint64_t v[] = { m->calls, m->bytes_sent, m->bytes_recv,
				       m->time_ns, m->blocked_ns };

		pw_key(w, "mpi_site");
		pw_u64(w, i);
		pw_str(w, m->function);
		pw_u64(w, m->nframes);
		for (uint32_t k = 0; k < m->nframes; k++)
			pw_u64(w, m->frames[k]);
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			pw_u64(w, v[k]);
		pw_counts(w, m->hist, PROF_MPI_HIST);
	}
	for (uint32_t i = 0; i < p->nmpi_peers; i++) {
		const struct prof_mpi_peer *m = &p->mpi_peers[i];
		const uint64_t v[] = { m->count, m->bytes };

		if (p->merged) {
			pw_key(w, "m_pair");
			pw_i64(w, m->src);
		} else {
			pw_key(w, "mpi_peer");
		}
		pw_i64(w, m->peer);
		pw_counts(w, v, 2);
	}
	for (uint32_t i = 0; i < p->nmpi_colls; i++) {
		const struct prof_mpi_coll *c = &p->mpi_colls[i];
		const uint64_t v[] = { c->calls, c->bytes, c->time_ns };

		pw_put(w, "mpi_coll", 8);
		pw_str(w, c->function);
		pw_i64(w, c->comm_size);
		pw_counts(w, v, 3);
	}
	for (uint32_t i = 0; i < p->nmpi_sites; i++)
		if (prof_mpi_site_threaded(&p->mpi_sites[i])) {
			const uint64_t v[] = { p->mpi_sites[i].threads, p->mpi_sites[i].main_calls };

			pw_key(w, "mpi_thread");
			pw_u64(w, i);
			pw_counts(w, v, 2);
		}
}

/* The wait-state records: mpi_wait for each site with a wait state, then
 * mpi_slot and mpi_pair; then the activity graph's mpi_edge and mpi_done
 * (in the order of mpi_edges, which mpi_edge_path records count by), and
 * mpi_edge_path.  All but mpi_wait and mpi_edge_path end in their rank in
 * a merged profile. */
static void pw_waits(struct pw *w, const struct profile *p)
{
	for (uint32_t i = 0; i < p->nmpi_sites; i++) {
		const struct prof_mpi_waits *x = &p->mpi_sites[i].waits;

		if (!prof_waits_any(x))
			continue;
		pw_key(w, "mpi_wait");
		pw_u64(w, i);
		for (int k = 0; k < PROF_WAITS; k++)
			pw_u64(w, x->ns[k]);
		pw_counts(w, x->comp_ns, PROF_WAITS);
	}
	for (uint32_t i = 0; i < p->nmpi_slots; i++) {
		pw_key(w, "mpi_slot");
		pw_u64(w, p->mpi_slots[i].slot);
		pw_u64(w, p->mpi_slots[i].site);
		if (p->merged)
			pw_i64(w, p->mpi_slots[i].rank);
		pw_eol(w);
	}
	for (uint32_t i = 0; i < p->nmpi_pairs; i++) {
		const struct prof_mpi_pair *q = &p->mpi_pairs[i];

		pw_key(w, "mpi_pair");
		pw_u64(w, q->site);
		pw_i64(w, q->send_rank);
		pw_u64(w, q->send_slot);
#define PW_PAIR_VALUE(f) pw_u64(w, q->f);
		PROF_PAIR_VALUES(PW_PAIR_VALUE)
#undef PW_PAIR_VALUE
		if (p->merged)
			pw_i64(w, q->rank);
		pw_eol(w);
	}
	for (uint32_t i = 0; i < p->nmpi_edges; i++) {
		const struct prof_mpi_edge *e = &p->mpi_edges[i];

		pw_key(w, e->kind == PROF_EDGE_COMPUTE ? "mpi_edge" : "mpi_done");
		pw_u64(w, e->from);
		pw_u64(w, e->to);
		pw_u64(w, e->count);
		pw_u64(w, e->time_ns);
		if (p->merged)
			pw_i64(w, e->rank);
		pw_eol(w);
	}
	for (uint32_t i = 0; i < p->nmpi_edge_paths; i++) {
		const struct prof_mpi_edge_path *q = &p->mpi_edge_paths[i];

		pw_key(w, "mpi_edge_path");
		pw_u64(w, q->edge);
		pw_u64(w, q->node);
		pw_u64(w, q->samples);
		pw_eol(w);
	}
}

/* A cp_link or cp_edge record: EVENT RANK FROM. */
static void pw_link(struct pw *w, const char *key, uint64_t event, int64_t rank, uint64_t from)
{
	pw_key(w, key);
	pw_u64(w, event);
	pw_i64(w, rank);
	pw_u64(w, from);
	pw_eol(w);
}

/* The critical-path records: cp_link, cp_seg (in w->segs's order),
 * cp_prefix, cp_ev, cp_edge, cp_fn, cp_point, in that order. */
static void pw_cp(struct pw *w, const struct profile *p)
{
	for (uint32_t i = 0; i < p->ncp_links; i++)
		pw_link(w, "cp_link", p->cp_links[i].event, p->cp_links[i].rank,
			p->cp_links[i].from);
	for (uint32_t i = 0; i < p->ncp_segs; i++) {
		pw_key(w, "cp_seg");
		pw_u64(w, w->segs[i]->seg);
		pw_u64(w, w->segs[i]->node);
		pw_counts(w, w->segs[i]->counts, p->nevents);
	}
	for (uint32_t i = 0; i < p->ncp_prefix; i++) {
		pw_key(w, "cp_prefix");
		pw_u64(w, p->cp_prefix[i].node);
		pw_counts(w, p->cp_prefix[i].counts, p->nevents);
	}
	for (uint32_t i = 0; i < p->ncp_evs; i++) {
		const struct prof_cp_event *e = &p->cp_evs[i];
		const uint64_t v[] = { e->seg_ns, e->t_entry, e->t_exit };

		pw_key(w, "cp_ev");
		pw_u64(w, e->event);
		pw_counts(w, v, 3);
	}
	for (uint32_t i = 0; i < p->ncp_edges; i++)
		pw_link(w, "cp_edge", p->cp_edges[i].event, p->cp_edges[i].rank,
			p->cp_edges[i].from);
	for (uint32_t i = 0; i < p->ncp_fns; i++) {
		const struct prof_cp_fn *f = &p->cp_fns[i];
		const uint64_t v[] = { f->net_ns, f->share_ns };

		pw_key(w, "cp_fn");
		pw_u64(w, i);
		pw_str(w, f->name);
		pw_counts(w, v, 2);
	}
	for (uint32_t i = 0; i < p->ncp_points; i++) {
		const uint64_t v[] = { p->cp_points[i].t_ns, p->cp_points[i].length_ns };

		pw_key(w, "cp_point");
		pw_counts(w, v, 2);
	}
}

/* qsort order of cp_seg records: by segment, then node. */
static int pw_seg_cmp(const void *a, const void *b)
{
	const struct prof_cp_seg *x = *(const struct prof_cp_seg *const *)a;
	const struct prof_cp_seg *y = *(const struct prof_cp_seg *const *)b;

	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Point w->segs at p's cp_seg records sorted by (segment, node), so files
 * do not depend on the order the runtime collected them in.  Returns 0, or
 * -1 when memory is short. */
static int pw_sort_segs(struct pw *w, const struct profile *p)
{
	w->segs = malloc(p->ncp_segs ? p->ncp_segs * sizeof(*w->segs) : 1);
	if (!w->segs)
		return -1;
	for (uint32_t i = 0; i < p->ncp_segs; i++)
		w->segs[i] = &p->cp_segs[i];
	qsort(w->segs, p->ncp_segs, sizeof(*w->segs), pw_seg_cmp);
	return 0;
}

static void pw_spread(struct pw *w, const struct prof_spread *s)
{
	pw_u64(w, s->ranks);
	pw_u64(w, s->min);
	pw_u64(w, s->max);
	pw_i64(w, s->max_rank);
}

/* Whether node id of kept tree k has samples. */
static bool pw_kept_has(const struct profile *p, const struct prof_kept *k, uint32_t id)
{
	for (uint32_t e = 0; e < p->nevents; e++)
		if (k->self[(size_t)id * p->nevents + e])
			return true;
	return false;
}

/* A kept rank's m_kept records: its nodes with samples, or its root alone
 * (so that a rank without samples is still known to be kept). */
static void pw_kept(struct pw *w, const struct profile *p, const struct prof_kept *k)
{
	bool any = false;

	for (uint32_t id = 0; id < p->tree.nnodes; id++)
		any |= pw_kept_has(p, k, id);
	for (uint32_t id = 0; id < p->tree.nnodes; id++)
		if (any ? pw_kept_has(p, k, id) : id == 0) {
			pw_key(w, "m_kept");
			pw_i64(w, k->rank);
			pw_u64(w, id);
			pw_counts(w, k->self + (size_t)id * p->nevents, p->nevents);
		}
}

/* A merged profile's m_rank, m_node, m_site, m_fn and m_kept records; a
 * row has its clocks from version 11. */
static void pw_merged(struct pw *w, const struct profile *p, uint64_t version)
{
	for (uint64_t i = 0; i < p->merged; i++) {
		const struct prof_rank *r = &p->mranks[i];

		pw_key(w, "m_rank");
		pw_i64(w, r->rank);
		pw_i64(w, r->pid);
		pw_str(w, r->host);
#define PW_RANK_VALUE(f) pw_u64(w, r->f);
		PROF_RANK_VALUES(PW_RANK_VALUE)
		PROF_RANK_VALUES_9(PW_RANK_VALUE)
#undef PW_RANK_VALUE
		if (version >= PROFILE_VERSION_WAITS) {
			pw_i64(w, r->clock_offset_ns);
			pw_i64(w, r->clock_drift_ns);
		}
		pw_counts(w, (const uint64_t *)(const void *)&r->ovh, PROF_OVH_WORDS);
	}
	for (uint32_t id = 0; p->merged && id < p->tree.nnodes; id++) {
		pw_key(w, "m_node");
		pw_u64(w, id);
		for (uint32_t e = 0; e < p->nevents; e++)
			pw_spread(w, &p->node_spread[(size_t)id * p->nevents + e]);
		pw_eol(w);
	}
	for (uint32_t i = 0; p->merged && i < p->nmpi_sites; i++) {
		pw_key(w, "m_site");
		pw_u64(w, i);
		pw_spread(w, &p->site_spread[i]);
		pw_eol(w);
	}
	for (uint32_t i = 0; i < p->nfn_spread; i++) {
		pw_key(w, "m_fn");
		pw_u64(w, p->fn_spread[i].frame);
		pw_u64(w, p->fn_spread[i].sum);
		pw_spread(w, &p->fn_spread[i].s);
		pw_eol(w);
	}
	for (uint32_t i = 0; i < p->nkept; i++)
		pw_kept(w, p, &p->kept[i]);
}

/* Serialise p into w, trailer included. */
static void pw_profile(struct pw *w, const struct profile *p)
{
	uint64_t version = profile_version(p);
	char trailer[64];
	int n;

	pw_key(w, PROF_MAGIC);
	pw_u64(w, version);
	pw_eol(w);
	for (uint32_t i = 0; i < p->argc; i++) {
		pw_put(w, "argv", 4);
		pw_str(w, p->argv[i]);
		pw_eol(w);
	}
	if (p->merged) {
		pw_key(w, "merged");
		pw_u64(w, p->merged);
		pw_eol(w);
	}
	pw_scalars(w, p, PS_META, version);
	pw_events(w, p);
	pw_scalars(w, p, PS_COUNTER, version);
	pw_symbols(w, &p->syms);
	for (uint32_t i = 0; i < p->nthreads; i++) {
		if (p->merged) {
			pw_key(w, "m_thread");
			pw_i64(w, p->threads[i].rank);
		} else {
			pw_key(w, "thread");
		}
		pw_u64(w, p->threads[i].tid);
		pw_counts(w, p->threads[i].samples, p->nevents);
	}
	pw_tree(w, p);
	pw_act(w, p);
	pw_mpi(w, p);
	pw_waits(w, p);
	pw_cp(w, p);
	pw_merged(w, p, version);
	pw_flush(w);
	n = snprintf(trailer, sizeof(trailer), "%s %" PRIu64 " %08" PRIx32 "\n",
		     PROF_TRAILER, w->len, w->crc);
	pw_put(w, trailer, (size_t)n);
	pw_flush(w);
}

/* Create path for writing with permissions mode, whatever the umask (a
 * program may set umask 0777 before it exits), replacing a stale temporary
 * of a dead process that had our pid.  Returns the fd or -1 with errno
 * set.  A file system that keeps no modes (fchmod fails) keeps the file. */
static int pw_create(const char *path, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

	if (fd < 0 && errno == EEXIST && unlink(path) == 0)
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd >= 0)
		(void)fchmod(fd, mode);
	return fd;
}

/* Make a completed rename durable; best effort, as the file is complete. */
static void pw_sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* A profile written into its temporary, to be made durable and renamed. */
struct profile_out {
	char *dir, *path, *tmp;
	int fd;
};

static void out_free(struct profile_out *o)
{
	free(o->dir);
	free(o->path);
	free(o->tmp);
	free(o);
}

/* The error of step (errno e, 0 for none) into err; the temporary goes.
 * Returns -1. */
static int out_fail(struct profile_out *o, const char *step, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "cannot write %s: %s%s%s", o->path, step, e ? ": " : "",
		 e ? strerror(e) : "");
	if (o->fd >= 0) {
		close(o->fd);
		unlink(o->tmp);
	}
	out_free(o);
	return -1;
}

/* See profile.h. */
char *profile_tmp_path(const char *dir, const char *name)
{
	char *tmp;

	return asprintf(&tmp, "%s/.%s.tmp.%ld", dir, name, (long)getpid()) < 0 ? NULL : tmp;
}

/* See profile.h.  The temporary is profile_tmp_path's; the message in err
 * names dir/name and the failing step. */
int profile_write_start(const struct profile *p, const char *dir, const char *name, mode_t mode,
			struct profile_out **out, char *err, size_t errlen)
{
	struct profile_out *o = calloc(1, sizeof(*o));
	struct pw *w = NULL;
	char why[256];
	int e;

	if (!o || !(o->dir = strdup(dir)) || asprintf(&o->path, "%s/%s", dir, name) < 0) {
		snprintf(err, errlen, "cannot write %s/%s: out of memory", dir, name);
		if (o)
			free(o->dir);
		free(o);
		return -1;
	}
	o->fd = -1;
	if (prof_check(p, why, sizeof(why))) {
		snprintf(err, errlen, "cannot write %s: inconsistent profile: %s", o->path, why);
		out_free(o);
		return -1;
	}
	if (!(o->tmp = profile_tmp_path(dir, name)))
		return out_fail(o, "out of memory", 0, err, errlen);
	if (!(w = calloc(1, sizeof(*w))) || pw_sort_segs(w, p)) {
		free(w);
		return out_fail(o, "out of memory", 0, err, errlen);
	}
	if ((w->fd = o->fd = pw_create(o->tmp, mode)) < 0) {
		e = errno;
		free(w->segs);
		free(w);
		return out_fail(o, "cannot create temporary", e, err, errlen);
	}
	pw_profile(w, p);
	e = w->err;
	free(w->segs);
	free(w);
	if (e)
		return out_fail(o, "write failed", e, err, errlen);
	*out = o;
	return 0;
}

/* See profile.h. */
int profile_write_commit(struct profile_out *o, char *err, size_t errlen)
{
	int fd = o->fd;

	if (fsync(fd) < 0)
		return out_fail(o, "write failed", errno, err, errlen);
	o->fd = -1;
	if (close(fd) < 0) {
		unlink(o->tmp);
		return out_fail(o, "write failed", errno, err, errlen);
	}
	if (rename(o->tmp, o->path) < 0) {
		int e = errno;

		unlink(o->tmp);
		return out_fail(o, "cannot rename temporary into place", e, err, errlen);
	}
	pw_sync_dir(o->dir);
	out_free(o);
	return 0;
}

/* See profile.h. */
int profile_write_mem(const struct profile *p, char **buf, size_t *len, char *err, size_t errlen)
{
	struct pw *w = calloc(1, sizeof(*w));
	char why[256];
	int e;

	if (!w || pw_sort_segs(w, p)) {
		free(w);
		snprintf(err, errlen, "cannot serialise the profile: out of memory");
		return -1;
	}
	if (prof_check(p, why, sizeof(why))) {
		snprintf(err, errlen, "cannot serialise the profile: inconsistent profile: %s", why);
		e = -1;
	} else {
		w->fd = -1;
		pw_profile(w, p);
		if ((e = w->err))
			snprintf(err, errlen, "cannot serialise the profile: %s", strerror(e));
	}
	free(w->segs);
	if (e)
		free(w->mem);
	else {
		*buf = w->mem;
		*len = w->mem_len;
	}
	free(w);
	return e ? -1 : 0;
}

/* See profile.h. */
int profile_write_mode(const struct profile *p, const char *dir, const char *name, mode_t mode,
		       char *err, size_t errlen)
{
	struct profile_out *o = NULL;	/* set when the start succeeds */

	if (profile_write_start(p, dir, name, mode, &o, err, errlen))
		return -1;
	return profile_write_commit(o, err, errlen);
}

/* See profile.h. */
int profile_write(const struct profile *p, const char *dir, const char *name,
		  char *err, size_t errlen)
{
	return profile_write_mode(p, dir, name, PROFILE_MODE, err, errlen);
}
