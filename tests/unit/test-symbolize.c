/*
 * test-symbolize.c - unit tests for symbolize/: unwinding this very process
 * from a captured register set and stack copy, naming the frames found,
 * with inline expansion, from DWARF or from the symbol table alone on
 * request, and following the libraries it loads and closes.
 *
 * The capture point sits at the end of a known chain of functions
 * (main -> run_chain -> chain_a -> recurse x depth -> chain_b -> inl_c
 * (always inlined) -> leaf), so the expected names and their order are
 * known.  The fast unwinder (cached CFI rules) must agree with libdwfl's
 * on every sample it accepts, and take a frame without CFI as libdwfl
 * does, by its frame pointer; its kept CFI rows give libdw's rules.
 * Libraries loaded after the session opened are found, by a re-read of
 * the maps or from their mmap record, and forgotten once other code takes
 * their place.  The cost per sample (unwind + resolve, warm cache) and of
 * a re-read of the maps is printed as a TAP diagnostic, never asserted.
 */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include "tap.h"
#include "sym-probe.h"
#include "../../symbolize/symbolize.h"
#include "../../symbolize/internal.h"

#define NOINLINE __attribute__((noinline))
#define COPY_MAX (64 * 1024)
#define MAX_ADDRS 256
#define MAX_NAMES 1024

/* A captured sample: registers, stack copy and the thread's stack bounds. */
struct capture {
	struct sym_stack st;
	uint8_t buf[COPY_MAX];
};

/* Test state, touched by the main thread only. */
static struct capture cap;
static volatile int sink;

/* Copy up to COPY_MAX bytes of our stack from the captured sp, bounded by
 * the top of the stack; process_vm_readv keeps ASan out of it. */
static NOINLINE void copy_stack(struct capture *c)
{
	pthread_attr_t attr;
	void *base;
	size_t size;
	uint64_t sp = c->st.regs[SYM_REG_SP];

	pthread_getattr_np(pthread_self(), &attr);
	pthread_attr_getstack(&attr, &base, &size);
	pthread_attr_destroy(&attr);
	c->st.lo = (uint64_t)(uintptr_t)base;
	c->st.hi = c->st.lo + size;
	uint64_t n = c->st.hi - sp < COPY_MAX ? c->st.hi - sp : COPY_MAX;
	struct iovec local = { c->buf, n };
	struct iovec remote = { (void *)(uintptr_t)sp, n };
	ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	c->st.data = c->buf;
	c->st.size = got > 0 ? (uint64_t)got : 0;
}

static const int leaf_line = __LINE__ + 1;
static NOINLINE void leaf(struct capture *c)
{
	sym_capture_regs(c->st.regs);
	copy_stack(c);
	sink++;
}

static const int inl_c_line = __LINE__ + 1;
static inline __attribute__((always_inline)) void inl_c(struct capture *c)
{
	sink++;
	leaf(c);
	sink++;
}

static NOINLINE void chain_b(struct capture *c)
{
	inl_c(c);
	sink++;
}

static NOINLINE int recurse(struct capture *c, int depth)
{
	if (depth <= 1) {
		chain_b(c);
		return 0;
	}
	int r = recurse(c, depth - 1);
	sink += r;
	return r + 1;
}

static NOINLINE void chain_a(struct capture *c, int depth)
{
	recurse(c, depth);
	sink++;
}

static NOINLINE void run_chain(struct capture *c, int depth)
{
	chain_a(c, depth);
	sink++;
}

/* The frames of a sample, innermost first. */
struct path {
	uint32_t ids[MAX_NAMES];
	int n;
};

static void resolve_path(struct sym_session *s, const uint64_t *addrs, int n,
			 struct path *p)
{
	uint32_t f[64];

	p->n = 0;
	for (int i = 0; i < n; i++) {
		int k = sym_resolve(s, addrs[i], f, 64);
		while (k > 0 && p->n < MAX_NAMES)
			p->ids[p->n++] = f[--k];
	}
}

