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

#include "debuginfod.h"
#include "frame-names.h"
#include "model.h"
#include "show.h"
#include "../symbolize/demangle.h"

static bool is_address(const char *name)
{
	return !strncmp(name, "[0x", 3);
}

/* The name debuginfod's debug file gives address frame f, or NULL. */
static const char *fetched_name(struct dbgi *c, const struct rep_data *d,
				const struct sym_frame *f)
{
	unsigned long long off;

	if (!c || f->module >= d->syms.nmodules || sscanf(f->function, "[0x%llx]", &off) != 1)
		return NULL;
	return dbgi_name(c, d->syms.modules[f->module].build_id, off);
}

/* The report's name of frame i: a new string, NULL when memory is short. */
static char *frame_name(const struct rep_data *d, uint32_t i, struct dbgi *c)
{
	const struct sym_frame *f = &d->syms.frames[i];
	const char *fetched = is_address(f->function) ? fetched_name(c, d, f) : NULL;
	char *n;

	if (fetched) {
		n = sym_demangle(fetched);
		return n ? n : strdup(fetched);
	}
	if (!d->raw_addresses && is_address(f->function)) {
		const char *mod = rep_module_name(d, f->module);
		size_t len = strlen(mod) + 3;

		if (!*mod)
			return strdup("[unknown]");
		if ((n = malloc(len)))
			snprintf(n, len, "[%s]", mod);
		return n;
	}
	if (symtab_runtime_module(&d->syms, f->module))	/* its copies are one function */
		return strndup(f->function, symtab_function_len(&d->syms, f));
	n = sym_demangle(f->function);
	return n ? n : strdup(f->function);
}

/* d->names from scratch, with the names client c (NULL: none) fetches. */
static int name_frames(struct rep_data *d, struct dbgi *c, char *err, size_t errlen)
{
	char **names = calloc((size_t)d->syms.nframes + 1, sizeof(*names));

	for (uint32_t i = 0; names && i < d->syms.nframes; i++)
		if (!(names[i] = frame_name(d, i, c))) {
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

int rep_name_frames(struct rep_data *d, char *err, size_t errlen)
{
	struct dbgi *c = NULL;
	int rc;

	if (d->debuginfod && !(c = dbgi_open(err, errlen)))
		return -1;
	rc = name_frames(d, c, err, errlen);
	dbgi_close(c);
	return rc;
}

int rep_keep_addresses(struct rep_data *d, char *err, size_t errlen)
{
	d->raw_addresses = true;
	return rep_name_frames(d, err, errlen);
}

int rep_fetch_names(struct rep_data *d, char *err, size_t errlen)
{
	d->debuginfod = true;
	return rep_name_frames(d, err, errlen);
}
