/*
 * tmp-guard.c - a temporary file removed when a signal ends the command
 * (tmp-guard.h).  The handler may run at any point of the command, on any
 * of its threads, so it does only what is async-signal-safe: unlink the
 * path copied at arming, restore the signal's default disposition and
 * raise it again, which ends the process once the handler returns with
 * the status the signal would have given it.
 */
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include "tmp-guard.h"

static const int guarded[] = { SIGINT, SIGTERM, SIGHUP };
#define NGUARDED (sizeof(guarded) / sizeof(guarded[0]))

static char guard_path[PATH_MAX];
static volatile sig_atomic_t guard_armed;
static struct sigaction guard_old[NGUARDED];
static bool guard_installed[NGUARDED];

static void on_signal(int sig)
{
	struct sigaction dfl;

	if (guard_armed)
		unlink(guard_path);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);	/* delivered when the handler returns */
}

/* See tmp-guard.h. */
void tmp_guard_arm(const char *path)
{
	struct sigaction sa;

	tmp_guard_disarm();
	if (strlen(path) >= sizeof(guard_path))
		return;
	memcpy(guard_path, path, strlen(path) + 1);
	guard_armed = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NGUARDED; i++)
		sigaddset(&sa.sa_mask, guarded[i]);	/* one handler at a time */
	for (size_t i = 0; i < NGUARDED; i++)
		guard_installed[i] = sigaction(guarded[i], NULL, &guard_old[i]) == 0 &&
				     guard_old[i].sa_handler != SIG_IGN &&
				     sigaction(guarded[i], &sa, NULL) == 0;
}

/* See tmp-guard.h. */
void tmp_guard_disarm(void)
{
	guard_armed = 0;
	for (size_t i = 0; i < NGUARDED; i++)
		if (guard_installed[i]) {
			sigaction(guarded[i], &guard_old[i], NULL);
			guard_installed[i] = false;
		}
}
