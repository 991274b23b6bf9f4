/*
 * debuginfod.h - names for code without symbols from the debug files a
 * debuginfod server has (`cpperf report --debuginfod`; debuginfod.c).
 * The report, never the profiled program, asks the servers that
 * DEBUGINFOD_URLS lists, through elfutils' client library, which keeps
 * what it fetched in its cache ($DEBUGINFOD_CACHE_PATH, else
 * ~/.cache/debuginfod_client).
 */
#ifndef CPPERF_REPORT_DEBUGINFOD_H
#define CPPERF_REPORT_DEBUGINFOD_H

#include <stddef.h>
#include <stdint.h>

struct dbgi;

/* A client, or NULL with the reason in err (no libdebuginfod.so.1, no
 * DEBUGINFOD_URLS). */
struct dbgi *dbgi_open(char *err, size_t errlen);
/* The function at `offset` from the start of the module with build id
 * `build_id` (lowercase hex) as its debug file's symbol table names it,
 * NULL when none does or the servers have no such file; the string is
 * the client's. */
const char *dbgi_name(struct dbgi *c, const char *build_id, uint64_t offset);
void dbgi_close(struct dbgi *c);

#endif
