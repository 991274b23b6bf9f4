/*
 * test-signals.c - unit tests for sampler/signals.c, with no runtime
 * running (rt_current() is NULL here, so the default action comes without
 * a final profile): the program's view of its dispositions through the
 * interposed sigaction and signal, its handlers called (SA_RESETHAND as
 * the kernel does it), SIG_IGN kept, the default action ending a child as
 * without cpperf, signals deferred while a thread holds an rt_lock or an
 * rt_mutex, and
 * the alternate signal stack.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../sampler/rt.h"
#include "../../sampler/rt-mutex.h"
#include "no-runtime.h"
#include "tap.h"

/* No runtime here: what signals.c and the files it pulls in call. */

static volatile sig_atomic_t hits[NSIG];

/* A store that faults (a page without access: not NULL, which the
 * sanitizer would stop first). */
static void fault(void)
{
	volatile int *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	*p = 1;
}

static void count(int sig)
{
	hits[sig]++;
}

static void set(int sig, void (*h)(int), int flags)
{
	struct sigaction a = { .sa_handler = h, .sa_flags = flags };

	sigemptyset(&a.sa_mask);
	sigaction(sig, &a, NULL);
}

static void (*view(int sig))(int)
{
	struct sigaction a;

	sigaction(sig, NULL, &a);
	return a.sa_handler;
}

static void test_view(void)
{
	ok(view(SIGTERM) == SIG_DFL, "before: the program sees the default");
	set(SIGTERM, count, 0);
	ok(view(SIGTERM) == count, "the program reads back its handler");
	raise(SIGTERM);
	is_int(hits[SIGTERM], 1, "its handler is called");
	ok(signal(SIGTERM, SIG_IGN) == count && view(SIGTERM) == SIG_IGN, "signal() returns the previous one");
	raise(SIGTERM);
	is_int(hits[SIGTERM], 1, "SIG_IGN ignores");
	set(SIGHUP, count, SA_RESETHAND);
	raise(SIGHUP);
	ok(hits[SIGHUP] == 1 && view(SIGHUP) == SIG_DFL, "SA_RESETHAND: called once, then the default");
	ok(signal(0, count) == SIG_ERR, "signal(0) fails as it would");
	ok(view(SIGUSR1) == SIG_DFL && signal(SIGUSR1, count) == SIG_DFL, "other signals pass through");
	raise(SIGUSR1);
	is_int(hits[SIGUSR1], 1, "... to the kernel");
}

static void test_deferred(void)
{
	pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
	struct rt_mutex b = { 0 };

	set(SIGTERM, count, 0);
	set(SIGINT, count, 0);
	hits[SIGTERM] = hits[SIGINT] = 0;
	rt_lock(&a);
	rt_mutex_lock(&b);
	raise(SIGTERM);
	raise(SIGINT);
	ok(hits[SIGTERM] == 0 && hits[SIGINT] == 0, "held locks: the signals wait");
	rt_mutex_unlock(&b);
	ok(hits[SIGTERM] == 0 && hits[SIGINT] == 0, "one lock left: still waiting");
	rt_unlock(&a);
	ok(hits[SIGTERM] == 1 && hits[SIGINT] == 1, "all let go: both are handled");
	rt_mutex_lock(&b);
	raise(SIGTERM);
	ok(hits[SIGTERM] == 1, "an rt_mutex alone held: the signal waits");
	rt_mutex_unlock(&b);
	ok(hits[SIGTERM] == 2, "let go: it is handled");
}

/* How a child that runs fn ends: its wait status. */
static int child_status(void (*fn)(void))
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		fn();
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return st;
}

static void term_by_default(void)
{
	signal(SIGTERM, SIG_DFL);
	raise(SIGTERM);
}

static void segv_by_default(void)
{
	signal(SIGSEGV, SIG_DFL);
	fault();
}

static void segv_after_handler(void)
{
	set(SIGSEGV, count, SA_RESETHAND);
	fault();
}

static void test_default(void)
{
	int st = child_status(term_by_default);

	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "default action: killed by SIGTERM");
	st = child_status(segv_by_default);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "a fault: killed by SIGSEGV");
	st = child_status(segv_after_handler);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "a fault the program's handler returns from: "
	   "killed by SIGSEGV");
}

static void test_altstack(void)
{
	stack_t now, mine = { .ss_size = 65536 }, before, off = { .ss_flags = SS_DISABLE };
	void *s;

	sigaltstack(NULL, &before);	/* the sanitizer's, put back at the end */
	sigaltstack(&off, NULL);
	s = rt_altstack_begin();
	ok(s && !sigaltstack(NULL, &now) && now.ss_sp == s, "a thread without one gets an alternate stack");
	rt_altstack_end(s);
	ok(!sigaltstack(NULL, &now) && (now.ss_flags & SS_DISABLE), "and loses it at its end");
	mine.ss_sp = malloc(mine.ss_size);
	sigaltstack(&mine, NULL);
	ok(rt_altstack_begin() == NULL, "the program's own is left alone");
	ok(!sigaltstack(NULL, &now) && now.ss_sp == mine.ss_sp, "and stays");
	sigaltstack(&off, NULL);
	free(mine.ss_sp);
	if (!(before.ss_flags & SS_DISABLE))
		sigaltstack(&before, NULL);
}

int main(void)
{
	rt_signals_install();
	test_view();
	test_deferred();
	test_default();
	test_altstack();
	return tap_done();
}
