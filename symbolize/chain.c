/*
 * chain.c - what a kernel callchain (--call-graph=fp) is worth: where it
 * stops being code, and whether it reaches a thread's root.
 *
 * The kernel walks frame pointers from the sampled registers until a read
 * fails or it has stored kernel.perf_event_max_stack addresses.  Through
 * code built without frame pointers, rbp holds whatever that code keeps in
 * it, and the walk reads data as return addresses: "[0x6961af6e63788547]"
 * frames.  It ends without error at the outermost frame only because
 * glibc's _start and clone3 clear rbp and glibc's start routines, built
 * without frame pointers, leave it so: the last address is then in the
 * function that called main or the thread's start routine.  So a chain is
 * complete when the kernel did not cut it, every return address is in an
 * executable segment of a known module (the first that is not ends the
 * chain, with everything after it), and its outermost frame is a thread's
 * root: the program's entry point, main, or a C library's start routine
 * for the process or a thread (sym_chain_root).  A chain that ends
 * anywhere else ran into a frame without a frame pointer.
 */
#include <string.h>
#include <sys/auxv.h>
#include "internal.h"

/* Functions at the outer end of a thread's stack: the C libraries' start
 * routines (glibc, musl) and the functions a walk of frame pointers ends
 * in below them. */
static const char *const sym_roots[] = {
	"_start", "main", "__libc_start_main", "__libc_start_call_main", "__libc_start_main_impl",
	"libc_start_main_stage2", "start_thread", "start_c11", "clone", "__clone", "clone3",
	"__clone3", "__clone_internal", NULL
};

/* Is name (a symbol name, "@VERSION" ignored) one of sym_roots? */
static bool sym_root_name(const char *name)
{
	size_t len = strcspn(name, "@");

	for (int i = 0; sym_roots[i]; i++)
		if (strlen(sym_roots[i]) == len && !strncmp(sym_roots[i], name, len))
			return true;
	return false;
}

/* The frame of the program's entry point, named once; UINT32_MAX when
 * it has none. */
static uint32_t sym_entry_frame(struct sym_session *s)
{
	uint32_t f[64];

	if (!s->entry_frame) {
		uint64_t entry = getauxval(AT_ENTRY);
		int n = entry ? sym_resolve(s, entry, f, 64) : 0;

		s->entry_frame = n > 0 ? f[0] + 1 : UINT32_MAX;
	}
	return s->entry_frame == UINT32_MAX ? UINT32_MAX : s->entry_frame - 1;
}

bool sym_chain_root(struct sym_session *s, uint64_t addr)
{
	uint32_t f[64];
	struct sym_pc *e = sym_pc_get(&s->pcs, addr);
	bool root;

	if (e && e->root && e->nframes && !e->unknown)
		return e->root == 2;	/* asked before (forgotten when its module goes) */
	if (sym_resolve(s, addr, f, 64) <= 0)
		return false;
	root = s->st->frames[f[0]].module != SYMTAB_NO_MODULE &&
	       (f[0] == sym_entry_frame(s) || sym_root_name(s->st->frames[f[0]].function));
	if ((e = sym_pc_get(&s->pcs, addr)))
		e->root = root ? 2 : 1;
	return root;
}

/* Is addr in an executable segment of a module?  A miss re-reads the
 * module list when a re-read is due. */
static bool sym_is_code(struct sym_session *s, uint64_t addr)
{
	if (sym_module_at(s, addr))
		return true;
	return sym_refresh_due(s) && sym_modules_refresh(s) > 0 && sym_module_at(s, addr);
}

int sym_chain(struct sym_session *s, const uint64_t *addrs, int n, bool cut, bool *complete)
{
	int k = n > 0 ? 1 : 0;

	while (k < n && sym_is_code(s, addrs[k]))
		k++;
	*complete = k > 0 && k == n && !cut && sym_chain_root(s, addrs[k - 1]);
	return k;
}
