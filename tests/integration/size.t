#!/usr/bin/env bash
# size.t - profiles of a 5 s and a 20 s run of the same program
# differ in size by less than 10 % (memory and output do not grow with time).
. "$(dirname "$0")/../lib.sh"
need_sampling

# recurse has a call-path tree of a realistic size (a few hundred nodes),
# and reads the clock often enough that every run has samples in
# clock_gettime: before, under load, only some runs had that path (the
# [vdso] module and two frames, +6 % of the profile), which made this test
# fail now and then in the full suite.
# A sample now and then on a path only some runs take (the exit path, a
# vdso address) adds half a kilobyte to a 4 KB profile: a second pair of
# runs is made before the growth counts, so a real growth (a profile that
# grows with time is 4 times larger) fails and a rare path does not.
build recurse recurse.c -O2 -g
growth() { # -> G, the growth in % of a 5 s and a 20 s run
	rm -rf "$WORK/short" "$WORK/long"
	record "$WORK/short" "$WORK/recurse" 5
	record "$WORK/long" "$WORK/recurse" 20
	s=$(stat -c %s "$WORK"/short/*.cpprof)
	l=$(stat -c %s "$WORK"/long/*.cpprof)
	echo "# profile bytes: 5 s run $s, 20 s run $l"
	G=$(awk -v s="$s" -v l="$l" 'BEGIN { print 100 * (l - s) / s }')
}
growth
if awk -v g="$G" 'BEGIN { exit !(g > 10) }'; then
	echo "# $G % in the first pair: a second pair decides"
	growth
fi
atmost "size growth 5 s -> 20 s (%)" "$G" 10
done_testing
