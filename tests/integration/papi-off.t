#!/usr/bin/env bash
# papi-off.t - papi.t as if PAPI had no component (--papi-disable=all's
# environment twin), the branch of a host where PAPI samples nothing, on
# any host: its TAP is shown as diagnostics, and it must pass with every
# component seen disabled.
. "$(dirname "$0")/../lib.sh"
export CPPERF_PAPI_DISABLE=all
out=$(bash "$TOP/tests/integration/papi.t" 2>&1); st=$?
echo "$out" | sed 's/^/# /'
is "papi.t with every component disabled passes" "$st" 0
is "none of its tests failed" "$(grep -c '^not ok' <<< "$out")" 0
if pkg-config --exists papi; then
	check "PAPI's components were disabled" grep -q 'Disabled by PAPI_disable_component' <<< "$out"
else
	skip "PAPI's components were disabled" "built without PAPI"
fi
done_testing
