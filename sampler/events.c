/*
 * events.c - event names to perf_event_attr: parsing the user's list and
 * encoding each name.
 *
 * The user's list ("task-clock", "{cycles,instructions}", "cycles:k", ...)
 * is split here into events and groups, each name is encoded with libpfm4
 * (which knows perf's generic names and the names of the PMUs present), and
 * a small table of perf's generic names fills the few gaps libpfm4 has and
 * feeds the "did you mean" suggestions (and `cpperf list`, in
 * events-list.c).  What this host can open is in events-host.c.  Nothing
 * here prints.
 */
#include "events-int.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define EV_CACHE(id, op, res) \
	((uint64_t)(id) | ((uint64_t)(op) << 8) | ((uint64_t)(res) << 16))

const struct ev_generic ev_generic_tab[] = {
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "cycles", "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "L1-dcache-loads", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS) },
	{ "L1-dcache-load-misses", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS) },
	{ "L1-dcache-stores", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_WRITE, PERF_COUNT_HW_CACHE_RESULT_ACCESS) },
	{ "L1-icache-load-misses", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_L1I, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS) },
	{ "LLC-loads", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS) },
	{ "LLC-load-misses", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS) },
	{ "LLC-stores", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_WRITE, PERF_COUNT_HW_CACHE_RESULT_ACCESS) },
	{ "dTLB-loads", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_DTLB, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS) },
	{ "dTLB-load-misses", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_DTLB, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS) },
	{ "iTLB-load-misses", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_ITLB, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS) },
	{ "branch-loads", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_BPU, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS) },
	{ "branch-load-misses", NULL, PERF_TYPE_HW_CACHE,
	  EV_CACHE(PERF_COUNT_HW_CACHE_BPU, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS) },
};

#define EV_NGENERIC (sizeof(ev_generic_tab) / sizeof(ev_generic_tab[0]))
const size_t ev_ngeneric = EV_NGENERIC;

#define EV_NSUGGEST 3

/* ------------------------------------------------------------------ */
/* libpfm4                                                              */

/* Why libpfm4 cannot be used ("" when it can), set once by ev_pfm_once
 * under ev_pfm_ctl; read by any thread afterwards. */
static char ev_pfm_why[256];
static pthread_once_t ev_pfm_ctl = PTHREAD_ONCE_INIT;

static void ev_pfm_once(void)
{
	int r;

	if (lazy_pfm_open(ev_pfm_why, sizeof(ev_pfm_why)))
		return;
	r = sym_pfm_initialize();
	if (r != PFM_SUCCESS)
		snprintf(ev_pfm_why, sizeof(ev_pfm_why), "%s", sym_pfm_strerror(r));
}

/* Open and initialize libpfm4 once; 0, or -1 with why in err. */
int ev_pfm_init(char *err, size_t errlen)
{
	pthread_once(&ev_pfm_ctl, ev_pfm_once);
	if (!ev_pfm_why[0])
		return 0;
	snprintf(err, errlen, "%s", ev_pfm_why);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Suggestions: edit distance over the names this host knows             */

/* Optimal-string-alignment distance (a swap of neighbours costs 1),
 * case-insensitive; names longer than EV_NAMEMAX are cut there. */
static int ev_distance(const char *a, const char *b)
{
	int la = (int)strnlen(a, EV_NAMEMAX), lb = (int)strnlen(b, EV_NAMEMAX);
	int d[3][EV_NAMEMAX + 1];	/* rows i-2, i-1, i (mod 3) */

	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++) {
		int *cur = d[i % 3], *prev = d[(i - 1) % 3], *pp = d[(i + 1) % 3];
		cur[0] = i;
		for (int j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			int best = prev[j - 1] + (ca != cb);
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    cb == tolower((unsigned char)a[i - 2]) && pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			cur[j] = best;
		}
	}
	return d[la % 3][lb];
}

struct ev_suggest {
	const char *want;
	int limit;			/* largest distance worth showing */
	int n;
	int dist[EV_NSUGGEST];
	char name[EV_NSUGGEST][EV_NAMEMAX];
};

/* Offer one candidate name; keeps the EV_NSUGGEST closest, earlier first
 * on ties, without case-insensitive duplicates. */
