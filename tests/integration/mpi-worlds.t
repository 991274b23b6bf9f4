#!/usr/bin/env bash
# mpi-worlds.t - a job under cpperf-record talks to processes of another
# MPI world, which may run without cpperf: tests/progs/spawn-peers.c on 2
# ranks starts 2 children with MPI_Comm_spawn_multiple, then broadcasts,
# sends and receives (wildcards, probes, matched probes, large and
# non-blocking messages) over the intercommunicator, a duplicate of it, the
# two sides merged and each side split off again.  The piggyback rides only
# on communicators within one world (docs/mpi.md "Processes of other
# worlds"), so the transcript is the plain run's whether the children run
# plain or under cpperf-record themselves; in check mode each parent and
# each instrumented child carries it on its own side's communicator and
# nowhere else; the parents' profile counts what crossed to the children
# but leaves them out of the communication matrix.  The Fortran binding's
# MPI_COMM_SPAWN (tests/progs/spawn-peers.f90) passes its CHARACTER
# arguments on.  Where this MPI cannot spawn (MPICH 4.0 over UCX), the
# plain run says why and the test skips.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

for mpi in openmpi mpich; do
	mpi_or_skip $mpi "a job under cpperf with spawned children" || continue
	sp=$WORK/sp-$mpi
	mpi_build sp-$mpi spawn-peers.c
	mpi_run 2 "$sp" "$sp" > "$WORK/plain-$mpi" 2>&1; st=$?
	if [ $st -eq 3 ] && grep -q '^cannot spawn' "$WORK/plain-$mpi"; then
		skip "$mpi: a job under cpperf with spawned children" \
			"$mpi cannot spawn here: $(grep -m1 '^cannot spawn' "$WORK/plain-$mpi" | cut -c15-)"
		continue
	fi
	sort "$WORK/plain-$mpi" > "$WORK/want-$mpi"
	is "$mpi: plain run exits 0" "$st" 0
	is "$mpi: plain run, 4 processes without errors" "$(grep -c ': errors 0$' "$WORK/want-$mpi")" 4

	# children without cpperf: before, the parents' headers and companion
	# collectives reached them (MPI_ERR_TRUNCATE, then an abort)
	mpi_run 2 "$RECORD" -q -o "$WORK/e-$mpi" "$sp" "$sp" > "$WORK/out-$mpi" 2> "$WORK/err-$mpi"; st=$?
	is "$mpi: children plain: exits 0" "$st" 0
	is "$mpi: children plain: the plain run's transcript" "$(sort "$WORK/out-$mpi")" "$(cat "$WORK/want-$mpi")"
	is "$mpi: children plain: nothing on stderr" "$(head -3 "$WORK/err-$mpi")" ""

	# children under cpperf-record too: two instrumented worlds, each with
	# its piggyback on its own side (a ring and an allreduce) and none on the
	# communicators they share
	CPPERF_PIGGYBACK_CHECK=1 mpi_run 2 "$RECORD" -q -o "$WORK/p-$mpi" "$sp" \
		"$RECORD" -q -o "$WORK/c-$mpi" "$sp" > "$WORK/out2-$mpi" 2> "$WORK/err2-$mpi"; st=$?
	is "$mpi: children recorded: exits 0" "$st" 0
	is "$mpi: children recorded: the plain run's transcript" "$(sort "$WORK/out2-$mpi")" \
		"$(cat "$WORK/want-$mpi")"
	is "$mpi: check: piggybacks only within each world, none mismatched" \
		"$(grep -cE 'rank [01] piggyback check: 1 messages, 1 collectives, 0 mismatches' "$WORK/err2-$mpi")" 4
	is "$mpi: check: nothing else on stderr" "$(grep -vc 'piggyback check' "$WORK/err2-$mpi")" 0

	# the parents' profile
	report_json "$WORK/e-$mpi"
	is "$mpi: parents: 2 profiles" "$(jqr '.experiment.ranks')" 2
	calls() { jqr "[.mpi.callsites[] | select(.function == \"MPI_$1\") | .$2] | add // 0"; }
	is "$mpi: parents: MPI_Comm_spawn_multiple on both" "$(calls Comm_spawn_multiple calls)" 2
	# parent 0: 2 ints from the children, a probed message of 4 ints and one
	# int on the duplicate; 2 ints through Mrecv, 1 through Imrecv; the
	# ring of the merged communicator and of the parents' side: 2 longs each
	is "$mpi: parents: bytes received from the children" \
		"$(calls Recv bytes_recv) $(calls Mrecv bytes_recv) $(calls Imrecv bytes_recv)" "28 8 4"
	is "$mpi: parents: bytes sent to the children" "$(calls Send bytes_sent) $(calls Isend bytes_sent)" \
		"48 12000"
	is "$mpi: parents: the matrix has the parents alone" \
		"$(jqr '[.mpi.matrix.pairs[] | "\(.[0])>\(.[1]):\(.[2])"] | join(" ")')" "0>1:2 1>0:1"
	report_json "$WORK/c-$mpi"
	is "$mpi: recorded children: 2 profiles" "$(jqr '.experiment.ranks')" 2

	# the Fortran binding: MPI_COMM_SPAWN's CHARACTER arguments reach the
	# library's binding with their lengths
	if [ -z "$MPIFC" ]; then
		skip "$mpi: Fortran MPI_COMM_SPAWN" "no Fortran compiler wrapper for $mpi"
		continue
	fi
	spf=$WORK/spf-$mpi
	mpi_build spf-$mpi spawn-peers.f90
	mpi_run 1 "$spf" "$spf" 2>&1 | sort > "$WORK/fplain-$mpi"
	is "$mpi: Fortran: plain run, the children's arguments and messages" \
		"$(grep -c -e 'argument [12] "\(one two\|three\)"$' -e 'parent: got' "$WORK/fplain-$mpi")" 6
	mpi_run 1 "$RECORD" -q -o "$WORK/f-$mpi" "$spf" "$spf" 2>&1 | sort > "$WORK/frec-$mpi"
	is "$mpi: Fortran: recorded, the plain run's transcript" "$(cat "$WORK/frec-$mpi")" \
		"$(cat "$WORK/fplain-$mpi")"
	report_json "$WORK/f-$mpi"
	is "$mpi: Fortran: MPI_COMM_SPAWN intercepted" "$(calls Comm_spawn calls)" 1
done
done_testing
