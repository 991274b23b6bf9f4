/*
 * ring.h - reading a perf_event ring buffer from user space.
 *
 * The kernel writes records at data_head; the drain thread consumes them
 * from data_tail and publishes the new tail so the kernel can reuse the
 * space.  A record that wraps around the end of the buffer is copied into
 * a bounce buffer so consumers always see it contiguous.
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
};

/* Map fd's ring buffer with up to max_pages data pages (a power of two),
 * halving on EPERM/ENOMEM down to min_pages (the locked-memory limit of
 * unprivileged users).  Returns 0, or -errno. */
int ring_map(struct ring *r, int fd, unsigned max_pages, unsigned min_pages);
void ring_unmap(struct ring *r);

typedef void (*ring_record_fn)(void *arg, const struct perf_event_header *h);

/* Hand every complete record to fn (bounce must hold 64 KiB, the largest
 * record), then release the space.  Returns the number of records. */
size_t ring_drain(struct ring *r, ring_record_fn fn, void *arg, uint8_t *bounce);
/* Whether the kernel has written records that ring_drain would read. */
bool ring_pending(const struct ring *r);

#endif
