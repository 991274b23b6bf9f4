#!/usr/bin/env bash
# recursion.t - recursion 60 deep and a mutually recursive pair:
# no total_pct above 100, and a recursive function's total equals the number
# of samples that have it anywhere on the stack (computed here from the
# call-path tree's leaf paths).
. "$(dirname "$0")/../lib.sh"
need_sampling

build recurse recurse.c -O2 -g
record "$WORK/exp" "$WORK/recurse" 3
report_json "$WORK/exp" --min-pct=0
ev=$(jqr '.experiment.events[0].name')
atmost "largest total_pct" "$(jqr '[.flat[].total_pct] | max')" 100
for f in rec ping pong; do
	on_stack=$(jq -r --arg f "$f" --arg ev "$ev" '
		def paths(p): (p + [.function]) as $q
			| {f: $q, s: (.self[$ev] // 0)}, (.children[]? | paths($q));
		[.callpath | paths([]) | select(any(.f[]; . == $f)) | .s] | add // 0' "$WORK/report.json")
	total=$(jqr ".flat[] | select(.function==\"$f\") | .total[\"$ev\"]")
	is "$f: total == samples with $f on the stack" "$total" "$on_stack"
	atleast "$f: sampled" "$total" 100
done
# the bottom of the recursion is 60 frames deep below main
depth=$(jqr 'def d: if (.children | length) == 0 then 0 else 1 + ([.children[] | d] | max) end; .callpath | d')
atleast "call-path depth" "$depth" 62
done_testing
