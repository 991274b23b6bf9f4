#!/usr/bin/env bash
# mpi-instr.sh - the MPI layer's cost in instructions, the figure that
# decides on a noisy host: valgrind's callgrind counts the instructions
# executed in cpperf's MPI library (its own functions with what they
# inlined from any file, and what they call in the C library: allocation,
# copies, locks; not what they call in MPI: bench/callgrind-sum.py)
# inside the loop of bench/mpi-loop.c (what MPI_Init and MPI_Finalize do
# depends on time: calibration, the profile's writing), on each of 2
# ranks, for an 8-byte ping-pong (MPI_Send/MPI_Recv), an 8-byte exchange
# (MPI_Irecv, MPI_Isend, MPI_Waitall) and loops of an 8-byte
# MPI_Allreduce, MPI_Reduce, MPI_Bcast, of MPI_Barrier and of an 8-byte-a-rank
# MPI_Allgather, MPI_Alltoall, MPI_Gather and MPI_Scatter, each run with
# N and 2N iterations so that a call site's first call (its call path
# unwound) cancels out: (count(2N) - count(N)) / N per round trip or
# call per rank, the mean of the two ranks.  Configurations:
# --no-piggyback, --no-waits (the piggyback without wait states and
# activity graph) and the default, all with a sampling period no run
# reaches and the critical path's records unbounded (--cp-budget=0): a
# bounded path folds its records at a synchronising collective every
# some ten thousand calls, a step that would fall into one run length and
# not the other, so it is measured apart, in the allreduce loop, as the
# default against --cp-budget=0 over 2N calls; the default's ping-pong
# and allreduce with MPI initialised for MPI_THREAD_MULTIPLE, where the
# analyses take their locks; and Open MPI's own instructions without a
# tool, for scale.  Prints each figure, the targets and whether they
# hold, and the top functions and source files of the default's
# ping-pong and allreduce.  BENCH_INSTR_N sets N (default 10000).  With
# MPIP_LIB set to an mpiP library (libmpiP.so), mpiP's wrappers are
# counted the same way beside them (preloaded, without cpperf): the
# figure to beat.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_INSTR_N:-10000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for tool in mpicc valgrind python3; do
	if ! command -v $tool > /dev/null; then
		echo "mpi instructions bench: no $tool, skipped"
		exit 0
	fi
done
. bench/bench-lib.sh
scratch mpiinstr
mpicc -O2 -g -o "$W/mpi-loop" bench/mpi-loop.c

configs=(no-piggyback no-waits default)
if [ -n "${MPIP_LIB:-}" ]; then
	if [ -r "$MPIP_LIB" ]; then
		configs+=(mpiP)
	else
		echo "mpi instructions bench: MPIP_LIB=$MPIP_LIB: not readable; mpiP left out" >&2
	fi
fi
opts_no_piggyback=(--no-piggyback --cp-budget=0)
opts_no_waits=(--no-waits --cp-budget=0)
opts_default=(--cp-budget=0)
opts_bounded=()

