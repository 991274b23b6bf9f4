#!/usr/bin/env bash
# symbols.t - an always-inlined hot function is a frame of
# its own; a function in a library loaded with dlopen (and closed before
# exit) is symbolized with its module; a stripped library's static
# function is named from the debug file its .gnu_debuglink names, and no
# debuginfod client is loaded when that file is missing, when its samples
# are its module's ([libhidden.so], or its address with --raw-addresses);
# `cpperf report --debuginfod` names it from a debuginfod server's file,
# then from its client's cache; one with MiniDebugInfo (.gnu_debugdata)
# is named from it;
# C++ names are
# demangled; two worker threads both show up.
. "$(dirname "$0")/../lib.sh"
need_sampling

build inline inline.c -O2 -g
record "$WORK/exp-inline" "$WORK/inline" 2
report_json "$WORK/exp-inline"
atleast "inlined hot_inlined has self samples (%)" \
	"$(jqr '.flat[] | select(.function=="hot_inlined") | .self_pct')" 80
is "hot_inlined sits below outer in the call path" \
	"$(jqr '[.. | objects | select(.function=="outer") | .children[]?.function] | index("hot_inlined") != null')" true

cc -shared -fPIC -O2 -g -o "$WORK/libhot.so" "$TOP/tests/progs/hot.c"
build dlmain dlmain.c -O2 -g -ldl
record "$WORK/exp-dl" "$WORK/dlmain" "$WORK/libhot.so" 2
report_json "$WORK/exp-dl"
atleast "dlopen'd hot_spin self_pct" "$(jqr '.flat[] | select(.function=="hot_spin") | .self_pct')" 80
is "hot_spin's module is libhot.so" \
	"$(jqr '.flat[] | select(.function=="hot_spin") | .module' | sed 's|.*/||')" libhot.so

# a stripped library whose symbols are in a debug file named by its
# .gnu_debuglink (found beside it), and one whose debug file is missing:
# the missing one is not looked for on a debuginfod server (elfutils'
# client, with libcurl and its dependencies, is never loaded)
mkdir -p "$WORK/link" "$WORK/nolink"
for d in link nolink; do
	cc -shared -fPIC -O2 -g -o "$WORK/$d/libhidden.so" "$TOP/tests/progs/hidden.c"
	objcopy --only-keep-debug "$WORK/$d/libhidden.so" "$WORK/$d/libhidden.so.debug"
	strip --strip-unneeded "$WORK/$d/libhidden.so"
	(cd "$WORK/$d" && objcopy --add-gnu-debuglink=libhidden.so.debug libhidden.so)
done
mkdir -p "$WORK/served"
mv "$WORK/nolink/libhidden.so.debug" "$WORK/served/"
record "$WORK/exp-link" "$WORK/dlmain" "$WORK/link/libhidden.so" 2
report_json "$WORK/exp-link"
atleast "a static function named from the debug file .gnu_debuglink names (self %)" \
	"$(jqr '.flat[] | select(.function=="hidden_spin") | .self_pct')" 80
if command -v strace > /dev/null; then
	strace -f -e trace=openat -o "$WORK/strace-nolink" \
		"$RECORD" -q -o "$WORK/exp-nolink" "$WORK/dlmain" "$WORK/nolink/libhidden.so" 1
	is "no debuginfod client loaded for the missing debug file" \
		"$(grep -c 'libdebuginfod\|libcurl' "$WORK/strace-nolink")" 0
else
	skip "no debuginfod client loaded for the missing debug file" "strace is not installed"
	record "$WORK/exp-nolink" "$WORK/dlmain" "$WORK/nolink/libhidden.so" 1
fi
# without its debug file the static function has no name: its samples are
# the module's, one row; --raw-addresses names it by its address
report_json "$WORK/exp-nolink"
atleast "a static function without a symbol: its module's row, [libhidden.so] (self %)" \
	"$(jqr '[.flat[] | select(.function == "[libhidden.so]") | .self_pct] | add // 0')" 80
