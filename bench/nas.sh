#!/usr/bin/env bash
# nas.sh - `make bench-nas NAS_BIN=DIR`: real MPI codes with every core
# busy.  Runs the NAS Parallel Benchmarks' MPI binaries found in DIR (built
# by the user from the NAS distribution, e.g. lu.A.x, cg.A.x, ep.B.x; none
# ship with cpperf) on 2 ranks: plain, under cpperf-record at the default
# rate, under cpperf-record --no-piggyback and, when perf can sample here,
# under `perf record --call-graph dwarf` at the same rate (one per rank),
# alternating, ROUNDS times.  Times are the benchmark's own ("Time in
# seconds"), so mpirun's start is left out.  Prints per benchmark the median
# times and ratios to plain, the piggyback's share (cpperf against
# --no-piggyback), the unwinder's cost per sample, and what the report
# removes (its delay over the measured wall) against what the run added
# (the median cpperf time less the median plain time, over the former).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${BENCH_NAS_ROUNDS:-5}
NAS_BIN=${NAS_BIN:-}
NP=2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [ -z "$NAS_BIN" ] || ! ls "$NAS_BIN"/*.x > /dev/null 2>&1; then
	echo "NAS bench: set NAS_BIN to a directory of NAS MPI binaries (*.x), e.g. make bench-nas NAS_BIN=~/NPB3.4-MPI/bin" >&2
	exit 2
fi
for t in mpirun jq; do
	command -v $t > /dev/null || { echo "NAS bench: needs $t" >&2; exit 2; }
done
. bench/lib.sh
scratch nasbench
perf_usable && have_perf=1 || have_perf=0

# nas CMD...: the benchmark's own time in seconds, "-" when it printed none
nas() {
	"$@" 2> /dev/null | awk '/Time in seconds/ { t = $5 } END { print t == "" ? "-" : t }'
}

for x in "$NAS_BIN"/*.x; do
	b=$(basename "$x" .x)
	for i in $(seq "$ROUNDS"); do
		p=$(nas mpirun -np $NP "$x")
		rm -rf "$W/k"
		k=$(nas mpirun -np $NP bin/cpperf-record -q -o "$W/k" "$x")
		jq -r '[.experiment.unwind_us_per_sample, ([.ranks[] | .delay / .wall_measured] | add / length)]
			| @tsv' <(bin/cpperf report "$W/k" --format=json) >> "$W/rep-$b"
		rm -rf "$W/n"
		n=$(nas mpirun -np $NP bin/cpperf-record -q --no-piggyback -o "$W/n" "$x")
		r=-
		[ $have_perf = 1 ] && r=$(nas mpirun -np $NP sh -c \
			'exec perf record -q -e task-clock -F 1000 --call-graph dwarf -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' \
			"$W/perf-$b" "$x")
		echo "$p $k $n $r" >> "$W/times-$b"
		echo "$b round $i: plain $p cpperf $k no-piggyback $n perf-rec $r"
	done
done
echo
printf "%-6s %7s %9s %10s %10s %9s %9s %9s\n" bench plain cpperf/p perf-rec/p pb-share unwind-us added% removed%
for x in "$NAS_BIN"/*.x; do
	b=$(basename "$x" .x)
	col() { awk -v c="$1" '$c != "-" { print $c }' "$W/times-$b" | median; }
	p=$(col 1) k=$(col 2) n=$(col 3) r=$(col 4)
	[ -n "$r" ] || r=-
	awk -v b="$b" -v p="$p" -v k="$k" -v n="$n" -v r="$r" \
		-v u="$(cut -f1 "$W/rep-$b" | median)" -v rem="$(cut -f2 "$W/rep-$b" | median)" 'BEGIN {
		printf "%-6s %7.2f %9.3f %10s %10.3f %9.2f %9.2f %9.2f\n", b, p, k / p,
			r == "-" ? "-" : sprintf("%.3f", r / p), k / n, u, 100 * (k - p) / k, 100 * rem }'
done
echo "(medians of $ROUNDS rounds; targets: cpperf/p <= 1.03 and below perf-rec/p, pb-share <= 1.01;"
echo " added: the median run's dilation; removed: the report's delay, both in % of the cpperf run)"
[ $have_perf = 1 ] || echo "perf record: not usable here (perf_event_paranoid or linux-perf missing)"
