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
. bench/bench-lib.sh
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

# --- the thread activity's cost: the drain thread judges every sample
# against the other threads' (docs/threads.md).  A hybrid MPI+OpenMP run
# (tests/progs/mpi-omp.c, 2 ranks x 2 threads) and a run of 8 busy
# threads (tests/progs/threads-alive.c), ACT_ROUNDS alternating with and
# without --no-activity: medians of the wall, of the drain threads' CPU
# time a sample, and what the difference of the latter makes of the
# run's CPU time (steadier than the wall on a shared host); target: the
# run within 1 % of the sampler's without.
ACT_ROUNDS=${BENCH_ACT_ROUNDS:-7}
# act_run NAME OUT CMD...: one recorded run: "wall drain_us_a_sample cpu"
act_run() {
	local out=$1 w
	shift
	w=$(wall "$@")
	bin/cpperf report "$W/a" --format=json > "$W/a.json"
	jq -r --arg w "$w" '"\($w) \(1e6 * .experiment.drain_cpu_seconds / .experiment.samples)
		\([.ranks[].cpu] | add)"' "$W/a.json" | tr '\n' ' ' >> "$out"
	echo >> "$out"
	rm -rf "$W/a" "$W/a.json"
}
# act_compare NAME: the medians of $W/on-NAME and $W/off-NAME
act_compare() {
	local won woff don doff con
	won=$(cut -d' ' -f1 "$W/on-$1" | median) woff=$(cut -d' ' -f1 "$W/off-$1" | median)
	don=$(cut -d' ' -f2 "$W/on-$1" | median) doff=$(cut -d' ' -f2 "$W/off-$1" | median)
	con=$(awk '{ print $3 }' "$W/on-$1" | median)
	printf "  %-22s wall %6.3f s / %6.3f s (%+.2f %%)  drain %6.2f / %6.2f us a sample (%+.2f us)\n" \
		"$1" "$won" "$woff" "$(awk -v a="$won" -v b="$woff" 'BEGIN { print 100 * (a / b - 1) }')" \
		"$don" "$doff" "$(awk -v a="$don" -v b="$doff" 'BEGIN { print a - b }')"
	printf "  %-22s the judging's share of the run's CPU: %.3f %%\n" "" \
		"$(awk -v a="$don" -v b="$doff" -v n="$(jq -r '.experiment.samples' "$W/last-$1.json")" \
			-v c="$con" 'BEGIN { print 100 * (a - b) * n / 1e6 / c }')"
}
if command -v mpicc > /dev/null && echo 'int main(void){return 0;}' | mpicc -fopenmp -x c - -o "$W/probe" 2> /dev/null; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	mpicc -std=gnu17 -O2 -g -fopenmp -Itests/progs -o "$W/mpi-omp" tests/progs/mpi-omp.c
	for i in $(seq "$ACT_ROUNDS"); do
		act_run "$W/on-hybrid" mpirun --oversubscribe -np 2 bin/cpperf-record -q -o "$W/a" \
			"$W/mpi-omp" 20 0.05
		act_run "$W/off-hybrid" mpirun --oversubscribe -np 2 bin/cpperf-record -q --no-activity \
			-o "$W/a" "$W/mpi-omp" 20 0.05
	done
	mpirun --oversubscribe -np 2 bin/cpperf-record -q -o "$W/a" "$W/mpi-omp" 20 0.05 > /dev/null
	bin/cpperf report "$W/a" --format=json > "$W/last-hybrid.json"
	rm -rf "$W/a"
	for i in $(seq "$ACT_ROUNDS"); do
		act_run "$W/on-8threads" bin/cpperf-record -q -o "$W/a" "$W/threads-alive" 8 2
		act_run "$W/off-8threads" bin/cpperf-record -q --no-activity -o "$W/a" "$W/threads-alive" 8 2
	done
	bin/cpperf-record -q -o "$W/a" "$W/threads-alive" 8 2 > /dev/null
	bin/cpperf report "$W/a" --format=json > "$W/last-8threads.json"
	rm -rf "$W/a"
	echo "thread activity's cost ($ACT_ROUNDS rounds, medians; with / without --no-activity; target: 1 %):"
	act_compare hybrid
	act_compare 8threads
else
	echo "thread activity's cost: skipped, no mpicc with -fopenmp"
fi

# The same in instructions, which the host's noise does not move: the
# drain thread of a run of 8 busy threads under callgrind (a profile per
# thread), its instructions in the thread activity's files a sample,
# against all of its own.
if command -v valgrind > /dev/null; then
	valgrind -q --tool=callgrind --separate-threads=yes --trace-children=yes \
		--callgrind-out-file="$W/cg.%p" bin/cpperf-record -q -o "$W/a" "$W/threads-alive" 8 1 \
		> /dev/null 2>&1 || true
	drain=$(grep -l 'drain_all' "$W"/cg.*-* 2> /dev/null | head -1)
	samples=$(bin/cpperf report "$W/a" --format=json 2> /dev/null | jq -r '.experiment.samples // 0')
	if [ -n "$drain" ] && [ "${samples:-0}" -gt 0 ]; then
		callgrind_annotate "$drain" | awk -v n="$samples" '
			/PROGRAM TOTALS/ { gsub(",", "", $1); all = $1 }
			!/=>/ && /sampler\/(activity|runtime-code)\.c:/ { gsub(",", "", $1); act += $1 }
			END { printf "  8 threads, callgrind: the drain thread %.0f instructions a sample, " \
				"the thread activity %.0f of them (%.1f %%; %d samples)\n",
				all / n, act / n, 100 * act / all, n }'
	else
		echo "  8 threads, callgrind: no drain thread's profile (valgrind could not run it)"
	fi
	rm -rf "$W/a" "$W"/cg.*
fi