is "no function named by its address" "$(jqr '[.flat[] | select(.function | startswith("[0x"))] | length')" 0
is "nor a frame of the folded stacks" "$("$CPPERF" report "$WORK/exp-nolink" --format=folded | grep -c '\[0x')" 0
report_json "$WORK/exp-nolink" --raw-addresses
atleast "--raw-addresses: named by its address in libhidden.so (self %)" \
	"$(jqr '[.flat[] | select((.function | startswith("[0x")) and .module_name == "libhidden.so") | .self_pct] | add // 0')" 80

# serve_debuginfod: elfutils' debuginfod over $WORK/served on a port of
# its own, its pid in SERVER and its port in PORT; false when none
# started.  A server whose port another process holds exits at once:
# another port is tried, all below the kernel's default ephemeral ones
# (32768 up), which clients' connections take.
serve_debuginfod() {
	local try
	for try in 1 2 3 4 5 6 7 8; do
		PORT=$((20000 + (RANDOM + $$ + try) % 12000))
		rm -f "$WORK"/debuginfod.sqlite*
		debuginfod -p "$PORT" -F "$WORK/served" -d "$WORK/debuginfod.sqlite" \
			> "$WORK/debuginfod.log" 2>&1 &
		SERVER=$!
		for _ in $(seq 100); do
			kill -0 "$SERVER" 2> /dev/null || break
			grep -q "started http server on .*port=$PORT\$" "$WORK/debuginfod.log" && return 0
			sleep 0.1
		done
		kill "$SERVER" 2> /dev/null
		wait "$SERVER" 2> /dev/null
	done
	return 1
}

# --debuginfod: the missing debug file from a debuginfod server of the
# test's own (elfutils' debuginfod over a directory), at report time
if ! command -v debuginfod > /dev/null; then
	skip "--debuginfod" "debuginfod is not installed (contrib/install-deps.sh installs it)"
elif ! serve_debuginfod; then
	fail "--debuginfod: a server of the test's own answers" "$(tail -1 "$WORK/debuginfod.log")"
else
	server=$SERVER
	export DEBUGINFOD_URLS=http://127.0.0.1:$PORT DEBUGINFOD_CACHE_PATH=$WORK/debuginfod-cache
	for _ in $(seq 40); do	# until it has scanned the directory (a miss is cached)
		rm -rf "$DEBUGINFOD_CACHE_PATH"
		"$CPPERF" report "$WORK/exp-nolink" --debuginfod --format=json > "$WORK/report.json" 2> /dev/null &&
			[ "$(jqr '[.flat[] | select(.function=="hidden_spin")] | length')" = 1 ] && break
		sleep 0.5
	done
	atleast "--debuginfod: the static function named from the server's debug file (self %)" \
		"$(jqr '[.flat[] | select(.function=="hidden_spin") | .self_pct] | add // 0')" 80
	kill "$server"
	"$CPPERF" report "$WORK/exp-nolink" --debuginfod > /dev/null 2> "$WORK/dbgi.err"
	is "--debuginfod again, the server gone: named from the client's cache" \
		"$?:$(head -c 300 "$WORK/dbgi.err"):$("$CPPERF" report "$WORK/exp-nolink" --debuginfod | grep -c ' hidden_spin ')" "0::1"
	unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH
	"$CPPERF" report "$WORK/exp-nolink" --debuginfod > /dev/null 2> "$WORK/dbgi.err"
	is "--debuginfod without DEBUGINFOD_URLS: an error that says so" \
		"$?:$(cat "$WORK/dbgi.err")" "1:cpperf: --debuginfod: DEBUGINFOD_URLS names no server"
fi

# MiniDebugInfo (Fedora's .gnu_debugdata, an xz-compressed symbol table
# of the functions .dynsym lacks): a stripped library carrying one names
# its static function
if command -v xz > /dev/null; then
	m=$WORK/mini
	mkdir -p "$m"
	cc -shared -fPIC -O2 -g -o "$m/libhidden.so" "$TOP/tests/progs/hidden.c"
	nm -D "$m/libhidden.so" --format=posix --defined-only | awk '{ print $1 }' | sort > "$m/dynsyms"
	nm "$m/libhidden.so" --format=posix --defined-only | awk '$2 ~ /[Tt]/ { print $1 }' | sort > "$m/funcsyms"
	comm -13 "$m/dynsyms" "$m/funcsyms" > "$m/keep"
	objcopy --only-keep-debug "$m/libhidden.so" "$m/full.debug"
	objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols="$m/keep" \
		"$m/full.debug" "$m/mini"
	xz "$m/mini"
	strip --strip-all "$m/libhidden.so"
	objcopy --add-section .gnu_debugdata="$m/mini.xz" "$m/libhidden.so"
	record "$WORK/exp-mini" "$WORK/dlmain" "$m/libhidden.so" 1
	report_json "$WORK/exp-mini"
	atleast "a static function named from the library's MiniDebugInfo (self %)" \
		"$(jqr '[.flat[] | select(.function=="hidden_spin") | .self_pct] | add // 0')" 80
else
	skip "MiniDebugInfo" "xz is not installed"
fi

c++ -O2 -g -o "$WORK/cxx" "$TOP/tests/progs/cxx.cpp"
record "$WORK/exp-cxx" "$WORK/cxx" 2
report_json "$WORK/exp-cxx"
is "C++ method demangled" "$(jqr '[.flat[].function] | index("physics::Grid::relax(int)") != null')" true
is "C++ template demangled" \
	"$(jqr '[.flat[].function | select(startswith("long physics::accumulate<long>"))] | length')" 1

if command -v gfortran > /dev/null; then
	gfortran -O2 -g -fno-inline -J "$WORK" -o "$WORK/fortran" "$TOP/tests/progs/fortran.f90"
	record "$WORK/exp-f" "$WORK/fortran" > /dev/null
	report_json "$WORK/exp-f"
	atleast "Fortran module procedure readable as heat::relax" \
		"$(jqr '.flat[] | select(.function=="heat::relax") | .self_pct')" 80
	is "Fortran main program named" \
		"$(jqr '[.flat[].function | select(startswith("MAIN__"))] | length')" 1
else
	skip "Fortran names" "gfortran is not installed"
	skip "Fortran main program" "gfortran is not installed"
fi

build two-threads two-threads.c -O2 -g -pthread
record "$WORK/exp-thr" "$WORK/two-threads" 2
report_json "$WORK/exp-thr"
for f in work_a work_b; do
	atleast "$f self_pct" "$(jqr ".flat[] | select(.function==\"$f\") | .self_pct")" 35
done
atleast "threads with samples" "$(jqr '[.threads[] | select(([.samples[]] | add) > 100)] | length')" 2
done_testing
