/*
 * test-symbolize-names.c - unit tests for symbolize/: naming addresses.
 * An address in no module is named by itself; the unit's function table
 * gives the chains dwarf_getscopes gives; the ELF names are libdwfl's;
 * libc is named from its symbol table unless separate debug files are
 * asked for; and names are demangled (C++, Fortran, clones).  The cost of
 * the ELF names is printed as a TAP diagnostic, never asserted.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "sym-probe.h"
#include "../../symbolize/symbolize.h"
#include "../../symbolize/demangle.h"
#include "../../symbolize/internal.h"

static void test_unknown(struct sym_session *s, struct symtab *st)
{
	uint32_t f[8];
	int n = sym_resolve(s, 0x10, f, 8);
	is_int(n, 1, "an address in no module is one frame");
	if (n == 1) {
		is_str(st->frames[f[0]].function, "[0x10]", "named by its address");
		ok(st->frames[f[0]].module == SYMTAB_NO_MODULE, "with no module");
		is_str(st->frames[f[0]].file, "", "and no file");
	}
}

/* The executable segment of the program itself (the first object). */
static int first_text(struct dl_phdr_info *info, size_t size, void *data)
{
	uint64_t *seg = data;

	(void)size;
	for (int k = 0; k < info->dlpi_phnum; k++)
		if (info->dlpi_phdr[k].p_type == PT_LOAD && (info->dlpi_phdr[k].p_flags & PF_X)) {
			seg[0] = info->dlpi_addr + info->dlpi_phdr[k].p_vaddr;
			seg[1] = seg[0] + info->dlpi_phdr[k].p_memsz;
			break;
		}
	return 1;
}

/* Do two chains name the same DIEs? */
static bool same_dies(Dwarf_Die *a, Dwarf_Die *b, int n)
{
	for (int i = 0; i < n; i++)
		if (dwarf_dieoffset(&a[i]) != dwarf_dieoffset(&b[i]))
			return false;
	return true;
}

/* The unit's function table gives the chain dwarf_getscopes gives, at
 * some 4 000 addresses spread over this program's code (its own functions
 * and the libraries' objects linked in, inlined calls among them). */
static void test_index_vs_scopes(struct sym_session *s)
{
	uint64_t seg[2] = { 0, 0 }, step;
	int total = 0, same = 0, inlined = 0;

	dl_iterate_phdr(first_text, seg);
	step = (seg[1] - seg[0]) / 4000 | 1;
	for (uint64_t a = seg[0]; a < seg[1]; a += step) {
		Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, a);
		Dwarf_Addr bias;
		Dwarf_Die *cu = mod ? dwfl_module_addrdie(mod, a, &bias) : NULL;
		Dwarf_Die x[SYM_MAX_FRAMES_TEST], y[SYM_MAX_FRAMES_TEST];
		int nx, ny;

		if (!cu)
			continue;
		nx = sym_cu_chain(&s->cus, cu, a - bias, x, SYM_MAX_FRAMES_TEST);
		ny = sym_scopes_chain(cu, a - bias, y, SYM_MAX_FRAMES_TEST);
		total++;
		inlined += ny > 1;
		if (nx == ny && same_dies(x, y, nx))
			same++;
		else if (total - same <= 3)
			printf("#   0x%" PRIx64 ": table %d functions, dwarf_getscopes %d\n",
			       a - seg[0], nx, ny);
	}
	printf("# %d addresses, %d in inlined calls\n", total, inlined);
	ok(total > 1000 && inlined > 50, "addresses with DWARF and inlined calls were compared");
	is_int(same, total, "the unit's function table gives dwarf_getscopes' chain");
}

static bool same_name(const char *a, const char *b)
{
	if (!a || !*a)
		return !b || !*b;
	return b && !strcmp(a, b);
}

/* elf-names.c's name of each address tried in the code segment that holds
 * addr is libdwfl's: every step-th byte, and around the start of each
 * symbol there.  Adds to *total and *same; false when addr is in no
 * module. */
static bool names_vs_libdwfl(struct sym_session *s, uint64_t addr, uint64_t step,
			     int *total, int *same)
{
	uint64_t seg[3] = { 0, 0, addr };
	Dwfl_Module *mod = sym_module_at(s, addr);
	uint32_t m = sym_load_of(mod);
	GElf_Off off;
	GElf_Sym sym;
	int nsyms;

	double t0, ours = 0, theirs = 0;
	int n = 0;

	dl_iterate_phdr(text_of, seg);
	if (!mod || seg[1] <= seg[0])
		return false;
	for (uint64_t a = seg[0]; a < seg[1]; a += step, (*total)++, n++) {
		const char *x, *y;

		t0 = now_us();
		x = sym_elf_symbol(&s->names, m, mod, a);
		ours += now_us() - t0;
		t0 = now_us();
		y = dwfl_module_addrinfo(mod, a, &off, &sym, NULL, NULL, NULL);
		theirs += now_us() - t0;
		*same += same_name(x, y);
	}
	printf("#   %s: %d addresses, %.2f us each (libdwfl %.2f)\n",
	       dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL), n, ours / n,
	       theirs / n);
	nsyms = dwfl_module_getsymtab(mod);
	for (int i = 1; i < nsyms; i++) {
		GElf_Addr v;
		GElf_Word shndx;
		Elf *elf;
		Dwarf_Addr bias;

		if (!dwfl_module_getsym_info(mod, i, &sym, &v, &shndx, &elf, &bias) || v < seg[0] ||
		    v >= seg[1])
			continue;
		for (uint64_t a = v - 1; a <= v + 1; a++, (*total)++)
			*same += same_name(sym_elf_symbol(&s->names, m, mod, a),
					   dwfl_module_addrinfo(mod, a, &off, &sym, NULL, NULL, NULL));
	}
	return true;
}

