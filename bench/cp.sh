#!/usr/bin/env bash
# cp.sh - the critical-path part of `make bench`: cp-bench.c (2 ranks, a
# fixed computation in w1..w8 and one small message per step) at about 100,
# 1000 and 10000 messages per second per rank, run without cpperf, under
# cpperf-record with its default (the critical path computed, no function
# selected: "piggyback") and with 1, 4 and 8 functions selected for zeroing
# (--cp-functions), alternating, ROUNDS times.  Prints, per rate, the median
# no-tool wall time, each configuration's median ratio to the no-tool runs
# of the same round and the noise (how much those two no-tool runs differ),
# and the target: at 1000/s, 8 functions cost <= 2 % more than the
# piggyback alone.  Only ratios from the same run mean anything.
# BENCH_CP_ROUNDS (3), BENCH_CP_SECONDS (3); BENCH_CP_VERBOSE=1 also prints
# every round's wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${BENCH_CP_ROUNDS:-3}
SECONDS_RUN=${BENCH_CP_SECONDS:-3}
RATES=(100 1000 10000)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! command -v mpicc > /dev/null; then
	echo "cp bench: no mpicc, skipped"
	exit 0
fi
. bench/bench-lib.sh
scratch cpbench
mpicc -std=c17 -Wall -Wextra -Werror -O2 -g -o "$W/cp-bench" bench/cp-bench.c

# configurations: name and the command prefix placed after mpirun's options
configs=(plain piggyback fn1 fn4 fn8)
prefix_plain=()
prefix_piggyback=(bin/cpperf-record -q -o "$W/exp")
prefix_fn1=(bin/cpperf-record -q -o "$W/exp" --cp-functions=w1)
prefix_fn4=(bin/cpperf-record -q -o "$W/exp" --cp-functions=w1,w2,w3,w4)
prefix_fn8=(bin/cpperf-record -q -o "$W/exp" --cp-functions=w1,w2,w3,w4,w5,w6,w7,w8)

run() { # CONFIG RATE -> rank 0's wall time of the loop, in seconds
	local c=$1 rate=$2 pre
	pre="prefix_${c}[@]"
	rm -rf "$W/exp"
	mpirun --oversubscribe -np 2 "${!pre}" "$W/cp-bench" "$rate" "$SECONDS_RUN" |
		awk '$1 == "wall" { print $2 }'
}

# One line per round and rate: "rate plain piggyback fn1 fn4 fn8 plain2".
# Each round runs the program without the tool first and last (its base is
# the mean of the two, their difference the round's noise) and the tool's
# configurations in between, in an order that rotates from round to round.
tools=("${configs[@]:1}")
for i in $(seq "$ROUNDS"); do
	for rate in "${RATES[@]}"; do
		declare -A t=()
		t[plain]=$(run plain "$rate")
		for k in "${!tools[@]}"; do
			c=${tools[$(((k + i) % ${#tools[@]}))]}
			t[$c]=$(run "$c" "$rate")
		done
		t[plain2]=$(run plain "$rate")
		echo "$rate ${t[plain]} ${t[piggyback]} ${t[fn1]} ${t[fn4]} ${t[fn8]} ${t[plain2]}" >> "$W/times"
		unset t
	done
done

if [ -n "${BENCH_CP_VERBOSE:-}" ]; then	# every round: rate and the wall times
	echo "rate plain piggyback fn1 fn4 fn8 plain2"
	cat "$W/times"
fi
col() { # RATE EXPR -> EXPR over the rounds of RATE, median ($2 plain, $3 piggyback,
	# $4 fn1, $5 fn4, $6 fn8, $7 plain2; b the no-tool base of the round)
	awk -v r="$1" '$1 == r { b = ($2 + $7) / 2; print '"$2"' }' "$W/times" | median
}

printf "%-10s %10s %10s %10s %10s %10s %10s\n" "msgs/s" "plain(s)" piggyback "1 fn" "4 fn" "8 fn" "noise"
for rate in "${RATES[@]}"; do
	printf "%-10s %10.3f %10.3f %10.3f %10.3f %10.3f %9.1f%%\n" "$rate" "$(col "$rate" 'b')" \
		"$(col "$rate" '$3 / b')" "$(col "$rate" '$4 / b')" \
		"$(col "$rate" '$5 / b')" "$(col "$rate" '$6 / b')" \
		"$(col "$rate" '($2 > $7 ? $2 - $7 : $7 - $2) / b * 100')"
done
echo "(2 ranks, ${SECONDS_RUN} s of computation; wall-time ratios to the no-tool runs of the same round, medians of $ROUNDS rounds;"
echo " noise: how much the two no-tool runs of a round differ; a difference below it means nothing)"
d=$(col 1000 '($6 / $3 - 1) * 100')
printf "8 fns vs piggyback at 1000/s: %+.1f %%  (target <= +2.0 %%: %s)\n" "$d" \
	"$(awk -v d="$d" 'BEGIN { print (d <= 2.0) ? "met" : "NOT met" }')"
