/*
 * test-launch.c - unit tests for sampler/record-launch.c, cpperf-record's
 * steps before the exec: option parsing up to the program, the program's
 * lookup on a PATH made here, the checks of what the program is
 * (prog-check.c, elf-needed.c, on files made here: ELF headers, scripts,
 * a directory), the MPI a program reaches through its libraries
 * (loader-deps.c, on libraries and programs built here), the experiment
 * directory's name and making,
 * the runtime's choice in fake build and install trees, the event checks'
 * default event, CPPERF_RUN and LD_PRELOAD.  Checks that open events pick
 * their expectation from the host (PMU or not, perf_event_paranoid).
 */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../sampler/elf-needed.h"
#include "../../sampler/events.h"
#include "../../sampler/launcher.h"
#include "../../sampler/loader-deps.h"
#include "../../sampler/prog-check.h"
#include "../../sampler/record-launch.h"
#include "files.h"
#include "tap.h"

static char tmp[PATH_MAX - 128];
static char err[PATH_MAX + 256], notice[PATH_MAX + 256];
static struct rt_options O;

static int has(const char *s, const char *sub)
{
	if (!strstr(s, sub)) {
		printf("#   '%s' does not contain '%s'\n", s, sub);
		return 0;
	}
	return 1;
}

/* tmp/rel into buf (PATH_MAX bytes); returns buf. */
static const char *at(char *buf, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s/%s", tmp, rel);
	return buf;
}

static void mkfile(const char *rel, mode_t mode)
{
	char path[PATH_MAX];

	save(at(path, rel), "");
	chmod(path, mode);
}

/* Parse the arguments after "cpperf-record" into O, from the defaults. */
static int parse(int n, const char **args)
{
	char *argv[16] = { "cpperf-record" };

	for (int i = 0; i < n; i++)
		argv[i + 1] = (char *)args[i];
	opt_defaults(&O);
	err[0] = '\0';
	return launch_parse_args(n + 1, argv, &O, err, sizeof(err));
}

static void test_parse(void)
{
	is_int(parse(6, (const char *[]){ "-F", "333", "-q", "--call-graph=fp", "prog", "-x" }), 5,
	       "options taken, program at index 5");
	is_int(O.freq, 333, "-F VALUE sets the frequency");
	ok(O.quiet, "-q sets quiet");
	is_int(O.call_graph, CG_FP, "--call-graph=fp sets the mode");
	is_str(getenv("CPPERF_FREQ"), "333", "-F exported as CPPERF_FREQ");
	is_str(getenv("CPPERF_CALL_GRAPH"), "fp", "--call-graph exported");
	is_str(getenv("CPPERF_QUIET"), "1", "a flag exports 1");

	setenv("CPPERF_PERIOD", "5", 1);
	is_int(parse(2, (const char *[]){ "-F444", "prog" }), 2, "-FVALUE: program at index 2");
	is_int(O.freq, 444, "attached short value taken");
	ok(!getenv("CPPERF_PERIOD"), "--freq unsets the CPPERF_PERIOD it overrides");
	is_int(parse(2, (const char *[]){ "--no-piggyback", "prog" }), 2, "--no-piggyback parses");
	is_str(getenv("CPPERF_PIGGYBACK"), "0", "a flag with its own value exports it");

	is_int(parse(3, (const char *[]){ "-q", "--", "-prog" }), 3, "-- ends the options");
	is_int(parse(1, (const char *[]){ "-" }), 1, "a lone - is the program");
	is_int(parse(3, (const char *[]){ "prog", "-F", "1" }), 1, "options after the program are its own");

	is_int(parse(2, (const char *[]){ "--bogus", "prog" }), LAUNCH_USAGE_ERROR, "unknown option refused");
	is_str(err, "unknown option '--bogus'; see cpperf-record --help", "unknown option's message");
	is_int(parse(2, (const char *[]){ "-Z", "prog" }), LAUNCH_USAGE_ERROR, "unknown short option refused");
	is_str(err, "unknown option '-Z'; see cpperf-record --help", "unknown short option's message");
	is_int(parse(1, (const char *[]){ "-F" }), LAUNCH_USAGE_ERROR, "missing value refused");
	is_str(err, "--freq needs a value (HZ)", "missing value's message");
	is_int(parse(2, (const char *[]){ "--quiet=1", "prog" }), LAUNCH_USAGE_ERROR, "value on a flag refused");
	is_str(err, "--quiet takes no value", "value on a flag's message");
	is_int(parse(3, (const char *[]){ "-F", "abc", "prog" }), LAUNCH_USAGE_ERROR, "bad value refused");
	ok(has(err, "--freq") && has(err, "'abc'"), "bad value's message names the option and the value");

	is_int(O.cp_budget, 1 << 20, "--cp-budget's default is 1 MiB");
	is_int(parse(2, (const char *[]){ "--cp-budget=64K", "prog" }), 2, "--cp-budget=64K parses");
	is_int(O.cp_budget, 65536, "K multiplies by 1024");
	is_int(parse(2, (const char *[]){ "--cp-budget=2G", "prog" }), 2, "--cp-budget=2G parses");
	is_int(O.cp_budget, 2ll << 30, "G multiplies by 1024^3");
	is_int(parse(2, (const char *[]){ "--cp-budget=0", "prog" }), 2, "--cp-budget=0 parses");
	is_int(O.cp_budget, 0, "0: no limit");
	for (int i = 0; i < 5; i++) {
		const char *bad[] = { "--cp-budget=100", "--cp-budget=1T", "--cp-budget=K",
				      "--cp-budget=-1", "--cp-budget=99999999999999999999G" };

		is_int(parse(2, (const char *[]){ bad[i], "prog" }), LAUNCH_USAGE_ERROR, bad[i]);
		ok(has(err, "--cp-budget") && has(err, "at least 1024"), err);
	}
	unsetenv("CPPERF_CP_BUDGET");

	is_int(parse(3, (const char *[]){ "-q", "--help", "prog" }), LAUNCH_HELP, "--help");
	is_int(parse(1, (const char *[]){ "-h" }), LAUNCH_HELP, "-h");
	is_int(parse(1, (const char *[]){ "-q" }), LAUNCH_NO_PROGRAM, "no program");
	is_str(err, "no program given", "no program's message");
	is_int(parse(0, NULL), LAUNCH_NO_PROGRAM, "no arguments at all: no program");
	unsetenv("CPPERF_QUIET");
}

