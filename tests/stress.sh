#!/bin/bash
# stress.sh - make check-stress: MPI programs run in a loop under
# `mpirun ... cpperf-record` with the ASan/UBSan builds of the runtimes
# (build/stress/lib), both MPIs, a CPU load beside them, and options, rank
# counts and seeds drawn at random, for STRESS_SECONDS (default 180; the
# run under way then finishes, at most STRESS_RUN_TIMEOUT more).  A
# sanitizer report, a signal, a hang (the run's time limit), a non-zero
# exit, a wrong result (the programs check their data), a piggyback
# mismatch in check mode, a missing profile or one the report tool cannot
# read is a failure: its line names the MPI, program, ranks, options and
# seeds, and its files (command, output, sanitizer logs, experiment) stay
# in build/stress/failures/N.  First, sanitized builds of the plain
# runtime record threaded programs without MPI (STRESS_PLAIN=0 skips
# them): ThreadSanitizer's two-threads.c and thread-churn.c, ASan's
# exit-thread.c.
#
# Environment: STRESS_SECONDS, STRESS_SEED (the draws; default: the
# time), STRESS_MPIS ("openmpi mpich"), STRESS_PROGS (names to draw from),
# STRESS_LOAD (busy loops beside the runs; default: the number of CPUs),
# STRESS_RUN_TIMEOUT (seconds a run may take, default 150), STRESS_PLAIN=0
# (no runs without MPI), STRESS_KEEP=1 (keep every run's files).  Exits 1
# when any run failed.
set -u
TOP=${CPPERF_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
. "$TOP/tests/mpi-lib.sh"
RECORD=$TOP/bin/cpperf-record
CPPERF=$TOP/build/san/bin/cpperf
[ -x "$CPPERF" ] || CPPERF=$TOP/bin/cpperf
OUT=$TOP/build/stress
SECONDS_WANTED=${STRESS_SECONDS:-180}
SEED=${STRESS_SEED:-$(date +%s)}
MPIS=${STRESS_MPIS:-openmpi mpich}
LOAD=${STRESS_LOAD:-$(nproc)}
RUN_TIMEOUT=${STRESS_RUN_TIMEOUT:-150}
ASAN_LIB=$(${CC:-cc} -print-file-name=libasan.so)
TSAN_LIB=$(${CC:-cc} -print-file-name=libtsan.so)
RANDOM=$SEED

. "$TOP/tests/stress-programs.sh"

# pick WORDS...: one of them at random.
pick() { local a=("$@"); echo "${a[RANDOM % ${#a[@]}]}"; }

# --- building

# build_prog MPI NAME SRC: the program plain and with ASan/UBSan into
# $OUT/progs/MPI/ (NAME and NAME-asan), when older than its source or a
# header of tests/progs.
build_prog() {
	local dir=$OUT/progs/$1 name=$2 src=$TOP/tests/progs/$3 cc flags
	mkdir -p "$dir"
	if [ "$dir/$name-asan" -nt "$src" ] &&
		! find "$TOP/tests/progs" -name '*.h' -newer "$dir/$name-asan" | grep -q .; then
		return 0
	fi
	case $src in
	*.f90) cc=$MPIFC flags="-g -O1" ;;
	*) cc=$MPICC flags="-std=gnu17 -g -O1 -Wno-stringop-overflow" ;;
	esac
	[ -n "$cc" ] || return 1
	# shellcheck disable=SC2086
	"$cc" $flags -o "$dir/$name" "$src" -lpthread &&
		"$cc" $flags -fsanitize=address,undefined -fno-omit-frame-pointer \
			-o "$dir/$name-asan" "$src" -lpthread
}

# --- the load beside the runs

LOAD_PIDS=()
start_load() {
	for ((i = 0; i < LOAD; i++)); do
		( while :; do :; done ) &
		LOAD_PIDS+=($!)
	done
}
stop_load() {
	for p in "${LOAD_PIDS[@]}"; do kill "$p" 2> /dev/null; done
	wait "${LOAD_PIDS[@]}" 2> /dev/null
	LOAD_PIDS=()
}
trap stop_load EXIT
trap 'exit 130' INT TERM

# --- one run

