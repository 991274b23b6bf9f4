/*
 * owned-fd.c - descriptors the runtime keeps, at high numbers and checked
 * before use (owned-fd.h).
 */
#include "owned-fd.h"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The lowest number the runtime asks for: a quarter below the soft limit,
 * or below 1024 when the limit is higher, so that a program's table of
 * descriptors does not grow for ours and select() keeps its range below
 * 1024 as far as the program fills it.  Programs allocate from the bottom;
 * one that lowers its limit later keeps every number below the new limit.
 */
static int high_floor(void)
{
	struct rlimit rl;
	rlim_t top = 1024;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < top)
		top = rl.rlim_cur;
	return (int)(top - top / 4);
}

/* Found at the first call, the same value from every thread.  Should the
 * program lower its limit below it, F_DUPFD fails and the number stays. */
static atomic_int floor_cached;

int ofd_move_high(int fd)
{
	int floor = atomic_load_explicit(&floor_cached, memory_order_relaxed), high;

	if (!floor) {
		floor = high_floor();
		atomic_store_explicit(&floor_cached, floor, memory_order_relaxed);
	}

	if (fd < 0 || fd >= floor)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, floor);
	if (high < 0)	/* nothing free up there: keep the number we have */
		return fd;
	close(fd);
	return high;
}

int ofd_keep(struct owned_fd *o, int fd)
{
	struct stat st;

	*o = OWNED_FD_NONE;
	fd = ofd_move_high(fd);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	*o = (struct owned_fd){ .fd = fd, .dev = st.st_dev, .ino = st.st_ino };
	return fd;
}

bool ofd_mine(const struct owned_fd *o)
{
	struct stat st;

	return o->fd >= 0 && !fstat(o->fd, &st) && st.st_dev == o->dev && st.st_ino == o->ino;
}

bool ofd_taken(const struct owned_fd *o)
{
	struct stat st;

	return o->fd >= 0 && !fstat(o->fd, &st) && (st.st_dev != o->dev || st.st_ino != o->ino);
}

void ofd_release(struct owned_fd *o)
{
	if (ofd_mine(o))
		close(o->fd);
	*o = OWNED_FD_NONE;
}

/* The anonymous inode every perf event's file shares (as eventfds and
 * others do), noted from the first event examined: the same value from
 * every thread. */
static atomic_uint_fast64_t perf_dev, perf_ino;

uint64_t ofd_perf_id(int fd)
{
	struct stat st;
	uint64_t id;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return 0;
	if (!atomic_load_explicit(&perf_ino, memory_order_relaxed) && !fstat(fd, &st)) {
		atomic_store_explicit(&perf_dev, st.st_dev, memory_order_relaxed);
		atomic_store_explicit(&perf_ino, st.st_ino, memory_order_relaxed);
	}
	return id;
}

/*
 * Only a descriptor on the perf events' anonymous inode gets the ioctl:
 * its number is reserved for perf, and the other anonymous files
 * (eventfd, timerfd, epoll, ...) refuse it.
 */
bool ofd_perf_mine(int fd, uint64_t id)
{
	struct stat st;
	uint64_t got;

	if (fd < 0 || fstat(fd, &st) ||
	    st.st_dev != atomic_load_explicit(&perf_dev, memory_order_relaxed) ||
	    st.st_ino != atomic_load_explicit(&perf_ino, memory_order_relaxed))
		return false;
	return !ioctl(fd, PERF_EVENT_IOC_ID, &got) && got == id;
}
