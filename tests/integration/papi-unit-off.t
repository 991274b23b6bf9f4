#!/usr/bin/env bash
# papi-unit-off.t - the PAPI unit tests as if PAPI had no component
# (--papi-disable=all's environment twin), on any host.
. "$(dirname "$0")/../lib.sh"
export CPPERF_PAPI_DISABLE=all
exec "$TOP/build/test/test-papi"
