/*
 * options.c - the table of runtime options and their parsers.  Each option
 * has a command-line form for cpperf-record and an environment twin that
 * the runtime reads; both go through the same parse function, so a value is
 * validated the same way wherever it comes from.
 */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/profile.h"

static int parse_u64(const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long x;

	if (!*v || *v == '-')
		return -1;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno || *end || x < min || x > max)
		return -1;
	*out = x;
	return 0;
}

static int set_events(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (!*v || strlen(v) >= sizeof(o->events)) {
		snprintf(err, n, "%s", *v ? "event list is too long" : "event list is empty");
		return -1;
	}
	strcpy(o->events, v);
	return 0;
}

static int set_freq(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (parse_u64(v, 1, 100000, &o->freq)) {
		snprintf(err, n, "'%s' is not a frequency in Hz from 1 to 100000", v);
		return -1;
	}
	o->period = 0;
	return 0;
}

static int set_period(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (parse_u64(v, 1, UINT64_MAX / 2, &o->period)) {
		snprintf(err, n, "'%s' is not a positive event count", v);
		return -1;
	}
	o->freq = 0;
	return 0;
}

static int set_call_graph(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (!strcmp(v, "dwarf"))
		o->call_graph = CG_DWARF;
	else if (!strcmp(v, "fp"))
		o->call_graph = CG_FP;
	else if (!strcmp(v, "none"))
		o->call_graph = CG_NONE;
	else {
		snprintf(err, n, "'%s' is not one of dwarf, fp, none", v);
		return -1;
	}
	return 0;
}

static int set_stack_size(struct rt_options *o, const char *v, char *err, size_t n)
{
	uint64_t x;

	if (parse_u64(v, 512, OPT_MAX_STACK, &x)) {
		snprintf(err, n, "'%s' is not a byte count from 512 to %d", v, OPT_MAX_STACK);
		return -1;
	}
	o->stack_size = (uint32_t)(x & ~7ull);	/* the kernel wants 8-byte multiples */
	return 0;
}

static int set_output(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (!*v || strlen(v) >= sizeof(o->output)) {
		snprintf(err, n, "%s", *v ? "directory name is too long" : "directory name is empty");
		return -1;
	}
	strcpy(o->output, v);
	return 0;
}

static int set_cost_cache(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (!*v || strlen(v) >= sizeof(o->cost_cache)) {
		snprintf(err, n, "%s", *v ? "directory name is too long" :
					    "directory name is empty (give one, or none for no cache)");
		return -1;
	}
	strcpy(o->cost_cache, v);
	return 0;
}