static int resolve(const char *prog, const char *path_env, char *path)
{
	err[0] = '\0';
	return launch_resolve_program(prog, path_env, path, PATH_MAX, err, sizeof(err));
}

static void test_resolve(void)
{
	char bin[PATH_MAX], want[4 * PATH_MAX], path_env[PATH_MAX + 32], path[PATH_MAX], file[PATH_MAX];

	mkdir(at(bin, "bin"), 0755);
	mkfile("bin/hello", 0755);
	mkfile("bin/plain", 0644);
	snprintf(path_env, sizeof(path_env), "/nonexistent:%s", bin);

	is_int(resolve("hello", path_env, path), 0, "found on PATH");
	is_str(path, at(want, "bin/hello"), "found in the second PATH directory");
	is_int(resolve("nope", path_env, path), 127, "not on PATH: 127");
	is_str(err, "nope: command not found; give the program's path, or add its directory to PATH",
	       "not on PATH's message");
	is_int(resolve("plain", path_env, path), 127, "not executable on PATH: skipped as execvp, 127");
	is_int(resolve(at(file, "bin/plain"), path_env, path), 126, "a path not executable: 126");
	snprintf(want, sizeof(want), "%s: %s: not executable (mode 0644); make it executable (chmod +x %s), "
		 "or give its interpreter as the program (sh %s)", file, strerror(EACCES), file, file);
	is_str(err, want, "not executable's message");
	is_int(resolve(at(file, "bin/none"), path_env, path), 127, "a path that does not exist: 127");
	snprintf(want, sizeof(want), "%s: %s; check the program's path", file, strerror(ENOENT));
	is_str(err, want, "missing path's message");
	is_int(resolve(at(file, "bin/hello"), "", path), 0, "a path with / ignores PATH");
	is_str(path, file, "a path with / is kept");
	mkdir(at(path, "bin/adir"), 0755);
	snprintf(path_env, sizeof(path_env), "%s:/usr/bin:/bin", bin);
	is_int(resolve("adir", path_env, path), 127, "a directory on PATH is skipped as execvp does");
	is_int(resolve("sh", NULL, path), 0, "no PATH: /usr/bin:/bin");
	ok(!strcmp(path, "/usr/bin/sh") || !strcmp(path, "/bin/sh"), "no PATH: sh found in /usr/bin or /bin");
}

/* An executable file that is only an ELF header of class cls, type,
 * machine and no program headers (a static program when native). */
