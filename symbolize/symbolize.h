/*
 * symbolize.h - unwinding and symbolizing samples of the running process
 * with elfutils libdwfl.
 *
 * The runtime's drain thread owns one sym_session.  It unwinds each sample
 * from the registers and the copy of the user stack that the kernel (or the
 * PAPI signal handler) took, reading memory inside the copied range from the
 * copy and everything else (code, data, which do not move) from the live
 * process.  Addresses are resolved to frames of a struct symtab once and
 * cached, with inlined functions expanded, so a sample costs a cache lookup
 * per frame after warm-up.  Symbolizing while the process runs (not at exit)
 * keeps libraries that are dlclose'd later symbolized.
 */
#ifndef CPPERF_SYMBOLIZE_H
#define CPPERF_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/symtab.h"

/* x86-64 registers in DWARF numbering: rax rdx rcx rbx rsi rdi rbp rsp
 * r8..r15 rip. */
#define SYM_NREGS 17
#define SYM_REG_BP 6
#define SYM_REG_SP 7
#define SYM_REG_IP 16

struct sym_stack {
	uint64_t regs[SYM_NREGS];
	const uint8_t *data;	/* copy of the stack starting at regs[SYM_REG_SP] */
	uint64_t size;		/* bytes valid in data */
	/* The thread's live stack [lo, hi): reads there outside the copy fail
	 * instead of returning stale values.  0, 0 when unknown. */
	uint64_t lo, hi;
};

struct sym_session;

/* Open a session over the calling process; frames and modules are interned
 * into st, which the caller owns and which must outlive the session.
 * Returns NULL with a message in err. */
struct sym_session *sym_open(struct symtab *st, char *err, size_t errlen);
void sym_close(struct sym_session *s);

/* Whether DWARF in separate debug files (a distribution's debug packages,
 * found by build id or debug link) names frames: off by default, when a
 * module whose own file has no DWARF is named from its symbol table,
 * because reading a separate file costs every process its decompression
 * (docs/unwinding.md). */
void sym_use_separate_debug(struct sym_session *s, bool on);

/* Name the frames of the module that holds addr from its symbol table
 * alone, DWARF or not: for the profiler's own library, whose frames only
 * show where a sample fell inside it, and whose DWARF would cost every
 * process milliseconds to read for those few addresses. */
void sym_names_from_symbols(struct sym_session *s, uint64_t addr);

/* Note that the address space changed (a PERF_RECORD_MMAP was seen); the
 * module list is re-read the next time an address is not found. */
void sym_modules_changed(struct sym_session *s);

/* A mapping the kernel reported (PERF_RECORD_MMAP2): the file (maj, min,
 * ino) named path, from offset pgoff, at [addr, addr + len), with
 * protection prot (PROT_*). */
struct sym_mapping {
	uint64_t addr, len, pgoff, ino;
	uint32_t maj, min, prot;
	const char *path;	/* NULL when the record has none */
};

/* Take a new executable mapping into the module list, in the order of the
 * mapping thread's samples: code it replaces is forgotten, a library's
 * own file places it (no re-read of /proc/self/maps), a mapping of a
 * library already known at that place changes nothing.  Others only ask
 * for a re-read at the next address not found.  Call between samples. */
void sym_mapped(struct sym_session *s, const struct sym_mapping *m);

/*
 * Unwind the sample: fills addrs[] innermost first with lookup addresses
 * (return addresses already moved back into the call instruction) and
 * returns how many.  *complete is set when the unwind reached the outermost
 * frame (the thread's entry), false when it stopped early (stack copy too
 * short, missing unwind info, max reached).
 */
int sym_unwind(struct sym_session *s, const struct sym_stack *st,
	       uint64_t *addrs, int max, bool *complete);

/* sym_unwind that also gives each frame's stack pointer: sps[i] is sp in
 * frame i (sps[0] = the sample's sp; for i > 0 the CFA of frame i - 1, so
 * the return address into frame i was read from sps[i] - 8). */
int sym_unwind_sp(struct sym_session *s, const struct sym_stack *st,
		  uint64_t *addrs, uint64_t *sps, int max, bool *complete);

/*
 * chain.c: take a kernel callchain of lookup addresses, innermost first
 * (the sampled IP, then return addresses less one), as --call-graph=fp
 * records it; cut when the kernel stopped at its limit.  Returns how many
 * of them to keep: the chain ends before the first return address outside
 * every executable segment (data that a walk of frame pointers read
 * through code without them).  *complete is set when nothing was dropped
 * or cut and the outermost frame is a thread's root (sym_chain_root).
 */
int sym_chain(struct sym_session *s, const uint64_t *addrs, int n, bool cut, bool *complete);

/* chain.c: whether the function at addr is one a thread's stack starts
 * at, or a walk of frame pointers ends in there: the program's entry
 * point, main, a C library's start routine of the process or of a thread
 * (glibc's __libc_start_call_main, start_thread, clone3, musl's
 * counterparts). */
bool sym_chain_root(struct sym_session *s, uint64_t addr);

/* capture.c: store the calling thread's registers (DWARF order) as they
 * are in the caller right after this call returns: sp above the return
 * address, ip the return address.  Any thread; no session needed. */
void sym_capture_regs(uint64_t regs[SYM_NREGS]);

/*
 * Resolve a lookup address to frames, outermost first (the function, then
 * the functions inlined into it at that address), writing up to max frame
 * ids and returning the count (always >= 1: an unknown address becomes a
 * frame named after the address).  Results are cached per address.
 * Returns 0 only when memory is short (no frame could be interned).
 */
int sym_resolve(struct sym_session *s, uint64_t addr, uint32_t *frames, int max);

#endif