static void ev_suggest_offer(struct ev_suggest *s, const char *cand)
{
	int d = ev_distance(s->want, cand);
	if (d > s->limit)
		return;
	for (int i = 0; i < s->n; i++)
		if (!strcasecmp(s->name[i], cand))
			return;
	int at = s->n;
	while (at > 0 && s->dist[at - 1] > d)
		at--;
	if (at >= EV_NSUGGEST)
		return;
	int last = s->n < EV_NSUGGEST ? s->n : EV_NSUGGEST - 1;
	for (int i = last; i > at; i--) {
		s->dist[i] = s->dist[i - 1];
		memcpy(s->name[i], s->name[i - 1], EV_NAMEMAX);
	}
	s->dist[at] = d;
	snprintf(s->name[at], EV_NAMEMAX, "%s", cand);
	if (s->n < EV_NSUGGEST)
		s->n++;
}

bool ev_pmu_is_hardware(const pfm_pmu_info_t *pi)
{
	return pi->type == PFM_PMU_TYPE_CORE || pi->type == PFM_PMU_TYPE_UNCORE;
}

/* Info on a libpfm4 PMU; false when unknown or not present on this host. */
bool ev_pmu_present(pfm_pmu_t p, pfm_pmu_info_t *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->size = sizeof(*pi);
	return sym_pfm_get_pmu_info(p, pi) == PFM_SUCCESS && pi->is_present;
}

/* Call fn for every libpfm4 event of PMU p (info pi). */
void ev_pfm_each_event(pfm_pmu_t p, const pfm_pmu_info_t *pi,
		       ev_pfm_fn *fn, void *ctx)
{
	for (int i = pi->first_event; i != -1; i = sym_pfm_get_event_next(i)) {
		pfm_event_info_t ei;
		memset(&ei, 0, sizeof(ei));
		ei.size = sizeof(ei);
		if (sym_pfm_get_event_info(i, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS ||
		    ei.pmu != p)
			break;
		fn(ctx, pi, &ei);
	}
}

static void ev_suggest_pfm_one(void *ctx, const pfm_pmu_info_t *pi,
			       const pfm_event_info_t *ei)
{
	(void)pi;
	ev_suggest_offer(ctx, ei->name);
}

/* Offer every event name of the libpfm4 PMUs perf_event can use here. */
static void ev_suggest_pfm(struct ev_suggest *s)
{
	pfm_pmu_t p;
	bool pmu = ev_host_has_pmu();
	char why[256];

	if (ev_pfm_init(why, sizeof(why)))
		return;
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi;
		if (!ev_pmu_present(p, &pi) || (ev_pmu_is_hardware(&pi) && !pmu))
			continue;
		ev_pfm_each_event(p, &pi, ev_suggest_pfm_one, s);
	}
}

/* The event part of a name: without "pmu::" and without ":modifiers". */
static void ev_base_name(const char *name, char *base, size_t len)
{
	const char *p = strstr(name, "::");
	p = p ? p + 2 : name;
	size_t n = strcspn(p, ":");
	snprintf(base, len, "%.*s", (int)n, p);
}

/* Write ", did you mean ..." text for unknown event name into buf. */
static void ev_suggestions(const char *name, char *buf, size_t len)
{
	struct ev_suggest s = { .n = 0 };
	char base[EV_NAMEMAX];

	ev_base_name(name, base, sizeof(base));
	s.want = base;
	s.limit = ((int)strlen(base) + 1) / 2;
	if (s.limit < 1)
		s.limit = 1;
	for (size_t i = 0; i < EV_NGENERIC; i++) {
		ev_suggest_offer(&s, ev_generic_tab[i].name);
		if (ev_generic_tab[i].alias)
			ev_suggest_offer(&s, ev_generic_tab[i].alias);
	}
	ev_suggest_pfm(&s);
	buf[0] = '\0';
	if (s.n == 0)
		return;
	size_t off = (size_t)snprintf(buf, len, " (did you mean: ");
	for (int i = 0; i < s.n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? ", " : "", s.name[i]);
	if (off < len)
		snprintf(buf + off, len - off, "?)");
}

/* ------------------------------------------------------------------ */
/* Encoding one name                                                    */

