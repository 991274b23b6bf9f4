/*
 * test-graph.c - the ranks' activity graphs in the report: rank profiles
 * of a master and its workers, with or without a 1-D stencil among the
 * workers, built by hand and merged in memory (their own files, or a
 * merged profile of them), then grouped into classes (cluster.c) and
 * shown as text, JSON and GraphML.  Checks the classes of the two shapes,
 * that unequal counts split a class, that times split it beyond the
 * tolerance and not within, the peers' naming, the range notation and
 * that the GraphML is well formed and its edges join its nodes.
 *
 * `test-graph --write-data DIR` writes the 16 ranks of the stencil into
 * DIR instead, for tests/integration/report-graph.t.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "make-profile.h"
#include "render-report.h"
#include "../../report/cluster.h"
#include "../../report/merge.h"

#define ERRLEN 512
#define MS 1000000ull

/* The call sites of the job, each an MPI function called from a frame
 * of main. */
enum kind { DIST, COLLECT, GET, HALO_SEND, HALO_RECV, PUT, INIT, KINDS };
static const struct {
	const char *fn, *frame;
} kinds[KINDS] = {
	{ "MPI_Send", "distribute" }, { "MPI_Recv", "collect" }, { "MPI_Recv", "get_work" },
	{ "MPI_Send", "halo" }, { "MPI_Recv", "halo" }, { "MPI_Send", "put_result" },
	{ "MPI_Init", "setup" },
};

/* The slot of a rank's table that holds kind: not the site's index, so
 * that naming a sender's site through its slots is checked. */
#define SLOT(k) (100u + (uint32_t)(k))

/* The shape of a job: ranks, a stencil among the workers (iterations of
 * it, 0 for none), whether the ranks have an MPI_Init call site (whose
 * time then grows by 30 % a rank), and per rank a factor on its times
 * and how many work items it gets (1 but where set). */
struct job {
	int64_t size;
	uint32_t iters;
	bool init;
	double scale[16];
	uint32_t items[16];
};

/* One rank's profile while it is built: the site of each kind it has. */
struct builder {
	struct profile *p;
	uint32_t site[KINDS];
	double scale;
};

static void add_site(struct builder *b, enum kind k, uint64_t calls)
{
	struct profile *p = b->p;
	uint32_t mod = symtab_module(&p->syms, "/opt/app/bin/app", "abcd");
	struct prof_mpi_site *s;

	p->mpi_sites = realloc(p->mpi_sites, (p->nmpi_sites + 1) * sizeof(*s));
	p->mpi_slots = realloc(p->mpi_slots, (p->nmpi_slots + 1) * sizeof(*p->mpi_slots));
	if (!p->mpi_sites || !p->mpi_slots)
		abort();
	s = &p->mpi_sites[p->nmpi_sites];
	memset(s, 0, sizeof(*s));
	s->function = xstrdup(kinds[k].fn);
	s->nframes = 2;
	s->frames = xcalloc(2, sizeof(uint32_t));
	s->frames[0] = symtab_frame(&p->syms, mod, "main", "app.c", 1);
	s->frames[1] = symtab_frame(&p->syms, mod, kinds[k].frame, "app.c", 10 + k);
	s->calls = calls;
	s->time_ns = (uint64_t)((double)calls * 10000 * b->scale);
	p->mpi_slots[p->nmpi_slots++] = (struct prof_mpi_slot){ SLOT(k), p->nmpi_sites, 0 };
	b->site[k] = p->nmpi_sites++;
}

/* count computations from a call of kind a to one of kind b, 1 ms each. */
static void add_edge(struct builder *b, enum kind a, enum kind k, uint64_t count)
{
	struct profile *p = b->p;

	if (!count)
		return;
	p->mpi_edges = realloc(p->mpi_edges, (p->nmpi_edges + 1) * sizeof(*p->mpi_edges));
	if (!p->mpi_edges)
		abort();
	p->mpi_edges[p->nmpi_edges++] = (struct prof_mpi_edge){
		b->site[a], b->site[k], count, (uint64_t)((double)count * MS * b->scale), 0,
		PROF_EDGE_COMPUTE };
}

/* count messages of bytes each received at kind k from rank's kind from. */
static void add_pair(struct builder *b, enum kind k, int64_t rank, enum kind from,
		     uint64_t count, uint64_t bytes, uint64_t late_ns)
{
	struct profile *p = b->p;

	p->mpi_pairs = realloc(p->mpi_pairs, (p->nmpi_pairs + 1) * sizeof(*p->mpi_pairs));
	if (!p->mpi_pairs)
		abort();
	p->mpi_pairs[p->nmpi_pairs++] = (struct prof_mpi_pair){
		b->site[k], rank, SLOT(from), count, count * bytes, late_ns, 0, 0, 0, 0 };
}