static void mkelf(const char *rel, unsigned char cls, uint16_t type, uint16_t machine)
{
	Elf64_Ehdr h;
	char path[PATH_MAX];
	FILE *f;

	memset(&h, 0, sizeof(h));
	memcpy(h.e_ident, ELFMAG, SELFMAG);
	h.e_ident[EI_CLASS] = cls;
	h.e_ident[EI_DATA] = ELFDATA2LSB;
	h.e_ident[EI_VERSION] = EV_CURRENT;
	h.e_type = type;
	h.e_machine = machine;	/* the same offset in both classes */
	h.e_phentsize = sizeof(Elf64_Phdr);
	if ((f = fopen(at(path, rel), "w"))) {
		fwrite(&h, sizeof(h), 1, f);
		fclose(f);
	}
	chmod(path, 0755);
}

/* e_machine of this test's own executable. */
static uint16_t own_machine(void)
{
	Elf64_Ehdr h = { 0 };
	FILE *f = fopen("/proc/self/exe", "r");

	if (f) {
		if (fread(&h, sizeof(h), 1, f) != 1)
			h.e_machine = 0;
		fclose(f);
	}
	return h.e_machine;
}

static int check(const char *rel)
{
	char path[PATH_MAX];

	err[0] = '\0';
	return prog_check(rel, at(path, rel), err, sizeof(err));
}

static void script(const char *rel, const char *text)
{
	char path[PATH_MAX];

	save(at(path, rel), text);
	chmod(path, 0755);
}

static void test_program_checks(void)
{
	char path[PATH_MAX], text[PATH_MAX + 32];
	struct elf_facts f;

	is_int(elf_inspect("/bin/sh", &f), 0, "/bin/sh's headers are read");
	ok(f.elf && f.native && f.interp && !elf_is_static(&f), "/bin/sh: native, with an interpreter");
	is_int(elf_inspect(at(path, "nothing-here"), &f), -1, "a missing file cannot be read");

	mkelf("static", ELFCLASS64, ET_EXEC, own_machine());
	is_int(check("static"), PROG_NOT_PROFILABLE, "ET_EXEC without PT_INTERP: static, refused");
	ok(has(err, "static is statically linked: the runtime cannot be preloaded") &&
	   has(err, "without -static,"), "static: the message says what to do");
	mkelf("static-pie", ELFCLASS64, ET_DYN, own_machine());
	is_int(check("static-pie"), PROG_NOT_PROFILABLE, "ET_DYN without PT_INTERP or DT_SONAME: static-pie");
	ok(has(err, "statically linked (static-pie)") && has(err, "without -static-pie"),
	   "static-pie: the message names it");
	mkelf("elf32", ELFCLASS32, ET_EXEC, EM_386);
	is_int(check("elf32"), PROG_NOT_PROFILABLE, "a 32-bit program is refused");
	ok(has(err, "elf32 is a 32-bit program"), "32-bit: the message says so");
	mkelf("foreign", ELFCLASS64, ET_EXEC, (uint16_t)(own_machine() + 1));
	is_int(check("foreign"), PROG_NOT_PROFILABLE, "another machine's program is refused");
	ok(has(err, "foreign is a program for another machine"), "another machine: the message says so");

	mkdir(at(path, "dir"), 0755);
	is_int(check("dir"), PROG_NOT_EXECUTABLE, "a directory: 126");
	is_str(err, "dir is a directory, not a program; give the path of the program to run",
	       "a directory's message");
	mkfifo(at(path, "fifo"), 0755);
	is_int(check("fifo"), PROG_NOT_EXECUTABLE, "a FIFO: 126");
	ok(has(err, "fifo is not a regular file"), "a FIFO's message");

	script("sh.sh", "#!/bin/sh\nexit 0\n");
	is_int(check("sh.sh"), 0, "a script with a dynamic interpreter");
	script("spaced.sh", "#! \t/bin/sh -e\n");
	is_int(check("spaced.sh"), 0, "#! with blanks and an argument");
	snprintf(text, sizeof(text), "#!%s\n", at(path, "sh.sh"));
	script("nested.sh", text);
	is_int(check("nested.sh"), 0, "a script run by a script run by /bin/sh");
	snprintf(text, sizeof(text), "#!%s arg\n", at(path, "static"));
	script("static.sh", text);
	is_int(check("static.sh"), PROG_NOT_PROFILABLE, "a script whose interpreter is static");
	ok(has(err, "static.sh's interpreter ") && has(err, "/static is statically linked") &&
	   has(err, "name a dynamically linked interpreter in the script's #! line"),
	   "its message names the interpreter");
	snprintf(text, sizeof(text), "#!%s\n", at(path, "missing-shell"));
	script("lost.sh", text);
	is_int(check("lost.sh"), PROG_NOT_FOUND, "a missing interpreter: 127");
	ok(has(err, "lost.sh: bad interpreter ") && has(err, "missing-shell (its #! line): "),
	   "a missing interpreter's message");
	snprintf(text, sizeof(text), "#!%s\n", at(path, "dir"));
	script("dir.sh", text);
	is_int(check("dir.sh"), PROG_NOT_EXECUTABLE, "a directory as interpreter: 126");
	ok(has(err, "dir.sh's interpreter ") && has(err, "is a directory"), "its message");
	snprintf(text, sizeof(text), "#!%s\n", at(path, "loop.sh"));
	script("loop.sh", text);
	is_int(check("loop.sh"), 0, "a script that names itself: left to the exec, no endless loop");
	script("plain", "echo hi\n");
	is_int(check("plain"), 0, "a file of no known format: left to the exec");

	is_int(prog_access_error("x/prog", ENOEXEC, err, sizeof(err)), PROG_NOT_EXECUTABLE,
	       "exec format error: 126");
	ok(has(err, "x/prog: ") && has(err, "add one (#!/bin/sh)"), "exec format error: what to do");
	is_int(prog_access_error(at(path, "dir"), EACCES, err, sizeof(err)), PROG_NOT_EXECUTABLE,
	       "a directory refused by the exec: 126");
	ok(has(err, "a directory, not a program"), "a directory refused by the exec: says so");
}

