#!/usr/bin/env bash
# run.sh - `make bench`: the wall-time cost of profiling a CPU-bound program
# of >= 10 s at the default rate, measured side by side in one run: plain,
# under cpperf-record (dwarf), and under `perf record --call-graph dwarf` at
# the same rate, alternating, PAIRS times; prints the median ratios and the
# unwinder's cost per sample.  Timings on a shared machine are noisy: only
# ratios from the same run mean anything.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${BENCH_ROUNDS:-6500}
PAIRS=${BENCH_PAIRS:-3}
FREQ=1000
. bench/bench-lib.sh
scratch bench
cc -O2 -g -o "$W/cpu-bound" bench/cpu-bound.c

perf_usable && have_perf=1 || have_perf=0
printf "%-5s %10s %10s %10s\n" pair plain cpperf perf-rec
for i in $(seq "$PAIRS"); do
	p=$(wall "$W/cpu-bound" "$ROUNDS")
	c=$(wall bin/cpperf-record -q -F $FREQ -o "$W/exp$i" "$W/cpu-bound" "$ROUNDS")
	r=-
	[ $have_perf = 1 ] && r=$(wall perf record -q -e task-clock -F $FREQ --call-graph dwarf -o "$W/perf$i.data" "$W/cpu-bound" "$ROUNDS")
	printf "%-5s %10s %10s %10s\n" "$i" "$p" "$c" "$r"
	echo "$p $c $r" >> "$W/times"
done
rc=$(awk '{ print $2 / $1 }' "$W/times" | median)
echo "cpperf-record dwarf @${FREQ} Hz: wall ratio (median of $PAIRS) = $rc  (target <= 1.02)"
if [ $have_perf = 1 ]; then
	echo "perf record --call-graph dwarf @${FREQ} Hz: wall ratio (median of $PAIRS) = $(awk '{ print $3 / $1 }' "$W/times" | median)"
else
	echo "perf record: not usable here (perf_event_paranoid or linux-perf missing)"
fi
bin/cpperf report "$W/exp$PAIRS" --format=json > "$W/r.json"
jq -r '.experiment | "samples \(.samples) (lost \(.lost)), unwound to the end \(.unwind_complete_pct)%, unwinder cost per sample \(.unwind_us_per_sample // "n/a") us"' "$W/r.json"
