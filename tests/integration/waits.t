#!/usr/bin/env bash
# waits.t - wait states of known size (tests/progs/mpi-waits.c;
# docs/waits.md) on 4 ranks under Open MPI: each phase makes one rank
# late (by 20 to 50 ms, 40 or 50 times), the program notes when every rank
# called each MPI function and prints each rank's wait by the definitions
# ("PHASE rank R wait S"), and the report must find that wait, within 5 %,
# at the right call site on the right ranks (a rank's own figures: its
# profile reported alone), and none where there is none:
#  - Late Sender at the receive of rank 1 (ls01) and of rank 0 (ls10); the
#    receive's blocked time is its Late Sender and transmission;
#  - Late Receiver at rank 0's MPI_Ssend (lr), found by the receiver;
#  - Wait at NxN (MPI_Allreduce), Wait at Barrier on ranks 0-2 and (almost)
#    none on the late rank 3; Late Broadcast on ranks 1-3 and none on the
#    root; Early Reduce on the root;
#  - the same with every rank's clock skewed by 7 ms a rank (a test-only
#    setting: the offsets measured at MPI_Init must undo it);
#  - with CPPERF_INJECT_MPI_NS dilating the late sender's calls, the
#    measured Late Sender grows and the compensated one stays within 5 %
#    of the uninjected run's;
#  - --no-waits: no wait states in the report.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

if ! mpi_tools openmpi; then
	skip "wait states" "$WHY"
	done_testing
	exit
fi
if ! command -v jq > /dev/null; then
	skip "wait states" "jq is not installed"
	done_testing
	exit
fi
mpi_build waits mpi-waits.c
PHASES="ls01 ls10 lr nxn barrier bcast reduce"

# ref OUT PHASE RANK: the wait the program measured
ref() { awk -v p="$2" -v r="$3" '$1 == p && $3 == r { print $5 }' "$1"; }

# wait_state KIND FUNCTION PHASE: the jq filter of the wait state of the
# site of FUNCTION called from PHASE's function (for jq_vars)
wait_state() {
	echo "[.waits.sites[] | select(.function == \"$2\" and ([.callpath[].function] | index(\"$3\")))
		| .$1] | add // 0"
}

# rank_report DIR RANK: RANK's profile alone into $WORK/report.json
rank_report() {
	rm -rf "$WORK/one" && mkdir "$WORK/one" && cp "$1"/rank0000"$2".* "$WORK/one"/ &&
		report_json "$WORK/one"
}

# close NAME GOT WANT: within 5 % of WANT, or 10 ms of a wait near 0
close() { within "$1" "$2" "$3" "$(awk -v w="$3" 'BEGIN { t = w * 0.05; print (t > 0.01 ? t : 0.01) }')"; }

