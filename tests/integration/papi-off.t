#!/usr/bin/env bash
# papi-off.t - papi.t as if PAPI had no component (--papi-disable=all's
# environment twin): the branch of a host where PAPI samples nothing, on
# any host.
export CPPERF_PAPI_DISABLE=all
exec bash "$(dirname "$0")/papi.t"
