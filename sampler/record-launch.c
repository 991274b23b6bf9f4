/*
 * record-launch.c - cpperf-record's steps before the exec (record-launch.h):
 * options, program lookup, events, runtime, experiment directory and the
 * environment the runtime reads.
 *
 * Every option is validated with the same table the runtime uses
 * (options.c) and handed over through its CPPERF_* environment twin; events
 * are opened once on this process (with PAPI: started with overflow on) so
 * that a bad or unsupported event fails before the program starts.
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

#include "elf-needed.h"
#include "events.h"
#include "launcher.h"
#include "loader-deps.h"
#include "papi.h"
#include "prog-check.h"
#include "record-launch.h"


bool launch_notices_on(const struct rt_options *o)
{
	return !o->quiet && launcher_rank() <= 0;
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
static int take_option(const struct opt_desc *d, struct rt_options *o, const char *value,
		       char *err, size_t errlen)
{
	if (opt_apply(d, o, value, err, errlen))
		return -1;
	setenv(d->env, value, 1);
	if (d->overrides)
		unsetenv(d->overrides);
	return 0;
}

int launch_parse_args(int argc, char **argv, struct rt_options *o, char *err, size_t errlen)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i], *value = NULL;
		const struct opt_desc *d;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return LAUNCH_HELP;
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
			snprintf(err, errlen, "unknown option '%s'; see cpperf-record --help", a);
			return LAUNCH_USAGE_ERROR;
		}
		if (!d->arg && value) {
			snprintf(err, errlen, "--%s takes no value", d->long_name);
			return LAUNCH_USAGE_ERROR;
		}
		if (d->arg && !value) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "--%s needs a value (%s)", d->long_name, d->arg);
				return LAUNCH_USAGE_ERROR;
			}
			value = argv[++i];
		}
		if (take_option(d, o, value ? value : d->flag_value ? d->flag_value : "1", err, errlen))
			return LAUNCH_USAGE_ERROR;
	}
	if (i >= argc) {
		snprintf(err, errlen, "no program given");
		return LAUNCH_NO_PROGRAM;
	}
	return i;
}

int launch_resolve_program(const char *prog, const char *path_env, char *path, size_t len,
			   char *err, size_t errlen)
{
	struct stat sb;

	if (strchr(prog, '/')) {
		snprintf(path, len, "%s", prog);
	} else {
		const char *p = path_env ? path_env : "/usr/bin:/bin";

		path[0] = 0;
		while (*p) {
			size_t n = strcspn(p, ":");

			snprintf(path, len, "%.*s%s%s", (int)n, p, n ? "/" : "", prog);
			if (access(path, X_OK) == 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
				break;	/* as execvp, which goes on past a directory */
			path[0] = 0;
			p += n + (p[n] == ':');
		}
		if (!path[0]) {
			snprintf(err, errlen, "%s: command not found; give the program's path, or add its "
				 "directory to PATH", prog);
			return PROG_NOT_FOUND;
		}
	}
	if (access(path, X_OK))
		return prog_access_error(prog, errno, err, errlen);
	return 0;
}

void launch_output_name(char *buf, size_t len, const char *prog, const char *job, time_t when,
			int pid)
{
	const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
	char stamp[32];

	if (job) {
		snprintf(buf, len, "cpperf-%.64s-%s", base, job);
		return;
	}
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&when));
	snprintf(buf, len, "cpperf-%.64s-%s-%d", base, stamp, pid);
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
	char job[128];
	bool have_job = launcher_job_id(job, sizeof(job)) == 0;

	launch_output_name(o->output, sizeof(o->output), prog, have_job ? job : NULL, time(NULL),
			   (int)getpid());
	if (!have_job && launcher_rank() >= 0)
		setenv("CPPERF_OUTPUT_AGREE", "1", 1);
}

/* Make dir with permissions mode whatever the umask, and its missing
 * parents as mkdir -p would (under the umask).  0 or -1 with errno. */
static int mkdir_parents(const char *dir, mode_t mode)
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
	if (mkdir(buf, mode) == 0)
		return chmod(buf, mode);
	return errno == EEXIST ? 0 : -1;
}

/* Ranks sharing a directory may race to make it, which is fine: the one
 * that makes it sets its permissions. */
int launch_make_output(struct rt_options *o, const char *prog, bool *created, char *err,
		       size_t errlen)
{
	char abs[PATH_MAX], probe[PATH_MAX + 32];
	struct stat sb;
	int fd;

	unsetenv("CPPERF_OUTPUT_AGREE");
	if (!o->output[0])
		default_output(o, prog);
	*created = stat(o->output, &sb) != 0;
	if (*created ? mkdir_parents(o->output, opt_dir_mode(o)) : !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "-o %s: %s; choose a writable directory", o->output,
			 *created ? strerror(errno) : "exists and is not a directory");
		return -1;
	}
	snprintf(probe, sizeof(probe), "%s/.cpperf-probe-%d", o->output, (int)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "-o %s: cannot create files there (%s); choose a writable directory",
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

int launch_exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);

	if (n <= 0)
		return -1;
	dir[n] = 0;
	*strrchr(dir, '/') = 0;
	return 0;
}