/* A program `rel` that needs libdep-rel.so, which needs a library of
 * soname `lib` (all made here, found by their run paths), built by the
 * host's cc with `ldflags`; 0 when it could not be built. */
static int build_via_library(const char *rel, const char *lib, const char *ldflags)
{
	char cmd[4 * PATH_MAX];

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && mkdir -p %s.d && echo 'int x;' > %s.d/x.c && echo 'int main(void) { return 0; }' > %s.d/m.c && "
		 "cc -shared -fPIC -o %s.d/%s -Wl,-soname,%s %s.d/x.c && "
		 "cc -shared -fPIC -o %s.d/libdep.so -Wl,--no-as-needed -L%s.d -l:%s %s.d/x.c -Wl,-rpath,'$ORIGIN' && "
		 "cc -o %s -Wl,--no-as-needed %s.d/m.c -L%s.d -ldep -Wl,-rpath,%s/%s.d %s 2> /dev/null",
		 tmp, rel, rel, rel, rel, lib, lib, rel, rel, rel, lib, rel, rel, rel, rel, tmp, rel, ldflags);
	return system(cmd) == 0;
}

static void test_loader_deps(void)
{
	struct elf_facts f;
	char path[PATH_MAX];
	char long_line[600];

	is_int(loader_list_mpi("\tlinux-vdso.so.1 (0x7ffd)\n\tlibdep.so => /x/libdep.so (0x7f00)\n"
			       "\tlibmpi.so.40 => /usr/lib/libmpi.so.40 (0x7f01)\n"), MPI_LIB_OPENMPI,
	       "a listing with libmpi.so.40 past the first lines: Open MPI");
	is_int(loader_list_mpi("\tlibmpich.so.12 => not found\n"), MPI_LIB_MPICH,
	       "a library not found is named still: MPICH");
	is_int(loader_list_mpi("\t/opt/mpi/lib/libmpi.so.12 (0x7f00)"), MPI_LIB_MPICH,
	       "a library named by its path, on a last line without a newline");
	is_int(loader_list_mpi("\tlibc.so.6 => /lib/libc.so.6 (0x7f00)\n\t/lib64/ld-linux-x86-64.so.2\n"),
	       MPI_LIB_NONE, "no MPI in the listing");
	is_int(loader_list_mpi(""), MPI_LIB_NONE, "an empty listing");
	memset(long_line, 'a', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = 0;
	memcpy(long_line + sizeof(long_line) - 14, "libmpi.so.40\n", 13);
	is_int(loader_list_mpi(long_line), MPI_LIB_NONE,
	       "a name longer than a library's is cut, not matched on its tail");
	is_int(loader_list_mpi("\tlibmpi.so.400 (0x1)\n\tlibmpi.so.4 (0x1)\n"), MPI_LIB_NONE,
	       "only whole names match");
	is_int(mpi_lib_of("libmpi.so.40.30.4"), MPI_LIB_OPENMPI, "a library's file: its soname's MPI");
	is_int(mpi_lib_of("libmpich.so.12.2"), MPI_LIB_MPICH, "the same for MPICH");
	is_int(mpi_lib_of("libmpi.so.40x"), MPI_LIB_NONE, "a soname's prefix of another name: none");

	ok(elf_own_loader()[0] == '/', "this program's own loader is known");
	elf_inspect("/bin/sh", &f);
	is_int(loader_deps_mpi("/bin/sh", &f), MPI_LIB_NONE, "/bin/sh reaches no MPI");
	mkelf("static-deps", ELFCLASS64, ET_EXEC, own_machine());
	elf_inspect(at(path, "static-deps"), &f);
	is_int(loader_deps_mpi(path, &f), MPI_LIB_NONE, "a static program: nothing asked");

	if (!build_via_library("via-ompi", "libmpi.so.40", "") ||
	    !build_via_library("via-mpich", "libmpich.so.12", "") ||
	    !build_via_library("via-other", "libmpi.so.40", "-Wl,--dynamic-linker=/nowhere/ld.so")) {
		tap_skip("programs reaching an MPI through a library", "cc could not build them here");
		return;
	}
	elf_inspect(at(path, "via-ompi"), &f);
	is_int(f.mpi, MPI_LIB_NONE, "the program itself needs no MPI");
	is_int(loader_deps_mpi(path, &f), MPI_LIB_OPENMPI, "its library needs Open MPI's");
	elf_inspect(at(path, "via-mpich"), &f);
	is_int(loader_deps_mpi(path, &f), MPI_LIB_MPICH, "through a library: MPICH's");
	elf_inspect(at(path, "via-other"), &f);
	is_int(loader_deps_mpi(path, &f), MPI_LIB_OPENMPI,
	       "a program that names another loader: listed by this one all the same");
}

static void test_output_name(void)
{
	char name[PATH_MAX], want[256];
	char longprog[200];

	launch_output_name(name, sizeof(name), "/a/b/prog", "job42", 0, 123);
	is_str(name, "cpperf-prog-job42", "with a job id: cpperf-PROG-JOB");
	launch_output_name(name, sizeof(name), "prog", NULL, 86400 + 3661, 123);
	is_str(name, "cpperf-prog-19700102-010101-123", "without: cpperf-PROG-TIME-PID");
	memset(longprog, 'x', sizeof(longprog) - 1);
	longprog[sizeof(longprog) - 1] = '\0';
	launch_output_name(name, sizeof(name), longprog, "j", 0, 1);
	snprintf(want, sizeof(want), "cpperf-%.64s-j", longprog);
	is_str(name, want, "the program's name is cut at 64 characters");
}

static int make_output(const char *dir, bool *created)
{
	snprintf(O.output, sizeof(O.output), "%s", dir);
	err[0] = '\0';
	return launch_make_output(&O, "/some/where/prog", created, err, sizeof(err));
}

static void test_make_output(void)
{
	char dir[PATH_MAX], file[PATH_MAX], want[PATH_MAX + 128], real[PATH_MAX];
	struct stat sb;
	bool created = false;

	opt_defaults(&O);
	is_int(make_output(at(dir, "out/a/b"), &created), 0, "makes the directory and its parents");
	ok(created, "says it made it");
	ok(stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode), "the directory exists");
	ok(realpath(dir, real) && getenv("CPPERF_OUTPUT") && !strcmp(getenv("CPPERF_OUTPUT"), real),
	   "CPPERF_OUTPUT is its absolute path");
	ok(rmdir(dir) == 0, "empty: the probe file is gone");
	mkdir(dir, 0755);
	is_int(make_output(dir, &created), 0, "an existing directory is fine");
	ok(!created, "an existing directory is not said to be made");

	mkfile("afile", 0644);
	is_int(make_output(at(file, "afile"), &created), -1, "a file is refused");
	snprintf(want, sizeof(want), "-o %s: exists and is not a directory; choose a writable directory", file);
	is_str(err, want, "a file's message");
	is_int(make_output(at(file, "afile/sub"), &created), -1, "a directory under a file is refused");
	snprintf(want, sizeof(want), "-o %s: %s; choose a writable directory", file, strerror(ENOTDIR));
	is_str(err, want, "a directory under a file's message");
	is_int(make_output("/proc/cpperf", &created), -1, "somewhere unwritable is refused");
	ok(has(err, "-o /proc/cpperf: ") && has(err, "; choose a writable directory"),
	   "unwritable's message names the directory");
}

