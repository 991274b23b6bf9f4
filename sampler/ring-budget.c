/*
 * ring-budget.c - sizing each thread's ring buffer and stack copy to the
 * locked memory the kernel allows (ring-budget.h).
 */
#include "ring-budget.h"

#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "events.h"

#define RING_MAX_PAGES 512	/* 2 MiB: the largest ring chosen without --mmap-pages */
#define RING_MIN_SAMPLES 32	/* a full ring holds at least these samples... */
#define RING_MIN_MS 64		/* ...or this long at the sampling rate */
/* Each of n threads may plan up to 1/(RING_SHARE n) of the limit: the
 * first threads get large rings, and the sum over 200 threads that
 * arrive one by one stays within the limit (docs/record.md). */
#define RING_SHARE 8

static uint64_t page_size(void)
{
	return (uint64_t)sysconf(_SC_PAGESIZE);
}

static unsigned pow2_floor(uint64_t x)
{
	unsigned p = 1;

	while ((uint64_t)p * 2 <= x && p < (1u << 30))
		p *= 2;
	return p;
}

static unsigned pow2_ceil(uint64_t x)
{
	unsigned p = 1;

	while (p < x && p < (1u << 30))
		p *= 2;
	return p;
}

/* Bytes a sample record takes in the ring with a stack copy of stack. */
static uint64_t sample_bytes(const struct rt_options *o, uint32_t stack)
{
	if (o->call_graph == CG_DWARF)
		return (uint64_t)stack + 512;
	return o->call_graph == CG_FP ? 2048 : 256;
}

/*
 * The fewest samples a ring holds: 4, or 4 ms of samples at the rate.
 * The watermark at half a ring wakes the drain thread; the other half is
 * what the thread may sample before the drain thread runs.  Rings that
 * held only two lost a fifth of their samples with 200 threads on two
 * cores, and rings of 8 at 10 kHz a third with 8 threads: a thread's copy
 * of a deep stack is worth less than the sample itself.
 */
#define RING_LEAST 4
#define RING_LEAST_MS 4

static uint64_t least_samples(const struct rt_options *o)
{
	uint64_t rate = o->freq ? o->freq : OPT_DEFAULT_FREQ;
	uint64_t n = rate * RING_LEAST_MS / 1000;

	return n > RING_LEAST ? n : RING_LEAST;
}

static unsigned min_pages(const struct rt_options *o, uint32_t stack)
{
	uint64_t page = page_size();

	return pow2_ceil((least_samples(o) * sample_bytes(o, stack) + page - 1) / page);
}

/* The largest stack copy of which the least samples fit pages. */
static uint32_t stack_fitting(const struct rt_options *o, unsigned pages)
{
	uint64_t each = pages * page_size() / least_samples(o);

	return each >= 1024 ? (uint32_t)((each - 512) & ~7ull) : 512;
}

static struct ring_plan full_plan(const struct rt_options *o)
{
	uint64_t rate = o->freq ? o->freq : OPT_DEFAULT_FREQ;	/* with -c, as at the default */
	uint64_t samples = rate * RING_MIN_MS / 1000;
	struct ring_plan p = { o->mmap_pages, o->stack_size };
	unsigned least = min_pages(o, o->stack_size);

	if (!p.pages) {
		if (samples < RING_MIN_SAMPLES)
			samples = RING_MIN_SAMPLES;
		p.pages = pow2_floor(samples * sample_bytes(o, o->stack_size) / page_size());
		if (p.pages > RING_MAX_PAGES)
			p.pages = RING_MAX_PAGES;
	}
	if (p.pages < least) {
		if (o->mmap_pages && o->call_graph == CG_DWARF)
			p.stack_size = stack_fitting(o, p.pages);	/* the user's ring wins */
		else
			p.pages = least;
	}
	return p;
}

/* Whether the calling process may lock memory without limit (root, or
 * CAP_IPC_LOCK), as the kernel judges a perf mmap. */
