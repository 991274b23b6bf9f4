/*
 * frame-names.c - the names the report gives frames (frame-names.h).
 *
 * The runtime names a function without a symbol "[0x<offset>]", the
 * offset of its start in its module (the unwind tables know where
 * functions start), so that one function is one frame in every process.
 * A report grouped by function would show dozens of such rows of an MPI
 * library's or an OpenMP runtime's internals; they are one per module
 * instead, as perf shows code it cannot name.  The nearest preceding
 * symbol is not used: the unwind tables say the address is in a function
 * of its own, which that symbol's name would merge with another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame-names.h"
#include "render.h"
#include "../symbolize/demangle.h"

static bool is_address(const char *name)
{
	return !strncmp(name, "[0x", 3);
}

/* The report's name of frame i: a new string, NULL when memory is short. */
static char *frame_name(const struct rep_data *d, uint32_t i)
{
	const struct sym_frame *f = &d->syms.frames[i];
	char *n;

	if (!d->raw_addresses && is_address(f->function)) {
		const char *mod = rep_module_name(d, f->module);
		size_t len = strlen(mod) + 3;

		if (!*mod)
			return strdup("[unknown]");
		if ((n = malloc(len)))
			snprintf(n, len, "[%s]", mod);
		return n;
	}
	n = sym_demangle(f->function);
	return n ? n : strdup(f->function);
}

int rep_name_frames(struct rep_data *d, char *err, size_t errlen)
{
	char **names = calloc((size_t)d->syms.nframes + 1, sizeof(*names));

	for (uint32_t i = 0; names && i < d->syms.nframes; i++)
		if (!(names[i] = frame_name(d, i))) {
			for (uint32_t k = 0; k < i; k++)
				free(names[k]);
			free(names);
			names = NULL;
		}
	if (!names) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t i = 0; d->names && i < d->syms.nframes; i++)
		free(d->names[i]);
	free(d->names);
	d->names = names;
	return 0;
}

int rep_keep_addresses(struct rep_data *d, char *err, size_t errlen)
{
	d->raw_addresses = true;
	return rep_name_frames(d, err, errlen);
}
