/*
 * papi.c - PAPI event names, overflow thresholds and the check that PAPI
 * can sample on this host.  cpperf-record calls papi_check before the
 * program starts; the runtime calls papi_start once per process.  With
 * HAVE_PAPI=0 both fail with a message saying how to get PAPI.
 */
#include "papi.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#if HAVE_PAPI
#include <pthread.h>
#include <unistd.h>

#include "lazy-libs.h"

#define WHY_PAPI "--backend=papi: "

/* The process that initialised PAPI; 0 before.  Written once by the
 * thread that starts the runtime (or cpperf-record's main). */
static pid_t papi_init_pid;

static unsigned long papi_thread_id(void)
{
	return (unsigned long)pthread_self();
}

/* Disable the components named in list ("all": every one) before PAPI
 * starts: for hosts where a component misbehaves, and for tests of the
 * branch where PAPI has none that samples.  Returns 0, or -1 with a
 * message naming the component PAPI does not have. */
static int disable_components(const char *list, char *err, size_t errlen)
{
	char names[512] = "";
	const char *p = list;
	int n = sym_PAPI_num_components();

	if (!*list)
		return 0;
	if (!strcmp(list, "all")) {
		for (int i = 0; i < n; i++)
			sym_PAPI_disable_component(i);
		return 0;
	}
	for (; *p; p += *p == ',') {
		size_t len = strcspn(p, ",");
		char name[PAPI_MAX_STR_LEN];

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		p += len;
		if (sym_PAPI_disable_component_by_name(name) == PAPI_OK)
			continue;
		for (int i = 0; i < n; i++) {
			const PAPI_component_info_t *ci = sym_PAPI_get_component_info(i);
			size_t used = strlen(names);

			if (ci)
				snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "", ci->name);
		}
		snprintf(err, errlen, "--papi-disable: '%s' is not a component of this PAPI (%s)", name, names);
		return -1;
	}
	return 0;
}

/* Initialise PAPI and its thread support once per process, with the
 * components of --papi-disable disabled.  Returns 0, or -1 with a
 * message. */
static int papi_init(const struct rt_options *o, char *err, size_t errlen)
{
	char why[256];
	int r;

	if (papi_init_pid == getpid())
		return 0;
	if (papi_init_pid) {
		snprintf(err, errlen, WHY_PAPI "PAPI cannot be used in a forked child of a profiled process; "
			 "profile it with --backend=perf");
		return -1;
	}
	if (lazy_papi_open(why, sizeof(why))) {
		snprintf(err, errlen, WHY_PAPI "%s", why);
		return -1;
	}
	if (disable_components(o->papi_disable, err, errlen))
		return -1;
	r = sym_PAPI_library_init(PAPI_VER_CURRENT);
	if (r != PAPI_VER_CURRENT) {
		snprintf(err, errlen, WHY_PAPI "PAPI does not start (%s); check it with papi_component_avail",
			 r > 0 ? "the library's version differs from the headers'" : sym_PAPI_strerror(r));
		return -1;
	}
	r = sym_PAPI_thread_init(papi_thread_id);
	if (r != PAPI_OK) {
		snprintf(err, errlen, WHY_PAPI "PAPI has no thread support here (%s)", sym_PAPI_strerror(r));
		return -1;
	}
	papi_init_pid = getpid();
	return 0;
}

/* Why PAPI may not know a perf:: name: its perf_event component, which
 * provides them, is disabled.  "" when it is not. */
static void perf_names_why(const char *name, char *why, size_t len)
{
	int cidx = sym_PAPI_get_component_index("perf_event");
	const PAPI_component_info_t *ci = cidx >= 0 ? sym_PAPI_get_component_info(cidx) : NULL;

	why[0] = 0;
	if (!strncasecmp(name, "perf::", 6) && (!ci || ci->disabled))
		snprintf(why, len, " (PAPI's perf_event component, which provides perf:: names, is %s: %.300s)",
			 ci ? "disabled" : "missing", ci ? ci->disabled_reason : "not built in");
}

