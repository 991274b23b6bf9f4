/*
 * signals.c - a profile written when the process dies of a signal.
 *
 * For the signals whose default action ends the process (SIGTERM, SIGINT,
 * SIGHUP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) one handler of ours
 * stays installed.  The program keeps its own dispositions: sigaction,
 * signal and friends are interposed, so the program sees and sets its own
 * view, and the kernel's action is ours with the program's mask and
 * flags.  When the program's disposition is a handler, ours calls it; when
 * it is the default, ours asks the drain thread for the final profile,
 * waits for it a bounded time (rt_end_async), restores the default and
 * lets the signal end the process, so the exit status and core dump are
 * those of a run without cpperf.  SIG_IGN is installed as it is.
 *
 * The handler never takes a lock and never allocates.  A thread that holds
 * one of the locks the final write needs (rt_lock, rt_mutex_lock) cannot
 * let the drain thread wait for it: an asynchronous signal arriving then
 * is deferred until the thread lets go; a fault there ends the process
 * without a final profile (the last checkpoint stays).  A thread without an alternate
 * signal stack gets one of ours, so that the handler also runs after the
 * thread's stack overflowed.
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt.h"
#include "rt-mutex.h"

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

static const int fatal_signals[] = { SIGTERM, SIGINT, SIGHUP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
#define ALT_STACK_SIZE (256 * 1024)	/* ours needs little; a program handler that
					 * asked for SA_ONSTACK may walk the stack */

/*
 * The program's view of one signal.  Written under slots_lock by
 * sigaction calls, read by the handler without a lock: the writer fills
 * the copy the reader is not told to use, then flips cur.
 */
struct slot {
	struct sigaction prog[2];
	atomic_int cur;
};

static struct slot slots[NFATAL];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static sigaction_fn real_sigaction;
static atomic_bool installed;

/* Per thread: locks of rt_lock and rt_mutex_lock held, the signals
 * deferred until they are let go (bit sig), and handlers of the program
 * running. */
__thread int rt_crit_depth __attribute__((tls_model("initial-exec")));
__thread uint64_t rt_deferred __attribute__((tls_model("initial-exec")));
static __thread int in_program_handler __attribute__((tls_model("initial-exec")));

static struct slot *slot_of(int sig)
{
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal_signals[i] == sig)
			return &slots[i];
	return NULL;
}

static int call_real(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (!real_sigaction)
		real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
	return real_sigaction(sig, act, old);
}

static bool is_handler(const struct sigaction *a)
{
	return a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN;
}

static bool is_fault(int sig, const siginfo_t *si)
{
	return si && si->si_code > 0 &&
	       (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL);
}

/* Let the default action end the process: a fault happens again when the
 * handler returns, any other signal is raised again (it stays pending
 * until the handler returns). */
static void die_by_default(int sig, const siginfo_t *si)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	sigemptyset(&dfl.sa_mask);
	call_real(sig, &dfl, NULL);
	if (!is_fault(sig, si))
		raise(sig);
}

/* The program's handler, as the kernel would have called it (the mask and
 * flags of ours are the program's). */
static void call_program(int sig, siginfo_t *si, void *uc, const struct sigaction *a)
{
	in_program_handler++;
	if (a->sa_flags & SA_SIGINFO)
		a->sa_sigaction(sig, si, uc);
	else
		a->sa_handler(sig);
	in_program_handler--;
}

/* "signal SIGTERM" into buf, without stdio. */
static void signal_reason(int sig, char *buf, size_t len)
{
	const char *name = sigabbrev_np(sig);
	char num[16];
	size_t n = 0;

	if (!name) {
		int k = (int)sizeof(num) - 1;

		num[k] = 0;
		do
			num[--k] = (char)('0' + sig % 10);
		while ((sig /= 10) && k > 0);
		name = num + k;
	}
	for (const char *s = "signal SIG"; *s && n + 1 < len; s++)
		buf[n++] = *s;
	for (; *name && n + 1 < len; name++)
		buf[n++] = *name;
	buf[n] = 0;
}

static void on_fatal(int sig, siginfo_t *si, void *uc)
{
	struct slot *s = slot_of(sig);
	struct sigaction a;
	int saved = errno;

	if (!s)
		return;
	if (rt_crit_depth > 0 && !is_fault(sig, si)) {
		rt_deferred |= UINT64_C(1) << sig;	/* raised again at the unlock */
		return;
	}
	a = s->prog[atomic_load(&s->cur)];
	if (is_handler(&a)) {
		if (a.sa_flags & SA_RESETHAND)	/* as the kernel would have */
			s->prog[atomic_load(&s->cur)].sa_handler = SIG_DFL;
		call_program(sig, si, uc, &a);
	} else if (a.sa_handler == SIG_DFL) {
		struct rt_state *rt = rt_current();
		char reason[64];

		if (rt && rt_crit_depth == 0) {
			signal_reason(sig, reason, sizeof(reason));
			rt_end_async(rt, reason);
		}
		die_by_default(sig, si);
	}
	errno = saved;
}

/* Make the kernel's action of sig follow the program's view *a, and add
 * to *a what the kernel adds (glibc's restorer), so that the program reads
 * back what it would read without us. */
