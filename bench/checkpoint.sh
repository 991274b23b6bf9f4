#!/usr/bin/env bash
# checkpoint.sh - what checkpoints cost in `make bench`: a run of
# BENCH_CKPT_SECONDS (default 60) of tests/progs/recurse.c (a call-path
# tree of a realistic few hundred nodes) under cpperf-record at the
# default --checkpoint, and one with --checkpoint=0, alternating ROUNDS
# times.  The cost is measured where it is spent: the drain thread's wall
# time writing checkpoints (fsync included), from the profile, against the
# run's wall (target <= 0.2 %); the wall ratio of the two kinds of run is
# printed too, though on a shared host its noise is larger than the cost.
set -euo pipefail
cd "$(dirname "$0")/.."
RUN=${BENCH_CKPT_SECONDS:-60}
ROUNDS=${BENCH_CKPT_ROUNDS:-1}
if ! command -v jq > /dev/null; then
	echo "checkpoint bench: no jq, skipped"
	exit 0
fi
. bench/bench-lib.sh
scratch ckptbench
cc -O2 -g -o "$W/recurse" tests/progs/recurse.c

printf "%-6s %10s %10s %12s %12s %10s %9s\n" round "wall(ckpt)" "wall(off)" checkpoints "written(ms)" bytes "cost(%)"
for i in $(seq "$ROUNDS"); do
	a=$(wall bin/cpperf-record -q -o "$W/on$i" "$W/recurse" "$RUN")
	b=$(wall bin/cpperf-record -q --checkpoint=0 -o "$W/off$i" "$W/recurse" "$RUN")
	bin/cpperf report "$W/on$i" --format=json > "$W/r.json"
	n=$(jq '.experiment.checkpoints' "$W/r.json")
	ms=$(jq '.experiment.checkpoint_seconds * 1000' "$W/r.json")
	bytes=$(stat -c %s "$W"/on$i/*.cpprof)
	cost=$(awk -v ms="$ms" -v w="$a" 'BEGIN { printf "%.4f", ms / 10 / w }')
	printf "%-6s %10s %10s %12s %12.2f %10s %9s\n" "$i" "$a" "$b" "$n" "$ms" "$bytes" "$cost"
	echo "$a $b $cost" >> "$W/rows"
done
awk '{ r += $1 / $2; c += $3 } END {
	printf "checkpoints at the default interval: %.4f %% of a %s s run (target <= 0.2 %%); ", c / NR, run
	printf "wall with/without checkpoints: %.4f (noise, not cost)\n", r / NR }' run="$RUN" "$W/rows"
