/*
 * callpath.c - the call path of each MPI call site, found once per site
 * and checked cheaply on every later call.
 *
 * A site's key is (MPI function, the caller's return address, depth), the
 * depth being the thread's stack top minus the address of the wrapper's
 * struct pmpi_call.  At the first call of a key the wrapper's thread
 * captures its registers and a copy of its stack (sym_capture_regs, up to
 * PATH_STACK bytes) and queues them; the drain thread, which owns the
 * symbolizer, unwinds the copy (sym_unwind_sp), keeps the frames from the
 * MPI function's caller outwards, and notes where each return address
 * above the caller lies relative to the struct pmpi_call.  The first call
 * waits (at most PATH_WAIT_MS) for that, so that from then on a call of
 * the key belongs to the site only when those return addresses are where
 * they were: the caller at the same return address has the same frame
 * size, so the next return address is at the same place, and so on
 * outwards.  A call that fails the check is another call path: a new site
 * of the same key, captured in turn.  At most PMPI_PATH_CHECKS return addresses
 * are checked (about 3 ns each): paths of one key that agree on those
 * and differ only further out share the site first captured.
 *
 * A path starts at the first frame outside the MPI library: MPICH's
 * mpi_f08 module calls the C functions that take a buffer (MPI_Send) for
 * the program, and that call is the program's, not the module's.
 *
 * Owners: the queue and the sites' path fields are guarded by
 * pmpi_stats_lock; captures are written by the wrapper's thread before
 * they are queued and read by the drain thread after.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call.h"
#include "compensate.h"
#include "stats.h"
#include "../sampler/sample.h"

#define PATH_STACK (64u << 10)	/* stack copied at least (bytes) */
#define PATH_ADDRS 128		/* physical frames of a path at most */
#define PATH_FRAMES 512		/* frames with inline chains at most */
#define PATH_WAIT_MS 2000	/* the first call waits this long at most */

/* One first call's stack, from the wrapper's thread to the drain thread. */
struct capture {
	struct capture *next;
	int site;
	uint64_t call;		/* address of the call's struct pmpi_call */
	uint64_t ra;		/* the caller's return address */
	struct sym_stack st;
	uint8_t data[];
};

/* Captures not yet unwound, newest first; guarded by pmpi_stats_lock. */
static struct capture *queue;
/* Signalled (under pmpi_stats_lock) when paths were resolved. */
static pthread_cond_t resolved = PTHREAD_COND_INITIALIZER;

/* The calling thread's stack top: 0 not looked up yet, 1 unknown.  Only
 * the thread itself touches it. */
static __thread uint64_t stack_top __attribute__((tls_model("initial-exec")));

/* Look the calling thread's stack top up, once: not inlined, so that
 * every call's read of it does not set up this frame. */
__attribute__((noinline))
static uint64_t look_up_stack_top(void)
{
	pthread_attr_t attr;
	void *lo;
	size_t size;

	stack_top = 1;
	if (!pthread_getattr_np(pthread_self(), &attr)) {
		if (!pthread_attr_getstack(&attr, &lo, &size))
			stack_top = (uint64_t)(uintptr_t)lo + size;
		pthread_attr_destroy(&attr);
	}
	return stack_top;
}

static uint64_t thread_stack_top(void)
{
	return stack_top ? stack_top : look_up_stack_top();
}

uint64_t pmpi_call_depth(const struct pmpi_call *c)
{
	uint64_t top = thread_stack_top(), at = (uint64_t)(uintptr_t)c;

	return top > at ? top - at : 0;
}

bool pmpi_path_matches(const struct pmpi_site *s, const struct pmpi_call *c)
{
	if (__atomic_load_n(&s->path, __ATOMIC_ACQUIRE) == PMPI_PATH_PENDING || !s->depth)
		return true;	/* statistics stay on the key meanwhile */
	return pmpi_checks_hold(s->check, s->ncheck, c);
}

/* Mark a site's path as known and wake the waiting first call.  Caller
 * holds pmpi_stats_lock. */
