/*
 * dlcycle.c - loads a library with dlopen, spends its time in the library's
 * dl_work, and closes it again, once per library named: cycle k runs in
 * cycle<k>() (k < 8), so the report tells the cycles apart.  A library
 * named "+PATH" is loaded at another address than the library before it:
 * the range that library took is held while PATH is loaded.  The loop
 * counts calls, it reads no clock.  Each cycle's library and address go to
 * stderr.  Usage: dlcycle CALLS LIB [LIB...]
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define NOINLINE __attribute__((noinline))
#define CHUNK 1000000

typedef void work_fn(long);
static volatile long sink;

#define CYCLE(k) \
	static NOINLINE void cycle##k(work_fn *f, long calls) \
	{ \
		for (long i = 0; i < calls; i++) \
			f(CHUNK); \
		sink++; \
	}
CYCLE(0) CYCLE(1) CYCLE(2) CYCLE(3) CYCLE(4) CYCLE(5) CYCLE(6) CYCLE(7)
static void (*const cycles[8])(work_fn *, long) = {
	cycle0, cycle1, cycle2, cycle3, cycle4, cycle5, cycle6, cycle7
};

/* The extent of the object loaded at base. */
struct extent {
	uintptr_t base, len;
};

static int extent_of(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct extent *e = arg;

	(void)size;
	if (info->dlpi_addr != e->base)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD) {
			uintptr_t end = info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;

			if (end > e->len)
				e->len = (end + 4095) & ~(uintptr_t)4095;
		}
	return 1;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 100;
	struct extent last = { 0, 0 };

	for (int k = 0; k + 2 < argc && k < 8; k++) {
		const char *path = argv[k + 2];
		void *hold = MAP_FAILED, *h;
		struct link_map *lm;
		work_fn *f;

		if (path[0] == '+') {
			path++;
			if (last.len)
				hold = mmap((void *)last.base, last.len, PROT_NONE,
					    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		}
		h = dlopen(path, RTLD_NOW);
		if (hold != MAP_FAILED)
			munmap(hold, last.len);
		if (!h || dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0) {
			fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
			return 1;
		}
		*(void **)&f = dlsym(h, "dl_work");
		if (!f) {
			fprintf(stderr, "dlsym: %s\n", dlerror());
			return 1;
		}
		last = (struct extent){ lm->l_addr, 0 };
		dl_iterate_phdr(extent_of, &last);
		fprintf(stderr, "cycle %d: %s at %#lx\n", k, strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
			(unsigned long)lm->l_addr);
		cycles[k](f, calls);
		dlclose(h);
	}
	return 0;
}