/* The runtime `name` sits beside the executable: EXE_DIR/../lib/NAME
 * (build tree) or EXE_DIR/../lib/cpperf/NAME (installed). */
static int find_runtime_named(const char *name, const char *exe_dir, char *path, size_t len)
{
	static const char *const rel[] = { "/../lib/", "/../lib/cpperf/" };

	if (!exe_dir)
		return -1;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(path, len, "%s%s%s", exe_dir, rel[i], name);
		if (access(path, R_OK) == 0)
			return 0;
	}
	return -1;
}

/* The MPI prog needs a runtime for: CPPERF_MPI's, else what prog links,
 * itself or through its libraries.  Returns 0, or -1 when CPPERF_MPI
 * names none. */
static int runtime_mpi(const char *prog, enum mpi_lib *mpi, char *err, size_t errlen)
{
	const char *force = getenv("CPPERF_MPI");
	struct elf_facts f;

	if (!force || !*force) {
		elf_inspect(prog, &f);
		*mpi = f.mpi != MPI_LIB_NONE ? f.mpi : loader_deps_mpi(prog, &f);
		return 0;
	}
	for (int i = 0; i < MPI_LIB_COUNT; i++)
		if (!strcmp(mpi_libs[i].name, force)) {
			*mpi = (enum mpi_lib)i;
			return 0;
		}
	snprintf(err, errlen, "CPPERF_MPI=%s: not one of openmpi, mpich, none", force);
	return -1;
}

int launch_find_runtime(const char *prog, const char *exe_dir, char *path, size_t len,
			char *notice, size_t noticelen, char *err, size_t errlen)
{
	const char *env = getenv("CPPERF_RUNTIME"), *plain = mpi_libs[MPI_LIB_NONE].runtime;
	enum mpi_lib mpi;

	notice[0] = 0;
	if (env) {
		snprintf(path, len, "%s", env);
		if (access(path, R_OK) == 0)
			return 0;
		snprintf(err, errlen, "CPPERF_RUNTIME=%s: %s", env, strerror(errno));
		return -1;
	}
	if (runtime_mpi(prog, &mpi, err, errlen))
		return -1;
	if (mpi != MPI_LIB_NONE && find_runtime_named(mpi_libs[mpi].runtime, exe_dir, path, len) == 0)
		return 0;
	if (mpi != MPI_LIB_NONE)
		snprintf(notice, noticelen, "%s uses %s but %s was not built (make with that MPI's mpicc); "
			 "profiling without MPI statistics", prog, mpi_libs[mpi].title, mpi_libs[mpi].runtime);
	if (find_runtime_named(plain, exe_dir, path, len)) {
		snprintf(err, errlen, "cannot find %s next to this program; set CPPERF_RUNTIME to its path",
			 plain);
		return -1;
	}
	return 0;
}

/* PAPI: the default is PAPI_TOT_CYC where PAPI can sample it, else a
 * software clock; explicit events must sample as asked.  When neither
 * default samples, PAPI_TOT_CYC's refusal says why and what to use. */
static int check_papi_events(struct rt_options *o, char *notice, size_t noticelen, char *err,
			     size_t errlen)
{
	if (!o->events[0]) {
		struct rt_options probe = *o;

		probe.call_graph = CG_NONE;	/* whether the event samples, whatever the mode */
		strcpy(probe.events, PAPI_DEFAULT_EVENT);
		if (papi_check(&probe, err, errlen) == 0) {
			strcpy(o->events, PAPI_DEFAULT_EVENT);
		} else {
			strcpy(o->events, PAPI_FALLBACK_EVENT);
			if (papi_check(o, err, errlen)) {
				strcpy(o->events, PAPI_DEFAULT_EVENT);
				papi_check(o, err, errlen);
				return -1;
			}
			snprintf(notice, noticelen, "PAPI cannot sample %s here, sampling %s",
				 PAPI_DEFAULT_EVENT, PAPI_FALLBACK_EVENT);
		}
		setenv("CPPERF_EVENT", o->events, 1);
	}
	return papi_check(o, err, errlen) ? -1 : 0;
}

int launch_check_events(struct rt_options *o, char *notice, size_t noticelen, char *err,
			size_t errlen)
{
	struct ev_list list;

	notice[0] = 0;
	if (o->backend == BACKEND_PAPI)
		return check_papi_events(o, notice, noticelen, err, errlen);
	if (!o->events[0]) {
		bool pmu = ev_host_has_pmu();

		strcpy(o->events, pmu ? "cycles" : "task-clock");
		if (!pmu)
			snprintf(notice, noticelen, "no hardware PMU on this host, sampling task-clock");
		setenv("CPPERF_EVENT", o->events, 1);
	}
	if (ev_parse(o->events, &list, err, errlen) || ev_probe(&list, err, errlen))
		return -1;
	return 0;
}

/*
 * The run's identity for every process this launch starts
 * (docs/format.md "Runs and partial profiles"): the launcher's job id,
 * else this process's host, pid and start time.  Kept when set already
 * (a program that runs cpperf-record again belongs to the same run).
 */
void launch_set_run(void)
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

void launch_preload(const char *runtime)
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
