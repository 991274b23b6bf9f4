#!/usr/bin/env bash
# papi-unit-off.t - the PAPI unit tests as if PAPI had no component
# (--papi-disable=all's environment twin), on any host (papi_disabled in
# lib.sh); they must also have run their tests.
. "$(dirname "$0")/../lib.sh"
papi_disabled "test-papi" "$TOP/build/test/test-papi"
atleast "it ran its tests" "$(grep -c '^ok' <<< "$PAPI_OFF_OUT")" 10
done_testing
