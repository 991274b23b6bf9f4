#!/usr/bin/env bash
# html.t - `cpperf report --format=html` on a real 4-rank experiment of
# tests/progs/html-page.c, compiled under a file name made of markup: the
# page is one file with nothing to fetch, its data cannot open markup, and
# in headless Chromium (tests/browser/check-page.py) every view builds
# without a console error or a request, and the table, the flame graph's
# zoom and search and the matrix agree with the JSON report of the same
# experiment, and the first screen of the demo's page names its top
# function, critical-path leader, busiest rank and costliest MPI call
# site as its JSON does.  The Waits and Classes views on a page of
# tests/progs/mpi-waits.c, and on none of a serial program.  Screenshots
# of the views go to build/html-screens/.  Without Chromium, ChromeDriver
# or python3-selenium the browser part says skip (contrib/install-deps.sh
# installs them), and in make check's second pass as an ordinary user
# (CPPERF_SECOND_PASS, tests/as-user.sh): the pages are the first pass's.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

HOSTILE='<img src=x onerror=alert(1)>'
if ! mpi_tools openmpi; then
	echo "1..0 # skip $WHY"
	exit 0
fi
cp "$TOP/tests/progs/html-page.c" "$WORK/$HOSTILE.c"
"$MPICC" -std=gnu17 -g -O1 -o "$WORK/html-page" "$WORK/$HOSTILE.c"
d=$WORK/exp
mpi_run 4 --oversubscribe "$RECORD" -q -o "$d" "$WORK/html-page" > "$WORK/out" 2> "$WORK/err"
is "program output" "$?:$(cat "$WORK/out")" "0:html-page ranks=4 ok"
report_json "$d"
ev=$(jqr '.experiment.events[0].name')	# the host's default event
b='.flat[] | select(.function == "compute_b") | .ranks'
is "the spread over ranks: compute_b's max on rank 3, its mean a quarter of its self samples" \
	"$(jqr "$b.max_rank"):$(jqr "[.flat[] | select(.function == \"compute_b\") | .ranks.mean * 4 == .self[\"$ev\"]] | all")" "3:true"
atmost "the spread over ranks: compute_b's min at most half its max" \
	"$(jqr "$b | .min * 2 / .max")" 1
page=$WORK/page.html
"$CPPERF" report "$d" --format=html -o "$page" 2> "$WORK/html.err"
is "report --format=html -o FILE" "$?:$(head -c 300 "$WORK/html.err")" "0:"

# one file, nothing fetched, no markup from the data
is "the page starts as HTML" "$(head -c 15 "$page")" "<!DOCTYPE html>"
is "no address but SVG's namespace" "$(grep -oE 'https?://[^"'"'"' )]*|src="//' "$page" | sort -u | tr '\n' ' ')" \
	"http://www.w3.org/2000/svg "
is "no external src or href" "$(grep -cE '(src|href)="[^#]' "$page")" 0
is "the hostile name is in the data, its '<' escaped" \
	"$(grep -q 'u003cimg src=x onerror=alert(1)>' "$page" && echo there):$(grep -c '<img src=x' "$page")" "there:0"
# page_data PAGE: the data that PAGE carries
page_data() {
	perl -0777 -ne 'print $1 if m{<script type="application/json" id="cpperf-data">(.*?)</script>}s' "$1"
}
# page_with PAGE JSON OUT: PAGE with the keys of the object in JSON added
# to its report, every '<' escaped as cpperf escapes it
page_with() {
	page_data "$1" | jq -c --slurpfile add "$2" '.report += $add[0]' | sed 's/</\\u003c/g' > "$WORK/data"
	DATA=$WORK/data perl -0777 -pe 'BEGIN { open(my $f, "<", $ENV{DATA}) or die "$ENV{DATA}: $!\n"; $d = <$f>; chomp $d }
		s{(<script type="application/json" id="cpperf-data">).*?(</script>)}{$1$d$2}s' "$1" > "$3"
}
is "the data are the JSON report's" "$(page_data "$page" | jq -c '.report.flat[0:3]')" \
	"$(jq -c '.flat[0:3]' "$WORK/report.json")"
is "no function of the page named by its address (the MPI library's are its modules')" \
	"$(page_data "$page" | jq '[.report.flat[] | select(.function | startswith("[0x"))] | length')" 0

# the wait states of tests/progs/mpi-waits.c (waits.t checks their sizes)
mpi_build waits mpi-waits.c
mpi_run 4 --oversubscribe "$RECORD" -q -o "$WORK/exp-waits" "$WORK/waits" ls01 lr nxn bcast reduce \
	> "$WORK/out" 2> "$WORK/err"
is "mpi-waits runs" "$?:$(head -c 300 "$WORK/err")" "0:"
"$CPPERF" report "$WORK/exp-waits" --format=json > "$WORK/waits.json"
"$CPPERF" report "$WORK/exp-waits" --format=html -o "$WORK/waits.html" 2> "$WORK/html.err"
is "mpi-waits: report --format=html" "$?:$(head -c 300 "$WORK/html.err")" "0:"
is "mpi-waits: the page carries the report's wait states" \
	"$(page_data "$WORK/waits.html" | jq -c '.report.waits.culprits')" "$(jq -c '.waits.culprits' "$WORK/waits.json")"

# a serial program: no wait states, no classes
build deep deep.c -O1 -g
# with three events of a group and a derived metric: a column each
record "$WORK/exp-serial" -e '{task-clock,page-faults,context-switches}' "$WORK/deep" 20 200
metric='faults_per_sample=(page-faults + 1) / task-clock'
"$CPPERF" report "$WORK/exp-serial" --format=json --metric "$metric" > "$WORK/serial.json"
"$CPPERF" report "$WORK/exp-serial" --format=html --metric "$metric" -o "$WORK/serial.html" \
	2> "$WORK/html.err"
is "serial: report --format=html" "$?:$(head -c 300 "$WORK/html.err")" "0:"
# the top function (a metric that is not 0: the program faults little)
fault='.flat[0]'
is "serial, three events: the JSON's counts and metric of the top function" \
	"$(jq -c "[.experiment.events[].name, .experiment.metrics[0].name,
		($fault | (.self | keys | length), .self[\"task-clock\"] > 0,
		(((.self[\"page-faults\"] + 1) / .self[\"task-clock\"]) as \$r
		| (.metrics.faults_per_sample.self - \$r | fabs) <= 1e-5 * \$r))]" "$WORK/serial.json")" \
	'["task-clock","page-faults","context-switches","faults_per_sample",3,true,true]'
"$CPPERF" report "$WORK/exp-serial" --metric "$metric" --min-pct=0 > "$WORK/serial.txt"
is "serial, three events: the text's columns" \
	"$(grep '^#  self%' "$WORK/serial.txt" | awk '{ print $6, $7, $8 }')" \
	"page-faults context-switches faults_per_sample"
top=$(jq -r "$fault | .function" "$WORK/serial.json")
read -r pf cs per < <(awk -v f="$top" '$8 == f { print $5, $6, $7; exit }' "$WORK/serial.txt")
is "serial, three events: the text's counts of $top are the JSON's" "$pf $cs" \
	"$(jq -r "$fault"' | .self | "\(.["page-faults"]) \(.["context-switches"])"' "$WORK/serial.json")"
want=$(jq -r "$fault | .metrics.faults_per_sample.self" "$WORK/serial.json")
check "serial, three events: the text's metric of $top is the JSON's ($per, $want)" \
	awk -v a="$per" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d
		exit !(a != "" && d <= 1e-3 * (b < 0 ? -b : b)) }'
is "serial: the page carries no wait states and no classes" \
	"$(page_data "$WORK/serial.html" | jq -c '.report | [has("waits"), has("clusters"), has("graph")]')" \
	"[false,false,false]"

# an OpenMP program of serial and parallel phases: the Threads view
omp=false
if build omp-phases omp-phases.c -O2 -g -fopenmp -I"$TOP/tests/progs" 2> /dev/null; then
	omp=true
	record "$WORK/exp-omp" "$WORK/omp-phases" 0.5 0.5 > /dev/null
	"$CPPERF" report "$WORK/exp-omp" --format=json > "$WORK/omp.json"
	"$CPPERF" report "$WORK/exp-omp" --format=html -o "$WORK/omp.html" 2> "$WORK/html.err"
	is "omp: report --format=html" "$?:$(head -c 300 "$WORK/html.err")" "0:"
	is "omp: the page carries the threads and the concurrency" \
		"$(page_data "$WORK/omp.html" | jq -c '.report | [(.threads | length), .concurrency.efficiency]')" \
		"$(jq -c '[(.threads | length), .concurrency.efficiency]' "$WORK/omp.json")"
else
	skip "omp: the Threads view" "cc has no -fopenmp (libgomp missing)"
fi

eslint=$TOP/build/npm/node_modules/.bin/eslint
if [ -x "$eslint" ]; then
	is "the page's script passes ESLint (report/html/eslintrc.json)" \
		"$("$eslint" --no-eslintrc -c "$TOP/report/html/eslintrc.json" "$TOP/build/gen/page.js" 2>&1 | head -20)" ""
else
	skip "the page's script passes ESLint" "no ESLint in build/npm (contrib/install-deps.sh installs it where Node.js is)"
fi

if [ -n "${CPPERF_SECOND_PASS:-}" ]; then
	skip "the pages in a browser" "checked in make check's first pass: who recorded does not change them"
	done_testing
	exit
fi
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ] || [ ! -x "${CHROMEDRIVER:-/usr/bin/chromedriver}" ]; then
	skip "the page in a browser" "no Chromium or ChromeDriver (contrib/install-deps.sh installs them)"
	done_testing
	exit
fi

# check_page WHAT PAGE REPORT [MODE]: PAGE to check against the JSON
# REPORT with tests/browser/check-page.py, WHAT said if it skips.  The
# pages are checked at the end, in one browser (check_pages): Chromium and
# its driver take seconds to start and to quit.
pages=() whats=()
check_page() {
	whats+=("$1")
	pages+=("$2" "$3" "${4:-all}")
}
# check_pages: every page of check_page, its TAP counted as this file's
check_pages() {
	local what st
	/usr/bin/python3 "$TOP/tests/browser/check-page.py" "${pages[0]}" "${pages[1]}" \
		"$TOP/build/html-screens" "$HOSTILE" $((_n + 1)) "${pages[@]:2}" > "$WORK/browser.tap"
	st=$?
	if [ "$st" = 2 ]; then
		cat "$WORK/browser.tap"
		for what in "${whats[@]}"; do
			skip "$what" "$(sed -n 's/^# skip: //p' "$WORK/browser.tap")"
		done
		return
	fi
	browser_tap "the pages in a browser" "$WORK/browser.tap" "$st"
}
# (report.json is the big job's below)
cp "$WORK/report.json" "$WORK/page.json"
check_page "the page in a browser" "$page" "$WORK/page.json"

# the demo's first screen (contrib/demo-mpi.c, as make demo runs it)
"$MPICC" -O2 -g -o "$WORK/demo" "$TOP/contrib/demo-mpi.c"
mpi_run 2 "$RECORD" -q -o "$WORK/exp-demo" "$WORK/demo" 1000 > /dev/null 2>&1
"$CPPERF" report "$WORK/exp-demo" --format=json > "$WORK/demo.json"
"$CPPERF" report "$WORK/exp-demo" --format=html -o "$WORK/demo.html"
check_page "the demo's first screen in a browser" "$WORK/demo.html" "$WORK/demo.json" summary

# the Waits view, and the Classes view of the report's classes or, while
# the report has none, of tests/browser/classes.json (classes of
# mpi-waits.c's ranks, written by hand)
wpage=$WORK/waits.html wjson=$WORK/waits.json
if ! jq -e 'has("clusters")' "$wjson" > /dev/null; then
	page_with "$wpage" "$TOP/tests/browser/classes.json" "$WORK/classes.html"
	jq -s '.[0] + .[1]' "$wjson" "$TOP/tests/browser/classes.json" > "$WORK/classes.json"
	wpage=$WORK/classes.html wjson=$WORK/classes.json
fi
check_page "the Waits and Classes views in a browser" "$wpage" "$wjson" waits

# more classes and call sites than the view draws: the first ones drawn;
# each class receives from the one before and sends to the next (classes
# list both), to itself, and from a rank that left no profile; the times
# of the second class unknown (null, as from merged profiles)
jq -n '[range(12) as $c | { ranks: "\($c * 2)-\($c * 2 + 1)", representative: ($c * 2), size: 2,
	nodes: [range(1; 41) as $s | { site: $s, calls: $s, time: (if $c == 1 then null else 41 - $s end) }],
	edges: [range(1; 40) as $s | { from: $s, to: ($s + 1), count: 1, time: (0.001 * $s) }],
	messages: ([(($c + 11) % 12), $c] | map({ send_class: ., send_site: 1, recv_class: ((. + 1) % 12),
		recv_site: 2, count: (. + 1), bytes: 8, late_sender: 0 }) + [
		{ send_class: $c, send_site: 3, recv_class: $c, recv_site: 4, count: 100, bytes: 800, late_sender: 0.5 },
		{ send_class: $c, send_site: 35, recv_class: $c, recv_site: 1, count: 7, bytes: 8, late_sender: 0 },
		{ send_class: null, send_site: null, recv_class: $c, recv_site: 1, count: 3, bytes: 8, late_sender: 0 }])
	}]
	| { clusters: map({ ranks, representative, size }), graph: { classes: map(del(.size)) } }' > "$WORK/many.json"
page_with "$wpage" "$WORK/many.json" "$WORK/many.html"
jq -s '.[0] + .[1]' "$wjson" "$WORK/many.json" > "$WORK/many-report.json"
check_page "12 classes of 40 call sites in a browser" "$WORK/many.html" "$WORK/many-report.json" classes

check_page "a serial program's page in a browser" "$WORK/serial.html" "$WORK/serial.json" serial
if $omp; then
	check_page "the Threads view in a browser" "$WORK/omp.html" "$WORK/omp.json" threads
fi

# a larger job (the same profiles renumbered into 256 ranks): the matrix
# in blocks of ranks, zoomed into one
/usr/bin/python3 "$TOP/bench/synth-ranks.py" "$d" "$WORK/big" 256
report_json "$WORK/big"
is "256 ranks: the JSON matrix is its pairs alone (no 256 x 256 arrays)" \
	"$(jq -c '.mpi.matrix | [.ranks, (.pairs | length > 0), has("count"), has("bytes")]' "$WORK/report.json")" \
	'[256,true,false,false]'
"$CPPERF" report "$WORK/big" --format=html -o "$WORK/big.html" 2> "$WORK/big.err"
is "256 ranks: report --format=html" "$?:$(head -c 300 "$WORK/big.err")" "0:"
check_page "the matrix of 256 ranks in a browser" "$WORK/big.html" "$WORK/report.json" blocks
check_pages
done_testing
