#!/usr/bin/env bash
# cp-long.sh - the online critical path against its offline reference on
# many random schedules (`make check-cp-long`): part a of
# tests/integration/cp.t (program output, CP length within 1 % + 1 us, the
# path whole, same path) for CP_LONG_RUNS programs (default 200), seeds 1, 2, ... with the
# ranks cycling 2..6 and CP_LONG_STEPS steps each (default 30).  Prints the
# failing tests with their diagnostics, a progress line every 25 programs
# and "cp-long: P passed / T total"; exits 1 unless every program passed.
# The whole TAP output is kept in CP_LONG_LOG (default cp-long.tap in TMPDIR).
top=$(cd "$(dirname "$0")/.." && pwd)
export CPPERF_TOP=${CPPERF_TOP:-$top}
n=${CP_LONG_RUNS:-200}
steps=${CP_LONG_STEPS:-30}
log=${CP_LONG_LOG:-${TMPDIR:-/tmp}/cp-long.tap}

runs=
for ((i = 0; i < n; i++)); do
	runs+="$((i + 1)):$((2 + i % 5)):$steps "
done

# A program passed when none of its tests (named "seed S ranks R steps K: ...")
# failed and all four ran.
CP_RUNS=$runs bash "$top/tests/integration/cp.t" | tee "$log" | awk -v total="$n" '
	/^(not )?ok / {
		name = $0; sub(/^(not )?ok [0-9]+ - /, "", name)
		split(name, w, ":"); prog = w[1]
		if (!(prog in seen)) { seen[prog] = 1; order[++np] = prog; tests[prog] = 0 }
		tests[prog]++
		if ($1 == "not") { bad[prog] = 1; shown = 1; print; next }
		shown = 0
		if (tests[prog] == 4 && np % 25 == 0) { printf "cp-long: %d / %d programs run\n", np, total; fflush() }
		next
	}
	/^#/ && shown { print }
	END {
		pass = 0
		for (i = 1; i <= np; i++)
			if (!(order[i] in bad) && tests[order[i]] == 4) pass++
			else failed = failed " [" order[i] "]"
		if (failed != "") print "cp-long: failed:" failed
		printf "cp-long: %d passed / %d total\n", pass, total
		exit pass != total
	}'
