/*
 * demangle.h - readable function names for the report.
 *
 * Frames keep names as the binary spells them (symbolize/resolve.c); the
 * report turns them into what a user reads with sym_demangle.  Only the
 * report tool links this (it needs -lstdc++ for __cxa_demangle).
 */
#ifndef CPPERF_DEMANGLE_H
#define CPPERF_DEMANGLE_H

/*
 * A malloc'd readable form of name (the caller frees it):
 *   C++ "_ZN3foo3barEi"           -> "foo::bar(int)" (via __cxa_demangle,
 *                                    clone suffixes as "[clone .cold]")
 *   gfortran "__mymod_MOD_solve"  -> "mymod::solve"
 *   gfortran "MAIN__"             -> "MAIN__ [Fortran main program]"
 *   GCC clones "foo.cold", "foo.isra.0", "foo.constprop.0.isra.0"
 *                                 -> "foo [clone .cold]", ... (as c++filt)
 *   anything else (C names, "foo_", "[0x1234]") unchanged.
 * Returns NULL only when memory is short.
 */
char *sym_demangle(const char *name);

#endif