static void publish(int site)
{
	__atomic_store_n(&pmpi_sites[site].path, PMPI_PATH_DONE, __ATOMIC_RELEASE);	/* after the checks */
	pthread_cond_broadcast(&resolved);
}

/* Registers and stack of the calling thread from here outwards.  Not
 * inlined: the registers describe this function's frame, which stays
 * live while the stack is copied below it. */
__attribute__((noinline))
static struct capture *capture_here(const struct rt_state *rt, uint64_t top)
{
	uint64_t want = rt->opt.stack_size > PATH_STACK ? rt->opt.stack_size : PATH_STACK;
	struct capture *k = malloc(sizeof(*k) + want);
	uint64_t sp;

	if (!k)
		return NULL;
	sym_capture_regs(k->st.regs);
	sp = k->st.regs[SYM_REG_SP];
	k->st.size = top > sp ? (top - sp < want ? top - sp : want) & ~7ull : 0;
	sample_copy_stack(k->data, sp, k->st.size);
	k->st.data = k->data;
	k->st.lo = 0;
	k->st.hi = 0;
	return k;
}

/* Wait until the drain thread has resolved site, at most PATH_WAIT_MS.
 * Caller holds pmpi_stats_lock. */
static void wait_resolved(int site)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += PATH_WAIT_MS / 1000;
	until.tv_nsec += (PATH_WAIT_MS % 1000) * 1000000l;
	if (until.tv_nsec >= 1000000000l) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000l;
	}
	while (pmpi_sites[site].path == PMPI_PATH_PENDING)
		if (pthread_cond_timedwait(&resolved, &pmpi_stats_lock, &until) == ETIMEDOUT)
			break;
}

__attribute__((noinline))	/* once a site: not in the calls that inline all */
void pmpi_path_capture(struct pmpi_call *c, int site)
{
	struct rt_state *rt = rt_current();
	uint64_t top = thread_stack_top();
	struct capture *k = NULL;
	struct cost_mark m;
	bool drained;

	if (site < 0)
		return;
	m = pmpi_cost_mark();	/* the unwinder may keep it waiting */
	drained = rt && rt->sym && !atomic_load(&rt->stop);
	if (drained && top > 1)
		k = capture_here(rt, top);
	rt_lock(&pmpi_stats_lock);
	if (!k) {
		publish(site);	/* no path: the site is its return address */
	} else {
		k->site = site;
		k->call = (uint64_t)(uintptr_t)c;
		k->ra = (uint64_t)(uintptr_t)c->ra;
		k->next = queue;
		queue = k;
		rt_drain_wake(rt);
		wait_resolved(site);
	}
	rt_unlock(&pmpi_stats_lock);
	pmpi_cost_drain(&m);	/* the rank waited for the unwinder */
}

/* Index of the caller's frame among the unwound addresses (its lookup
 * address is ra - 1), -1 when the unwind did not get there. */
static int caller_frame(const struct capture *k, const uint64_t *addrs, int n)
{
	for (int i = 1; i < n; i++)
		if (addrs[i] == k->ra - 1)
			return i;
	return -1;
}

/* The checks of a path: for each frame outside the caller (PMPI_PATH_CHECKS at
 * most), where its return address was, relative to the struct pmpi_call,
 * as long as the copy holds that word (so a frame the unwinder passed in
 * another way, a signal frame, ends the checks).  Returns the count; *out
 * is malloc'd. */
static uint32_t make_checks(const struct capture *k, const uint64_t *addrs, const uint64_t *sps,
			    int from, int n, struct pmpi_check **out)
{
	uint64_t sp = k->st.regs[SYM_REG_SP];
	uint32_t m = 0;

	if (n > from + PMPI_PATH_CHECKS)
		n = from + PMPI_PATH_CHECKS;
	*out = n > from ? malloc((size_t)(n - from) * sizeof(**out)) : NULL;
	for (int i = from; *out && i < n; i++) {
		uint64_t slot = sps[i] - 8, w;

		if (slot < sp || slot + 8 > sp + k->st.size || slot < k->call)
			break;
		memcpy(&w, k->st.data + (slot - sp), 8);
		if (w != addrs[i] + 1)
			break;
		(*out)[m++] = (struct pmpi_check){ (int64_t)(slot - k->call), w };
	}
	return m;
}

