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
 * by an address ("[0x1cc40]") becomes its module's ("[libgomp.so.1]"),
 * or "[unknown]" outside any module, unless d->raw_addresses.  Returns 0,
 * or -1 with a message (memory). */
int rep_name_frames(struct rep_data *d, char *err, size_t errlen);

/* Name d's frames again with their addresses kept (--raw-addresses);
 * later loads that copy d->raw_addresses do the same. */
int rep_keep_addresses(struct rep_data *d, char *err, size_t errlen);

#endif
