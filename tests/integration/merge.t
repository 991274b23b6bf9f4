#!/usr/bin/env bash
# merge.t - --merge=mpi: the ranks reduce their profiles at MPI_Finalize
# into merged.cpprof, and `cpperf report` reads it.  The merged report
# must equal the report of the ranks' own files in everything but the
# critical path (functions, counts, call sites, ranks, matrix, and the
# spreads over ranks of every node and call site); --no-rank-files leaves
# the merged file alone; a rank killed before MPI_Finalize, or one that
# reaches it late, costs the others a bounded wait and the report names
# what is missing.  Open MPI and MPICH, each where installed.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

# The report of $1 as JSON without the critical path (which the merged
# profile leaves to the ranks' files) and the activity graphs' classes
# (a merged profile keeps no rank's own call-site times: its classes rest
# on the computation edges' times alone, docs/graph.md), keys sorted.
report_sans_cp() { "$CPPERF" report "$@" --format=json | jq -S 'del(.critical_path, .experiment.merged, .graph, .clusters)'; }

# The call-path trees of the ranks on the page of $1 ($2...: options), as
# each rank's sorted list of nodes (path of functions, counts), so that
# siblings of equal weight may come in either order.
page_trees() {
	"$CPPERF" report "$@" --format=html -o "$WORK/page.html" &&
	perl -0777 -ne 'print $1 if m{<script type="application/json" id="cpperf-data">(.*?)</script>}s' \
		"$WORK/page.html" |
	jq -S 'def nodes(up): . as $n | (up + ["\($n.function)@\($n.module)"]) as $at
		| ({at: $at} + ($n | del(.children))), ($n.children[]? | nodes($at));
		[.rank_trees[] | {rank, nodes: ([.callpath | nodes([])] | sort_by(tostring))}]'
}

