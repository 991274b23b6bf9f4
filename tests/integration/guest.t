#!/usr/bin/env bash
# guest.t - the runtime is a guest in the program's process: descriptors the
# program closes, reuses or limits stay the program's; the locked memory an
# ordinary user has is enough for many threads, alive at once or short-lived,
# and for many processes; ring buffers are sized as asked.  Passes as root
# and as an ordinary user with the default limits.
. "$(dirname "$0")/../lib.sh"
need_sampling

build take-fds take-fds.c -O2 -g -pthread
build threads-alive threads-alive.c -O2 -g -pthread
build thread-churn thread-churn.c -O2 -g -pthread

# A program that closes every descriptor above 2, then opens files of its
# own at those numbers: its files are exactly as without cpperf, the drain
# thread does not spin on descriptors that are no longer its own, and the
# notice comes once.
mkdir -p "$WORK/plain" "$WORK/rec"
"$WORK/take-fds" close "$WORK/plain" 2 > /dev/null
"$RECORD" -o "$WORK/e1" "$WORK/take-fds" close "$WORK/rec" 2 > "$WORK/cpu" 2> "$WORK/err1"
is "closefrom: exit status" "$?" 0
check "closefrom: the program's files are byte-identical to the plain run's" diff -r "$WORK/plain" "$WORK/rec"
is "closefrom: the notice comes once" "$(grep -c 'closed or reused descriptors' "$WORK/err1")" 1
report_json "$WORK/e1"
jq_vars "$WORK/report.json" threads '.threads | length' samples '.experiment.samples' \
	drain '.experiment.drain_cpu_seconds'
is "closefrom: both threads are profiled" "$threads" 2
atleast "closefrom: the run is sampled on" "$samples" 100
# a drain thread that polls the program's files spins for the whole run
atmost "closefrom: the drain thread stays idle (CPU seconds)" "$drain" 0.15

# RLIMIT_NOFILE lowered by the program: it opens as many files as without
# cpperf (the runtime's descriptors sit above the new limit)
is "RLIMIT_NOFILE 16: the program opens as many files as without cpperf" \
	"$("$RECORD" -q -o "$WORK/e2" "$WORK/take-fds" nofile)" "$("$WORK/take-fds" nofile)"

# 200 threads alive at once: every one profiled, whatever the locked-memory
# limit; a limit that shrinks rings is said once, not per thread
"$RECORD" -o "$WORK/e3" "$WORK/threads-alive" 200 0.5 2> "$WORK/err3"
is "200 threads: exit status" "$?" 0
is "200 threads: none refused" "$(grep -c 'not profiled' "$WORK/err3")" 0
atmost "200 threads: a short locked memory is said at most once" "$(grep -c 'locked memory' "$WORK/err3")" 1
report_json "$WORK/e3"
jq_vars "$WORK/report.json" threads '.threads | length' sampled '[.threads[] | select(.samples[] > 0)] | length'
is "200 threads: every thread is in the profile" "$threads" 201
atleast "200 threads: nearly every one has samples" "$sampled" 190

# threads that begin and end all the time: none refused (exited threads'
# rings go back to the budget)
"$RECORD" -o "$WORK/e4" "$WORK/thread-churn" 1 2> "$WORK/err4"
is "thread churn: exit status" "$?" 0
is "thread churn: none refused" "$(grep -c 'not profiled' "$WORK/err4")" 0
report_json "$WORK/e4"
atleast "thread churn: its threads are in the profile" "$(jqr '.threads | length')" 100

# 64 processes of one user at once: each profiled (the user's share of
# locked memory is shared by them all)
for i in $(seq 64); do
	"$RECORD" -q -o "$WORK/p$i" "$WORK/threads-alive" 1 0.1 2> "$WORK/perr$i" &
done
wait
is "64 processes: none refused" "$(cat "$WORK"/perr* | grep -c 'not profiled')" 0
is "64 processes: 64 profiles" "$(ls "$WORK"/p*/*.cpprof | wc -l)" 64
for i in $(seq 64); do
	"$CPPERF" report "$WORK/p$i" --format=json > "$WORK/p$i.json"
done
# (one jq for the 64 reports: one it cannot read, and those after it, count as bad)
is "64 processes: each profiled both its threads" \
	"$((64 - $(jq '.threads | length' "$WORK"/p*.json 2> /dev/null | grep -cx 2)))" 0

# ring buffer sizes: the default holds 64 ms at the rate, -m sets it
ring_pages() { # the pages of the perf ring mapped in `cat /proc/self/maps`
	local r
	r=$(grep -m1 perf_event "$1" | cut -d' ' -f1)
	[ -n "$r" ] && echo $(((0x${r#*-} - 0x${r%-*}) / $(getconf PAGESIZE)))
}
"$RECORD" -q -o "$WORK/e5" cat /proc/self/maps > "$WORK/maps5"
is "default ring: 256 data pages and the meta page" "$(ring_pages "$WORK/maps5")" 257
"$RECORD" -q -m 4 -o "$WORK/e6" cat /proc/self/maps > "$WORK/maps6"
is "-m 4: 4 data pages" "$(ring_pages "$WORK/maps6")" 5
CPPERF_MMAP_PAGES=64K "$RECORD" -q -o "$WORK/e7" cat /proc/self/maps > "$WORK/maps7"
is "CPPERF_MMAP_PAGES=64K: 16 data pages" "$(ring_pages "$WORK/maps7")" 17
"$RECORD" -q -m 3 -o "$WORK/e8" /bin/true 2> "$WORK/err8"
is "-m 3: refused" "$?" 2
check "-m 3: the message names the option and says why" grep -q -- '--mmap-pages.*power of two' "$WORK/err8"

done_testing
