#!/usr/bin/env bash
# crash.t - nothing lost when a process ends badly (docs/record.md "When a
# run ends badly"): fatal signals write a final profile marked partial and
# end the process as they would without cpperf (status, core flag, the
# program's own handlers); SIGKILL leaves the last checkpoint; a report
# of a running process says so; a directory that disappears or fills up
# costs one notice and nothing else; two runs in one directory stay apart.
. "$(dirname "$0")/../lib.sh"
need_sampling

build ends ends.c -O1 -g
E=$WORK/ends

# wait_for FILE TEXT: until FILE holds TEXT (at most 20 s).
wait_for() { for _ in $(seq 400); do grep -q "$2" "$1" 2> /dev/null && return 0; sleep 0.05; done; return 1; }
# start NAME ARGS...: cpperf-record ARGS in the background into $WORK/NAME,
# once the program said it started; its pid in BG.
start() {
	local name=$1; shift
	"$RECORD" -o "$WORK/$name" "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" &
	BG=$!
	wait_for "$WORK/$name.out" started || fail "$name: the program started" "$(cat "$WORK/$name.err")"
}
# finish: wait for the background run; its exit status in ST.
finish() { wait "$BG" 2> /dev/null; ST=$?; }
# core_flag CMD...: "core" when CMD died with a core dump, else "no core".
core_flag() { perl -e 'system(@ARGV); print $? & 128 ? "core" : "no core"' "$@" > /dev/null 2>&1; }

# a fatal signal from outside: the final profile, partial, and status 143
start term -q "$E" spin 60
sleep 1
kill -TERM "$BG"
finish
is "SIGTERM: status 143 as without cpperf" "$ST" 143
report_json "$WORK/term"
is "SIGTERM: the profile says why it ends early" "$(jqr '.experiment.partial[0].reason')" "signal SIGTERM"
atleast "SIGTERM: it covers the second before the signal" "$(jqr '.experiment.partial[0].covered_s')" 0.9
atleast "SIGTERM: samples up to the signal" "$(jqr '.experiment.samples')" 1
is "SIGTERM: the lock file is gone" "$(ls -A "$WORK/term" | grep -c live)" 0

# faults: same status and core flag as without cpperf
for how in segv abort chain overflow; do
	want=$(cd "$WORK" && ulimit -c unlimited 2> /dev/null; core_flag "$E" "$how" 0.3; echo " $?")
	got=$(cd "$WORK" && ulimit -c unlimited 2> /dev/null; core_flag "$RECORD" -q -o "$WORK/$how" "$E" "$how" 0.3; echo " $?")
	rm -f "$WORK"/core*
	is "$how: exit status and core flag as without cpperf" "$got" "$want"
	report_json "$WORK/$how"
	is "$how: the reason" "$(jqr '.experiment.partial[0].reason')" \
		"signal $([ "$how" = abort ] && echo SIGABRT || echo SIGSEGV)"
done
is "the program's own SIGSEGV handler ran first" \
	"$("$RECORD" -q -o "$WORK/chain2" "$E" chain 0.1 2> /dev/null)" "started
caught SIGSEGV"

# the program's own SIGTERM handler, and SIGTERM ignored
start handler -q "$E" handler 60
sleep 0.5
kill -TERM "$BG"
finish
is "own handler: its exit status" "$ST" 5
is "own handler: it ran" "$(tail -1 "$WORK/handler.out")" "handled SIGTERM"
report_json "$WORK/handler"
is "own handler: the program ended as it chose: a whole profile" "$(jqr '.experiment.partial | length')" 0
start ignore -q "$E" ignore 1.5
kill -TERM "$BG"
finish
is "SIGTERM ignored by the program: it runs on and exits 0" "$ST" 0
"$E" view > "$WORK/view.plain"
"$RECORD" -q -o "$WORK/view" "$E" view > "$WORK/view.cpperf"
check "the program sees and sets its dispositions as without cpperf" cmp "$WORK/view.plain" "$WORK/view.cpperf"

# SIGKILL: the last checkpoint stays; while running, the report says LIVE
start kill -q --checkpoint=0.3 "$E" spin 60
sleep 2
"$CPPERF" report "$WORK/kill" > "$WORK/live.txt" 2>&1
check "a running process: the report says LIVE" grep -q '^# LIVE: the run is still going' "$WORK/live.txt"
report_json "$WORK/kill"
is "a running process: the writer is running" "$(jqr '.experiment.partial[0].writer')" running
kill -KILL "$BG"
finish
is "SIGKILL: status 137" "$ST" 137
report_json "$WORK/kill"
is "SIGKILL: the last checkpoint is the profile" "$(jqr '.experiment.partial[0].reason')" checkpoint
is "SIGKILL: its writer is known dead" "$(jqr '.experiment.partial[0].writer + " " + (.experiment.live | tostring)')" "dead false"
atleast "SIGKILL: the checkpoint covers most of the run" "$(jqr '.experiment.partial[0].covered_s')" 1
atleast "checkpoints are counted" "$(jqr '.experiment.checkpoints')" 3
check "SIGKILL: the text names it" grep -q 'checkpoint at .* s, then ended without a final profile' \
	<("$CPPERF" report "$WORK/kill")

# the experiment directory disappears: one notice, the program unaffected
start gone --checkpoint=0.2 "$E" spin 1.5
rm -rf "$WORK/gone"
finish
is "directory gone: the program's status" "$ST" 0
is "directory gone: the program's output" "$(cat "$WORK/gone.out")" started
is "directory gone: one notice for the failing checkpoints" "$(grep -c 'checkpoint failed' "$WORK/gone.err")" 1
check "directory gone: the final profile is said lost" grep -q 'profile lost' "$WORK/gone.err"

# a full disk: the previous checkpoint stays valid
mkdir -p "$WORK/small"
if mount -t tmpfs -o size=256k tmpfs "$WORK/small" 2> /dev/null; then
	start full --checkpoint=0.2 -o "$WORK/small/exp" "$E" spin 2
	wait_file "$WORK/small/exp" '*.cpprof' || fail "full disk: a first checkpoint"
	dd if=/dev/zero of="$WORK/small/fill" bs=4k 2> /dev/null
	finish
is "full disk: the program's status" "$ST" 0
	is "full disk: one notice" "$(grep -c 'checkpoint failed' "$WORK/full.err")" 1
	report_json "$WORK/small/exp"
	is "full disk: the previous checkpoint is read" "$(jqr '.experiment.partial[0].reason')" checkpoint
	umount "$WORK/small"
else
	skip "full disk: a checkpoint fails" "cannot mount a small tmpfs here (not root?)"
fi

# two runs into one directory at once: kept apart
"$RECORD" -q -o "$WORK/two" "$E" spin 1 > /dev/null &
a=$!
"$RECORD" -q -o "$WORK/two" "$E" spin 1.3 > /dev/null
wait "$a"
report_json "$WORK/two"
is "two runs: the report reads one" "$(jqr '.experiment.processes')" 1
is "two runs: and names the other" "$(jqr '.experiment.other_runs | length')" 1
other=$(jqr '.experiment.other_runs[0].run')
report_json "$WORK/two" --run="$other"
is "two runs: --run reads the other" "$(jqr '.experiment.run + " " + (.experiment.processes | tostring)')" "$other 1"
done_testing
