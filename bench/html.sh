#!/usr/bin/env bash
# html.sh - the HTML page at scale, for `make bench`: the demo's 2-rank
# experiment made into 1 024 ranks (bench/synth-ranks.py), then the page's
# size, the time `cpperf report --format=html` takes to write it, and its
# first paint and load in headless Chromium (bench/page-load.py), each
# against its target.  Skips the browser part without Chromium or
# python3-selenium.
set -euo pipefail
cd "$(dirname "$0")/.."
RANKS=${BENCH_HTML_RANKS:-1024}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! command -v mpicc > /dev/null; then
	echo "html bench: no mpicc, skipped"
	exit 0
fi
. bench/bench-lib.sh
scratch htmlbench
demo_experiment "$W/src"
/usr/bin/python3 bench/synth-ranks.py "$W/src" "$W/big" "$RANKS"
t0=$(date +%s.%N)
bin/cpperf report "$W/big" --format=html -o "$W/page.html" 2> "$W/err"
t1=$(date +%s.%N)
size=$(stat -c %s "$W/page.html")
echo "html page of $RANKS ranks ($(du -sh "$W/big" | cut -f1) of profiles):"
awk -v s="$size" 'BEGIN { printf "  size %.1f MB   target <= 10\n", s / 1e6 }'
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "  cpperf report --format=html %.2f s   target <= 3\n", b - a }'
if /usr/bin/python3 bench/page-load.py "$W/page.html" 3 > "$W/load" 2>&1; then
	awk '$1 == "first_paint_ms" { printf "  first paint in headless Chromium %d ms (median of 3)   target <= 2000\n", $2 }
	     $1 == "load_ms" { printf "  load event %d ms\n", $2 }
	     $1 == "views_ms" { $1 = ""; printf "  each view built when first shown, ms:%s\n", $0 }
	     $1 == "console_errors" { printf "  console errors %d\n", $2 }' "$W/load"
else
	echo "  browser: skipped: $(head -1 "$W/load")"
fi