static const char *fname(const struct symtab *st, uint32_t id)
{
	return id < st->nframes ? st->frames[id].function : "(bad id)";
}

/* Index of the first frame named name at or after from, or -1. */
static int find_frame(const struct symtab *st, const struct path *p, int from,
		      const char *name)
{
	for (int i = from; i < p->n; i++)
		if (!strcmp(fname(st, p->ids[i]), name))
			return i;
	return -1;
}

static void dump_path(const struct symtab *st, const struct path *p)
{
	for (int i = 0; i < p->n && i < 80; i++)
		printf("#   %2d %s\n", i, fname(st, p->ids[i]));
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

static void test_chain(struct sym_session *s, struct symtab *st)
{
	uint64_t addrs[MAX_ADDRS];
	bool complete = false;
	static struct path p;

	run_chain(&cap, 60);
	ok(cap.st.size > 4096, "stack copied");
	int n = sym_unwind(s, &cap.st, addrs, MAX_ADDRS, &complete);
	ok(n > 64, "unwound past the 60-deep recursion");
	ok(complete, "unwind reached the outermost frame");
	resolve_path(s, addrs, n, &p);

	int i = find_frame(st, &p, 0, "leaf");
	is_int(i, 0, "innermost frame is leaf");
	ok(i >= 0 && i + 1 < p.n && !strcmp(fname(st, p.ids[i + 1]), "inl_c"),
	   "inlined inl_c is a frame of its own, after leaf");
	ok(i >= 0 && i + 2 < p.n && !strcmp(fname(st, p.ids[i + 2]), "chain_b"),
	   "chain_b calls inl_c");
	int r = 0;
	while (i + 3 + r < p.n && !strcmp(fname(st, p.ids[i + 3 + r]), "recurse"))
		r++;
	is_int(r, 60, "recurse appears 60 times in a row");
	int a = i + 3 + r;
	ok(a < p.n && !strcmp(fname(st, p.ids[a]), "chain_a"), "then chain_a");
	ok(a + 1 < p.n && !strcmp(fname(st, p.ids[a + 1]), "run_chain"),
	   "then run_chain");
	ok(find_frame(st, &p, a, "main") > a, "main is reached");
	if (tap_failed)
		dump_path(st, &p);

	if (i >= 0 && i + 1 < p.n) {
		const struct sym_frame *lf = &st->frames[p.ids[i]];
		const struct sym_frame *in = &st->frames[p.ids[i + 1]];
		ok(ends_with(lf->file, "test-symbolize.c"), "leaf has its file");
		is_int(lf->line, leaf_line, "leaf has its declaration line");
		ok(ends_with(in->file, "test-symbolize.c"), "inl_c has its file");
		is_int(in->line, inl_c_line, "inl_c has its declaration line");
		ok(lf->module != SYMTAB_NO_MODULE && lf->module < st->nmodules &&
		   strstr(st->modules[lf->module].path, "test-symbolize"),
		   "leaf's module is the test binary");
		ok(lf->module < st->nmodules &&
		   strlen(st->modules[lf->module].build_id) >= 16 &&
		   strspn(st->modules[lf->module].build_id,
			  "0123456789abcdef") ==
		   strlen(st->modules[lf->module].build_id),
		   "the module has a hex build id");
	}

	/* The same addresses again resolve to the same frames, from cache. */
	static struct path q;
	resolve_path(s, addrs, n, &q);
	ok(q.n == p.n && !memcmp(q.ids, p.ids, (size_t)p.n * sizeof *p.ids),
	   "repeated resolve gives the same frames");
}

/* Return addresses found where sym_unwind_sp says (sps[i] - 8), with the
 * fast unwinder (warm rules) and with libdwfl alike. */
static void test_frame_sps(struct sym_session *s)
{
	uint64_t addrs[MAX_ADDRS], sps[MAX_ADDRS], again[MAX_ADDRS];
	bool complete = false;
	int bad = 0;

	run_chain(&cap, 20);
	int n = sym_unwind_sp(s, &cap.st, addrs, sps, MAX_ADDRS, &complete);
	ok(n > 20 && complete && sps[0] == cap.st.regs[SYM_REG_SP],
	   "sym_unwind_sp: frame 0's sp is the sample's");
	for (int i = 1; i < n; i++) {
		uint64_t off = sps[i] - 8 - cap.st.regs[SYM_REG_SP], w = 0;

		if (off + 8 <= cap.st.size)
			memcpy(&w, cap.st.data + off, 8);
		bad += w != addrs[i] + 1;
	}
	is_int(bad, 0, "every return address sits at the next frame's sp - 8");
	s->out_sp = again;
	int m = sym_dwfl_unwind(s, &cap.st, addrs, MAX_ADDRS, &complete);
	s->out_sp = NULL;
	ok(m == n && !memcmp(again, sps, (size_t)n * sizeof *sps),
	   "libdwfl gives the same stack pointers");
}

static void test_short_and_max(struct sym_session *s)
{
	uint64_t addrs[MAX_ADDRS];
	bool complete = true;

	run_chain(&cap, 60);
	struct sym_stack st = cap.st;
	st.size = 256;
	int n = sym_unwind(s, &st, addrs, MAX_ADDRS, &complete);
	ok(n >= 1 && !complete, "a short stack copy gives an incomplete unwind");
	printf("#   %d frames from 256 bytes\n", n);

	st.size = 0;
	complete = true;
	n = sym_unwind(s, &st, addrs, MAX_ADDRS, &complete);
	ok(n >= 1 && !complete, "an empty stack copy gives an incomplete unwind");

	complete = true;
	n = sym_unwind(s, &cap.st, addrs, 5, &complete);
	ok(n == 5 && !complete, "max frames stops the unwind, incomplete");

	st = cap.st;
	st.regs[SYM_REG_IP] = 0x10;
	st.regs[6] = 0x20;	/* rbp: nothing to fall back on */
	complete = true;
	n = sym_unwind(s, &st, addrs, MAX_ADDRS, &complete);
	ok(n >= 1 && addrs[0] == 0x10 && !complete,
	   "an ip in no module gives one frame, incomplete");
}

/* A library's executable segment: where, and the maps' line for it. */
struct text {
	const char *lib;
	uint64_t lo, hi;
	struct sym_mapping m;	/* as an mmap record gives it */
	char path[512];
};

static int text_of_lib(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct text *t = arg;

	(void)size;
	if (!strstr(info->dlpi_name, t->lib))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_X)) {
			t->lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
			t->hi = t->lo + info->dlpi_phdr[i].p_memsz;
		}
	return 1;
}

