/*
 * sym-probe.h - what the unit tests of symbolize/ share as they probe this
 * process: the code segment that holds an address, the clock that times
 * the costs they print, and the frames they ask for at most.
 */
#ifndef CPPERF_TEST_SYM_PROBE_H
#define CPPERF_TEST_SYM_PROBE_H

#include <link.h>
#include <stdint.h>
#include <time.h>

#define SYM_MAX_FRAMES_TEST 64

/* Microseconds of CLOCK_MONOTONIC. */
static inline double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* dl_iterate_phdr's callback: seg[2] is an address, seg[0] and seg[1]
 * become the bounds of the executable segment of the object that holds
 * it. */
static inline int text_of(struct dl_phdr_info *info, size_t size, void *data)
{
	uint64_t *seg = data;

	(void)size;
	for (int k = 0; k < info->dlpi_phnum; k++) {
		uint64_t lo = info->dlpi_addr + info->dlpi_phdr[k].p_vaddr;

		if (info->dlpi_phdr[k].p_type == PT_LOAD && (info->dlpi_phdr[k].p_flags & PF_X) &&
		    seg[2] >= lo && seg[2] < lo + info->dlpi_phdr[k].p_memsz) {
			seg[0] = lo;
			seg[1] = lo + info->dlpi_phdr[k].p_memsz;
			return 1;
		}
	}
	return 0;
}

#endif