static bool may_lock_freely(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[CAP_IPC_LOCK / 32].effective & (1u << (CAP_IPC_LOCK % 32));
}

/* Bytes of memory the process has pinned already (VmPin): perf rings
 * and, say, an interconnect's registered buffers share the limit. */
static uint64_t pinned_bytes(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long long kib = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib * 1024;
}

void ring_budget_init(struct ring_budget *b, const struct rt_options *o)
{
	struct rlimit rl;
	int mlock_kb = ev_kernel_setting("perf_event_mlock_kb");
	uint64_t pinned;

	memset(b, 0, sizeof(*b));
	b->full = full_plan(o);
	b->limit = UINT64_MAX;
	b->rlimit_kib = UINT64_MAX;
	b->mlock_kib = mlock_kb > 0 ? (uint64_t)mlock_kb : 0;
	if (may_lock_freely() || ev_kernel_setting("perf_event_paranoid") == -1 ||
	    getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return;
	/* The process's own allowance, and one CPU's worth of the user's
	 * share: the rest of that share belongs to the user's other
	 * processes (the other ranks on the node). */
	b->rlimit_kib = rl.rlim_cur / 1024;
	pinned = pinned_bytes();
	b->limit = (rl.rlim_cur > pinned ? rl.rlim_cur - pinned : 0) + b->mlock_kib * 1024;
}

struct ring_plan ring_budget_plan(const struct ring_budget *b, const struct rt_options *o)
{
	struct ring_plan p = b->full;
	uint64_t used = atomic_load(&b->used), n = atomic_load(&b->nrings) + 1;
	uint64_t room, pages;

	if (b->limit == UINT64_MAX)
		return p;
	room = b->limit / (RING_SHARE * n);
	if (used < b->limit && room > (b->limit - used) / 2)
		room = (b->limit - used) / 2;
	pages = room / page_size();
	if (pages >= p.pages)
		return p;
	p.pages = pages ? pow2_floor(pages) : 1;
	if (o->call_graph == CG_DWARF && p.pages < min_pages(o, p.stack_size))
		p.stack_size = stack_fitting(o, p.pages);
	return p;
}

struct ring_plan ring_plan_young(const struct ring_plan *p, const struct rt_options *o)
{
	struct ring_plan y = *p;
	uint64_t two = 2 * sample_bytes(o, p->stack_size), page = page_size();

	y.pages = two >= page ? pow2_floor(two / page) : 1;
	if (y.pages >= p->pages)
		return *p;
	if (o->call_graph == CG_DWARF && two > y.pages * page) {
		uint64_t each = y.pages * page / 2;

		y.stack_size = each >= 1024 ? (uint32_t)((each - 512) & ~7ull) : 512;
	}
	return y;
}

bool ring_plan_shrink(struct ring_plan *p, const struct rt_options *o)
{
	if (p->pages <= 1)
		return false;
	p->pages /= 2;
	if (o->call_graph == CG_DWARF && p->pages < min_pages(o, p->stack_size))
		p->stack_size = stack_fitting(o, p->pages);
	return true;
}

uint64_t ring_plan_fill_ms(const struct ring_plan *p, const struct rt_options *o)
{
	uint64_t rate = o->freq ? o->freq : OPT_DEFAULT_FREQ;

	return p->pages * page_size() / sample_bytes(o, p->stack_size) * 1000 / rate;
}

/* The meta page comes with every ring. */
void ring_budget_take(struct ring_budget *b, unsigned pages)
{
	atomic_fetch_add(&b->used, (pages + 1) * page_size());
	atomic_fetch_add(&b->nrings, 1);
}

void ring_budget_give(struct ring_budget *b, unsigned pages)
{
	atomic_fetch_sub(&b->used, (pages + 1) * page_size());
	atomic_fetch_sub(&b->nrings, 1);
}

bool ring_budget_first_short(struct ring_budget *b, const struct ring_plan *p)
{
	if (p->stack_size >= b->full.stack_size)
		return false;
	return !atomic_exchange(&b->short_said, true);
}
