/*
 * checkpoint.c - writing the profile: while the process runs (a checkpoint
 * every --checkpoint seconds, on the drain thread), and once at its end,
 * whole or marked partial with the reason (docs/format.md "Runs and
 * partial profiles").
 *
 * Every write replaces the process's one file atomically, so a reader
 * sees the last checkpoint or the final profile, never a mix.  While the
 * process runs it holds an flock on DIR/.HOST.PID.START.live, which tells
 * a reader whether a checkpoint's writer is still alive; the final write
 * removes it.
 *
 * The end comes three ways: rt_finish on the ending thread (normal exit,
 * exec, MPI_Abort), the drain thread asked by rt_end_async (a fatal
 * signal, or an exit from inside a signal handler), or never (SIGKILL: the
 * last checkpoint stays).  rt_state.end makes sure exactly one of them
 * writes the final profile.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt.h"

#define END_WAIT_MS 2000	/* how long a signal handler waits for the final profile */
#define FIRST_CHECKPOINT_NS 1000000000ull	/* age of the process at its first checkpoint */
#define PEER_WAIT_NS 750000000ull	/* see rt_end_wait_peers */

/* Set on the thread that writes the final profile in rt_finish: a signal
 * handler interrupting it must not wait for itself. */
static __thread bool finishing __attribute__((tls_model("initial-exec")));



/*
 * The file name is unique across hosts sharing a file system: host, pid
 * and start time, and the rank for MPI processes (rank first, so a listing
 * is in rank order).
 */
static void profile_name(const struct rt_state *rt, char *name, size_t len)
{
	char rank[32] = "";

	if (rt->prof.rank >= 0)
		snprintf(rank, sizeof(rank), "rank%05lld.", (long long)rt->prof.rank);
	snprintf(name, len, "%s%s.%d.%llx%s", rank, rt->prof.host, (int)rt->pid,
		 (unsigned long long)rt->prof.start_ns, PROFILE_SUFFIX);
}

static void live_path(const struct rt_state *rt, const char *dir, char *path, size_t len)
{
	snprintf(path, len, "%s/.%s.%d.%llx.live", dir, rt->prof.host, (int)rt->pid,
		 (unsigned long long)rt->prof.start_ns);
}

void rt_live_open(struct rt_state *rt)
{
	char path[PATH_MAX + 400];
	int fd;

	live_path(rt, rt->opt.output, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, opt_file_mode(&rt->opt));
	if (fd >= 0)
		(void)fchmod(fd, opt_file_mode(&rt->opt));	/* whatever the umask */
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		fd = -1;
	}
	ofd_keep(&rt->live, fd);
}

bool rt_live_check(struct rt_state *rt)
{
	if (rt->live.fd < 0 || ofd_mine(&rt->live))
		return true;
	rt->live = OWNED_FD_NONE;	/* the program's now, and our lock gone with ours */
	rt_live_open(rt);
	return false;
}

/* Drop the lock and its file: the process has its final profile (or is
 * moving to another directory). */
static void live_close(struct rt_state *rt)
{
	char path[PATH_MAX + 400];

	if (rt->live.fd < 0)
		return;
	live_path(rt, rt->opt.output, path, sizeof(path));
	unlink(path);
	ofd_release(&rt->live);
}

/* The profile now has the name written as name into dir: the file of an
 * earlier name (before MPI_Init gave a rank) goes; a file written into a
 * directory the process has since left (rt_move_output) goes too.  Caller
 * holds agg_lock. */
static void written_as(struct rt_state *rt, const char *dir, const char *name)
{
	char old[PATH_MAX + sizeof(rt->file) + 2];

	if (strcmp(dir, rt->opt.output)) {
		snprintf(old, sizeof(old), "%s/%s", dir, name);
		unlink(old);
		rmdir(dir);
		return;
	}
	if (rt->file[0] && strcmp(rt->file, name)) {
		snprintf(old, sizeof(old), "%s/%s", dir, rt->file);
		unlink(old);
	}
	snprintf(rt->file, sizeof(rt->file), "%s", name);
}

