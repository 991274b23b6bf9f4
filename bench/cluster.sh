#!/usr/bin/env bash
# cluster.sh - the classes of ranks part of `make bench`: cluster-bench.c
# builds the activity graphs of 10 240 ranks of a 2-D stencil in memory
# and times their grouping into classes (report/cluster.c), three times;
# prints the classes, the median time and the target: at most 5 s.
# BENCH_CLUSTER_RANKS changes the number of ranks.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/bench-lib.sh
scratch cluster
RANKS=${BENCH_CLUSTER_RANKS:-10240}
cc -std=c17 -Wall -Wextra -Werror -O2 -D_GNU_SOURCE -o "$W/cluster-bench" bench/cluster-bench.c \
	report/cluster.c report/rank-runs.c

for i in 1 2 3; do
	"$W/cluster-bench" "$RANKS"
done > "$W/runs"
classes=$(awk 'NR == 1 { print $4 }' "$W/runs")
t=$(awk '{ print $6 }' "$W/runs" | median)
echo "== classes of ranks (2-D stencil, 100 iterations, 0.5 % noise, every 1000th rank 10 % slower)"
printf "%8s %8s %12s\n" ranks classes "seconds"
printf "%8s %8s %12.3f\n" "$RANKS" "$classes" "$t"
printf "median of 3; target <= 5 s: %s\n" "$(awk -v t="$t" 'BEGIN { print (t <= 5) ? "met" : "NOT met" }')"
