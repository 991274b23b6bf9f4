#!/usr/bin/env bash
# formats.t - the report in the formats other tools read (and the text
# header's findings), checked against
# the JSON report of the same run (the MPI demo, 2 ranks) and by the
# tools' own readers where this host has them:
#  - speedscope: a profile per event of the merged tree, then one per rank,
#    whose weights sum to the JSON's totals; valid against the schema of
#    speedscope's npm package (python3-jsonschema), and imported by
#    speedscope's own page in headless Chromium (tests/browser/check-speedscope.py);
#  - pprof: gzipped profile.proto, whose top function and total
#    `go tool pprof -top` reads as the JSON's;
#  - hatchet: Hatchet's literal tree, as GraphFrame.from_literal reads it
#    (no Debian package has Hatchet: its documented shape is checked), with
#    every event's self and inclusive counts consistent over the tree and
#    equal to the JSON's at the root, the critical path's samples and the
#    MPI time per call path.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

if ! mpi_tools openmpi || ! command -v jq > /dev/null; then
	skip "the report's formats" "${WHY:-jq is not installed}"
	done_testing
	exit
fi
"$MPICC" -O1 -g -o "$WORK/demo" "$TOP/contrib/demo-mpi.c"
mpi_run 2 "$RECORD" -q -o "$WORK/exp" "$WORK/demo" 300 > "$WORK/out" 2> "$WORK/err"
is "the demo runs" "$?:$(head -c 300 "$WORK/err")" "0:"
report_json "$WORK/exp"
events=$(jqr '[.experiment.events[].name] | join(" ")')

# --- the text header's findings, as the JSON's numbers give them
"$CPPERF" report "$WORK/exp" > "$WORK/text"
is "text: the findings name the rank that computes most" \
	"$(sed -n 's/^# findings: rank \([0-9]*\) computes most.*/\1/p' "$WORK/text")" \
	"$(jqr '.ranks | max_by(.wall - .mpi_time) | .rank')"
is "text: ... and the costliest MPI call but set-up" \
	"$(sed -n 's/^#   costliest MPI call: \([A-Za-z_]*\) from \([^ ]*\) .*/\1 \2/p' "$WORK/text")" \
	"$(jqr '[.mpi.callsites[] | select(.function | IN("MPI_Init", "MPI_Init_thread", "MPI_Finalize") | not)]
		| max_by(.time) | "\(.function) \(.callpath[-1].function)"')"

# --- speedscope
"$CPPERF" report "$WORK/exp" --format=speedscope -o "$WORK/ss.json" 2> "$WORK/err"
is "speedscope: written" "$?:$(head -c 300 "$WORK/err")" "0:"
is "speedscope: a profile per event of all ranks, then one per rank" \
	"$(jq -c '[.profiles[].name]' "$WORK/ss.json")" \
	"$(jq -c '[.experiment.events[].name as $e | "all ranks: \($e)"] +
		[.ranks[].rank as $r | "rank \($r): \(.experiment.events[0].name)"]' "$WORK/report.json")"
is "speedscope: each merged profile's weights are the JSON's total samples of its event" \
	"$(jq -c '[.profiles[] | select(.name | startswith("all ranks")) | (.weights | add), .endValue]' "$WORK/ss.json")" \
	"$(jq -c '[.experiment.events[].name as $e | .callpath.total[$e], .callpath.total[$e]]' "$WORK/report.json")"
is "speedscope: the ranks' profiles hold all samples of the first event" \
	"$(jq '[.profiles[] | select(.name | startswith("rank")) | .weights | add] | add' "$WORK/ss.json")" \
	"$(jqr ".callpath.total[\"${events%% *}\"]")"
is "speedscope: every sample a stack of known frames, a weight each" \
	"$(jq '(.shared.frames | length) as $n | [.profiles[] | (.samples | length) == (.weights | length)
		and all(.samples[][]; . >= 0 and . < $n) and all(.samples[]; length > 0)] | all' "$WORK/ss.json")" true
top=$(jqr '.flat[0].function')
is "speedscope: the top function's self samples are the JSON's ($top)" \
	"$(jq --arg f "$top" '(.shared.frames | map(.name == $f)) as $is | .profiles[0] as $p
		| [range($p.samples | length) | select($is[$p.samples[.][-1]]) | $p.weights[.]] | add' "$WORK/ss.json")" \
	"$(jqr ".flat[0].self[\"${events%% *}\"]")"
schema=$TOP/build/npm/node_modules/speedscope/dist/release/file-format-schema.json
if [ ! -r "$schema" ]; then
	skip "speedscope: valid against speedscope's schema" "no speedscope npm package in build/npm (contrib/install-deps.sh)"
elif ! /usr/bin/python3 -c 'import jsonschema' 2> /dev/null; then
	skip "speedscope: valid against speedscope's schema" "python3-jsonschema is not installed"
else
	is "speedscope: valid against speedscope's schema" \
		"$(/usr/bin/python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
print("valid")' "$WORK/ss.json" "$schema" 2>&1 | tail -1)" valid
fi
index=$TOP/build/npm/node_modules/speedscope/dist/release/index.html
if [ ! -r "$index" ]; then
	skip "speedscope: its own page imports the file" "no speedscope npm package in build/npm (contrib/install-deps.sh)"