/* Split spec into names known to PAPI.  Returns 0, or -1 with a message. */
static int parse_names(const char *spec, struct ev_list *out, char *err, size_t errlen)
{
	const char *p = spec;

	memset(out, 0, sizeof(*out));
	if (strpbrk(spec, "{}")) {
		snprintf(err, errlen, WHY_PAPI "'%s': PAPI event lists have no {groups}; "
			 "list the events with commas, each one samples", spec);
		return -1;
	}
	for (;;) {
		size_t n = strcspn(p, ",");
		struct ev_spec *ev = &out->ev[out->n];
		int code;

		if (!n || n >= sizeof(ev->name) || out->n == EV_MAX) {
			snprintf(err, errlen, WHY_PAPI "'%s': %s", spec, !n ? "empty event name" :
				 out->n == EV_MAX ? "too many events (at most 16)" : "event name too long");
			return -1;
		}
		memcpy(ev->name, p, n);
		if (sym_PAPI_event_name_to_code(ev->name, &code) != PAPI_OK) {
			char why[512];

			perf_names_why(ev->name, why, sizeof(why));
			snprintf(err, errlen, WHY_PAPI "event '%s' is not known to PAPI%s; list the names "
				 "with papi_avail (presets) and papi_native_avail (native events)", ev->name, why);
			return -1;
		}
		ev->leader = out->n++;
		ev->hardware = true;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* Is name (ignoring case and :modifiers) one of the NULL-terminated list? */
static bool name_is(const char *name, const char *const *list)
{
	size_t n = strncasecmp(name, "perf::", 6) ? 0 : 6;

	n += strcspn(name + n, ":");
	for (; *list; list++)
		if (strlen(*list) == n && !strncasecmp(name, *list, n))
			return true;
	return false;
}

int papi_threshold(const struct rt_options *o, const char *name, int *threshold,
		   char *err, size_t errlen)
{
	static const char *const cycles[] = { "PAPI_TOT_CYC", NULL };
	static const char *const clocks[] = {
		"perf::TASK-CLOCK", "perf::CPU-CLOCK",
		"perf::PERF_COUNT_SW_TASK_CLOCK", "perf::PERF_COUNT_SW_CPU_CLOCK", NULL
	};
	const PAPI_hw_info_t *hw;
	uint64_t t = o->period;

	if (!t && name_is(name, clocks)) {
		t = 1000000000ull / o->freq;
	} else if (!t && name_is(name, cycles)) {
		hw = sym_PAPI_get_hardware_info();
		if (!hw || hw->cpu_max_mhz <= 0) {
			snprintf(err, errlen, WHY_PAPI "PAPI does not know the CPU clock, so -F cannot "
				 "become a threshold for %s; give -c CYCLES", name);
			return -1;
		}
		t = (uint64_t)hw->cpu_max_mhz * 1000000ull / o->freq;
	} else if (!t) {
		snprintf(err, errlen, WHY_PAPI "-F works with PAPI_TOT_CYC and perf::TASK-CLOCK only; "
			 "give %s a threshold with -c N (events per sample)", name);
		return -1;
	}
	if (t < 1 || t > INT32_MAX) {
		snprintf(err, errlen, WHY_PAPI "the threshold for %s must be from 1 to %d events",
			 name, INT32_MAX);
		return -1;
	}
	*threshold = (int)t;
	return 0;
}

/* Why the component of code cannot sample, for the message. */
static void why_unusable(int code, int r, char *why, size_t len)
{
	int cidx = sym_PAPI_get_event_component(code);
	const PAPI_component_info_t *ci = cidx >= 0 ? sym_PAPI_get_component_info(cidx) : NULL;

	if (ci && ci->disabled)
		snprintf(why, len, "component %.64s: %.400s", ci->name, ci->disabled_reason);
	else if (ci && IS_PRESET(code) && ci->num_preset_events == 0)
		snprintf(why, len, "component %.64s has no preset events: no hardware counters", ci->name);
	else
		snprintf(why, len, "%s", sym_PAPI_strerror(r));
}

static void papi_probe_handler(int set, void *address, long long vector, void *context)
{
	(void)set, (void)address, (void)vector, (void)context;
}

/* Add ev to set with overflow on: PAPI_OK or PAPI's error (err set when
 * the options are at fault). */
static int add_sampling(const struct rt_options *o, int set, const struct ev_spec *ev,
			int *code, char *err, size_t errlen)
{
	int threshold, r;

	if (papi_threshold(o, ev->name, &threshold, err, errlen))
		return PAPI_EINVAL;
	sym_PAPI_event_name_to_code(ev->name, code);
	r = sym_PAPI_add_event(set, *code);
	if (r == PAPI_OK)
		r = sym_PAPI_overflow(set, *code, threshold, 0, papi_probe_handler);
	return r;
}

/* Start and stop an event set of the whole list with overflow on. */
static int probe(const struct rt_options *o, const struct ev_list *l, char *err, size_t errlen)
{
	long long values[EV_MAX];
	int set = PAPI_NULL, r = sym_PAPI_create_eventset(&set), code = 0;
	char why[512];

	err[0] = 0;
	for (int i = 0; r == PAPI_OK && i < l->n; i++)
		r = add_sampling(o, set, &l->ev[i], &code, err, errlen);
	if (r == PAPI_OK && (r = sym_PAPI_start(set)) == PAPI_OK)
		r = sym_PAPI_stop(set, values);
	sym_PAPI_cleanup_eventset(set);
	sym_PAPI_destroy_eventset(&set);
	if (r == PAPI_OK || err[0])
		return r == PAPI_OK ? 0 : -1;
	why_unusable(code, r, why, sizeof(why));
	snprintf(err, errlen, WHY_PAPI "PAPI cannot sample %s on this host (%s); use %s--backend=perf -e task-clock",
		 l->n == 1 ? l->ev[0].name : o->events, why,
		 sym_PAPI_event_name_to_code(PAPI_FALLBACK_EVENT, &code) == PAPI_OK ?
		 "a software event PAPI knows (-e " PAPI_FALLBACK_EVENT ") or " : "");
	return -1;
}

/* fp mode walks the kernel's callchains, which PAPI does not give. */
static int refuse_fp(const struct rt_options *o, char *err, size_t errlen)
{
	if (o->call_graph != CG_FP)
		return 0;
	snprintf(err, errlen, WHY_PAPI "--call-graph=fp needs the kernel's callchains, which PAPI "
		 "does not give; use --call-graph=dwarf (default) or none, or --backend=perf");
	return -1;
}

int papi_check(const struct rt_options *o, char *err, size_t errlen)
{
	struct ev_list l;

	if (refuse_fp(o, err, errlen) || papi_init(o, err, errlen) ||
	    parse_names(o->events, &l, err, errlen))
		return -1;
	return probe(o, &l, err, errlen);
}

int papi_start(const struct rt_options *o, struct ev_list *out, char *err, size_t errlen)
{
	return refuse_fp(o, err, errlen) || papi_init(o, err, errlen) ||
	       parse_names(o->events, out, err, errlen) ? -1 : 0;
}

#else /* !HAVE_PAPI */

#define NO_PAPI "--backend=papi: this cpperf was built without PAPI (install libpapi-dev and rebuild)"

int papi_check(const struct rt_options *o, char *err, size_t errlen)
{
	(void)o;
	snprintf(err, errlen, NO_PAPI);
	return -1;
}

int papi_start(const struct rt_options *o, struct ev_list *out, char *err, size_t errlen)
{
	(void)o, (void)out;
	snprintf(err, errlen, NO_PAPI);
	return -1;
}

int papi_threshold(const struct rt_options *o, const char *name, int *threshold,
		   char *err, size_t errlen)
{
	(void)o, (void)name, (void)threshold;
	snprintf(err, errlen, NO_PAPI);
	return -1;
}

#endif
