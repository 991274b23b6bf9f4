#!/usr/bin/env bash
# demo.sh - `make demo`: profile a small MPI stencil on 2 ranks under
# cpperf-record, then print its flat, call-path, MPI, critical-path and
# overhead-compensation reports, and write its HTML page.
set -euo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p build/demo
mpicc -O2 -g -o build/demo/demo-mpi contrib/demo-mpi.c
dir=build/demo/cpperf-demo
rm -rf "$dir"
mpirun --oversubscribe -np 2 bin/cpperf-record -o "$dir" build/demo/demo-mpi 3000
echo "== cpperf report $dir"
bin/cpperf report "$dir"
echo "== cpperf report $dir --view=callpath"
bin/cpperf report "$dir" --view=callpath --min-pct=2
echo "== cpperf report $dir --view=mpi"
bin/cpperf report "$dir" --view=mpi
echo "== cpperf report $dir --view=cp"
bin/cpperf report "$dir" --view=cp --min-pct=2
echo "== cpperf report $dir --view=compensation"
bin/cpperf report "$dir" --view=compensation
page=build/demo/cpperf-demo.html
bin/cpperf report "$dir" --format=html -o "$page"
echo "== the page of every view: $(pwd)/$page (open it in a browser)"
