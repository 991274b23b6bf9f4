#!/usr/bin/env bash
# mpi-semantics.t - the wrappers change nothing the program observes:
# tests/progs/mpi-semantics.c (ANY_SOURCE/ANY_TAG, Probe and Get_count,
# status fields, persistent requests, Cancel, PROC_NULL, zero length,
# derived datatypes, Waitany/Waitsome/Testall, Sendrecv_replace,
# non-blocking collectives, MPI_IN_PLACE, an intercommunicator, 4 threads
# under MPI_THREAD_MULTIPLE) prints the same transcript with and without
# cpperf-record, under Open MPI and MPICH.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/mpi-lib.sh"

for mpi in openmpi mpich; do
	if ! mpi_tools $mpi; then
		skip "$mpi: same transcript with and without cpperf-record" "$WHY"
		continue
	fi
	mpi_build sem-$mpi mpi-semantics.c
	mpi_run 4 "$WORK/sem-$mpi" > "$WORK/plain-$mpi" 2>&1
	mpi_run 4 "$RECORD" -q -o "$WORK/e-$mpi" "$WORK/sem-$mpi" > "$WORK/rec-$mpi" 2>&1; st=$?
	is "$mpi: recorded run exits 0" "$st" 0
	is "$mpi: transcript has every rank" "$(grep -c '^--- rank' "$WORK/plain-$mpi")" 4
	if diff "$WORK/plain-$mpi" "$WORK/rec-$mpi" > "$WORK/diff"; then
		ok "$mpi: same transcript with and without cpperf-record"
	else
		fail "$mpi: same transcript with and without cpperf-record" "$(head -20 "$WORK/diff")"
	fi
	report_json "$WORK/e-$mpi"
	is "$mpi: 4 profiles with MPI statistics" "$(jqr '.experiment.ranks')" 4
	# Irecv bytes are counted when Waitany/Waitsome complete them: 3 x 4 bytes
	is "$mpi: non-blocking receives counted at completion" \
		"$(jqr '[.mpi.callsites[] | select(.function == "MPI_Irecv") | .bytes_recv] | add')" 12
	is "$mpi: persistent sends counted at each start" \
		"$(jqr '[.mpi.callsites[] | select(.function == "MPI_Send_init") | .bytes_sent] | add')" 24
done
done_testing