/* The master: sends each worker its items, collects one result each. */
static void make_master(const struct job *j, struct builder *b)
{
	uint64_t items = 0;

	for (int64_t w = 1; w < j->size; w++)
		items += j->items[w];
	add_site(b, DIST, items);
	add_site(b, COLLECT, items);
	add_edge(b, DIST, DIST, items - 1);
	add_edge(b, DIST, COLLECT, 1);
	add_edge(b, COLLECT, COLLECT, items - 1);
	for (int64_t w = 1; w < j->size; w++)
		add_pair(b, COLLECT, w, PUT, j->items[w], 8, 0);
}

/*
 * Worker w: for each item a receive from the master, then the stencil's
 * iterations (a send to each neighbour among the workers, then a receive
 * from each), then a send of the result.
 */
static void make_worker(const struct job *j, struct builder *b, int64_t w)
{
	uint32_t items = j->items[w], it = j->iters, nb = (w > 1) + (w < j->size - 1);

	add_site(b, GET, items);
	add_site(b, PUT, items);
	add_pair(b, GET, 0, DIST, items, 64, 1000);
	if (!it) {
		add_edge(b, GET, PUT, items);
		add_edge(b, PUT, GET, items - 1);
		return;
	}
	add_site(b, HALO_SEND, (uint64_t)nb * it * items);
	add_site(b, HALO_RECV, (uint64_t)nb * it * items);
	add_edge(b, GET, HALO_SEND, items);
	add_edge(b, HALO_SEND, HALO_SEND, (uint64_t)(nb - 1) * it * items);
	add_edge(b, HALO_SEND, HALO_RECV, (uint64_t)it * items);
	add_edge(b, HALO_RECV, HALO_RECV, (uint64_t)(nb - 1) * it * items);
	add_edge(b, HALO_RECV, HALO_SEND, (uint64_t)(it - 1) * items);
	add_edge(b, HALO_RECV, PUT, items);
	add_edge(b, PUT, GET, items - 1);
	for (int64_t n = w - 1; n <= w + 1; n += 2)
		if (n >= 1 && n < j->size)
			add_pair(b, HALO_RECV, n, HALO_SEND, (uint64_t)it * items, 8, 0);
}

static void make_rank(const struct job *j, int64_t r, struct profile *p)
{
	struct builder b = { p, { 0 }, j->scale[r] ? j->scale[r] : 1 };

	make_rank_profile(p, r, j->size);
	if (j->init) {
		add_site(&b, INIT, 1);
		p->mpi_sites[b.site[INIT]].time_ns = (uint64_t)(1e9 * (1 + 0.3 * (double)r));
	}
	if (r == 0)
		make_master(j, &b);
	else
		make_worker(j, &b, r);
}

/* A job of size ranks, each worker one item, times as measured. */
static struct job job_of(int64_t size, uint32_t iters)
{
	struct job j = { size, iters, false, { 0 }, { 0 } };

	for (int64_t r = 0; r < size; r++)
		j.items[r] = 1;
	return j;
}

/* j's ranks merged into d, from their own profiles or (merged) from one
 * merged profile of them.  Returns merge's status. */
static int load(struct rep_data *d, const struct job *j, bool merged, char *err)
{
	struct profile p[16];
	int rc = merge_init(d);

	for (int64_t r = 0; r < j->size; r++)
		make_rank(j, r, &p[r]);
	if (merged) {
		for (int64_t r = 0; rc == 0 && r < j->size; r++)
			rc = profile_to_merged(&p[r], err, ERRLEN);
		for (int64_t r = 1; rc == 0 && r < j->size; r++)
			rc = profile_merge(&p[0], &p[r], err, ERRLEN);
		if (rc == 0)
			rc = merge_add(d, &p[0], NULL, "merged.cpprof", err, ERRLEN);
	} else {
		for (int64_t r = 0; rc == 0 && r < j->size; r++)
			rc = merge_add(d, &p[r], NULL, "rank.cpprof", err, ERRLEN);
	}
	for (int64_t r = 0; r < j->size; r++)
		profile_release(&p[r]);
	return rc == 0 ? merge_finish(d, err, ERRLEN) : rc;
}

