#!/usr/bin/env bash
# cp-zero.t - critical-path zeroing (docs/critical-path.md "Zeroing") on
# tests/progs/cp-zeroing.c, 3 ranks: f_main is most of the path but rank 1's
# g_sub limits what removing it gains.
#  a. --cp-functions=f_main,g_sub: the online saving of each function equals
#     the offline reference's (--reference over the --cp-trace graph) within
#     2 %, f_main's saving is well below its time on the path and near the
#     130 ms an iteration the program is built for, g_sub saves nothing.
#  b. --cp-auto=4: rank 0 picks its four functions after the warm-up, every
#     rank follows the same four, and their shares match the reference's.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

if ! mpi_tools openmpi; then
	skip "critical-path zeroing" "$WHY"
	done_testing
	exit
fi
mpi_build cp-zeroing cp-zeroing.c
# waiting ranks poll without yielding, as they would with a core each
export OMPI_MCA_mpi_yield_when_idle=0

# zv FILE FN KEY: .critical_path.zeroing[] of function FN, key KEY
zv() { jq -r --arg f "$2" ".critical_path.zeroing[] | select(.function == \$f) | .$3" "$1"; }
# tol2 REF: the tolerance for REF: 2 % of it, at least 1 ms
tol2() { awk -v b="$1" 'BEGIN { t = b * 0.02; if (t < 0.001) t = 0.001; print t }'; }

# run_both PART NAME ITERATIONS RECORD-OPTIONS...: record cp-zeroing on 3 ranks
# into $WORK/NAME, then its CP view online into $WORK/NAME.on.json and
# offline into $WORK/NAME.ref.json, one test each.
run_both() {
	local part=$1 d=$WORK/$2 iters=$3; shift 3
	mpi_run 3 "$RECORD" -q --cp-trace "$@" -o "$d" "$WORK/cp-zeroing" "$iters" > "$d.out" 2>&1
	is "$part: program ran" "$(cat "$d.out")" "cp-zeroing ranks=3 ok"
	"$CPPERF" report "$d" --view=cp --format=json > "$d.on.json" 2> "$d.on.err"
	is "$part: online report" "$?" 0
	"$CPPERF" report "$d" --view=cp --format=json --reference > "$d.ref.json" 2> "$d.ref.err"
	is "$part: reference report" "$?" 0
}

# --- a. chosen functions
run_both a fn 4 --cp-functions=f_main,g_sub
is "a: zeroing lists the two functions in order" \
	"$(jq -r '[.critical_path.zeroing[].function] | join(",")' "$WORK/fn.on.json")" "f_main,g_sub"
for f in f_main g_sub; do
	on=$(zv "$WORK/fn.on.json" $f saving)
	ref=$(zv "$WORK/fn.ref.json" $f saving)
	within "a: $f saving online = reference (s)" "$on" "$ref" "$(tol2 "$ref")"
done
len=$(jq -r '.critical_path.length' "$WORK/fn.on.json")
save=$(zv "$WORK/fn.on.json" f_main saving)
cptime=$(jq -r '.critical_path.functions[] | select(.function == "f_main") | .cp_time' "$WORK/fn.on.json")
share=$(zv "$WORK/fn.on.json" f_main cp_share)
# built for 130 of f_main's 250 ms an iteration: 52 % of its time
atmost "a: f_main saving below 3/4 of its time on the path (walk: $cptime s)" \
	"$save" "$(awk -v c="$cptime" 'BEGIN { print c * 0.75 }')"
atmost "a: f_main saving below 3/4 of its share" "$save" "$(awk -v c="$share" 'BEGIN { print c * 0.75 }')"
# what the program is built for holds where it ran as built: 4 x 330 ms
# of path.  On a host busy with other work a rank is switched out in
# its spin or its collective, for tens of ms: the path grows, f_main
# overruns and rank 1 is on the path at times (what the online and the
# offline saving agree on all the same).
if awk -v l="$len" 'BEGIN { exit !(l > 1.32 * 1.1) }'; then
	for t in "f_main saving near 4 x 130 ms" "f_main share near 4 x 250 ms" \
		"g_sub saves at most 2 % of the path"; do
		skip "a: $t" "host too busy: the path took $len s, built for 1.32"
	done
else
	within "a: f_main saving near 4 x 130 ms" "$save" 0.52 0.10
	within "a: f_main share near 4 x 250 ms" "$share" 1.0 0.15
	atmost "a: g_sub saves at most 2 % of the path" "$(zv "$WORK/fn.on.json" g_sub saving)" \
		"$(awk -v l="$len" 'BEGIN { print l * 0.02 }')"
fi

# --- b. --cp-auto=4
run_both b auto 6 --cp-auto=4 --cp-warmup=0.5
d=$WORK/auto
is "b: rank 0 picked its four functions" \
	"$(jq -r '[.critical_path.zeroing[].function] | sort | join(",")' "$WORK/auto.on.json")" \
	"f_main,f_other,f_tiny1,f_tiny2"
for p in "$d"/*.cpprof; do
	r=$(awk '$1 == "rank" { print $2 }' "$p")
	is "b: rank $r follows four functions" "$(grep -c '^cp_fn ' "$p")" 4
	atleast "b: rank $r started zeroing (how)" "$(awk '$1 == "cp_fn_how" { print $2 }' "$p")" 2
done
for f in f_main f_other f_tiny1 f_tiny2; do
	on=$(zv "$WORK/auto.on.json" $f cp_share)
	ref=$(zv "$WORK/auto.ref.json" $f cp_share)
	within "b: $f share online = reference (s)" "$on" "$ref" "$(tol2 "$ref")"
	on=$(zv "$WORK/auto.on.json" $f saving)
	ref=$(zv "$WORK/auto.ref.json" $f saving)
	within "b: $f saving online = reference (s)" "$on" "$ref" "$(tol2 "$ref")"
done
done_testing
