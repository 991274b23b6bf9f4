#!/usr/bin/env bash
# mpi-semantics.t - the wrappers and the piggyback change nothing the
# program observes: tests/progs/mpi-semantics.c (ANY_SOURCE/ANY_TAG and
# ANY_TAG order from one source, Probe/Iprobe/Improbe and Get_count/
# Get_elements, status fields, persistent requests, Cancel, PROC_NULL, zero
# length, derived datatypes, Ssend/Rsend/Bsend, rendezvous sizes with the
# receive posted before and after the send, Waitany/Waitsome/Testall,
# Sendrecv_replace, truncated receives (errors returned), requests freed
# while active, a receive pending while its communicator is freed, 300
# matched probes outstanding, a datatype of more than INT_MAX bytes,
# datatypes freed while requests use them,
# receives of one source and tag completing in another order than they
# matched, MPI_Request_get_status, MPI_ERR_IN_STATUS from Waitall (MPICH),
# MPI's error text for a broadcast on MPI_COMM_NULL (MPICH's names the
# program's arguments),
# the empty statuses of null and inactive requests, non-blocking
# collectives, MPI_IN_PLACE, an intercommunicator, 4 threads under
# MPI_THREAD_MULTIPLE, each with a thousand Isend/Issend/Ibsend or Irecv
# requests in flight, then Probe + Get_count + Recv) prints the same
# transcript without cpperf-record, with it (piggyback on, the default) and
# with --no-piggyback, under Open MPI and MPICH; and with
# CPPERF_PIGGYBACK_CHECK=1 every rank's piggybacks arrive and each matches
# its message (sender, tag, size).  The same for a `use mpi_f08` program
# (tests/progs/mpi-semantics-f08.f90) under Open MPI; under MPICH, which the
# runtime does not intercept there, the same transcript, no MPI statistics
# and cpperf-record's notice that says so.  The status layout that the
# runtime reads and writes in place (pmpi/status.c) is this MPI's.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

# same_transcript MPI NAME FILE: FILE's stdout is the plain run's
same_transcript() {
	if diff "$WORK/plain-$1" "$3" > "$WORK/diff"; then
		ok "$1: same transcript $2"
	else
		fail "$1: same transcript $2" "$(head -20 "$WORK/diff")"
	fi
}

for mpi in openmpi mpich; do
	if ! mpi_tools $mpi; then
		skip "$mpi: same transcript with and without cpperf-record" "$WHY"
		continue
	fi
	mpi_build sem-$mpi mpi-semantics.c
	# the statuses are read and written in place on both MPIs, as MPI would
	"$MPICC" -std=c17 -I"$TOP/pmpi" -o "$WORK/layout-$mpi" "$TOP/tests/progs/status-layout.c" \
		"$TOP/pmpi/status.c"
	is "$mpi: statuses read and written in place, as MPI does" \
		"$(mpi_run 1 "$WORK/layout-$mpi" | tr '\n' ' ')" "direct 1 mismatches 0 through MPI 0 "
	mpi_run 4 "$WORK/sem-$mpi" > "$WORK/plain-$mpi" 2>&1
	is "$mpi: transcript has every rank" "$(grep -c '^--- rank' "$WORK/plain-$mpi")" 4
	mpi_run 4 "$RECORD" -q -o "$WORK/e-$mpi" "$WORK/sem-$mpi" > "$WORK/rec-$mpi" 2>&1; st=$?
	is "$mpi: recorded run exits 0" "$st" 0
	same_transcript $mpi "with cpperf-record (piggyback)" "$WORK/rec-$mpi"
	mpi_run 4 "$RECORD" -q --no-piggyback -o "$WORK/n-$mpi" "$WORK/sem-$mpi" > "$WORK/nopb-$mpi" 2>&1
	same_transcript $mpi "with --no-piggyback" "$WORK/nopb-$mpi"
	CPPERF_PIGGYBACK_CHECK=1 mpi_run 4 "$RECORD" -q -o "$WORK/c-$mpi" "$WORK/sem-$mpi" \
		> "$WORK/chk-$mpi" 2> "$WORK/chk-err-$mpi"
	same_transcript $mpi "in piggyback check mode" "$WORK/chk-$mpi"
	is "$mpi: check: every rank received piggybacks, none mismatched" \
		"$(grep -cE 'rank [0-3] piggyback check: [1-9][0-9]* messages, [1-9][0-9]* collectives, 0 mismatches' \
			"$WORK/chk-err-$mpi")" 4
	is "$mpi: check: nothing else on stderr" "$(grep -vc 'piggyback check' "$WORK/chk-err-$mpi")" 0
	# statistics continue without the piggyback
	for e in e n; do
		report_json "$WORK/$e-$mpi"
		jq_vars "$WORK/report.json" ranks '.experiment.ranks' \
			irecv '[.mpi.callsites[] | select(.function == "MPI_Irecv") | .bytes_recv] | add' \
			send_init '[.mpi.callsites[] | select(.function == "MPI_Send_init") | .bytes_sent] | add'
		is "$mpi ($e): 4 profiles with MPI statistics" "$ranks" 4
		# Irecv bytes are counted when Waitany/Waitsome complete them: 3 x 4 bytes,
		# plus the Ssend test's 4 MiB on every rank and Rsend's 16 bytes, the
		# reordered receives' 1 + 4 + 5 + 6 ints, get_status's 3, the 3 ints of
		# the receive freed while active, the int received on a freed
		# communicator and the 6 ints of a vector whose datatype was freed
		# on the 2 odd ranks, 2 ranks x 4
		# threads x 1024 ints, the large messages' 2 ranks x 3 rounds x
		# 3000 + 2999 + ... + 2989 ints, and under MPICH the 4 ints of the
		# receive left pending by MPI_ERR_IN_STATUS (the truncated one failed)
		pending=0
		[ $mpi = mpich ] && pending=16
		is "$mpi ($e): non-blocking receives counted at completion" "$irecv" \
			$((12 + 4 * (4 << 20) + 4 * 16 + 64 + 12 + 2 * (12 + 4 + 24) + 2 * 4 * 1024 * 4 + 2 * 3 * 4 * (12 * 3000 - 66) + pending))
		# 3 starts of 2 ints, of 4000 ints on the 2 even ranks, and 2 starts
		# of a vector of 6 ints on the 2 even ranks
		is "$mpi ($e): persistent sends counted at each start" "$send_init" \
			$((24 + 2 * 3 * 4 * 4000 + 2 * 2 * 24))
	done