/* The classes of j's ranks at tol percent, as "0 | 1-4"; "" when loading
 * or grouping failed (the reason printed). */
static const char *classes_of(const struct job *j, bool merged, double tol)
{
	static char buf[512];
	struct rep_data d;
	struct cl_result r;
	char err[ERRLEN];
	size_t at = 0;

	buf[0] = '\0';
	if (load(&d, j, merged, err) != 0 ||
	    cluster_build(&r, d.graph.ranks, d.graph.nranks, tol / 100, err, sizeof(err)) < 0) {
		printf("# %s\n", err);
		merge_release(&d);
		return buf;
	}
	for (uint32_t c = 0; c < r.nclasses; c++) {
		char *s = rank_runs_str(&r.classes[c].ranks);

		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%s", c ? " | " : "", s);
		free(s);
	}
	cluster_release(&r);
	merge_release(&d);
	return buf;
}

static void test_classes(void)
{
	struct job j = job_of(16, 3);

	is_str(classes_of(&j, false, 2), "0 | 1 | 2-14 | 15",
	       "master and 1-D stencil: the master, each end of the stencil, its inside");
	j = job_of(5, 0);
	is_str(classes_of(&j, false, 2), "0 | 1-4", "master and workers: the master, the workers");
	is_str(classes_of(&j, true, 2), "0 | 1-4", "the same from a merged profile");
	j.items[3] = 2;
	is_str(classes_of(&j, false, 2), "0 | 1-2,4 | 3", "a worker with one more item is apart");
	j = job_of(5, 0);
	j.scale[2] = 1.015;
	is_str(classes_of(&j, false, 2), "0 | 1-4", "times 1.5 % apart: one class at 2 %");
	is_str(classes_of(&j, false, 1), "0 | 1,3-4 | 2", "two classes at 1 %");
	is_str(classes_of(&j, true, 1), "0 | 1,3-4 | 2", "the edges' times alone split them too");
	j.scale[2] = 1.1;
	is_str(classes_of(&j, false, 2), "0 | 1,3-4 | 2",
	       "10 % apart: a class of its own, the rest ranges around it");
	j.scale[2] = 1;
	j.scale[4] = 1.00001;
	is_str(classes_of(&j, false, 0), "0 | 1-3 | 4", "at 0 % only equal times share a class");
	j = job_of(5, 0);
	j.init = true;
	is_str(classes_of(&j, false, 2), "0 | 1-4", "MPI_Init's time, start-up skew, counts in no "
	       "distance");
}

/* The MPI view's id of kind's site in d (0 when none). */
static unsigned site_id(const struct rep_data *d, enum kind k)
{
	for (uint32_t i = 0; i < d->mpi.nsites; i++) {
		const struct rep_site *s = &d->mpi.sites[i];

		if (!strcmp(s->function, kinds[k].fn) && s->nframes == 2 &&
		    !strcmp(d->syms.frames[s->frames[1]].function, kinds[k].frame))
			return i + 1;
	}
	return 0;
}

static struct rep_opts opts(enum rep_format f, enum rep_view v)
{
	return (struct rep_opts){ .format = f, .view = v, .min_pct = -1 };
}

static void test_json(const struct rep_data *d)
{
	char want[512];
	int rc;
	const char *out = render(d, opts(REP_JSON, REP_FLAT), &rc);

	is_int(rc, 0, "JSON rendered");
	ok(strstr(out, "\"clusters\":[{\"ranks\":\"0\",\"representative\":0,\"size\":1},"
		  "{\"ranks\":\"1\",\"representative\":1,\"size\":1},{\"ranks\":\"2-14\","
		  "\"representative\":2,\"size\":13},{\"ranks\":\"15\",\"representative\":15,"
		  "\"size\":1}]"), "JSON: the clusters, by lowest rank, their ranks as runs");
	ok(strstr(out, "\"graph\":{\"tolerance_pct\":2,\"classes\":[{\"ranks\":\"0\","
		  "\"representative\":0,\"nodes\":[{\"site\":"), "JSON: the graph by class");
	snprintf(want, sizeof(want), "{\"site\":%u,\"calls\":6,\"time\":6e-05}",
		 site_id(d, HALO_SEND));
	ok(strstr(out, want), "JSON: a node: site id, calls, time");
	snprintf(want, sizeof(want), "{\"from\":%u,\"to\":%u,\"kind\":\"computation\",\"count\":3,"
		 "\"time\":0.003,\"samples\":0,\"paths\":[]}",
		 site_id(d, HALO_SEND), site_id(d, HALO_RECV));
	ok(strstr(out, want), "JSON: a computation edge");
	snprintf(want, sizeof(want), "{\"send_class\":0,\"send_site\":%u,\"recv_class\":2,"
		 "\"recv_site\":%u,\"count\":1,\"bytes\":64,\"late_sender\":1e-06}",
		 site_id(d, DIST), site_id(d, GET));
	ok(strstr(out, want), "JSON: a message from the master's class, its sender's site named "
	   "through its slot");
	snprintf(want, sizeof(want), "{\"send_class\":2,\"send_site\":%u,\"recv_class\":2,"
		 "\"recv_site\":%u,\"count\":6,\"bytes\":48,", site_id(d, HALO_SEND),
		 site_id(d, HALO_RECV));
	ok(strstr(out, want), "JSON: messages within the class, received and sent, summed");
	out = render_tol(d, opts(REP_JSON, REP_FLAT), 0, &rc);
	ok(rc == 0 && strstr(out, "\"tolerance_pct\":0,"), "JSON: the tolerance as asked");
}

