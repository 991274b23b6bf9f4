/*
 * test-events.c - unit tests for sampler/events.c: parsing event lists
 * (names, modifiers, groups, every syntax error), unknown-name suggestions,
 * probing on this host (with or without a PMU), errno explanations and the
 * `cpperf list` output, and software events encoded without libpfm4 as
 * libpfm4 encodes them.  Host-dependent checks pick their expectation from
 * ev_host_has_pmu() so they mean something on both kinds of host.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>

#include "../../sampler/events-int.h"
#include "files.h"
#include "tap.h"

static struct ev_list L;
static char err[1024];

static int has(const char *s, const char *sub)
{
	if (!strstr(s, sub)) {
		printf("#   '%s' does not contain '%s'\n", s, sub);
		return 0;
	}
	return 1;
}

static int parse(const char *spec)
{
	err[0] = '\0';
	return ev_parse(spec, &L, err, sizeof(err));
}

static void test_single(void)
{
	is_int(parse("task-clock"), 0, "task-clock parses");
	is_int(L.n, 1, "one event");
	is_str(L.ev[0].name, "task-clock", "name kept");
	is_int(L.ev[0].attr.type, PERF_TYPE_SOFTWARE, "task-clock is software");
	is_int(L.ev[0].attr.config, PERF_COUNT_SW_TASK_CLOCK, "task-clock config");
	is_int(L.ev[0].attr.exclude_kernel, 1, "user only by default: kernel excluded");
	is_int(L.ev[0].attr.exclude_hv, 1, "user only by default: hv excluded");
	is_int(L.ev[0].attr.exclude_user, 0, "user counted");
	is_int(L.ev[0].attr.sample_period, 0, "no sampling fields set");
	is_int(L.ev[0].leader, 0, "own leader");
	ok(!L.ev[0].hardware, "task-clock is not hardware");

	is_int(parse("cycles"), 0, "cycles parses on any host");
	is_int(L.ev[0].attr.type, PERF_TYPE_HARDWARE, "cycles is PERF_TYPE_HARDWARE");
	is_int(L.ev[0].attr.config, PERF_COUNT_HW_CPU_CYCLES, "cycles config");
	ok(L.ev[0].hardware, "cycles is hardware");

	is_int(parse("L1-dcache-load-misses"), 0, "cache event parses");
	is_int(L.ev[0].attr.type, PERF_TYPE_HW_CACHE, "cache event type");
	ok(L.ev[0].hardware, "cache event is hardware");

	is_int(parse("cs"), 0, "perf alias cs parses");
	is_int(L.ev[0].attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES, "cs = context-switches");
	is_int(parse("perf::PERF_COUNT_SW_CPU_CLOCK"), 0, "libpfm4 name parses");
	is_int(L.ev[0].attr.config, PERF_COUNT_SW_CPU_CLOCK, "libpfm4 name config");
	is_int(parse("alignment-faults"), 0, "name libpfm4 lacks parses from the table");
	is_int(L.ev[0].attr.config, PERF_COUNT_SW_ALIGNMENT_FAULTS, "alignment-faults config");
	is_int(L.ev[0].attr.exclude_kernel, 1, "table event is user only");
}

static void test_modifiers(void)
{
	is_int(parse("task-clock:k"), 0, ":k parses");
	is_int(L.ev[0].attr.exclude_kernel, 0, ":k counts kernel");
	is_int(L.ev[0].attr.exclude_user, 1, ":k excludes user");
	is_int(parse("task-clock:u"), 0, ":u parses");
	is_int(L.ev[0].attr.exclude_kernel, 1, ":u excludes kernel");
	is_int(L.ev[0].attr.exclude_user, 0, ":u counts user");
	is_int(parse("cycles:uk"), 0, "perf-style :uk parses");
	ok(!L.ev[0].attr.exclude_user && !L.ev[0].attr.exclude_kernel, ":uk counts both");
	is_int(L.ev[0].attr.exclude_hv, 1, ":uk still excludes hv");
	is_int(parse("task-clock:u:k"), 0, "libpfm4-style :u:k parses");
	ok(!L.ev[0].attr.exclude_user && !L.ev[0].attr.exclude_kernel, ":u:k counts both");
	is_int(parse("alignment-faults:k"), 0, ":k on a table event");
	is_int(L.ev[0].attr.exclude_user, 1, ":k on a table event excludes user");
	is_int(parse("cycles:pp"), 0, ":pp parses");
	is_int(L.ev[0].attr.precise_ip, 2, ":pp sets precise_ip 2");

	is_int(parse("cycles:pppp"), -1, "four p rejected");
	ok(has(err, "cycles:pppp"), "four p: message names the event");
	is_int(parse("cycles:zz"), -1, "unknown modifier rejected");
	ok(has(err, "'cycles:zz'") && has(err, "modifier"), "bad modifier: message names it");
	is_int(parse("task-clock:period=1000"), -1, "period modifier rejected");
	ok(has(err, "-c") && has(err, "task-clock:period=1000"), "period: message says use -c");
}

static void test_groups(void)
{
	is_int(parse("{cpu-clock,page-faults,cs}"), 0, "group parses");
	is_int(L.n, 3, "group has three events");
	ok(L.ev[0].leader == 0 && L.ev[1].leader == 0 && L.ev[2].leader == 0,
	   "members point at the first event");

	is_int(parse("task-clock,{cpu-clock,page-faults}"), 0, "mixed list parses");
	ok(L.ev[0].leader == 0 && L.ev[1].leader == 1 && L.ev[2].leader == 1,
	   "single event leads itself, group led by its first");

	is_int(parse("{task-clock,cs},{cpu-clock,faults},minor-faults"), 0, "two groups parse");
	ok(L.n == 5 && L.ev[1].leader == 0 && L.ev[2].leader == 2 && L.ev[3].leader == 2 &&
	   L.ev[4].leader == 4, "leaders 0,0,2,2,4");

	is_int(parse("  task-clock ,\t{ cpu-clock , page-faults } "), 0, "white space tolerated");
	is_str(L.ev[0].name, "task-clock", "name trimmed (single)");
	is_str(L.ev[2].name, "page-faults", "name trimmed (group)");
	is_int(L.ev[2].leader, 1, "leader with white space");

	is_int(parse("{task-clock}"), 0, "one-event group");
	is_int(L.ev[0].leader, 0, "one-event group leads itself");
}

/* spec must fail with a message containing want1 and want2 and no events. */
static void fails(const char *spec, const char *want1, const char *want2, const char *what)
{
	char name[160];
	int r = parse(spec);
	snprintf(name, sizeof(name), "error: %s", what);
	ok(r == -1 && L.n == 0 && has(err, want1) && has(err, want2) &&
	   strncmp(err, "cpperf:", 7), name);
}

