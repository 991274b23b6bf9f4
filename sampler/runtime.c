/*
 * runtime.c - the life of the preloaded runtime in one process: start-up
 * (options from the environment, symbol session, drain thread, events for
 * the threads, handlers for fatal signals), and the end (stop sampling,
 * drain what is left, write the final profile into the experiment
 * directory, checkpoint.c).  The end comes at normal exit, at _exit, or
 * just before an exec so that the old image's profile is kept and the new
 * image starts its own (an MPI rank's image before MPI_Init keeps none);
 * a fatal signal ends it through signals.c.  fork
 * children are profiled only with --follow-fork; children that exec a new
 * image check the same rule.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "launcher.h"
#include "papi.h"
#include "rt.h"

/* The process's runtime state.  Written by the thread that starts or ends
 * the runtime (constructor, destructor, exec and fork hooks); the drain
 * thread and new threads only use it between those points. */
static struct rt_state rt_global = { .lock = PTHREAD_MUTEX_INITIALIZER,
				     .agg_lock = PTHREAD_MUTEX_INITIALIZER, .live = { .fd = -1 } };

struct rt_state *rt_current(void)
{
	return rt_global.active ? &rt_global : NULL;
}

void rt_notice(const struct rt_state *rt, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	if (rt->opt.quiet)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* one write, so lines of several processes do not interleave */
	dprintf(STDERR_FILENO, "cpperf: %.*s", n, line);
}


/* The program cpperf-record started has its pid in CPPERF_ROOT_PID (exec
 * keeps the pid). */
static bool is_root(void)
{
	const char *root = getenv("CPPERF_ROOT_PID");

	return root && atoi(root) == getpid();
}

/* Should this process be profiled?  The root, and others with
 * --follow-fork. */
static bool wanted(const struct rt_options *o)
{
	if (!getenv("CPPERF_OUTPUT"))
		return false;
	return o->follow_fork || is_root();
}

static void read_cmdline(struct profile *p)
{
	char buf[8192];
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	uint32_t argc = 0;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	for (ssize_t i = 0; i < n; i++)
		argc += buf[i] == 0;
	p->argv = calloc(argc + 1, sizeof(char *));
	if (!p->argv)
		return;
	for (char *s = buf; s < buf + n && p->argc < argc; s += strlen(s) + 1)
		p->argv[p->argc++] = strdup(s);
}

/* How often event 0 samples a running thread (ns), which the thread
 * activity needs: at a frequency, or every period of a clock; 0 (no
 * activity) for a period of another event, with PAPI, whose samples
 * carry no time, or with --no-activity. */
static uint64_t sample_window_ns(const struct rt_state *rt)
{
	const char *name;
	size_t n;

	if (!rt->opt.activity || rt->opt.backend != BACKEND_PERF || rt->events.n < 1 ||
	    rt->events.ev[0].leader)
		return 0;
	name = rt->events.ev[0].name;
	n = strcspn(name, ":");
	if (rt->opt.freq)
		return 1000000000ull / rt->opt.freq;
	if ((n == 10 && !strncmp(name, "task-clock", n)) || (n == 9 && !strncmp(name, "cpu-clock", n)))
		return rt->opt.period;
	return 0;
}

static int init_profile(struct rt_state *rt)
{
	struct profile *p = &rt->prof;
	char host[256] = "";

	profile_init(p);
	act_start(&rt->act, sample_window_ns(rt));
	p->events = calloc((size_t)rt->events.n, sizeof(*p->events));
	if (!p->events || cct_init(&p->tree, (uint32_t)rt->events.n))
		return -1;
	p->nevents = (uint32_t)rt->events.n;
	for (int i = 0; i < rt->events.n; i++) {
		const struct ev_spec *ev = &rt->events.ev[i];

		p->events[i].name = strdup(ev->name);
		p->events[i].leader = (uint32_t)ev->leader;
		if (ev->leader == i) {
			p->events[i].period = rt->opt.period;
			p->events[i].freq = rt->opt.freq;
		}
	}
	gethostname(host, sizeof(host) - 1);
	p->host = strdup(host);
	p->pid = getpid();
	/* the launcher's numbers until MPI_Init gives the job's, so that a
	 * rank that dies before is named; not for its forked children */
	p->rank = is_root() ? launcher_rank() : -1;
	p->size = p->rank >= 0 && launcher_size() > p->rank ? launcher_size() : 0;
	if (!p->size)
		p->rank = -1;
	p->start_ns = rt_clock_ns(CLOCK_REALTIME);
	p->backend = strdup(opt_backend_name(rt->opt.backend));
	p->call_graph = strdup(opt_call_graph_name(rt->opt.call_graph));
	p->run = strdup(getenv("CPPERF_RUN") ? getenv("CPPERF_RUN") : "");
	read_cmdline(p);
	return 0;
}