/* The maps' line of the executable mapping that holds t->lo, as a record. */
static bool text_record(struct text *t)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024], perms[8];
	unsigned long lo, hi, off, ino;
	unsigned maj, min;
	bool found = false;

	while (f && !found && fgets(line, sizeof line, f))
		found = sscanf(line, "%lx-%lx %7s %lx %x:%x %lu %511s", &lo, &hi, perms, &off, &maj,
			       &min, &ino, t->path) == 8 && perms[2] == 'x' && t->lo >= lo && t->lo < hi;
	if (f)
		fclose(f);
	t->m = (struct sym_mapping){ lo, hi - lo, off, ino, maj, min, 5 /* PROT_READ|EXEC */, t->path };
	return found;
}

/* Load the first of libs not mapped yet into t; false when none can be. */
static bool load_new(const char *const *libs, struct text *t, void **h)
{
	for (; *libs; libs++) {
		if (dlopen(*libs, RTLD_LAZY | RTLD_NOLOAD))
			continue;	/* mapped already */
		if (!(*h = dlopen(*libs, RTLD_LAZY)))
			continue;
		memset(t, 0, sizeof *t);
		t->lib = *libs;
		dl_iterate_phdr(text_of_lib, t);
		if (t->hi > t->lo && text_record(t))
			return true;
		dlclose(*h);
	}
	return false;
}

