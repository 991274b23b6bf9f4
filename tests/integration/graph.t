#!/usr/bin/env bash
# graph.t - activity graphs and classes of ranks from recorded MPI runs
# (tests/progs/mpi-shapes.c; docs/graph.md) under Open MPI:
#  - a master (rank 0) and a 1-D stencil over ranks 1-15: classes 0, 1,
#    2-14, 15 (the master, the two ends of the chain, its inside);
#  - a master and 5 workers: classes 0 and 1-5;
# by their graphs' structure (--cluster-tol=50: on a host with more ranks
# than cores the ranks' MPI times scatter by more than the default 2 %,
# which splits classes further, never across these; checked too);
#  - the stencil's non-blocking requests as completion edges: from the
#    MPI_Irecv and MPI_Isend sites to the MPI_Waitall site, each request;
#  - 2 ranks computing a known CPU time in alpha() before an MPI_Barrier
#    and in beta() before an MPI_Allreduce: each computation edge's
#    samples are those of its function in the rank's flat profile (within
#    3 % and 3 samples: the loop around the calls is sampled too),
#    and its most sampled call path goes through that function;
#  - --format=graphml is well-formed (xmllint), valid against the GraphML
#    schema when CPPERF_GRAPHML_XSD names graphml.xsd (it is not packaged:
#    skipped otherwise), and networkx reads the same nodes as the JSON's
#    collapsed graph.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

if ! mpi_tools openmpi; then
	skip "activity graphs" "$WHY"
	done_testing
	exit
fi
if ! command -v jq > /dev/null; then
	skip "activity graphs" "jq is not installed"
	done_testing
	exit
fi
mpi_build shapes mpi-shapes.c
cd "$WORK" || exit 1

# classes: the clusters' rank sets, space-separated
classes() { jqr '[.clusters[].ranks] | join(" ")'; }

# refines COARSE FINE: every class of FINE lies in one of COARSE (rank
# sets in range notation, space-separated)
refines() {
	python3 - "$1" "$2" << 'EOF'
import sys

def ranks(s):
    out = set()
    for part in s.split(','):
        a, _, b = part.partition('-')
        out.update(range(int(a), int(b or a) + 1))
    return out

coarse = [ranks(c) for c in sys.argv[1].split()]
fine = [ranks(c) for c in sys.argv[2].split()]
sys.exit(0 if all(any(f <= c for c in coarse) for f in fine) else 1)
EOF
}

mpi_run 16 "$RECORD" -q -o "$WORK/stencil" ./shapes stencil 100 > /dev/null 2> stencil.err
is "stencil: runs" "$?:$(head -c 300 stencil.err)" "0:"
report_json "$WORK/stencil" --cluster-tol=50
is "stencil: classes 0, 1, 2-14, 15" "$(classes)" "0 1 2-14 15"
is "stencil: representatives" "$(jqr '[.clusters[].representative] | join(" ")')" "0 1 2 15"
is "stencil: sizes" "$(jqr '[.clusters[].size] | join(" ")')" "1 1 13 1"
coarse=$(classes)
report_json "$WORK/stencil"
fine=$(classes)
check "stencil: the default tolerance only splits those classes ($fine)" refines "$coarse" "$fine"

