/*
 * papi-record.c - what the PAPI overflow handler writes: a PERF_RECORD_SAMPLE
 * built from the interrupted context (the layout perf would have written
 * with sample_type_for(cg)), and a user-space ring with the perf mmap layout
 * to hold it.  ring_drain() and rt_aggregate_record() read both unchanged.
 *
 * Everything here but papi_ring_create runs in a signal handler: only
 * plain copies and atomics, no allocation, no locks, and no memory read
 * outside the ranges the caller vouches for.
 */
#include "papi.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "sample.h"

/* ucontext's registers in perf's order (SAMPLE_REGS_MASK, bits ascending). */
static const int papi_perf_regs[SAMPLE_NREGS] = {
	REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI, REG_RBP, REG_RSP, REG_RIP,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15
};

/* Bytes of stack to copy from sp: within the stack and the record.
 * Signal-handler code. */
static uint64_t stack_bytes(const struct papi_sample_src *s, uint64_t sp, uint64_t want)
{
	uint64_t n;

	if (sp < s->stack_lo || sp >= s->stack_hi)
		return 0;
	n = s->stack_hi - sp;
	return n < want ? n : want;
}

/*
 * Copy n bytes of the live stack from sp (sample.h).  The stack holds other frames'
 * data, which AddressSanitizer takes for overflows (its redzones), so the
 * copy is not instrumented and goes word by word through volatile loads,
 * which the compiler cannot turn into an (intercepted) memcpy call.
 * Signal-handler code.
 */
__attribute__((no_sanitize("address", "alignment")))
void sample_copy_stack(uint8_t *dst, uint64_t sp, uint64_t n)
{
	const volatile uint8_t *src = (const volatile uint8_t *)(uintptr_t)sp;
	uint64_t i = 0;

	if (sp % 8 == 0)
		for (; i + 8 <= n; i += 8) {
			uint64_t w = *(const volatile uint64_t *)(const volatile void *)(src + i);

			memcpy(dst + i, &w, 8);
		}
	for (; i < n; i++)
		dst[i] = src[i];
}

size_t papi_record_build(const struct papi_sample_src *s, enum opt_call_graph cg,
			 uint32_t stack_size, uint8_t *buf, size_t cap)
{
	const greg_t *g = s->uc->uc_mcontext.gregs;
	uint64_t *w = (uint64_t *)(void *)(buf + sizeof(struct perf_event_header));
	size_t fixed = sizeof(struct perf_event_header) + 5 * 8;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 0 };

	if (cap > PAPI_RECORD_MAX)
		cap = PAPI_RECORD_MAX;
	if (cg == CG_FP || cap < fixed + (cg == CG_DWARF ? (3 + SAMPLE_NREGS) * 8 : 0))
		return 0;
	*w++ = s->id;
	*w++ = s->ip ? s->ip : (uint64_t)g[REG_RIP];
	*w++ = (uint64_t)s->pid | (uint64_t)s->tid << 32;
	*w++ = rt_now_ns();	/* async-signal-safe */
	*w++ = 0;		/* read: nr = 0, no group members */
	if (cg == CG_DWARF) {
		uint64_t sp = (uint64_t)g[REG_RSP], room, n;

		*w++ = PERF_SAMPLE_REGS_ABI_64;
		for (int i = 0; i < SAMPLE_NREGS; i++)
			*w++ = (uint64_t)g[papi_perf_regs[i]];
		room = cap - fixed - (3 + SAMPLE_NREGS) * 8;	/* abi, regs, size, dyn */
		n = stack_bytes(s, sp, (stack_size < room ? stack_size : room) & ~7ull);
		*w++ = (n + 7) & ~7ull;
		if (n) {
			sample_copy_stack((uint8_t *)w, sp, n);
			memset((uint8_t *)w + n, 0, ((n + 7) & ~7ull) - n);
			w += (n + 7) / 8;
			*w++ = n;	/* dyn_size */
		}
	}
	h.size = (uint16_t)((uint8_t *)w - buf);
	memcpy(buf, &h, sizeof(h));
	return h.size;
}

int papi_ring_create(struct ring *r, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	memset(r, 0, sizeof(*r));
	if (bytes & (bytes - 1) || bytes < 2 * PAPI_RECORD_MAX || bytes % page)
		return -EINVAL;
	p = mmap(NULL, page + bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->meta = p;
	r->data = (uint8_t *)p + page;
	r->size = bytes;
	r->map_len = page + bytes;
	return 0;
}

uint64_t papi_ring_used(const struct ring *r)
{
	return __atomic_load_n(&r->meta->data_head, __ATOMIC_RELAXED) -
	       __atomic_load_n(&r->meta->data_tail, __ATOMIC_ACQUIRE);
}

/* Copy len bytes at the ring offset of head, wrapping.  Signal-handler code. */
static void ring_copy_in(struct ring *r, uint64_t head, const void *src, size_t len)
{
	uint64_t off = head & (r->size - 1);
	size_t first = r->size - off < len ? r->size - off : len;

	memcpy(r->data + off, src, first);
	memcpy(r->data, (const uint8_t *)src + first, len - first);
}

/* Write one record if it fits; the consumer sees it once data_head moves.
 * Signal-handler code. */
static bool ring_append(struct ring *r, const void *rec, size_t len)
{
	uint64_t head = r->meta->data_head;	/* only this writer stores it */

	if (r->size - papi_ring_used(r) < len)
		return false;
	ring_copy_in(r, head, rec, len);
	__atomic_store_n(&r->meta->data_head, head + len, __ATOMIC_RELEASE);
	return true;
}

bool papi_ring_put(struct ring *r, const void *rec, size_t len, uint64_t *lost)
{
	if (*lost) {
		struct {
			struct perf_event_header h;
			uint64_t id, lost;
		} l = { { PERF_RECORD_LOST, 0, sizeof(l) }, 0, *lost };

		if (r->size - papi_ring_used(r) < sizeof(l) + len || !ring_append(r, &l, sizeof(l))) {
			++*lost;
			return false;
		}
		*lost = 0;
	}
	if (ring_append(r, rec, len))
		return true;
	++*lost;
	return false;
}
