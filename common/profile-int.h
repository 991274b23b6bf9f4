/*
 * profile-int.h - what the profile writer (profile-write.c) and reader
 * (profile-read.c) share and nobody else needs: the record sections in
 * file order and the table of single-valued ("scalar") records, so the two
 * sides cannot disagree about a key, its type or its place.  The format
 * itself is described in docs/format.md.
 */
#ifndef CPPERF_PROFILE_INT_H
#define CPPERF_PROFILE_INT_H

#include <stddef.h>

#define PROF_MAGIC "cpperf-profile"
#define PROF_TRAILER "end"

/* Sections in the order they must appear in a file. */
enum prof_section {
	PS_MAGIC,
	PS_META,	/* argv, host, pid, ... call_graph */
	PS_EVENT,
	PS_COUNTER,	/* samples, lost, ... */
	PS_MODULE,
	PS_FRAME,
	PS_THREAD,
	PS_ROOT,
	PS_NODE,
};

enum prof_kind { PK_STR, PK_I64, PK_U64 };

/* A record that appears exactly once and holds one field of struct profile
 * at offset: a char * (PK_STR), an int64_t or a uint64_t. */
struct prof_scalar {
	const char *key;
	enum prof_section section;
	enum prof_kind kind;
	size_t offset;
};

#define PROF_NSCALARS 15
extern const struct prof_scalar prof_scalars[PROF_NSCALARS];

#endif
