#!/usr/bin/env bash
# papi.t - cpperf-record --backend=papi: refusals before the program starts,
# and a real profile where PAPI can sample here (PAPI_TOT_CYC, else the
# software clock perf::TASK-CLOCK); skipped with PAPI's reason otherwise.
# Name checks use presets, which PAPI knows by name on every host.
# CPPERF_PAPI_DISABLE applies as to any run: papi-off.t runs this file as
# if PAPI had no component.
. "$(dirname "$0")/../lib.sh"

build behave behave.c -O2 -g
build split split.c -O2 -g
T="$WORK/behave touch $WORK/started"

if ! pkg-config --exists papi; then	# the Makefile's rule for HAVE_PAPI
	"$RECORD" --backend=papi -o "$WORK/x0" $T 2> "$WORK/err"; st=$?
	is "without PAPI: exit 2" "$st" 2
	check "without PAPI: says how to get it" grep -q "built without PAPI" "$WORK/err"
	done_testing; exit
fi

refused() { # NAME PATTERN ARGS...
	local name=$1 pat=$2; shift 2
	rm -f "$WORK/started"
	"$RECORD" --backend=papi "$@" $T > /dev/null 2> "$WORK/err"; local st=$?
	if [ "$st" = 2 ] && grep -qE -- "$pat" "$WORK/err" && [ ! -e "$WORK/started" ]; then
		ok "$name"
	else
		fail "$name" "status $st, stderr: $(cat "$WORK/err")"
	fi
}
refused "unknown name: named, papi_native_avail suggested" "'NOPE_X' is not known to PAPI.*papi_native_avail" -e NOPE_X
refused "groups refused" "no \{groups\}" -e '{PAPI_TOT_CYC}'
refused "fp mode refused" "call-graph=fp" --call-graph=fp
refused "-F on an event without a clock asks for -c" "-c N" -e PAPI_L1_DCM
refused "unknown component to disable: PAPI's components listed" \
	"--papi-disable: 'nope' is not a component of this PAPI \(.*perf_event.*\)" --papi-disable=nope
refused "malformed component list" "--papi-disable: ',x' is not 'all' or a comma-separated list" --papi-disable=,x
if ! "$RECORD" -q --backend=papi -o "$WORK/x2" /bin/true 2> "$WORK/err"; then
	check "no default event samples: PAPI's reason, --backend=perf suggested" \
		grep -qE "PAPI cannot sample PAPI_TOT_CYC on this host \(.+\); use .*--backend=perf" "$WORK/err"
else
	skip "no default event samples: PAPI's reason, --backend=perf suggested" "PAPI samples a default event here"
fi
# cycles become a threshold at PAPI's highest clock (cpu_max_mhz): a CPU
# below it (its base clock under load, power saving) takes fewer samples
# than the rate asks, so where PAPI samples them the profile below asks
# four times as many, enough at a quarter of that clock
rate=()
if "$RECORD" -q --backend=papi -e PAPI_TOT_CYC -o "$WORK/x1" /bin/true 2> "$WORK/err"; then
	skip "PAPI_TOT_CYC refused where PAPI cannot sample it" "PAPI samples PAPI_TOT_CYC here"
	rate=(-F 4000)
else
	refused "PAPI_TOT_CYC refused where PAPI cannot sample it" \
		"PAPI cannot sample PAPI_TOT_CYC on this host \(.+\); use" -e PAPI_TOT_CYC
fi

rm -rf "$WORK/exp"
# 4 s, as accuracy.t: with 2 (some 2 000 samples) a share's sampling noise
# (about 1.1 points for f60) crossed the 3-point bound once in a while
"$RECORD" --backend=papi "${rate[@]}" -o "$WORK/exp" "$WORK/split" 4 > "$WORK/truth" 2> "$WORK/err"; st=$?
if [ "$st" != 0 ]; then
	skip "papi sampling" "$(head -1 "$WORK/err")"
	done_testing; exit
fi
report_json "$WORK/exp"
is "the event is the PAPI name" "$(jqr '.experiment.events[0].name')" "$(sed -n 's/.*sampling //p' "$WORK/err" | grep . || echo PAPI_TOT_CYC)"
atleast "samples" "$(jqr '.experiment.samples')" 1500
for f in f60 f30 f10; do
	within "$f self_pct" "$(jqr ".flat[] | select(.function==\"$f\") | .self_pct")" \
		"$(awk -v f=$f '$2 == f { print $3 }' "$WORK/truth")" 3
done
atleast "samples with main on the stack (%)" "$(jqr '.flat[] | select(.function=="main") | .total_pct')" 99
done_testing
