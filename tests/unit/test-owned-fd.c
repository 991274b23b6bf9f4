/*
 * test-owned-fd.c - unit tests for the runtime's descriptors
 * (common/owned-fd.c): moved high, still its own file while the program
 * leaves it alone, and told apart when the program closes it (nobody
 * holds the number) or opens another file at its number (taken).
 */
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../common/owned-fd.h"
#include "tap.h"

/* A descriptor kept as the runtime keeps one, on a file of its own. */
static int keep_new(struct owned_fd *o)
{
	return ofd_keep(o, open("/dev/null", O_RDONLY | O_CLOEXEC));
}

/* The lowest number the runtime asks for, as docs/record.md says
 * ("Descriptors"): from three quarters of the soft limit, at most 1024. */
static int high_floor(void)
{
	struct rlimit rl;

	getrlimit(RLIMIT_NOFILE, &rl);
	return rl.rlim_cur < 1024 ? (int)(rl.rlim_cur * 3 / 4) : 768;
}

static void test_kept(void)
{
	struct owned_fd o;

	ok(keep_new(&o) >= 0, "kept");
	is_int(o.fd >= high_floor(), 1, "at a high number");
	ok(fcntl(o.fd, F_GETFD) & FD_CLOEXEC, "close-on-exec");
	ok(ofd_mine(&o), "its own file");
	ok(!ofd_taken(&o), "not taken");
	ofd_release(&o);
}

static void test_closed(void)
{
	struct owned_fd o;

	keep_new(&o);
	close(o.fd);
	ok(!ofd_mine(&o), "closed by the program: no longer its own");
	ok(!ofd_taken(&o), "but not taken either: nobody holds the number");
}

static void test_taken(void)
{
	struct owned_fd o;
	int other = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	keep_new(&o);
	ok(other >= 0 && dup2(other, o.fd) == o.fd, "another file opened at its number");
	ok(!ofd_mine(&o), "no longer its own");
	ok(ofd_taken(&o), "taken");
	close(o.fd);
	close(other);
}

static void test_none(void)
{
	struct owned_fd o = OWNED_FD_NONE;

	ok(!ofd_mine(&o) && !ofd_taken(&o), "none: neither its own nor taken");
}

int main(void)
{
	test_kept();
	test_closed();
	test_taken();
	test_none();
	return tap_done();
}
