/*
 * frame-names.h - the names the report gives frames (frame-names.c):
 * demangled, and a frame of code without a symbol named by its module
 * rather than by its address (docs/report.md "Frames without symbols").
 */
#ifndef CPPERF_REPORT_FRAME_NAMES_H
#define CPPERF_REPORT_FRAME_NAMES_H

#include <stddef.h>
#include "data.h"

/* Fill d->names: every frame's demangled name; a frame the profile names
 * by an address ("[0x1cc40]") is named from debuginfod's debug file of
 * its module when d->debuginfod and it has one, else becomes its
 * module's ("[libgomp.so.1]"), or "[unknown]" outside any module, unless
 * d->raw_addresses.  Returns 0, or -1 with a message. */
int rep_name_frames(struct rep_data *d, char *err, size_t errlen);

/* Name d's frames again with their addresses kept (--raw-addresses), or
 * with the names the debug files of debuginfod servers give frames
 * without symbols (--debuginfod; debuginfod.h).  Returns 0, or -1 with a
 * message (memory; for --debuginfod no client: no DEBUGINFOD_URLS or
 * libdebuginfod). */
int rep_keep_addresses(struct rep_data *d, char *err, size_t errlen);
int rep_fetch_names(struct rep_data *d, char *err, size_t errlen);

#endif