static const struct ev_generic *ev_generic_find(const char *name)
{
	for (size_t i = 0; i < EV_NGENERIC; i++) {
		const struct ev_generic *g = &ev_generic_tab[i];
		if (!strcasecmp(name, g->name) || (g->alias && !strcasecmp(name, g->alias)))
			return g;
	}
	return NULL;
}

/* Copy the fields of libpfm4's attr that describe the event (not how it
 * samples) into *dst. */
static void ev_copy_event_fields(struct perf_event_attr *dst,
				 const struct perf_event_attr *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->size = sizeof(*dst);
	dst->type = src->type;
	dst->config = src->config;
	dst->config1 = src->config1;
	dst->config2 = src->config2;
	dst->exclude_user = src->exclude_user;
	dst->exclude_kernel = src->exclude_kernel;
	dst->exclude_hv = 1;
	dst->exclude_idle = src->exclude_idle;
	dst->exclude_host = src->exclude_host;
	dst->exclude_guest = src->exclude_guest;
	dst->precise_ip = src->precise_ip;
}

/* Encode name with libpfm4 into *attr; returns a PFM_ error code. */
int ev_pfm_encode(const char *name, struct perf_event_attr *attr,
		  char *err, size_t errlen)
{
	struct perf_event_attr a;
	pfm_perf_encode_arg_t arg;

	memset(&a, 0, sizeof(a));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &a;
	arg.size = sizeof(arg);
	arg.cpu = -1;
	int r = sym_pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (r != PFM_SUCCESS)
		return r;
	if (a.sample_period || a.freq || arg.cpu >= 0 || a.pinned || a.exclusive) {
		snprintf(err, errlen, "event '%s': modifiers period, freq, cpu, pinned "
			 "and excl are not supported in event names (set the period "
			 "with -c or the frequency with -F)", name);
		return PFM_ERR_ATTR_SET;
	}
	ev_copy_event_fields(attr, &a);
	return PFM_SUCCESS;
}

/* Encode a base name (no perf-style suffix): libpfm4 first, then the
 * generic table for the names libpfm4 lacks. */
static int ev_encode_base(const char *name, struct perf_event_attr *attr,
			  char *err, size_t errlen)
{
	int r = ev_pfm_encode(name, attr, err, errlen);
	const struct ev_generic *g;

	if (r == PFM_ERR_NOTFOUND && (g = ev_generic_find(name))) {
		ev_user_attr(attr, g->type, g->config);
		attr->disabled = 0;
		return PFM_SUCCESS;
	}
	return r;
}

/* If name ends in a perf-style ":ukhp" suffix, return where the ':' is. */
static const char *ev_perf_suffix(const char *name)
{
	const char *c = strrchr(name, ':');
	if (!c || c == name || c[-1] == ':' || !c[1] || c[1 + strspn(c + 1, "ukhp")])
		return NULL;
	return c;
}

/* Apply perf-style privilege letters (u, k, h) and precision (p, pp, ppp). */
static int ev_apply_suffix(const char *name, const char *letters,
			   struct perf_event_attr *attr, char *err, size_t errlen)
{
	bool u = strchr(letters, 'u'), k = strchr(letters, 'k'), h = strchr(letters, 'h');
	int np = 0;

	for (const char *c = letters; *c; c++)
		np += *c == 'p';
	if (np > 3) {
		snprintf(err, errlen, "event '%s': at most three 'p' (precise) modifiers", name);
		return -1;
	}
	if (u || k || h) {
		attr->exclude_user = !u;
		attr->exclude_kernel = !k;
		attr->exclude_hv = !h;
	}
	if (np)
		attr->precise_ip = (uint64_t)np;
	return 0;
}

/* Message for a libpfm4 failure on name other than "not found". */
static void ev_pfm_error(const char *name, int r, char *err, size_t errlen)
{
	snprintf(err, errlen, "event '%s': invalid modifier or unit mask (libpfm4: %s); "
		 "cpperf accepts perf-style :u, :k, :uk, :p suffixes and libpfm4 "
		 "attributes (run 'cpperf list --all')", name, sym_pfm_strerror(r));
}

