/*
 * sample.c - decoding PERF_RECORD_SAMPLE records into struct rt_sample,
 * and PERF_RECORD_MMAP2 records into struct sym_mapping.  The field order
 * is the kernel's (perf_event_open(2), "sample_type"); every read is
 * checked against the record's size.
 */
#include "sample.h"

#include <string.h>

struct cursor {
	const uint8_t *p, *end;
};

/* Copy the next n bytes into v and skip them. */
static int take(struct cursor *c, void *v, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return -1;
	memcpy(v, c->p, n);
	c->p += n;
	return 0;
}

/* Take the next field of *p's type into *p. */
#define TAKE(c, p) take((c), (p), sizeof(*(p)))

/* Point *out at n u64s and skip them. */
static int take_array(struct cursor *c, uint64_t n, const uint64_t **out)
{
	if (n > (uint64_t)(c->end - c->p) / 8)
		return -1;
	*out = (const uint64_t *)(const void *)c->p;
	c->p += n * 8;
	return 0;
}

uint64_t sample_type_for(enum opt_call_graph cg)
{
	uint64_t t = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		     PERF_SAMPLE_READ;

	if (cg == CG_FP)
		t |= PERF_SAMPLE_CALLCHAIN;
	else if (cg == CG_DWARF)
		t |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	return t;
}

/* perf's register order (SAMPLE_REGS_MASK bits ascending) to DWARF's. */
static void regs_to_dwarf(const uint64_t *v, uint64_t *dw)
{
	static const int perf_of_dwarf[SYM_NREGS] = {
		0, 3, 2, 1, 4, 5, 6, 7,		/* rax rdx rcx rbx rsi rdi rbp rsp */
		9, 10, 11, 12, 13, 14, 15, 16,	/* r8..r15 */
		8				/* rip */
	};

	for (int i = 0; i < SYM_NREGS; i++)
		dw[i] = v[perf_of_dwarf[i]];
}

static int decode_regs_and_stack(struct cursor *c, struct rt_sample *s)
{
	uint64_t abi, size, dyn;
	const uint64_t *regs;

	if (TAKE(c, &abi))
		return -1;
	if (abi != PERF_SAMPLE_REGS_ABI_NONE) {
		if (take_array(c, SAMPLE_NREGS, &regs))
			return -1;
		regs_to_dwarf(regs, s->regs);
		s->have_regs = true;
	}
	if (TAKE(c, &size) || size > (uint64_t)(c->end - c->p))
		return -1;
	s->stack = c->p;
	c->p += size;
	if (size && TAKE(c, &dyn))
		return -1;
	s->stack_size = size ? (dyn < size ? dyn : size) : 0;
	return 0;
}

int sample_decode(const struct perf_event_header *h, enum opt_call_graph cg,
		  struct rt_sample *s)
{
	struct cursor c = { (const uint8_t *)(h + 1), (const uint8_t *)h + h->size };
	uint64_t pidtid;

	memset(s, 0, sizeof(*s));
	if (TAKE(&c, &s->id) || TAKE(&c, &s->ip) || TAKE(&c, &pidtid))
		return -1;
	s->pid = (uint32_t)pidtid;
	s->tid = (uint32_t)(pidtid >> 32);
	if (TAKE(&c, &s->time))
		return -1;
	if (TAKE(&c, &s->nvalues) || take_array(&c, 2 * s->nvalues, &s->values))
		return -1;
	if (cg == CG_FP)
		return TAKE(&c, &s->nchain) || take_array(&c, s->nchain, &s->chain) ? -1 : 0;
	if (cg == CG_DWARF)
		return decode_regs_and_stack(&c, s);
	return 0;
}

#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#endif

int sample_decode_mmap2(const struct perf_event_header *h, struct sym_mapping *m)
{
	struct cursor c = { (const uint8_t *)(h + 1), (const uint8_t *)h + h->size };
	uint32_t pid, tid;
	uint64_t generation;

	memset(m, 0, sizeof(*m));
	if (TAKE(&c, &pid) || TAKE(&c, &tid) || TAKE(&c, &m->addr) ||
	    TAKE(&c, &m->len) || TAKE(&c, &m->pgoff) || TAKE(&c, &m->maj) ||
	    TAKE(&c, &m->min) || TAKE(&c, &m->ino) || TAKE(&c, &generation) ||
	    TAKE(&c, &m->prot) || TAKE(&c, &pid))	/* flags */
		return -1;
	if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
		m->maj = m->min = 0, m->ino = 0;
	if (c.p < c.end && memchr(c.p, '\0', (size_t)(c.end - c.p)))
		m->path = (const char *)c.p;
	return 0;
}
