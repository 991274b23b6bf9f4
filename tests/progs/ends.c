/*
 * ends.c - a program that ends in the ways a profiler must survive, with
 * signal handling of its own that must keep working under cpperf-record.
 * Usage: ends MODE [SECONDS]; every mode first computes for SECONDS
 * (default 1), in compute(), unless killed meanwhile.
 *   spin     then exits 0
 *   segv     then stores through NULL (SIGSEGV)
 *   abort    then calls abort() (SIGABRT)
 *   handler  has a SIGTERM handler of its own, which says "handled
 *            SIGTERM" and _exit(5)s; exits 0 if no SIGTERM comes
 *   chain    has a SIGSEGV handler (SA_RESETHAND) that says "caught
 *            SIGSEGV" and returns; then stores through NULL: the fault
 *            comes back and the default action ends the process
 *   ignore   ignores SIGTERM, then exits 0
 *   overflow then recurses until its stack overflows (SIGSEGV)
 *   view     prints what sigaction and signal tell it while it sets and
 *            reads its dispositions (the same with and without cpperf)
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spin.h"

static void say(const char *s)
{
	(void)!write(1, s, strlen(s));
}

static void on_term(int sig)
{
	(void)sig;
	say("handled SIGTERM\n");
	_exit(5);
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	say("caught SIGSEGV\n");
}

static void store_null(void)
{
	*nowhere = 1;
}

__attribute__((noinline)) static int recurse(int n)
{
	volatile char pad[4096];

	pad[0] = (char)n;
	return n < 0 ? 0 : recurse(n + 1) + pad[0];	/* n grows until the stack ends */
}

static const char *name_of(void (*h)(int))
{
	return h == SIG_DFL ? "default" : h == SIG_IGN ? "ignore" : h == on_term ? "on_term" :
	       h == SIG_ERR ? "error" : "other";
}

/* The dispositions as the program sees them, while it changes them. */
static void view(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction a = { .sa_handler = on_term, .sa_flags = SA_RESTART }, old;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaction(sigs[i], NULL, &old);
		printf("%s: %s flags %#x\n", sigabbrev_np(sigs[i]), name_of(old.sa_handler),
		       (unsigned)old.sa_flags);
	}
	sigemptyset(&a.sa_mask);
	sigaddset(&a.sa_mask, SIGUSR1);
	sigaction(SIGTERM, &a, NULL);
	sigaction(SIGTERM, NULL, &old);
	printf("after sigaction: %s flags %#x usr1 masked %d\n", name_of(old.sa_handler),
	       (unsigned)old.sa_flags, sigismember(&old.sa_mask, SIGUSR1));
	printf("signal(SIGTERM, SIG_IGN) was %s\n", name_of(signal(SIGTERM, SIG_IGN)));
	printf("signal(SIGTERM, SIG_DFL) was %s\n", name_of(signal(SIGTERM, SIG_DFL)));
	printf("signal(SIGINT, on_term) was %s\n", name_of(signal(SIGINT, on_term)));
	printf("signal(SIGINT, SIG_DFL) was %s\n", name_of(signal(SIGINT, SIG_DFL)));
	printf("signal(0, SIG_IGN) is %s\n", name_of(signal(0, SIG_IGN)));
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "spin";
	double seconds = argc > 2 ? atof(argv[2]) : 1;
	struct sigaction a = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_RESETHAND };

	if (!strcmp(mode, "view")) {
		view();
		return 0;
	}
	if (!strcmp(mode, "handler")) {
		sigemptyset(&a.sa_mask);
		a.sa_handler = on_term;
		a.sa_flags = 0;
		sigaction(SIGTERM, &a, NULL);
	} else if (!strcmp(mode, "chain")) {
		sigemptyset(&a.sa_mask);
		sigaction(SIGSEGV, &a, NULL);
	} else if (!strcmp(mode, "ignore")) {
		signal(SIGTERM, SIG_IGN);
	}
	say("started\n");
	compute(seconds);
	if (!strcmp(mode, "segv") || !strcmp(mode, "chain"))
		store_null();
	if (!strcmp(mode, "abort"))
		abort();
	if (!strcmp(mode, "overflow"))
		return recurse(0);
	return 0;
}
