#!/usr/bin/env bash
# mpi-comm-threads.t - communicators made from 4 threads per rank at once
# (MPI_THREAD_MULTIPLE, 4 ranks): tests/progs/comm-threads.c, each thread
# with its own parent, MPI_Comm_idup pending while it makes others
# (MPI_Comm_dup, MPI_Comm_split, MPI_Comm_create, MPI_Intercomm_create
# and MPI_Intercomm_merge) and uses them.  Under cpperf-record, in check
# mode, the run ends (the launcher's time limit catches a hang) with the
# plain run's transcript and every piggyback matched: the MPI layer adds no
# collective of its own to a communicator's creation, which the threads
# would order differently on each rank.  The same again in a world that a
# recorded process spawned, where each communicator's piggyback is decided
# from its groups (docs/mpi.md "Processes of other worlds").  Open MPI 4.1
# alone hangs now and then when one process has several creations pending
# on one parent, so there each thread completes its idups (one at a time)
# before the others.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

# ct_run OUT ARGS...: a run of ARGS (after the rank count) in check mode,
# stdout in OUT, stderr in OUT.err; its exit status.
ct_run() {
	local out=$1
	shift
	CPPERF_PIGGYBACK_CHECK=1 mpi_run "$@" > "$out" 2> "$out.err"
}

# ct_check MPI NAME OUT ST: the run exited 0 with the plain run's
# transcript and every rank's piggybacks matched.
ct_check() {
	is "$1: $2: exits 0" "$4" 0
	is "$1: $2: the plain run's transcript" "$(sort "$3")" "$(cat "$WORK/want-$1")"
	is "$1: $2: every rank's piggybacks matched" \
		"$(grep -cE 'rank [0-3] piggyback check: [1-9][0-9]* messages, [1-9][0-9]* collectives, 0 mismatches' \
			"$3.err")" 4
}

for mpi in openmpi mpich; do
	mpi_or_skip $mpi "communicators from threads" || continue
	threads=4 rounds=1 idups=3 apart=
	[ $mpi = openmpi ] && rounds=2 idups=1 apart=apart
	args="$threads $rounds $idups $apart"
	ct=$WORK/ct-$mpi
	mpi_build ct-$mpi comm-threads.c
	# shellcheck disable=SC2086
	mpi_run 4 "$ct" $args > "$WORK/plain-$mpi" 2>&1; st=$?
	if grep -q 'no MPI_THREAD_MULTIPLE' "$WORK/plain-$mpi"; then
		skip "$mpi: communicators from threads" "this $mpi has no MPI_THREAD_MULTIPLE"
		continue
	fi
	sort "$WORK/plain-$mpi" > "$WORK/want-$mpi"
	is "$mpi: plain run exits 0" "$st" 0
	is "$mpi: plain run, 16 threads without errors" "$(grep -c ' errors 0$' "$WORK/want-$mpi")" 16

	# shellcheck disable=SC2086
	ct_run "$WORK/out-$mpi" 4 "$RECORD" -q -o "$WORK/e-$mpi" "$ct" $args
	ct_check $mpi recorded "$WORK/out-$mpi" $?
	is "$mpi: recorded: nothing else on stderr" "$(grep -vc 'piggyback check' "$WORK/out-$mpi.err")" 0
	report_json "$WORK/e-$mpi"
	is "$mpi: recorded: MPI_Comm_idup counted on every thread" \
		"$(jqr '[.mpi.callsites[] | select(.function == "MPI_Comm_idup") | .calls] | add // 0')" \
		$((4 * threads * rounds * idups))

	# the same in a world that a recorded process spawned: there every
	# communicator's piggyback is decided from its groups, from the threads
	# shellcheck disable=SC2086
	ct_run "$WORK/sp-$mpi" 1 "$RECORD" -q -o "$WORK/p-$mpi" "$ct" spawn 4 \
		"$RECORD" -q -o "$WORK/c-$mpi" "$ct" $args; st=$?
	if [ $st -eq 3 ] && grep -q '^cannot spawn' "$WORK/sp-$mpi"; then
		skip "$mpi: communicators from threads in a spawned world" "$mpi cannot spawn here"
		continue
	fi
	ct_check $mpi "spawned and recorded" "$WORK/sp-$mpi" $st
	is "$mpi: spawned and recorded: the parent carried no piggyback" \
		"$(grep -c 'rank 0 piggyback check: 0 messages, 0 collectives' "$WORK/sp-$mpi.err")" 1
	is "$mpi: spawned and recorded: nothing else on stderr" \
		"$(grep -vc 'piggyback check' "$WORK/sp-$mpi.err")" 0
done
done_testing
