/*
 * cmd-record.c - cpperf-record: check the options and the events, make the
 * experiment directory, then exec the program with the runtime preloaded.
 *
 * Nothing is measured here.  Every option is validated with the same table
 * the runtime uses (sampler/options.c) and handed over through its CPPERF_*
 * environment twin; events are opened once on this process (with PAPI:
 * started with overflow on) so that a bad or unsupported event fails
 * before the program starts.  The program then
 * replaces this process (same pid, same stdio, its exit status and signals
 * are the caller's to see).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../sampler/elf-needed.h"
#include "../sampler/events.h"
#include "../sampler/launcher.h"
#include "../sampler/options.h"
#include "../sampler/papi.h"

#define RUNTIME_NAME "libcpperf.so"

/* The runtimes by MPI (elf-needed.h's order) and CPPERF_MPI's names. */
static const char *const runtime_names[] = { RUNTIME_NAME, "libcpperf-openmpi.so", "libcpperf-mpich.so" };
static const char *const mpi_names[] = { "none", "openmpi", "mpich" };
static const char *const mpi_titles[] = { "no MPI", "Open MPI", "MPICH" };

/* Notices of cpperf-record itself: not with -q, and under an MPI launcher
 * only from rank 0, so that N ranks do not say the same thing N times. */
static bool notices(const struct rt_options *o)
{
	return !o->quiet && launcher_rank() <= 0;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: cpperf-record [options] PROG [ARGS...]\n\n");
	for (const struct opt_desc *d = opt_table; d->long_name; d++) {
		char left[64];

		if (d->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", d->short_name,
				 d->long_name, d->arg ? "=" : "", d->arg ? d->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", d->long_name,
				 d->arg ? "=" : "", d->arg ? d->arg : "");
		fprintf(out, "  %-28s %s [%s]\n", left, d->help, d->env);
	}
	fprintf(out, "\nSee docs/record.md.  Report with: cpperf report DIR\n");
}

static const struct opt_desc *find_long(const char *name, size_t len)
{
	for (const struct opt_desc *d = opt_table; d->long_name; d++)
		if (strlen(d->long_name) == len && !strncmp(d->long_name, name, len))
			return d;
	return NULL;
}

static const struct opt_desc *find_short(char c)
{
	for (const struct opt_desc *d = opt_table; d->long_name; d++)
		if (d->short_name == c)
			return d;
	return NULL;
}

/* Validate one option and export it for the runtime.  Returns 0 or -1. */
static int take_option(const struct opt_desc *d, struct rt_options *o, const char *value)
{
	char err[768];

	if (opt_apply(d, o, value, err, sizeof(err))) {
		fprintf(stderr, "cpperf-record: %s\n", err);
		return -1;
	}
	setenv(d->env, value, 1);
	if (d->overrides)
		unsetenv(d->overrides);
	return 0;
}

/*
 * Parse options up to the program name.  Returns the index of PROG in argv,
 * 0 when the caller should exit 0 (help), or -1 on a usage error.
 */
static int parse_args(int argc, char **argv, struct rt_options *o)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i], *value = NULL;
		const struct opt_desc *d;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');

			d = find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
			if (eq)
				value = eq + 1;
		} else {
			d = find_short(a[1]);
			if (a[2])
				value = a + 2;
		}
		if (!d) {
			fprintf(stderr, "cpperf-record: unknown option '%s'; see cpperf-record --help\n", a);
			return -1;
		}
		if (!d->arg && value) {
			fprintf(stderr, "cpperf-record: --%s takes no value\n", d->long_name);
			return -1;
		}
		if (d->arg && !value) {
			if (i + 1 >= argc) {
				fprintf(stderr, "cpperf-record: --%s needs a value (%s)\n",
					d->long_name, d->arg);
				return -1;
			}
			value = argv[++i];
		}
		if (take_option(d, o, value ? value : d->flag_value ? d->flag_value : "1"))
			return -1;
	}
	if (i >= argc) {
		fprintf(stderr, "cpperf-record: no program given\n");
		usage(stderr);
		return -1;
	}
	return i;
}

/* PAPI: the default is PAPI_TOT_CYC where PAPI can sample it, else a
 * software clock; explicit events must sample as asked.  When neither
 * default samples, PAPI_TOT_CYC's refusal says why and what to use. */