/* Parse a 0/1 flag into *out. */
static int set_flag(bool *out, const char *v, char *err, size_t n)
{
	if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true"))
		*out = true;
	else if (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false"))
		*out = false;
	else {
		snprintf(err, n, "'%s' is not 0 or 1", v);
		return -1;
	}
	return 0;
}

static int set_quiet(struct rt_options *o, const char *v, char *err, size_t n)
{
	return set_flag(&o->quiet, v, err, n);
}

static int set_follow_fork(struct rt_options *o, const char *v, char *err, size_t n)
{
	return set_flag(&o->follow_fork, v, err, n);
}

static int set_separate_debug(struct rt_options *o, const char *v, char *err, size_t n)
{
	return set_flag(&o->separate_debug, v, err, n);
}

static int set_group_readable(struct rt_options *o, const char *v, char *err, size_t n)
{
	return set_flag(&o->group_readable, v, err, n);
}

static int set_piggyback(struct rt_options *o, const char *v, char *err, size_t n)
{
	return set_flag(&o->piggyback, v, err, n);
}

static int set_activity(struct rt_options *o, const char *v, char *err, size_t n)
{
	return set_flag(&o->activity, v, err, n);
}

static int set_waits(struct rt_options *o, const char *v, char *err, size_t n)
{
	return set_flag(&o->waits, v, err, n);
}

static int set_cp_trace(struct rt_options *o, const char *v, char *err, size_t n)
{
	return set_flag(&o->cp_trace, v, err, n);
}

static int parse_real(const char *v, double min, double max, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (!*v || errno || *end || !(x >= min && x <= max))
		return -1;
	*out = x;
	return 0;
}

/* A list of 1 to OPT_CP_FNS non-empty function names, no repeats. */
static int set_cp_functions(struct rt_options *o, const char *v, char *err, size_t n)
{
	char copy[sizeof(o->cp_functions)], *save = NULL, *names[OPT_CP_FNS];
	int k = 0;

	if (strlen(v) >= sizeof(copy)) {
		snprintf(err, n, "the list is too long");
		return -1;
	}
	strcpy(copy, v);
	for (char *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (k == OPT_CP_FNS) {
			snprintf(err, n, "more than %d functions", OPT_CP_FNS);
			return -1;
		}
		for (int i = 0; i < k; i++)
			if (!strcmp(names[i], s)) {
				snprintf(err, n, "'%s' is listed twice", s);
				return -1;
			}
		names[k++] = s;
	}
	if (!k || v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,")) {
		snprintf(err, n, "'%s' is not a comma-separated list of function names", v);
		return -1;
	}
	strcpy(o->cp_functions, v);
	o->cp_auto = 0;
	return 0;
}

static int set_cp_auto(struct rt_options *o, const char *v, char *err, size_t n)
{
	uint64_t k;

	if (parse_u64(v, 1, OPT_CP_FNS, &k)) {
		snprintf(err, n, "'%s' is not a number of functions from 1 to %d", v, OPT_CP_FNS);
		return -1;
	}
	o->cp_auto = (uint32_t)k;
	o->cp_functions[0] = 0;
	return 0;
}

static int set_cp_warmup(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (parse_real(v, 0, 86400, &o->cp_warmup)) {
		snprintf(err, n, "'%s' is not a number of seconds from 0 to 86400", v);
		return -1;
	}
	return 0;
}

static int set_cp_interval(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (parse_real(v, 0, 86400, &o->cp_interval) ||
	    (o->cp_interval > 0 && o->cp_interval < 0.01)) {
		snprintf(err, n, "'%s' is not 0 (off) or a number of seconds from 0.01 to 86400", v);
		return -1;
	}
	return 0;
}

/* Bytes, with an optional K, M or G (powers of 1024), into *out. */
static int parse_bytes(const char *v, uint64_t *out)
{
	static const char units[] = "KMG";
	char num[32];
	size_t len = strlen(v);
	const char *u = len ? strchr(units, v[len - 1]) : NULL;
	uint64_t x, scale = 1;

	if (u && *u) {
		scale = 1ull << (10 * (u - units + 1));
		len--;
	}
	if (len >= sizeof(num))
		return -1;
	memcpy(num, v, len);
	num[len] = 0;
	if (parse_u64(num, 0, UINT64_MAX / scale, &x))
		return -1;
	*out = x * scale;
	return 0;
}

/* Pages (a power of two), or bytes with B, K, M or G that make a power
 * of two of pages, as perf record -m takes them. */
static int set_mmap_pages(struct rt_options *o, const char *v, char *err, size_t n)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), x;
	size_t len = strlen(v);
	char num[32];
	int bad;

	if (len && strchr("BKMG", v[len - 1]) && len < sizeof(num)) {
		memcpy(num, v, len + 1);
		if (v[len - 1] == 'B')
			num[len - 1] = 0;
		bad = parse_bytes(num, &x) || x % page;
		x /= page;
	} else {
		bad = parse_u64(v, 1, OPT_MAX_MMAP_PAGES, &x);
	}
	if (bad || x < 1 || x > OPT_MAX_MMAP_PAGES || (x & (x - 1))) {
		snprintf(err, n, "'%s' is not a power of two of pages from 1 to %u, or a size "
			 "with B, K, M or G that makes one (pages of %llu bytes)", v,
			 OPT_MAX_MMAP_PAGES, (unsigned long long)page);
		return -1;
	}
	o->mmap_pages = (uint32_t)x;
	return 0;
}