/*
 * perf's software events by their generic names, with or without perf's
 * :u, :k suffixes, encoded as libpfm4 encodes them (tests/unit compares
 * the two) but without opening libpfm4: the default event then costs the
 * process no library.  0, -1 with err, or 1 when name is not one of them.
 */
static int ev_encode_software(struct ev_spec *spec, char *err, size_t errlen)
{
	const char *name = spec->name, *suffix = ev_perf_suffix(name);
	int len = suffix ? (int)(suffix - name) : (int)strlen(name);
	char base[EV_NAMEMAX];
	const struct ev_generic *g;

	if (suffix && suffix[1 + strspn(suffix + 1, "uk")])
		return 1;
	snprintf(base, sizeof(base), "%.*s", len, name);
	g = ev_generic_find(base);
	if (!g || g->type != PERF_TYPE_SOFTWARE)
		return 1;
	ev_user_attr(&spec->attr, g->type, g->config);
	spec->attr.disabled = 0;
	spec->attr.exclude_guest = 1;
	if (suffix && ev_apply_suffix(name, suffix + 1, &spec->attr, err, errlen))
		return -1;
	spec->hardware = false;
	return 0;
}

/* Encode spec->name into spec->attr and spec->hardware; 0 or -1 with err. */
static int ev_encode(struct ev_spec *spec, char *err, size_t errlen)
{
	char base[EV_NAMEMAX];
	const char *name = spec->name, *suffix;
	char why[256];
	int r = ev_encode_software(spec, err, errlen);

	if (r <= 0)
		return r;
	if (ev_pfm_init(why, sizeof(why))) {
		snprintf(err, errlen, "cannot use libpfm4 to encode '%s': %s", name, why);
		return -1;
	}
	err[0] = '\0';
	r = ev_pfm_encode(name, &spec->attr, err, errlen);
	if (r != PFM_SUCCESS && !err[0] && (suffix = ev_perf_suffix(name))) {
		snprintf(base, sizeof(base), "%.*s", (int)(suffix - name), name);
		r = ev_encode_base(base, &spec->attr, err, errlen);
		if (r == PFM_SUCCESS &&
		    ev_apply_suffix(name, suffix + 1, &spec->attr, err, errlen))
			return -1;
	} else if (r == PFM_ERR_NOTFOUND) {
		r = ev_encode_base(name, &spec->attr, err, errlen);
	}
	if (r == PFM_SUCCESS) {
		uint32_t t = spec->attr.type;
		spec->hardware = t != PERF_TYPE_SOFTWARE && t != PERF_TYPE_TRACEPOINT;
		return 0;
	}
	if (err[0])
		return -1;
	if (r == PFM_ERR_NOTFOUND) {
		char sugg[3 * EV_NAMEMAX + 32];
		ev_suggestions(name, sugg, sizeof(sugg));
		snprintf(err, errlen, "unknown event '%s'%s; run 'cpperf list' for the "
			 "events this host offers", name, sugg);
	} else {
		ev_pfm_error(name, r, err, errlen);
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* Parsing the list                                                     */

struct ev_parser {
	const char *s;
	size_t pos;
	struct ev_list *out;
	char *err;
	size_t errlen;
	int group;		/* index of the open group's leader, or -1 */
	size_t group_pos;	/* where its '{' is */
};

static int ev_fail(struct ev_parser *p, size_t pos, const char *what)
{
	snprintf(p->err, p->errlen, "%s at column %zu of event list '%s'",
		 what, pos + 1, p->s);
	return -1;
}

static void ev_skip_space(struct ev_parser *p)
{
	while (isspace((unsigned char)p->s[p->pos]))
		p->pos++;
}

/* Add the event spelled s[start, start+len) to the list (name and group
 * only: names are encoded once the whole list is known to be well formed,
 * so a syntax error is reported before an unknown name). */
static int ev_add(struct ev_parser *p, size_t start, size_t len)
{
	struct ev_list *l = p->out;
	char msg[EV_NAMEMAX + 96];

	if (len >= (size_t)EV_NAMEMAX)
		return ev_fail(p, start, "event name longer than 127 characters");
	if (l->n >= EV_MAX) {
		snprintf(msg, sizeof(msg), "too many events: '%.*s' would be number %d, "
			 "the limit is %d", (int)len, p->s + start, l->n + 1, EV_MAX);
		return ev_fail(p, start, msg);
	}
	struct ev_spec *e = &l->ev[l->n];
	memcpy(e->name, p->s + start, len);
	e->name[len] = '\0';
	for (int i = 0; i < l->n; i++) {
		if (!strcasecmp(l->ev[i].name, e->name)) {
			snprintf(msg, sizeof(msg), "duplicate event '%s' (also event %d)",
				 e->name, i + 1);
			return ev_fail(p, start, msg);
		}
	}
	e->leader = p->group >= 0 ? p->group : l->n;
	l->n++;
	return 0;
}

/* Read one event name at p->pos (which is not a separator). */
static int ev_read_name(struct ev_parser *p)
{
	size_t start = p->pos, len = strcspn(p->s + start, ",{}");
	p->pos += len;
	while (len > 0 && isspace((unsigned char)p->s[start + len - 1]))
		len--;
	return ev_add(p, start, len);
}

/* Where an event is expected: '{' opens a group, a name is read. */
static int ev_expect_event(struct ev_parser *p)
{
	char c = p->s[p->pos];

	if (c == '{') {
		if (p->group >= 0)
			return ev_fail(p, p->pos, "nested '{' (groups cannot contain groups)");
		p->group = p->out->n;
		p->group_pos = p->pos++;
		ev_skip_space(p);
		c = p->s[p->pos];
	}
	if (c == ',' || c == '}' || c == '\0' || c == '{') {
		if (c == '{')
			return ev_fail(p, p->pos, "nested '{' (groups cannot contain groups)");
		return ev_fail(p, p->pos, "empty event name");
	}
	return ev_read_name(p);
}

/* After an event or a '}': a ',' or a '}' or the end.  Returns 1 at the
 * end, 0 to go on, -1 on error. */
static int ev_expect_separator(struct ev_parser *p)
{
	char c = p->s[p->pos];

	if (c == '\0') {
		if (p->group >= 0)
			return ev_fail(p, p->group_pos, "unbalanced '{' (no matching '}')");
		return 1;
	}
	if (c == '}') {
		if (p->group < 0)
			return ev_fail(p, p->pos, "unbalanced '}' (no group is open)");
		p->group = -1;
		p->pos++;
		ev_skip_space(p);
		c = p->s[p->pos];
		if (c == '\0' || c == ',' || c == '}')
			return ev_expect_separator(p);
		return ev_fail(p, p->pos, "expected ',' after '}'");
	}
	if (c == ',') {
		p->pos++;
		return 0;
	}
	if (c == '{' && p->group >= 0)
		return ev_fail(p, p->pos, "nested '{' (groups cannot contain groups)");
	return ev_fail(p, p->pos, "expected ',' before '{'");
}

/*
 * Parse spec into *out (see events.h for the syntax).  Names are trimmed of
 * surrounding white space and compared case-insensitively for duplicates.
 * Returns 0, or -1 with err set and out->n == 0.  err may be NULL when
 * errlen is 0.  Initializes libpfm4 on first use (once, thread-safe).
 */
int ev_parse(const char *spec, struct ev_list *out, char *err, size_t errlen)
{
	char dummy[1];
	struct ev_parser p = { .s = spec ? spec : "", .out = out, .group = -1,
			       .err = errlen ? err : dummy,
			       .errlen = errlen ? errlen : sizeof(dummy) };
	int r;

	memset(out, 0, sizeof(*out));
	ev_skip_space(&p);
	if (!p.s[p.pos]) {
		snprintf(p.err, p.errlen, "empty event list (give at least one "
			 "event, e.g. -e task-clock)");
		return -1;
	}
	do {
		ev_skip_space(&p);
		r = ev_expect_event(&p);
		if (r == 0) {
			ev_skip_space(&p);
			r = ev_expect_separator(&p);
		}
	} while (r == 0);
	for (int i = 0; r >= 0 && i < out->n; i++)
		if (ev_encode(&out->ev[i], p.err, p.errlen))
			r = -1;
	if (r < 0)
		out->n = 0;
	return r < 0 ? -1 : 0;
}