# count CONFIG LOOP N [multiple]: the instructions in the tool's library
# (cpperf's, or mpiP's for CONFIG mpiP; Open MPI's own for CONFIG plain, no
# tool), one line per rank; with multiple, MPI initialised for
# MPI_THREAD_MULTIPLE
count() {
	local o="opts_${1//-/_}[@]" lib=libcpperf
	local cg=(valgrind -q --tool=callgrind --trace-children=yes --collect-atstart=no
		--toggle-collect=loop --callgrind-out-file="$W/cg.%p")
	rm -rf "$W/exp" "$W"/cg.* "$W"/*.mpiP
	if [ "$1" = plain ]; then
		lib='libmpi\.|libopen-|/openmpi/'
		mpirun -np 2 "${cg[@]}" "$W/mpi-loop" "$2" "$3" ${4:-} > /dev/null
	elif [ "$1" = mpiP ]; then
		lib=libmpiP
		(cd "$W" && mpirun -np 2 "${cg[@]}" env LD_PRELOAD="$MPIP_LIB" MPIP="-k 0" \
			"$W/mpi-loop" "$2" "$3" ${4:-} > /dev/null)
	else
		mpirun -np 2 "${cg[@]}" bin/cpperf-record -q -c 1000000000000000 \
			"${!o}" -o "$W/exp" "$W/mpi-loop" "$2" "$3" ${4:-} > /dev/null
	fi
	for f in "$W"/cg.*; do
		python3 bench/callgrind-sum.py --calls 'libc\.so' "$lib" "$f" | head -1
	done
}

# per_iteration CONFIG LOOP [multiple]: instructions per iteration per rank
per_iteration() {
	count "$1" "$2" "$N" ${3:-} > "$W/short"
	count "$1" "$2" $((2 * N)) ${3:-} > "$W/long"
	paste "$W/short" "$W/long" | awk -v n="$N" '{ s += ($2 - $1) / n } END { printf "%.0f", s / NR }'
}

loops=(pingpong exchange allreduce reduce bcast barrier allgather alltoall gather scatter)
declare -A figure	# CONFIG:LOOP -> instructions per iteration
row() { # NAME CONFIG
	printf "%-14s" "$1"
	for l in "${loops[@]}"; do
		figure[$2:$l]=$(per_iteration "$2" "$l")
		printf " %10s" "${figure[$2:$l]}"
	done
	printf "\n"
}
# target DESCRIPTION VALUE OP LIMIT: one line, the value against its
# target; a value that is no number (a count that failed) meets none
target() {
	awk -v d="$1" -v v="$2" -v op="$3" -v lim="$4" 'BEGIN {
		ok = v ~ /^[0-9.]+$/ && (op == "<=" ? v + 0 <= lim : v + 0 >= lim)
		printf "  %-52s %8s  target %s %s: %s\n", d, v, op, lim, ok ? "met" : "NOT met" }'
}
printf "%-14s" configuration
for l in "${loops[@]}"; do printf " %10s" "$l"; done
printf "\n"
for c in "${configs[@]}"; do
	row "$c" "$c"
done
echo "(instructions in the tool's MPI library and what it calls in the C library, per rank, per round trip or call, difference of $N and $((2 * N)) iterations)"
row "Open MPI" plain
echo "(Open MPI's own instructions per rank without a tool, the same way; with its polling while a rank waits, which on a busy host moves them by thousands from run to run, the tool's by some tens)"
echo "the targets:"
target "ping-pong, the default (per round trip)" "${figure[default:pingpong]}" "<=" 1000
target "ping-pong, --no-piggyback (per round trip)" "${figure[no-piggyback:pingpong]}" "<=" 500
target "allreduce 8 B, the default over --no-piggyback" \
	"$(awk -v a="${figure[default:allreduce]}" -v b="${figure[no-piggyback:allreduce]}" \
		'BEGIN { printf "%.2f", a / b }')" "<=" 1.5
count bounded allreduce $((2 * N)) > "$W/bounded"
count default allreduce $((2 * N)) > "$W/unbounded"
paste "$W/bounded" "$W/unbounded" | awk -v n="$((2 * N))" '{ s += ($1 - $2) / n }
	END { printf "the critical path'"'"'s fold points (records bounded, the default): %.0f more a call, allreduce, %d calls\n", s / NR, n }'
printf "the default with MPI initialised for MPI_THREAD_MULTIPLE (its analyses' locks taken): ping-pong %s, allreduce %s\n" \
	"$(per_iteration default pingpong multiple)" "$(per_iteration default allreduce multiple)"
for l in pingpong allreduce; do
	echo "the default's $l of $((2 * N)) round trips or calls (rank 0), per one: top functions, then top source files (the common calls inline their whole way, so a file is a part of it: an analysis, the piggyback's transport, the statistics):"
	count default $l $((2 * N)) > /dev/null
	f=$(ls "$W"/cg.* | head -1)
	for by in "" --files; do
		python3 bench/callgrind-sum.py --calls 'libc\.so' $by libcpperf "$f" 12 | tail -n +2 |
			awk -v n="$((2 * N))" '{ c = $1; $1 = ""; printf "  %8.0f %s\n", c / n, $0 }'
	done
done
