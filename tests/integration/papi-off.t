#!/usr/bin/env bash
# papi-off.t - papi.t as if PAPI had no component (--papi-disable=all's
# environment twin), the branch of a host where PAPI samples nothing, on
# any host (papi_disabled in lib.sh).
. "$(dirname "$0")/../lib.sh"
papi_disabled "papi.t" bash "$TOP/tests/integration/papi.t"
check "papi.t ran tests, not only skips" grep -q '^ok [0-9]* [^#]*$' <<< "$PAPI_OFF_OUT"
done_testing