static int check_papi_events(struct rt_options *o)
{
	char err[1024];

	if (!o->events[0]) {
		struct rt_options probe = *o;

		probe.call_graph = CG_NONE;	/* whether the event samples, whatever the mode */
		strcpy(probe.events, PAPI_DEFAULT_EVENT);
		if (papi_check(&probe, err, sizeof(err)) == 0) {
			strcpy(o->events, PAPI_DEFAULT_EVENT);
		} else {
			strcpy(o->events, PAPI_FALLBACK_EVENT);
			if (papi_check(o, err, sizeof(err))) {
				strcpy(o->events, PAPI_DEFAULT_EVENT);
				papi_check(o, err, sizeof(err));
				fprintf(stderr, "cpperf-record: %s\n", err);
				return -1;
			}
			if (notices(o))
				fprintf(stderr, "cpperf-record: PAPI cannot sample %s here, sampling %s\n",
					PAPI_DEFAULT_EVENT, PAPI_FALLBACK_EVENT);
		}
		setenv("CPPERF_EVENT", o->events, 1);
	}
	if (papi_check(o, err, sizeof(err))) {
		fprintf(stderr, "cpperf-record: %s\n", err);
		return -1;
	}
	return 0;
}

/* Choose the default event and check that every event opens here. */
static int check_events(struct rt_options *o)
{
	struct ev_list list;
	char err[1024];

	if (o->backend == BACKEND_PAPI)
		return check_papi_events(o);
	if (!o->events[0]) {
		bool pmu = ev_host_has_pmu();

		strcpy(o->events, pmu ? "cycles" : "task-clock");
		if (!pmu && notices(o))
			fprintf(stderr, "cpperf-record: no hardware PMU on this host, sampling task-clock\n");
		setenv("CPPERF_EVENT", o->events, 1);
	}
	if (ev_parse(o->events, &list, err, sizeof(err)) || ev_probe(&list, err, sizeof(err))) {
		fprintf(stderr, "cpperf-record: %s\n", err);
		return -1;
	}
	return 0;
}

/* Find PROG as execvp would; report the shell's kind of error. */
static int resolve_program(const char *prog, char *path, size_t len, int *status)
{
	const char *dirs = getenv("PATH");

	if (strchr(prog, '/')) {
		snprintf(path, len, "%s", prog);
	} else {
		const char *p = dirs ? dirs : "/usr/bin:/bin";

		path[0] = 0;
		while (*p) {
			size_t n = strcspn(p, ":");

			snprintf(path, len, "%.*s%s%s", (int)n, p, n ? "/" : "", prog);
			if (access(path, X_OK) == 0)
				break;
			path[0] = 0;
			p += n + (p[n] == ':');
		}
		if (!path[0]) {
			fprintf(stderr, "cpperf-record: %s: command not found\n", prog);
			*status = 127;
			return -1;
		}
	}
	if (access(path, X_OK)) {
		fprintf(stderr, "cpperf-record: %s: %s\n", prog, strerror(errno));
		*status = errno == ENOENT ? 127 : 126;
		return -1;
	}
	return 0;
}

static int mkdir_parents(const char *dir)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", dir);
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

/*
 * The default experiment directory.  Every rank of one launch must choose
 * the same: cpperf-PROG-JOBID when the launcher gives a job id.  Without
 * one (MPICH's hydra) each rank makes its own cpperf-PROG-TIME-PID, and
 * CPPERF_OUTPUT_AGREE=1 tells the runtime to move to rank 0's at MPI_Init
 * (pmpi/init.c).
 */
static void default_output(struct rt_options *o, const char *prog)
{
	const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
	char job[128], stamp[32];
	time_t now = time(NULL);

	if (launcher_job_id(job, sizeof(job)) == 0) {
		snprintf(o->output, sizeof(o->output), "cpperf-%.64s-%s", base, job);
		return;
	}
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	snprintf(o->output, sizeof(o->output), "cpperf-%.64s-%s-%d", base, stamp, (int)getpid());
	if (launcher_rank() >= 0)
		setenv("CPPERF_OUTPUT_AGREE", "1", 1);
}

/*
 * Make the experiment directory (the default name, or -o) and check that a
 * file can be created in it.  Sets *created when this call made it; ranks
 * sharing a directory may race to make it, which is fine.
 */
static int make_output(struct rt_options *o, const char *prog, int *created)
{
	char abs[PATH_MAX], probe[PATH_MAX + 32];
	struct stat sb;
	int fd;

	unsetenv("CPPERF_OUTPUT_AGREE");
	if (!o->output[0])
		default_output(o, prog);
	*created = stat(o->output, &sb) != 0;
	if (*created ? mkdir_parents(o->output) : !S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "cpperf-record: -o %s: %s; choose a writable directory\n", o->output,
			*created ? strerror(errno) : "exists and is not a directory");
		return -1;
	}
	snprintf(probe, sizeof(probe), "%s/.cpperf-probe-%d", o->output, (int)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		fprintf(stderr, "cpperf-record: -o %s: cannot create files there (%s); choose a writable directory\n",
			o->output, strerror(errno));
		if (*created)
			rmdir(o->output);
		return -1;
	}
	close(fd);
	unlink(probe);
	if (realpath(o->output, abs))
		setenv("CPPERF_OUTPUT", abs, 1);
	return 0;
}

