/*
 * test-decl-files.c - the declaration files symbolize/decl-files.c reads
 * from line-program headers are the names dwarf_decl_file gives, for every
 * DIE that has one: in this test program's own DWARF, and in a small
 * program of two units, a header in a subdirectory and a relative source
 * path, built here with each DWARF version from 2 to 5.  Every name must
 * come from the headers, none from libdw's fallback.
 */
#include <dwarf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "tap.h"
#include "../../symbolize/internal.h"

/* Names compared, and those that differed. */
struct tally {
	int total, differ;
};

/* Compare the name of every DIE under die (itself included). */
static void compare_tree(struct sym_decl_files *c, Dwarf_Die *die, struct tally *t)
{
	Dwarf_Die child;

	if (dwarf_hasattr_integrate(die, DW_AT_decl_file)) {
		const char *got = sym_decl_file(c, die), *want = dwarf_decl_file(die);

		t->total++;
		if (!got != !want || (got && strcmp(got, want))) {
			if (++t->differ <= 3)
				printf("#   DIE 0x%llx: got '%s', dwarf_decl_file '%s'\n",
				       (unsigned long long)dwarf_dieoffset(die), got ? got : "(null)",
				       want ? want : "(null)");
		}
	}
	if (dwarf_child(die, &child) != 0)
		return;
	do
		compare_tree(c, &child, t);
	while (dwarf_siblingof(&child, &child) == 0);
}

/* Compare every unit of the file at path; false when it has no DWARF. */
static bool compare_file(const char *path, const char *what)
{
	struct sym_decl_files c = { 0 };
	struct tally t = { 0, 0 };
	int fd = open(path, O_RDONLY);
	Dwarf *dbg = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
	Dwarf_Off off = 0, next;
	size_t hsize;
	char name[160];

	if (!dbg) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dbg, off + hsize, &cu))
			compare_tree(&c, &cu, &t);
		off = next;
	}
	printf("# %s: %d DIEs with a declaration file\n", what, t.total);
	snprintf(name, sizeof(name), "%s: names compared", what);
	ok(t.total > 10, name);
	snprintf(name, sizeof(name), "%s: the names are dwarf_decl_file's", what);
	is_int(t.differ, 0, name);
	snprintf(name, sizeof(name), "%s: every name from the line-program headers", what);
	is_int(c.fallbacks, 0, name);
	sym_decl_files_release(&c);
	dwarf_end(dbg);
	close(fd);
	return true;
}

static const char *const header =
	"static inline int twice(int x) { return 2 * x; }\n"
	"struct point { int x, y; };\n";
static const char *const unit_a =
	"#include \"inc/h.h\"\n"
	"int shift(struct point *p) { p->x = twice(p->y); return p->x; }\n";
static const char *const unit_b =
	"#include \"../inc/h.h\"\n"
	"int shift(struct point *p);\n"
	"static int local(int v) { struct point p = { v, v + 1 }; return shift(&p); }\n"
	"int main(int argc, char **argv) { (void)argv; return local(argc) + twice(argc); }\n";

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	bool done = f && fputs(text, f) >= 0;

	return f && !fclose(f) && done;
}

/* The two-unit program built with each DWARF version in dir. */
static void test_versions(const char *dir)
{
	char path[512], cmd[1024];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/inc %s/sub", dir, dir);
	if (system(cmd) != 0)
		return;
	snprintf(path, sizeof(path), "%s/inc/h.h", dir);
	write_file(path, header);
	snprintf(path, sizeof(path), "%s/a.c", dir);
	write_file(path, unit_a);
	snprintf(path, sizeof(path), "%s/sub/b.c", dir);
	write_file(path, unit_b);
	for (int v = 2; v <= 5; v++) {
		char what[64];

		snprintf(what, sizeof(what), "DWARF %d program", v);
		snprintf(cmd, sizeof(cmd), "cd %s && cc -O1 -gdwarf-%d -o prog%d a.c sub/b.c", dir,
			 v, v);
		snprintf(path, sizeof(path), "%s/prog%d", dir, v);
		if (system(cmd) != 0 || !compare_file(path, what))
			tap_skip(what, "cc could not build it here");
	}
}

int main(void)
{
	char dir[] = "/tmp/cpperf-decl-XXXXXX", cmd[64];

	if (!compare_file("/proc/self/exe", "this program"))
		tap_skip("this program", "no DWARF in the test binary");
	if (mkdtemp(dir)) {
		test_versions(dir);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", dir);
	} else {
		tap_skip("programs of each DWARF version", "no temporary directory");
	}
	return tap_done();
}
