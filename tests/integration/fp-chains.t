#!/usr/bin/env bash
# fp-chains.t - --call-graph=fp counts a kernel callchain complete only when
# it reaches the thread's root: not when the kernel cut it at its limit
# (kernel.perf_event_max_stack frames), nor when a walk of frame pointers
# through code built without them read data as return addresses, which
# never appear as frames.
. "$(dirname "$0")/../lib.sh"
need_sampling

build deep deep.c -O2 -g -fno-omit-frame-pointer
limit=$(cat /proc/sys/kernel/perf_event_max_stack 2> /dev/null || echo 127)

record "$WORK/exp-shallow" --call-graph=fp "$WORK/deep" 20 400
report_json "$WORK/exp-shallow"
atleast "recursion 20 deep: complete unwinds (%)" "$(jqr '.experiment.unwind_complete_pct')" 90
is "its bottom is below main" \
	"$(jqr '[.callpath.children[] | select(.function == "__libc_start_call_main" or .function == "main")] | length > 0')" true

# (a tree that deep is too deep for jq: the text and folded reports)
record "$WORK/exp-deep" --call-graph=fp "$WORK/deep" $((limit + 73)) 400
atmost "recursion $((limit + 73)) deep, past the kernel's $limit frames: complete unwinds (%)" \
	"$("$CPPERF" report "$WORK/exp-deep" | sed -n 's/.* complete unwinds: \([0-9.]*\)%.*/\1/p')" 10
atmost "stacks of those that start at main (%)" \
	"$("$CPPERF" report "$WORK/exp-deep" --format=folded |
	   awk '{ n += $NF } /^(__libc_start_call_main;)?main;/ { m += $NF } END { print n ? 100 * m / n : 100 }')" 10

build nofp nofp.c -O2 -g -fomit-frame-pointer
record "$WORK/exp-nofp" --call-graph=fp "$WORK/nofp" 300
report_json "$WORK/exp-nofp" --raw-addresses
atleast "the hot loop is sampled (self %)" \
	"$(jqr '[.flat[] | select(.function | startswith("text_spin")) | .self_pct] | add // 0')" 50
is "no frame outside executable code (named by its address)" \
	"$(jqr '[.flat[] | select(.function | startswith("[0x")) | "\(.function) \(.module_name)"] | join(", ")')" ""
atmost "without frame pointers: complete unwinds (%)" "$(jqr '.experiment.unwind_complete_pct')" 10
done_testing