/* The module of the frame addr resolves to, or NULL. */
static const char *module_of(struct sym_session *s, struct symtab *st, uint64_t addr)
{
	uint32_t f[8];
	int n = sym_resolve(s, addr, f, 8);

	return n >= 1 && st->frames[f[0]].module < st->nmodules ?
	       st->modules[st->frames[f[0]].module].path : NULL;
}

/* Put anonymous executable memory where t's code was (t closed); false
 * when the library stayed mapped. */
static void *replace_code(const struct text *t)
{
	void *p = mmap((void *)(uintptr_t)(t->lo & ~4095ul), 4096, PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * Libraries loaded after sym_open: found by a re-read of the maps that a
 * miss makes once one is due, or from their mmap record without a re-read;
 * forgotten once other code takes their place, by a re-read or a record.
 * The cost of a re-read is printed.
 */
static void test_modules(struct sym_session *s, struct symtab *st)
{
	static const char *const libs[] = { "libcrypt.so.1", "libthread_db.so.1", "libresolv.so.2",
					    "libBrokenLocale.so.1", NULL };
	struct text a, b;
	void *ha, *hb, *code;
	const char *mod;
	uint32_t reads;

	if (!load_new(libs, &a, &ha)) {
		tap_skip("libraries loaded later are found", "no unloaded test library");
		return;
	}
	s->mods.next_read_ns = UINT64_MAX;	/* no re-read due */
	reads = s->mods.reads;
	ok(!module_of(s, st, a.lo + 16) && s->mods.reads == reads,
	   "a library mapped since the last read is unknown while no re-read is due");
	s->mods.next_read_ns = 0;
	mod = module_of(s, st, a.lo + 16);
	ok(mod && strstr(mod, a.lib) && s->mods.reads == reads + 1,
	   "a miss re-reads the maps once one is due, and finds it");

	if (!load_new(libs, &b, &hb)) {
		tap_skip("a library is placed from its mmap record", "no second unloaded test library");
		dlclose(ha);
		return;
	}
	printf("#   %s, then %s\n", a.lib, b.lib);
	s->mods.next_read_ns = UINT64_MAX;
	reads = s->mods.reads;
	sym_mapped(s, &b.m);
	mod = module_of(s, st, b.lo + 16);
	ok(mod && strstr(mod, b.lib) && s->mods.reads == reads && s->mods.from_records == 1,
	   "a library is placed from its mmap record, without a re-read");

	uint64_t gap = s->mods.gap_ns;
	sym_modules_refresh(s);
	ok(s->mods.gap_ns == 2 * gap || s->mods.gap_ns == gap,
	   "a re-read that finds nothing doubles the wait for the next (up to a bound)");

	dlclose(hb);
	if ((code = replace_code(&b))) {
		s->mods.next_read_ns = UINT64_MAX;
		reads = s->mods.reads;
		sym_mapped(s, &(struct sym_mapping){ b.lo & ~4095ul, 4096, 0, 0, 0, 0, 5, "//anon" });
		ok(!module_of(s, st, b.lo + 16) && s->mods.reads == reads,
		   "code mapped over a closed library's is not named by it (record)");
		munmap(code, 4096);
	} else {
		tap_skip("code mapped over a closed library's is not named by it (record)",
			 "the library stayed mapped");
	}
	mod = module_of(s, st, a.lo + 16);
	dlclose(ha);
	ok(mod && module_of(s, st, a.lo + 16) == mod,
	   "a closed library's code is still named by it while nothing took its place");
	if ((code = replace_code(&a))) {
		s->mods.next_read_ns = 0;
		ok(!module_of(s, st, a.lo + 16),
		   "code mapped over a closed library's is not named by it (re-read)");
		munmap(code, 4096);
	} else {
		tap_skip("code mapped over a closed library's is not named by it (re-read)",
			 "the library stayed mapped");
	}

	double t0 = now_us();
	for (int i = 0; i < 20; i++)
		sym_modules_refresh(s);
	printf("# a re-read of /proc/self/maps (%u lines, %u objects): %.0f us\n",
	       s->mods.nlines, s->mods.n, (now_us() - t0) / 20);
}

/* Kernel callchains (--call-graph=fp): complete when they reach the
 * thread's root, not when cut, ended early or run into data.  The chains
 * are the frames the DWARF unwinder finds, down to _start, and the same
 * ended where a walk of frame pointers ends through glibc, in the
 * function that calls main. */
static void test_chains(struct sym_session *s, struct symtab *st)
{
	uint64_t chain[MAX_ADDRS], junk[MAX_ADDRS];
	uint32_t f[8];
	bool complete = false;
	int n, k, m = 0;

	run_chain(&cap, 10);
	n = sym_unwind(s, &cap.st, chain, MAX_ADDRS, &complete);
	while (m < n && (sym_resolve(s, chain[m], f, 8) < 1 || strcmp(st->frames[f[0]].function, "main")))
		m++;
	if (!ok(complete && n > 14 && m + 1 < n, "a stack unwound to main and below")) {
		tap_skip("chains", "no stack to make them from");
		return;
	}
	k = sym_chain(s, chain, n, false, &complete);
	ok(k == n && complete, "a chain down to the entry point is complete");
	k = sym_chain(s, chain, m + 2, false, &complete);
	ok(k == m + 2 && complete, "so is one that ends in the function that called main");
	k = sym_chain(s, chain, n, true, &complete);
	ok(k == n && !complete, "a chain the kernel cut at its limit is not");
	k = sym_chain(s, chain, 5, false, &complete);
	ok(k == 5 && !complete, "nor one that ends short of the root");
	memcpy(junk, chain, sizeof chain);
	junk[5] = 0x7473206120746f6d;	/* text read as a return address */
	k = sym_chain(s, junk, n, false, &complete);
	ok(k == 5 && !complete, "a return address outside code ends the chain, incomplete");
	junk[5] = (uint64_t)(uintptr_t)&cap;	/* data of a module */
	k = sym_chain(s, junk, n, false, &complete);
	ok(k == 5 && !complete, "so does one in a module's data");
	ok(sym_chain_root(s, chain[m]) && !sym_chain_root(s, chain[2]),
	   "main is a root, an inner function is not");

	double t0 = now_us();
	for (int i = 0; i < 10000; i++)
		sym_chain(s, chain, n, false, &complete);
	printf("# sym_chain, %d frames: %.0f ns a chain (warm)\n", n, (now_us() - t0) * 1e3 / 10000);
}

/* The fast path takes the test's stacks and agrees with libdwfl. */
static void test_fast_vs_dwfl(struct sym_session *s)
{
	static const uint64_t sizes[] = { 0, 8, 256, 1000, 4096, COPY_MAX };
	uint64_t fa[MAX_ADDRS], sa[MAX_ADDRS];
	bool fc, sc;
	int same = 0, total = 0, fast = 0;

	run_chain(&cap, 60);
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		for (int max = 3; max <= MAX_ADDRS; max += max < 80 ? 1 : 50) {
			struct sym_stack st = cap.st;
			st.size = sizes[i] < cap.st.size ? sizes[i] : cap.st.size;
			int fn = sym_fast_unwind(s, &st, fa, max, &fc);
			int sn = sym_dwfl_unwind(s, &st, sa, max, &sc);
			total++;
			fast += fn >= 0;
			if (fn < 0 || (fn == sn && fc == sc &&
			    !memcmp(fa, sa, (size_t)sn * sizeof *fa)))
				same++;
			else if (total - same <= 3)
				printf("#   size %" PRIu64 " max %d: fast %d%s, "
				       "libdwfl %d%s\n", st.size, max, fn,
				       fc ? " complete" : "", sn,
				       sc ? " complete" : "");
		}
	}
	is_int(fast, total, "the fast unwinder takes every test stack");
	is_int(same, total, "where the fast unwinder answers, it agrees with libdwfl");
}

/* no_cfi_call(fn, c) calls fn(c) from a function without CFI, as
 * hand-written assembly can be, that keeps a frame pointer. */
__asm__(".text\n"
	".globl no_cfi_call\n"
	".type no_cfi_call, @function\n"
	"no_cfi_call:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	mov %rdi, %rax\n"
	"	mov %rsi, %rdi\n"
	"	call *%rax\n"
	"	pop %rbp\n"
	"	ret\n"
	".size no_cfi_call, .-no_cfi_call\n");
void no_cfi_call(void (*fn)(struct capture *), struct capture *c);

/* A frame whose module has no CFI for it: the fast unwinder steps by the
 * frame pointer, as libdwfl does there, and the stack goes on to main. */
static NOINLINE void test_no_cfi(struct sym_session *s, struct symtab *st)
{
	uint64_t fa[MAX_ADDRS], sa[MAX_ADDRS];
	bool fc, sc;
	struct path p;
	int at;

	no_cfi_call(leaf, &cap);
	int fn = sym_fast_unwind(s, &cap.st, fa, MAX_ADDRS, &fc);
	int sn = sym_dwfl_unwind(s, &cap.st, sa, MAX_ADDRS, &sc);
	ok(fn > 0, "the fast unwinder steps through a frame without CFI");
	ok(fn == sn && fc == sc && !memcmp(fa, sa, (size_t)(sn > 0 ? sn : 0) * sizeof *fa),
	   "and gives libdwfl's frames there");
	ok(fc, "the stack is complete");
	resolve_path(s, fa, fn > 0 ? fn : 0, &p);
	at = find_frame(st, &p, 0, "no_cfi_call");
	ok(at >= 0 && find_frame(st, &p, at, "test_no_cfi") == at + 1 &&
	   find_frame(st, &p, at, "main") > at, "no_cfi_call's caller and main follow it");
	if (at < 0)
		dump_path(st, &p);
}

/* Rules from kept rows (cfi-rows.c) are the rules libdw gives at every
 * address tried, in a code segment: seg[2] is an address in it.  Returns
 * how many addresses took a kept row. */
static int rows_vs_libdw(struct sym_session *s, uint64_t addr, uint64_t step,
			 int *total, int *same, double *ours, double *theirs)
{
	uint64_t seg[3] = { 0, 0, addr };
	int kept = 0;

	dl_iterate_phdr(text_of, seg);
	for (uint64_t a = seg[0]; a < seg[1]; a += step) {
		struct sym_row x, y;
		bool known = sym_row_find(&s->rows, a) != NULL;
		double t0 = now_us();
		uint8_t sx = sym_rule_of(s, a, &x, true);
		double t1 = now_us();
		uint8_t sy = sym_rule_of(s, a, &y, false);

		*ours += t1 - t0;
		*theirs += now_us() - t1;

		kept += known;
		(*total)++;
		x.lo = x.hi = y.lo = y.hi = 0;
		if (sx == sy && !memcmp(&x, &y, sizeof(x)))
			(*same)++;
		else if (*total - *same <= 3)
			printf("#   0x%" PRIx64 "%s: state %d, libdw %d\n", a - seg[0],
			       known ? " (kept row)" : "", sx, sy);
	}
	return kept;
}

static void test_rows(struct sym_session *s)
{
	int total = 0, same = 0;
	double ours = 0, theirs = 0;
	int kept = rows_vs_libdw(s, (uint64_t)(uintptr_t)leaf, 5, &total, &same, &ours, &theirs);

	kept += rows_vs_libdw(s, (uint64_t)(uintptr_t)qsort, 37, &total, &same, &ours, &theirs);
	printf("# %d addresses, %d from kept rows: %.2f us each (libdw alone %.2f)\n", total,
	       kept, ours / total, theirs / total);
	ok(kept > total / 2, "most addresses took a kept CFI row");
	is_int(same, total, "a kept row's rule is libdw's at every address tried");
}

/* Print the warm cost of unwind + resolve for a sample of given depth,
 * and of libdwfl's unwind alone for comparison. */
static void measure(struct sym_session *s, int depth)
{
	uint64_t addrs[MAX_ADDRS];
	uint32_t f[64];
	bool complete;
	int iters = 2000, frames = 0;

	run_chain(&cap, depth);
	double t0 = now_us(), t1 = t0;
	for (int it = -1; it < iters; it++) {
		if (it == 0)
			t0 = now_us();	/* iteration -1 warms the caches */
		int n = sym_unwind(s, &cap.st, addrs, MAX_ADDRS, &complete);
		for (int i = 0; i < n; i++)
			sym_resolve(s, addrs[i], f, 64);
		frames = n;
	}
	t1 = now_us();
	printf("# unwind+resolve, %d frames: %.2f us/sample, %.3f us/frame "
	       "(warm)\n", frames, (t1 - t0) / iters,
	       (t1 - t0) / iters / (frames ? frames : 1));
	t0 = now_us();
	for (int it = 0; it < iters / 10; it++)
		sym_dwfl_unwind(s, &cap.st, addrs, MAX_ADDRS, &complete);
	t1 = now_us();
	printf("# libdwfl unwind alone, %d frames: %.2f us/sample\n", frames,
	       (t1 - t0) / (iters / 10));
}

/* The outermost frame an address of copy_stack resolves to in a new
 * session, whose module is named by its symbols alone when symbols_only. */
static void copy_stack_frame(struct symtab *st, bool symbols_only, char *fn, char *file, size_t len)
{
	char err[256];
	uint32_t f[SYM_MAX_FRAMES_TEST];
	struct sym_session *s = sym_open(st, err, sizeof err);
	int n;

	fn[0] = file[0] = 0;
	if (!s)
		return;
	if (symbols_only)
		sym_names_from_symbols(s, (uint64_t)(uintptr_t)copy_stack);
	n = sym_resolve(s, (uint64_t)(uintptr_t)copy_stack + 1, f, SYM_MAX_FRAMES_TEST);
	if (n > 0) {
		snprintf(fn, len, "%s", st->frames[f[0]].function);
		snprintf(file, len, "%s", st->frames[f[0]].file);
	}
	sym_close(s);
}

static void test_symbols_only(void)
{
	struct symtab a, b;
	char fn[128], file[256];

	symtab_init(&a);
	symtab_init(&b);
	copy_stack_frame(&a, false, fn, file, sizeof fn);
	is_str(fn, "copy_stack", "this program's frame named from its DWARF");
	printf("# source file: '%s'\n", file);
	ok(strstr(file, "test-symbolize.c") != NULL, "with its source file");
	copy_stack_frame(&b, true, fn, file, sizeof fn);
	is_str(fn, "copy_stack", "named from its symbol table when its module is symbols-only");
	is_str(file, "", "then without a source file");
	symtab_release(&a);
	symtab_release(&b);
}

int main(void)
{
	struct symtab st;
	char err[256] = "";

	symtab_init(&st);
	struct sym_session *s = sym_open(&st, err, sizeof err);
	if (!ok(s != NULL, "sym_open")) {
		printf("#   %s\n", err);
		symtab_release(&st);
		return tap_done();
	}
	test_chain(s, &st);
	test_short_and_max(s);
	test_frame_sps(s);
	test_modules(s, &st);
	test_chains(s, &st);
	test_fast_vs_dwfl(s);
	test_no_cfi(s, &st);
	test_rows(s);
	measure(s, 60);
	measure(s, 8);
	/* the stack copy holds pointers into the session: cleared, it hides
	 * nothing the session's end would leak from LeakSanitizer */
	memset(&cap, 0, sizeof(cap));
	sym_close(s);
	symtab_release(&st);
	test_symbols_only();
	return tap_done();
}
