#!/usr/bin/env bash
# mpi-stats.t - exact MPI statistics: tests/progs/mpi-exact.{c,f90} on 4
# ranks (rank r sends r+1 messages of 1000 bytes to rank r+1; 7 allreduces
# and 3 barriers per rank; a broadcast, a gather, a scatter and a reduce,
# each from or to another root, whose bytes count at the root, the
# leaves or the others as docs/mpi.md says; the all-to-alls with a
# datatype per peer) under Open MPI and MPICH, C
# and Fortran (and
# the Fortran one with `use mpi_f08`), and the C one as a library that
# the program run links or loads with dlopen; all ranks in one experiment
# directory chosen without -o; one notice in all.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

# check_exact LABEL DIR ALLREDUCE_SENT: the report of one run of mpi-exact
check_exact() {
	local l=$1 dir=$2 sent=$3 ranks count bytes all pairs send_calls send_bytes send_1000 recv_bytes \
		allreduce_calls allreduce_bytes barrier_calls collectives whole within in_program rooted \
		alltoallw
	site() { echo "[.mpi.callsites[] | select(.function == \"$1\") | .$2] | add"; }
	report_json "$dir"
	jq_vars "$WORK/report.json" ranks '.experiment.ranks' \
		count '[range(3) as $r | .mpi.matrix.count[$r][$r+1]] | join(" ")' \
		bytes '[range(3) as $r | .mpi.matrix.bytes[$r][$r+1]] | join(" ")' \
		all '[.mpi.matrix.count[][]] | add' \
		pairs '[.mpi.matrix.pairs[] | map(tostring) | join(":")] | join(" ")' \
		send_calls "$(site MPI_Send calls)" send_bytes "$(site MPI_Send bytes_sent)" \
		send_1000 '[.mpi.callsites[] | select(.function == "MPI_Send") | .histogram[10]] | add' \
		recv_bytes "$(site MPI_Recv bytes_recv)" allreduce_calls "$(site MPI_Allreduce calls)" \
		allreduce_bytes "$(site MPI_Allreduce bytes_sent)" barrier_calls "$(site MPI_Barrier calls)" \
		collectives '[.mpi.collectives[] | "\(.function)/\(.comm_size)/\(.calls)"] | sort | join(" ")' \
		whole '"\(.experiment.ranks_missing | length) \(.experiment.partial | length)"' \
		within '[.ranks[] | .mpi_time <= .wall and .wall <= .process_wall and .cpu <= .process_cpu] | all' \
		in_program '[.mpi.callsites[] | select(.function == "MPI_Send") | .callpath[-1].module | test("exact-")] | all' \
		rooted '[("MPI_Bcast", "MPI_Gather", "MPI_Scatter", "MPI_Reduce") as $f | [.mpi.callsites[] | select(.function == $f)] | ((map(.bytes_sent) | add), (map(.bytes_recv) | add))] | map(tostring) | join(" ")' \
		alltoallw '[("MPI_Alltoallw", "MPI_Ialltoallw", "MPI_Neighbor_alltoallw", "MPI_Ineighbor_alltoallw") as $f | [.mpi.callsites[] | select(.function == $f)] | ((map(.bytes_sent) | add), (map(.bytes_recv) | add))] | map(tostring) | join(" ")'
	is "$l: 4 ranks" "$ranks" 4
	is "$l: messages r -> r+1" "$count" "1 2 3"
	is "$l: bytes r -> r+1" "$bytes" "1000 2000 3000"
	is "$l: no other messages" "$all" 6
	is "$l: the matrix's pairs, the same" "$pairs" "0:1:1:1000 1:2:2:2000 2:3:3:3000"
	is "$l: MPI_Send calls" "$send_calls" 6
	is "$l: MPI_Send bytes" "$send_bytes" 6000
	is "$l: MPI_Send sizes in the 1000-byte bucket" "$send_1000" 6
	is "$l: MPI_Recv bytes" "$recv_bytes" 6000
	is "$l: MPI_Allreduce calls" "$allreduce_calls" 28
	is "$l: MPI_Allreduce bytes sent" "$allreduce_bytes" "$sent"
	is "$l: MPI_Barrier calls" "$barrier_calls" 12
	is "$l: collectives by size" "$collectives" \
		"MPI_Allreduce/4/28 MPI_Alltoallw/4/4 MPI_Barrier/4/12 MPI_Bcast/4/4 MPI_Gather/4/4 MPI_Ialltoallw/4/4 MPI_Ineighbor_alltoallw/4/4 MPI_Neighbor_alltoallw/4/4 MPI_Reduce/4/4 MPI_Scatter/4/4"
	# bytes sent, received: a broadcast's 20 from its root to the 3 others, a
	# gather's 32 from every rank to its root, a scatter's 24 from its root
	# to every rank, a reduce's 16 from every rank to its root
	is "$l: rooted collectives' bytes" "$rooted" "20 60 128 128 96 96 64 16"
	# bytes sent, received: each rank sends an int (4 bytes) to ranks 0 and 2
	# and a double (8) to 1 and 3, 24 a rank, and ranks 0 and 2 receive 4
	# ints, 1 and 3 4 doubles, in MPI_Alltoallw and MPI_Ialltoallw; to the
	# other ranks alone (the neighbour forms) 24 less each way
	is "$l: all-to-alls' bytes, a datatype per peer" "$alltoallw" "96 96 96 96 72 72 72 72"
	is "$l: a whole run: no rank missing, no profile partial" "$whole" "0 0"
	is "$l: MPI time within the wall of every rank (the MPI region)" "$within" true
	is "$l: the send site is in the program" "$in_program" true
}