static int set_cp_budget(struct rt_options *o, const char *v, char *err, size_t n)
{
	uint64_t b;

	if (parse_bytes(v, &b) || (b && b < OPT_MIN_CP_BUDGET)) {
		snprintf(err, n, "'%s' is not 0 (no limit) or a number of bytes of at least %llu "
			 "(K, M and G multiply by 1024, 1024^2 and 1024^3)", v,
			 (unsigned long long)OPT_MIN_CP_BUDGET);
		return -1;
	}
	o->cp_budget = b;
	return 0;
}

static int set_rare_paths(struct rt_options *o, const char *v, char *err, size_t n)
{
	double pct;

	if (parse_real(v, 0, 100, &pct)) {
		snprintf(err, n, "'%s' is not a percentage from 0 to 100", v);
		return -1;
	}
	o->rare_paths = pct / 100;
	return 0;
}

static int set_checkpoint(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (parse_real(v, 0, 86400, &o->checkpoint) ||
	    (o->checkpoint > 0 && o->checkpoint < 0.1)) {
		snprintf(err, n, "'%s' is not 0 (off) or a number of seconds from 0.1 to 86400", v);
		return -1;
	}
	return 0;
}

static int set_merge(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (!strcmp(v, "none"))
		o->merge = MERGE_NONE;
	else if (!strcmp(v, "mpi"))
		o->merge = MERGE_MPI;
	else {
		snprintf(err, n, "'%s' is not one of none, mpi", v);
		return -1;
	}
	return 0;
}

static int set_rank_files(struct rt_options *o, const char *v, char *err, size_t n)
{
	return set_flag(&o->rank_files, v, err, n);
}

static int set_merge_timeout(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (parse_real(v, 0.1, 3600, &o->merge_timeout)) {
		snprintf(err, n, "'%s' is not a number of seconds from 0.1 to 3600", v);
		return -1;
	}
	return 0;
}

static int set_backend(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (!strcmp(v, "perf"))
		o->backend = BACKEND_PERF;
	else if (!strcmp(v, "papi"))
		o->backend = BACKEND_PAPI;
	else {
		snprintf(err, n, "'%s' is not one of perf, papi", v);
		return -1;
	}
	return 0;
}

/* Component names are checked when PAPI starts (papi.c): only PAPI knows
 * them.  Here only the list's shape. */
static int set_papi_disable(struct rt_options *o, const char *v, char *err, size_t n)
{
	if (!*v || strlen(v) >= sizeof(o->papi_disable) || v[0] == ',' ||
	    v[strlen(v) - 1] == ',' || strstr(v, ",,")) {
		snprintf(err, n, "'%s' is not 'all' or a comma-separated list of PAPI components", v);
		return -1;
	}
	strcpy(o->papi_disable, v);
	return 0;
}

