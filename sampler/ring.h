/*
 * ring.h - reading a perf_event ring buffer from user space.
 *
 * The kernel writes records at data_head; the drain thread consumes them
 * from data_tail and publishes the new tail so the kernel can reuse the
 * space.  A record that wraps around the end of the buffer is copied into
 * a bounce buffer so consumers always see it contiguous.
 *
 * Any thread may ask how many samples wait in a ring (ring_samples_pending):
 * the overhead compensation charges a sample's cost as soon as the kernel
 * has taken it, not when the drain thread gets to it.
 */
#ifndef CPPERF_RING_H
#define CPPERF_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct ring {
	struct perf_event_mmap_page *meta;	/* NULL when not mapped */
	uint8_t *data;
	uint64_t size;		/* data bytes, a power of two */
	size_t map_len;
	/* Read by other threads (__atomic): the bytes before the next record
	 * the consumer has not yet begun, and the size of every sample record
	 * so far (0 before the first, UINT32_MAX once two differ), with
	 * ceil(2^64 / sample_size) to divide by it. */
	uint64_t counted;
	uint32_t sample_size;
	uint64_t sample_recip;
};

/* Map fd's ring buffer with pages data pages (a power of two; its size
 * is the caller's to choose, ring-budget.h).  Returns 0, or -errno:
 * EPERM when the locked-memory limits refuse it. */
int ring_map(struct ring *r, int fd, unsigned pages);
void ring_unmap(struct ring *r);
/* Give the buffer back to the kernel (the event may then map another) but
 * leave its addresses readable, as zeros, for a thread that may still be
 * reading them; ring_unmap releases them.  Returns 0, or -errno. */
int ring_release_in_place(struct ring *r);

typedef void (*ring_record_fn)(void *arg, const struct perf_event_header *h);

/* Hand every complete record to fn (bounce must hold 64 KiB, the largest
 * record), then release the space.  Returns the number of records. */
size_t ring_drain(struct ring *r, ring_record_fn fn, void *arg, uint8_t *bounce);
/* Release every record written so far, unread. */
void ring_discard(struct ring *r);
/* Whether the kernel has written records that ring_drain would read. */
bool ring_pending(const struct ring *r);
/* How many samples the kernel has written that ring_drain has not begun
 * to hand out; 0 when unknown (no sample seen yet, records of varying
 * size as frame-pointer call chains make, a ring released in place).
 * Any thread. */
uint64_t ring_samples_pending(const struct ring *r);

#endif
