#!/usr/bin/env bash
# fuzz.t - run the profile-reader fuzzer (build/fuzz/profile-fuzz, built by
# `make check`) for a bounded time from the committed seed and report TAP.
# CPPERF_FUZZ_SECONDS sets the time (default 20).  Builds nothing.
set -u
top=${CPPERF_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
fuzzer=$top/build/fuzz/profile-fuzz
seconds=${CPPERF_FUZZ_SECONDS:-20}

echo "1..2"
if [ ! -x "$fuzzer" ]; then
	echo "not ok 1 - fuzzer built # $fuzzer missing: run 'make build/fuzz/profile-fuzz'"
	echo "not ok 2 - profile parser survives fuzzing"
	exit 1
fi
echo "ok 1 - fuzzer built"

work=$(mktemp -d "${TMPDIR:-/tmp}/cpperf-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus" "$work/artifacts"
cp "$top"/tests/fuzz/seed/* "$work/corpus/"

UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
"$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
	-dict="$top/tests/fuzz/profile.dict" \
	-artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	echo "ok 2 - profile parser survives fuzzing (${seconds}s, $(tail -n 1 "$work/log" | sed 's/^#//'))"
	exit 0
fi
echo "not ok 2 - profile parser survives fuzzing (fuzzer exit status $rc)"
# On standard error, which prove shows without -v: a CI log keeps the
# fuzzer's report and the input that broke the parser.
{
	tail -n 40 "$work/log" | sed 's/^/# /'
	for a in "$work"/artifacts/*; do
		[ -e "$a" ] && echo "# failing input (base64): $(base64 -w0 "$a" | head -c 4000)"
	done
} >&2
exit 1
