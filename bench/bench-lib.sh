# bench-lib.sh - what the benchmark scripts share; sourced from the top of the
# tree.

# scratch NAME: a scratch directory in W, removed when the script exits
scratch() {
	W=$(mktemp -d "/tmp/cpperf-$1.XXXXXX")
	trap 'rm -rf "$W"' EXIT
}

# wall CMD...: CMD's wall time in seconds on stdout, its output discarded
wall() {
	wall_saving /dev/null "$@"
}

# wall_saving FILE CMD...: the same, CMD's standard output kept in FILE
wall_saving() {
	local out=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	"$@" > "$out" 2> /dev/null
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

# median: of the numbers on stdin, one a line (nothing for none)
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# perf_usable: perf record can sample here (linux-perf installed,
# perf_event_paranoid permitting); needs W
perf_usable() {
	perf record -q -e task-clock -o "$W/probe.data" true > /dev/null 2>&1
}

# demo_experiment DIR: the demo's 2 ranks recorded into DIR (3 000 steps),
# the source of the synthetic large experiments; needs W and mpicc
demo_experiment() {
	mpicc -O2 -g -o "$W/demo-mpi" contrib/demo-mpi.c
	mpirun --oversubscribe -np 2 bin/cpperf-record -q -o "$1" "$W/demo-mpi" 3000 > /dev/null
}

# irq_load_usable: bench/irq-load.c built into W and allowed to open its
# CPU-wide events here
irq_load_usable() {
	cc -O2 -o "$W/irq-load" bench/irq-load.c 2> /dev/null && with_irqs true
}

# with_irqs CMD...: CMD run while irq-load interrupts every CPU 1000
# times a second (the default rate's interrupts, without a profiler)
with_irqs() {
	local pid rc=0
	"$W/irq-load" 1000 > "$W/irq-ready" 2> /dev/null &
	pid=$!
	until grep -q ready "$W/irq-ready" 2> /dev/null; do
		kill -0 $pid 2> /dev/null || return 1
		sleep 0.01
	done
	"$@" || rc=$?
	kill $pid
	wait $pid 2> /dev/null || true
	rm -f "$W/irq-ready"
	return $rc
}

# lost_line NAME JSON...: one line of the samples the reports JSON... (of
# `cpperf report --format=json`) took and lost, the lost in % of both
lost_line() {
	local name=$1
	shift
	jq -s -r --arg n "$name" 'map(.experiment) | (map(.samples) | add) as $s | (map(.lost) | add) as $l |
		"  \($n): \($s) samples, \($l) lost (\(if $s + $l > 0
			then (10000 * $l / ($s + $l) | round) / 100 else 0 end) %)"' "$@"
}
