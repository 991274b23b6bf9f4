/*
 * test-symtab.c - unit tests for module and frame interning
 * (common/symtab.c): equal content gives equal ids, every field takes part
 * in the key, strings are copied, and the tables grow; and the rule that
 * groups frames into functions.
 */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../../common/symtab.h"

static void test_modules(void)
{
	struct symtab st;
	char path[] = "/lib/libc.so.6";
	uint32_t a, b;

	symtab_init(&st);
	a = symtab_module(&st, path, "abc123");
	path[1] = 'X';
	is_str(st.modules[a].path, "/lib/libc.so.6", "module path is copied");
	path[1] = 'l';
	is_int(symtab_module(&st, path, "abc123"), a, "same module, same index");
	b = symtab_module(&st, path, "");
	ok(b != a, "build id is part of the key");
	is_int(symtab_module(&st, path, NULL), b, "NULL build id is empty");
	is_str(st.modules[b].build_id, "", "empty build id stored as \"\"");
	is_int(st.nmodules, 2, "two modules");
	symtab_release(&st);
	is_int(st.nmodules, 0, "release empties");
}

static void test_frames(void)
{
	struct symtab st;
	uint32_t m, f, g;

	symtab_init(&st);
	m = symtab_module(&st, "/bin/app", "");
	f = symtab_frame(&st, m, "main", "app.c", 10);
	is_int(f, 0, "first frame is 0");
	is_int(symtab_frame(&st, m, "main", "app.c", 10), f, "same frame, same id");
	ok(symtab_frame(&st, m, "main", "app.c", 11) != f, "line is part of the key");
	ok(symtab_frame(&st, m, "main", "app2.c", 10) != f, "file is part of the key");
	ok(symtab_frame(&st, m, "main2", "app.c", 10) != f, "function is part of the key");
	g = symtab_frame(&st, SYMTAB_NO_MODULE, "main", "app.c", 10);
	ok(g != f, "module is part of the key");
	is_int(st.frames[g].module, SYMTAB_NO_MODULE, "frame without module");
	is_int(symtab_frame(&st, 5, "x", "", 0), UINT32_MAX, "unknown module refused");
	is_int(symtab_frame(&st, m, NULL, NULL, 0), symtab_frame(&st, m, "", "", 0),
	       "NULL strings are empty");
	symtab_release(&st);
}

static void test_growth(void)
{
	enum { N = 50000 };
	struct symtab st;
	char name[32];
	uint32_t bad = 0, mods[100];

	symtab_init(&st);
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "/lib/m%d.so", i);
		mods[i] = symtab_module(&st, name, "");
	}
	for (uint32_t i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "fn%u", i / 3);
		if (symtab_frame(&st, mods[i % 100], name, "f.c", i % 3) != i)
			bad++;
	}
	is_int(bad, 0, "distinct frames get consecutive ids");
	is_int(st.nframes, N, "all frames stored");
	for (uint32_t i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "fn%u", i / 3);
		if (symtab_frame(&st, mods[i % 100], name, "f.c", i % 3) != i)
			bad++;
	}
	is_int(bad, 0, "every frame found again after growth");
	is_int(st.nframes, N, "no duplicates added");
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "/lib/m%d.so", i);
		if (symtab_module(&st, name, "") != mods[i])
			bad++;
	}
	is_int(bad, 0, "modules found again");
	symtab_release(&st);
}

/* Importing one table into another maps every frame, sharing what both
 * have; a frame naming a module the table lacks is refused, named. */
static void test_import(void)
{
	struct symtab a, b;
	uint32_t fmap[3], bad = 0, mb, ma;

	symtab_init(&a);
	symtab_init(&b);
	ma = symtab_module(&a, "/lib/x.so", "ab");
	symtab_frame(&a, ma, "f", "x.c", 1);
	mb = symtab_module(&b, "/lib/y.so", "");
	symtab_frame(&b, mb, "g", "y.c", 2);
	symtab_frame(&b, symtab_module(&b, "/lib/x.so", "ab"), "f", "x.c", 1);
	symtab_frame(&b, SYMTAB_NO_MODULE, "[0x10]", "", 0);
	ok(symtab_import(&a, &b, fmap, &bad) == 0, "import");
	ok(fmap[1] == 0 && fmap[0] == 1 && fmap[2] == 2 && a.nframes == 3 && a.nmodules == 2,
	   "a frame both have keeps its id, the others are added");
	b.frames[2].module = 7;
	ok(symtab_import(&a, &b, fmap, &bad) == -2 && bad == 2, "a frame of a missing module, named");
	b.frames[2].module = SYMTAB_NO_MODULE;
	symtab_release(&a);
	symtab_release(&b);
}

/* How much of a frame's name names its function: a runtime's copies and
 * clones are one function, an application's are not, every address frame
 * of a module is one. */
static void test_function_len(void)
{
	struct symtab st;
	uint32_t rt, app, id[4];

	symtab_init(&st);
	rt = symtab_module(&st, "/opt/cpperf/lib/libcpperf-openmpi.so", "");
	app = symtab_module(&st, "/home/u/libcpperf-like/app", "");
	/* ids first: interning may move the frames */
	id[0] = symtab_frame(&st, rt, "MPI_Recv.quick", "", 0);
	id[1] = symtab_frame(&st, rt, "pmpi_calls_start", "", 0);
	id[2] = symtab_frame(&st, app, "solve.cold", "", 0);
	id[3] = symtab_frame(&st, app, "[0x1cc40]", "", 0);
	ok(symtab_runtime_module(&st, rt) && !symtab_runtime_module(&st, app) &&
	   !symtab_runtime_module(&st, SYMTAB_NO_MODULE), "the runtime is known by its file's name");
	is_int(symtab_function_len(&st, &st.frames[id[0]]), 8,
	       "a runtime wrapper's copy is the wrapper");
	is_int(symtab_function_len(&st, &st.frames[id[1]]), 16,
	       "a runtime function without a suffix, whole");
	is_int(symtab_function_len(&st, &st.frames[id[2]]), 10,
	       "an application's clone is a function of its own");
	is_int(symtab_function_len(&st, &st.frames[id[3]]), 3, "an address frame: its module's one function");
	symtab_release(&st);
}

int main(void)
{
	test_modules();
	test_frames();
	test_growth();
	test_import();
	test_function_len();
	return tap_done();
}