/* Write the profile under its current name, at once.  Returns 0, or -1
 * with a message in err. */
static int write_file(struct rt_state *rt, char *err, size_t errlen)
{
	char name[sizeof(rt->file)];

	profile_name(rt, name, sizeof(name));
	if (profile_write_mode(&rt->prof, rt->opt.output, name, opt_file_mode(&rt->opt), err, errlen))
		return -1;
	written_as(rt, rt->opt.output, name);
	return 0;
}

/* Per-thread totals of live and retired threads, into the profile. */
static void collect_threads(struct rt_state *rt)
{
	struct profile *p = &rt->prof;
	uint32_t n = 0;

	rt_lock(&rt->lock);
	for (struct rt_thread *t = rt->threads; t; t = t->next)
		n++;
	for (struct rt_thread *t = rt->retired; t; t = t->next)
		n++;
	p->threads = calloc(n ? n : 1, sizeof(*p->threads));
	for (struct rt_thread *lists[2] = { rt->threads, rt->retired }, **l = lists;
	     p->threads && l < lists + 2; l++)
		for (struct rt_thread *t = *l; t; t = t->next) {
			struct prof_thread *pt = &p->threads[p->nthreads];

			pt->samples = malloc(sizeof(uint64_t) * (p->nevents ? p->nevents : 1));
			if (!pt->samples)
				continue;
			memcpy(pt->samples, t->samples, sizeof(uint64_t) * p->nevents);
			pt->tid = (uint64_t)t->tid;
			act_thread_totals(t->act, pt->act);
			p->nthreads++;
		}
	rt_unlock(&rt->lock);
}

/* The thread activity so far; at the end, every sample judged and the
 * threads' idle time up to it. */
static void fill_activity(struct rt_state *rt, bool final)
{
	struct profile *p = &rt->prof;

	if (!rt->act.window)
		return;
	if (final)
		act_finish(&rt->act, rt_now_ns());
	p->act_on = 1;
	p->act_event = 0;
	p->act_window_ns = rt->act.window;
	if (act_nodes(&rt->act, &p->act_nodes, &p->nact_nodes))
		p->act_on = 0;	/* out of memory: none rather than a part */
}

/* What a write adds to the running profile: the end time, CPU time,
 * threads, MPI tables (final: the critical path and compensation too),
 * and why it is partial. */
static void fill(struct rt_state *rt, const char *partial, bool final)
{
	const struct rt_hooks *hooks = rt_hooks(rt);
	struct profile *p = &rt->prof;

	p->end_ns = rt_clock_ns(CLOCK_REALTIME);
	p->cpu_ns = rt_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	fill_activity(rt, final);
	collect_threads(rt);
	free(p->partial);
	p->partial = partial && *partial ? strdup(partial) : NULL;
	if (hooks && hooks->fill_profile)
		hooks->fill_profile(rt, final);
}

/* Take back what fill added for a checkpoint, so the next one starts from
 * the running profile again. */
static void unfill(struct profile *p)
{
	for (uint32_t i = 0; i < p->nthreads; i++)
		free(p->threads[i].samples);
	free(p->threads);
	p->threads = NULL;
	p->nthreads = 0;
	free(p->act_nodes);
	p->act_nodes = NULL;
	p->nact_nodes = 0;
	p->act_on = 0;
	profile_release_mpi(p);
	free(p->partial);
	p->partial = NULL;
}

/*
 * When the checkpoint after one at now is due: the first a second after
 * start-up, then after half the process's age (a second at least) until
 * that is an interval, then every interval.  A process killed at age t
 * without warning so loses at most about min(t / 3, interval): short runs
 * (and the ranks that MPICH's launcher kills at once when one fails) keep
 * most of what they measured, for about a dozen writes more
 * (docs/record.md).
 */
