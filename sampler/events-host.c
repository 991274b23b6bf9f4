/*
 * events-host.c - what this host can open: whether it has a PMU, probing
 * an encoded event list, and explaining perf_event_open's errno.
 *
 * Events are opened on the calling thread, user-space only, disabled, and
 * closed again at once.  Nothing here prints.
 */
#include "events-int.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int ev_perf_open(struct perf_event_attr *attr, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, attr, 0, -1, group_fd,
			    PERF_FLAG_FD_CLOEXEC);
}

/* The attr the probes open: user space only, disabled, counting. */
void ev_user_attr(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

/* Open and close one stand-alone event; returns 0 or the errno. */
int ev_try_open(const struct perf_event_attr *src)
{
	struct perf_event_attr a = *src;
	a.size = sizeof(a);
	a.disabled = 1;
	int fd = ev_perf_open(&a, -1);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static bool ev_errno_means_no_pmu(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV;
}

/* -1 = not asked yet, else 0/1.  Written by whichever thread asks first
 * (every thread computes the same answer, so a race only repeats work). */
static atomic_int ev_pmu_cache = -1;

/*
 * True when perf_event can open the CPU cycle counter for this thread
 * (user only).  Errors other than "no such event/device" (EACCES, EMFILE,
 * ...) count as "a PMU exists": they say nothing about the hardware.  The
 * answer is computed once and cached.  Thread-safe; cannot fail.
 */
bool ev_host_has_pmu(void)
{
	int v = atomic_load(&ev_pmu_cache);
	if (v < 0) {
		struct perf_event_attr a;
		ev_user_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		v = !ev_errno_means_no_pmu(ev_try_open(&a));
		atomic_store(&ev_pmu_cache, v);
	}
	return v != 0;
}

/* ------------------------------------------------------------------ */
/* Opening for real                                                     */

static void ev_close_all(const int *fd, int n)
{
	for (int i = 0; i < n; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/*
 * Open every event of l on the calling thread, disabled, the way the
 * runtime will (group leaders first, members with the leader's fd), then
 * close them all.  Returns 0, or -1 with ev_explain_errno's message for the
 * first event that failed.
 */
int ev_probe(const struct ev_list *l, char *err, size_t errlen)
{
	int fd[EV_MAX];

	for (int i = 0; i < l->n && i < EV_MAX; i++) {
		const struct ev_spec *e = &l->ev[i];
		struct perf_event_attr a = e->attr;
		bool leader = e->leader == i;

		a.size = sizeof(a);
		a.disabled = leader;
		fd[i] = ev_perf_open(&a, leader ? -1 : fd[e->leader]);
		if (fd[i] < 0) {
			if (errlen)
				ev_explain_errno(errno, e->name, e->hardware, err, errlen);
			ev_close_all(fd, i);
			return -1;
		}
	}
	ev_close_all(fd, l->n);
	return 0;
}

int ev_kernel_setting(const char *name)
{
	char path[128];
	FILE *f;
	int v;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	if (!(f = fopen(path, "re")))
		return INT32_MIN;
	if (fscanf(f, "%d", &v) != 1)
		v = INT32_MIN;
	fclose(f);
	return v;
}

/* The highest perf_event_paranoid that lets a process sample its own
 * threads with event name: 1 when a modifier asks for kernel events. */
static int paranoid_allowing(const char *name)
{
	const char *mod = strrchr(name, ':');

	return mod && strchr(mod, 'k') ? 1 : 2;
}

static void ev_explain_perm(int err_no, const char *name, char *buf, size_t len)
{
	int v = ev_kernel_setting("perf_event_paranoid");
	char now[48];

	if (v != INT32_MIN && v <= paranoid_allowing(name)) {
		/* the sysctl allows it: a container or security module refuses */
		snprintf(buf, len, "no permission to open event '%s' (%s), though "
			 "/proc/sys/kernel/perf_event_paranoid (%d) allows it: something else "
			 "refuses perf_event_open, such as a container's seccomp profile or a "
			 "security module; give the program CAP_PERFMON (docker: --cap-add "
			 "PERFMON) or a profile that allows perf_event_open", name,
			 strerrorname_np(err_no), v);
		return;
	}
	if (v == INT32_MIN)
		snprintf(now, sizeof(now), "cannot be read");
	else
		snprintf(now, sizeof(now), "is %d", v);
	snprintf(buf, len, "no permission to open event '%s' (%s): "
		 "/proc/sys/kernel/perf_event_paranoid %s; user-space-only events "
		 "(the default, or ':u') need it at 2 or lower, kernel events (':k') "
		 "at 1 or lower (as root: sysctl -w kernel.perf_event_paranoid=2), "
		 "or give the program CAP_PERFMON", name, strerrorname_np(err_no), now);
}

/*
 * Explain perf_event_open's errno err_no for event name in buf (always
 * NUL-terminated when buflen > 0).  May open one event once to learn
 * whether the host has a PMU (ev_host_has_pmu).  Thread-safe.
 */
void ev_explain_errno(int err_no, const char *name, bool hardware,
		      char *buf, size_t buflen)
{
	if (!buflen)
		return;
	if (ev_errno_means_no_pmu(err_no)) {
		if (hardware && !ev_host_has_pmu())
			snprintf(buf, buflen, "event '%s' needs a hardware PMU and this "
				 "host has none (a virtual machine?); use a software "
				 "event such as task-clock, see 'cpperf list'", name);
		else
			snprintf(buf, buflen, "event '%s' is not supported by this %s "
				 "(%s); see 'cpperf list'", name,
				 hardware ? "host's PMU" : "kernel", strerrorname_np(err_no));
	} else if (err_no == EACCES || err_no == EPERM) {
		ev_explain_perm(err_no, name, buf, buflen);
	} else if (err_no == EINVAL) {
		snprintf(buf, buflen, "event '%s': the event/modifier combination is "
			 "invalid for this PMU (EINVAL); try it without modifiers, see "
			 "'cpperf list'", name);
	} else if (err_no == EMFILE || err_no == ENFILE) {
		snprintf(buf, buflen, "too many open files opening event '%s' (%s): "
			 "cpperf needs one file per event per thread; raise 'ulimit -n' "
			 "or use fewer events", name, strerrorname_np(err_no));
	} else {
		snprintf(buf, buflen, "cannot open event '%s': %s", name, strerror(err_no));
	}
}
