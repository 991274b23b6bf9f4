#!/usr/bin/env bash
# refuse.t - cpperf-record refuses, before anything runs, what it cannot
# start or profile, and says what to do (docs/record.md "Programs that
# cannot be profiled"): statically linked programs (static-pie too, and
# scripts whose interpreter is one), programs the kernel runs in
# secure-execution mode (set-user-ID, set-group-ID, file capabilities), a
# directory, a file that is not executable, a script whose interpreter is
# missing.  What can be profiled is not misjudged: set-user-ID programs
# the kernel runs as the caller, set-user-ID scripts, scripts through
# /usr/bin/env, the dynamic loader run as a program.  Whether the kernel
# runs a file in secure-execution mode is its own word (behave secure
# prints AT_SECURE), run as root and as another user.
. "$(dirname "$0")/../lib.sh"
need_sampling

build behave behave.c -O1 -g
B=$WORK/behave
uid=$(id -u)

# refused NAME PATTERN STATUS PROG...: cpperf-record -o DIR PROG... exits
# with STATUS and says PATTERN; PROG never ran (behave touch would make
# $WORK/started, behave exit prints), and no experiment directory is left.
refused() {
	local name=$1 pat=$2 want=$3 st; shift 3
	rm -rf "$WORK/started" "$WORK/x"
	"$RECORD" -q -o "$WORK/x" "$@" > "$WORK/out" 2> "$WORK/err"; st=$?
	if [ "$st" = "$want" ] && grep -qE "$pat" "$WORK/err" && [ ! -s "$WORK/out" ] &&
	   [ ! -e "$WORK/started" ] && [ ! -e "$WORK/x" ]; then
		ok "$name"
	else
		fail "$name" "status $st (want $want), stdout: $(head -c 200 "$WORK/out")" \
			"stderr: $(cat "$WORK/err")" "left: $(ls "$WORK/x" 2>&1)"
	fi
}
# profiled NAME PROG...: cpperf-record runs PROG... (behave), which exits
# 0, and leaves its profile.
profiled() {
	local name=$1 st; shift
	rm -rf "$WORK/p"
	"$RECORD" -q -o "$WORK/p" "$@" > "$WORK/out" 2> "$WORK/err"; st=$?
	if [ "$st" = 0 ] && [ "$(ls "$WORK/p" 2> /dev/null | grep -c 'cpprof$')" -ge 1 ]; then
		ok "$name"
	else
		fail "$name" "status $st, stderr: $(cat "$WORK/err")" "left: $(ls -A "$WORK/p" 2>&1)"
	fi
}
T="touch $WORK/started"

# statically linked programs never run the loader that reads LD_PRELOAD
if build static behave.c -O1 -static 2> /dev/null; then
	refused "a static program is refused" "static is statically linked: the runtime cannot be preloaded.*without -static" 2 \
		"$WORK/static" $T
	printf '#!%s exit\n' "$WORK/static" > "$WORK/static-interp.sh"
	chmod +x "$WORK/static-interp.sh"
	refused "a script whose interpreter is static is refused" \
		"static-interp.sh's interpreter .*/static is statically linked.*#! line" 2 "$WORK/static-interp.sh"
else
	skip "a static program is refused" "cc -static cannot link here (no libc.a)"
	skip "a script whose interpreter is static is refused" "cc -static cannot link here"
fi
if build static-pie behave.c -O1 -static-pie 2> /dev/null; then
	refused "a static-pie program is refused" "is statically linked \(static-pie\).*without -static-pie" 2 \
		"$WORK/static-pie" $T
else
	skip "a static-pie program is refused" "cc -static-pie cannot link here"
fi

