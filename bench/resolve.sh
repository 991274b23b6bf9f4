#!/usr/bin/env bash
# resolve.sh - the part of `make bench` that times the first naming of
# sampled addresses: a program made of one large compilation unit
# (FUNCS functions with inlined helpers, generated here) runs its
# functions in turn for a few seconds under cpperf-record; every function
# is sampled, so its address is named for the first time during the run.
# Prints the unwinder's cost per sample (unwinding and naming) and the
# drain thread's CPU time.  Naming an address used to walk its whole
# unit, so this cost grew with the unit's size.
set -euo pipefail
cd "$(dirname "$0")/.."
FUNCS=${BENCH_RESOLVE_FUNCS:-2000}
SECONDS_RUN=${BENCH_RESOLVE_SECONDS:-3}
. bench/bench-lib.sh
scratch resolve
if ! command -v jq > /dev/null; then
	echo "resolve bench: needs jq, skipped"
	exit 0
fi
awk -v n="$FUNCS" 'BEGIN {
	print "#include <stdint.h>\n#include <stdlib.h>\n#include <time.h>"
	print "static volatile uint64_t sink;"
	print "static inline __attribute__((always_inline)) uint64_t mix(uint64_t x, int k)"
	print "{ for (int i = 0; i < k; i++) x = x * 6364136223846793005ull + (uint64_t)i; return x; }"
	for (i = 0; i < n; i++) {
		printf "static inline __attribute__((always_inline)) uint64_t in%d(uint64_t x) { return mix(x ^ %du, %d); }\n", i, i, i % 7 + 2
		printf "__attribute__((noinline)) uint64_t fn%d(uint64_t x) { for (int r = 0; r < 2000; r++) x = in%d(x); return x; }\n", i, i
	}
	printf "static uint64_t (*const fns[])(uint64_t) = {"
	for (i = 0; i < n; i++)
		printf "%sfn%d", i ? "," : "", i
	print "};"
	print "int main(int argc, char **argv)"
	print "{"
	print "\tdouble secs = argc > 1 ? atof(argv[1]) : 3;"
	print "\tstruct timespec t0, t;"
	print "\tuint64_t x = 1;"
	print "\tclock_gettime(CLOCK_MONOTONIC, &t0);"
	print "\tfor (unsigned i = 0;; i++) {"
	printf "\t\tx = fns[i %% %d](x);\n", n
	print "\t\tclock_gettime(CLOCK_MONOTONIC, &t);"
	print "\t\tif (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) * 1e-9 > secs)"
	print "\t\t\tbreak;"
	print "\t}"
	print "\tsink = x;"
	print "\treturn 0;"
	print "}"
}' > "$W/big.c"
cc -O2 -g -o "$W/big" "$W/big.c"
bin/cpperf-record -q -o "$W/exp" "$W/big" "$SECONDS_RUN"
bin/cpperf report "$W/exp" --format=json > "$W/r.json"
jq -r --arg n "$FUNCS" '.experiment | "one unit of \($n) functions: samples \(.samples) (lost \(.lost)), unwinder cost per sample \(.unwind_us_per_sample) us (unwinding and naming), drain CPU \(.drain_cpu_seconds) s"' "$W/r.json"
