#!/usr/bin/env bash
# merge.sh - what --merge=mpi costs at MPI_Finalize, at 8, 16, 32 and 64
# ranks of the demo (more ranks than cores: they share them, so the
# figures are upper bounds of a real node's): the reduction's own time as
# rank 0 prints it (first rank at MPI_Finalize to merged file written),
# the job's wall time with and without the merge (medians of 3,
# alternated), the merged profile's size beside the ranks' files, and
# whether the merged report equals the ranks' files' report (everything
# but the critical path, which stays in the ranks' files).
set -e
cd "$(dirname "$0")/.."
. bench/bench-lib.sh
scratch merge
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpicc -O2 -g -o "$W/demo-mpi" contrib/demo-mpi.c
STEPS=200

# run N MODE K: the demo on N ranks with --merge=MODE into $W/N-MODE-K;
# its wall time on stdout, rank 0's notices in $W/N-MODE-K.err
run() {
	local d=$W/$1-$2-$3 t0 t1
	t0=$(date +%s.%N)
	mpirun --oversubscribe -np "$1" bin/cpperf-record --merge="$2" -o "$d" \
		"$W/demo-mpi" "$STEPS" > /dev/null 2> "$d.err"
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

echo "== --merge=mpi at MPI_Finalize (demo, $STEPS steps, medians of 3)"
printf '%6s %12s %12s %12s %10s %12s %14s\n' ranks "merge (s)" "job, none" "job, mpi" "merged" "rank files" "same report"
for n in 8 16 32 64; do
	: > "$W/none" ; : > "$W/mpi" ; : > "$W/cost"
	for k in 1 2 3; do
		run "$n" none "$k" >> "$W/none"
		run "$n" mpi "$k" >> "$W/mpi"
		sed -n 's/.*ranks merged at MPI_Finalize in \([0-9.]*\) s.*/\1/p' "$W/$n-mpi-$k.err" >> "$W/cost"
	done
	d=$W/$n-mpi-1
	merged=$(stat -c %s "$d/merged.cpprof" 2> /dev/null || echo 0)
	ranks=$(cat "$d"/rank*.cpprof | wc -c)
	bin/cpperf report "$d" --format=json | jq -S 'del(.critical_path, .experiment.merged)' > "$W/a.json"
	bin/cpperf report "$d" --rank-files --format=json | jq -S 'del(.critical_path, .experiment.merged)' > "$W/b.json"
	same=$(cmp -s "$W/a.json" "$W/b.json" && echo yes || echo NO)
	printf '%6s %12s %12s %12s %9sK %11sK %14s\n' "$n" "$(median < "$W/cost")" \
		"$(median < "$W/none")" "$(median < "$W/mpi")" "$((merged / 1024))" "$((ranks / 1024))" "$same"
done
