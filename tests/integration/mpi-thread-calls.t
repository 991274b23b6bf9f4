#!/usr/bin/env bash
# mpi-thread-calls.t - MPI_Send and MPI_Recv from 2 threads of each of 2
# ranks under MPI_THREAD_MULTIPLE (tests/progs/thread-calls.c), where the
# wrappers' common calls take the analyses' locks (docs/mpi.md "Threads"),
# then MPI_Isend and MPI_Irecv completed by MPI_Wait in their place (the
# general way, whose steps take the lock once each as the common calls'
# do), for each MPI where installed:
#  a. Overlapping calls: the statistics exact (a send and a receive of an
#     int a rank, then 2 threads x ROUNDS round trips, both threads
#     counted), and every rank says it has no critical path and records
#     none (docs/critical-path.md), which the path's view names as a cause.
#  b. Calls that take turns: the path is whole, at least as long as the
#     spins it serialises (rank 0's threads, 2 ms of CPU time in work_0 and
#     4 ms in work_1 a round, 0.9 s in all) and no longer than the run,
#     and work_1's share of it is twice work_0's (+- 15 %), when the spins
#     got at least 90 % of a CPU (on a busy host a rank's delays take the
#     path from the spins, the shorter more often).
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

ROUNDS=300	# overlapping round trips of each thread
TURNS=150	# turns of each thread
US=2000		# work_0's spin a turn, microseconds

# run MPI NAME MODE ROUNDS US [nonblocking]: thread-calls under
# cpperf-record into $WORK/MPI-NAME, its stderr in $WORK/MPI-NAME.err
run() {
	local mpi=$1 d=$WORK/$1-$2
	rm -rf "$d"
	mpi_run 2 "$RECORD" --cp-budget=0 -o "$d" "$WORK/calls-$mpi" "${@:3}" \
		> "$d.out" 2> "$d.err"
	is "$mpi $2: program output" "$?:$(head -1 "$d.out")" "0:thread-calls $3 multiple"
}

for mpi in openmpi mpich; do
	mpi_or_skip $mpi "MPI calls of several threads" || continue
	mpi_build calls-$mpi thread-calls.c
	for calls in blocking nonblocking; do
		case $calls in
		blocking) send=MPI_Send recv=MPI_Recv arg= ;;
		nonblocking) send=MPI_Isend recv=MPI_Irecv arg=nonblocking ;;
		esac
		m="$mpi $calls"

		# --- a. overlapping calls
		run $mpi $calls-overlap overlap $ROUNDS 0 $arg
		d=$WORK/$mpi-$calls-overlap
		report_json "$d"
		site() { echo "[.mpi.callsites[] | select(.function == \"$1\") | .$2] | add"; }
		jq_vars "$WORK/report.json" ranks '.experiment.ranks' \
			sends "$(site $send calls)" sent "$(site $send bytes_sent)" \
			recvs "$(site $recv calls)" received "$(site $recv bytes_recv)" \
			threads '[.mpi.callsites[] | select(any(.callpath[]; .function == "round_trip")) | .threads] | unique | join(" ")'
		is "$m: 2 ranks" "$ranks" 2
		is "$m: $send calls and bytes" "$sends $sent" "$((4 * ROUNDS + 2)) $((16 * ROUNDS + 8))"
		is "$m: $recv calls and bytes" "$recvs $received" "$((4 * ROUNDS + 2)) $((16 * ROUNDS + 8))"
		is "$m: both threads counted at each site of the round trips" "$threads" 2
		is "$m: every rank says its calls overlapped" \
			"$(grep -c '^cpperf: rank [01]: no critical path: MPI calls of several threads overlapped' "$d.err")" 2
		is "$m: and records no path" "$(cat "$d"/*.cpprof | grep -c '^cp_events 0$')" 2
		"$CPPERF" report "$d" --view=cp > /dev/null 2> "$d.cp"
		check "$m: the path's view says the calls may have overlapped" \
			grep -q "no critical-path data in this experiment: .* or MPI calls of several threads overlapped" "$d.cp"

		# --- b. calls that take turns
		run $mpi $calls-turns turns $TURNS $US $arg
		d=$WORK/$mpi-$calls-turns
		cp_json "$d" "$d.cp"
		jq_vars "$d.cp" form "$(cp_filter .form)" length "$(cp_filter .length)" \
			work_0 "$(cp_share work_0)" work_1 "$(cp_share work_1)"
		report_json "$d"
		wall=$(jqr '[.ranks[].process_wall] | max')
		is "$m: no rank's calls overlapped" "$(grep -c 'no critical path' "$d.err")" 0
		is "$m: the path is whole" "$form" whole
		atleast "$m: the path's length (s), the spins it serialises" "$length" \
			"$(awk -v n=$TURNS -v us=$US 'BEGIN { print n * 3 * us / 1e6 * 0.97 }')"
		atmost "$m: the path's length (s), the run's" "$length" "$wall"
		share=$(awk '$1 == "cpu_share" { print $2 }' "$d.out")
		if awk -v s="$share" 'BEGIN { exit !(s != "" && s < 0.9) }'; then
			skip "$m: work_1's share of the path over work_0's" "host busy: the spins got $share of a CPU"
		else
			within "$m: work_1's share of the path over work_0's" \
				"$(awk -v a="$work_1" -v b="$work_0" 'BEGIN { if (b > 0) printf "%.3f", a / b }')" 2 0.3
		fi
	done
done
done_testing
