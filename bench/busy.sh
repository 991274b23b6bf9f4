#!/usr/bin/env bash
# busy.sh - the busy-core part of `make bench`: 2-rank MPI programs that
# keep both cores of a 2-core host busy (busy-mpi.c: compute only, a
# stencil with many small messages, and a run of about 1 s where
# start-up and the final write weigh most), each run plain, under
# cpperf-record at the default rate and, when perf can sample here,
# under `perf record --call-graph dwarf` at the same rate (one per
# rank), and with only the interrupts of a profiler at that rate
# (irq-load.c, when CPU-wide events are allowed here: the floor of any
# sampling profiler's cost on this host), alternating, ROUNDS
# times.  Prints each case's median walls and ratios, and the ratios of
# its fastest rounds (a shared host's noise only adds time); how much
# longer a run that only starts and stops takes recorded (the fixed
# cost: start-up, calibration, final write), and the part of it the
# kernel takes to open the first per-task event (and how much longer
# under perf record, whose own start and end weigh in its ratios); then
# where cpperf's time went, from the report of its last run: per
# overhead source (docs/compensation.md) in % of the ranks' wall, the
# unwinder's cost per sample and the drain thread's CPU in % of wall;
# and whether the compensation accounts for it: per round and rank, the
# time the program measured cpperf added to its region (busy-mpi.c's
# excess iterations, which a drift of the host's speed between runs does
# not move) against the time the report removes (its delay: the measured
# less the parallel-compensated wall), both in % of the region.  Only
# ratios from one run mean anything on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${BENCH_BUSY_ROUNDS:-3}
SCALE=${BENCH_BUSY_SCALE:-1}
NP=2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! command -v mpicc > /dev/null || ! command -v jq > /dev/null; then
	echo "busy-core bench: needs mpicc and jq, skipped"
	exit 0
fi
. bench/bench-lib.sh
scratch busybench
mpicc -O2 -g -o "$W/busy-mpi" bench/busy-mpi.c

perf_usable && have_perf=1 || have_perf=0
irq_load_usable && have_irq=1 || have_irq=0
# perf_rec NAME ARGS...: busy-mpi ARGS on the ranks under perf record at
# cpperf's default rate, one data file per rank; prints the wall
perf_rec() {
	local name=$1
	shift
	wall mpirun -np $NP sh -c \
		'exec perf record -q -e task-clock -F 1000 --call-graph dwarf -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' \
		"$W/perf-$name" "$W/busy-mpi" "$@"
}
# over P A: A over P, "-" when A is
over() { awk -v a="$2" -v b="$1" 'BEGIN { if (a == "-") print "-"; else printf "%.3f\n", a / b }'; }
printf "%-8s %5s %8s %8s %8s %8s %8s %8s %8s\n" case round plain cpperf perf-rec irq cpperf/p perf/p irq/p
for c in compute stencil short; do
	for i in $(seq "$ROUNDS"); do
		rm -rf "$W/exp-$c"
		p=$(wall_saving "$W/plain-$c-$i.out" mpirun -np $NP "$W/busy-mpi" "$c" "$SCALE")
		k=$(wall_saving "$W/cpperf-$c-$i.out" mpirun -np $NP bin/cpperf-record -q -o "$W/exp-$c" \
			"$W/busy-mpi" "$c" "$SCALE")
		bin/cpperf report "$W/exp-$c" --format=json > "$W/r-$c-$i.json"
		r=-
		[ $have_perf = 1 ] && r=$(perf_rec "$c" "$c" "$SCALE")
		q=-
		[ $have_irq = 1 ] && q=$(with_irqs wall mpirun -np $NP "$W/busy-mpi" "$c" "$SCALE" || echo -)
		echo "$p $k $r $q" >> "$W/times-$c"
		printf "%-8s %5s %8s %8s %8s %8s %8s %8s %8s\n" "$c" "$i" "$p" "$k" "$r" "$q" \
			"$(over "$p" "$k")" "$(over "$p" "$r")" "$(over "$p" "$q")"
	done
done
echo
printf "%-8s %9s %9s %10s %8s  (medians of %s rounds; targets: compute and stencil <= 1.03, short <= 1.05)\n" \
	case plain cpperf/p perf-rec/p irq/p "$ROUNDS"
# ratio C: the median over rounds of column C over plain's, "-" when C was not run
ratio() { awk -v c="$2" '$c != "-" { print $c / $1 }' "$W/times-$1" | median | xargs -r printf '%.3f' | grep . || echo -; }
# best C: column C's fastest round over plain's fastest, "-" when C was not run
best() {
	awk -v c="$2" 'NR == 1 || $1 < p { p = $1 } $c != "-" && (m == "" || $c < m) { m = $c }
		END { if (m == "") print "-"; else printf "%.3f\n", m / p }' "$W/times-$1"
}
for c in compute stencil short; do
	printf "%-8s %9s %9s %10s %8s\n" "$c" "$(awk '{ print $1 }' "$W/times-$c" | median)" \
		"$(ratio $c 2)" "$(ratio $c 3)" "$(ratio $c 4)"
	printf "%-8s %9s %9s %10s %8s\n" "" fastest "$(best $c 2)" "$(best $c 3)" "$(best $c 4)"
done
echo "lost samples, all rounds (target: <= 0.1 %):"
for c in compute stencil short; do
	lost_line "$c" "$W"/r-$c-*.json
