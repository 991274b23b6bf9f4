/*
 * sample.h - the layout of the records cpperf asks the kernel for, and a
 * bounds-checked decoder for PERF_RECORD_SAMPLE.
 *
 * Every sampling event of a thread uses the same sample_type (identifier
 * first, so records of several events can share one ring buffer), and
 * always reads its group, so one decoder serves all events.  The PAPI
 * backend produces the same struct rt_sample from its signal handler.
 */
#ifndef CPPERF_SAMPLE_H
#define CPPERF_SAMPLE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include "../symbolize/symbolize.h"
#include "options.h"

/* x86-64 user registers: ax bx cx dx si di bp sp ip, r8..r15. */
#define SAMPLE_REGS_MASK (0x1ffull | (0xffull << 16))
#define SAMPLE_NREGS 17

struct rt_sample {
	uint64_t id;		/* event id (PERF_EVENT_IOC_ID) */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;		/* CLOCK_MONOTONIC ns (use_clockid) */
	uint64_t nvalues;	/* group read: (value, id) pairs */
	const uint64_t *values;
	uint64_t nchain;	/* fp mode: kernel callchain */
	const uint64_t *chain;
	bool have_regs;		/* dwarf mode: regs in DWARF order + stack */
	uint64_t regs[SYM_NREGS];
	const uint8_t *stack;
	uint64_t stack_size;	/* bytes valid */
};

/* sample_type and read_format for the given call-graph mode. */
uint64_t sample_type_for(enum opt_call_graph cg);
#define SAMPLE_READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_ID)

/* Decode a PERF_RECORD_SAMPLE written with sample_type_for(cg).  Returns 0,
 * or -1 when the record is malformed (never reads past h->size). */
int sample_decode(const struct perf_event_header *h, enum opt_call_graph cg,
		  struct rt_sample *s);

/* Decode a PERF_RECORD_MMAP2 record (without sample_id_all fields) into
 * m, its path pointing into the record.  Returns 0, or -1 when the record
 * is malformed; a record that carries a build id instead of the file's
 * identity gives ino 0. */
int sample_decode_mmap2(const struct perf_event_header *h, struct sym_mapping *m);

/* papi-record.c: copy n bytes of the calling thread's live stack from sp
 * (the caller vouches that [sp, sp + n) is inside it), past ASan's
 * redzones and without calling memcpy.  Async-signal-safe. */
void sample_copy_stack(uint8_t *dst, uint64_t sp, uint64_t n);

#endif