const struct opt_desc opt_table[] = {
	{ 'e', "event", "CPPERF_EVENT", "EVENTS",
	  "events to sample, as `cpperf list` names them; {a,b} samples a and reads b", set_events, NULL, NULL },
	{ 'F', "freq", "CPPERF_FREQ", "HZ",
	  "samples per second per thread (default 1000)", set_freq, "CPPERF_PERIOD", NULL },
	{ 'c', "count", "CPPERF_PERIOD", "N",
	  "sample every N events instead of at a frequency", set_period, "CPPERF_FREQ", NULL },
	{ 0, "call-graph", "CPPERF_CALL_GRAPH", "MODE",
	  "dwarf (default), fp (frame pointers) or none", set_call_graph, NULL, NULL },
	{ 0, "stack-size", "CPPERF_STACK_SIZE", "BYTES",
	  "user stack bytes copied per sample in dwarf mode (default 16384)", set_stack_size, NULL, NULL },
	{ 'm', "mmap-pages", "CPPERF_MMAP_PAGES", "PAGES",
	  "ring buffer size per thread, in pages (a power of two) or with B/K/M/G "
	  "(default: 64 ms of samples at the rate, at most 2M; less when locked memory is short)",
	  set_mmap_pages, NULL, NULL },
	{ 'o', "output", "CPPERF_OUTPUT", "DIR",
	  "experiment directory (default cpperf-PROG-TIME-ID)", set_output, NULL, NULL },
	{ 0, "group-readable", "CPPERF_GROUP_READABLE", NULL,
	  "let the group read the experiment: directory 0750, files 0640 (default 0700 and 0600: "
	  "profiles hold the command line)", set_group_readable, NULL, NULL },
	{ 'q', "quiet", "CPPERF_QUIET", NULL, "no notices on stderr", set_quiet, NULL, NULL },
	{ 0, "checkpoint", "CPPERF_CHECKPOINT", "SECONDS",
	  "rewrite the profile every SECONDS while the program runs, so a killed run keeps "
	  "what was measured (default 60; 0: off)", set_checkpoint, NULL, NULL },
	{ 0, "follow-fork", "CPPERF_FOLLOW_FORK", NULL,
	  "also profile the children the program forks", set_follow_fork, NULL, NULL },
	{ 0, "separate-debug", "CPPERF_SEPARATE_DEBUG", NULL,
	  "also name frames from separate debug files (distribution debug packages): inline frames "
	  "and source files of those libraries, for their decompression in every process",
	  set_separate_debug, NULL, NULL },
	{ 0, "no-activity", "CPPERF_ACTIVITY", NULL,
	  "keep no thread activity (sequential and concurrent time, idleness; docs/threads.md)",
	  set_activity, NULL, "0" },
	{ 0, "backend", "CPPERF_BACKEND", "NAME", "perf (default) or papi", set_backend, NULL, NULL },
	{ 0, "papi-disable", "CPPERF_PAPI_DISABLE", "COMPONENTS",
	  "PAPI: components to disable before PAPI starts, comma-separated, or all "
	  "(see papi_component_avail)", set_papi_disable, NULL, NULL },
	{ 0, "no-piggyback", "CPPERF_PIGGYBACK", NULL,
	  "MPI: send no piggyback with messages (statistics continue)", set_piggyback, NULL, "0" },
	{ 0, "no-waits", "CPPERF_WAITS", NULL,
	  "MPI: keep no wait states and no activity graph (the rest continues)", set_waits, NULL, "0" },
	{ 0, "cp-trace", "CPPERF_CP_TRACE", NULL,
	  "MPI: also log every critical-path event, for `cpperf report --view=cp --reference` "
	  "(a debugging aid: memory grows with the number of MPI calls)", set_cp_trace, NULL, NULL },
	{ 0, "cp-functions", "CPPERF_CP_FUNCTIONS", "F1,F2,...",
	  "MPI: critical-path zeroing for these functions (up to 8): how much shorter the path "
	  "would be without each", set_cp_functions, "CPPERF_CP_AUTO", NULL },
	{ 0, "cp-auto", "CPPERF_CP_AUTO", "K",
	  "MPI: zeroing for the top K functions (1-8) by samples on rank 0 after the warm-up",
	  set_cp_auto, "CPPERF_CP_FUNCTIONS", NULL },
	{ 0, "cp-warmup", "CPPERF_CP_WARMUP", "SECONDS",
	  "MPI: time before --cp-auto chooses (default 1)", set_cp_warmup, NULL, NULL },
	{ 0, "cp-interval", "CPPERF_CP_INTERVAL", "SECONDS",
	  "MPI: record the run's critical-path length every SECONDS on rank 0 (0: off)",
	  set_cp_interval, NULL, NULL },
	{ 0, "cp-budget", "CPPERF_CP_BUDGET", "BYTES",
	  "MPI: bytes of critical-path records a rank keeps (default 1M; 0: no limit); past it "
	  "the oldest are dropped and the report walks the path's latest part", set_cp_budget, NULL, NULL },
	{ 0, "rare-paths", "CPPERF_RARE_PATHS", "PERCENT",
	  "call paths with less than PERCENT % of the process's samples are written as one "
	  "[rare paths] node under their caller (default 0.05; 0: every path)", set_rare_paths,
	  NULL, NULL },
	{ 0, "merge", "CPPERF_MERGE", "MODE",
	  "MPI: none (default: each rank writes its profile) or mpi (the ranks also reduce "
	  "their profiles at MPI_Finalize into one, merged.cpprof)", set_merge, NULL, NULL },
	{ 0, "no-rank-files", "CPPERF_RANK_FILES", NULL,
	  "MPI, with --merge=mpi: remove each rank's profile once the merged one is written",
	  set_rank_files, NULL, "0" },
	{ 0, "merge-timeout", "CPPERF_MERGE_TIMEOUT", "SECONDS",
	  "MPI, with --merge=mpi: how long a rank waits for the others at each step (default 5); "
	  "past it the merge is given up and the ranks' files stay", set_merge_timeout, NULL, NULL },
	{ 0, "cost-cache", "CPPERF_COST_CACHE", "DIR",
	  "MPI: where the costs measured at MPI_Init (a sample, a context switch) are kept per "
	  "host and boot; once 5 runs have measured them, runs within a day take their median "
	  "instead (default $XDG_CACHE_HOME/cpperf or ~/.cache/cpperf; none: measure every run)",
	  set_cost_cache, NULL, NULL },
	{ 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL }
};