RUNS=0 FAILED=0

# sanitizer_env DIR: the sanitizers' options for a run whose logs go to
# DIR.  Only our code is instrumented; ASan's interceptors also check the
# MPI libraries' calls (memcpy, process_vm_readv, ...), and such a report
# stays fatal too, since what we pass MPI can cause it: verdict says whose
# frame it is, and tests/stress-asan.supp takes the reports shown to be
# the library's alone.  Leaks are not checked (MPI keeps memory until
# exit).  cpperf-record puts the runtime in
# front of the sanitizer's in LD_PRELOAD, and that order is kept on
# purpose (verify_asan_link_order=0): our pthread_create then hands the
# sanitizer's its start routine, so the sanitizer has set the new thread
# up before our instrumented code runs in it (the other way round,
# ThreadSanitizer crashes in our thread start).
sanitizer_env() {
	echo "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0:halt_on_error=1:handle_abort=1:log_path=$1/asan:suppressions=$TOP/tests/stress-asan.supp" \
		"UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$1/ubsan"
}

# draw_options: cpperf-record options and environment for one run, into
# OPTS and XENV.
draw_options() {
	local rate=(-F "$(pick 1000 4000 10000)")
	((RANDOM % 10 == 0)) && rate=(-c 250000)	# task-clock: every 250 us
	OPTS=(-q "${rate[@]}" --call-graph="$(pick dwarf dwarf fp none)")
	XENV=()
	case $((RANDOM % 5)) in 0) OPTS+=(--stack-size="$(pick 2048 65528)") ;; esac
	case $((RANDOM % 8)) in 0) OPTS+=(-e '{task-clock,page-faults}') ;; esac
	if ((RANDOM % 5 == 0)); then
		OPTS+=(--no-piggyback)
		return
	fi
	case $((RANDOM % 4)) in 0) XENV+=(CPPERF_PIGGYBACK_CHECK=1) ;; esac
	case $((RANDOM % 6)) in 0) OPTS+=(--cp-trace) ;; esac
	case $((RANDOM % 8)) in 0) OPTS+=(--cp-interval=0.01) ;; esac
	case $((RANDOM % 8)) in 0) OPTS+=(--cp-auto=2 --cp-warmup=0.3) ;; esac
}

