/*
 * behave.c - a program whose observable behaviour cpperf-record must pass
 * through untouched.  Usage: behave MODE [ARG]
 *   exit N      print to stdout and stderr, then exit with status N
 *   signal      kill itself with SIGTERM
 *   env NAME    print the variable's value
 *   touch FILE  create FILE (tests check that PROG did not start)
 *   fork FILE   fork a child that spins, then writes FILE; parent spins too
 *   exec PROG.. exec another program (a launcher)
 *   vdso        spend two seconds in clock_gettime (the vdso has no local
 *               debug info, so libdw would ask a debuginfod server)
 *   umask MASK SECONDS  set the umask to MASK (octal), say "started", spin
 *               SECONDS, exit 0 (the files a run writes must not follow it)
 *   secure      print AT_SECURE: 1 when the kernel ran this program in
 *               secure-execution mode (set-user-ID and the like)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile unsigned long sink;

__attribute__((noinline)) static void child_work(void)
{
	for (long i = 0; i < 300000000; i++)
		sink = sink * 6364136223846793005ul + 1;
}

__attribute__((noinline)) static void parent_work(void)
{
	for (long i = 0; i < 300000000; i++)
		sink = sink * 2862933555777941757ul + 3037000493ul;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "exit";
	const char *arg = argc > 2 ? argv[2] : "0";

	if (!strcmp(mode, "exit")) {
		printf("to stdout\n");
		fprintf(stderr, "to stderr\n");
		return atoi(arg);
	}
	if (!strcmp(mode, "signal"))
		raise(SIGTERM);
	if (!strcmp(mode, "env")) {
		const char *v = getenv(arg);

		printf("%s\n", v ? v : "(unset)");
		return 0;
	}
	if (!strcmp(mode, "touch")) {
		FILE *f = fopen(arg, "w");

		return f ? fclose(f) : 1;
	}
	if (!strcmp(mode, "fork")) {
		pid_t pid = fork();

		if (pid == 0) {
			child_work();
			_exit(0);
		}
		parent_work();
		waitpid(pid, NULL, 0);
		return 0;
	}
	if (!strcmp(mode, "vdso")) {
		struct timespec ts;
		time_t end = time(NULL) + 2;

		do
			clock_gettime(CLOCK_REALTIME, &ts);
		while (ts.tv_sec < end);
		return 0;
	}
	if (!strcmp(mode, "umask") && argc > 3) {
		double end = now_s() + atof(argv[3]);

		umask((mode_t)strtol(arg, NULL, 8));
		printf("started\n");
		fflush(stdout);
		while (now_s() < end)
			sink = sink * 6364136223846793005ul + 1;
		return 0;
	}
	if (!strcmp(mode, "secure")) {
		printf("%lu\n", getauxval(AT_SECURE));
		return 0;
	}
	if (!strcmp(mode, "exec") && argc > 2) {
		execvp(argv[2], argv + 2);
		perror("exec");
		return 127;
	}
	return 3;
}
