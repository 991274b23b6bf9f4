#!/usr/bin/env bash
# comp.sh - overhead compensation in `make bench`: the shape of Table 1 of
# Malony et al. on the scenarios of tests/progs/comp-*.c, at about twice
# the sizes comp.t runs.  Rows: scenarios (master/worker twice: the master,
# rank 0, and its slowest worker); columns: the median wall (s) of ROUNDS
# runs without cpperf ("plain"), and under cpperf-record: as measured (no
# compensation: the wall the program prints itself), locally compensated and parallel-compensated, each with
# its ratio to plain.  Except for the master row, the rank shown is the
# slowest one of the plain runs.  Table 1: CPPERF_INJECT_MPI_NS busy time
# at every wrapped call (BENCH_COMP_INJECT_NS, default 300 us), so that
# the overhead is large; table 2: no injection, the default sampling rate.
# Table 3: master/worker on 2 ranks with a CPU-bound job (yes) pinned to
# the master's core, 2 ms injected per call (BENCH_COMP_LOAD_INJECT_NS),
# the master's wall: compensation must not remove the time the other job
# took (docs/compensation.md, "Waiting for a CPU").
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${BENCH_COMP_ROUNDS:-3}
INJECT=${BENCH_COMP_INJECT_NS:-300000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1	# up to 4 ranks share the cores
if ! command -v mpicc > /dev/null || ! command -v jq > /dev/null; then
	echo "comp bench: no mpicc or jq, skipped"
	exit 0
fi
. bench/bench-lib.sh
scratch compbench

# name, ranks, arguments (about 2 s a run without the tool)
scenarios=(
	"mw 4 240"
	"pipeline 4 1600"
	"handshake 2 1500"
	"tworecv 3 1200"
	"stencil 4 1300"
	"allreduce 4 1400"
)

# rank_key JSON R KEY: rank R's KEY in the report
rank_key() {
	jq -r --argjson r "$2" --arg k "$3" \
		'((.ranks | map(select(.rank == $r)) | first) // .ranks[$r]) | .[$k] // empty' "$1"
}

# rounds NAME NP ARGS...: ROUNDS plain runs ($W/NAME.plain.I) alternating
# with recorded runs with and without injection ($W/NAME.{inj,def}.I.json)
rounds() {
	local name=$1 np=$2 i c
	shift 2
	for i in $(seq "$ROUNDS"); do
		mpirun -np "$np" "$W/comp-$name" "$@" > "$W/$name.plain.$i"
		for c in inj def; do
			rm -rf "$W/exp"
			if [ $c = inj ]; then
				CPPERF_INJECT_MPI_NS=$INJECT mpirun -np "$np" bin/cpperf-record -q -o "$W/exp" \
					"$W/comp-$name" "$@" > "$W/$name.$c.$i.out"
			else
				mpirun -np "$np" bin/cpperf-record -q -o "$W/exp" "$W/comp-$name" "$@" > "$W/$name.$c.$i.out"
			fi
			bin/cpperf report "$W/exp" --format=json > "$W/$name.$c.$i.json"
		done
	done
}

# row LABEL NAME RANK CONFIG: one line of a table
row() {
	local label=$1 name=$2 r=$3 c=$4 plain v k
	plain=$(for i in $(seq "$ROUNDS"); do
		awk -v r="$r" '$1 == "rank" && $2 == r { print $4 }' "$W/$name.plain.$i"
	done | median)
	printf "%-22s %9.3f" "$label" "$plain"
	for k in measured wall_local_compensated wall_compensated; do
		if [ $k = measured ]; then	# the program's own, under the tool
			v=$(for i in $(seq "$ROUNDS"); do
				awk -v r="$r" '$1 == "rank" && $2 == r { print $4 }' "$W/$name.$c.$i.out"
			done | median)
		else
			v=$(for i in $(seq "$ROUNDS"); do rank_key "$W/$name.$c.$i.json" "$r" $k; done | median)
		fi
		if [ -z "$v" ]; then
			printf " %9s %6s" "-" "-"
		else
			printf " %9.3f %6.3f" "$v" "$(awk -v a="$v" -v b="$plain" 'BEGIN { print a / b }')"
		fi
	done
	printf "\n"
}

for s in "${scenarios[@]}"; do
	set -- $s
	mpicc -std=gnu17 -O2 -g -o "$W/comp-$1" "tests/progs/comp-$1.c"
	rounds "$@"
done

for c in inj def; do
	echo
	if [ $c = inj ]; then
		echo "Overhead compensation, CPPERF_INJECT_MPI_NS=$INJECT (median wall in s, ratio to plain)"
	else
		echo "Overhead compensation, no injection, default sampling (median wall in s, ratio to plain)"
	fi
	printf "%-22s %9s %9s %6s %9s %6s %9s %6s\n" scenario plain measured ratio local ratio parallel ratio
	for s in "${scenarios[@]}"; do
		set -- $s
		name=$1 np=$2
		if [ "$name" = mw ]; then
			row "mw master (rank 0)" mw 0 $c
		fi
		# the slowest rank of the plain runs (the workers, for mw)
		slow=$(for r in $(seq $([ "$name" = mw ] && echo 1 || echo 0) $((np - 1))); do
			echo "$r $(for i in $(seq "$ROUNDS"); do
				awk -v r="$r" '$1 == "rank" && $2 == r { print $4 }' "$W/$name.plain.$i"
			done | median)"
		done | sort -k2,2g | tail -1 | cut -d' ' -f1)
		row "$name (rank $slow)" "$name" "$slow" $c
	done
done
echo "(medians of $ROUNDS alternating runs; rank: the slowest without the tool, or the master; compensation is right when its ratio is 1)"

# loaded: table 3, ROUNDS alternating rounds under one yes on CPU 0 (where
# Open MPI binds rank 0); the ranks poll as they do with a core each
loaded() {
	local inj=${BENCH_COMP_LOAD_INJECT_NS:-2000000} i yes_pid
	if ! command -v taskset > /dev/null; then
		echo "master/worker under load: no taskset, skipped"
		return
	fi
	taskset -c 0 yes > /dev/null &
	yes_pid=$!
	trap 'kill $yes_pid 2> /dev/null' EXIT
	for i in $(seq "$ROUNDS"); do
		OMPI_MCA_mpi_yield_when_idle=0 mpirun -np 2 "$W/comp-mw" 120 6000 > "$W/load.plain.$i"
		rm -rf "$W/exp"
		OMPI_MCA_mpi_yield_when_idle=0 CPPERF_INJECT_MPI_NS=$inj mpirun -np 2 \
			bin/cpperf-record -q -o "$W/exp" "$W/comp-mw" 120 6000 > "$W/load.load.$i.out"
		bin/cpperf report "$W/exp" --format=json > "$W/load.load.$i.json"
	done
	kill $yes_pid 2> /dev/null
	wait $yes_pid 2> /dev/null || true
	trap - EXIT
	echo
	echo "Master/worker, 2 ranks, 120 units of 6 ms, yes pinned to CPU 0, CPPERF_INJECT_MPI_NS=$inj (median wall in s, ratio to plain)"
	printf "%-22s %9s %9s %6s %9s %6s %9s %6s\n" scenario plain measured ratio local ratio parallel ratio
	row "mw master, loaded" load 0 load
	echo "(medians of $ROUNDS alternating runs; target: parallel within 5 % of plain)"
}
loaded
