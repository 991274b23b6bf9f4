#!/usr/bin/env bash
# threads.sh - `make bench`: what threads cost under cpperf-record, side by
# side with the plain program in one run.
#  - Starting and ending a thread (bench/churn.c, THREADS created and
#    joined one after another), ROUNDS alternating plain and recorded runs:
#    medians of the wall time and of the process's CPU time a thread, and
#    their growth (target: at most 100 us of wall more than plain).  The
#    CPU time moves less than the wall on a shared host.  Beside them the
#    floor: threads that only open, map, unmap and close a perf event and
#    its smallest ring themselves, what any per-thread sampler pays.
#  - Lost samples at 1000 and 10000 Hz: a single thread (bench/cpu-bound.c)
#    and 8 and 200 threads alive at once (tests/progs/threads-alive.c);
#    target at the default rate: at most 0.1 %.
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${BENCH_THREADS:-2000}
ROUNDS=${BENCH_THREAD_ROUNDS:-7}
. bench/lib.sh
scratch threads
cc -O2 -g -pthread -o "$W/churn" bench/churn.c
cc -O2 -g -o "$W/cpu-bound" bench/cpu-bound.c
cc -O2 -g -pthread -o "$W/threads-alive" tests/progs/threads-alive.c

for i in $(seq "$ROUNDS"); do
	"$W/churn" "$THREADS" >> "$W/plain"
	bin/cpperf-record -q -o "$W/churn-$i" "$W/churn" "$THREADS" >> "$W/rec"
	rm -rf "$W/churn-$i"
	"$W/churn" "$THREADS" floor >> "$W/floor"
done
# more NAME FILE: the medians of FILE's wall and CPU, and their growth over plain
more() {
	local w c
	w=$(cut -d' ' -f1 "$2" | median) c=$(cut -d' ' -f2 "$2" | median)
	printf "  %-12s %8.1f %8.1f %8.1f %8.1f\n" "$1" "$w" "$c" \
		"$(awk -v a="$w" -v b="$pw" 'BEGIN { print a - b }')" \
		"$(awk -v a="$c" -v b="$pc" 'BEGIN { print a - b }')"
}
pw=$(cut -d' ' -f1 "$W/plain" | median) pc=$(cut -d' ' -f2 "$W/plain" | median)
echo "thread start and end ($THREADS threads, $ROUNDS rounds; us a thread, medians; target: wall +100):"
printf "  %-12s %8s %8s %8s %8s\n" "" wall cpu "+wall" "+cpu"
more plain "$W/plain"
more cpperf "$W/rec"
more "floor" "$W/floor"

# lost NAME HZ CMD...: one recorded run's lost samples, in % of those taken
lost() {
	local name=$1 hz=$2
	shift 2
	bin/cpperf-record -q -F "$hz" -o "$W/l" "$@" > /dev/null
	bin/cpperf report "$W/l" --format=json > "$W/l.json"
	lost_line "$name @$hz Hz" "$W/l.json"
	rm -rf "$W/l" "$W/l.json"
}
echo "lost samples (target at 1000 Hz: <= 0.1 %):"
for hz in 1000 10000; do
	lost "1 thread" "$hz" "$W/cpu-bound" 3000
	lost "8 threads" "$hz" "$W/threads-alive" 8 2
	lost "200 threads" "$hz" "$W/threads-alive" 200 1
done