# whose LOG: where a sanitizer report happened: the first frame of its
# first stack that is not the sanitizer's own, said to be cpperf's (our
# sources, the runtime) or another library's (MPI's, called by it or not:
# a report inside MPI may still come from what we passed it).
whose() {
	local frame
	frame=$(grep -E '^ +#[0-9]+ ' "$1" |
		grep -v -E 'libsanitizer|/libasan|/libubsan|/libtsan|__interceptor_' | head -1)
	case $frame in
	*pmpi/* | *sampler/* | *symbolize/* | *common/* | *build/gen/* | *libcpperf*) echo "in cpperf:${frame#*in}" ;;
	'') echo "no stack" ;;
	*) echo "outside cpperf:${frame#*in}" ;;
	esac
}

# verdict DIR NP RC: why the run in DIR failed, or nothing.
verdict() {
	local dir=$1 np=$2 rc=$3 n log
	if [ "$rc" = 124 ]; then echo "hang (ended after ${RUN_TIMEOUT}s; stacks in stacks.PID)"; return; fi
	if ls "$dir"/asan.* "$dir"/ubsan.* > /dev/null 2>&1; then
		log=$(ls "$dir"/asan.* "$dir"/ubsan.* 2> /dev/null | head -1)
		echo "sanitizer report $(whose "$log"): $(grep -h -m1 -E 'ERROR|runtime error' "$log")"
		return
	fi
	if grep -qE 'AddressSanitizer|runtime error:|signal [0-9]|Segmentation|SIGSEGV|core dumped' "$dir/out"; then
		echo "crash: $(grep -m1 -E 'AddressSanitizer|runtime error:|signal [0-9]|Segmentation|SIGSEGV|core dumped' "$dir/out")"
		return
	fi
	if [ "$rc" != 0 ]; then echo "exit status $rc: $(grep -v '^ *$' "$dir/out" | tail -1)"; return; fi
	if grep -q 'piggyback check' "$dir/out" && grep 'piggyback check' "$dir/out" | grep -qv ' 0 mismatches'; then
		echo "piggyback mismatches: $(grep 'piggyback check' "$dir/out" | grep -v ' 0 mismatches' | head -1)"
		return
	fi
	n=$(find "$dir/exp" -name '*.cpprof' 2> /dev/null | wc -l)
	if [ "$n" != "$np" ]; then echo "$n profiles for $np ranks"; return; fi
	if ! "$CPPERF" report "$dir/exp" --format=json > "$dir/report.json" 2> "$dir/report.err"; then
		echo "report failed: $(head -1 "$dir/report.err")"
	fi
}

# run_limited DIR PROG CMD...: run CMD (output into DIR/out) for at most
# RUN_TIMEOUT seconds; past that, the stacks of every process of PROG go
# into DIR/stacks.PID (gdb, when installed) before the run is ended, and
# the status is 124.
run_limited() {
	local dir=$1 prog=$2 pid waited=0
	shift 2
	"$@" > "$dir/out" 2>&1 < /dev/null &
	pid=$!
	while kill -0 "$pid" 2> /dev/null && ((waited < RUN_TIMEOUT * 10)); do
		sleep 0.1
		waited=$((waited + 1))
	done
	if ! kill -0 "$pid" 2> /dev/null; then
		wait "$pid"
		return
	fi
	if command -v gdb > /dev/null; then
		for p in $(pgrep -f "^$prog( |\$)"); do
			timeout 60 gdb -p "$p" -batch -ex 'thread apply all bt' > "$dir/stacks.$p" 2>&1
		done
	fi
	kill "$pid"
	wait "$pid"
	return 124
}

# run_one MPI: draw a program, ranks, options and seed; run; judge.
run_one() {
	local mpi=$1 spec name src nps np args prog dir rc why t0 variant what cmd
	spec=$(pick "${PROGRAMS[@]}")
	read -r name src nps args <<< "$spec"
	np=$(pick ${nps//,/ })
	args=${args//SEED/$RANDOM$RANDOM}
	variant=$(pick "" -asan)
	prog=$OUT/progs/$mpi/$name$variant
	[ -x "$prog" ] || return 0	# no Fortran compiler for this MPI
	draw_options
	RUNS=$((RUNS + 1))
	dir=$OUT/runs/$RUNS
	rm -rf "$dir"
	mkdir -p "$dir"
	# shellcheck disable=SC2046
	cmd=(timeout -k 10 $((RUN_TIMEOUT + 60)) "$MPIRUN" -np "$np" env LD_PRELOAD="$ASAN_LIB"
	     $(sanitizer_env "$dir") CPPERF_RUNTIME="$OUT/lib/libcpperf-$mpi.so" "${XENV[@]}"
	     "$RECORD" "${OPTS[@]}" -o "$dir/exp" "$prog" $args)
	printf '%q ' "${cmd[@]}" > "$dir/cmd"
	t0=$(date +%s%N)
	run_limited "$dir" "$prog" "${cmd[@]}"
	rc=$?
	why=$(verdict "$dir" "$np" "$rc")
	t0=$((($(date +%s%N) - t0) / 100000000))
	what="$mpi $name$variant np=$np ${XENV[*]} ${OPTS[*]} args=$args ($((t0 / 10)).$((t0 % 10)) s)"
	if [ -n "$why" ]; then
		FAILED=$((FAILED + 1))
		mkdir -p "$OUT/failures"
		rm -rf "$OUT/failures/$RUNS"
		mv "$dir" "$OUT/failures/$RUNS"
		echo "not ok $RUNS - $what"
		echo "#   $why"
		echo "#   files: $OUT/failures/$RUNS (cmd: the command)"
	else
		echo "ok $RUNS - $what"
		[ "${STRESS_KEEP:-0}" = 1 ] || rm -rf "$dir"
	fi
}

# --- the plain runtime (no MPI) with sanitizers, on threaded programs

# sanitized_plain: ThreadSanitizer's build of the runtime on
# tests/progs/two-threads.c and thread-churn.c (threads begin and end all the
# time, some still run at exit), ASan's on exit-thread.c (a library's
# thread that ends after our destructor); any report fails.
sanitized_plain() {
	local dir=$OUT/plain run lib prog rc env
	mkdir -p "$dir"
	for prog in two-threads thread-churn; do
		cc -std=gnu17 -g -O1 -o "$dir/$prog" "$TOP/tests/progs/$prog.c" -lpthread || return 0
	done
	cc -std=gnu17 -g -O1 -shared -fPIC -DEXIT_THREAD_LIB -o "$dir/libexit-thread.so" \
		"$TOP/tests/progs/exit-thread.c" -lpthread &&
		cc -std=gnu17 -g -O1 -o "$dir/exit-thread" "$TOP/tests/progs/exit-thread.c" \
			-L"$dir" -lexit-thread -Wl,-rpath,"$dir" || return 0
	for run in tsan:two-threads tsan:thread-churn asan:exit-thread tsan:two-threads tsan:thread-churn \
		   asan:exit-thread; do
		prog=${run#*:}
		if [ "${run%%:*}" = tsan ]; then
			lib=$OUT/tsan/libcpperf.so
			env=(LD_PRELOAD="$TSAN_LIB" TSAN_OPTIONS="halt_on_error=1:report_signal_unsafe=0:log_path=$dir/tsan")
		else
			lib=$OUT/lib/libcpperf.so
			# shellcheck disable=SC2207
			env=(LD_PRELOAD="$ASAN_LIB" $(sanitizer_env "$dir"))
		fi
		[ -e "$lib" ] || continue
		RUNS=$((RUNS + 1))
		rm -rf "$dir/exp" "$dir"/asan.* "$dir"/ubsan.* "$dir"/tsan.*
		env "${env[@]}" CPPERF_RUNTIME="$lib" timeout -k 10 "$RUN_TIMEOUT" \
			"$RECORD" -q -F "$(pick 1000 10000)" -o "$dir/exp" "$dir/$prog" 1 > "$dir/out" 2>&1
		rc=$?
		if [ "$rc" != 0 ] || ls "$dir"/asan.* "$dir"/ubsan.* "$dir"/tsan.* > /dev/null 2>&1; then
			FAILED=$((FAILED + 1))
			echo "not ok $RUNS - ${run%%:*} $prog: exit $rc, logs in $dir"
			return
		fi
		echo "ok $RUNS - ${run%%:*} $prog"
	done
}

# --- main

echo "# stress: ${SECONDS_WANTED}s, seed $SEED, MPIs: $MPIS, load: $LOAD busy loops"
mpis=()
for mpi in $MPIS; do
	if ! mpi_tools "$mpi" || [ ! -e "$OUT/lib/libcpperf-$mpi.so" ]; then
		echo "# $mpi: skipped (${WHY:-build/stress/lib/libcpperf-$mpi.so missing})"
		continue
	fi
	for spec in "${PROGRAMS[@]}"; do
		read -r name src _ <<< "$spec"
		[ -n "${STRESS_PROGS:-}" ] && [[ " $STRESS_PROGS " != *" $name "* ]] && continue
		build_prog "$mpi" "$name" "$src" || echo "# $mpi: $name not built"
	done
	mpis+=("$mpi")
done
if [ -n "${STRESS_PROGS:-}" ]; then
	keep=()
	for spec in "${PROGRAMS[@]}"; do
		[[ " $STRESS_PROGS " == *" ${spec%% *} "* ]] && keep+=("$spec")
	done
	PROGRAMS=("${keep[@]}")
fi
[ ${#mpis[@]} -gt 0 ] && [ ${#PROGRAMS[@]} -gt 0 ] || { echo "# nothing to run"; exit 1; }
start_load
[ "${STRESS_PLAIN:-1}" = 0 ] || sanitized_plain
START=$SECONDS
while [ $((SECONDS - START)) -lt "$SECONDS_WANTED" ]; do
	mpi=$(pick "${mpis[@]}")
	mpi_tools "$mpi"
	run_one "$mpi"
done
stop_load
echo "1..$RUNS"
echo "# stress: $RUNS runs in $((SECONDS - START))s, $FAILED failed (seed $SEED)"
[ "$FAILED" = 0 ]