/* The end of the frames from..n (outwards) that belong to the thread's
 * own code: from the C library's start of the thread (_start,
 * __libc_start_main, start_thread, ...) outwards every call of the thread
 * has the same frames at the same places, which no check need read. */
static int thread_frames(struct rt_state *rt, const uint64_t *addrs, int from, int n)
{
	while (n > from && rt_start_address(rt, addrs[n - 1]))
		n--;
	return n;
}

/* The MPI library's modules, each named by a function it defines: its C
 * functions', its Fortran bindings' and its mpi_f08 module's. */
static const char *const mpi_module_symbols[] = { "PMPI_Init", "pmpi_init_", "pmpi_init_f08_" };
#define NMPI_MODULES (sizeof(mpi_module_symbols) / sizeof(mpi_module_symbols[0]))
static const void *mpi_modules[NMPI_MODULES];
static pthread_once_t mpi_modules_once = PTHREAD_ONCE_INIT;

static void find_mpi_modules(void)
{
	Dl_info info;

	for (size_t i = 0; i < NMPI_MODULES; i++) {
		void *sym = dlsym(RTLD_NEXT, mpi_module_symbols[i]);

		mpi_modules[i] = sym && dladdr(sym, &info) ? info.dli_fbase : NULL;
	}
}

static bool in_mpi_library(uint64_t pc)
{
	Dl_info info;

	pthread_once(&mpi_modules_once, find_mpi_modules);
	if (!dladdr((void *)(uintptr_t)pc, &info))
		return false;
	for (size_t i = 0; i < NMPI_MODULES; i++)
		if (mpi_modules[i] && info.dli_fbase == mpi_modules[i])
			return true;
	return false;
}

/*
 * Unwind one capture and give its site the checks (which releases the
 * waiting first call), then symbolize the path into the site's frames.
 * Drain thread.
 */
static void resolve_one(struct rt_state *rt, struct capture *k)
{
	uint64_t addrs[PATH_ADDRS], sps[PATH_ADDRS];
	uint32_t frames[PATH_FRAMES], ncheck = 0;
	struct pmpi_check *check = NULL;
	uint32_t *copy;
	bool complete;
	int n = sym_unwind_sp(rt->sym, &k->st, addrs, sps, PATH_ADDRS, &complete);
	int at = caller_frame(k, addrs, n), nframes;

	if (at >= 0) {
		ncheck = make_checks(k, addrs, sps, at + 1, thread_frames(rt, addrs, at + 1, n), &check);
	} else {		/* the caller alone */
		at = 0;
		n = 1;
		addrs[0] = k->ra - 1;
	}
	rt_lock(&pmpi_stats_lock);
	pmpi_sites[k->site].check = check;
	pmpi_sites[k->site].ncheck = check ? ncheck : 0;
	publish(k->site);
	rt_unlock(&pmpi_stats_lock);
	while (at < n - 1 && in_mpi_library(addrs[at]))
		at++;
	nframes = rt_resolve_path(rt, addrs + at, n - at, frames, PATH_FRAMES);
	copy = nframes > 0 ? malloc((size_t)nframes * sizeof(*copy)) : NULL;
	if (copy)
		memcpy(copy, frames, (size_t)nframes * sizeof(*copy));
	rt_lock(&pmpi_stats_lock);
	pmpi_sites[k->site].frames = copy;
	pmpi_sites[k->site].nframes = copy ? (uint32_t)nframes : 0;
	rt_unlock(&pmpi_stats_lock);
}

void pmpi_resolve_paths(struct rt_state *rt)
{
	struct capture *k;

	rt_lock(&pmpi_stats_lock);
	k = queue;
	queue = NULL;
	rt_unlock(&pmpi_stats_lock);
	while (k) {
		struct capture *next = k->next;

		resolve_one(rt, k);
		free(k);
		k = next;
	}
}
