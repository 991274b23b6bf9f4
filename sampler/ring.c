/*
 * ring.c - consuming records from a perf_event mmap ring buffer.  Only the
 * drain thread calls ring_drain() on a given ring; the kernel is the only
 * producer, so the head/tail protocol of perf_event_open(2) is enough.
 */
#include "ring.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int ring_map(struct ring *r, int fd, unsigned pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (pages + 1) * page;
	void *p;

	memset(r, 0, sizeof(*r));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->meta = p;
	r->data = (uint8_t *)p + page;
	r->size = (uint64_t)pages * page;
	r->map_len = len;
	return 0;
}

void ring_discard(struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);

	__atomic_store_n(&r->meta->data_tail, head, __ATOMIC_RELEASE);
}

void ring_unmap(struct ring *r)
{
	if (r->meta)
		munmap(r->meta, r->map_len);
	memset(r, 0, sizeof(*r));
}

int ring_release_in_place(struct ring *r)
{
	void *p = mmap(r->meta, r->map_len, PROT_READ, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? -errno : 0;
}

/* The consumer saw a sample record of size bytes. */
static void note_sample_size(struct ring *r, uint32_t size)
{
	uint32_t known = __atomic_load_n(&r->sample_size, __ATOMIC_RELAXED);

	if (known == size || known == UINT32_MAX)
		return;
	if (known) {
		__atomic_store_n(&r->sample_size, UINT32_MAX, __ATOMIC_RELAXED);
		return;
	}
	r->sample_recip = UINT64_MAX / size + 1;
	__atomic_store_n(&r->sample_size, size, __ATOMIC_RELEASE);
}

/*
 * Multiplying by ceil(2^64 / size) and keeping the high half is the floor
 * of bytes / size whenever bytes * size < 2^64 (the rounding error, under
 * bytes / 2^64, cannot reach the next integer), and a ring's bytes are
 * far below that: a division costs more than the rest of a wrapped MPI
 * call's entry.
 */
uint64_t ring_samples_pending(const struct ring *r)
{
	uint32_t size;
	uint64_t counted, head;

	if (!r->meta)
		return 0;
	size = __atomic_load_n(&r->sample_size, __ATOMIC_ACQUIRE);
	if (!size || size == UINT32_MAX)
		return 0;
	counted = __atomic_load_n(&r->counted, __ATOMIC_ACQUIRE);	/* before the head: never past it */
	head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	if (head - counted > r->size)	/* released in place: the head reads 0 */
		return 0;
	return (uint64_t)(((unsigned __int128)(head - counted) * r->sample_recip) >> 64);
}

bool ring_pending(const struct ring *r)
{
	return r->meta && __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE) != r->meta->data_tail;
}

size_t ring_drain(struct ring *r, ring_record_fn fn, void *arg, uint8_t *bounce)
{
	uint64_t head, tail, mask = r->size - 1;
	size_t n = 0;

	if (!r->meta)
		return 0;
	head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	tail = r->meta->data_tail;
	while (tail + sizeof(struct perf_event_header) <= head) {
		uint64_t off = tail & mask;
		const struct perf_event_header *h = (const void *)(r->data + off);
		struct perf_event_header hdr;

		if (off + sizeof(hdr) > r->size) {
			/* even the header wraps */
			size_t first = r->size - off;

			memcpy(&hdr, r->data + off, first);
			memcpy((uint8_t *)&hdr + first, r->data, sizeof(hdr) - first);
		} else {
			hdr = *h;
		}
		if (hdr.size < sizeof(hdr) || tail + hdr.size > head)
			break;
		if (off + hdr.size > r->size) {
			size_t first = r->size - off;

			memcpy(bounce, r->data + off, first);
			memcpy(bounce + first, r->data, hdr.size - first);
			h = (const void *)bounce;
		}
		/* out of the pending count before fn counts it folded: a
		 * reader may miss it for a moment, never count it twice */
		if (hdr.type == PERF_RECORD_SAMPLE)
			note_sample_size(r, hdr.size);
		__atomic_store_n(&r->counted, tail + hdr.size, __ATOMIC_RELEASE);
		fn(arg, h);
		tail += hdr.size;
		n++;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}
