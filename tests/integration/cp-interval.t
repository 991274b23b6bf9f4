#!/usr/bin/env bash
# cp-interval.t - the critical path's intermediate values (--cp-interval,
# pmpi/cp-monitor.c): tests/progs/cp-interval.c on 4 ranks for SECS seconds,
# reporting every IV seconds to rank 0.  The series has about SECS/IV points
# (+-3), never decreases in t or length, and ends at the run's path length
# (within 1 %).  One MPI (Open MPI, else MPICH), to keep the test short.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

SECS=4 IV=0.5

if ! mpi_tools openmpi && ! mpi_tools mpich; then
	skip "critical-path series" "$WHY"
	done_testing
	exit
fi
mpi_build cp-interval cp-interval.c

d=$WORK/exp
mpi_run 4 "$RECORD" -q --cp-interval=$IV -o "$d" "$WORK/cp-interval" $SECS > "$WORK/out" 2> "$WORK/err"
st=$?
if [ "$st" = 0 ] && [ "$(cat "$WORK/out")" = "cp-interval ranks=4 ok" ]; then
	ok "program output"
else
	fail "program output" "status $st, stdout '$(head -c 200 "$WORK/out")'" \
		"stderr: $(head -3 "$WORK/err" | tr '\n' ' ')"
fi

if "$CPPERF" report "$d" --view=cp --format=json > "$WORK/report.json" 2> "$WORK/report.err"; then
	ok "cpperf report --view=cp --format=json"
else
	fail "cpperf report --view=cp --format=json" "report: $(head -3 "$WORK/report.err" | tr '\n' ' ')"
fi

n=$(jqr '.critical_path.series | length')
last=$(jqr '.critical_path.series[-1].length // empty')
final=$(jqr '.critical_path.length')
echo "# $n points over ${SECS} s every ${IV} s; last length $last s, path length $final s"
echo "# series: $(jqr '[.critical_path.series[] | "\(.t)/\(.length)"] | join(" ")')"
within "points: about duration / interval" "$n" "$(awk -v s=$SECS -v i=$IV 'BEGIN { print s / i }')" 3
is "t never decreases" "$(jqr '[.critical_path.series | range(1; length) as $i | .[$i].t >= .[$i-1].t] | all')" true
is "length never decreases" \
	"$(jqr '[.critical_path.series | range(1; length) as $i | .[$i].length >= .[$i-1].length] | all')" true
within "the last length is the path's length (1 %)" "$last" "$final" \
	"$(awk -v f="$final" 'BEGIN { print f / 100 }')"
done_testing
