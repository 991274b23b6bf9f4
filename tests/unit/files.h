/*
 * files.h - file helpers the unit tests share: write a string to a file,
 * ask jq about a JSON file the report wrote, count a directory's entries
 * and open descriptors.
 */
#ifndef CPPERF_TEST_FILES_H
#define CPPERF_TEST_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>

/* Write text (NULL: nothing) to path; a failure shows in the checks that
 * read the file. */
static inline void save(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text ? text : "", f);
		fclose(f);
	}
}

/* Run jq -r FILTER over file and return its first output line (static). */
static inline const char *jq(const char *file, const char *filter)
{
	static char line[4096];
	char cmd[4096];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "jq -r '%s' '%s' 2>&1", filter, file);
	line[0] = '\0';
	if (!(p = popen(cmd, "r")))
		return "";
	if (!fgets(line, sizeof(line), p))
		line[0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	pclose(p);
	return line;
}

/* Entries of dir whose name starts with prefix, . and .. aside (-1 when
 * dir is unreadable). */
static inline int dir_count(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		     !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

/* Descriptors this process has open (a leak check), -1 when unknown. */
static inline int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

#endif
