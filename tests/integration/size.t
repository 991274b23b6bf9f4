#!/usr/bin/env bash
# size.t - profiles of a 5 s and a 20 s run of the same program differ in
# size by less than 25 % per call-path node: memory and output do not
# grow with time, where a profile that kept its samples would be 4 times
# larger.  What may grow: the counts, 4 times larger, take a byte more
# where their varint crosses a power of 128 (6-12 % of a 4 KB profile of
# the same nodes on this host), and a longer run samples a few more paths.
. "$(dirname "$0")/../lib.sh"
need_sampling
if ! command -v jq > /dev/null; then
	skip "size growth per call-path node" "jq is not installed"
	done_testing
	exit
fi

# recurse has a call-path tree of a realistic size (a few hundred nodes),
# and reads the clock often enough that every run has samples in
# clock_gettime: before, under load, only some runs had that path (the
# [vdso] module and two frames, +6 % of the profile), which made this test
# fail now and then in the full suite.
# The paths only some runs take (the exit path, a vdso address) count by
# node; a second pair of runs is made before the growth counts.
build recurse recurse.c -O2 -g
# bytes_per_node DIR: the profile's size over its call-path tree's nodes
bytes_per_node() {
	report_json "$1"
	awk -v b="$(stat -c %s "$1"/*.cpprof)" -v n="$(jqr '[.callpath | recurse(.children[])] | length')" \
		'BEGIN { printf "%.2f %d %d\n", n ? b / n : 0, b, n }'
}
growth() { # -> G, the growth in % of a 5 s and a 20 s run, per node
	rm -rf "$WORK/short" "$WORK/long"
	record "$WORK/short" "$WORK/recurse" 5
	record "$WORK/long" "$WORK/recurse" 20
	read -r s sb sn <<< "$(bytes_per_node "$WORK/short")"
	read -r l lb ln <<< "$(bytes_per_node "$WORK/long")"
	echo "# profile bytes and nodes: 5 s run $sb, $sn; 20 s run $lb, $ln"
	G=$(awk -v s="$s" -v l="$l" 'BEGIN { print (s > 0 ? 100 * (l - s) / s : 1000) }')
}
growth
if awk -v g="$G" 'BEGIN { exit !(g > 25) }'; then
	echo "# $G % in the first pair: a second pair decides"
	growth
fi
atmost "size growth per call-path node 5 s -> 20 s (%)" "$G" 25
done_testing