static void free_threads(struct rt_state *rt, struct rt_thread *t)
{
	while (t) {
		struct rt_thread *next = t->next;

		rt_thread_close(rt, t);
		free(t);
		t = next;
	}
}

static void rt_start(void)
{
	struct rt_state *rt = &rt_global;
	char err[1024];

	opt_defaults(&rt->opt);
	if (opt_from_env(&rt->opt, err, sizeof(err)) || !wanted(&rt->opt))
		return;
	if (!rt->opt.events[0])
		strcpy(rt->opt.events, rt->opt.backend == BACKEND_PAPI ? PAPI_FALLBACK_EVENT : "task-clock");
	if (rt->opt.backend == BACKEND_PAPI ? papi_start(&rt->opt, &rt->events, err, sizeof(err))
	    : ev_parse(rt->opt.events, &rt->events, err, sizeof(err))) {
		rt_notice(rt, "not profiling: %s", err);
		return;
	}
	if (init_profile(rt) || !(rt->sym = sym_open(&rt->prof.syms, err, sizeof(err)))) {
		rt_notice(rt, "not profiling: %s", rt->sym ? "out of memory" : err);
		profile_release(&rt->prof);
		return;
	}
	sym_use_separate_debug(rt->sym, rt->opt.separate_debug);
	sym_names_from_symbols(rt->sym, (uint64_t)(uintptr_t)rt_start);
	rt->pid = getpid();
	rt->threads = rt->retired = NULL;
	atomic_store(&rt->end, RT_END_RUNNING);
	rt_set_hooks(rt, NULL);	/* a forked child starts without its parent's layers */
	rt->started = rt_now_ns();
	rt->next_checkpoint = 0;
	rt->file[0] = 0;
	rt->ending = false;
	rt_live_open(rt);
	ring_budget_init(&rt->rings, &rt->opt);
	atomic_store(&rt->unprofiled, 0);
	atomic_store(&rt->short_lived, 0);
	/* before the drain thread exists, so that it is not found among them */
	rt_threads_open_existing(rt);
	if (rt_drain_start(rt)) {
		rt_notice(rt, "not profiling: cannot start the drain thread");
		free_threads(rt, rt->threads);
		rt->threads = NULL;
		rt_wake_close(rt);
		sym_close(rt->sym);
		profile_release(&rt->prof);
		return;
	}
	rt->active = true;
	rt_signals_install();
	rt_thread_begin(rt, false, false);
}

/* End profiling and write the final profile (none when !keep); hand it to
 * take when not NULL, release it otherwise.  Returns whether this call
 * ended it. */
static bool finish(const char *reason, struct profile *take, bool keep)
{
	struct rt_state *rt = &rt_global;

	if (!rt->active || rt->pid != getpid())
		return false;
	if (rt_in_program_handler()) {	/* an exit from a signal handler */
		rt_end_async(rt, reason);
		return false;
	}
	if (!rt_end_claim(rt))
		return false;
	rt_lock(&rt->lock);
	rt->ending = true;	/* the threads' structs are freed below */
	for (struct rt_thread *t = rt->threads; t; t = t->next)
		rt_thread_stop(t);
	rt_unlock(&rt->lock);
	rt_drain_stop(rt);
	if (keep)
		rt_write_final(rt, reason);
	else
		rt_write_none(rt);
	rt_end_written(rt);
	rt->active = false;
	free_threads(rt, rt->threads);
	free_threads(rt, rt->retired);
	rt->threads = rt->retired = NULL;
	sym_close(rt->sym);
	rt->sym = NULL;
	act_release(&rt->act);
	wait_frames_release(&rt->waits);
	if (take) {
		*take = rt->prof;
		profile_init(&rt->prof);
	} else
		profile_release(&rt->prof);
	return true;
}

void rt_finish(const char *reason)
{
	finish(reason, NULL, true);
}

bool rt_finish_take(struct profile *p)
{
	return finish(NULL, p, true);
}

/*
 * A forked child has only the forking thread and no drain thread; the
 * parent's events still count the parent.  Drop our copies of them (the
 * state may be mid-update, so it is abandoned rather than freed) and start
 * afresh when the child is to be profiled.
 */
