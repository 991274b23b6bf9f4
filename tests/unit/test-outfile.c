/*
 * test-outfile.c - unit tests of `-o FILE` (report/outfile.c) and of the
 * guard of its temporary (report/tmp-guard.c), which `cpperf merge` uses
 * too: SIGINT, SIGTERM or SIGHUP arriving while the report is written
 * leaves no temporary and ends the process by that signal; a SIGHUP the
 * process ignores (nohup) stays ignored; a commit gives the signals their
 * dispositions back; a disarmed guard removes nothing.  Each case runs in
 * a child process, which the signal ends, and the parent looks at the
 * directory it leaves.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "files.h"
#include "tap.h"
#include "../../report/outfile.h"
#include "../../report/tmp-guard.h"

static char dir[4096];
static char out[4200];

/* Entries of dir whose name starts with prefix. */
static int count_names(const char *prefix)
{
	return dir_count(dir, prefix);
}

/* Run child in a new process; its wait status. */
static int in_child(void (*child)(int), int arg)
{
	int status = -1;
	pid_t pid;

	fflush(stdout);
	if ((pid = fork()) < 0)
		tap_bail("fork failed");
	if (pid == 0) {
		/* the cases are about a process whose signals are as a shell
		 * starts a command; one run in the background, or under
		 * nohup, inherits SIGINT or SIGHUP ignored */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		child(arg);
		_exit(99);
	}
	if (waitpid(pid, &status, 0) != pid)
		tap_bail("waitpid failed");
	return status;
}

/* Half a report, then sig. */
static void interrupted(int sig)
{
	struct outfile o;
	char err[256];

	if (of_open(&o, out, err, sizeof(err)) < 0)
		_exit(2);
	fputs("half a report\n", o.f);
	fflush(o.f);
	raise(sig);
	_exit(3);	/* the signal ended it */
}

static void test_interrupted(int sig, const char *name)
{
	int st = in_child(interrupted, sig);
	char what[128];

	snprintf(what, sizeof(what), "%s while writing -o: the process ends by it", name);
	if (!ok(WIFSIGNALED(st) && WTERMSIG(st) == sig, what))
		printf("#   wait status %#x\n", st);
	snprintf(what, sizeof(what), "%s: no temporary left", name);
	is_int(count_names("out.txt.tmp-"), 0, what);
	snprintf(what, sizeof(what), "%s: no output either", name);
	ok(access(out, F_OK) < 0, what);
}

/* nohup: SIGHUP ignored before -o, raised while writing. */
static void ignored_hup(int unused)
{
	struct outfile o;
	char err[256];

	(void)unused;
	signal(SIGHUP, SIG_IGN);
	if (of_open(&o, out, err, sizeof(err)) < 0)
		_exit(2);
	raise(SIGHUP);
	fputs("whole\n", o.f);
	_exit(of_commit(&o, err, sizeof(err)) == 0 ? 0 : 4);
}

/* After a commit, SIGINT's disposition is the default again. */
static void committed(int unused)
{
	struct outfile o;
	struct sigaction sa;
	char err[256];

	(void)unused;
	if (of_open(&o, out, err, sizeof(err)) < 0 || of_commit(&o, err, sizeof(err)) < 0)
		_exit(2);
	sigaction(SIGINT, NULL, &sa);
	_exit(sa.sa_handler == SIG_DFL ? 0 : 5);
}

/* The guard alone, as cpperf merge arms it around its temporary; disarmed
 * first when disarm is set. */
static void guarded(int disarm)
{
	save(out, "temporary\n");
	tmp_guard_arm(out);
	if (disarm)
		tmp_guard_disarm();
	raise(SIGTERM);
	_exit(3);
}

int main(void)
{
	static const struct { int sig; const char *name; } sigs[] = {
		{ SIGINT, "SIGINT" }, { SIGTERM, "SIGTERM" }, { SIGHUP, "SIGHUP" },
	};
	int st;

	snprintf(dir, sizeof(dir), "%s/cpperf-outfile-test.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		tap_bail("mkdtemp failed");
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		test_interrupted(sigs[i].sig, sigs[i].name);

	st = in_child(ignored_hup, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "nohup: an ignored SIGHUP stays ignored");
	is_int(count_names("out.txt.tmp-"), 0, "nohup: no temporary left");
	is_int(count_names("out.txt"), 1, "nohup: the output written");
	unlink(out);

	st = in_child(committed, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "after a commit SIGINT is as it was");
	unlink(out);

	st = in_child(guarded, 0);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "guard: SIGTERM ends the process");
	ok(access(out, F_OK) < 0, "guard: the guarded file removed");
	st = in_child(guarded, 1);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "disarmed: SIGTERM ends the process");
	ok(access(out, F_OK) == 0, "disarmed: the file stays");
	unlink(out);
	rmdir(dir);
	return tap_done();
}