for mpi in openmpi mpich; do
	if ! mpi_tools $mpi; then
		skip "$mpi: merging at MPI_Finalize" "$WHY"
		continue
	fi
	"$MPICC" -std=gnu17 -O1 -g -o "$WORK/demo-$mpi" "$TOP/contrib/demo-mpi.c"
	mpi_build end-$mpi mpi-end.c
	D=$WORK/merge-$mpi
	mpi_run 8 "$RECORD" --merge=mpi -o "$D" "$WORK/demo-$mpi" 300 > /dev/null 2> "$WORK/err"
	check "$mpi: rank 0 says the ranks were merged" grep -q "merged.cpprof: 8 ranks merged at MPI_Finalize" "$WORK/err"
	is "$mpi: a merged profile and 8 ranks' files" "$(ls "$D" | grep -c '\.cpprof$')" 9
	report_sans_cp "$D" > "$WORK/merged.json"
	report_sans_cp "$D" --rank-files > "$WORK/ranks.json"
	# the call-path nodes' spreads (per event: the host's default), not the
	# flat functions' (plain numbers)
	jq_vars "$WORK/merged.json" processes '.experiment.processes' \
		spreads '.experiment.events[0].name as $ev | [.callpath | .. | objects
			| select((.ranks.max? | type) == "object") | .ranks | select(.max[$ev] > .min[$ev])] | length' \
		relax '.experiment.events[0].name as $ev | [.callpath | .. | objects | select(.function? == "relax")
			| .ranks.max_rank[$ev]] | map(. >= 0 and . < 8) | all' \
		sendrecv '[.mpi.callsites[] | select(.function == "MPI_Sendrecv") | .time_ranks
			| .min <= .mean and .mean <= .max] | all'
	is "$mpi: the merged report reads 8 ranks" "$processes" 8
	check "$mpi: merged report = the ranks' files' report (but the critical path)" \
		cmp -s "$WORK/merged.json" "$WORK/ranks.json"
	atleast "$mpi: nodes whose samples differ between ranks have a spread" "$spreads" 3
	is "$mpi: relax's spread: the rank of its max is a rank" "$relax" true
	page_trees "$D" > "$WORK/merged-trees.json"
	page_trees "$D" --rank-files > "$WORK/ranks-trees.json"
	is "$mpi: the merged profile's page has the 8 ranks' own trees" \
		"$(jq -c 'map(.rank)' "$WORK/merged-trees.json")" "[0,1,2,3,4,5,6,7]"
	check "$mpi: each the same as from the rank's own file" \
		cmp -s "$WORK/merged-trees.json" "$WORK/ranks-trees.json"
	is "$mpi: MPI_Sendrecv's time over the ranks: min <= mean <= max" "$sendrecv" true
	"$CPPERF" report "$D" --format=json > "$WORK/report.json"
	is "$mpi: the merged report says where the critical path is" \
		"$(jqr '.critical_path.unavailable | test("--rank-files")')" true
	check "$mpi: --rank-files walks the critical path" \
		sh -c "'$CPPERF' report '$D' --rank-files --view=cp > /dev/null"

	D=$WORK/only-$mpi
	mpi_run 4 "$RECORD" -q --merge=mpi --no-rank-files -o "$D" "$WORK/demo-$mpi" 100 > /dev/null 2>&1
	is "$mpi: --no-rank-files: the merged profile alone" "$(cd "$D" && ls -- *.cpprof)" merged.cpprof
	report_json "$D"
	is "$mpi: --no-rank-files: its report has the 4 ranks" "$(jqr '"\(.experiment.processes) \(.ranks | length)"')" "4 4"

	# a rank dies where it would call MPI_Finalize: the others end in
	# bounded time (the launcher, or the merge's 5 s timeout) and keep their
	# files; the bound leaves a loaded host time to start and stop 4 ranks
	D=$WORK/kill-$mpi
	t0=$(date +%s.%N)
	mpi_run 4 "$RECORD" -q --merge=mpi -o "$D" "$WORK/end-$mpi" 1 1 kill 0 > /dev/null 2>&1
	atmost "$mpi: a rank killed before MPI_Finalize: the job ends (s)" \
		"$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" 20
	check "$mpi: a rank killed: no merged profile" test ! -e "$D/merged.cpprof"
	report_json "$D"
	# (MPICH's launcher SIGKILLs the others too: they may be named beside it)
	is "$mpi: a rank killed: the report names it" \
		"$(jqr '[.experiment.ranks_missing[], (.experiment.partial[] | select(.reason == "checkpoint") | .rank)] | index(1) != null')" true

	# a rank late to MPI_Finalize by more than the timeout: the merge is
	# given up, every rank's file is whole
	D=$WORK/late-$mpi
	mpi_run 4 "$RECORD" --merge=mpi --merge-timeout=1 -o "$D" "$WORK/end-$mpi" 1 2 late 3 > /dev/null 2> "$WORK/err"
	check "$mpi: a late rank: the others say they gave up" grep -q "not every rank reached MPI_Finalize within 1.0 s" "$WORK/err"
	check "$mpi: a late rank: no merged profile" test ! -e "$D/merged.cpprof"
	report_json "$D"
	is "$mpi: a late rank: 4 whole profiles" "$(jqr '"\(.experiment.processes) \(.experiment.partial | length)"')" "4 0"
	# merged after the run instead: the same report
	report_sans_cp "$D" > "$WORK/ranks.json"
	check "$mpi: cpperf merge after the run" sh -c "'$CPPERF' merge '$D' > '$WORK/out'"
	is "$mpi: cpperf merge says what it wrote" "$(cat "$WORK/out")" "$D/merged.cpprof: 4 ranks merged"
	report_sans_cp "$D" > "$WORK/merged.json"
	check "$mpi: its report = the ranks' files' report" cmp -s "$WORK/merged.json" "$WORK/ranks.json"
	"$CPPERF" merge "$WORK/kill-$mpi" > /dev/null 2> "$WORK/err"
	is "$mpi: cpperf merge refuses a partial profile, named" \
		"$(grep -c "/rank0000[0-3][^ ]*cpprof: a partial profile; only whole MPI ranks' profiles are merged" "$WORK/err")" 1
done

"$RECORD" --merge=all true > /dev/null 2> "$WORK/err"
check "a bad --merge is refused, named" grep -q -- "--merge: 'all' is not one of none, mpi" "$WORK/err"
done_testing
