#!/usr/bin/env bash
# accuracy.t - a program whose functions take about 60/30/10 %
# of its CPU time, built -O2 -g without frame pointers: every self_pct within
# 3 points of the truth the program measured itself, with >= 3000 samples in
# dwarf mode and >= 99 % of samples unwound to main; with frame pointers, fp
# mode is as accurate.
. "$(dirname "$0")/../lib.sh"
need_sampling

check_split() { # MODE BINARY
	local mode=$1 bin=$2 dir=$WORK/exp-$1
	record "$dir" --call-graph="$mode" "$WORK/$bin" 4 > "$WORK/truth-$mode"
	report_json "$dir" || { fail "$mode: report" "cpperf report failed"; return; }
	atleast "$mode: samples" "$(jqr '.experiment.samples')" 3000
	for f in f60 f30 f10; do
		within "$mode: $f self_pct" "$(jqr ".flat[] | select(.function==\"$f\") | .self_pct")" \
			"$(awk -v f=$f '$2 == f { print $3 }' "$WORK/truth-$mode")" 3
	done
	# every sample's path starts at main (or above it, in libc's start code)
	local in_main
	in_main=$(jqr '.flat[] | select(.function=="main") | .total_pct')
	atleast "$mode: samples with main on the stack (%)" "$in_main" 99
}

build split-nofp split.c -O2 -g -fomit-frame-pointer
check_split dwarf split-nofp
atleast "dwarf: unwind_complete_pct" "$(jqr '.experiment.unwind_complete_pct')" 99
build split-fp split.c -O2 -g -fno-omit-frame-pointer
check_split fp split-fp
done_testing
