#!/usr/bin/env bash
# threads.t - the thread activity (docs/threads.md) of programs whose truth
# is known: tests/progs/omp-phases.c (GCC's and LLVM's OpenMP, 2 threads: serial_part
# alone for 1 s, then parallel work) and tests/progs/mutex-hold.c (main
# works holding a mutex two threads wait for).  Balanced: serial_part
# >= 95 % sequential, parallel_work >= 95 % concurrent, the second thread's
# idle second blamed on serial_part (+- 10 %), efficiency (1 + 4 + 0.1) /
# (2 x 3.05) +- 0.05.  Imbalanced (1.2 s and 0.4 s): with
# OMP_WAIT_POLICY=active the waiting thread spins at the region's implicit
# barrier for the difference (+- 10 %, its own call path, apart from its
# spin while waiting for work in the serial part); passive, it is idle as
# long.  The mutex's waiters are idle for the hold, blamed on hold_work.
# Two threads on a 2-core host run side by side only when the host gives
# them the cores, and a thread's work is sampled as long as it runs: the
# programs measure the share of a CPU each phase of work got, and the
# checks of times skip, saying so, when one got less than 90 %.
. "$(dirname "$0")/../lib.sh"
need_sampling

# secs X: X samples of the classified event in seconds
secs() { awk -v x="$1" -v w="$(jqr '.concurrency.window_ns')" 'BEGIN { printf "%.3f", x * w / 1e9 }'; }
# The columns are of the classified event (the host's default: task-clock,
# or cycles where there is a PMU), which the last report names.
ev() { jqr '.concurrency.event'; }
# fn KEY FUNCTION: the flat entry's column KEY of that event
fn() { jqr ".flat[] | select(.function==\"$2\") | .$1[\"$(ev)\"]"; }
# share A B: A / (A + B), 0 when both are 0
share() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a + b ? a / (a + b) : 0 }'; }
# cpu_given OUT NAME: whether the host gave each phase of work in the
# program's output OUT at least 90 % of a CPU; if not, skip NAME saying
# which it did not
cpu_given() {
	local why
	why=$(awk '$1 == "cpu_share" && $3 < 0.9 { printf "%s got %.0f%% of a CPU; ", $2, $3 * 100 }' "$1")
	[ -z "$why" ] && return 0
	skip "$2" "host busy: $why"
	return 1
}
# ran_for SECONDS OUT WHAT: SECONDS times the share of a CPU that WHAT got
# in the program's output OUT: the time it ran.  A waiter's idleness is
# blamed on what works meanwhile, so on a busy host on less than the
# whole wait.
ran_for() {
	awk -v s="$1" -v w="$3" '$1 == "cpu_share" && $2 == w { printf "%.3f", s * $3 }' "$2"
}
# region_wait FN: the spin and idle time of the node FN under main (the
# parallel region's call path) without its children's, in samples
region_wait() {
	jqr "[.callpath | recurse(.children[]) | select(.function == \"main\") | .children[] |
	      select(.function == \"$1\") | (.spin[\"$(ev)\"] + .idle[\"$(ev)\"]) -
	      ([.children[] | .spin[\"$(ev)\"] + .idle[\"$(ev)\"]] | add // 0)] | add // 0"
}
# spin_leaves: the spin of the tree's nodes without their children's,
# one per line, for those of more than 50 samples, largest first
spin_leaves() {
	jqr "[.callpath | recurse(.children[]) | ((.spin[\"$(ev)\"]) -
	      ([.children[].spin[\"$(ev)\"]] | add // 0)) | select(. > 50)] | sort | reverse | .[]"
}

if [ "$(nproc)" -lt 2 ]; then
	skip "thread activity of 2 threads" "this host has $(nproc) CPU"
	done_testing
	exit
fi

# omp_checks RT CC: the OpenMP checks with runtime RT (gomp, llvm) as
# compiler CC builds them.  LLVM's libomp waits for work and at a
# region's barrier in the same code (no symbols tell them apart in
# Debian's build): its spin is checked as a whole.
omp_checks() {
	local rt=$1 cc=$2 spins fork
	fork=$([ "$rt" = gomp ] && echo GOMP_parallel || echo __kmpc_fork_call)
	"$cc" -std=gnu17 -O2 -g -fopenmp -I"$TOP/tests/progs" -o "$WORK/omp-$rt" \
		"$TOP/tests/progs/omp-phases.c"
	record "$WORK/bal-$rt" "$WORK/omp-$rt" 2 2 > "$WORK/bal-$rt.out"
	report_json "$WORK/bal-$rt"
	is "$rt balanced: the concurrency's event is the first recorded" "$(ev)" \
		"$(jqr '.experiment.events[0].name')"
	is "$rt balanced: two threads have work, idle and spin" \
		"$(jqr '[.threads[] | select(.work != null and .idle != null and .spin != null)] | length')" 2
	if cpu_given "$WORK/bal-$rt.out" \
		"$rt balanced: sequential, concurrent, blame, efficiency, the flat row"; then
		atleast "$rt balanced: serial_part sequential share" \
			"$(share "$(fn sequential serial_part)" "$(fn concurrent serial_part)")" 0.95
		atleast "$rt balanced: parallel_work concurrent share" \
			"$(share "$(fn concurrent parallel_work)" "$(fn sequential parallel_work)")" 0.95
		within "$rt balanced: idleness blamed on serial_part (s)" \
			"$(secs "$(fn idle_blame serial_part)")" "$(ran_for 1 "$WORK/bal-$rt.out" serial_part)" 0.1
		within "$rt balanced: parallel efficiency" "$(jqr '.concurrency.efficiency')" 0.836 0.05
		within "$rt balanced: the second thread's idle and spin time (s)" \
			"$(secs "$(jqr '[.threads[] | .idle + .spin] | max')")" 1 0.1
		"$CPPERF" report --metrics=concurrency "$WORK/bal-$rt" > "$WORK/flat-$rt.txt"
		is "$rt balanced: --metrics=concurrency, serial_part's flat row: sequential and blame" \
			"$(awk '$8 == "serial_part" { printf "%s %s", ($5 >= 95 ? "seq>=95" : "seq " $5),
				($7 >= 0.9 && $7 <= 1.1 ? "blame~1" : "blame " $7) }' "$WORK/flat-$rt.txt")" \
			"seq>=95 blame~1"
	fi
	"$CPPERF" report --view=threads "$WORK/bal-$rt" > "$WORK/bal-$rt.txt"
	check "$rt balanced: text view names serial_part" grep -q ' serial_part ' "$WORK/bal-$rt.txt"
	check "$rt balanced: text view says the efficiency" \
		grep -q '^# parallel efficiency [0-9.]*%' "$WORK/bal-$rt.txt"

	OMP_WAIT_POLICY=active record "$WORK/active-$rt" "$WORK/omp-$rt" 1.2 0.4 > "$WORK/active-$rt.out"
	report_json "$WORK/active-$rt"
	if ! cpu_given "$WORK/active-$rt.out" "$rt imbalanced, active: spin at the barrier"; then
		:	# skipped, saying why
	elif [ "$rt" = gomp ]; then
		spins=$(spin_leaves | tr '\n' ' ')
		is "$rt imbalanced, active: two places spin (waiting for work, at the barrier): $spins" \
			"$(wc -w <<< "$spins")" 2
		# the serial part's wait is 1 s, the barrier's the difference, 0.8 s
		within "$rt imbalanced, active: spin at the implicit barrier (s)" \
			"$(secs "$(spin_leaves | sort -n | head -1)")" 0.8 0.08
		within "$rt imbalanced, active: spin while waiting for work (s)" \
			"$(secs "$(spin_leaves | sort -n | tail -1)")" 1 0.1
		within "$rt imbalanced, active: the barrier's wait on the region's call path, main > $fork (s)" \
			"$(secs "$(region_wait "$fork")")" 0.8 0.08
	else
		within "$rt imbalanced, active: the barrier's wait on the region's call path, main > $fork (s)" \
			"$(secs "$(region_wait "$fork")")" 0.8 0.08
		# libomp spins KMP_BLOCKTIME, then sleeps even when active
		within "$rt imbalanced, active: the waiting thread's spin and idle (s)" \
			"$(secs "$(jqr '[.threads[] | .idle + .spin] | max')")" 1.8 0.18
		atleast "$rt imbalanced, active: most of it spin" \
			"$(share "$(jqr '[.threads[].spin] | max')" "$(jqr '[.threads[].idle] | max')")" 0.5
	fi

	record "$WORK/passive-$rt" "$WORK/omp-$rt" 1.2 0.4 > "$WORK/passive-$rt.out"
	report_json "$WORK/passive-$rt"
	if cpu_given "$WORK/passive-$rt.out" "$rt imbalanced, passive: the waiting thread's idle time"; then
		# idle in the serial part (1 s) and at the barrier (0.8 s), or spinning a little first
		within "$rt imbalanced, passive: the waiting thread's idle and spin (s)" \
			"$(secs "$(jqr '[.threads[] | .idle + .spin] | max')")" 1.8 0.18
		within "$rt imbalanced, passive: efficiency (1 + 1.6 + 0.1) / (2 x 2.25)" \
			"$(jqr '.concurrency.efficiency')" 0.6 0.05
		within "$rt imbalanced, passive: the barrier's wait on the region's call path, main > $fork (s)" \
			"$(secs "$(region_wait "$fork")")" 0.8 0.08
	fi
}

# omp_cc CC: whether CC builds and links an OpenMP program
omp_cc() { echo 'int main(void){return 0;}' | "$1" -fopenmp -x c - -o "$WORK/omp-probe" 2> /dev/null; }

if omp_cc cc; then
	omp_checks gomp cc
else
	skip "GCC's OpenMP" "cc has no -fopenmp (libgomp missing)"
fi
if command -v clang > /dev/null && omp_cc clang; then
	omp_checks llvm clang
else
	skip "LLVM's OpenMP" "no clang with libomp (contrib/install-deps.sh installs clang and libomp-dev)"
fi

# --- a mutex holder is blamed for its waiters
build mutex-hold mutex-hold.c -O2 -g -pthread -I"$TOP/tests/progs"
record "$WORK/mutex" "$WORK/mutex-hold" 1 > "$WORK/mutex.out"
report_json "$WORK/mutex"
is "mutex: three threads" "$(jqr '.threads | length')" 3
if cpu_given "$WORK/mutex.out" \
	"mutex: the waiters' idle time, hold_work's sequential share and blame"; then
	within "mutex: the waiters' idle time (s)" \
		"$(secs "$(jqr '[.threads[].idle] | sort | .[1:] | add / 2')")" 1 0.1
	atleast "mutex: hold_work sequential share" \
		"$(share "$(fn sequential hold_work)" "$(fn concurrent hold_work)")" 0.95
	within "mutex: the waiters' idleness blamed on hold_work (s)" \
		"$(secs "$(fn idle_blame hold_work)")" "$(ran_for 2 "$WORK/mutex.out" hold_work)" 0.2
fi
atleast "mutex: hold_work's part of all the blame" \
	"$(awk -v a="$(fn idle_blame hold_work)" -v b="$(jqr ".callpath.idle_blame[\"$(ev)\"]")" \
		'BEGIN { printf "%.3f", b ? a / b : 0 }')" 0.9

# --- hybrid MPI+OpenMP: each rank's threads, and which thread called MPI
. "$TOP/tests/mpi-lib.sh"
if mpi_or_skip openmpi "hybrid MPI+OpenMP"; then
	"$MPICC" -std=gnu17 -O2 -g -fopenmp -I"$TOP/tests/progs" -o "$WORK/mpi-omp" \
		"$TOP/tests/progs/mpi-omp.c"
	for mode in funneled multiple; do
		mpi_run 2 "$RECORD" -q -o "$WORK/hyb-$mode" "$WORK/mpi-omp" 10 0.05 "$mode"
		report_json "$WORK/hyb-$mode"
		# 2 ranks x 2 threads share 2 cores: each thread works about 0.25 s
		is "hybrid $mode: each rank has two working threads" \
			"$(jqr '[.threads[] | select(.rank != null and .work > 50)] | group_by(.rank) |
				map(length) | map(tostring) | join(",")')" "2,2"
	done
	report_json "$WORK/hyb-funneled"
	is "hybrid funneled: MPI_Allreduce called by the main thread alone" \
		"$(jqr '.mpi.callsites[] | select(.function=="MPI_Allreduce") |
			"\(.threads) \(.main_thread_calls == .calls)"')" "1 true"
	"$CPPERF" report --view=mpi "$WORK/hyb-funneled" > "$WORK/hyb.txt"
	check "hybrid funneled: the MPI view says main" grep -q ' MPI_Allreduce .* main ' "$WORK/hyb.txt"
	report_json "$WORK/hyb-multiple"
	# the threads call it from two call paths: the main thread's under
	# main, the other's under its start
	is "hybrid multiple: MPI_Sendrecv called by the main thread and another" \
		"$(jqr '[.mpi.callsites[] | select(.function=="MPI_Sendrecv") |
			"\(.threads) \(.main_thread_calls == .calls)"] | sort | join(",")')" "1 false,1 true"
fi

# --- without a clock or frequency there is none, and the view says why
record "$WORK/pf" -e page-faults -c 100 "$WORK/mutex-hold" 0.1 > /dev/null
report_json "$WORK/pf"
is "page-faults by period: no concurrency" "$(jqr '.concurrency // "none"')" none
"$CPPERF" report --view=threads "$WORK/pf" > /dev/null 2> "$WORK/pf.err"
is "page-faults by period: --view=threads fails" "$?" 1
check "page-faults by period: the message says why" grep -q 'no thread activity in this experiment' "$WORK/pf.err"
"$CPPERF" report --metrics=concurrency "$WORK/pf" > /dev/null 2> "$WORK/pf.err"
is "page-faults by period: --metrics=concurrency fails, naming it" \
	"$?:$(grep -c 'no thread activity in this experiment (--metrics=concurrency)' "$WORK/pf.err")" "1:1"
done_testing