elif [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ] || [ ! -x "${CHROMEDRIVER:-/usr/bin/chromedriver}" ]; then
	skip "speedscope: its own page imports the file" "no Chromium or ChromeDriver (contrib/install-deps.sh installs them)"
else
	/usr/bin/python3 "$TOP/tests/browser/check-speedscope.py" "$index" "$WORK/ss.json" $((_n + 1)) \
		> "$WORK/browser.tap"
	browser_tap "speedscope: its own page imports the file" "$WORK/browser.tap" $?
fi

# --- pprof: go tool pprof -top's first row is the JSON's top function
"$CPPERF" report "$WORK/exp" --format=pprof -o "$WORK/prof.pb.gz" 2> "$WORK/err"
is "pprof: written, gzipped" "$?:$(head -c 300 "$WORK/err"):$(od -An -tx1 -N2 "$WORK/prof.pb.gz" | tr -d ' ')" "0::1f8b"
if ! command -v go > /dev/null; then
	skip "pprof: go tool pprof reads it" "no Go toolchain (apt-get install golang-go)"
else
	HOME=$WORK GOCACHE=$WORK/go-cache GOFLAGS= timeout 120 go tool pprof -top -nodecount=3 \
		"$WORK/prof.pb.gz" > "$WORK/pprof.txt" 2> "$WORK/pprof.err"
	is "pprof: go tool pprof -top reads it: its type, total and top function are the JSON's" \
		"$(awk '/^Type:/ { t = $2 } /^Showing nodes/ { n = $(NF - 1) } /^ *flat  flat%/ { getline; print t, n, $1, $NF; exit }' "$WORK/pprof.txt")" \
		"${events%% *} $(jqr ".callpath.total[\"${events%% *}\"]") $(jqr ".flat[0].self[\"${events%% *}\"]") $top"
fi

# --- hatchet
"$CPPERF" report "$WORK/exp" --format=hatchet -o "$WORK/hatchet.json" 2> "$WORK/err"
is "hatchet: written" "$?:$(head -c 300 "$WORK/err")" "0:"
/usr/bin/python3 - "$WORK/hatchet.json" "$WORK/report.json" > "$WORK/hatchet.check" 2>&1 <<'PY'
import json, sys
roots, rep = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
events = [e["name"] for e in rep["experiment"]["events"]]
bad, nodes = [], 0
def walk(node):
    """from_literal's shape, and each event's inclusive count its own plus its children's"""
    global nodes
    nodes += 1
    f, m, kids = node.get("frame", {}), node.get("metrics", {}), node.get("children")
    if not isinstance(f.get("name"), str) or f.get("type") != "function" or not isinstance(kids, list):
        bad.append(f"shape: {str(node)[:120]}")
        return
    if set(m) != keys:
        bad.append(f"{f['name']}: metrics {sorted(m)}")
    for k in kids:
        walk(k)
    for inc in [k for k in keys if k.endswith(" (inc)") and not k.startswith("MPI")]:
        want = m[inc[:-6]] + sum(k["metrics"][inc] for k in kids)
        if abs(m[inc] - want) > 1e-9 * max(1, want):
            bad.append(f"{f['name']}: {inc} {m[inc]} != self + children {want}")
keys = set(roots[0]["metrics"]) if len(roots) == 1 else set()
walk(roots[0])
root = roots[0]["metrics"]
cp = f"{events[0]} on the critical path"
print("one root:", len(roots) == 1 and roots[0]["frame"]["name"] == "<root>")
print("shape and sums:", not bad, *bad[:5])
print("root totals:", [root[f"{e} (inc)"] for e in events] == [rep["callpath"]["total"][e] for e in events])
print("critical path:", (cp + " (inc)") in root and
      abs(root[cp + " (inc)"] - rep["critical_path"]["callpath"]["total"][events[0]]) < 1e-9)
mpi = sum(s["time"] for s in rep["mpi"]["callsites"])
# the literal's numbers have six significant digits
print("mpi time:", 0 < root["MPI time (s) (inc)"] <= mpi * (1 + 1e-5), root["MPI time (s) (inc)"], mpi)
print("nodes:", nodes)
PY
grep -q '^nodes:' "$WORK/hatchet.check" || fail "hatchet: the check ran" "$(head -c 500 "$WORK/hatchet.check")"
is "hatchet: one tree, under <root>" "$(sed -n 's/^one root: //p' "$WORK/hatchet.check")" True
is "hatchet: every node in from_literal's shape, with the same metrics, each event's inclusive count its own plus its children's" \
	"$(sed -n 's/^shape and sums: //p' "$WORK/hatchet.check")" True
is "hatchet: the root's inclusive counts are the JSON's totals" "$(sed -n 's/^root totals: //p' "$WORK/hatchet.check")" True
is "hatchet: the critical path's samples, the JSON's" "$(sed -n 's/^critical path: //p' "$WORK/hatchet.check")" True
mpi=$(sed -n 's/^mpi time: //p' "$WORK/hatchet.check")
case $mpi in
True*) ok "hatchet: MPI time on the call paths, at most the call sites' sum" ;;
*) fail "hatchet: MPI time on the call paths, at most the call sites' sum" "got '$mpi' (verdict, paths' time, sites' sum)" ;;
esac
done_testing