static void test_errors(void)
{
	char many[512] = "", longname[200];

	fails("", "empty event list", "", "empty list");
	fails("   ", "empty event list", "", "blank list");
	fails("task-clock,,cs", "empty event name", "column 12 of", "empty name");
	fails("task-clock,", "empty event name", "column 12 of", "trailing comma");
	fails("{}", "empty event name", "column 2 of", "empty group");
	fails("{task-clock,cs", "unbalanced '{'", "column 1 of", "missing }");
	fails("task-clock}", "unbalanced '}'", "column 11 of", "stray }");
	fails("{task-clock,{cs}}", "nested '{'", "column 13 of", "nested group");
	fails("{task-clock}cs", "expected ','", "column 13 of", "junk after }");
	fails("task-clock{cs}", "expected ','", "column 11 of", "{ after a name");
	fails("cs,CS", "duplicate event 'CS'", "column 4 of", "duplicate, any case");
	fails("{bogus-event,cs", "unbalanced", "column 1 of", "syntax reported before names");
	/* 17 distinct valid names: the 17th is over the limit */
	static const char *const names[] = {
		"task-clock", "cpu-clock", "page-faults", "cs", "migrations",
		"minor-faults", "major-faults", "alignment-faults", "emulation-faults",
		"task-clock:u", "cpu-clock:u", "page-faults:u", "cs:u", "migrations:u",
		"minor-faults:u", "major-faults:u", "task-clock:k",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%s",
			 i ? "," : "", names[i]);
	is_int(sizeof(names) / sizeof(names[0]), EV_MAX + 1, "test list has EV_MAX+1 names");
	many[strlen(many) - strlen(",task-clock:k")] = '\0';
	is_int(parse(many), 0, "EV_MAX events are fine");
	is_int(L.n, EV_MAX, "EV_MAX events parsed");
	strcat(many, ",task-clock:k");
	fails(many, "too many events: 'task-clock:k'", "number 17", "more than EV_MAX");
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	fails(longname, "longer than 127", "column 1 of", "name too long");
}

