#!/usr/bin/env bash
# scale.sh - `cpperf report` over many ranks, for `make bench`: a 2-rank
# experiment made into 1 024 and 10 240 ranks (bench/synth-ranks.py),
# then the text, JSON and HTML reports' wall time (median of
# BENCH_SCALE_ROUNDS, default 3) and peak memory, each against its target;
# then the same over those ranks merged into one profile by `cpperf
# merge` (what `cpperf-record --merge=mpi` writes at MPI_Finalize).  The
# 2-rank experiment is NAS LU class A, the code the targets are set for,
# when NAS_BIN names a directory with lu.A.x (make bench NAS_BIN=DIR),
# else the demo's, which says so.  BENCH_SCALE_RANKS replaces the list of
# sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${BENCH_SCALE_RANKS:-"1024 10240"}
ROUNDS=${BENCH_SCALE_ROUNDS:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! command -v mpicc > /dev/null || [ ! -x /usr/bin/time ]; then
	echo "scale bench: needs mpicc and /usr/bin/time, skipped"
	exit 0
fi
. bench/bench-lib.sh
scratch scalebench
if [ -n "${NAS_BIN:-}" ] && [ -x "$NAS_BIN/lu.A.x" ]; then
	src="NAS LU class A on 2 ranks"
	mpirun -np 2 bin/cpperf-record -q -o "$W/src" "$NAS_BIN/lu.A.x" > /dev/null
else
	src="the demo on 2 ranks (contrib/demo-mpi.c; make bench NAS_BIN=DIR for NAS LU class A)"
	demo_experiment "$W/src"
fi
echo "ranks made from $src: $(du -sh "$W/src" | cut -f1) of profiles," \
     "$(cat "$W"/src/*.cpprof | grep -c '^cp_link \|^cp_seg ') path records left to walk"

# target RANKS FORMAT: the wall-time target in seconds, "-" for none
target() {
	case "$1:$2" in
	1024:text) echo 0.5 ;;
	10240:text) echo 5 ;;
	10240:html) echo 8 ;;
	*) echo - ;;
	esac
}

# report_times RANKS TAG: each format's median time and peak memory over
# $W/rRANKS, against the targets (TAG "merged": the merged profile's)
report_times() {
	local fmt t mem
	for fmt in text json html; do
		: > "$W/times"
		for ((r = 0; r < ROUNDS; r++)); do
			/usr/bin/time -f "%e %M" -o "$W/one" bin/cpperf report "$W/r$1" \
				--format=$fmt -o "$W/out.$fmt" 2> /dev/null
			cat "$W/one" >> "$W/times"
		done
		t=$(cut -d' ' -f1 "$W/times" | median)
		mem=$(cut -d' ' -f2 "$W/times" | sort -n | tail -1)
		awk -v f=$fmt -v t="$t" -v m="$mem" -v want="$(target "$1" $fmt)" \
		    -v size="$(stat -c %s "$W/out.$fmt")" 'BEGIN {
			printf "  %-4s %7.2f s%s   peak %5.0f MB (target <= 1024)   output %.1f MB\n", f, t,
			       want == "-" ? "              " : sprintf(" (target <= %s)", want),
			       m / 1024, size / 1e6 }'
	done
}

for n in $SIZES; do
	/usr/bin/python3 bench/synth-ranks.py "$W/src" "$W/r$n" "$n"
	sync	# the profiles just written are not flushed while a report reads them
	echo "cpperf report over $n ranks ($(du -sh "$W/r$n" | cut -f1) of profiles; $(nproc) CPUs):"
	report_times "$n" ""
	/usr/bin/time -f "%e %M" -o "$W/one" bin/cpperf merge "$W/r$n" > /dev/null
	echo "the same ranks merged into one profile (cpperf merge, as --merge=mpi at" \
	     "MPI_Finalize): $(awk '{ printf "%.2f s, peak %.0f MB", $1, $2 / 1024 }' "$W/one")," \
	     "$(du -h "$W/r$n/merged.cpprof" | cut -f1); cpperf report over it:"
	report_times "$n" merged
	rm -rf "$W/r$n"
done
