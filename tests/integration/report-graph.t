#!/usr/bin/env bash
# report-graph.t - `cpperf report` on the activity graphs of 16 ranks, a
# master and a 1-D stencil of workers, written by test-graph --write-data
# (no MPI needed): --view=graph, JSON "clusters" and "graph", --format=graphml
# read back by python3's xml.etree, --cluster-tol and its refusals, and
# the experiment without graphs.
. "$(dirname "$0")/../lib.sh"

WRITER=$TOP/build/test/test-graph
if [ ! -x "$WRITER" ]; then
	echo "1..0 # skip $WRITER not built (make build/test/test-graph)"
	exit 0
fi
EXP=$WORK/exp
mkdir -p "$EXP"
check "16 ranks written" "$WRITER" --write-data "$EXP"

"$CPPERF" report "$EXP" --view=graph > "$WORK/out" 2> "$WORK/err"
is "--view=graph runs" "$?" 0
grep -q '^# activity graphs: 16 ranks in 4 classes' "$WORK/out" &&
	ok "--view=graph: 16 ranks, 4 classes" || fail "--view=graph: 16 ranks, 4 classes"
is "--view=graph: the classes' ranks" "$(awk '/^# classes/ { on = 1; next } on && /^#/ { if (n) exit; next } on { n++; print $4 }' "$WORK/out" | paste -sd' ')" \
	"0 1 2-14 15"

report_json "$EXP"
is "JSON clusters" "$(jqr '[.clusters[] | "\(.ranks)/\(.representative)/\(.size)"] | join(" ")')" \
	"0/0/1 1/1/1 2-14/2/13 15/15/1"
is "JSON graph: a class per cluster" "$(jqr '.graph.classes | length')" 4
is "JSON graph: its sites are the MPI view's" \
	"$(jqr '[.graph.classes[2].nodes[].site as $s | .mpi.callsites[] | select(.id == $s) | .callpath[-1].function] | sort | join(" ")')" \
	"get_work halo halo put_result"
is "JSON graph: the inside class receives from the master's class" \
	"$(jqr '[.graph.classes[2].messages[] | select(.send_class == 0) | .count] | add')" 1

"$CPPERF" report "$EXP" --format=graphml > "$WORK/g.graphml" 2> "$WORK/err"
is "--format=graphml runs" "$?" 0
got=$(python3 - "$WORK/g.graphml" <<'EOF'
import sys
import xml.etree.ElementTree as ET
ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
root = ET.parse(sys.argv[1]).getroot()
keys = {k.get("id") for k in root.findall("g:key", ns)}
nodes = root.findall("g:graph/g:node", ns)
edges = root.findall("g:graph/g:edge", ns)
ids = {n.get("id") for n in nodes}
used = {d.get("key") for e in nodes + edges for d in e.findall("g:data", ns)}
kinds = sorted({d.text for e in edges for d in e.findall("g:data", ns) if d.get("key") == "kind"})
print(len(nodes), len(edges), all(e.get("source") in ids and e.get("target") in ids for e in edges),
      used <= keys, root.find("g:graph", ns).get("edgedefault"), ",".join(kinds))
EOF
)
is "GraphML parses: nodes, edges joining them, every data key declared, directed, both kinds" \
	"$got" "14 27 True True directed computation,message"

"$CPPERF" report "$EXP" --format=json --cluster-tol=0 > "$WORK/report.json" 2> "$WORK/err"
is "--cluster-tol=0 runs" "$?" 0
is "--cluster-tol=0: equal times still share a class" "$(jqr '.clusters | length')" 4
is "--cluster-tol=0: said in the graph" "$(jqr '.graph.tolerance_pct')" 0
"$CPPERF" report "$EXP" --cluster-tol=abc > "$WORK/out" 2> "$WORK/err"
is "--cluster-tol=abc refused" "$?" 2
grep -qF -- "--cluster-tol: 'abc' is not a percentage; allowed: a number from 0 to 100" "$WORK/err" &&
	ok "--cluster-tol=abc: the message" || fail "--cluster-tol=abc: the message" "$(cat "$WORK/err")"

"$CPPERF" report "$TOP/tests/data/report-mpi" --view=graph > "$WORK/out" 2> "$WORK/err"
is "--view=graph without graphs fails" "$?" 1
grep -qF "no activity graph in this experiment" "$WORK/err" &&
	ok "--view=graph without graphs: the reason" || fail "--view=graph without graphs: the reason" "$(cat "$WORK/err")"
report_json "$TOP/tests/data/report-mpi"
is "JSON without graphs has no clusters" "$(jqr 'has("clusters")')" false

done_testing
