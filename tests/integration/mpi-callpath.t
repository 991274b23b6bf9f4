#!/usr/bin/env bash
# mpi-callpath.t - MPI call sites are call paths: tests/progs/mpi-callpath.c
# on 2 ranks calls MPI_Send (rank 0) and MPI_Recv (rank 1) from one helper,
# exchange, along main -> phase_a -> exchange (3 times) and main -> phase_b
# -> exchange (5 times), at the same return address and stack depth; the
# report must show two sites per function, told apart by their paths, with
# exact counts.  Rank 1 then waits about 0.6 s in MPI_Recv below
# wait_for_data: that time is in the site and in the sampled tree under
# MPI_Recv below wait_for_data.  Open MPI and MPICH.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"
# Samples count user time only: Open MPI must poll in user space while rank
# 1 waits, not yield to the kernel as it does by default when the launcher
# counts fewer slots than ranks (a host whose two CPUs are one core's threads)
export OMPI_MCA_mpi_yield_when_idle=0

# site FN LAST2 FIELD: the jq filter of FIELD of the FN sites whose path
# ends in LAST2 ("phase_a exchange"), one line per site (for jq_vars)
site() {
	echo "[.mpi.callsites[] | select(.function == \"$1\" and
		([.callpath[-2:][].function] | join(\" \")) == \"$2\") | .$3] | map(tostring) | join(\" \")"
}

check_paths() {
	local l=$1 fn figures=() exchange phase_a phase_b main waited recv compute
	for fn in MPI_Send MPI_Recv; do
		figures+=("exchange_$fn" "[.mpi.callsites[] | select(.function == \"$fn\" and .callpath[-1].function == \"exchange\")] | length"
			"phase_a_$fn" "$(site $fn 'phase_a exchange' calls)" "phase_b_$fn" "$(site $fn 'phase_b exchange' calls)"
			"main_$fn" "[.mpi.callsites[] | select(.function == \"$fn\") | [.callpath[].function] | index(\"main\") != null] | all")
	done
	# the sampled tree: main -> wait_for_data -> MPI_Recv, comparable to
	# rank 0's compute in the same 0.6 s
	jq_vars "$WORK/report.json" "${figures[@]}" waited "$(site MPI_Recv 'main wait_for_data' time)" \
		recv '[.callpath | .. | objects | select(.function == "main") | .children[]? |
			select(.function == "wait_for_data") | .children[]? | select(.function == "MPI_Recv") | .total[]] | add // 0' \
		compute '[.callpath | .. | objects | select(.function == "compute") | .total[]] | add // 0'
	for fn in MPI_Send MPI_Recv; do
		exchange=exchange_$fn phase_a=phase_a_$fn phase_b=phase_b_$fn main=main_$fn
		is "$l: two $fn sites end in exchange" "${!exchange}" 2
		is "$l: $fn from phase_a: 3 calls" "${!phase_a}" 3
		is "$l: $fn from phase_b: 5 calls" "${!phase_b}" 5
		is "$l: $fn paths start at main" "${!main}" true
	done
	atleast "$l: the MPI_Recv site below wait_for_data waited (s)" "$waited" 0.3
	atleast "$l: samples under main/wait_for_data/MPI_Recv vs 0.3 x compute's ($compute)" \
		"$recv" "$(awk -v c="$compute" 'BEGIN { print int(0.3 * c) + 1 }')"
}

for mpi in openmpi mpich; do
	if ! mpi_tools $mpi; then
		skip "$mpi: call paths of MPI call sites" "$WHY"
		continue
	fi
	mpi_build callpath-$mpi mpi-callpath.c
	is "$mpi: program output" "$(mpi_run 2 "$RECORD" -q -o "$WORK/cp-$mpi" "$WORK/callpath-$mpi")" done
	report_json "$WORK/cp-$mpi"
	check_paths "$mpi"
done
done_testing
