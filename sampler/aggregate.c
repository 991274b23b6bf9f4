/*
 * aggregate.c - folding ring-buffer records into the profile, on the drain
 * thread.  A sample is unwound (dwarf), taken from the kernel's callchain
 * (fp: up to its first address that is no code, complete when it reaches
 * a thread's root) or reduced to its IP (none), each address is resolved to frames
 * (cached by symbolize/), and the path's leaf in the call-path tree gets the
 * sample's weights: one for the sampling event, and for each counting member
 * of its group the count since the thread's previous sample.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rt.h"
#include "sample.h"

#define MAX_ADDRS 256
#define MAX_FRAMES 1024

static int event_of_id(const struct rt_thread *t, int nevents, uint64_t id)
{
	for (int i = 0; i < nevents; i++)
		if (t->ids[i] == id)
			return i;
	return -1;
}

/* Weights per event for this sample; returns -1 for an unknown event. */
static int sample_weights(const struct rt_state *rt, struct rt_thread *t,
			  const struct rt_sample *s, uint64_t *w)
{
	int n = rt->events.n, e = event_of_id(t, n, s->id);

	if (e < 0)
		return -1;
	memset(w, 0, sizeof(uint64_t) * (size_t)n);
	w[e] = 1;
	for (uint64_t k = 0; k < s->nvalues; k++) {
		int m = event_of_id(t, n, s->values[2 * k + 1]);

		if (m < 0 || m == e)
			continue;
		w[m] = s->values[2 * k] - t->last[m];
		t->last[m] = s->values[2 * k];
	}
	return 0;
}

/* The kernel's limit on a callchain's addresses
 * (kernel.perf_event_max_stack; attr.sample_max_stack is not set): read
 * once, by the drain thread, the only one that folds samples. */
static uint64_t chain_limit(void)
{
	static uint64_t limit;
	FILE *f;

	if (!limit) {
		unsigned long v = 0;

		f = fopen("/proc/sys/kernel/perf_event_max_stack", "re");
		limit = f && fscanf(f, "%lu", &v) == 1 && v > 0 ? v : 127;
		if (f)
			fclose(f);
	}
	return limit;
}

/* The callchain's lookup addresses; *cut when the kernel stopped at its
 * limit or they did not fit. */
static int addrs_from_chain(const struct rt_sample *s, uint64_t *addrs, bool *cut)
{
	uint64_t ips = 0;
	int n = 0;

	for (uint64_t i = 0; i < s->nchain; i++) {
		uint64_t a = s->chain[i];

		if (a >= (uint64_t)PERF_CONTEXT_MAX)
			continue;	/* context marker */
		ips++;
		if (n < MAX_ADDRS) {
			addrs[n] = n ? a - 1 : a;	/* return addresses point past the call */
			n++;
		}
	}
	*cut = ips >= chain_limit() || ips > MAX_ADDRS;
	return n;
}

/* Lookup addresses of the sample, innermost first; counts unwinding. */
static int sample_addrs(struct rt_state *rt, struct rt_thread *t,
			const struct rt_sample *s, uint64_t *addrs)
{
	struct sym_stack st;
	bool complete = false;
	int n = 0;

	if (rt->opt.call_graph == CG_FP) {
		bool cut;

		n = addrs_from_chain(s, addrs, &cut);
		n = sym_chain(rt->sym, addrs, n, cut, &complete);
		if (complete)
			rt->prof.unwind_complete++;
		else
			rt->prof.unwind_truncated++;
	} else if (rt->opt.call_graph == CG_DWARF && s->have_regs) {
		memcpy(st.regs, s->regs, sizeof(st.regs));
		st.data = s->stack;
		st.size = s->stack_size;
		st.lo = t->stack_lo;
		st.hi = t->stack_hi;
		n = sym_unwind(rt->sym, &st, addrs, MAX_ADDRS, &complete);
		if (complete)
			rt->prof.unwind_complete++;
		else
			rt->prof.unwind_truncated++;
	}
	if (n <= 0) {
		addrs[0] = s->ip;
		n = 1;
	}
	return n;
}