/* The default directory is made in the current directory (tmp here). */
static void test_default_output(void)
{
	char cwd[PATH_MAX], pid[32];
	bool created;

	if (!getcwd(cwd, sizeof(cwd)) || chdir(tmp))
		tap_bail("cannot change to the temporary directory");
	setenv("SLURM_JOB_ID", "77", 1);
	setenv("SLURM_STEP_ID", "3", 1);
	setenv("CPPERF_OUTPUT_AGREE", "1", 1);
	is_int(make_output("", &created), 0, "default directory with a job id");
	is_str(O.output, "cpperf-prog-77.3", "named after the program and the job");
	ok(!getenv("CPPERF_OUTPUT_AGREE"), "with a job id the ranks need not agree later");
	unsetenv("SLURM_JOB_ID");
	unsetenv("SLURM_STEP_ID");

	snprintf(pid, sizeof(pid), "-%d", (int)getpid());
	setenv("PMI_RANK", "0", 1);
	is_int(make_output("", &created), 0, "default directory without a job id, under a launcher");
	ok(!strncmp(O.output, "cpperf-prog-", 12) && has(O.output, pid), "named after the program, time and pid");
	is_str(getenv("CPPERF_OUTPUT_AGREE"), "1", "ranks told to agree at MPI_Init");
	unsetenv("PMI_RANK");
	is_int(make_output("", &created), 0, "default directory without a launcher");
	ok(!getenv("CPPERF_OUTPUT_AGREE"), "no launcher: nothing to agree on");
	if (chdir(cwd))
		tap_bail("cannot change back");
}