void opt_defaults(struct rt_options *o)
{
	memset(o, 0, sizeof(*o));
	o->freq = OPT_DEFAULT_FREQ;
	o->call_graph = CG_DWARF;
	o->stack_size = OPT_DEFAULT_STACK;
	o->backend = BACKEND_PERF;
	o->piggyback = true;
	o->waits = true;
	o->activity = true;
	o->cp_warmup = OPT_DEFAULT_CP_WARMUP;
	o->checkpoint = OPT_DEFAULT_CHECKPOINT;
	o->cp_budget = OPT_DEFAULT_CP_BUDGET;
	o->rare_paths = OPT_DEFAULT_RARE_PATHS;
	o->rank_files = true;
	o->merge_timeout = OPT_DEFAULT_MERGE_TIMEOUT;
}

int opt_apply(const struct opt_desc *d, struct rt_options *o, const char *value,
	      char *err, size_t errlen)
{
	char why[512];

	if (d->parse(o, value, why, sizeof(why)) == 0)
		return 0;
	snprintf(err, errlen, "--%s: %s", d->long_name, why);
	return -1;
}

int opt_from_env(struct rt_options *o, char *err, size_t errlen)
{
	char why[512];

	for (const struct opt_desc *d = opt_table; d->long_name; d++) {
		const char *v = getenv(d->env);

		if (!v)
			continue;
		if (d->parse(o, v, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", d->env, why);
			return -1;
		}
	}
	return 0;
}

mode_t opt_file_mode(const struct rt_options *o)
{
	return o->group_readable ? PROFILE_GROUP_MODE : PROFILE_MODE;
}

mode_t opt_dir_mode(const struct rt_options *o)
{
	return o->group_readable ? OPT_GROUP_DIR_MODE : OPT_DIR_MODE;
}

const char *opt_call_graph_name(enum opt_call_graph cg)
{
	return cg == CG_DWARF ? "dwarf" : cg == CG_FP ? "fp" : "none";
}

const char *opt_backend_name(enum opt_backend b)
{
	return b == BACKEND_PAPI ? "papi" : "perf";
}