# what the loader starts is not misjudged
loader=$(readelf -l "$B" | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
if [ -x "$loader" ]; then
	profiled "the dynamic loader run as a program is profiled" "$loader" "$B" exit 0
else
	skip "the dynamic loader run as a program is profiled" "no loader found in $B"
fi
printf '#!/usr/bin/env sh\nexec "%s" "$@"\n' "$B" > "$WORK/env.sh"
chmod +x "$WORK/env.sh"
profiled "a script through /usr/bin/env is profiled" "$WORK/env.sh" exit 0

# files that are no program
mkdir "$WORK/adir"
refused "a directory is refused" "adir is a directory, not a program" 126 "$WORK/adir"
printf 'echo hi\n' > "$WORK/text"
refused "a file that is not executable: its mode and what to do" \
	"text: Permission denied: not executable \(mode 0644\); make it executable \(chmod \+x" 126 "$WORK/text"
printf '#!%s/no-such-shell\n' "$WORK" > "$WORK/lost.sh"
chmod +x "$WORK/lost.sh"
refused "a script whose interpreter is missing names it" "lost.sh: bad interpreter .*/no-such-shell" 127 \
	"$WORK/lost.sh"
chmod +x "$WORK/text"
rm -rf "$WORK/x"
"$RECORD" -q -o "$WORK/x" "$WORK/text" > /dev/null 2> "$WORK/err"; st=$?
check "a file without #! that the kernel will not run: status 126, and what to do" \
	grep -q "text: Exec format error: .* add one (#!/bin/sh)" "$WORK/err"
is "a file without #!: its status" "$st" 126

# secure-execution mode: the kernel's word against cpperf-record's
# judged NAME FILE PATTERN: FILE run in secure-execution mode (the kernel
# says so) is refused saying PATTERN; otherwise it is profiled.
judged() {
	if [ "$("$2" secure)" = 1 ]; then
		refused "$1: the kernel runs it in secure-execution mode: refused" "$3" 2 "$2" $T
	else
		profiled "$1: the kernel runs it as the caller: profiled" "$2" exit 0
	fi
}
# mine NAME: a copy of behave owned by the caller.
mine() { cp "$B" "$WORK/$1"; echo "$WORK/$1"; }

f=$(mine suid-mine); chmod u+s "$f"
judged "set-user-ID to the caller" "$f" "set-user-ID"
f=$(mine sgid-mine); chmod g+s "$f"
judged "set-group-ID to the caller's group" "$f" "set-group-ID"
f=$(mine suid-script.sh); printf '#!/bin/sh\nexec "%s" "$@"\n' "$B" > "$f"; chmod 4755 "$f"
profiled "a set-user-ID script is profiled (the kernel ignores the bit)" "$f" exit 0
if [ "$uid" = 0 ]; then
	f=$(mine suid-nobody); chown nobody "$f"; chmod u+s "$f"
	judged "set-user-ID to nobody, run by root" "$f" "suid-nobody is set-user-ID to nobody: the dynamic loader ignores LD_PRELOAD.*run cpperf-record as nobody"
	f=$(mine sgid-nogroup); chgrp "$(id -gn nobody)" "$f"; chmod g+s "$f"
	judged "set-group-ID to nobody's group, run by root" "$f" "sgid-nogroup is set-group-ID to $(id -gn nobody):.*sg $(id -gn nobody)"
	printf '#!%s secure\n' "$WORK/suid-nobody" > "$WORK/suid-interp.sh"
	chmod +x "$WORK/suid-interp.sh"
	judged "a script whose interpreter is set-user-ID to nobody, run by root" "$WORK/suid-interp.sh" \
		"suid-interp.sh's interpreter .*/suid-nobody is set-user-ID to nobody"
else
	for name in "set-user-ID to another user" "set-group-ID to another group" \
		"a script whose interpreter is set-user-ID to another user: refused"; do
		skip "$name" "making it needs root; the system's own are refused below"
	done
fi
# the system's set-user-ID root and set-group-ID programs, for a caller
# that is not root (harmless arguments, should a regression run them)
nosuid() { findmnt -n -o OPTIONS -T "$1" 2> /dev/null | grep -qw nosuid || grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status; }
if [ "$uid" = 0 ]; then
	skip "a set-user-ID root program is refused to another user" "run as root: tested by the copies above"
	skip "a set-group-ID program is refused to another group" "run as root: tested by the copies above"
else
	f=$(for p in /usr/bin/mount /bin/mount /usr/bin/su /bin/su; do [ -u "$p" ] && [ "$(stat -c %u "$p")" = 0 ] && { echo "$p"; break; }; done)
	if [ -z "$f" ] || nosuid "$f"; then
		skip "a set-user-ID root program is refused to another user" "no set-user-ID mount or su honoured here"
	else
		refused "a set-user-ID root program is refused to another user" "$f is set-user-ID to root:.*run cpperf-record as root" 2 \
			"$f" --version
	fi
	f=$(for p in /usr/bin/chage /usr/bin/expiry; do [ -g "$p" ] && ! id -G | grep -qw "$(stat -c %g "$p")" && { echo "$p"; break; }; done)
	if [ -z "$f" ] || nosuid "$f"; then
		skip "a set-group-ID program is refused to another group" "no set-group-ID chage or expiry here"
	else
		refused "a set-group-ID program is refused to another group" "$f is set-group-ID to" 2 "$f" --help
	fi
fi
# file capabilities: nothing for root, secure-execution mode for others
if [ "$uid" = 0 ] && command -v setcap > /dev/null && command -v runuser > /dev/null; then
	mkdir -m 0777 "$WORK/shared"
	chmod o+x "$WORK"
	cp "$B" "$WORK/shared/caps"
	if setcap cap_net_raw+ep "$WORK/shared/caps" 2> /dev/null; then
		judged "file capabilities, run by root" "$WORK/shared/caps" "file capabilities"
		if [ "$(runuser -u nobody -- "$WORK/shared/caps" secure)" = 1 ]; then
			runuser -u nobody -- "$RECORD" -q -o "$WORK/shared/x" "$WORK/shared/caps" exit 0 \
				> "$WORK/out" 2> "$WORK/err"; st=$?
			is "file capabilities, run by another user: refused before it runs" "$st $(wc -c < "$WORK/out")" "2 0"
			check "file capabilities: the message says so" grep -q "caps has file capabilities (getcap" "$WORK/err"
		else
			skip "file capabilities, run by another user: refused" "the kernel runs it as the caller"
			skip "file capabilities: the message says so" "the kernel runs it as the caller"
		fi
	else
		skip "file capabilities, run by root" "setcap fails on this file system"
		skip "file capabilities, run by another user: refused" "setcap fails on this file system"
		skip "file capabilities: the message says so" "setcap fails on this file system"
	fi
else
	skip "file capabilities, run by root" "needs root, setcap and runuser"
	skip "file capabilities, run by another user: refused" "needs root, setcap and runuser"
	skip "file capabilities: the message says so" "needs root, setcap and runuser"
fi
done_testing