static int find_runtime(const char *exe_dir, char *path)
{
	err[0] = notice[0] = '\0';
	return launch_find_runtime("/bin/true", exe_dir, path, PATH_MAX, notice, sizeof(notice), err,
				   sizeof(err));
}

static void test_runtime(void)
{
	char bin[PATH_MAX], inst[PATH_MAX], path[PATH_MAX], want[PATH_MAX + 128], exe[PATH_MAX];

	mkdir(at(path, "tree"), 0755);
	mkdir(at(path, "tree/lib"), 0755);
	mkdir(at(bin, "tree/bin"), 0755);
	is_int(find_runtime(bin, path), -1, "no runtime beside the executable");
	is_str(err, "cannot find libcpperf.so next to this program; set CPPERF_RUNTIME to its path",
	       "no runtime's message");
	is_int(find_runtime(NULL, path), -1, "executable's directory unknown: no runtime");

	mkfile("tree/lib/libcpperf.so", 0644);
	is_int(find_runtime(bin, path), 0, "build tree: found");
	snprintf(want, sizeof(want), "%s/../lib/libcpperf.so", bin);
	is_str(path, want, "a program without MPI gets the plain runtime");
	is_str(notice, "", "without a notice");

	mkfile("tree/lib/libcpperf-openmpi.so", 0644);
	setenv("CPPERF_MPI", "openmpi", 1);
	is_int(find_runtime(bin, path), 0, "CPPERF_MPI=openmpi");
	snprintf(want, sizeof(want), "%s/../lib/libcpperf-openmpi.so", bin);
	is_str(path, want, "CPPERF_MPI=openmpi: the Open MPI runtime");
	setenv("CPPERF_MPI", "mpich", 1);
	is_int(find_runtime(bin, path), 0, "CPPERF_MPI=mpich, not built: still runs");
	snprintf(want, sizeof(want), "%s/../lib/libcpperf.so", bin);
	is_str(path, want, "MPI runtime not built: the plain one");
	is_str(notice, "/bin/true uses MPICH but libcpperf-mpich.so was not built (make with that MPI's "
	       "mpicc); profiling without MPI statistics", "MPI runtime not built: the notice");
	setenv("CPPERF_MPI", "none", 1);
	is_int(find_runtime(bin, path), 0, "CPPERF_MPI=none");
	is_str(path, want, "CPPERF_MPI=none: the plain runtime beside an MPI one");
	setenv("CPPERF_MPI", "lam", 1);
	is_int(find_runtime(bin, path), -1, "CPPERF_MPI=lam refused");
	is_str(err, "CPPERF_MPI=lam: not one of openmpi, mpich, none", "bad CPPERF_MPI's message");
	unsetenv("CPPERF_MPI");

	mkdir(at(path, "inst"), 0755);
	mkdir(at(path, "inst/lib"), 0755);
	mkdir(at(path, "inst/lib/cpperf"), 0755);
	mkdir(at(inst, "inst/bin"), 0755);
	mkfile("inst/lib/cpperf/libcpperf.so", 0644);
	is_int(find_runtime(inst, path), 0, "installed tree: found");
	snprintf(want, sizeof(want), "%s/../lib/cpperf/libcpperf.so", inst);
	is_str(path, want, "installed tree: lib/cpperf/");

	setenv("CPPERF_RUNTIME", at(exe, "tree/lib/libcpperf-openmpi.so"), 1);
	is_int(find_runtime(inst, path), 0, "CPPERF_RUNTIME names a file");
	is_str(path, exe, "CPPERF_RUNTIME's file is used");
	setenv("CPPERF_RUNTIME", at(exe, "missing.so"), 1);
	is_int(find_runtime(inst, path), -1, "CPPERF_RUNTIME missing refused");
	snprintf(want, sizeof(want), "CPPERF_RUNTIME=%s: %s", exe, strerror(ENOENT));
	is_str(err, want, "CPPERF_RUNTIME missing's message");
	unsetenv("CPPERF_RUNTIME");

	is_int(launch_exe_dir(exe, sizeof(exe)), 0, "the executable's directory is found");
	snprintf(want, sizeof(want), "%s/test-launch", exe);
	ok(access(want, X_OK) == 0, "and holds this test");
}

