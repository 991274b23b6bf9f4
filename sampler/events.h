/*
 * events.h - turning the user's event list into perf_event_attr settings.
 *
 * Names are those of `perf list` and libpfm4 (task-clock, cycles,
 * inst_retired.any, perf::PERF_COUNT_SW_CPU_CLOCK, ...), encoded with
 * libpfm4.  "{a,b,c}" makes a group: the first event samples and the others
 * are read with each sample.  This file knows names, groups, and why an
 * event cannot be opened on this host; it does not know about ring buffers
 * or sample layouts (sampler/perf-session.c sets those).
 *
 * Error messages written into err/buf are one line, start in lower case,
 * have no "cpperf: " prefix and no trailing newline: the caller adds the
 * prefix and prints them once.
 */
#ifndef CPPERF_EVENTS_H
#define CPPERF_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define EV_MAX 16

struct ev_spec {
	char name[128];		/* as the user wrote it */
	struct perf_event_attr attr;	/* size, type, config, config1/2,
					 * exclude_*, precise_ip only */
	int leader;		/* index of the group leader; own index if none */
	bool hardware;		/* needs a PMU (not a software event) */
};

struct ev_list {
	struct ev_spec ev[EV_MAX];
	int n;
};

/*
 * Parse a comma-separated list with optional {..} groups.  Each event is
 * user-space only unless it carries a ":k" / ":u" style modifier that libpfm4
 * accepts.  Returns 0, or -1 with a message naming the bad event, close
 * matches, and `cpperf list`.
 *
 * Modifiers: any libpfm4 attribute except period/freq/cpu/pinned/excl
 * (":u", ":k", ":u:k", ":precise=2", ":mg", unit masks of PMU events), and
 * perf-style letter suffixes ":u", ":k", ":uk", ":h", ":p".."ppp".
 * Errors (empty list or name, unbalanced or nested braces, more than EV_MAX
 * events, duplicate names) give the 1-based column in the list.
 */
int ev_parse(const char *spec, struct ev_list *out, char *err, size_t errlen);

/* True when this host has a hardware PMU perf_event can use. */
bool ev_host_has_pmu(void);

/*
 * Check that every event of the list can be opened for the calling thread
 * (as cpperf-record does before it starts the program).  Returns 0, or -1
 * with a message that explains the errno for that event (no PMU, paranoid
 * level, unsupported) and what to do.
 */
int ev_probe(const struct ev_list *l, char *err, size_t errlen);

/* Message for perf_event_open's errno on event name (used by ev_probe and
 * by the runtime when opening fails in a thread). */
void ev_explain_errno(int err_no, const char *name, bool hardware,
		      char *buf, size_t buflen);

/* /proc/sys/kernel/NAME (perf_event_paranoid, perf_event_mlock_kb), or
 * INT32_MIN when unreadable. */
int ev_kernel_setting(const char *name);

/* Print the events this host offers, `perf list` style (cpperf list). */
void ev_print_list(FILE *out);

/* ev_print_list plus every libpfm4 event of the PMUs usable here
 * (cpperf list --all). */
void ev_print_all(FILE *out);

#endif
