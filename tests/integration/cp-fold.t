#!/usr/bin/env bash
# cp-fold.t - fold points of the critical path (docs/critical-path.md "Fold
# points"): tests/progs/cp-phases.c on 3 ranks, a set-up phase in
# setup_work, then a solver phase in solve_work, ring messages in both and
# an MPI_Allreduce every 20 rounds, recorded with --cp-budget=16K, far
# below what its links need (without fold points the report would show the
# latest part of the solver alone).  For each MPI where installed:
#  a. With --cp-trace (--reference reads the trace): the online path is
#     folded, the reference whole; the lengths agree, and so do both
#     phases' shares, within 2 points (the reference's set-up share is a
#     real part of the path).
#  b. Without, and with --cp-interval beside: the path is folded, with
#     both phases; every rank resolved the same fold points, the last at
#     its MPI_Finalize, so its file holds the prefix and no link or
#     segment; the series is there.
#  c. With MPI_THREAD_MULTIPLE (one thread calls MPI all the same): no
#     fold point; the latest part when a rank filled its budget.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

PHASES="1.5 3 300 200 20"	# SETUP SOLVE A_US B_US EVERY

# records DIR KEY: lines of record KEY in each profile of DIR, one count a line
records() { for f in "$1"/*.cpprof; do grep -c "^$2 " "$f"; done; }

# run MPI NAME ARGS...: cp-phases under cpperf-record ARGS into $WORK/MPI-NAME
run() {
	local mpi=$1 name=$2 d=$WORK/$1-$2
	shift 2
	rm -rf "$d"
	mpi_run 3 "$RECORD" -q --cp-budget=16K -o "$d" "$@" > "$d.out" 2> "$d.err"
	is "$mpi $name: program output" "$?:$(sed 's/=[0-9]*//g' "$d.out")" \
		"0:cp-phases setup solve$(case $* in *multiple) echo " multiple" ;; esac)"
}

for mpi in openmpi mpich; do
	mpi_or_skip $mpi "fold points" || continue
	mpi_build phases-$mpi cp-phases.c
	P=$WORK/phases-$mpi

	# --- a. against the reference
	run $mpi trace --cp-trace "$P" $PHASES
	d=$WORK/$mpi-trace
	cp_json "$d" "$d.online"
	cp_json "$d" "$d.ref" --reference
	jq_vars "$d.online" form "$(cp_filter .form)" on "$(cp_filter .length)" \
		on_setup_work "$(cp_share setup_work)" on_solve_work "$(cp_share solve_work)"
	jq_vars "$d.ref" form_ref "$(cp_filter .form)" ref "$(cp_filter .length)" \
		ref_setup_work "$(cp_share setup_work)" ref_solve_work "$(cp_share solve_work)"
	is "$mpi: the online path is folded, the reference whole" "$form:$form_ref" folded:whole
	within "$mpi: the online length is the reference's" "$on" "$ref" "$(awk -v r="$ref" 'BEGIN { print r / 100 + 1e-6 }')"
	atleast "$mpi: the set-up phase's share of the reference path" "$ref_setup_work" 10
	for fn in setup_work solve_work; do
		on_fn=on_$fn ref_fn=ref_$fn
		within "$mpi: $fn's share of the folded path = the reference's" "${!on_fn}" "${!ref_fn}" 2
	done

	# --- b. the records a rank keeps
	run $mpi plain --cp-interval=0.5 "$P" $PHASES
	d=$WORK/$mpi-plain
	cp_json "$d" "$d.online"
	jq_vars "$d.online" form "$(cp_filter .form)" on_setup_work "$(cp_share setup_work)" \
		on_solve_work "$(cp_share solve_work)" points "$(cp_filter .fold.points)" \
		series "$(cp_filter '.series | length')"
	is "$mpi: folded without the trace" "$form" folded
	for fn in setup_work solve_work; do
		on_fn=on_$fn
		atleast "$mpi: $fn on the folded path (%)" "${!on_fn}" 1
	done
	is "$mpi: every rank resolved the same fold points" \
		"$(grep -h '^cp_folds \|^cp_fold_ns ' "$d"/*.cpprof | sort | uniq -c | awk '{ print $1 }' | sort -u)" 3
	atleast "$mpi: fold points" "$points" 2
	is "$mpi: each rank's last fold point is its MPI_Finalize" \
		"$(for f in "$d"/*.cpprof; do
			awk '$1 == "cp_events" { e = $2 } $1 == "cp_fold_event" { f = $2 }
			     END { print (f + 1 == e) ? "end" : "event " f " of " e }' "$f"; done | sort -u)" end
	is "$mpi: no link, no segment left in any rank's file" \
		"$(records "$d" cp_link | sort -u):$(records "$d" cp_seg | sort -u)" 0:0
	atleast "$mpi: the prefix's records, fewest of a rank" "$(records "$d" cp_prefix | sort -n | head -1)" 1
	atleast "$mpi: the series beside (--cp-interval)" "$series" 1

	# --- c. several threads may call MPI: no fold points
	run $mpi multiple "$P" $PHASES multiple
	d=$WORK/$mpi-multiple
	cp_json "$d" "$d.online"
	jq_vars "$d.online" form "$(cp_filter .form)"
	is "$mpi, MPI_THREAD_MULTIPLE: no fold point in any file" "$(cat "$d"/*.cpprof | grep -c '^cp_folds [1-9]')" 0
	filled=$(cat "$d"/*.cpprof | sed -n 's/^cp_cut //p' | awk '$1 > 0 { n++ } END { print n + 0 }')
	is "$mpi, MPI_THREAD_MULTIPLE: the budget's form ($filled ranks filled it)" \
		"$form" "$([ "$filled" -gt 0 ] && echo latest || echo whole)"
done
done_testing
