/*
 * tag-log.h - intervals of a thread's time that the layer above marks with
 * a tag (the MPI layer: which computation edge of its activity graph ran),
 * so that the samples taken inside one carry its tag to the sample hook
 * (rt.h).  The thread writes its own log; whoever folds its samples (the
 * drain thread, or the thread itself) reads it, without a lock.  The log
 * keeps the last RT_TAGS intervals: a sample folded after its interval was
 * overwritten gets no tag.
 *
 * An interval is logged when it ends, and its samples may be folded
 * before that: a sample newer than the log's last interval waits (struct
 * rt_tag_wait, the folder's) until an interval holds it or the log has
 * moved past it.  No MPI, no ring: the unit tests drive it.
 */
#ifndef CPPERF_TAG_LOG_H
#define CPPERF_TAG_LOG_H

#include <stdatomic.h>
#include <stdint.h>

#define RT_TAGS 256		/* intervals kept, a power of 2 */
#define RT_TAG_WAIT 256		/* samples that wait for their interval */
#define RT_NO_TAG UINT32_MAX

struct rt_tag_log {
	struct {
		uint64_t t0, t1;	/* [t0, t1), CLOCK_MONOTONIC ns */
		uint32_t tag;
		uint64_t seq;	/* its index + 1 once written, 0 while being written */
	} e[RT_TAGS];
	_Atomic uint64_t n;	/* intervals written so far */
};

/* A thread's samples that wait for the log to say their tag; the
 * folder's own (no other thread reads it). */
struct rt_tag_wait {
	struct {
		uint64_t time, w;
		uint32_t node;
	} s[RT_TAG_WAIT];
	uint32_t n;
	uint64_t dropped;	/* samples that could not wait: no room */
};

/* What is told of a sample once its tag is known. */
typedef void (*rt_tag_fn)(void *arg, uint32_t tag, uint32_t node, uint64_t w);

/* The writer: [t0, t1) ran under tag; intervals come in time order. */
void rt_tag_log_add(struct rt_tag_log *l, uint64_t t0, uint64_t t1, uint32_t tag);
/* A reader: the tag of the interval holding time, RT_NO_TAG when none
 * (outside them all, or no longer kept). */
uint32_t rt_tag_log_find(const struct rt_tag_log *l, uint64_t time);
/* A sample of node, weight w, taken at time: told to fn now when l holds
 * its interval, later (rt_tag_settle) when l may yet, never when it
 * cannot (it was taken in no tagged interval). */
void rt_tag_sample(const struct rt_tag_log *l, struct rt_tag_wait *q, uint64_t time, uint32_t node,
		   uint64_t w, rt_tag_fn fn, void *arg);
/* The waiting samples whose interval l now holds are told to fn; those l
 * has moved past leave. */
void rt_tag_settle(const struct rt_tag_log *l, struct rt_tag_wait *q, rt_tag_fn fn, void *arg);

#endif