for mpi in openmpi mpich; do
	if ! mpi_tools $mpi; then
		skip "$mpi: exact statistics" "$WHY"
		continue
	fi
	mpi_build exact-$mpi mpi-exact.c
	mkdir -p "$WORK/run-$mpi" && cd "$WORK/run-$mpi" || exit 1
	mpi_run 4 "$RECORD" ./../exact-$mpi > out 2> err
	is "$mpi: program output" "$(cat out)" "sum 6"
	dirs=$(ls -d cpperf-exact-$mpi-* 2> /dev/null)
	is "$mpi: one experiment directory without -o" "$(echo "$dirs" | wc -w)" 1
	is "$mpi: one profile per rank" "$(ls "$dirs" | grep -c '^rank0000[0-3]\..*\.cpprof$')" 4
	is "$mpi: one 'cpperf:' notice for 4 ranks" "$(grep -c '^cpperf:' err)" 1
	atmost "$mpi: stderr lines for 4 ranks" "$(wc -l < err)" 2
	check_exact "$mpi C" "$dirs" 112
	cd "$TOP" || exit 1
	# the same program as a library, which the program run links: libmpi
	# is needed by the library, not by the program
	mpi_build libexact-$mpi.so mpi-exact.c -shared -fPIC -Dmain=lib_main &&
		cc -std=gnu17 -o "$WORK/via-$mpi" "$TOP/tests/progs/lib-main.c" -L"$WORK" -lexact-$mpi \
			-Wl,-rpath,"$WORK"
	is "$mpi: the program run needs libmpi only through its library" \
		"$(readelf -d "$WORK/via-$mpi" | grep -c 'NEEDED.*libmpi'):$(readelf -d "$WORK/libexact-$mpi.so" | grep -c 'NEEDED.*libmpi')" 0:1
	mpi_run 4 "$RECORD" -q -o "$WORK/via-$mpi-run" "$WORK/via-$mpi" > /dev/null
	check_exact "$mpi C, libmpi through a library" "$WORK/via-$mpi-run" 112
	# the library loaded with dlopen as the program starts: the plain
	# runtime, which names the MPI at the end; with CPPERF_MPI, every call
	cc -std=gnu17 -DLIB_PATH="\"$WORK/libexact-$mpi.so\"" -o "$WORK/dl-$mpi" \
		"$TOP/tests/progs/lib-main.c" -ldl
	mpi_run 4 "$RECORD" -o "$WORK/dl-$mpi-run" "$WORK/dl-$mpi" > /dev/null 2> "$WORK/dl-$mpi.err"
	is "$mpi: an MPI loaded with dlopen is named at the end, once" \
		"$(grep -c "the program loaded .*, which cpperf-record did not find among the libraries it links: its MPI calls were not profiled; run it with CPPERF_MPI=$mpi\$" "$WORK/dl-$mpi.err")" 1
	CPPERF_MPI=$mpi mpi_run 4 "$RECORD" -q -o "$WORK/dl-$mpi-chosen" "$WORK/dl-$mpi" > /dev/null
	check_exact "$mpi C, libmpi loaded with dlopen, CPPERF_MPI=$mpi" "$WORK/dl-$mpi-chosen" 112
	if [ -n "$MPIFC" ]; then
		mpi_build fexact-$mpi mpi-exact.f90
		mpi_run 4 "$RECORD" -q -o "$WORK/f-$mpi" "$WORK/fexact-$mpi" > /dev/null
		# one of the 7 allreduces is MPI_IN_PLACE: 6 x 4 bytes sent per rank
		check_exact "$mpi Fortran" "$WORK/f-$mpi" 96
		if sed 's/^  use mpi$/  use mpi_f08/; s/integer :: status(MPI_STATUS_SIZE)/type(MPI_Status) :: status/;
				s/integer :: stypes(4), rtypes(4)/type(MPI_Datatype) :: stypes(4), rtypes(4)/;
				s/integer :: req$/type(MPI_Request) :: req/; s/integer :: others$/type(MPI_Comm) :: others/' \
				"$TOP/tests/progs/mpi-exact.f90" > "$WORK/exact-f08-$mpi.f90" &&
			"$MPIFC" -g -O1 -o "$WORK/exact-f08-$mpi" "$WORK/exact-f08-$mpi.f90" 2> "$WORK/f08-build-$mpi"; then
			mpi_run 4 "$RECORD" -q -o "$WORK/f08-$mpi" "$WORK/exact-f08-$mpi" > /dev/null
			check_exact "$mpi Fortran 2008" "$WORK/f08-$mpi" 96
		else
			skip "$mpi Fortran 2008: exact statistics" \
				"this $mpi builds no mpi_f08 program: $(head -1 "$WORK/f08-build-$mpi")"
		fi
	else
		skip "$mpi Fortran: exact statistics" "no Fortran compiler wrapper for $mpi"
	fi
done

# runtime choice
if mpi_tools openmpi; then
	is "CPPERF_MPI=openmpi preloads the Open MPI runtime" \
		"$(CPPERF_MPI=openmpi "$RECORD" -q -o "$WORK/p1" printenv LD_PRELOAD | xargs basename)" libcpperf-openmpi.so
fi
is "a non-MPI program gets the plain runtime" \
	"$("$RECORD" -q -o "$WORK/p2" printenv LD_PRELOAD | xargs basename)" libcpperf.so
"$RECORD" -q -o "$WORK/p3" true 2> /dev/null; CPPERF_MPI=lam "$RECORD" -q -o "$WORK/p3" true 2> "$WORK/err"; st=$?
is "CPPERF_MPI=lam is refused" "$st:$(grep -c 'CPPERF_MPI=lam' "$WORK/err")" "2:1"
done_testing
