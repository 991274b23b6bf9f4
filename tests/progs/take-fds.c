/*
 * take-fds.c - a program that takes the descriptors a profiler keeps in it.
 *
 *   take-fds close DIR SECONDS   closes every descriptor above 2 (as
 *       daemons and closefrom() do), opens eight files in DIR, starts a
 *       thread, computes SECONDS, writes one line into each file and exits
 *       with them open; prints its process CPU time in seconds
 *   take-fds nofile              lowers RLIMIT_NOFILE to 16 and prints how
 *       many files it can then open
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "spin.h"

#define NFILES 8

static void *helper(void *arg)
{
	compute(0.05);
	return arg;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static int close_and_open(const char *dir, double seconds)
{
	int fd[NFILES];
	char path[4096];
	pthread_t t;

	close_range(3, ~0u, 0);
	for (int i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		if ((fd[i] = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) {
			perror(path);
			return 1;
		}
	}
	if (pthread_create(&t, NULL, helper, NULL) || pthread_join(t, NULL))
		return 1;
	compute(seconds);
	for (int i = 0; i < NFILES; i++)
		dprintf(fd[i], "file %d of the program\n", i);
	printf("%.3f\n", cpu_seconds());
	return 0;
}

static int count_files(void)
{
	struct rlimit rl = { 16, 16 };
	int n = 0;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		return 1;
	while (open("/dev/null", O_RDONLY) >= 0)
		n++;
	printf("%d\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "close"))
		return close_and_open(argv[2], atof(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "nofile"))
		return count_files();
	fprintf(stderr, "usage: take-fds close DIR SECONDS | take-fds nofile\n");
	return 2;
}
