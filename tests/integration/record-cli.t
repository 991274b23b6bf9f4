#!/usr/bin/env bash
# record-cli.t - cpperf-record passes the program's behaviour through
# untouched and rejects bad input before the program starts.
. "$(dirname "$0")/../lib.sh"
need_sampling

build behave behave.c -O2 -g
B=$WORK/behave

# exit status, stdout and stderr pass through
out=$("$RECORD" -q -o "$WORK/e1" "$B" exit 7 2> "$WORK/err"); st=$?
is "exit status passes through" "$st" 7
is "stdout passes through" "$out" "to stdout"
is "stderr passes through" "$(cat "$WORK/err")" "to stderr"
# the shell's own "Terminated" goes, the program's stderr stays
{ "$RECORD" -q -o "$WORK/e2" "$B" signal 2>&3; st=$?; } 3>&2 2> /dev/null
is "death by signal passes through (128+SIGTERM)" "$st" 143
is "LD_PRELOAD already set is kept" \
	"$(LD_PRELOAD=libm.so.6 "$RECORD" -q -o "$WORK/e3" "$B" env LD_PRELOAD | tr ':' '\n' | tail -1)" libm.so.6
is "options reach the runtime through CPPERF_*" "$("$RECORD" -q -F 333 -o "$WORK/e3" "$B" env CPPERF_FREQ)" 333

# a software event needs neither libpfm4 nor PAPI: the program runs
# without them mapped (loading them costs a process milliseconds); named,
# since on a host with a PMU the default is cycles, which libpfm4 encodes
"$RECORD" -q -e task-clock -o "$WORK/e5" cat /proc/self/maps > "$WORK/maps"
is "task-clock: the runtime is loaded" "$(grep -o '/[^ ]*/libcpperf[^ /]*\.so' "$WORK/maps" | sort -u | wc -l)" 1
is "task-clock: libpfm4 and PAPI are not" "$(grep -cE 'libpfm|libpapi' "$WORK/maps")" 0

# the runtime never touches the network, even when the environment names a
# debuginfod server (libdw's standard debug-info search would download);
# its own wake-up socket is a local one connected to itself
if command -v strace > /dev/null; then
	DEBUGINFOD_CACHE_PATH=$WORK/dcache DEBUGINFOD_URLS=http://127.0.0.1:9 strace -f -e trace=connect -o "$WORK/strace" \
		"$RECORD" -q -o "$WORK/e4" "$B" vdso > /dev/null 2>&1
	is "no connect() with DEBUGINFOD_URLS set" "$(grep 'connect(' "$WORK/strace" | grep -vc 'sa_family=AF_UNIX, sun_path=@')" 0
else
	skip "no connect() with DEBUGINFOD_URLS set" "strace is not installed"
fi

# bad input: non-zero before PROG starts, with a message naming the problem
expect_error() { # NAME PATTERN STATUS ARGS...
	local name=$1 pat=$2 want=$3; shift 3
	rm -f "$WORK/started"
	"$RECORD" "$@" > /dev/null 2> "$WORK/err"; local st=$?
	if [ "$st" = "$want" ] && grep -qE "$pat" "$WORK/err" && [ ! -e "$WORK/started" ]; then
		ok "$name"
	else
		fail "$name" "status $st (want $want), stderr: $(cat "$WORK/err")"
	fi
}
T="$B touch $WORK/started"
expect_error "unknown event names it, suggests, points to cpperf list" \
	"task-clok.*task-clock.*cpperf list" 2 -e task-clok -o "$WORK/x1" $T
if "$CPPERF" list | grep -q "no hardware PMU"; then
	expect_error "hardware event without a PMU is refused" "hardware PMU" 2 -e cycles -o "$WORK/x2" $T
	"$RECORD" -o "$WORK/x3" $T 2> "$WORK/err"
	check "no event asked: falls back to task-clock with a notice" grep -q "task-clock" "$WORK/err"
else
	skip "hardware event without a PMU is refused" "this host has a PMU"
	skip "fallback to task-clock" "this host has a PMU"
fi
expect_error "bad -F value names the option" "\-\-freq.*abc" 2 -F abc -o "$WORK/x4" $T
expect_error "bad --call-graph value lists the choices" "dwarf, fp, none" 2 --call-graph=lbr -o "$WORK/x5" $T
expect_error "unknown option" "unknown option '--bogus'" 2 --bogus $T
expect_error "missing program: shell's status 127" "nope: command not found" 127 -o "$WORK/x6" nope
expect_error "missing path: 127" "No such file" 127 -o "$WORK/x7" "$WORK/nope"
cp "$TOP/tests/progs/behave.c" "$WORK/notexec"
expect_error "not executable: 126" "Permission denied" 126 -o "$WORK/x8" "$WORK/notexec"
touch "$WORK/afile"
expect_error "-o on a file is refused before start" "afile.*not a directory" 2 -o "$WORK/afile" $T
expect_error "-o somewhere unwritable is refused before start" "/proc/cpperf" 2 -o /proc/cpperf $T
check "a failed start leaves no experiment directory" test ! -e "$WORK/x6" -a ! -e "$WORK/x1"

# exec keeps profiling: a launcher script that execs the real binary
cat > "$WORK/launch.sh" <<SH
#!/bin/sh
exec "$B" fork "$WORK/ignored"
SH
chmod +x "$WORK/launch.sh"
record "$WORK/exec" "$WORK/launch.sh"
report_json "$WORK/exec"
atleast "the exec'd binary is profiled (parent_work samples)" \
	"$(jqr '.flat[] | select(.function=="parent_work") | .self_pct')" 20
is "a forked child is not profiled by default" \
	"$(jqr '[.flat[] | select(.function=="child_work")] | length')" 0
record "$WORK/ff" --follow-fork "$B" fork "$WORK/ignored"
report_json "$WORK/ff"
atleast "--follow-fork profiles the child" \
	"$(jqr '.flat[] | select(.function=="child_work") | .self_pct')" 20
is "--follow-fork: two processes" "$(jqr '.experiment.processes')" 2

# a group: the leader samples, the member is read with each sample (the
# kernel refuses members on another clock than the leader's)
"$RECORD" -o "$WORK/grp" -e '{task-clock,page-faults}' "$B" fork "$WORK/ignored" 2> "$WORK/err"
is "a group opens: no thread left unprofiled" "$(grep -c 'not profiled' "$WORK/err")" 0
report_json "$WORK/grp"
is "a group: both events in the report" "$(jqr '[.experiment.events[].name] | join(",")')" \
	"task-clock,page-faults"
atleast "a group: the leader sampled (parent_work samples)" \
	"$(jqr '.flat[] | select(.function=="parent_work") | .self."task-clock"')" 50
done_testing