static int apply(int sig, struct sigaction *a)
{
	struct sigaction k = *a, back;
	int rc;

	if (a->sa_handler != SIG_IGN) {
		k.sa_sigaction = on_fatal;
		k.sa_flags = (a->sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
		if (!is_handler(a))
			k.sa_flags = (k.sa_flags & ~SA_NODEFER) | SA_RESTART | SA_ONSTACK;
	}
	rc = call_real(sig, &k, NULL);
	if (rc == 0 && call_real(sig, NULL, &back) == 0) {
		a->sa_flags |= back.sa_flags & ~k.sa_flags;
		a->sa_restorer = back.sa_restorer;
	}
	return rc;
}

void rt_signals_install(void)
{
	if (atomic_load(&installed))
		return;
	pthread_mutex_lock(&slots_lock);
	for (size_t i = 0; i < NFATAL; i++) {
		struct slot *s = &slots[i];
		struct sigaction now;

		if (call_real(fatal_signals[i], NULL, &now))
			continue;
		s->prog[0] = now;	/* as read: the program reads it back so */
		atomic_store(&s->cur, 0);
		apply(fatal_signals[i], &now);
	}
	atomic_store(&installed, true);
	pthread_mutex_unlock(&slots_lock);
}

/*
 * Alternate stacks of ended threads, kept for the next ones: unmapping one
 * costs the process a TLB shootdown on every CPU it runs on, tens of
 * microseconds a thread in a VM.  Slots taken and given with atomic
 * exchanges, no lock (a fork may happen at any moment).
 */
#define ALT_KEPT 64
static void *_Atomic alt_kept[ALT_KEPT];

static void *alt_take(void)
{
	void *p;

	for (int i = 0; i < ALT_KEPT; i++)
		if ((p = atomic_exchange(&alt_kept[i], NULL)))
			return p;
	p = mmap(NULL, ALT_STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void alt_give(void *p)
{
	for (int i = 0; i < ALT_KEPT; i++) {
		void *none = NULL;

		if (atomic_compare_exchange_strong(&alt_kept[i], &none, p))
			return;
	}
	munmap(p, ALT_STACK_SIZE);
}

/* One system call each way in the common case: ours is installed and
 * the old one looked at after, put back in the rare case it was the
 * program's. */
void *rt_altstack_begin(void)
{
	stack_t old, ss = { .ss_size = ALT_STACK_SIZE };

	if (!(ss.ss_sp = alt_take()))
		return NULL;
	if (sigaltstack(&ss, &old)) {
		alt_give(ss.ss_sp);
		return NULL;
	}
	if (!(old.ss_flags & SS_DISABLE)) {	/* the program's own: keep it */
		sigaltstack(&old, NULL);
		alt_give(ss.ss_sp);
		return NULL;
	}
	return ss.ss_sp;
}

void rt_altstack_end(void *stack)
{
	stack_t old, off = { .ss_flags = SS_DISABLE };

	if (!stack)
		return;
	if (sigaltstack(&off, &old))
		return;	/* running on it (EPERM): keep it */
	if (old.ss_sp != stack && !(old.ss_flags & SS_DISABLE))
		sigaltstack(&old, NULL);	/* the program replaced ours */
	alt_give(stack);
}

bool rt_in_program_handler(void)
{
	return in_program_handler > 0;
}

void rt_lock(pthread_mutex_t *m)
{
	rt_crit_depth++;
	pthread_mutex_lock(m);
}

/* Out of line: an unlock that finds none deferred saves no registers. */
__attribute__((noinline)) void rt_raise_deferred(void)
{
	while (rt_deferred) {
		int sig = __builtin_ctzll(rt_deferred);

		rt_deferred &= ~(UINT64_C(1) << sig);
		raise(sig);
	}
}

void rt_unlock(pthread_mutex_t *m)
{
	pthread_mutex_unlock(m);
	if (--rt_crit_depth == 0)
		rt_raise_deferred();
}

/* The program's sigaction on one of our signals: its view is kept, the
 * kernel gets ours with its mask and flags. */
static int program_sigaction(int sig, struct slot *s, const struct sigaction *act,
			     struct sigaction *old)
{
	int cur, rc = 0;

	pthread_mutex_lock(&slots_lock);
	cur = atomic_load(&s->cur);
	if (old)
		*old = s->prog[cur];
	if (act) {
		s->prog[!cur] = *act;
		rc = apply(sig, &s->prog[!cur]);
		if (rc == 0)
			atomic_store(&s->cur, !cur);
	}
	pthread_mutex_unlock(&slots_lock);
	return rc;
}

CPPERF_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct slot *s = atomic_load(&installed) ? slot_of(sig) : NULL;

	if (!s)
		return call_real(sig, act, old);
	return program_sigaction(sig, s, act, old);
}

/* signal(), bsd_signal() and sysv_signal() go to sigaction inside glibc,
 * past the interposed symbol: they are interposed too, with glibc's
 * flags (BSD semantics: restart; System V: reset and no deferral). */
static sighandler_t set_handler(int sig, sighandler_t h, int flags)
{
	struct sigaction act = { .sa_handler = h, .sa_flags = flags }, old;

	if (h == SIG_ERR || sig <= 0 || sig >= NSIG) {
		errno = EINVAL;
		return SIG_ERR;
	}
	sigemptyset(&act.sa_mask);
	if (!(flags & SA_NODEFER))
		sigaddset(&act.sa_mask, sig);
	return sigaction(sig, &act, &old) ? SIG_ERR : old.sa_handler;
}

CPPERF_EXPORT sighandler_t signal(int sig, sighandler_t h)
{
	return set_handler(sig, h, SA_RESTART);
}

CPPERF_EXPORT sighandler_t bsd_signal(int sig, sighandler_t h)
{
	return set_handler(sig, h, SA_RESTART);
}

CPPERF_EXPORT sighandler_t sysv_signal(int sig, sighandler_t h)
{
	return set_handler(sig, h, SA_RESETHAND | SA_NODEFER);
}
