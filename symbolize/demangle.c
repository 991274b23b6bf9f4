/*
 * demangle.c - turn the names frames carry into what a user reads.
 *
 * Used by the report only (frames stay as the binary spells them, so that
 * profiles from different tools and ranks merge by name).  Rules, applied
 * in this order:
 *   - "_Z..." goes through the C++ runtime's __cxa_demangle, which also
 *     renders GCC clone suffixes as " [clone .cold]".
 *   - GCC clone suffixes on other names (".cold", ".part.0", ".isra.0",
 *     ".constprop.0", ".lto_priv.0", ".0", chained) are rendered the same
 *     way as c++filt does for C++: "foo.cold" -> "foo [clone .cold]".  We
 *     keep them visible rather than folding them into "foo": the clone is
 *     separate code, and with debug info the resolver names it by its
 *     DWARF origin anyway, so suffixes only show up for ELF-only names.
 *   - gfortran module procedures "__mod_MOD_proc" -> "mod::proc", and the
 *     main program "MAIN__" -> "MAIN__ [Fortran main program]".
 *   - Trailing-underscore Fortran externals ("solve_") are left alone: the
 *     same spelling is an ordinary C name, and guessing would make a C
 *     function "foo_" show up as "foo".
 *   - Everything else is returned unchanged.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "demangle.h"

/* From the C++ runtime (libstdc++/libc++abi), declared extern "C" there. */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

static bool sym_is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$';
}

static bool sym_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of one clone suffix at p (".name", ".name.N", ".N"), 0 if p does
 * not start one. */
static size_t sym_clone_len(const char *p)
{
	size_t i = 1;
	if (p[0] != '.')
		return 0;
	while ((p[i] >= 'a' && p[i] <= 'z') || p[i] == '_')
		i++;
	if (i > 1 && p[i] == '.' && sym_is_digit(p[i + 1]))
		i++;
	if (i == 1 && !sym_is_digit(p[i]))
		return 0;
	while (sym_is_digit(p[i]))
		i++;
	return i;
}

/* Length of the identifier before name's clone suffixes, or strlen(name)
 * when the rest is not a chain of clone suffixes. */
static size_t sym_clone_base(const char *name)
{
	size_t b = 0;
	while (sym_is_ident(name[b]))
		b++;
	if (b == 0 || sym_is_digit(name[0]))
		return strlen(name);
	for (size_t i = b, n; name[i]; i += n)
		if ((n = sym_clone_len(name + i)) == 0)
			return strlen(name);
	return b;
}

/* Write the readable form of the first n bytes of name (no suffixes). */
static void sym_put_base(FILE *out, const char *name, size_t n)
{
	const char *mod = n > 7 && !strncmp(name, "__", 2) ?
			  strstr(name + 3, "_MOD_") : NULL;
	if (mod && (size_t)(mod - name) + 5 < n) {
		fprintf(out, "%.*s::%.*s", (int)(mod - name - 2), name + 2,
			(int)(n - (size_t)(mod + 5 - name)), mod + 5);
	} else if (n == 6 && !strncmp(name, "MAIN__", 6)) {
		fputs("MAIN__ [Fortran main program]", out);
	} else {
		fprintf(out, "%.*s", (int)n, name);
	}
}

/* See demangle.h. */
char *sym_demangle(const char *name)
{
	if (name[0] == '_' && name[1] == 'Z') {
		int status = -1;
		char *d = __cxa_demangle(name, NULL, NULL, &status);
		if (d && status == 0)
			return d;
		free(d);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		return NULL;
	size_t b = sym_clone_base(name);
	sym_put_base(out, name, b);
	for (size_t i = b, n; name[i]; i += n) {
		n = sym_clone_len(name + i);
		fprintf(out, " [clone %.*s]", (int)n, name + i);
	}
	if (fclose(out) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