static void test_unknown(void)
{
	is_int(parse("task-clok"), -1, "task-clok unknown");
	ok(has(err, "unknown event 'task-clok'"), "names the unknown event");
	ok(has(err, "did you mean: task-clock"), "suggests task-clock first");
	ok(has(err, "cpu-clock"), "also suggests the less close cpu-clock");
	ok(has(err, "run 'cpperf list' for the events this host offers"), "points at cpperf list");
	is_int(parse("cylces"), -1, "cylces unknown");
	ok(has(err, "did you mean: cycles"), "suggests cycles for cylces");
	is_int(parse("task-clock,Page-Fualts"), -1, "typo in second event");
	ok(has(err, "'Page-Fualts'") && has(err, "page-faults"), "suggestion ignores case");
	is_int(parse("task-clok:u"), -1, "typo with modifier");
	ok(has(err, "'task-clok:u'") && has(err, "task-clock"), "suggests from the base name");
	is_int(parse("PERF_COUNT_SW_TASK_CLCK"), -1, "typo in a libpfm4 name");
	ok(has(err, "PERF_COUNT_SW_TASK_CLOCK"), "suggests libpfm4 names of present PMUs");
	is_int(parse("qqqqqqqqzz"), -1, "nothing close");
	ok(!strstr(err, "did you mean"), "no suggestions when nothing is close");
	ok(has(err, "cpperf list"), "still points at cpperf list");

	char tiny[8];
	memset(tiny, 'Z', sizeof(tiny));
	is_int(ev_parse("task-clok", &L, tiny, sizeof(tiny)), -1, "small err buffer");
	is_int(strlen(tiny), sizeof(tiny) - 1, "message truncated and terminated");
	is_int(ev_parse("task-clok", &L, NULL, 0), -1, "NULL err with errlen 0");
}

static void test_probe(void)
{
	bool pmu = ev_host_has_pmu();
	int fds = open_fds();

	ok(ev_host_has_pmu() == pmu, "ev_host_has_pmu answer is stable");
	parse("task-clock");
	if (ev_probe(&L, err, sizeof(err)) && strstr(err, "perf_event_paranoid")) {
		/* a host that lets no process sample itself: the message is all */
		ok(has(err, "'task-clock'"), "refused by the host: the event is named");
		tap_skip("probes that open events", err);
		return;
	}
	ok(1, "task-clock opens here");
	parse("{task-clock,page-faults}");
	is_int(ev_probe(&L, err, sizeof(err)), 0, "{task-clock,page-faults} opens as a group");
	parse("task-clock,{cpu-clock,cs}");
	is_int(ev_probe(&L, err, sizeof(err)), 0, "mixed list opens");

	is_int(parse("{task-clock,cycles}"), 0, "{task-clock,cycles} parses");
	int r = ev_probe(&L, err, sizeof(err));
	if (pmu) {
		is_int(r, 0, "PMU host: cycles in a group opens");
	} else {
		is_int(r, -1, "no PMU: cycles cannot be opened");
		ok(has(err, "event 'cycles' needs a hardware PMU and this host has none") &&
		   has(err, "task-clock") && has(err, "cpperf list"), "no-PMU message");
	}
	is_int(open_fds(), fds, "probe closes every event it opened");
}

