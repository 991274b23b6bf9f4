/*
 * test-fde-start.c - unit tests for symbolize/fde-start.c: an address no
 * symbol names is named by the start of the function that holds it.
 *
 * In libraries shipped with their dynamic symbols only (libc, libz,
 * libelf, libdw on Debian), every address of the code segment is
 * resolved; each named "[0x<offset>]" must be named by the start of its
 * FDE as GCC's own unwinder finds it (_Unwind_Find_FDE, in libgcc_s), so
 * that one function is one frame.  A host whose libraries all carry full
 * symbol tables has no such address: the test then says skip.
 */
#include <dlfcn.h>
#include <link.h>
#include "tap.h"
#include "../../symbolize/symbolize.h"
#include "../../symbolize/internal.h"

/* libgcc's unwinder: the FDE that holds pc, and in bases->func its start. */
struct dwarf_eh_bases {
	void *tbase;
	void *dbase;
	void *func;
};
extern const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases);

struct seg {
	uint64_t want, lo, hi;
};

/* The executable PT_LOAD that holds seg->want. */
static int text_of(struct dl_phdr_info *info, size_t size, void *data)
{
	struct seg *seg = data;

	(void)size;
	for (int k = 0; k < info->dlpi_phnum; k++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
		uint64_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && seg->want >= lo &&
		    seg->want < lo + ph->p_memsz) {
			seg->lo = lo;
			seg->hi = lo + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

struct tally {
	int unnamed;	/* addresses named by hex */
	int as_unwinder;	/* ... by their FDE's start as libgcc finds it */
	int names;	/* distinct hex names */
};

/* Resolve every step-th address of the code that holds fn; tally the
 * hex-named ones.  False when fn's module is unknown. */
static bool sweep(struct sym_session *s, struct symtab *st, void *fn, uint64_t step,
		  struct tally *t)
{
	struct seg seg = { (uint64_t)(uintptr_t)fn, 0, 0 };
	Dwfl_Module *mod = sym_module_at(s, seg.want);
	Dwarf_Addr start;
	uint32_t last = UINT32_MAX;

	dl_iterate_phdr(text_of, &seg);
	if (!mod || seg.hi <= seg.lo)
		return false;
	dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	for (uint64_t a = seg.lo; a < seg.hi; a += step) {
		struct dwarf_eh_bases bases;
		char want[32];
		uint32_t f[64];
		int n = sym_resolve(s, a, f, 64);
		const char *name = n > 0 ? st->frames[f[n - 1]].function : "";

		if (strncmp(name, "[0x", 3) || !_Unwind_Find_FDE((void *)(uintptr_t)a, &bases))
			continue;
		t->unnamed++;
		snprintf(want, sizeof want, "[0x%" PRIx64 "]",
			 (uint64_t)(uintptr_t)bases.func - start);
		if (!strcmp(name, want))
			t->as_unwinder++;
		else if (t->unnamed - t->as_unwinder <= 3)
			printf("#   0x%" PRIx64 " in %s: %s, its FDE starts at %s\n", a - start,
			       dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL), name,
			       want);
		t->names += f[n - 1] != last;
		last = f[n - 1];
	}
	return true;
}

int main(void)
{
	static const char *const fns[] = { "gnu_get_libc_version", "zlibVersion", "elf_version", "dwfl_begin" };
	struct tally t = { 0 };
	struct symtab st;
	char err[256] = "";
	int found = 0;

	symtab_init(&st);
	struct sym_session *s = sym_open(&st, err, sizeof err);
	if (!ok(s != NULL, "sym_open")) {
		printf("#   %s\n", err);
		symtab_release(&st);
		return tap_done();
	}
	for (size_t i = 0; i < sizeof(fns) / sizeof(*fns); i++) {
		void *fn = dlsym(RTLD_DEFAULT, fns[i]);

		found += fn && sweep(s, &st, fn, 3, &t);
	}
	ok(found >= 3, "libc, libz, libelf and libdw were swept");
	printf("# %d addresses without a symbol, %d names\n", t.unnamed, t.names);
	if (t.unnamed < 100) {
		tap_skip("function starts", "the libraries here have full symbol tables");
	} else {
		is_int(t.as_unwinder, t.unnamed,
		       "each is named by its function's start, as the unwinder finds it");
		ok(t.names * 8 < t.unnamed, "a function's addresses share one name");
	}
	sym_close(s);
	symtab_release(&st);
	return tap_done();
}
