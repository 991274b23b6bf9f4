/*
 * files.h - file helpers the unit tests share: write a string to a file,
 * read one whole, ask jq about a JSON file the report wrote, count a
 * directory's entries and open descriptors, empty a directory.
 */
#ifndef CPPERF_TEST_FILES_H
#define CPPERF_TEST_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The bytes of path, NUL-terminated, their number in *len (malloc'd;
 * NULL when path cannot be read whole). */
static inline char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
		buf[n] = '\0';
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
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

/* Remove the files in dir (not dir itself, nor subdirectories). */
static inline void empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
}

#endif
