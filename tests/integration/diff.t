#!/usr/bin/env bash
# diff.t - `cpperf diff A B`: a run against itself shows no change in any
# table; against a run where one function did twice the work
# (tests/progs/two-parts.c), that function leads the functions and the
# call paths with a rise of about its own samples, the other barely
# moves; JSON holds the same rows, and the page (in headless Chromium) a
# view of each table; bad command lines are refused.
. "$(dirname "$0")/../lib.sh"
need_sampling

if ! command -v jq > /dev/null; then
	skip "cpperf diff" "jq is not installed"
	done_testing
	exit
fi
build two-parts two-parts.c -O1 -g
record "$WORK/base" "$WORK/two-parts" 300 300 > /dev/null
record "$WORK/slow" "$WORK/two-parts" 300 600 > /dev/null
ev=$("$CPPERF" report "$WORK/base" --format=json | jq -r '.experiment.events[0].name')

"$CPPERF" diff "$WORK/base" "$WORK/base" > "$WORK/same.txt" 2> "$WORK/err"
is "a run against itself: done" "$?:$(head -c 300 "$WORK/err")" "0:"
is "a run against itself: no change in either table" "$(grep -c '^# no change' "$WORK/same.txt")" 2
"$CPPERF" diff "$WORK/base" "$WORK/base" --format=json > "$WORK/same.json"
is "a run against itself, JSON: every change 0" \
	"$(jq '[.functions[], .callpaths[] | .delta[]] | all(. == 0)' "$WORK/same.json")" true

"$CPPERF" diff "$WORK/base" "$WORK/slow" --format=json > "$WORK/d.json" 2> "$WORK/err"
is "part_b twice slower: done" "$?:$(head -c 300 "$WORK/err")" "0:"
self="self $ev"
is "part_b twice slower: it leads the functions, up" \
	"$(jq -r --arg k "$self" '.functions[0] | "\(.function) \(.delta[$k] > 0)"' "$WORK/d.json")" "part_b true"
# its rise is about its own samples in the first run (twice the work)
rise=$(jq --arg k "$self" '.functions[0] | .delta[$k] / .a[$k]' "$WORK/d.json")
atleast "part_b twice slower: its self samples rise by about what they were" "$rise" 0.6
atmost "part_b twice slower: ... and no more than 1.4 times that" "$rise" 1.4
part_a=$(jq --arg k "$self" '.functions[] | select(.function == "part_a") | (.delta[$k] / .a[$k] | fabs)' "$WORK/d.json")
atmost "part_b twice slower: part_a's samples move by less than 40 %" "$part_a" 0.4
is "part_b twice slower: its call path leads the call paths" \
	"$(jq -r '.callpaths[0].path | split(";") | .[-2:] | join(";")' "$WORK/d.json")" "main;part_b"
"$CPPERF" diff "$WORK/base" "$WORK/slow" --limit=3 > "$WORK/d.txt"
is "text: the first row of the functions is part_b's, with a + change" \
	"$(awk '/^# functions/ { f = 1; next } f && !/^#/ { print ($3 > 0 ? "+" : "-"), $5; exit }' "$WORK/d.txt")" "+ part_b"
atmost "text: --limit=3 shows 3 rows of each table at most" \
	"$(awk '/^# functions/ { f = 1; next } /^#$/ { f = 0 } f && !/^#/ { n++ } END { print n + 0 }' "$WORK/d.txt")" 3

# the page of both: a view per table, as the JSON's
"$CPPERF" diff "$WORK/base" "$WORK/slow" --format=html -o "$WORK/d.html" 2> "$WORK/err"
is "html: written, one page" "$?:$(head -c 300 "$WORK/err"):$(head -c 15 "$WORK/d.html")" "0::<!DOCTYPE html>"
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ] || [ ! -x "${CHROMEDRIVER:-/usr/bin/chromedriver}" ]; then
	skip "html: the page in a browser" "no Chromium or ChromeDriver (contrib/install-deps.sh installs them)"
else
	/usr/bin/python3 "$TOP/tests/browser/check-page.py" "$WORK/d.html" "$WORK/d.json" \
		"$TOP/build/html-screens" "-" $((_n + 1)) diff > "$WORK/browser.tap"
	browser_tap "html: the page in a browser" "$WORK/browser.tap" $?
fi

"$CPPERF" diff "$WORK/base" > /dev/null 2> "$WORK/err"
is "one directory: refused, the command line's error" "$?:$(grep -c 'two experiment directories' "$WORK/err")" "2:1"
"$CPPERF" diff "$WORK/base" "$WORK/slow" --event=nope > /dev/null 2> "$WORK/err"
is "an event not recorded: an error naming it" "$?:$(grep -c "'*nope" "$WORK/err")" "1:1"
"$CPPERF" diff "$WORK/base" "$WORK/nowhere" > /dev/null 2> "$WORK/err"
is "a missing experiment: an error naming it" "$?:$(grep -c nowhere "$WORK/err")" "1:1"
done_testing