static void test_events(void)
{
	int rc;

	opt_defaults(&O);
	strcpy(O.events, "task-clok");
	is_int(launch_check_events(&O, notice, sizeof(notice), err, sizeof(err)), -1, "unknown event refused");
	ok(has(err, "task-clock") && has(err, "cpperf list"),
	   "unknown event: the message suggests task-clock and cpperf list");

	opt_defaults(&O);
	unsetenv("CPPERF_EVENT");
	rc = launch_check_events(&O, notice, sizeof(notice), err, sizeof(err));
	if (ev_host_has_pmu()) {
		is_str(O.events, "cycles", "a PMU: cycles by default");
		is_str(notice, "", "a PMU: no notice");
	} else {
		is_str(O.events, "task-clock", "no PMU: task-clock by default");
		is_str(notice, "no hardware PMU on this host, sampling task-clock", "no PMU: the notice");
	}
	is_str(getenv("CPPERF_EVENT"), O.events, "the default event is exported");
	if (rc && has(err, "perf_event_paranoid"))
		tap_skip("the default event opens", err);
	else
		is_int(rc, 0, "the default event opens");

	opt_defaults(&O);
	O.backend = BACKEND_PAPI;
	unsetenv("CPPERF_EVENT");
	rc = launch_check_events(&O, notice, sizeof(notice), err, sizeof(err));
	if (!HAVE_PAPI) {
		ok(rc && has(err, "built without PAPI"), "built without PAPI: refused, says so");
	} else if (rc) {
		ok(has(err, "PAPI_TOT_CYC"), "PAPI samples nothing here: PAPI_TOT_CYC's refusal says why");
		is_str(O.events, "PAPI_TOT_CYC", "PAPI samples nothing here: the default event is kept");
	} else if (!strcmp(O.events, "PAPI_TOT_CYC")) {
		is_str(notice, "", "PAPI samples PAPI_TOT_CYC: no notice");
	} else {
		is_str(notice, "PAPI cannot sample PAPI_TOT_CYC here, sampling perf::TASK-CLOCK",
		       "PAPI falls back to perf::TASK-CLOCK with the notice");
	}
	unsetenv("CPPERF_EVENT");
}