# done_edges CLASS FUNCTION: the completion edges of CLASS from FUNCTION's sites,
# as "COUNT->TO_FUNCTION" sorted
done_edges() {
	jqr "([.mpi.callsites[] | {key: (.id | tostring), value: .function}] | from_entries) as \$fn |
		[.graph.classes[$1].edges[] | select(.kind == \"completion\" and
		\$fn[.from | tostring] == \"$2\") | \"\(.count)->\(\$fn[.to | tostring])\"] | sort | join(\" \")"
}
report_json "$WORK/stencil" --cluster-tol=50
is "stencil: rank 1 completes its Irecv of each step in its Waitall" \
	"$(done_edges 1 MPI_Irecv)" "100->MPI_Waitall"
is "stencil: and its Isend" "$(done_edges 1 MPI_Isend)" "100->MPI_Waitall"
is "stencil: the inside ranks, both Irecv calls of each step (one call path: one site)" \
	"$(done_edges 2 MPI_Irecv)" "200->MPI_Waitall"
# Open MPI completes a small MPI_Isend at once and hands out one shared
# request for it: the two sends of a step may be one request to complete
isends=$(done_edges 2 MPI_Isend)
check "stencil: and their Isend calls, one or two a step ($isends)" \
	test "$isends" = "200->MPI_Waitall" -o "$isends" = "100->MPI_Waitall"
# a Waitall that completes two receives counts each message's pair of
# sites: rank 2 (class 2's representative) hears rank 1 and rank 3 a step,
# and class 2's edge to itself holds rank 3's messages from rank 2 too
is "stencil: rank 2's Waitall hears a message a step from each neighbour's send site" \
	"$(jqr "([.mpi.callsites[] | {key: (.id | tostring), value: .function}] | from_entries) as \$fn |
		[.graph.classes[2].messages[] | select(.recv_class == 2 and
		\$fn[.recv_site | tostring] == \"MPI_Waitall\") | \"\\(.send_class):\\(.count)\"] | sort | join(\" \")")" \
	"1:100 2:200"
is "stencil: the master has none" "$(jqr '[.graph.classes[0].edges[] | select(.kind == "completion")] | length')" 0

mpi_run 2 "$RECORD" -q -o "$WORK/phases" ./shapes phases 40 > /dev/null 2> phases.err
is "phases: runs" "$?:$(head -c 300 phases.err)" "0:"
for r in 0 1; do
	rm -rf "$WORK/one" && mkdir "$WORK/one" && cp "$WORK/phases"/rank0000"$r".* "$WORK/one"/
	report_json "$WORK/one"
	for f in alpha:MPI_Barrier beta:MPI_Allreduce; do
		fn=${f%%:*} to=${f#*:}
		flat=$(jqr "[.flat[] | select(.function == \"$fn\") | .total[]] | add")
		edges=$(jqr "[.mpi.callsites[] | select(.function == \"$to\") | .id] as \$to |
			[.graph.classes[0].edges[] | select(.kind == \"computation\" and
			(.to as \$t | \$to | index(\$t))) | .samples] | add")
		top=$(jqr "[.mpi.callsites[] | select(.function == \"$to\") | .id] as \$to |
			[.graph.classes[0].edges[] | select(.kind == \"computation\" and
			(.to as \$t | \$to | index(\$t)))] | max_by(.samples) | .paths[0] |
			[.callpath[].function] | index(\"$fn\") != null")
		within "rank $r: the computations before $to hold $fn's samples ($edges of $flat)" \
			"$edges" "$flat" "$(awk -v f="$flat" 'BEGIN { print f * 0.03 + 3 }')"
		is "rank $r: the most sampled path before $to goes through $fn" "$top" true
	done
done

mpi_run 6 "$RECORD" -q -o "$WORK/workers" ./shapes workers 50 > /dev/null 2> workers.err
is "master/worker: runs" "$?:$(head -c 300 workers.err)" "0:"
report_json "$WORK/workers" --cluster-tol=50
is "master/worker: classes 0 and 1-5" "$(classes)" "0 1-5"
is "master/worker: the master's messages come from class 1's sends" \
	"$(jqr '[.graph.classes[0].messages[] | select(.recv_class == 0) | .send_class] | unique | join(" ")')" 1

"$CPPERF" report "$WORK/stencil" --cluster-tol=50 --format=graphml -o "$WORK/g.graphml"
report_json "$WORK/stencil" --cluster-tol=50
nodes=$(jqr '[.graph.classes[].nodes | length] | add')
if command -v xmllint > /dev/null; then
	check "graphml: well-formed" xmllint --noout "$WORK/g.graphml"
	if [ -r "${CPPERF_GRAPHML_XSD:-}" ]; then
		check "graphml: valid against the GraphML schema" \
			xmllint --noout --schema "$CPPERF_GRAPHML_XSD" "$WORK/g.graphml"
	else
		skip "graphml: valid against the GraphML schema" \
			"no schema (set CPPERF_GRAPHML_XSD to graphml.xsd; no Debian package ships it)"
	fi
else
	skip "graphml: well-formed" "xmllint is not installed"
fi
if python3 -c 'import networkx' 2> /dev/null; then
	is "graphml: networkx reads a node per (class, site), as the JSON" \
		"$(python3 -c 'import sys, networkx; print(networkx.read_graphml(sys.argv[1]).number_of_nodes())' \
			"$WORK/g.graphml")" "$nodes"
else
	skip "graphml: networkx reads it" "python3-networkx is not installed"
fi
done_testing
