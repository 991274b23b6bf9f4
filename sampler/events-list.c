/*
 * events-list.c - `cpperf list`: print the events this host offers, perf's
 * generic names that open here and (with --all) libpfm4's event names for
 * the PMUs usable here.  Prints only to the FILE it is given.
 */
#include "events-int.h"

#include <string.h>

static const char *ev_kind(uint32_t type)
{
	switch (type) {
	case PERF_TYPE_SOFTWARE: return "Software event";
	case PERF_TYPE_HW_CACHE: return "Hardware cache event";
	default: return "Hardware event";
	}
}

/* Print the generic events of the given types that open here; returns
 * how many were printed and the first failure's errno in *first_err. */
static int ev_print_generic(FILE *out, uint32_t t1, uint32_t t2, int *first_err)
{
	int n = 0;

	*first_err = 0;
	for (size_t i = 0; i < ev_ngeneric; i++) {
		const struct ev_generic *g = &ev_generic_tab[i];
		struct perf_event_attr a;
		char label[96];

		if (g->type != t1 && g->type != t2)
			continue;
		ev_user_attr(&a, g->type, g->config);
		int e = ev_try_open(&a);
		if (e) {
			if (!*first_err)
				*first_err = e;
			continue;
		}
		snprintf(label, sizeof(label), "%s%s%s", g->name,
			 g->alias ? " OR " : "", g->alias ? g->alias : "");
		fprintf(out, "  %-46s [%s]\n", label, ev_kind(g->type));
		n++;
	}
	return n;
}

/*
 * Print the events this host offers, `perf list` style, to out: software
 * events that open here, then hardware events when a PMU exists (else a
 * one-line note).  Each listed event is opened and closed once.
 */
void ev_print_list(FILE *out)
{
	char why[512];
	int e;

	fprintf(out, "Software events:\n");
	if (!ev_print_generic(out, PERF_TYPE_SOFTWARE, PERF_TYPE_SOFTWARE, &e)) {
		ev_explain_errno(e, "task-clock", false, why, sizeof(why));
		fprintf(out, "  (none can be opened here: %s)\n", why);
	}
	fprintf(out, "\nHardware events:\n");
	if (!ev_host_has_pmu()) {
		fprintf(out, "  no hardware PMU on this host: hardware events (cycles, "
			"instructions, ...) are unavailable; software events work\n");
		return;
	}
	if (!ev_print_generic(out, PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE, &e)) {
		ev_explain_errno(e, "cycles", true, why, sizeof(why));
		fprintf(out, "  (none can be opened here: %s)\n", why);
	}
	fprintf(out, "\nMore PMU-specific event names (libpfm4) are available: "
		"run 'cpperf list --all'\n");
}

/* On a host without a PMU only software events of libpfm4's generic perf
 * PMU are worth listing; on a host with one, everything is. */
static bool ev_pfm_usable(const char *pmu_name, const char *ev_name, bool pmu)
{
	char full[2 * EV_NAMEMAX + 4];
	struct perf_event_attr a;
	char err[8];

	if (pmu)
		return true;
	snprintf(full, sizeof(full), "%s::%s", pmu_name, ev_name);
	if (ev_pfm_encode(full, &a, err, sizeof(err)) != PFM_SUCCESS)
		return false;
	return a.type == PERF_TYPE_SOFTWARE || a.type == PERF_TYPE_TRACEPOINT;
}

struct ev_print_ctx {
	FILE *out;
	bool pmu;		/* host has a PMU */
	int n;			/* events printed for this PMU so far */
};

/* Print one libpfm4 event if usable, with its PMU's heading first. */
static void ev_print_pfm_one(void *ctx, const pfm_pmu_info_t *pi,
			     const pfm_event_info_t *ei)
{
	struct ev_print_ctx *c = ctx;

	if (!ev_pfm_usable(pi->name, ei->name, c->pmu))
		return;
	if (c->n++ == 0)
		fprintf(c->out, "\n%s events (%s; libpfm4 names, use as "
			"%s::NAME[:UMASK]):\n", pi->name, pi->desc, pi->name);
	fprintf(c->out, "  %s::%-40s %s\n", pi->name, ei->name, ei->desc ? ei->desc : "");
}

/*
 * ev_print_list, then every event libpfm4 knows for the PMUs present and
 * usable here (on a host without a PMU: hardware PMUs are skipped with a
 * note, and only software events of the generic perf PMU are listed).
 * Used by `cpperf list --all`.
 */
void ev_print_all(FILE *out)
{
	pfm_pmu_t p;
	bool pmu = ev_host_has_pmu();
	char why[256];

	ev_print_list(out);
	if (ev_pfm_init(why, sizeof(why))) {
		fprintf(out, "\nlibpfm4 cannot be used: %s\n", why);
		return;
	}
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi;
		if (!ev_pmu_present(p, &pi))
			continue;
		if (ev_pmu_is_hardware(&pi) && !pmu)
			fprintf(out, "\n%s events (%s): not listed, perf_event cannot "
				"use this PMU here\n", pi.name, pi.desc);
		else
			ev_pfm_each_event(p, &pi, ev_print_pfm_one,
					  &(struct ev_print_ctx){ out, pmu, 0 });
	}
}
