/*
 * symtab.h - interned modules and symbolized frames.
 *
 * A frame is one function activation as a user reads it: the function name
 * (as written in the binary: C++ and Fortran names stay mangled here and are
 * made readable by the report), its module, and where the function is
 * defined (file and line, empty and 0 without debug info).  Inlined functions
 * are frames of their own.  Interning makes equal frames share one id, which
 * is what the call-path tree is keyed on; the report uses the same table to
 * merge the frames of many profiles.
 */
#ifndef CPPERF_SYMTAB_H
#define CPPERF_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYMTAB_NO_MODULE UINT32_MAX
#define SYMTAB_RUNTIME "libcpperf"	/* file name prefix of cpperf's runtime */

struct sym_module {
	char *path;		/* owns the block build_id is in */
	char *build_id;		/* lowercase hex, "" when the module has none */
};

struct sym_frame {
	uint32_t module;	/* index into modules, or SYMTAB_NO_MODULE */
	char *function;		/* never NULL; "[0x1234]" style when unknown;
				 * owns the block file is in */
	char *file;		/* never NULL, "" when unknown */
	uint32_t line;		/* 0 when unknown */
};

struct symtab {
	struct sym_module *modules;
	uint32_t nmodules, modules_alloc;
	struct sym_frame *frames;
	uint32_t nframes, frames_alloc;
	uint32_t *slots;	/* open-addressing index over frames */
	uint32_t nslots;
	uint32_t *mod_slots;	/* open-addressing index over modules */
	uint32_t nmod_slots;
};

/* Initialise an empty table; allocates nothing and cannot fail. */
void symtab_init(struct symtab *st);
/* Free everything the table owns; leaves it as after symtab_init(). */
void symtab_release(struct symtab *st);

/* Intern a module by path and build id (strings are copied; NULL counts as
 * ""); returns its index, or SYMTAB_NO_MODULE when memory is short. */
uint32_t symtab_module(struct symtab *st, const char *path, const char *build_id);

/* Intern a frame; strings are copied (NULL counts as "").  Returns its id,
 * or UINT32_MAX when memory is short or module is neither SYMTAB_NO_MODULE
 * nor the index of a module of st. */
uint32_t symtab_frame(struct symtab *st, uint32_t module, const char *function,
		      const char *file, uint32_t line);

/* Intern every module and frame of from into to, fmap[i] becoming the id
 * in to of from's frame i (fmap has from->nframes entries).  Returns 0;
 * -1 when memory is short; -2 when a frame of from names a module from
 * lacks (its index then in *bad). */
int symtab_import(struct symtab *to, const struct symtab *from, uint32_t *fmap, uint32_t *bad);

/* Whether module m of st is cpperf's runtime (its file's name starts with
 * SYMTAB_RUNTIME). */
bool symtab_runtime_module(const struct symtab *st, uint32_t m);

/*
 * How much of frame f's function name names the function the report
 * groups the frame into (docs/report.md): "[0x" for every frame of a
 * module named by its address; a function of cpperf's runtime without the
 * suffix of a GCC clone or of a wrapper's copy ("MPI_Recv.quick" is
 * MPI_Recv); else the whole name.  Frames are of one function when they
 * have its module and these prefixes are equal.
 */
size_t symtab_function_len(const struct symtab *st, const struct sym_frame *f);

#endif