done
echo "fastest: each column's fastest round over plain's (a shared host's noise only adds time; the medians are the targets' figures)"
[ $have_perf = 1 ] || echo "perf record: not usable here (perf_event_paranoid or linux-perf missing)"
[ $have_irq = 1 ] && echo "irq/p: the default rate's interrupts alone, no profiler: the floor of a profiler's cost here" ||
	echo "irq-load: no CPU-wide events here (they need root, CAP_PERFMON or perf_event_paranoid <= 0); irq/p left out"

# cpperf's fixed cost: a program that only starts and stops, plain and
# recorded, alternating (2 rounds per round of the cases).  Each recorded
# run starts over a second after the last per-task event was closed, as a
# job started on its own does, so it pays the kernel's first-event wait;
# first-event.c measures that wait alone, at the same distance.  perf
# record's own fixed cost, where it samples, is measured beside them: it
# weighs in its ratios above.
cc -O2 -o "$W/first-event" bench/first-event.c
for i in $(seq $((2 * ROUNDS))); do
	p=$(wall mpirun -np $NP "$W/busy-mpi" empty)
	sleep 1.2
	f=$("$W/first-event" 2> /dev/null || echo -)
	sleep 1.2
	rm -rf "$W/exp-empty"
	k=$(wall mpirun -np $NP bin/cpperf-record -q -o "$W/exp-empty" "$W/busy-mpi" empty)
	r=-
	[ $have_perf = 1 ] && r=$(perf_rec empty empty)
	echo "$p $k $f $r" >> "$W/times-empty"
done
printf "fixed cost: MPI_Init and MPI_Finalize alone take %.0f ms plain, %.0f ms more recorded (medians of %s)\n" \
	"$(awk '{ print 1000 * $1 }' "$W/times-empty" | median)" \
	"$(awk '{ print 1000 * ($2 - $1) }' "$W/times-empty" | median)" "$((2 * ROUNDS))"
printf "  of which the kernel's first per-task perf event: %s ms (any per-task profiler waits it, perf record too)\n" \
	"$(awk '$3 != "-" { print $3 / 1000 }' "$W/times-empty" | median | xargs -r printf '%.1f' | grep . || echo -)"
[ $have_perf = 1 ] && printf "  perf record --call-graph dwarf at the same rate: %.0f ms more than plain\n" \
	"$(awk '{ print 1000 * ($4 - $1) }' "$W/times-empty" | median)"
echo
echo "where cpperf's time went (last round's report; % of the ranks' wall):"
printf "%-8s %7s %7s %7s %7s %7s %7s %9s %9s %8s\n" case sample wrapper pb drain switch sum measured unwind-us drain-cpu
for c in compute stencil short; do
	cp "$W/r-$c-$ROUNDS.json" "$W/r-$c.json"
	jq -r --argjson dil "$(awk '{ print 100 * ($2 - $1) / $1 }' "$W/times-$c" | median)" --arg c "$c" '
		(.ranks | map(.wall) | add) as $w
		| def pct(k): 100 * (.ranks | map(.overhead_sources[k]) | add) / $w;
		[$c, pct("sample"), pct("wrapper"), pct("piggyback"), pct("drain"), pct("switch"),
		 100 * (.ranks | map(.overhead) | add) / $w, $dil,
		 .experiment.unwind_us_per_sample, 100 * .experiment.drain_cpu_seconds / $w]
		| "\(.[0]) \(.[1:] | map(. * 100 | round / 100) | join(" "))"' "$W/r-$c.json" |
		awk '{ printf "%-8s %7s %7s %7s %7s %7s %7s %9s %9s %8s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
done
echo "(sum: the overhead the ranks charged in the last round; measured: the median dilation of the rounds, mpirun included)"

# iterations PLAIN_OUT CPPERF_OUT REPORT: per rank, "added removed" in % of
# its region: the excess iterations cpperf added times their median, and
# the delay the report takes off the wall (W_m less the parallel-
# compensated wall)
iterations() {
	local r pm pe kw km ke
	for r in $(seq 0 $((NP - 1))); do
		read -r _ pm pe < <(region "$1" "$r")
		read -r kw km ke < <(region "$2" "$r")
		jq -r --argjson r "$r" --argjson pe "$pe" --argjson kw "$kw" --argjson km "$km" \
			--argjson ke "$ke" '.ranks[] | select(.rank == $r)
			| "\(100 * ($ke - $pe) * $km * 1e-6 / $kw) \(100 * .delay / .wall_measured)"' "$3"
	done
}

# region OUT RANK: "wall median excess" of busy-mpi's line for RANK
region() {
	sed -n "s/^busy-mpi rank $2: region \([0-9.]*\) s, median iteration \([0-9.]*\) us, excess \([-0-9.]*\)$/\1 \2 \3/p" "$1"
}

echo
echo "accounted: what cpperf added to each rank's region, measured by the program, against what"
echo "the report removes (% of the region; medians over rounds and ranks; target: within 1)"
printf "%-8s %8s %8s %8s\n" case added removed diff
for c in compute stencil short; do
	for i in $(seq "$ROUNDS"); do
		iterations "$W/plain-$c-$i.out" "$W/cpperf-$c-$i.out" "$W/r-$c-$i.json"
	done > "$W/acc-$c"
	printf "%-8s %8.2f %8.2f %8.2f\n" "$c" "$(awk '{ print $1 }' "$W/acc-$c" | median)" \
		"$(awk '{ print $2 }' "$W/acc-$c" | median)" "$(awk '{ print $2 - $1 }' "$W/acc-$c" | median)"
done
