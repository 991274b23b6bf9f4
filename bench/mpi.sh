#!/usr/bin/env bash
# mpi.sh - the MPI part of `make bench`: mpi-bench.c run without cpperf,
# under cpperf-record --no-piggyback, --no-waits (the piggyback without
# wait states and activity graph), under cpperf-record (all on)
# and under cpperf-record with a sampling period no run reaches (the MPI
# layer alone: the sampler's cost with both cores busy is measured by
# busy.sh), alternating, ROUNDS times; prints the median of each
# measurement and each configuration's ratio to the no-tool run (latency
# and collectives: time ratio, lower is better; bandwidth: rate ratio,
# higher is better), and the wrappers' cost per call: measured directly
# by mpi-calls.c (one rank, MPI_Test on MPI_REQUEST_NULL from call sites
# 6 and 36 frames deep, no message), and as half the 0-byte latency's
# growth (a one-way trip passes a send and a receive wrapper), which
# also counts what the wrappers change in the MPI library's polling; and
# the floors of the latency and of the allreduce here: the header alone,
# measured without cpperf (mpi-bench.c), plus the wrappers' timing and
# statistics (--no-piggyback).  The micro-benchmarks run on 2 ranks.  With MPIP_LIB
# set to mpiP's libmpiP.so (mpiP is not a Debian package: build it by
# hand), mpiP without its call-site stack walk (MPIP="-k 0"), preloaded,
# runs beside them as the peer that wraps MPI and samples nothing.
# Last, the same ratios measured within single runs (mpi-paired.c), which
# a host whose runs fall into modes cannot blur (bench/mpi-cost.md).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${BENCH_MPI_ROUNDS:-7}
SCALE=${BENCH_MPI_SCALE:-5}	# repetitions: 100 000 per latency
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! command -v mpicc > /dev/null; then
	echo "mpi bench: no mpicc, skipped"
	exit 0
fi
. bench/bench-lib.sh
scratch mpibench
mpicc -O2 -g -o "$W/mpi-bench" bench/mpi-bench.c
mpicc -O2 -g -o "$W/mpi-calls" bench/mpi-calls.c
mpicc -O2 -g -o "$W/mpi-paired" bench/mpi-paired.c

# configurations: name and the command prefix placed after mpirun's options
configs=(plain no-piggyback no-waits piggyback mpi-layer)
prefix_plain=()
prefix_no_piggyback=(bin/cpperf-record -q --no-piggyback -o "$W/exp")
prefix_no_waits=(bin/cpperf-record -q --no-waits -o "$W/exp")
prefix_piggyback=(bin/cpperf-record -q -o "$W/exp")
prefix_mpi_layer=(bin/cpperf-record -q -c 1000000000000000 -o "$W/exp")	# 11 days of task-clock
if [ -n "${MPIP_LIB:-}" ]; then
	if [ -r "$MPIP_LIB" ]; then
		configs+=(mpip)
		prefix_mpip=(env LD_PRELOAD="$MPIP_LIB" MPIP="-k 0 -f $W/mpip-reports")
		mkdir -p "$W/mpip-reports"
	else
		echo "mpi bench: MPIP_LIB=$MPIP_LIB: not readable; mpiP left out" >&2
	fi
fi

run() { # CONFIG NP -> "name value" lines
	local c=$1 np=$2 pre
	pre="prefix_${c//-/_}[@]"
	rm -rf "$W/exp"
	mpirun --oversubscribe -np "$np" "${!pre}" "$W/mpi-bench" "$SCALE" | awk '{ print $1, $2 }'
	rm -rf "$W/exp"
	mpirun -np 1 "${!pre}" "$W/mpi-calls" | awk '{ print $1, $2 }'
}

for i in $(seq "$ROUNDS"); do
	for c in "${configs[@]}"; do
		run "$c" 2 >> "$W/$c"
	done
done

median_of() { # FILE NAME
	awk -v n="$2" '$1 == n { print $2 }' "$1" | median
}

spread_of() { # FILE NAME -> the interquartile range over the median, in %
	awk -v n="$2" '$1 == n { print $2 }' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.0f%%", 100 * (v[int(3 * NR / 4) + 1] - v[int(NR / 4) + 1]) / v[int(NR / 2) + 1] }'
}

target_of() { # MEASUREMENT -> its target ratio
	case $1 in
	latency_*) echo "<= 1.3" ;; bandwidth_*) echo ">= 0.97" ;; *) echo "<= 1.5" ;;
	esac
}

printf "%-24s %12s %6s" measurement plain spread
for c in "${configs[@]:1}"; do printf " %12s %8s" "$c" ratio; done
printf "   target\n"
for m in latency_0 latency_8 latency_1024 bandwidth_65536 bandwidth_1048576 allreduce_8 reduce_8 \
	bcast_8 barrier allgather_8 alltoall_8 gather_8 scatter_8 allgatherv_8 scan_8 exscan_8 \
	reduce_scatter_block_8 reduce_scatter_8 gatherv_8 scatterv_8 alltoallv_8 iallreduce_8 \
	ireduce_8 iscan_8 ibcast_8 iallgather_8 ialltoall_8 igather_8 ibarrier; do
	base=$(median_of "$W/plain" "$m")
	printf "%-24s %12s %6s" "$m" "$base" "$(spread_of "$W/plain" "$m")"
	for c in "${configs[@]:1}"; do
		v=$(median_of "$W/$c" "$m")
		printf " %12s %8.3f" "$v" "$(awk -v a="$v" -v b="$base" 'BEGIN { print a / b }')"
	done
	printf "   %s\n" "$(target_of "$m")"
