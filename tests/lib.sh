# lib.sh - TAP helpers for the integration tests (sourced by tests/integration/*.t).
# Tests run real programs under bin/cpperf-record and check the JSON that the
# ASan build of the report tool prints.  Every helper prints one TAP line; a
# failure's diagnostic goes to stderr, where prove shows it without -v.

TOP=${CPPERF_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
RECORD=$TOP/bin/cpperf-record
CPPERF=$TOP/build/san/bin/cpperf
[ -x "$CPPERF" ] || CPPERF=$TOP/bin/cpperf
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cpperf-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# what cpperf-record keeps across runs (measured costs) stays in the test's
export XDG_CACHE_HOME=$WORK/cache
_n=0 _failed=0

ok()   { _n=$((_n+1)); echo "ok $_n - $1"; }
fail() { local _l; _n=$((_n+1)); _failed=$((_failed+1)); echo "not ok $_n - $1"; shift; for _l in "$@"; do echo "#   $_l" >&2; done; }
skip() { _n=$((_n+1)); echo "ok $_n - $1 # skip $2"; }
done_testing() { echo "1..$_n"; [ "$_failed" -eq 0 ]; }

# need_sampling: where this host lets no process sample itself (say
# perf_event_paranoid, or a seccomp filter on perf_event_open), skip the
# whole file with cpperf-record's reason.
need_sampling() {
	"$RECORD" -q -e task-clock -o "$WORK/.probe" /bin/true 2> "$WORK/.probe-err" && return 0
	echo "1..0 # skip cannot sample on this host: $(head -1 "$WORK/.probe-err")"
	exit 0
}

# check NAME CMD...: passes when CMD succeeds.
check() { local name=$1; shift; if "$@"; then ok "$name"; else fail "$name" "command failed: $*"; fi; }
# browser_tap WHAT FILE STATUS: the TAP a check in headless Chromium
# (tests/browser/) wrote into FILE and ended with STATUS, counted as this
# file's: numbered from $((_n + 1)), last a "# count N"; status 2 with
# "# skip: WHY" skips WHAT.
browser_tap() {
	local n
	cat "$2"
	if [ "$3" = 2 ]; then
		skip "$1" "$(sed -n 's/^# skip: //p' "$2")"
		return
	fi
	n=$(sed -n 's/^# count //p' "$2")
	_n=$((_n + ${n:-0}))
	_failed=$((_failed + $(grep -c '^not ok' "$2")))
	[ -n "$n" ] || fail "$1: the browser check ran to its end" "status $3"
}

# is NAME GOT WANT: exact string comparison.
is() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "got '$2'" "want '$3'"; fi; }

# within NAME GOT WANT TOL: |GOT - WANT| <= TOL (numbers).
within() {
	if awk -v g="$2" -v w="$3" -v t="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }'; then
		ok "$1 ($2 vs $3 +- $4)"
	else
		fail "$1" "got $2, want $3 +- $4"
	fi
}

# atleast NAME GOT MIN
atleast() { if awk -v g="$2" -v m="$3" 'BEGIN { exit !(g != "" && g + 0 >= m + 0) }'; then ok "$1 ($2 >= $3)"; else fail "$1" "got '$2', want >= $3"; fi; }
atmost() { if awk -v g="$2" -v m="$3" 'BEGIN { exit !(g != "" && g + 0 <= m + 0) }'; then ok "$1 ($2 <= $3)"; else fail "$1" "got '$2', want <= $3"; fi; }

# build NAME SRC FLAGS...: compile a test program into $WORK/NAME.
build() { local name=$1 src=$2; shift 2; cc -std=gnu17 -o "$WORK/$name" "$TOP/tests/progs/$src" "$@"; }

# wait_file DIR PATTERN: until a file of DIR matches PATTERN (at most 20 s).
wait_file() { for _ in $(seq 400); do compgen -G "$1/$2" > /dev/null && return 0; sleep 0.05; done; return 1; }

# record DIR ARGS...: run cpperf-record -q -o DIR ARGS.
record() { local dir=$1; shift; "$RECORD" -q -o "$dir" "$@"; }

# report_json DIR [ARGS...]: the report as JSON into $WORK/report.json.
report_json() { local dir=$1; shift; "$CPPERF" report "$dir" --format=json "$@" > "$WORK/report.json"; }

# jqr FILTER: evaluate FILTER on the last report.
jqr() { jq -r "$1" "$WORK/report.json"; }

# jq_vars FILE VAR FILTER [VAR FILTER]...: set each VAR to what
# "$(jq -r FILTER FILE)" would be, FILE read by one jq process for them
# all (a jq start costs more than a lookup in a report): a filter's
# outputs one a line, arrays and objects compact (as with -c); a filter
# that fails keeps what it printed before, as jq does, and the others
# are evaluated all the same.  Every VAR is empty when FILE is not JSON.
jq_vars() {
	local _file=$1 _prog=
	shift
	while [ $# -gt 1 ]; do
		printf -v "$1" %s ""
		_prog+="${_prog:+, }\"$1=\" + ([try ($2)] | map(if type == \"string\" then . else tojson end) | join(\"\\n\") | @sh)"
		shift 2
	done
	eval "$(jq -r "$_prog" "$_file" 2> /dev/null)"
}

# reseal FILE: rewrite the trailer of a profile edited by a test (its
# length and CRC-32), so that the reader checks the records rather than
# refusing the file as damaged.
reseal() {
	perl -MCompress::Zlib -0777 -i -pe \
		's/end \d+ [0-9a-f]{8}\n\z//; $_ .= sprintf("end %d %08x\n", length, crc32($_))' "$1"
}

# papi_disabled NAME CMD...: CMD (a TAP producer) run as if PAPI had no
# component (CPPERF_PAPI_DISABLE=all); its TAP shown as diagnostics, and
# it must pass with every component seen disabled.  Leaves its output in
# $PAPI_OFF_OUT for further checks.
papi_disabled() {
	local name=$1 st
	shift
	PAPI_OFF_OUT=$(CPPERF_PAPI_DISABLE=all "$@" 2>&1); st=$?
	echo "$PAPI_OFF_OUT" | sed 's/^/# /'
	is "$name with every component disabled passes" "$st" 0
	is "none of its tests failed" "$(grep -c '^not ok' <<< "$PAPI_OFF_OUT")" 0
	if pkg-config --exists papi; then
		check "PAPI's components were disabled" grep -q 'Disabled by PAPI_disable_component' <<< "$PAPI_OFF_OUT"
	else
		skip "PAPI's components were disabled" "built without PAPI"
	fi
}