/* The runtime `name` sits beside us: BIN/../lib/NAME (build tree) or
 * BIN/../lib/cpperf/NAME (installed). */
static int find_runtime_named(const char *name, char *path, size_t len)
{
	static const char *const rel[] = { "/../lib/", "/../lib/cpperf/" };
	char self[PATH_MAX - 64];
	ssize_t n;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	*strrchr(self, '/') = 0;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(path, len, "%s%s%s", self, rel[i], name);
		if (access(path, R_OK) == 0)
			return 0;
	}
	return -1;
}

/*
 * The runtime for prog: the one with the wrappers of the MPI it links
 * (CPPERF_MPI=openmpi|mpich|none overrides), else the plain one;
 * CPPERF_RUNTIME names a file instead.  An MPI runtime that was not built
 * is said once and the plain one used.  Returns 0, or -1 (reported).
 */
static int find_runtime(const struct rt_options *o, const char *prog, char *path, size_t len)
{
	const char *env = getenv("CPPERF_RUNTIME"), *force = getenv("CPPERF_MPI");
	enum elf_mpi mpi = ELF_MPI_NONE;

	if (env) {
		snprintf(path, len, "%s", env);
		if (access(path, R_OK) == 0)
			return 0;
		fprintf(stderr, "cpperf-record: CPPERF_RUNTIME=%s: %s\n", env, strerror(errno));
		return -1;
	}
	if (force && *force) {
		while (mpi < 3 && strcmp(mpi_names[mpi], force))
			mpi++;
		if (mpi == 3) {
			fprintf(stderr, "cpperf-record: CPPERF_MPI=%s: not one of openmpi, mpich, none\n", force);
			return -1;
		}
	} else {
		mpi = elf_needed_mpi(prog);
	}
	if (mpi != ELF_MPI_NONE && find_runtime_named(runtime_names[mpi], path, len) == 0)
		return 0;
	if (mpi != ELF_MPI_NONE && notices(o))
		fprintf(stderr, "cpperf-record: %s uses %s but %s was not built (make with that MPI's mpicc); "
			"profiling without MPI statistics\n", prog, mpi_titles[mpi], runtime_names[mpi]);
	if (find_runtime_named(RUNTIME_NAME, path, len)) {
		fprintf(stderr, "cpperf-record: cannot find %s next to this program; set CPPERF_RUNTIME to its path\n",
			RUNTIME_NAME);
		return -1;
	}
	return 0;
}

/*
 * The run's identity for every process this launch starts
 * (docs/format.md "Runs and partial profiles"): the launcher's job id,
 * else this process's host, pid and start time.  Kept when set already
 * (a program that runs cpperf-record again belongs to the same run).
 */
static void set_run(void)
{
	char run[128], host[64] = "";
	struct timespec now;

	if (getenv("CPPERF_RUN"))
		return;
	if (launcher_job_id(run, sizeof(run))) {
		clock_gettime(CLOCK_REALTIME, &now);
		gethostname(host, sizeof(host) - 1);
		snprintf(run, sizeof(run), "%s.%d.%llx", host, (int)getpid(),
			 (unsigned long long)now.tv_sec * 1000000000ull + (unsigned long long)now.tv_nsec);
	}
	setenv("CPPERF_RUN", run, 1);
}

static void preload(const char *runtime)
{
	const char *old = getenv("LD_PRELOAD");
	char *v;

	if (old && *old) {
		if (asprintf(&v, "%s:%s", runtime, old) < 0)
			return;
		setenv("LD_PRELOAD", v, 1);
		free(v);
	} else {
		setenv("LD_PRELOAD", runtime, 1);
	}
}

int main(int argc, char **argv)
{
	struct rt_options o;
	char err[768], prog[PATH_MAX], runtime[PATH_MAX], pid[32];
	int first, created, status = 2;

	opt_defaults(&o);
	if (opt_from_env(&o, err, sizeof(err))) {
		fprintf(stderr, "cpperf-record: %s\n", err);
		return 2;
	}
	first = parse_args(argc, argv, &o);
	if (first <= 0)
		return first == 0 ? 0 : 2;
	if (resolve_program(argv[first], prog, sizeof(prog), &status))
		return status;
	if (check_events(&o))
		return 2;
	if (find_runtime(&o, prog, runtime, sizeof(runtime)))
		return 2;
	if (make_output(&o, argv[first], &created))
		return 2;
	preload(runtime);
	set_run();
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("CPPERF_ROOT_PID", pid, 1);
	execv(prog, argv + first);
	fprintf(stderr, "cpperf-record: %s: %s\n", argv[first], strerror(errno));
	if (created)
		rmdir(o.output);
	return errno == ENOENT ? 127 : 126;
}
