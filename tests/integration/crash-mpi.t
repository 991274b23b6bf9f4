#!/usr/bin/env bash
# crash-mpi.t - MPI jobs that end badly leave a profile for every rank
# (tests/progs/mpi-end.c): the job killed from outside with SIGTERM, a
# rank that segfaults, calls MPI_Abort, or exits without MPI_Finalize;
# the report names each partial profile's reason and no rank is missing.
# When one rank fails, Open MPI's mpirun sends the others SIGTERM (their
# final profiles), MPICH's hydra SIGKILLs them at once (their last
# checkpoint).  Open MPI and MPICH, each where installed.  Short runs:
# `make check-crash` runs the documented scenarios.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

for mpi in openmpi mpich; do
	if ! mpi_tools $mpi; then
		skip "$mpi: partial profiles" "$WHY"
		continue
	fi
	mpi_build end-$mpi mpi-end.c
	P=$WORK/end-$mpi

	# the whole job killed from outside; --foreground: only the launcher
	# gets the signal (signalled twice, Open MPI's mpirun may exit at once
	# and leave the ranks to exit on their own, "exit without MPI_Finalize")
	timeout --foreground -s TERM 8 "$MPIRUN" -np 4 "$RECORD" -q -o "$WORK/term-$mpi" "$P" 60 > /dev/null 2>&1
	report_json "$WORK/term-$mpi"
	jq_vars "$WORK/report.json" processes '.experiment.processes' \
		unsaid '[.experiment.partial[].reason | select(. != "signal SIGTERM" and . != "exit without MPI_Finalize")] | length' \
		covered '[.experiment.partial[].covered_s] | min' missing '.experiment.ranks_missing | length'
	is "$mpi, job killed with SIGTERM: a profile per rank" "$processes" 4
	is "$mpi, job killed with SIGTERM: each a final profile that says why" "$unsaid" 0
	atleast "$mpi, job killed with SIGTERM: the least covered rank (s)" "$covered" 2
	is "$mpi, job killed with SIGTERM: no rank missing" "$missing" 0

	# one rank ends badly; the launcher ends the others
	for how in segv abort exit; do
		mpi_run 3 "$RECORD" -q -o "$WORK/$how-$mpi" "$P" 60 1 "$how" 1.5 > /dev/null 2>&1
		report_json "$WORK/$how-$mpi"
		jq_vars "$WORK/report.json" ranks '"\(.experiment.processes) \(.experiment.ranks_missing | length)"' \
			reason '.experiment.partial[] | select(.rank == 1) | .reason' \
			covered '.experiment.partial[] | select(.rank == 1) | .covered_s' \
			others '[.experiment.partial[] | select(.rank != 1)] | length'
		is "$mpi, rank 1 $how: every rank left a profile" "$ranks" "3 0"
		want=$(case $how in segv) echo "signal SIGSEGV" ;; abort) echo "MPI_Abort(3)" ;;
			exit) echo "exit without MPI_Finalize" ;; esac)
		is "$mpi, rank 1 $how: its reason" "$reason" "$want"
		atleast "$mpi, rank 1 $how: its profile covers the time before" "$covered" 1.4
		is "$mpi, rank 1 $how: the others are partial too" "$others" 2
	done
	"$CPPERF" report "$WORK/segv-$mpi" > "$WORK/segv.txt"
	check "$mpi: the text header names the partial profiles first" \
		grep -q "^# PARTIAL: 3 profiles end early: rank 0 .*; rank 1 signal SIGSEGV after" "$WORK/segv.txt"
	report_json "$WORK/segv-$mpi"
	jq_vars "$WORK/report.json" checkpoints '[.experiment.partial[] | select(.reason == "checkpoint")] | length' \
		unavailable '.critical_path.unavailable'
	if [ "$checkpoints" = 0 ]; then
		is "$mpi: final profiles everywhere: the critical path up to the ends" "$unavailable" null
	else
		is "$mpi: checkpoints: the critical path not computed, and why" \
			"$unavailable" "it needs every rank's end, and ranks 0, 2 left only a checkpoint"
	fi
done
done_testing