static void test_environment(void)
{
	char pid[32];

	setenv("CPPERF_RUN", "kept", 1);
	launch_set_run();
	is_str(getenv("CPPERF_RUN"), "kept", "CPPERF_RUN kept when set");
	unsetenv("CPPERF_RUN");
	launch_set_run();
	snprintf(pid, sizeof(pid), ".%d.", (int)getpid());
	ok(getenv("CPPERF_RUN") && has(getenv("CPPERF_RUN"), pid), "no launcher: the run is HOST.PID.TIME");
	unsetenv("CPPERF_RUN");
	setenv("OMPI_MCA_ess_base_jobid", "job/9", 1);
	launch_set_run();
	is_str(getenv("CPPERF_RUN"), "job_9", "under a launcher: the run is its job id");
	unsetenv("OMPI_MCA_ess_base_jobid");
	unsetenv("CPPERF_RUN");

	launch_preload("/x/libcpperf.so");
	is_str(getenv("LD_PRELOAD"), "/x/libcpperf.so", "LD_PRELOAD unset: the runtime alone");
	setenv("LD_PRELOAD", "libm.so.6", 1);
	launch_preload("/x/libcpperf.so");
	is_str(getenv("LD_PRELOAD"), "/x/libcpperf.so:libm.so.6", "LD_PRELOAD set: the runtime first");
	setenv("LD_PRELOAD", "", 1);
	launch_preload("/x/libcpperf.so");
	is_str(getenv("LD_PRELOAD"), "/x/libcpperf.so", "LD_PRELOAD empty: the runtime alone");
	unsetenv("LD_PRELOAD");

	opt_defaults(&O);
	ok(launch_notices_on(&O), "notices on by default");
	setenv("PMI_RANK", "1", 1);
	ok(!launch_notices_on(&O), "no notices on rank 1");
	setenv("PMI_RANK", "0", 1);
	ok(launch_notices_on(&O), "notices on rank 0");
	unsetenv("PMI_RANK");
	O.quiet = true;
	ok(!launch_notices_on(&O), "no notices with -q");
}

/* The launcher's and cpperf's variables this test sets, unset so that the
 * environment it runs in changes nothing. */
static void clean_environment(void)
{
	static const char *const vars[] = { "OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE", "SLURM_JOB_ID",
		"SLURM_STEP_ID", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID",
		"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS",
		"CPPERF_RUNTIME", "CPPERF_MPI", "CPPERF_RUN", "CPPERF_OUTPUT", "CPPERF_OUTPUT_AGREE",
		"CPPERF_EVENT", "CPPERF_FREQ", "CPPERF_PERIOD", "LD_PRELOAD" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
}

/* The launchers' table (sampler/launcher.c): each launcher's variables,
 * and the earlier row's when two launchers' are set. */
static void test_launchers(void)
{
	char id[64] = "";

	clean_environment();
	is_int(launcher_rank(), -1, "no launcher: no rank");
	is_int(launcher_job_id(id, sizeof(id)), -1, "no launcher: no job id");
	setenv("SLURM_JOB_ID", "77", 1);
	setenv("SLURM_PROCID", "5", 1);
	setenv("SLURM_NTASKS", "8", 1);
	ok(launcher_job_id(id, sizeof(id)) == 0 && !strcmp(id, "77.batch"),
	   "srun in a batch script without a step: job 77.batch");
	setenv("SLURM_STEP_ID", "3", 1);
	ok(launcher_job_id(id, sizeof(id)) == 0 && !strcmp(id, "77.3"), "srun: job 77, step 3");
	is_int(launcher_rank() * 100 + launcher_size(), 508, "srun: rank 5 of 8");
	setenv("PMI_RANK", "2", 1);
	setenv("PMI_SIZE", "4", 1);
	is_int(launcher_rank() * 100 + launcher_size(), 204, "hydra's PMI_RANK before Slurm's");
	setenv("PMIX_NAMESPACE", "ns/1", 1);
	setenv("PMIX_RANK", "1", 1);
	ok(launcher_job_id(id, sizeof(id)) == 0 && !strcmp(id, "ns_1"),
	   "PMIx's namespace before Slurm's job, made safe for a file name");
	is_int(launcher_rank(), 1, "PMIx's rank before PMI's");
	setenv("OMPI_MCA_ess_base_jobid", "9", 1);
	setenv("OMPI_COMM_WORLD_RANK", "0", 1);
	setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
	ok(launcher_job_id(id, sizeof(id)) == 0 && !strcmp(id, "9"), "Open MPI's job id first");
	is_int(launcher_rank() * 100 + launcher_size(), 2, "Open MPI's rank 0 of 2 first");
	clean_environment();
}

int main(void)
{
	char cmd[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s/cpperf-launch-test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp))
		tap_bail("mkdtemp failed");
	clean_environment();
	setenv("TZ", "UTC", 1);
	tzset();
	test_parse();
	test_resolve();
	test_program_checks();
	test_loader_deps();
	test_output_name();
	test_make_output();
	test_default_output();
	test_runtime();
	test_events();
	test_environment();
	test_launchers();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return tap_done();
}
