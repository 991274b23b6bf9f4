#!/usr/bin/env bash
# size.t - acceptance 5: profiles of a 5 s and a 20 s run of the same program
# differ in size by less than 10 % (memory and output do not grow with time).
. "$(dirname "$0")/../lib.sh"
need_sampling

# recurse has a call-path tree of a realistic size (a few hundred nodes),
# and reads the clock often enough that every run has samples in
# clock_gettime: before, under load, only some runs had that path (the
# [vdso] module and two frames, +6 % of the profile), which made this test
# fail now and then in the full suite.
build recurse recurse.c -O2 -g
record "$WORK/short" "$WORK/recurse" 5
record "$WORK/long" "$WORK/recurse" 20
s=$(stat -c %s "$WORK"/short/*.cpprof)
l=$(stat -c %s "$WORK"/long/*.cpprof)
echo "# profile bytes: 5 s run $s, 20 s run $l"
atmost "size growth 5 s -> 20 s (%)" "$(awk -v s="$s" -v l="$l" 'BEGIN { print 100 * (l - s) / s }')" 10
done_testing