static void after_fork_child(void)
{
	struct rt_state *rt = &rt_global;

	if (!rt->active)
		return;
	for (struct rt_thread *t = rt->threads; t; t = t->next)
		rt_thread_close(rt, t);
	rt_wake_close(rt);
	rt_cost_probe_forget(rt);
	ofd_release(&rt->live);	/* the parent's lock, shared through the fork */
	rt->active = false;
	pthread_mutex_init(&rt->lock, NULL);
	pthread_mutex_init(&rt->agg_lock, NULL);
	if (rt->opt.follow_fork)
		rt_start();
}

__attribute__((constructor)) static void rt_constructor(void)
{
	rt_clock_start();
	pthread_atfork(NULL, NULL, after_fork_child);
	rt_start();
}

__attribute__((destructor)) static void rt_destructor(void)
{
	rt_finish(NULL);
}

/*
 * exec: write this image's profile first (the new image loads a fresh
 * runtime through LD_PRELOAD); if exec fails, profiling resumes.  An MPI
 * rank's image that has not reached MPI_Init (a launcher script that execs
 * the program) writes none: the rank's profile is the image that calls
 * MPI_Init, and a rank must have one profile (docs/record.md "Processes
 * and threads").
 */
typedef int (*exec_fn)(const char *, char *const[], char *const[]);

static void before_exec(void)
{
	struct rt_state *rt = &rt_global;

	finish(NULL, NULL, !(rt->active && rt->prof.rank >= 0 && !rt_hooks(rt)));
}

static void after_failed_exec(void)
{
	int saved = errno;

	if (!rt_global.active && getenv("CPPERF_OUTPUT"))
		rt_start();
	errno = saved;
}

/* Look up the real exec function once, end profiling, call it, and resume
 * profiling if it returns (exec failed). */
static int exec_wrapped(const char *name, exec_fn *real, const char *p,
			char *const argv[], char *const envp[])
{
	int r;

	if (!*real)
		*real = (exec_fn)dlsym(RTLD_NEXT, name);
	before_exec();
	r = (*real)(p, argv, envp);
	after_failed_exec();
	return r;
}

CPPERF_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	static exec_fn real;

	return exec_wrapped("execve", &real, path, argv, envp);
}

CPPERF_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	static exec_fn real;

	return exec_wrapped("execvpe", &real, file, argv, envp);
}

CPPERF_EXPORT int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

CPPERF_EXPORT int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/*
 * _exit skips destructors, and forked children often leave through it: end
 * profiling first (only in the process that started it, so a vfork child
 * sharing our memory leaves the parent's state alone).
 */
typedef void (*exit_fn)(int);

__attribute__((noreturn)) static void finish_and_exit(const char *name, int status)
{
	exit_fn real = (exit_fn)dlsym(RTLD_NEXT, name);

	rt_finish(NULL);
	real(status);
	__builtin_unreachable();
}

CPPERF_EXPORT void _exit(int status)
{
	finish_and_exit("_exit", status);
}

CPPERF_EXPORT void _Exit(int status)
{
	finish_and_exit("_Exit", status);
}

/* Collect the variadic argument list of execl and friends. */
static char **collect_args(const char *arg0, va_list ap, char ***envp)
{
	size_t n = 1, cap = 16;
	char **argv = malloc(cap * sizeof(char *));
	char *a;

	if (!argv)
		return NULL;
	argv[0] = (char *)arg0;
	do {
		a = va_arg(ap, char *);
		if (n == cap) {
			char **p = realloc(argv, (cap *= 2) * sizeof(char *));

			if (!p) {
				free(argv);
				return NULL;
			}
			argv = p;
		}
		argv[n++] = a;
	} while (a);
	if (envp)
		*envp = va_arg(ap, char **);
	return argv;
}

#define EXEC_VARIADIC(name, call, with_env)				\
CPPERF_EXPORT int name(const char *p, const char *arg0, ...)		\
{									\
	char **envp = environ, **argv;					\
	va_list ap;							\
	int r;								\
									\
	va_start(ap, arg0);						\
	argv = collect_args(arg0, ap, with_env ? &envp : NULL);		\
	va_end(ap);							\
	if (!argv) {							\
		errno = ENOMEM;						\
		return -1;						\
	}								\
	r = call(p, argv, envp);					\
	free(argv);							\
	return r;							\
}

EXEC_VARIADIC(execl, execve, false)
EXEC_VARIADIC(execle, execve, true)
EXEC_VARIADIC(execlp, execvpe, false)