int rt_resolve_path(struct rt_state *rt, const uint64_t *addrs, int n, uint32_t *frames, int max)
{
	int nframes = 0;

	for (int i = n - 1; i >= 0 && nframes < max; i--)
		nframes += sym_resolve(rt->sym, addrs[i], frames + nframes, max - nframes);
	return nframes;
}

bool rt_start_address(struct rt_state *rt, uint64_t addr)
{
	uint32_t function;	/* the outermost frame: what was inlined is no start */

	return sym_resolve(rt->sym, addr, &function, 1) > 0 &&
	       start_frame(&rt->waits, &rt->prof.syms, function);
}

static void tell_tagged(void *arg, uint32_t tag, uint32_t node, uint64_t w)
{
	((const struct rt_hooks *)arg)->tagged(tag, node, w);
}

/* The sample's part in the thread activity: whether it waits, and the
 * parallel region its thread opened and works in (its node). */
static void add_activity(struct rt_state *rt, struct rt_thread *t, const struct rt_sample *s,
			 const uint32_t *frames, int nframes, uint32_t leaf)
{
	int r = region_frame(&rt->waits, &rt->prof.syms, frames, nframes);
	uint32_t region = r < 0 ? CCT_NO_FRAME : cct_path(&rt->prof.tree, frames, (size_t)r + 1);

	act_sample(&rt->act, t->act, s->time, leaf, region,
		   wait_path(&rt->waits, &rt->prof.syms, frames, nframes));
}

static void add_sample(struct rt_state *rt, struct rt_thread *t, const struct perf_event_header *h)
{
	const struct rt_hooks *hooks = rt_hooks(rt);
	struct rt_sample s;
	uint64_t w[EV_MAX], addrs[MAX_ADDRS];
	uint32_t frames[MAX_FRAMES], leaf;
	int naddrs, nframes;

	if (sample_decode(h, rt->opt.call_graph, &s) || sample_weights(rt, t, &s, w))
		return;
	naddrs = sample_addrs(rt, t, &s, addrs);
	nframes = rt_resolve_path(rt, addrs, naddrs, frames, MAX_FRAMES);
	leaf = cct_path(&rt->prof.tree, frames, (size_t)nframes);
	if (leaf == CCT_NO_FRAME)
		return;		/* out of memory: the sample is dropped, not the run */
	rt->prof.samples++;
	for (int e = 0; e < rt->events.n; e++) {
		cct_self(&rt->prof.tree, leaf)[e] += w[e];
		t->samples[e] += w[e];
	}
	if (t->act && s.id == t->ids[0])
		add_activity(rt, t, &s, frames, nframes, leaf);
	if (hooks && hooks->sample)
		hooks->sample(rt, s.time, leaf, w);
	if (hooks && hooks->tagged && w[0])
		rt_tag_sample(&t->tags, &t->tag_wait, s.time, leaf, w[0], tell_tagged, (void *)hooks);
}

void rt_aggregate_settle(struct rt_state *rt, struct rt_thread *t)
{
	const struct rt_hooks *hooks = rt_hooks(rt);

	if (t->tag_wait.n && hooks && hooks->tagged)
		rt_tag_settle(&t->tags, &t->tag_wait, tell_tagged, (void *)hooks);
}

void rt_aggregate_record(struct rt_state *rt, struct rt_thread *t,
			 const struct perf_event_header *h)
{
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		add_sample(rt, t, h);
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*h) + 16)
			rt->prof.lost += ((const uint64_t *)(const void *)(h + 1))[1];
		break;
	case PERF_RECORD_THROTTLE:
		rt->prof.throttled++;
		break;
	case PERF_RECORD_MMAP2: {
		struct sym_mapping m;

		if (sample_decode_mmap2(h, &m) == 0)
			sym_mapped(rt->sym, &m);
		else
			sym_modules_changed(rt->sym);
		break;
	}
	case PERF_RECORD_MMAP:
		sym_modules_changed(rt->sym);
		break;
	default:
		break;
	}
}