static void test_explain(void)
{
	char buf[1024], want[64];
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int paranoid = -99;

	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = -99;
		fclose(f);
	}
	ev_explain_errno(ENOENT, "cycles", true, buf, sizeof(buf));
	if (ev_host_has_pmu())
		ok(has(buf, "'cycles' is not supported by this host's PMU"), "ENOENT, PMU host");
	else
		ok(has(buf, "'cycles' needs a hardware PMU and this host has none"), "ENOENT, no PMU");
	ev_explain_errno(EOPNOTSUPP, "instructions", true, buf, sizeof(buf));
	ok(has(buf, "'instructions'") && (ev_host_has_pmu() ? has(buf, "not supported")
					    : has(buf, "needs a hardware PMU")), "EOPNOTSUPP");
	ev_explain_errno(ENOENT, "task-clock", false, buf, sizeof(buf));
	ok(has(buf, "'task-clock' is not supported by this kernel"), "ENOENT, software event");

	/* kernel events need perf_event_paranoid at 1 or lower, user-space
	 * ones at 2 or lower; refused where it allows them, something else
	 * refuses */
	ev_explain_errno(EACCES, "cycles:k", true, buf, sizeof(buf));
	if (paranoid != -99 && paranoid <= 1) {
		snprintf(want, sizeof(want), "perf_event_paranoid (%d) allows it", paranoid);
		ok(has(buf, "'cycles:k'") && has(buf, want) && has(buf, "seccomp"),
		   "EACCES, the sysctl allows: something else refuses");
	} else {
		snprintf(want, sizeof(want), "perf_event_paranoid is %d", paranoid);
		ok(has(buf, "'cycles:k'") && has(buf, want) && has(buf, ":u"),
		   "EACCES: paranoid value, :u");
	}
	ev_explain_errno(EPERM, "task-clock", false, buf, sizeof(buf));
	ok(has(buf, "EPERM") && has(buf, "perf_event_paranoid"), "EPERM");
	if (paranoid != -99 && paranoid <= 2)
		ok(has(buf, "allows it") && has(buf, "CAP_PERFMON"), "EPERM, the sysctl allows: what else");
	else
		ok(has(buf, "sysctl -w kernel.perf_event_paranoid=2"), "EPERM: how to allow it");

	ev_explain_errno(EINVAL, "cycles:pp", true, buf, sizeof(buf));
	ok(has(buf, "'cycles:pp'") && has(buf, "invalid for this PMU"), "EINVAL");
	ev_explain_errno(EMFILE, "task-clock", false, buf, sizeof(buf));
	ok(has(buf, "too many open files") && has(buf, "ulimit -n"), "EMFILE");
	ev_explain_errno(EBUSY, "task-clock", false, buf, sizeof(buf));
	ok(has(buf, "'task-clock'") && has(buf, strerror(EBUSY)), "other errno: strerror");

	char tiny[10];
	ev_explain_errno(EINVAL, "task-clock", false, tiny, sizeof(tiny));
	is_int(strlen(tiny), sizeof(tiny) - 1, "explanation truncated and terminated");
}