static uint64_t next_due(const struct rt_state *rt, uint64_t now, uint64_t every)
{
	uint64_t due = rt->next_checkpoint;	/* from the schedule, so a late write
						 * does not delay the next ones */

	while (due <= now) {
		uint64_t half = (due - rt->started) / 2;

		if (half < FIRST_CHECKPOINT_NS)
			half = FIRST_CHECKPOINT_NS;
		due += half < every ? half : every;
	}
	return due;
}

/* A checkpoint that failed is said once, until one succeeds again. */
static void checkpoint_failed(struct rt_state *rt, const char *err)
{
	if (!rt->checkpoint_failing)
		rt_notice(rt, "checkpoint failed, the previous one stays (said once): %s", err);
	rt->checkpoint_failing = true;
}

bool rt_checkpoint_start(struct rt_state *rt)
{
	struct rt_checkpoint *c = &rt->ckpt;
	uint64_t every = (uint64_t)(rt->opt.checkpoint * 1e9);
	char err[1024];
	int rc;

	c->t0 = rt_now_ns();
	if (!every || atomic_load(&rt->end) != RT_END_RUNNING)
		return false;
	if (!rt->next_checkpoint)
		rt->next_checkpoint = rt->started + (every < FIRST_CHECKPOINT_NS ? every : FIRST_CHECKPOINT_NS);
	if (c->t0 < rt->next_checkpoint)
		return false;
	rt->next_checkpoint = next_due(rt, c->t0, every);
	rt->prof.drain_cpu_ns = rt_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	profile_name(rt, c->name, sizeof(c->name));
	snprintf(c->dir, sizeof(c->dir), "%s", rt->opt.output);
	fill(rt, "checkpoint", false);
	rc = profile_write_start(&rt->prof, c->dir, c->name, opt_file_mode(&rt->opt), &c->out, err,
				 sizeof(err));
	unfill(&rt->prof);
	if (rc) {
		checkpoint_failed(rt, err);
		rt->prof.checkpoints++;
		rt->prof.checkpoint_ns += rt_now_ns() - c->t0;
	}
	return rc == 0;
}

void rt_checkpoint_commit(struct rt_state *rt)
{
	struct rt_checkpoint *c = &rt->ckpt;
	char err[1024];
	int rc = profile_write_commit(c->out, err, sizeof(err));

	rt_lock(&rt->agg_lock);
	if (rc) {
		checkpoint_failed(rt, err);
	} else {
		rt->checkpoint_failing = false;
		written_as(rt, c->dir, c->name);
	}
	rt->prof.checkpoints++;
	rt->prof.checkpoint_ns += rt_now_ns() - c->t0;
	rt_unlock(&rt->agg_lock);
}

/* Of an MPI run only rank 0 says where it wrote; any rank says when its
 * profile is lost. */
void rt_write_final(struct rt_state *rt, const char *reason)
{
	char err[1024];
	unsigned missed = atomic_load(&rt->unprofiled);

	fill(rt, reason, true);
	if (profile_prune(&rt->prof, rt->opt.rare_paths) < 0)
		rt_notice(rt, "out of memory: every call path is written, rare ones too");
	if (missed > 1)		/* the first one said why */
		rt_notice(rt, "%u threads of process %d were not profiled", missed, (int)rt->pid);
	if (write_file(rt, err, sizeof(err))) {
		/* the last checkpoint stays, and the lock, let go at exit, says
		 * its writer died */
		rt_notice(rt, "profile lost%s: %s", rt->file[0] ? " (the last checkpoint stays)" : "", err);
	} else {
		if (rt->prof.rank <= 0) {
			rt_notice(rt, "%s/%s: %llu samples, %llu lost%s%s%s", rt->opt.output, rt->file,
				  (unsigned long long)rt->prof.samples, (unsigned long long)rt->prof.lost,
				  rt->prof.rank == 0 ? " (rank 0; the other ranks write beside it)" : "",
				  rt->prof.partial ? "; partial: " : "",
				  rt->prof.partial ? rt->prof.partial : "");
			/* not after a crash, when the write does no more than it must */
			if (!rt->prof.partial)
				rt_mpi_missed_notice(rt);
		}
		live_close(rt);
	}
}