/* ELF names in libc (with its separate debug file's symbols when
 * installed), in the library that defines qsort here (libasan in the
 * sanitizer build), in libraries with dynamic symbols only, and in this
 * program (a full symbol table with local symbols). */
static void test_elf_names(struct sym_session *s)
{
	static const char *const libs[] = { "gnu_get_libc_version", "qsort", "dwfl_begin",
					    "elf_version", "zlibVersion" };
	int total = 0, same = 0, found = 0;

	for (size_t i = 0; i < sizeof(libs) / sizeof(*libs); i++) {
		void *f = dlsym(RTLD_DEFAULT, libs[i]);

		found += f && names_vs_libdwfl(s, (uint64_t)(uintptr_t)f, i < 2 ? 101 : 37,
					       &total, &same);
	}
	found += names_vs_libdwfl(s, (uint64_t)(uintptr_t)same_name, 7, &total, &same);
	printf("# %d addresses in %d modules\n", total, found);
	ok(found >= 5, "libc, libdw, libelf, libz and this program were tried");
	is_int(same, total, "ELF names are libdwfl's at every address tried");
	ok(s->names.read_direct >= 5, "their symbol tables were read from their ELF data");
	printf("# %u stretches named from the symbols that hold them\n", s->names.by_holders);
	ok(s->names.by_holders >= 1000, "most named without a scan of their table");
}

static void test_demangle(void)
{
	static const char *const cases[][2] = {
		{ "_ZN3foo3barEi", "foo::bar(int)" },
		{ "_ZN3foo3barEi.cold", "foo::bar(int) [clone .cold]" },
		{ "__solver_MOD_step", "solver::step" },
		{ "__my_mod_MOD_do_it", "my_mod::do_it" },
		{ "__solver_MOD_step.constprop.0", "solver::step [clone .constprop.0]" },
		{ "MAIN__", "MAIN__ [Fortran main program]" },
		{ "compute", "compute" },
		{ "compute_", "compute_" },
		{ "main", "main" },
		{ "foo.cold", "foo [clone .cold]" },
		{ "foo.isra.0", "foo [clone .isra.0]" },
		{ "foo.constprop.0.isra.0", "foo [clone .constprop.0] [clone .isra.0]" },
		{ "foo.part.1", "foo [clone .part.1]" },
		{ "[0x1234]", "[0x1234]" },
		{ "_Zbogus", "_Zbogus" },
		{ "__MOD_x", "__MOD_x" },
		{ "__m_MOD_", "__m_MOD_" },
		{ "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char name[96];
		char *got = sym_demangle(cases[i][0]);
		snprintf(name, sizeof name, "demangle '%s'", cases[i][0]);
		is_str(got, cases[i][1], name);
		free(got);
	}
}

/* The frame an address of libc's qsort resolves to in a new session. */
static const struct sym_frame *qsort_frame(struct symtab *st, bool separate, char *module_id, size_t len)
{
	char err[256];
	uint32_t f[SYM_MAX_FRAMES_TEST];
	struct sym_session *s = sym_open(st, err, sizeof err);
	const struct sym_frame *fr = NULL;
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	void *fn = libc ? dlsym(libc, "qsort") : NULL;	/* libc's, not a sanitizer's */

	if (libc)
		dlclose(libc);
	if (!s || !fn) {
		sym_close(s);
		return NULL;
	}
	sym_use_separate_debug(s, separate);
	int n = sym_resolve(s, (uint64_t)(uintptr_t)fn + 1, f, SYM_MAX_FRAMES_TEST);
	if (n > 0) {
		fr = &st->frames[f[n - 1]];
		if (fr->module != SYMTAB_NO_MODULE)
			snprintf(module_id, len, "%s", st->modules[fr->module].build_id);
	}
	sym_close(s);
	return fr;
}

static void test_separate_debug(void)
{
	struct symtab a, b;
	char id[160] = "", path[256];
	const struct sym_frame *fa, *fb;

	symtab_init(&a);
	symtab_init(&b);
	fa = qsort_frame(&a, false, id, sizeof id);
	if (ok(fa != NULL, "an address in libc's qsort resolves")) {
		is_str(fa->function, "qsort", "named from the symbol table");
		is_str(fa->file, "", "without a source file by default");
	}
	snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%.2s/%s.debug", id, id[0] ? id + 2 : "");
	if (!id[0] || access(path, R_OK)) {
		tap_skip("separate debug file of libc names its frames", "no separate debug file for libc here");
	} else {
		fb = qsort_frame(&b, true, id, sizeof id);
		printf("# with --separate-debug: '%s' in '%s'\n", fb ? fb->function : "", fb ? fb->file : "");
		ok(fb && fb->file[0], "with separate debug files asked for, libc's DWARF gives the source file");
	}
	symtab_release(&a);
	symtab_release(&b);
}

int main(void)
{
	struct symtab st;
	char err[256] = "";

	symtab_init(&st);
	struct sym_session *s = sym_open(&st, err, sizeof err);
	if (!s) {	/* test-symbolize checks sym_open itself */
		printf("#   %s\n", err);
		tap_bail("sym_open failed");
	}
	test_unknown(s, &st);
	test_index_vs_scopes(s);
	test_elf_names(s);
	sym_close(s);
	symtab_release(&st);
	test_separate_debug();
	test_demangle();
	return tap_done();
}
