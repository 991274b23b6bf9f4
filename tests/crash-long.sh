#!/usr/bin/env bash
# crash-long.sh - the documented crash scenarios at full length (`make
# check-crash`, about two minutes per MPI; timings want a quiet host),
# printing the figures as TAP diagnostics:
#   a 4-rank, 20 s job killed by `timeout -s TERM 8 mpirun`: 4 final
#     profiles covering >= 7 s each (SIGTERM; or, when Open MPI's mpirun,
#     signalled twice by timeout, exits at once, "exit without
#     MPI_Finalize" of the ranks it left);
#   rank 2 of 4 segfaults 5 s after MPI_Init: its profile says SIGSEGV, the
#     others cover >= 4 s, mpirun's status and the core files as without
#     cpperf;
#   MPI_Abort, and exit(2) without MPI_Finalize, from rank 1 of 3: every
#     rank leaves a profile, the reasons are named, no rank is missing;
#   a process SIGKILLed 25 s into its run with --checkpoint=10: its last
#     checkpoint covers >= 20 s.
. "$(dirname "$0")/lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

# figures: one diagnostic line per profile of the last report.
figures() { jqr '.experiment.partial[] | "#   rank \(.rank): \(.reason), \(.covered_s) s"'; }
# cores DIR CMD...: run CMD in DIR with core dumps on; the core files left.
cores() { local dir=$1; shift; mkdir -p "$dir"; (cd "$dir" && ulimit -c unlimited 2> /dev/null; "$@" > /dev/null 2>&1; echo "status $?"); ls "$dir" | grep -c '^core'; }

for mpi in openmpi mpich; do
	if ! mpi_tools $mpi; then
		skip "$mpi: crash scenarios" "$WHY"
		continue
	fi
	mpi_build end-$mpi mpi-end.c
	P=$WORK/end-$mpi

	timeout -s TERM 8 "$MPIRUN" -np 4 "$RECORD" -q -o "$WORK/term-$mpi" "$P" 20 > /dev/null 2>&1
	report_json "$WORK/term-$mpi"
	figures
	is "$mpi, SIGTERM at 8 s: 4 final profiles, each saying why" \
		"$(jqr '"\(.experiment.processes) \([.experiment.partial[] | select(.reason == "signal SIGTERM" or .reason == "exit without MPI_Finalize")] | length)"')" "4 4"
	atleast "$mpi, SIGTERM at 8 s: the least covered rank (s)" "$(jqr '[.experiment.partial[].covered_s] | min')" 7

	plain=$(cores "$WORK/core-plain-$mpi" "$MPIRUN" -np 4 "$P" 20 2 segv 5)
	prof=$(cores "$WORK/core-cpperf-$mpi" "$MPIRUN" -np 4 "$RECORD" -q -o "$WORK/segv-$mpi" "$P" 20 2 segv 5)
	echo "# without cpperf: $(echo $plain); with: $(echo $prof) (status, core files)"
	is "$mpi, rank 2 segfaults: mpirun's status and the core files as without cpperf" "$prof" "$plain"
	report_json "$WORK/segv-$mpi"
	figures
	is "$mpi, rank 2 segfaults: its reason" "$(jqr '.experiment.partial[] | select(.rank == 2) | .reason')" "signal SIGSEGV"
	atleast "$mpi, rank 2 segfaults: the least covered other rank (s)" \
		"$(jqr '[.experiment.partial[] | select(.rank != 2) | .covered_s] | min')" 4

	for how in abort exit; do
		mpi_run 3 "$RECORD" -q -o "$WORK/$how-$mpi" "$P" 20 1 "$how" 3 > /dev/null 2>&1
		report_json "$WORK/$how-$mpi"
		figures
		is "$mpi, rank 1 of 3 $how: 3 profiles, none missing" \
			"$(jqr '"\(.experiment.processes) \(.experiment.ranks_missing)"')" "3 []"
		is "$mpi, rank 1 of 3 $how: the reason" "$(jqr '.experiment.partial[] | select(.rank == 1) | .reason')" \
			"$([ $how = abort ] && echo "MPI_Abort(3)" || echo "exit without MPI_Finalize")"
	done
done

build ends ends.c -O1 -g
"$RECORD" -q --checkpoint=10 -o "$WORK/kill" "$WORK/ends" spin 60 > /dev/null &
sleep 25
kill -KILL $!
wait $! 2> /dev/null
report_json "$WORK/kill"
figures
atleast "SIGKILL at 25 s with --checkpoint=10: the last checkpoint covers (s)" \
	"$(jqr '.experiment.partial[0].covered_s')" 20
done_testing