void rt_end_written(struct rt_state *rt)
{
	atomic_store(&rt->end, RT_END_WRITTEN);
	finishing = false;
}

/* Whether another process of the experiment directory still holds its
 * .live lock: it runs, and has not written its final profile. */
static bool peers_running(const struct rt_state *rt)
{
	DIR *d = opendir(rt->opt.output);
	struct dirent *e;
	bool running = false;

	while (d && !running && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		int fd;

		if (e->d_name[0] != '.' || n < 6 || strcmp(e->d_name + n - 5, ".live") ||
		    (fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		running = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
		close(fd);
	}
	if (d)
		closedir(d);
	return running;
}

/*
 * A rank ended by a signal from outside (its launcher's SIGTERM) waits,
 * before it dies, for the other processes of the directory to write
 * their final profiles: MPICH's hydra SIGKILLs the other ranks as soon as
 * one dies, and it forwards the signal to them over up to a few hundred
 * ms.  At most until PEER_WAIT_NS after the signal: within the 1 s Open
 * MPI's mpirun leaves between SIGTERM and SIGKILL.  Drain thread.
 */
void rt_end_wait_peers(struct rt_state *rt)
{
	static const char *const from_outside[] = { "signal SIGTERM", "signal SIGINT", "signal SIGHUP" };
	struct timespec ms = { 0, 5000000 };
	bool outside = false;

	for (size_t i = 0; i < sizeof(from_outside) / sizeof(from_outside[0]); i++)
		outside |= !strcmp(rt->end_reason, from_outside[i]);
	if (!outside || rt->prof.size <= 1)
		return;
	while (rt_now_ns() < rt->end_asked + PEER_WAIT_NS && peers_running(rt))
		nanosleep(&ms, NULL);
}

/* Remove what the process has written into its directory: its profile
 * (a checkpoint) and its lock. */
static void remove_files(struct rt_state *rt)
{
	if (rt->file[0]) {
		char old[PATH_MAX + sizeof(rt->file) + 2];

		snprintf(old, sizeof(old), "%s/%s", rt->opt.output, rt->file);
		unlink(old);
		rt->file[0] = 0;
	}
	live_close(rt);
}

void rt_write_none(struct rt_state *rt)
{
	remove_files(rt);
}

void rt_move_output(struct rt_state *rt, const char *dir)
{
	rt_lock(&rt->agg_lock);
	remove_files(rt);
	rmdir(rt->opt.output);
	snprintf(rt->opt.output, sizeof(rt->opt.output), "%s", dir);
	rt_live_open(rt);
	rt_unlock(&rt->agg_lock);
}

bool rt_end_claim(struct rt_state *rt)
{
	int expect = RT_END_RUNNING;

	finishing = true;
	if (atomic_compare_exchange_strong(&rt->end, &expect, RT_END_FINISHING))
		return true;
	finishing = false;
	rt_end_async(rt, NULL);	/* someone else writes it: wait as a handler would */
	return false;
}

/* Async-signal-safe: no lock, no allocation, only atomics, write(2) and
 * nanosleep(2). */
void rt_end_async(struct rt_state *rt, const char *reason)
{
	int expect = RT_END_RUNNING;
	struct timespec ms = { 0, 1000000 };

	if (!rt->active)
		return;
	if (atomic_compare_exchange_strong(&rt->end, &expect, RT_END_CLAIMED)) {
		size_t n = reason ? strlen(reason) : 0;

		if (n >= sizeof(rt->end_reason))
			n = sizeof(rt->end_reason) - 1;
		memcpy(rt->end_reason, reason ? reason : "", n);
		rt->end_reason[n] = 0;
		rt->end_asked = rt_now_ns();
		atomic_store(&rt->end, RT_END_ASKED);
		rt_drain_wake(rt);
	} else if (finishing) {
		return;	/* interrupted our own final write: nobody else will finish it */
	}
	for (int i = 0; i < END_WAIT_MS && atomic_load(&rt->end) != RT_END_WRITTEN; i++)
		nanosleep(&ms, NULL);
}
