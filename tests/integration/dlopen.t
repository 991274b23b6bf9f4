#!/usr/bin/env bash
# dlopen.t - code mapped while the program runs is named with its module:
# a library loaded with dlopen that takes all the time (placed by the
# loader where it likes, e.g. right above libc), and libraries loaded and
# closed again and again, at the address of the one before, of another
# library, or at a new one.  The libraries' hot loops call nothing.
. "$(dirname "$0")/../lib.sh"
need_sampling

for s in alpha beta; do
	cc -shared -fPIC -O2 -g -DSPIN=${s}_spin -o "$WORK/lib$s.so" "$TOP/tests/progs/dlwork.c"
done
build dlcycle dlcycle.c -O2 -g -ldl

# in_lib LIB [UNDER]: % of all samples (first event) whose innermost frame
# is in module LIB, counting only those below a frame named UNDER if given
in_lib() {
	jq -r --arg lib "$1" --arg under "${2:-}" '
		(.experiment.events[0].name) as $ev
		| def walk(seen): (seen or .function == $under) as $s
			| (if .module_name == $lib and ($under == "" or $s) then (.self[$ev] // 0) else 0 end),
			  (.children[]? | walk($s));
		([.callpath | walk(false)] | add) as $in
		| (.callpath.total[$ev] // 0) as $all
		| if $all == 0 then 0 else 100 * $in / $all end' "$WORK/report.json"
}

# a library loaded once
record "$WORK/exp-once" "$WORK/dlcycle" 600 "$WORK/libalpha.so" 2> "$WORK/once.log"
sed 's/^/# /' "$WORK/once.log"
report_json "$WORK/exp-once"
atleast "samples named in the dlopen'd library (%)" "$(in_lib libalpha.so)" 95
atleast "of them below main (%)" "$(in_lib libalpha.so main)" 95
is "the hot function is named" "$(jqr '.flat[0].function + " " + .flat[0].module_name')" "alpha_spin libalpha.so"
atleast "complete unwinds (%)" "$(jqr '.experiment.unwind_complete_pct')" 95

# cycles: the same library at the same address, another library at the
# address of the first, the first at a new address, and so on
record "$WORK/exp-cyc" "$WORK/dlcycle" 120 "$WORK/libalpha.so" "$WORK/libalpha.so" \
	"$WORK/libbeta.so" "+$WORK/libalpha.so" "$WORK/libbeta.so" "+$WORK/libbeta.so" 2> "$WORK/cyc.log"
sed 's/^/# /' "$WORK/cyc.log"
report_json "$WORK/exp-cyc"
k=0
for s in alpha alpha beta alpha beta beta; do
	got=$(jq -r --arg c "cycle$k" --arg spin "${s}_spin" --arg lib "lib$s.so" '
		(.experiment.events[0].name) as $ev
		| def nodes: ., (.children[]? | nodes);
		[.callpath | nodes | select(.function == $c)] as $cs
		| ([$cs[].total[$ev]] | add // 0) as $all
		| ([$cs[] | nodes | select(.function == $spin and .module_name == $lib) | .self[$ev]] | add // 0) as $in
		| "\($all) \(if $all == 0 then 0 else 100 * $in / $all end)"' "$WORK/report.json")
	atleast "cycle $k sampled" "${got% *}" 50
	atleast "cycle $k: ${s}_spin in lib$s.so (% of its samples)" "${got#* }" 90
	k=$((k + 1))
done
done_testing
