#!/usr/bin/env bash
# exec-rank.t - an MPI rank started through a script that execs the
# program is one profile, the image's that reaches MPI_Init (docs/record.md
# "Processes and threads"): `mpirun -np 2 cpperf-record ./wrap.sh` leaves
# ranks 0 and 1 once each and `cpperf report` reads them, with the MPI
# runtime (CPPERF_MPI) and with the plain one a script gets by default;
# without -o the ranks still end in one directory.  Open MPI and MPICH,
# each where installed.  A serial program started through an exec'ing
# script: record-cli.t.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

# reads NAME DIR: the report of DIR succeeds (its error shown when not).
reads() {
	if report_json "$2" 2> "$WORK/report.err"; then ok "$1"; else fail "$1" "$(cat "$WORK/report.err")"; fi
}
# visible DIR: the files of DIR but the hidden ones (locks, shared costs).
visible() { ls "$1" | wc -l; }

for mpi in openmpi mpich; do
	mpi_end $mpi "a rank through a script that execs" || continue
	W=$WORK/wrap-$mpi.sh
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$P" > "$W"
	chmod +x "$W"

	CPPERF_MPI=$mpi mpi_run 2 "$RECORD" -q -o "$WORK/mpi-$mpi" "$W" 0.5 > /dev/null 2>&1
	reads "$mpi, through a script that execs: the report reads the experiment" "$WORK/mpi-$mpi"
	is "$mpi: one profile per rank" "$(visible "$WORK/mpi-$mpi")" 2
	is "$mpi: ranks 0 and 1" "$(jqr '[.ranks[].rank | tostring] | join(",")')" "0,1"
	is "$mpi: no rank missing" "$(jqr '.experiment.ranks_missing | length')" 0
	atleast "$mpi: the program's MPI calls are counted" "$(jqr '[.mpi.callsites[].calls] | add')" 1
	atleast "$mpi: the program's own samples (compute)" \
		"$(jqr '[.flat[] | select(.function == "compute") | .self_pct] | add')" 20

	# a script gets the runtime without MPI wrappers unless CPPERF_MPI
	# says (without MPI_Init seen, MPICH's ranks keep runs of their own)
	mpi_run 2 "$RECORD" -q -o "$WORK/plain-$mpi" "$W" 0.5 > /dev/null 2>&1
	reads "$mpi, the plain runtime: the report reads the experiment" "$WORK/plain-$mpi"
	is "$mpi, the plain runtime: one profile per rank" "$(visible "$WORK/plain-$mpi")" 2

	# without -o: Open MPI's job id names one directory; MPICH's ranks
	# move to rank 0's at MPI_Init
	mkdir "$WORK/cwd-$mpi"
	(cd "$WORK/cwd-$mpi" && CPPERF_MPI=$mpi mpi_run 2 "$RECORD" -q "$W" 0.5 > /dev/null 2>&1)
	is "$mpi, without -o: one experiment directory" "$(visible "$WORK/cwd-$mpi")" 1
	reads "$mpi, without -o: the report reads it" "$(echo "$WORK/cwd-$mpi"/cpperf-*)"
	is "$mpi, without -o: one profile per rank" "$(jqr '.experiment.processes')" 2
done
done_testing