/* Run print into a tmpfile and return its text (static buffer). */
static const char *capture(void (*print)(FILE *))
{
	static char text[1 << 20];
	FILE *f = tmpfile();
	size_t n = 0;

	text[0] = '\0';
	if (!f)
		return text;
	print(f);
	rewind(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void test_list(void)
{
	const char *t = capture(ev_print_list);

	ok(has(t, "Software events:"), "list: software section");
	if (strstr(t, "(none can be opened here: ")) {
		/* a host that lets no process open events: the reason is all */
		ok(has(t, "'task-clock'"), "list: refused by the host, the reason given");
		tap_skip("the events listed", "this host lets no process open events");
		return;
	}
	ok(has(t, "  task-clock "), "list: task-clock");
	ok(has(t, "page-faults OR faults"), "list: alias shown");
	if (ev_host_has_pmu()) {
		ok(has(t, "[Hardware event]") && has(t, "cycles"), "list: PMU host lists cycles");
		ok(has(t, "cpperf list --all"), "list: points at --all");
	} else {
		ok(has(t, "no hardware PMU on this host: hardware events (cycles, instructions, ...) "
			  "are unavailable; software events work"), "list: no-PMU note");
		ok(!strstr(t, "[Hardware event]"), "list: no hardware events without a PMU");
	}
	t = capture(ev_print_all);
	ok(has(t, "Software events:") && has(t, "perf::PERF_COUNT_SW_TASK_CLOCK"),
	   "list --all: libpfm4 names of the perf PMU");
	if (ev_host_has_pmu())
		ok(has(t, "perf::PERF_COUNT_HW_CPU_CYCLES"), "list --all: PMU host lists hardware names");
	else
		ok(!strstr(t, "perf::PERF_COUNT_HW_CPU_CYCLES"), "list --all: no hardware names without a PMU");
}

/*
 * perf's software events are encoded without opening libpfm4, exactly as
 * libpfm4 encodes them (its spelling of the :u and :k modifiers is
 * perf's).  Runs first: nothing has opened libpfm4 yet.
 */
static void test_software_without_libpfm(void)
{
	static const char *const names[] = {
		"task-clock", "cpu-clock", "page-faults", "faults", "context-switches", "cs",
		"cpu-migrations", "migrations", "minor-faults", "major-faults",
		"task-clock:u", "cpu-clock:k", "TASK-CLOCK",
	};
	enum { N = sizeof(names) / sizeof(names[0]) };
	struct perf_event_attr ours[N];
	char why[256], name[128];

	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "%s parses", names[i]);
		is_int(parse(names[i]), 0, name);
		ours[i] = L.ev[0].attr;
	}
	ok(!dlopen(LIBPFM_SONAME, RTLD_NOW | RTLD_NOLOAD), "software events leave libpfm4 unopened");
	if (!ok(ev_pfm_init(why, sizeof(why)) == 0, "libpfm4 opens once needed")) {
		printf("#   %s\n", why);
		return;
	}
	for (int i = 0; i < N; i++) {
		const struct perf_event_attr *a = &ours[i];
		struct perf_event_attr p;

		memset(&p, 0, sizeof(p));
		snprintf(name, sizeof(name), "%s: encoded as libpfm4 encodes it", names[i]);
		if (!ok(ev_pfm_encode(names[i], &p, err, sizeof(err)) == 0 &&
			a->type == p.type && a->config == p.config &&
			a->exclude_user == p.exclude_user && a->exclude_kernel == p.exclude_kernel &&
			a->exclude_hv == p.exclude_hv && a->exclude_idle == p.exclude_idle &&
			a->exclude_host == p.exclude_host && a->exclude_guest == p.exclude_guest &&
			a->precise_ip == p.precise_ip, name))
			printf("#   ours: type %u config %llu excl u%d k%d hv%d guest%d; libpfm4: "
			       "type %u config %llu excl u%d k%d hv%d guest%d %s\n", a->type,
			       (unsigned long long)a->config, a->exclude_user, a->exclude_kernel,
			       a->exclude_hv, a->exclude_guest, p.type, (unsigned long long)p.config,
			       p.exclude_user, p.exclude_kernel, p.exclude_hv, p.exclude_guest, err);
	}
}

int main(void)
{
	test_software_without_libpfm();
	test_single();
	test_modifiers();
	test_groups();
	test_errors();
	test_unknown();
	test_probe();
	test_explain();
	test_list();
	return tap_done();
}
