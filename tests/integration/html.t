#!/usr/bin/env bash
# html.t - `cpperf report --format=html` on a real 4-rank experiment of
# tests/progs/html-page.c, compiled under a file name made of markup: the
# page is one file with nothing to fetch, its data cannot open markup, and
# in headless Chromium (tests/browser/check-page.py) every view builds
# without a console error or a request, and the table, the flame graph's
# zoom and search and the matrix agree with the JSON report of the same
# experiment.  Screenshots of the views go to build/html-screens/.  Without
# Chromium, ChromeDriver or python3-selenium the browser part says skip
# (contrib/install-deps.sh installs them).
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
is "the data are the JSON report's" \
	"$(perl -0777 -ne 'print $1 if m{<script type="application/json" id="cpperf-data">(.*?)</script>}s' "$page" |
		jq -c '.report.flat[0:3]')" "$(jq -c '.flat[0:3]' "$WORK/report.json")"

eslint=$TOP/build/npm/node_modules/.bin/eslint
if [ -x "$eslint" ]; then
	is "the page's script passes ESLint (report/html/eslintrc.json)" \
		"$("$eslint" --no-eslintrc -c "$TOP/report/html/eslintrc.json" "$TOP/build/gen/page.js" 2>&1 | head -20)" ""
else
	skip "the page's script passes ESLint" "no ESLint in build/npm (contrib/install-deps.sh installs it where Node.js is)"
fi

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ] || [ ! -x "${CHROMEDRIVER:-/usr/bin/chromedriver}" ]; then
	skip "the page in a browser" "no Chromium or ChromeDriver (contrib/install-deps.sh installs them)"
	done_testing
	exit
fi

# browser_tap WHAT: count the TAP that check-page.py left in $WORK/browser.tap
# (status $st) as this file's
browser_tap() {
	cat "$WORK/browser.tap"
	if [ "$st" = 2 ]; then
		skip "$1" "$(sed -n 's/^# skip: //p' "$WORK/browser.tap")"
	else
		n=$(sed -n 's/^# count //p' "$WORK/browser.tap")
		_n=$((_n + ${n:-0}))
		_failed=$((_failed + $(grep -c '^not ok' "$WORK/browser.tap")))
		[ -n "$n" ] || fail "$1: the browser check ran to its end" "status $st"
	fi
}
/usr/bin/python3 "$TOP/tests/browser/check-page.py" "$page" "$WORK/report.json" "$TOP/build/html-screens" \
	"$HOSTILE" $((_n + 1)) > "$WORK/browser.tap"
st=$?
browser_tap "the page in a browser"

# a larger job (the same profiles renumbered into 256 ranks): the matrix
# in blocks of ranks, zoomed into one
/usr/bin/python3 "$TOP/bench/synth-ranks.py" "$d" "$WORK/big" 256
report_json "$WORK/big"
is "256 ranks: the JSON matrix is its pairs alone (no 256 x 256 arrays)" \
	"$(jq -c '.mpi.matrix | [.ranks, (.pairs | length > 0), has("count"), has("bytes")]' "$WORK/report.json")" \
	'[256,true,false,false]'
"$CPPERF" report "$WORK/big" --format=html -o "$WORK/big.html" 2> "$WORK/big.err"
is "256 ranks: report --format=html" "$?:$(head -c 300 "$WORK/big.err")" "0:"
/usr/bin/python3 "$TOP/tests/browser/check-page.py" "$WORK/big.html" "$WORK/report.json" \
	"$TOP/build/html-screens" "$HOSTILE" $((_n + 1)) blocks > "$WORK/browser.tap"
st=$?
browser_tap "the matrix of 256 ranks in a browser"
done_testing
