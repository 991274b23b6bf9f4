#!/usr/bin/env bash
# papi-unit-off.t - the PAPI unit tests as if PAPI had no component
# (--papi-disable=all's environment twin), on any host: their TAP is shown
# as diagnostics, and they must pass with every component seen disabled.
. "$(dirname "$0")/../lib.sh"
export CPPERF_PAPI_DISABLE=all
out=$("$TOP/build/test/test-papi" 2>&1); st=$?
echo "$out" | sed 's/^/# /'
is "test-papi with every component disabled passes" "$st" 0
is "none of its tests failed" "$(grep -c '^not ok' <<< "$out")" 0
atleast "it ran its tests" "$(grep -c '^ok' <<< "$out")" 10
if pkg-config --exists papi; then
	check "PAPI's components were disabled" grep -q 'Disabled by PAPI_disable_component' <<< "$out"
else
	skip "PAPI's components were disabled" "built without PAPI"
fi
done_testing