done

# use mpi_f08: the same transcript, every piggyback matched and the calls
# intercepted: under MPICH, whose module calls the functions without a
# buffer by their PMPI_ names, through the wrappers of its mpi_xxx_f08_
# (docs/mpi.md).
f08_transcript() { # MPI NAME OUT ARGS...: the sorted transcript of one run
	local mpi=$1 name=$2 out=$3; shift 3
	mpi_run 4 "$@" "$WORK/f08-$mpi" 2> "$WORK/$name-f08-$mpi.err" | sort > "$out"
}
for mpi in openmpi mpich; do
	if ! mpi_tools $mpi; then
		skip "$mpi: use mpi_f08, same transcript" "$WHY"
		continue
	elif [ -z "$MPIFC" ]; then
		skip "$mpi: use mpi_f08, same transcript" "no Fortran compiler wrapper for $mpi"
		continue
	elif ! mpi_build f08-$mpi mpi-semantics-f08.f90 2> "$WORK/f08-build-$mpi"; then
		skip "$mpi: use mpi_f08, same transcript" \
			"this $mpi builds no mpi_f08 program: $(head -1 "$WORK/f08-build-$mpi")"
		continue
	fi
	f=f08-$mpi
	f08_transcript $mpi plain "$WORK/plain-$f"
	is "$mpi: use mpi_f08: transcript has every rank" "$(grep -c ' --- rank' "$WORK/plain-$f")" 4
	is "$mpi: use mpi_f08: detach returns the attached buffer" \
		"$(grep -c 'bsend detach T 4000' "$WORK/plain-$f")" 4
	f08_transcript $mpi rec "$WORK/rec-$f" "$RECORD" -q -o "$WORK/e-$f"
	same_transcript $f "with cpperf-record (piggyback)" "$WORK/rec-$f"
	f08_transcript $mpi nopb "$WORK/nopb-$f" "$RECORD" -q --no-piggyback -o "$WORK/n-$f"
	same_transcript $f "with --no-piggyback" "$WORK/nopb-$f"
	CPPERF_PIGGYBACK_CHECK=1 f08_transcript $mpi chk "$WORK/chk-$f" "$RECORD" -q -o "$WORK/c-$f"
	same_transcript $f "in piggyback check mode" "$WORK/chk-$f"
	report_json "$WORK/e-$f"
	is "$mpi: use mpi_f08: check: 14 messages and a collective on every rank, none mismatched" \
		"$(grep -cE 'rank [0-3] piggyback check: 14 messages, 1 collectives, 0 mismatches' \
			"$WORK/chk-$f.err")" 4
	# calls per rank: is (exact) or atleast (a loop until completion)
	checks="is:Init:1 is:Isend:2 is:Waitall:2 is:Probe:1 is:Waitany:2 atleast:Testany:2
		atleast:Waitsome:1 atleast:Testsome:1 is:Bsend:1 is:Buffer_detach:1 is:Finalize:1"
	calls=()
	for c in $checks; do
		IFS=: read -r how fn n <<< "$c"
		calls+=("calls_$fn" "[.mpi.callsites[] | select(.function == \"MPI_$fn\") | .calls] | add // 0")
	done
	jq_vars "$WORK/report.json" "${calls[@]}"
	for c in $checks; do
		IFS=: read -r how fn n <<< "$c"
		v=calls_$fn
		$how "$mpi: use mpi_f08: MPI_$fn intercepted on every rank" "${!v}" $((4 * n))
	done
done
done_testing
