/*
 * merge-run.c - a run's ranks' files merged into one merged profile after
 * the run: the files are read on several threads (read-ahead.c) and folded
 * in name order with the runtime's own merge (common/profile-merge.c), so
 * the result is the file --merge=mpi would have written, but for the
 * order of its records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "experiment.h"
#include "merge-run.h"
#include "read-ahead.h"

/* On a reading thread: rank profile p made a merged profile of one rank. */
static int to_merged(struct profile *p, void **extra, char *err, size_t errlen)
{
	*extra = NULL;
	if (p->rank < 0 || p->merged || (p->partial && *p->partial)) {
		snprintf(err, errlen, "%s; only whole MPI ranks' profiles are merged "
			 "(report the ranks' files instead)",
			 p->rank < 0 && !p->merged ? "not an MPI rank's profile" :
			 p->merged ? "a merged profile" : "a partial profile");
		return -1;
	}
	return profile_to_merged(p, err, errlen);
}

/* The merged profile being built and its tree's samples so far, which a
 * profile may not take past 2^64 - 1 (profile_merge adds them as they
 * are). */
struct fold {
	struct profile *acc;
	uint64_t *samples;	/* [nevents] */
	uint32_t nevents;
};

/* Fold p (read from path, made a merged profile by to_merged) into the
 * merged profile f->acc; the first one becomes it. */
static int fold_one(void *arg, struct profile *p, void *extra, const char *path,
		    char *err, size_t errlen)
{
	struct fold *f = arg;
	struct profile *acc = f->acc;
	char why[512];

	(void)extra;
	if (!f->samples) {
		f->nevents = p->nevents;
		if (!(f->samples = calloc(p->nevents + 1, sizeof(*f->samples)))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	/* other events: profile_merge says so */
	if (p->nevents == f->nevents &&
	    prof_count_samples(p, NULL, f->samples, path, err, errlen) < 0)
		return -1;
	if (acc->merged && profile_merge(acc, p, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		return -1;
	}
	if (!acc->merged) {	/* take the first over whole */
		*acc = *p;
		profile_init(p);
	}
	return 0;
}

static const struct read_ahead_ops fold_ops = { .prep = to_merged, .use = fold_one };

int merge_run(const char *dir, const char *run, struct profile *out, char *err, size_t errlen)
{
	struct fold f = { out, NULL, 0 };
	char **paths;
	size_t n;
	int rc;

	profile_init(out);
	if (exp_run_paths(dir, run, &paths, &n, err, errlen) < 0)
		return -1;
	rc = read_ahead((const char *const *)paths, n, &fold_ops, &f, err, errlen);
	free(f.samples);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	if (rc < 0)
		profile_release(out);
	return rc;
}