static void test_text(const struct rep_data *d)
{
	char want[256], from[16], to[16];
	int rc;
	const char *out = render(d, opts(REP_TEXT, REP_GRAPH), &rc);

	is_int(rc, 0, "text rendered");
	ok(strstr(out, "# activity graphs: 16 ranks in 4 classes ("), "text: ranks and classes");
	ok(strstr(out, "\n       2       13               2  2-14\n"),
	   "text: a class's size, representative and ranks");
	ok(strstr(out, "\n# class 2: 13 ranks (2-14), as rank 2 shows it\n"), "text: a class's graph");
	snprintf(want, sizeof(want), "\n%7u  MPI_Send          6  0.000060  main > halo\n",
		 site_id(d, HALO_SEND));
	ok(strstr(out, want), "text: a node with its call path");
	snprintf(from, sizeof(from), "0:%u", site_id(d, DIST));
	snprintf(to, sizeof(to), "2:%u", site_id(d, GET));
	snprintf(want, sizeof(want), "\n %12s %12s %11d %12d %15.6f\n", from, to, 1, 64, 1e-6);
	ok(strstr(out, want), "text: a message, its ends as class:site");
}

/*
 * Check that xml's elements nest (a start tag for each end tag, in order,
 * none left open) and that every edge's source and target are node ids.
 * Returns NULL, or what is wrong.
 */
static const char *check_xml(const char *xml, unsigned *nodes, unsigned *edges)
{
	static char why[128];
	char stack[16][32], ids[4096] = " ";
	int depth = 0;

	*nodes = *edges = 0;
	for (const char *s = strchr(xml, '<'); s; s = strchr(s + 1, '<')) {
		const char *end = strchr(s, '>');
		char name[32];
		bool closing = s[1] == '/', empty = end && end[-1] == '/';

		if (!end)
			return "a tag without its '>'";
		if (s[1] == '?' || s[1] == '!')
			continue;
		if (sscanf(s + 1 + closing, "%31[a-z]", name) != 1)
			return "a tag without a name";
		if (closing) {
			if (!depth || strcmp(stack[--depth], name)) {
				snprintf(why, sizeof(why), "</%s> closes nothing open", name);
				return why;
			}
			continue;
		}
		if (!strcmp(name, "node")) {
			char id[32];

			(*nodes)++;
			if (sscanf(s, "<node id=\"%31[^\"]\"", id) == 1)
				snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids), "%s ", id);
		}
		if (!strcmp(name, "edge")) {
			char src[40], dst[40], a[44], b[44];

			(*edges)++;
			if (sscanf(s, "<edge source=\"%31[^\"]\" target=\"%31[^\"]\"", src, dst) != 2)
				return "an edge without source and target";
			snprintf(a, sizeof(a), " %s ", src);
			snprintf(b, sizeof(b), " %s ", dst);
			if (!strstr(ids, a) || !strstr(ids, b)) {
				snprintf(why, sizeof(why), "edge %s -> %s joins no node", src, dst);
				return why;
			}
		}
		if (!empty) {
			if (depth == 16)
				return "nested too deep";
			snprintf(stack[depth++], sizeof(stack[0]), "%s", name);
		}
	}
	return depth ? "elements left open" : NULL;
}

