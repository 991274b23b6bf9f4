/*
 * threads.c - following the application's threads.  pthread_create is
 * interposed so that every new thread opens its own events before it runs
 * the application's start routine; a thread-specific key's destructor tells
 * the drain thread when the thread exits.  Threads that exist before the
 * runtime starts are found in /proc/self/task and opened by thread id.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt.h"

struct start_arg {
	void *(*fn)(void *);
	void *arg;
	struct rt_state *rt;
	const void *creator;	/* the return address of its pthread_create */
};

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *,
				  void *(*)(void *), void *);

/* Set once by the first thread that needs it; every later call reads the
 * same value, so the race between threads is benign. */
static pthread_create_fn real_create;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
/* The process's state, for threads that end: set (the same value by every
 * thread) before any key value. */
static struct rt_state *_Atomic exit_rt;
/* The key's value, read without a call into libc: every wrapped MPI call
 * asks for its thread (rt_thread_self). */
static __thread struct rt_thread *self __attribute__((tls_model("initial-exec")));

int rt_real_pthread_create(pthread_t *th, const pthread_attr_t *attr,
			   void *(*fn)(void *), void *arg)
{
	if (!real_create)
		real_create = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
	return real_create(th, attr, fn, arg);
}

/* A profiled thread ends: the drain thread retires it.  The kernel stops
 * a thread's perf events as it exits and hangs them up, which wakes the
 * drain thread; a thread without a descriptor it polls (PAPI, or taken
 * by the program) wakes it here.  A young thread gives its ring back
 * itself: unmapped from another thread, it would cost every core the
 * process runs on a TLB shootdown.  Under agg_lock and rt->lock (the drain
 * thread's order) and not once rt_finish has begun, which frees the
 * thread's struct; the wake-up needs no lock (it checks that the socket
 * is still ours). */
/*
 * Mapping a full ring costs a thread about 2 us a page on a VM, hundreds
 * of microseconds: a program that starts and ends threads all the time
 * would pay that for each.  Once four threads in a row ended younger than
 * RT_GROW_NS, new ones start with a small ring, grown by the drain thread
 * if they live on; the first threads of a program (a pool that lives
 * long, often as many as the cores, all starting at once) get full rings
 * at once, as growing them all together would keep the drain thread from
 * their small rings.
 */
#define SHORT_LIVED_IN_A_ROW 4

static void count_lifetime(struct rt_state *rt, const struct rt_thread *t)
{
	if (rt_now_ns() - t->born >= RT_GROW_NS)
		atomic_store(&rt->short_lived, 0);
	else if (atomic_load(&rt->short_lived) < SHORT_LIVED_IN_A_ROW)
		atomic_fetch_add(&rt->short_lived, 1);
}

static bool threads_end_young(struct rt_state *rt)
{
	return atomic_load(&rt->short_lived) >= SHORT_LIVED_IN_A_ROW;
}

static void on_thread_exit(void *p)
{
	struct rt_thread *t = p;
	struct rt_state *rt = atomic_load_explicit(&exit_rt, memory_order_relaxed);
	bool young;

	self = NULL;	/* as the key's value is now */
	rt_lock(&rt->agg_lock);	/* the drain thread changes t->timed under it */
	rt_lock(&rt->lock);
	if (rt->ending) {	/* the runtime frees t, or has */
		rt_unlock(&rt->lock);
		rt_unlock(&rt->agg_lock);
		return;
	}
	young = t->timed;
	if (!young)
		rt_unlock(&rt->agg_lock);
	atomic_store(&t->died, rt_now_ns());
	rt_thread_exiting(t);
	if (young)
		rt_thread_retire_self(rt, t);
	rt_altstack_end(t->altstack);
	t->altstack = NULL;
	atomic_store(&t->state, THREAD_EXITED);
	count_lifetime(rt, t);
	if (t->fds[0] < 0 && !young)
		rt_drain_wake(rt);	/* under the lock: rt_finish closes the wake */
	rt_unlock(&rt->lock);
	if (young)
		rt_unlock(&rt->agg_lock);
}

static void make_exit_key(void)
{
	pthread_key_create(&exit_key, on_thread_exit);
}

static void stack_bounds(struct rt_thread *t)
{
	pthread_attr_t attr;
	void *addr;
	size_t size;

	if (pthread_getattr_np(pthread_self(), &attr))
		return;
	if (!pthread_attr_getstack(&attr, &addr, &size)) {
		t->stack_lo = (uint64_t)(uintptr_t)addr;
		t->stack_hi = t->stack_lo + size;
	}
	pthread_attr_destroy(&attr);
}

/* Add t to the threads the drain thread follows and start its events;
 * false, t left to the caller, once rt_finish has begun. */
static bool register_thread(struct rt_state *rt, struct rt_thread *t)
{
	bool young = t->timed, first_young = false, ok;

	rt_lock(&rt->lock);
	ok = !rt->ending;
	if (ok) {
		/* counted before the drain thread can see t come of age */
		if (young)
			first_young = atomic_fetch_add(&rt->timed, 1) == 0;
		t->next = rt->threads;
		rt->threads = t;
		rt_thread_start(t);
		/* a young thread is drained on the timer: the first one shortens
		 * it, unless the drain thread still keeps the pace of earlier
		 * ones; under the lock: rt_finish closes the wake */
		if (!young || (first_young && rt_now_ns() >= atomic_load(&rt->timer_until)))
			rt_drain_wake(rt);
	}
	rt_unlock(&rt->lock);
	return ok;
}

int rt_thread_begin(struct rt_state *rt, bool young, bool service)
{
	struct rt_thread *t = rt_thread_open(rt, 0, young);

	if (!t)
		return -1;
	t->service = service;
	stack_bounds(t);
	t->altstack = rt_altstack_begin();
	pthread_once(&exit_key_once, make_exit_key);
	atomic_store_explicit(&exit_rt, rt, memory_order_relaxed);
	if (!register_thread(rt, t)) {
		rt_altstack_end(t->altstack);
		rt_thread_close(rt, t);
		free(t);
		return -1;
	}
	pthread_setspecific(exit_key, t);
	self = t;
	return 0;
}

const __u64 rt_no_head;

struct rt_thread *rt_thread_self(void)
{
	return self;
}

void rt_threads_open_existing(struct rt_state *rt)
{
	pid_t self = (pid_t)syscall(SYS_gettid);
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);
		struct rt_thread *t;

		if (tid <= 0 || tid == self)
			continue;
		t = rt_thread_open(rt, tid, false);
		if (t && !register_thread(rt, t)) {
			rt_thread_close(rt, t);
			free(t);
		}
	}
	if (d)
		closedir(d);
}

static void *start_thread(void *p)
{
	struct start_arg a = *(struct start_arg *)p;

	free(p);
	if (a.rt->active)
		rt_thread_begin(a.rt, threads_end_young(a.rt), service_thread_creator(a.creator));
	return a.fn(a.arg);
}

CPPERF_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr,
				 void *(*fn)(void *), void *arg)
{
	struct rt_state *rt = rt_current();
	struct start_arg *a;
	int err;

	if (!rt || !rt->active || !(a = malloc(sizeof(*a))))
		return rt_real_pthread_create(th, attr, fn, arg);
	*a = (struct start_arg){ fn, arg, rt, __builtin_return_address(0) };
	err = rt_real_pthread_create(th, attr, start_thread, a);
	if (err)
		free(a);
	return err;
}
