/*
 * events-int.h - internals shared by events.c (parsing, encoding),
 * events-host.c (what this host can open) and events-list.c (cpperf list).
 * Not for use outside those three files.
 */
#ifndef CPPERF_EVENTS_INT_H
#define CPPERF_EVENTS_INT_H

#include "events.h"

#include <stdint.h>

#include "lazy-libs.h"

#define EV_NAMEMAX ((int)sizeof(((struct ev_spec *)0)->name))

/* perf's generic names, as `perf list` spells them (events.c). */
struct ev_generic {
	const char *name;
	const char *alias;	/* NULL when perf has none */
	uint32_t type;
	uint64_t config;
};

extern const struct ev_generic ev_generic_tab[];
extern const size_t ev_ngeneric;

/* --- libpfm4 (events.c) --- */

/* Open and initialize libpfm4 once; 0, or -1 with why in err. */
int ev_pfm_init(char *err, size_t errlen);

/* Encode name with libpfm4 into *attr; returns a PFM_ error code. */
int ev_pfm_encode(const char *name, struct perf_event_attr *attr,
		  char *err, size_t errlen);

bool ev_pmu_is_hardware(const pfm_pmu_info_t *pi);

/* Info on a libpfm4 PMU; false when unknown or not present on this host. */
bool ev_pmu_present(pfm_pmu_t p, pfm_pmu_info_t *pi);

typedef void ev_pfm_fn(void *ctx, const pfm_pmu_info_t *pi, const pfm_event_info_t *ei);

/* Call fn for every libpfm4 event of PMU p (info pi). */
void ev_pfm_each_event(pfm_pmu_t p, const pfm_pmu_info_t *pi,
		       ev_pfm_fn *fn, void *ctx);

/* --- perf_event_open (events-host.c) --- */

/* The attr the probes open: user space only, disabled, counting. */
void ev_user_attr(struct perf_event_attr *a, uint32_t type, uint64_t config);

/* Open and close one stand-alone event; returns 0 or the errno. */
int ev_try_open(const struct perf_event_attr *src);

#endif
