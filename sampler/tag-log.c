/*
 * tag-log.c - a thread's tagged intervals (tag-log.h): a ring the thread
 * writes and another thread searches.  Each entry carries the index it
 * holds, cleared while it is rewritten (a sequence lock per entry): a
 * reader believes an entry only when that index is the same before and
 * after it read the rest, so a torn or overwritten entry is never used.
 * The samples that wait for their interval are the folder's alone.
 */
#include "tag-log.h"

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

void rt_tag_log_add(struct rt_tag_log *l, uint64_t t0, uint64_t t1, uint32_t tag)
{
	uint64_t n = atomic_load_explicit(&l->n, memory_order_relaxed);
	unsigned i = (unsigned)(n % RT_TAGS);

	STORE(l->e[i].seq, 0);
	atomic_thread_fence(memory_order_release);
	STORE(l->e[i].t0, t0);
	STORE(l->e[i].t1, t1);
	STORE(l->e[i].tag, tag);
	__atomic_store_n(&l->e[i].seq, n + 1, __ATOMIC_RELEASE);
	atomic_store_explicit(&l->n, n + 1, memory_order_release);
}

uint32_t rt_tag_log_find(const struct rt_tag_log *l, uint64_t time)
{
	uint64_t n = atomic_load_explicit(&l->n, memory_order_acquire);
	uint64_t lo = n > RT_TAGS ? n - RT_TAGS : 0, hi = n;
	uint64_t t0, t1, seq;
	uint32_t tag;
	unsigned i;

	if (!n)
		return RT_NO_TAG;
	/* the last interval that begins at or before time, in [lo, hi) */
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (LOAD(l->e[mid % RT_TAGS].t0) <= time)
			lo = mid;
		else
			hi = mid;
	}
	i = (unsigned)(lo % RT_TAGS);
	seq = __atomic_load_n(&l->e[i].seq, __ATOMIC_ACQUIRE);
	t0 = LOAD(l->e[i].t0);
	t1 = LOAD(l->e[i].t1);
	tag = LOAD(l->e[i].tag);
	atomic_thread_fence(memory_order_acquire);
	if (seq != lo + 1 || LOAD(l->e[i].seq) != seq)
		return RT_NO_TAG;	/* the writer came round to it meanwhile */
	return time >= t0 && time < t1 ? tag : RT_NO_TAG;
}

/* Where the log's newest interval ends; 0 when it has none (or it is being
 * rewritten: the samples then wait for the next fold). */
static uint64_t log_end(const struct rt_tag_log *l)
{
	uint64_t n = atomic_load_explicit(&l->n, memory_order_acquire), seq, t1;
	unsigned i = (unsigned)((n - 1) % RT_TAGS);

	if (!n)
		return 0;
	seq = __atomic_load_n(&l->e[i].seq, __ATOMIC_ACQUIRE);
	t1 = LOAD(l->e[i].t1);
	atomic_thread_fence(memory_order_acquire);
	return seq == n && LOAD(l->e[i].seq) == seq ? t1 : 0;
}

void rt_tag_sample(const struct rt_tag_log *l, struct rt_tag_wait *q, uint64_t time, uint32_t node,
		   uint64_t w, rt_tag_fn fn, void *arg)
{
	uint32_t tag = rt_tag_log_find(l, time);

	if (tag != RT_NO_TAG) {
		fn(arg, tag, node, w);
	} else if (time >= log_end(l)) {
		if (q->n < RT_TAG_WAIT) {
			q->s[q->n].time = time;
			q->s[q->n].w = w;
			q->s[q->n++].node = node;
		} else {
			q->dropped++;
		}
	}
}

void rt_tag_settle(const struct rt_tag_log *l, struct rt_tag_wait *q, rt_tag_fn fn, void *arg)
{
	uint64_t end = log_end(l);
	uint32_t k = 0;

	for (uint32_t i = 0; i < q->n; i++) {
		uint32_t tag = rt_tag_log_find(l, q->s[i].time);

		if (tag != RT_NO_TAG)
			fn(arg, tag, q->s[i].node, q->s[i].w);
		else if (q->s[i].time >= end)
			q->s[k++] = q->s[i];
	}
	q->n = k;
}