done
echo "(medians of $ROUNDS alternating runs; latency and collectives in us, bandwidth in MB/s; spread: the"
echo " interquartile range of the plain runs over their median, the host's noise)"
# A host whose runs fall into modes (bench/mpi-cost.md) moves the medians
# by more than the targets' margins: say so where the ratios are read.
worst=$(for m in latency_8 allreduce_8 bandwidth_65536 bandwidth_1048576; do
	spread_of "$W/plain" "$m"; echo; done | tr -d % | sort -g | tail -1)
if [ "${worst:-0}" -gt 20 ]; then
	echo "NOTE: plain's spread reaches $worst% on the rows above that have targets: on this host the ratios"
	echo " cannot decide them; the ratios within single runs below and bench/mpi-instr.sh's instruction counts can"
fi
joined() { # BYTES -> "MB/s (ratio to contiguous)" without the tool
	awk -v j="$(median_of "$W/plain" "bandwidth_joined_$1")" -v c="$(median_of "$W/plain" "bandwidth_$1")" \
		'BEGIN { printf "%s MB/s (%.2f of contiguous)", j, j / c }'
}
echo "the piggyback's layout of a large message (a struct of a 64-byte header and the data) without cpperf:"
echo "  64 KiB $(joined 65536), 1 MiB $(joined 1048576): what this MPI gives it on this host now (bench/mpi-cost.md)"
over_plain() { # CONFIG MEASUREMENT BASE -> CONFIG's median of MEASUREMENT over plain's of BASE
	awk -v a="$(median_of "$W/$1" "$2")" -v b="$(median_of "$W/plain" "$3")" 'BEGIN { printf "%.3f", a / b }'
}
floor() { # KIND BYTES -> "header alone/floor" of KIND_BYTES
	awk -v h="$(over_plain plain "$1_joined_$2" "$1_$2")" \
		-v w="$(over_plain no-piggyback "$1_$2" "$1_$2")" \
		'BEGIN { printf "%.3f/%.3f", h, h + w - 1 }'
}
echo "a small message behind the piggyback's 40-byte header (packed before the data, copied out) without cpperf,"
echo "  over plain / that plus no-piggyback's growth (the wrappers' timing and statistics): the floor of the"
echo "  whole tool's latency before any piggyback work, as this program's ping-pong measures the header (a"
echo "  ping-pong of two small functions measures it lower, bench/mpi-cost.md): 0 B $(floor latency 0), 8 B $(floor latency 8), 1 KiB $(floor latency 1024)"
echo "an 8-byte allreduce behind a collective's 96-byte piggyback (one 104-byte type, an operator that takes the"
echo "  header's maxima and sums the data) without cpperf, the same way: $(floor allreduce 8) (bench/mpi-cost.md)"
wrapper_cost() { # CONFIG MEASUREMENT [HALF] -> ns over the plain run
	awk -v a="$(median_of "$W/$1" "$2")" -v b="$(median_of "$W/plain" "$2")" -v k="${3:-1}" \
		'BEGIN { printf "%.0f", (a - b) * k }'
}
for c in "${configs[@]:1}"; do
	printf "wrapper cost per call (%s): %s ns at depth 6, %s ns at depth 36 (MPI_Test, no message); %s ns in the 0-byte ping-pong   target <= 60 (--no-piggyback)\n" \
		"$c" "$(wrapper_cost "$c" test_0)" "$(wrapper_cost "$c" test_30)" \
		"$(wrapper_cost "$c" latency_0 500)"
done

# The same ratios within single runs (mpi-paired.c: segments of wrapped
# and of direct calls alternating), where the host's modes cancel: each
# run's ratio, @ its direct calls' median that shows the run's mode.
for i in $(seq "${BENCH_MPI_PAIRED_RUNS:-3}"); do
	for c in "${configs[@]}"; do
		pre="prefix_${c//-/_}[@]"
		rm -rf "$W/exp"
		mpirun --oversubscribe -np 2 "${!pre}" "$W/mpi-paired" |
			awk -v c="$c" '$1 ~ /^(latency|allreduce|bandwidth)_/ { print c, $1, $2 "@" $4 }' >> "$W/paired"
	done
done
echo "within single runs (bench/mpi-paired.c; the sampler's cost, which slows both sides, left out): each run's"
echo " ratio of wrapped to direct calls @ the direct calls' median (us or MB/s; it shows the run's mode);"
echo " plain must give 1 (both sides are MPI): that checks the method on this host"
for m in latency_0 latency_8 allreduce_8 bandwidth_65536 bandwidth_1048576; do
	for c in "${configs[@]}"; do
		printf "  %-18s %-13s %-48s %s\n" "$m" "$c" \
			"$(awk -v c="$c" -v m="$m" '$1 == c && $2 == m { printf "%s ", $3 }' "$W/paired")" \
			"$(target_of "$m")"
	done
done
