#!/usr/bin/env bash
# stress-programs.t - every MPI program `make check-stress` draws from
# (tests/stress-programs.sh) run once at each rank count it lists, under
# cpperf-record with Open MPI, seed 1: it exits 0 (the programs check
# their own results) and its experiment reads.  The stress runs are long
# and not part of the suite; this keeps their programs valid for them.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"
. "$TOP/tests/stress-programs.sh"

if ! mpi_tools openmpi; then
	skip "openmpi: the stress programs" "$WHY"
	done_testing
	exit
fi
declare -A seen
for spec in "${PROGRAMS[@]}"; do
	read -r name src nps args <<< "$spec"
	[ -n "${seen[$name $nps]:-}" ] && continue
	seen[$name $nps]=1
	if [ "${src##*.}" = f90 ] && [ -z "$MPIFC" ]; then
		skip "$name: runs" "no Fortran compiler for Open MPI"
		continue
	fi
	if [ ! -x "$WORK/$name" ] && ! mpi_build "$name" "$src" 2> "$WORK/$name.build"; then
		fail "$name: builds" "$(head -5 "$WORK/$name.build")"
		continue
	fi
	for np in ${nps//,/ }; do
		dir=$WORK/exp-$name-$np
		# shellcheck disable=SC2086
		mpi_run "$np" "$RECORD" -q -o "$dir" "$WORK/$name" ${args//SEED/1} > "$WORK/out" 2>&1
		rc=$?
		if [ "$rc" != 0 ]; then
			fail "$name on $np ranks: exits 0" "exit status $rc" "$(tail -5 "$WORK/out")"
		elif ! "$CPPERF" report "$dir" --format=json > /dev/null 2> "$WORK/err"; then
			fail "$name on $np ranks: its experiment reads" "$(head -3 "$WORK/err")"
		else
			ok "$name on $np ranks: exits 0, its experiment reads"
		fi
		rm -rf "$dir"
	done
done
done_testing
