/*
 * test-runtime-code.c - unit tests for the tables of the runtimes' own
 * code (sampler/runtime-code.c): the C library's start of a thread, matched
 * by whole name up to a symbol version, the frames that open a parallel
 * region, and the paths that wait.
 */
#include "tap.h"
#include "../../sampler/runtime-code.h"

static uint32_t frame(struct symtab *st, const char *function)
{
	return symtab_frame(st, SYMTAB_NO_MODULE, function, "", 0);
}

static uint32_t frame_in(struct symtab *st, const char *module, const char *function)
{
	return symtab_frame(st, symtab_module(st, module, ""), function, "", 0);
}

static void test_start_frames(void)
{
	const char *libc = "/usr/lib/x86_64-linux-gnu/libc.so.6", *app = "/home/u/app";
	struct wait_frames w = { 0 };
	struct symtab st;

	symtab_init(&st);
	ok(start_frame(&w, &st, frame_in(&st, app, "_start")), "_start starts the main thread");
	ok(start_frame(&w, &st, frame_in(&st, libc, "__libc_start_main@@GLIBC_2.34")),
	   "__libc_start_main with its symbol version");
	ok(start_frame(&w, &st, frame_in(&st, libc, "__libc_start_call_main")),
	   "__libc_start_call_main");
	ok(start_frame(&w, &st, frame_in(&st, libc, "start_thread")), "start_thread starts a pthread");
	ok(start_frame(&w, &st, frame_in(&st, "/lib/libc-2.31.so", "clone")),
	   "clone, in an older glibc's file");
	ok(!start_frame(&w, &st, frame_in(&st, "/usr/lib/libcrypto.so.3", "start_thread")),
	   "a library whose name only begins like the C library's is another");
	ok(!start_frame(&w, &st, frame_in(&st, app, "start_thread")),
	   "a program's own start_thread calls its work from several places");
	ok(!start_frame(&w, &st, frame(&st, "clone3")), "nor a frame of no module");
	ok(!start_frame(&w, &st, frame_in(&st, app, "main")), "main is the program's: its calls differ");
	ok(!start_frame(&w, &st, frame_in(&st, app, "_start_phase")),
	   "a name that only begins like one is not");
	ok(!start_frame(&w, &st, frame_in(&st, libc, "clone_mesh")), "nor clone_mesh");
	ok(!start_frame(&w, &st, 12345), "an unknown frame is not");
	wait_frames_release(&w);
	symtab_release(&st);
}

static void test_regions_and_waits(void)
{
	struct wait_frames w = { 0 };
	struct symtab st;
	uint32_t path[4];

	symtab_init(&st);
	path[0] = frame(&st, "main");
	path[1] = frame(&st, "GOMP_parallel");
	path[2] = frame(&st, "main._omp_fn.0");
	path[3] = frame(&st, "gomp_team_barrier_wait_end");
	is_int(region_frame(&w, &st, path, 4), 1, "the region opens at GOMP_parallel");
	ok(wait_path(&w, &st, path, 4), "a barrier's wait is the runtime's");
	ok(!wait_path(&w, &st, path, 3), "the region's work is not");
	ok(!start_frame(&w, &st, path[1]), "a region's opening is no start of a thread");
	/* glibc's symbol tables name sched_yield __sched_yield (the other
	 * is its weak alias): LLVM's OpenMP yields there while it waits */
	path[3] = frame(&st, "__sched_yield");
	ok(wait_path(&w, &st, path, 4), "a yield loop's __sched_yield waits");
	path[3] = frame(&st, "sched_yield");
	ok(wait_path(&w, &st, path, 4), "and sched_yield");
	wait_frames_release(&w);
	symtab_release(&st);
}

int main(void)
{
	test_start_frames();
	test_regions_and_waits();
	return tap_done();
}