static void test_graphml(const struct rep_data *d)
{
	unsigned nodes, edges;
	const char *why;
	int rc;
	const char *out = render(d, opts(REP_GRAPHML, REP_FLAT), &rc);

	is_int(rc, 0, "GraphML rendered");
	ok(!strncmp(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\""
		    "http://graphml.graphdrawing.org/xmlns\">\n", 81), "GraphML: its namespace");
	ok(strstr(out, "<key id=\"late_sender\" for=\"edge\" attr.name=\"late_sender\" "
		  "attr.type=\"double\"/>") && strstr(out, "<key id=\"node_time\" for=\"node\" "
						    "attr.name=\"time\" attr.type=\"double\"/>"),
	   "GraphML: a key declared for each attribute");
	why = check_xml(out, &nodes, &edges);
	if (!ok(!why, "GraphML: elements nest, every edge joins two nodes"))
		printf("#   %s\n", why);
	/* nodes: the master's 2 sites, 4 of each worker class; edges per
	 * class, computation then messages received: the master's 3, from 3
	 * classes; an end's 4 (no send to send, receive to receive), from
	 * the master and the inside; the inside's 6, from the master, an end
	 * and itself */
	is_int(nodes, 2 + 3 * 4, "GraphML: a node per class and site");
	is_int(edges, 3 + 3 + 2 * (4 + 2) + 6 + 3, "GraphML: computation and message edges");
	ok(strstr(out, "<data key=\"kind\">message</data>\n      <data key=\"count\">3</data>\n"
		  "      <data key=\"bytes\">24</data>"), "GraphML: a message edge's data");
	ok(strstr(out, "<data key=\"ranks\">2-14</data>"), "GraphML: a node's class's ranks");
}

static void test_no_graph(void)
{
	struct rep_data d;
	struct profile p;
	char err[ERRLEN];
	int rc;

	make_rank_profile(&p, 0, 1);
	ok(merge_init(&d) == 0 && merge_add(&d, &p, NULL, "r.cpprof", err, ERRLEN) == 0 &&
	   merge_finish(&d, err, ERRLEN) == 0, "a rank without edges loads");
	ok(strstr(render(&d, opts(REP_TEXT, REP_GRAPH), &rc),
		  ": no activity graph in this experiment: it is not an MPI program") && rc == -1,
	   "--view=graph without edges: the reason");
	ok(render(&d, opts(REP_GRAPHML, REP_FLAT), &rc) && rc == -1, "nor GraphML");
	ok(!strstr(render(&d, opts(REP_JSON, REP_FLAT), &rc), "\"clusters\"") && rc == 0,
	   "JSON without edges: no clusters key");
	profile_release(&p);
	merge_release(&d);
}

/* Hostile names stay XML: markup escaped, a control character and a byte
 * that is not UTF-8 replaced. */
static void test_escaping(void)
{
	struct job j = job_of(2, 0);
	struct rep_data d;
	char err[ERRLEN];
	int rc;
	const char *out;

	if (load(&d, &j, false, err) != 0) {
		tap_bail(err);
		return;
	}
	free(d.mpi.sites[0].function);
	d.mpi.sites[0].function = xstrdup("a<b>&\"'\x01\xff\xc3\xa9");
	out = render(&d, opts(REP_GRAPHML, REP_FLAT), &rc);
	ok(rc == 0 && strstr(out, ">a&lt;b&gt;&amp;\"'&#xFFFD;&#xFFFD;\xc3\xa9</data>"),
	   "GraphML: a hostile function name escaped");
	merge_release(&d);
}

/* The stencil's ranks written as profiles into dir. */
static int write_data(const char *dir)
{
	struct job j = job_of(16, 3);
	char err[ERRLEN] = "", name[64];
	int rc = 0;

	for (int64_t r = 0; r < j.size && rc == 0; r++) {
		struct profile p;

		make_rank(&j, r, &p);
		snprintf(name, sizeof(name), "rank%02lld" PROFILE_SUFFIX, (long long)r);
		rc = profile_write(&p, dir, name, err, sizeof(err));
		profile_release(&p);
	}
	if (rc)
		fprintf(stderr, "%s\n", err);
	return rc != 0;
}

int main(int argc, char **argv)
{
	struct job j = job_of(16, 3);
	struct rep_data d;
	char err[ERRLEN];

	if (argc == 3 && !strcmp(argv[1], "--write-data"))
		return write_data(argv[2]);
	test_classes();
	if (load(&d, &j, false, err) != 0)
		tap_bail(err);
	test_json(&d);
	test_text(&d);
	test_graphml(&d);
	merge_release(&d);
	test_no_graph();
	test_escaping();
	return tap_done();
}
