/*
 * unwind.c - unwinding a sample from its registers and stack copy.
 *
 * libdwfl unwinds "threads" through callbacks we provide: the session's
 * Dwfl has exactly one pseudo-thread (tid = our pid) whose initial
 * registers are those of the sample being unwound (s->cur, set by
 * sym_unwind around each dwfl_getthread_frames call).  Memory reads inside
 * the copied stack come from the copy; other reads inside the sampled
 * thread's live stack fail (the copy is all we know of that stack, the live
 * one has moved on); everything else (code, data, other stacks) is read
 * from the live process with process_vm_readv, so a bad address fails
 * instead of faulting.  libdwfl finds the CFI of each module once and keeps
 * it, so a frame costs a CFI lookup and a few word reads.
 */
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <dwarf.h>
#include "internal.h"

static pid_t sym_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	struct sym_session *s = arg;
	if (*thread_argp)
		return 0;	/* the one thread was already yielded */
	*thread_argp = s;
	return s->pid;
}

static bool sym_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	struct sym_session *s = arg;
	*thread_argp = s;
	return tid == s->pid;
}

bool sym_read_word(const struct sym_session *s, uint64_t addr, uint64_t *result)
{
	const struct sym_stack *st = s->cur;
	uint64_t sp = st->regs[SYM_REG_SP];
	uint64_t end = addr + sizeof *result;

	if (end < addr)
		return false;
	if (addr >= sp && end <= sp + st->size) {
		memcpy(result, st->data + (addr - sp), sizeof *result);
		return true;
	}
	if (st->lo < st->hi && end > st->lo && addr < st->hi)
		return false;	/* stale: outside the copy, inside the stack */

	struct iovec local = { result, sizeof *result };
	struct iovec remote = { (void *)(uintptr_t)addr, sizeof *result };
	return process_vm_readv(s->pid, &local, 1, &remote, 1, 0) ==
	       (ssize_t)sizeof *result;
}

/* libdwfl's reader; remembers failures, which libdwfl itself takes for
 * the end of the stack when the return address is the word not read. */
static bool sym_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			    void *arg)
{
	(void)dwfl;
	struct sym_session *s = arg;
	bool ok = sym_read_word(s, addr, result);
	s->read_failed |= !ok;
	return ok;
}

static bool sym_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct sym_session *s = arg;
	const uint64_t *regs = s->cur->regs;
	Dwarf_Word w[SYM_NREGS];

	for (int i = 0; i < SYM_NREGS; i++)
		w[i] = regs[i];
	if (!dwfl_thread_state_registers(thread, 0, SYM_NREGS, w))
		return false;
	dwfl_thread_state_register_pc(thread, regs[SYM_REG_IP]);
	return true;
}

/* Read-only; libdwfl keeps a pointer to it for the Dwfl's lifetime. */
static const Dwfl_Thread_Callbacks sym_thread_callbacks = {
	.next_thread = sym_next_thread,
	.get_thread = sym_get_thread,
	.memory_read = sym_memory_read,
	.set_initial_registers = sym_set_initial_registers,
};

int sym_attach(struct sym_session *s, char *err, size_t errlen)
{
	if (!dwfl_attach_state(s->dwfl, NULL, s->pid, &sym_thread_callbacks, s)) {
		snprintf(err, errlen, "libdw: cannot set up unwinding for "
			 "process %d: %s", (int)s->pid, dwfl_errmsg(-1));
		return -1;
	}
	s->attached = true;
	return 0;
}

/* Record one frame's lookup address; stop at max. */
static int sym_frame_cb(Dwfl_Frame *frame, void *arg)
{
	struct sym_session *s = arg;
	Dwarf_Addr pc;
	bool activation;

	if (s->n >= s->max)
		return DWARF_CB_ABORT;
	/* dwfl_frame_pc already unwinds this frame to learn whether the
	 * caller is a signal frame: its reads belong to this step. */
	s->read_failed = false;
	if (!dwfl_frame_pc(frame, &pc, &activation))
		return DWARF_CB_ABORT;
	if (s->out_sp) {
		Dwarf_Word sp = 0;

		dwfl_frame_reg(frame, SYM_REG_SP, &sp);
		s->out_sp[s->n] = sp;
	}
	s->out[s->n++] = activation || pc == 0 ? pc : pc - 1;
	return DWARF_CB_OK;
}

int sym_dwfl_unwind(struct sym_session *s, const struct sym_stack *st,
			   uint64_t *addrs, int max, bool *complete)
{
	sym_modules_sync(s);	/* libdwfl looks the frames' modules up itself */
	s->cur = st;
	s->out = addrs;
	s->max = max;
	s->n = 0;
	s->read_failed = false;
	int rc = dwfl_getthread_frames(s->dwfl, s->pid, sym_frame_cb, s);
	/* libdwfl ends "normally" also when the last step could not read the
	 * return address: that is a cut stack, not its outermost frame. */
	*complete = rc == 0 && !s->read_failed;
	s->cur = NULL;
	s->out = NULL;
	return s->n;
}

/*
 * Unwind the sample (see symbolize.h): with the cached rules when every
 * frame allows it (rules.c), else with libdwfl.  When the rules meet code
 * in no module and a re-read of the module list is due (sym_refresh_due),
 * the list is re-read and the rules tried again, before libdwfl; and when
 * libdwfl stops early in an address no module covers, the same.
 */
int sym_unwind(struct sym_session *s, const struct sym_stack *st,
	       uint64_t *addrs, int max, bool *complete)
{
	return sym_unwind_sp(s, st, addrs, NULL, max, complete);
}

int sym_unwind_sp(struct sym_session *s, const struct sym_stack *st,
		  uint64_t *addrs, uint64_t *sps, int max, bool *complete)
{
	*complete = false;
	if (max <= 0 || !s->attached)
		return 0;
	s->out_sp = sps;
	s->missed = false;
	int n = sym_fast_unwind(s, st, addrs, max, complete);
	/* libdwfl may look for CFI in a separate debug file (rules.c) */
	if (n < 0 && s->missed) {
		sym_modules_refresh(s);
		n = sym_fast_unwind(s, st, addrs, max, complete);
	}
	if (n < 0) {
		n = sym_dwfl_unwind(s, st, addrs, max, complete);
		if (!*complete && n > 0 && n < max && !sym_module_at(s, addrs[n - 1]) &&
		    sym_refresh_due(s) && sym_modules_refresh(s) > 0)
			n = sym_dwfl_unwind(s, st, addrs, max, complete);
	}
	s->missed = false;
	s->out_sp = NULL;
	return n;
}
