/*
 * profile-check.c - prof_check(): what the reader would reject in a
 * struct profile, found before it is written (profile-write.c), so that a
 * bad profile fails there, named, rather than later as an unreadable
 * file.  The checks of the MPI, critical-path, merged and compensation
 * records are their files'.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "profile.h"
#include "profile-int.h"

const char *prof_check(const struct profile *p, char *why, size_t n)
{
	const struct cct *t = &p->tree;

	for (uint32_t i = 0; i < p->nevents; i++)
		if (p->events[i].leader > i ||
		    p->events[p->events[i].leader].leader != p->events[i].leader) {
			snprintf(why, n, "event %" PRIu32 " has bad leader %" PRIu32, i,
				 p->events[i].leader);
			return why;
		}
	for (uint32_t i = 0; i < p->syms.nframes; i++)
		if (p->syms.frames[i].module != SYMTAB_NO_MODULE &&
		    p->syms.frames[i].module >= p->syms.nmodules) {
			snprintf(why, n, "frame %" PRIu32 " has bad module", i);
			return why;
		}
	if (t->nnodes && t->nevents != p->nevents) {
		snprintf(why, n, "tree has %" PRIu32 " events, profile %" PRIu32,
			 t->nevents, p->nevents);
		return why;
	}
	for (uint32_t id = 1; id < t->nnodes; id++)
		if (t->parent[id] >= id || t->frame[id] >= p->syms.nframes) {
			snprintf(why, n, "node %" PRIu32 " has bad parent or frame", id);
			return why;
		}
	if (p->act_on && (p->act_event >= p->nevents || !p->act_window_ns)) {
		snprintf(why, n, "act event %" PRIu64 " or window 0 is bad", p->act_event);
		return why;
	}
	for (uint32_t i = 0; i < p->nact_nodes; i++)
		if (!p->act_on || p->act_nodes[i].node >= t->nnodes ||
		    (i && p->act_nodes[i].node <= p->act_nodes[i - 1].node)) {
			snprintf(why, n, "act_node %" PRIu32 " is out of order or range", i);
			return why;
		}
	for (size_t i = 0; i < PROF_NSCALARS; i++) {
		const struct prof_scalar *sc = &prof_scalars[i];
		uint64_t v;

		if (sc->kind != PK_U64)
			continue;
		memcpy(&v, (const char *)p + sc->offset, sizeof(v));
		if (v > sc->max) {
			snprintf(why, n, "%s %" PRIu64 " exceeds %" PRIu64, sc->key, v, sc->max);
			return why;
		}
	}
	if (prof_mpi_check(p, why, n) || prof_cp_check(p, why, n) ||
	    prof_merged_check(p, why, n))
		return why;
	return prof_comp_check(p, why, n);
}
