#!/usr/bin/env bash
# nas.sh - `make bench-nas NAS_BIN=DIR`: real MPI codes with every core
# busy.  Runs the NAS Parallel Benchmarks' MPI binaries found in DIR
# (built by the user from the NAS distribution, e.g. lu.A.x, cg.A.x,
# ep.B.x; none ship with cpperf) on 2 ranks: plain, under cpperf-record
# at the default rate, under cpperf-record --no-piggyback and, when perf
# can sample here, under `perf record --call-graph dwarf` at the same
# rate (one per rank), and with only the interrupts of a profiler at
# that rate (irq-load.c, when CPU-wide events are allowed here: the
# floor of any sampling profiler's cost on this host), alternating,
# ROUNDS times.  Times are the benchmark's own ("Time in seconds"), so
# mpirun's start is left out; ratios come from its "Mop/s total" (the
# same timer with more digits: a class A run of a fraction of a second
# prints its time to 2 %) and are taken per round, each run against the
# plain run beside it, so that a host whose speed drifts over minutes
# still compares like with like.  Prints per benchmark the median plain
# time, the medians of the per-round ratios (the interrupts' alone
# beside them), the piggyback's share (cpperf against --no-piggyback),
# the unwinder's cost per sample, and what the report removes (its delay
# over the measured wall) against what the run added (1 - 1 / the median
# ratio); and under them the ratios of the fastest rounds, which a
# shared host's noise, that only adds time, touches least.
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
. bench/bench-lib.sh
scratch nasbench
perf_usable && have_perf=1 || have_perf=0
irq_load_usable && have_irq=1 || have_irq=0

# nas CMD...: the benchmark's own time in seconds and its Mop/s, "- -"
# when it printed none
nas() {
	"$@" 2> /dev/null | awk '/Time in seconds/ { t = $5 } /Mop\/s total/ { m = $4 }
		END { print (t == "" || m == "") ? "- -" : t " " m }'
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
		r="- -"
		[ $have_perf = 1 ] && r=$(nas mpirun -np $NP sh -c \
			'exec perf record -q -e task-clock -F 1000 --call-graph dwarf -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' \
			"$W/perf-$b" "$x")
		q="- -"
		[ $have_irq = 1 ] && q=$(with_irqs nas mpirun -np $NP "$x" || echo "- -")
		echo "$p $k $n $r $q" >> "$W/times-$b"
		echo "$b round $i: plain $p cpperf $k no-piggyback $n perf-rec $r interrupts $q"
	done
done
echo
printf "%-6s %7s %9s %10s %8s %10s %9s %9s %9s\n" bench plain cpperf/p perf-rec/p irq/p pb-share unwind-us added% removed%
for x in "$NAS_BIN"/*.x; do
	b=$(basename "$x" .x)
	# ratio C: the median over rounds of plain's Mop/s over column C's
	ratio() { awk -v c="$1" '$2 != "-" && $c != "-" { print $2 / $c }' "$W/times-$b" | median; }
	# best A B: column A's best Mop/s over column B's, "-" when one was not run
	best() {
		awk -v a="$1" -v d="$2" '$a != "-" && $a > x { x = $a } $d != "-" && $d > y { y = $d }
			END { if (!x || !y) print "-"; else printf "%.3f\n", x / y }' "$W/times-$b"
	}
	# the piggyback's share: --no-piggyback's Mop/s over cpperf's
	pb=$(awk '$4 != "-" && $6 != "-" { print $6 / $4 }' "$W/times-$b" | median)
	p=$(awk '$1 != "-" { print $1 }' "$W/times-$b" | median)
	k=$(ratio 4) r=$(ratio 8) q=$(ratio 10)
	awk -v b="$b" -v p="$p" -v k="$k" -v pb="$pb" -v r="${r:--}" -v q="${q:--}" \
		-v u="$(cut -f1 "$W/rep-$b" | median)" -v rem="$(cut -f2 "$W/rep-$b" | median)" 'BEGIN {
		printf "%-6s %7.2f %9.3f %10s %8s %10.3f %9.2f %9.2f %9.2f\n", b, p, k,
			r == "-" ? "-" : sprintf("%.3f", r), q == "-" ? "-" : sprintf("%.3f", q),
			pb, u, 100 * (1 - 1 / k), 100 * rem }'
	printf "%-6s %7s %9s %10s %8s %10s\n" "" fastest "$(best 2 4)" "$(best 2 8)" "$(best 2 10)" "$(best 6 4)"
done
echo "(fastest: the ratios of each column's fastest round; a shared host's noise only adds time)"
echo "(medians of $ROUNDS rounds, ratios per round; targets: cpperf/p <= 1.03 and below perf-rec/p, pb-share <= 1.01;"
echo " irq/p: the default rate's interrupts alone, no profiler (the floor here);"
echo " added: the dilation at the median ratio; removed: the report's delay, both in % of the cpperf run)"
[ $have_perf = 1 ] || echo "perf record: not usable here (perf_event_paranoid or linux-perf missing)"
[ $have_irq = 1 ] || echo "irq-load: no CPU-wide events here (they need root, CAP_PERFMON or perf_event_paranoid <= 0); irq/p left out"