# check_run LABEL DIR OUT: the wait states of a run of every phase
check_run() {
	local l=$1 dir=$2 out=$3 r want ranks lr ls ls_tr blocked ls10 ls01 er nxn barrier bcast
	report_json "$dir"
	jq_vars "$WORK/report.json" ranks '"\(.experiment.ranks) \(.experiment.ranks_missing | length)"' \
		lr "$(wait_state late_receiver MPI_Ssend lr)"
	is "$l: four ranks, none missing" "$ranks" "4 0"
	close "$l: Late Receiver at rank 0's MPI_Ssend" "$lr" "$(ref "$out" lr 0)"
	rank_report "$dir" 1
	jq_vars "$WORK/report.json" ls "$(wait_state late_sender MPI_Recv ls01)" \
		ls_tr '[.waits.sites[] | select(.function == "MPI_Recv" and ([.callpath[].function] | index("ls01")))
			| .late_sender + .transmission] | add' \
		blocked '[.mpi.callsites[] | select(.function == "MPI_Recv" and ([.callpath[].function] | index("ls01")))
			| .blocked] | add'
	close "$l: Late Sender at rank 1's receive" "$ls" "$(ref "$out" ls01 1)"
	within "$l: ... its Late Sender and transmission are its blocked time" "$ls_tr" "$blocked" 0.001
	rank_report "$dir" 0
	jq_vars "$WORK/report.json" ls10 "$(wait_state late_sender MPI_Recv ls10)" \
		ls01 "$(wait_state late_sender MPI_Recv ls01)" er "$(wait_state early_reduce MPI_Reduce reduce)"
	close "$l: Late Sender at rank 0's receive, roles swapped" "$ls10" "$(ref "$out" ls10 0)"
	atmost "$l: no Late Sender at rank 0's receive of ls01's messages" "$ls01" 0
	close "$l: Early Reduce on the root" "$er" "$(ref "$out" reduce 0)"
	for r in 0 1 2 3; do
		rank_report "$dir" $r
		jq_vars "$WORK/report.json" nxn "$(wait_state wait_nxn MPI_Allreduce nxn)" \
			barrier "$(wait_state wait_barrier MPI_Barrier barrier)" \
			bcast "$(wait_state late_broadcast MPI_Bcast bcast)" er "$(wait_state early_reduce MPI_Reduce reduce)"
		close "$l: rank $r: Wait at NxN" "$nxn" "$(ref "$out" nxn $r)"
		close "$l: rank $r: Wait at Barrier" "$barrier" "$(ref "$out" barrier $r)"
		close "$l: rank $r: Late Broadcast" "$bcast" "$(ref "$out" bcast $r)"
		[ $r -gt 0 ] &&
			atmost "$l: rank $r: no Early Reduce off the root" "$er" 0
	done
}

cd "$WORK" || exit 1
mpi_run 4 "$RECORD" -q -o "$WORK/plain" ./waits $PHASES > plain.out 2> plain.err
is "the program ran every phase on every rank" "$(wc -l < plain.out)" 28
check_run "one clock" "$WORK/plain" plain.out

mpi_run 4 env CPPERF_TEST_CLOCK_SKEW_NS=7000000 "$RECORD" -q -o "$WORK/skew" ./waits $PHASES \
	> skew.out 2> skew.err
check_run "clocks 7 ms apart a rank" "$WORK/skew" skew.out

# one late sender, injected or not: rank 1's compensated Late Sender
mpi_run 2 "$RECORD" -q -o "$WORK/ls" ./waits ls01 > ls.out 2> /dev/null
rank_report "$WORK/ls" 1
jq_vars "$WORK/report.json" ls_plain "$(wait_state late_sender MPI_Recv ls01)"
mpi_run 1 env CPPERF_INJECT_MPI_NS=10000000 "$RECORD" -q -o "$WORK/inj" ./waits ls01 : \
	-np 1 "$RECORD" -q -o "$WORK/inj" ./waits ls01 > inj.out 2> /dev/null
rank_report "$WORK/inj" 1
jq_vars "$WORK/report.json" ls "$(wait_state late_sender MPI_Recv ls01)" \
	ls_comp "$(wait_state late_sender_comp MPI_Recv ls01)"
atleast "injected 10 ms a call on the sender: the measured Late Sender grew by 0.3 s at least" \
	"$ls" "$(awk -v p="$ls_plain" 'BEGIN { print p + 0.3 }')"
# the two runs are comparable where the program saw the same wait in both:
# on a busy host a rank switched out before its send makes it later
if awk -v a="$(ref ls.out ls01 1)" -v b="$(ref inj.out ls01 1)" \
	'BEGIN { d = a - b; exit !(a != "" && b != "" && (d < 0 ? -d : d) <= a * 0.025) }'; then
	close "... the compensated one is the uninjected run's" "$ls_comp" "$ls_plain"
else
	skip "... the compensated one is the uninjected run's" \
		"host too busy: the program saw $(ref ls.out ls01 1) s of wait uninjected, $(ref inj.out ls01 1) s injected"
fi
close "... and the wait the program saw" "$ls_comp" "$(ref inj.out ls01 1)"

mpi_run 2 "$RECORD" -q --no-waits -o "$WORK/off" ./waits ls01 > /dev/null 2>&1
report_json "$WORK/off"
is "--no-waits: no wait states in the report" "$(jqr '.waits // "none"')" none
done_testing
