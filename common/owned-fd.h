/*
 * owned-fd.h - descriptors the runtime (sampler/, symbolize/) keeps open
 * inside the program.
 *
 * The program owns the process: it may close every descriptor above 2,
 * lower RLIMIT_NOFILE, or open its own files at numbers the runtime used.
 * So the runtime moves its descriptors to high numbers, out of the way of
 * the program's lowest-free allocation, notes what each one was when made,
 * and checks that before every read, write, ioctl or close: a descriptor
 * that is no longer the same file is forgotten, never used (docs/record.md,
 * "Descriptors").
 */
#ifndef CPPERF_OWNED_FD_H
#define CPPERF_OWNED_FD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* A descriptor and the file it was when kept (fd -1: none). */
struct owned_fd {
	int fd;
	dev_t dev;
	ino_t ino;
};

#define OWNED_FD_NONE ((struct owned_fd){ .fd = -1 })

/* Move fd to a high number, close-on-exec (fd itself when no number is
 * free up there); the original is closed.  Returns the number in use,
 * or fd when fd < 0.  Async-signal-safe. */
int ofd_move_high(int fd);
/* Keep fd: moved high, its identity noted.  Returns o->fd: -1 when fd
 * was < 0 or cannot be examined (then closed). */
int ofd_keep(struct owned_fd *o, int fd);
/* Whether o->fd is still the file it was when kept.  Async-signal-safe. */
bool ofd_mine(const struct owned_fd *o);
/* Whether o->fd's number holds another file now: one closed since holds
 * none.  Async-signal-safe. */
bool ofd_taken(const struct owned_fd *o);
/* Close o->fd when it is still ours; forget it either way. */
void ofd_release(struct owned_fd *o);

/* A perf event's descriptor, known by the kernel's id for it: whether fd
 * is still that event.  Examines a foreign descriptor only with fstat and,
 * for the kernel's anonymous files, the perf-reserved ioctl that reads an
 * id. */
bool ofd_perf_mine(int fd, uint64_t id);
/* The kernel's id of the perf event open at fd; 0 and errno on error.
 * Notes the anonymous-file identity perf events share. */
uint64_t ofd_perf_id(int fd);

#endif
