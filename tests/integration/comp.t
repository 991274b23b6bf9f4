#!/usr/bin/env bash
# comp.t - parallel overhead compensation (Malony et al.; docs/compensation.md) on
# the paper's scenarios, tests/progs/comp-*.c: each prints its own wall
# time per rank ("rank R wall S", MPI_Init's return to the MPI_Finalize
# call), so runs without the tool are the reference.  Per scenario: 3 runs
# without the tool, 3 under cpperf-record with CPPERF_INJECT_MPI_NS busy
# time at every wrapped call (COMP_INJECT_NS, default 300 us; the spin
# yields the CPU on a host with more ranks than CPUs,
# docs/compensation.md), then per rank, on medians:
#  - the measured wall grew by at least 30 % (the injection matters);
#  - the report's "wall_measured" is the program's own (1 %);
#  - "wall_compensated" (parallel) is nearer the reference than the
#    measured wall; with COMP_STRICT=1 (`make check-comp`, the acceptance
#    check of docs/compensation.md) within 2 % of it (5 % on master/worker);
#  - master/worker: the master's "wall_local_compensated" is off by 10 % or
#    more: local compensation leaves it the workers' overhead (the paper's
#    Table 1);
#  - handshake: the critical path in compensated time is the same (5 %)
#    with injection as without (medians of 3 runs each, alternating).
# The programs sleep for their work, so their times do not depend on free
# cores, but Open MPI polls while it waits: on a host busy with other jobs
# the reference itself varies, and a rank waiting for a message waits for
# the scheduler too.  When the reference runs of a scenario spread by more
# than its tolerance, or the injection's reported overhead grew the wall
# by less than 30 % (it hid in those waits), its comparisons are skipped
# with the figures.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

if ! mpi_tools openmpi; then
	skip "overhead compensation" "$WHY"
	done_testing
	exit
fi
if ! command -v jq > /dev/null; then
	skip "overhead compensation" "jq is not installed"
	done_testing
	exit
fi
# waiting ranks yield the core: up to 4 ranks share 2
export OMPI_MCA_mpi_yield_when_idle=1
INJECT=${COMP_INJECT_NS:-300000}
RUNS=3

# median: of the numbers on stdin, one a line
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# range: max - min of the numbers on stdin
range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR) print hi - lo }'; }
# spread: (max - min) / median of the numbers on stdin, in %
spread() {
	sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f\n", (m > 0) ? 100 * (v[NR] - v[1]) / m : 0 }'
}
# wall_of FILE R: rank R's "rank R wall S" from a program's output
wall_of() { awk -v r="$2" '$1 == "rank" && $2 == r && $3 == "wall" { print $4 }' "$1"; }
# key_of JSON R KEY: rank R's KEY in the report (.ranks[] by "rank", else by
# index).  The report is read once: every rank's scalar keys go into
# JSON.keys, a line "R KEY" and the line after it the value (empty when
# it is null or false), and later calls read that while the report is
# not newer.
key_of() {
	[ -e "$1.keys" ] && [ ! "$1" -nt "$1.keys" ] || jq -r '. as $doc | [(.ranks | length), ((.ranks | map(.rank | numbers) | max // -1) + 1)] | max
		| range(0; .) as $r | (($doc.ranks | map(select(.rank == $r)) | first) // $doc.ranks[$r]) as $o
		| ($o // {}) | keys_unsorted[] as $k | select($o[$k] | scalars) | "\($r) \($k)", ($o[$k] // "")' \
		"$1" > "$1.keys" 2> /dev/null
	awk -v w="$2 $3" 'f { print; exit } $0 == w { f = 1 }' "$1.keys"
}
# pct A B: 100 * (A - B) / B
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print ""; else printf "%.2f\n", 100 * (a - b) / b }'; }

# scenario NAME NP TOL ARGS...: the runs and checks of tests/progs/comp-NAME.c
# run with ARGS
scenario() {
	local name=$1 np=$2 tol=$3 d=$WORK/$1 i r ok_runs=0 rc
	shift 3
	mkdir -p "$d"
	if ! mpi_build "comp-$name" "comp-$name.c"; then
		fail "$name: builds"
		return
	fi
	# plain and recorded runs alternate, so a change in the host's load
	# falls on both
	for i in $(seq $RUNS); do
		mpi_run "$np" "$WORK/comp-$name" "$@" > "$d/plain.$i" 2> "$d/plain.$i.err"
		rc=$?
		[ $rc -eq 0 ] && [ "$(grep -c '^rank .* wall ' "$d/plain.$i")" -eq "$np" ] && ok_runs=$((ok_runs + 1))
		CPPERF_INJECT_MPI_NS=$INJECT mpi_run "$np" "$RECORD" -q -o "$d/exp.$i" \
			"$WORK/comp-$name" "$@" > "$d/rec.$i" 2> "$d/rec.$i.err"
		rc=$?
		[ $rc -eq 0 ] && [ "$(grep -c '^rank .* wall ' "$d/rec.$i")" -eq "$np" ] && ok_runs=$((ok_runs + 1))
		"$CPPERF" report "$d/exp.$i" --format=json > "$d/rec.$i.json" 2> "$d/rec.$i.rep.err"
	done
	is "$name: $((2 * RUNS)) runs, each with $np wall lines" "$ok_runs" $((2 * RUNS))
	if [ "$ok_runs" -ne $((2 * RUNS)) ]; then
		sed 's/^/# /' "$d"/*.err | head -20
		return
	fi
	for r in $(seq 0 $((np - 1))); do
		local plain rec rep comp loc ovh dly sp plainlist
		plainlist=$(for i in $(seq $RUNS); do wall_of "$d/plain.$i" "$r"; done)
		plain=$(echo "$plainlist" | median)
		sp=$(echo "$plainlist" | spread)
		rec=$(for i in $(seq $RUNS); do wall_of "$d/rec.$i" "$r"; done | median)
		rep=$(for i in $(seq $RUNS); do key_of "$d/rec.$i.json" "$r" wall_measured; done | median)
		comp=$(for i in $(seq $RUNS); do key_of "$d/rec.$i.json" "$r" wall_compensated; done | median)
		loc=$(for i in $(seq $RUNS); do key_of "$d/rec.$i.json" "$r" wall_local_compensated; done | median)
		ovh=$(for i in $(seq $RUNS); do key_of "$d/rec.$i.json" "$r" overhead; done | median)
		dly=$(for i in $(seq $RUNS); do key_of "$d/rec.$i.json" "$r" delay; done | median)
		echo "# $name rank $r: plain $(echo $plainlist) (median $plain, spread $sp %)"
		echo "# $name rank $r: recorded, program's walls $(for i in $(seq $RUNS); do wall_of "$d/rec.$i" "$r"; done | tr '\n' ' ')(median $rec, $(pct "$rec" "$plain") %)"
		for i in $(seq $RUNS); do
			echo "# $name rank $r run $i: wall $(key_of "$d/rec.$i.json" "$r" wall_measured) compensated $(key_of "$d/rec.$i.json" "$r" wall_compensated) local $(key_of "$d/rec.$i.json" "$r" wall_local_compensated) overhead $(key_of "$d/rec.$i.json" "$r" overhead) delay $(key_of "$d/rec.$i.json" "$r" delay)"
		done
		echo "# $name rank $r medians: wall $rep compensated $comp ($(pct "$comp" "$plain") %) local $loc ($(pct "$loc" "$plain") %) overhead $ovh delay $dly"
		within "$name rank $r: report's wall = the program's (s)" "$rep" "$rec" \
			"$(awk -v w="$rec" 'BEGIN { print w * 0.01 + 0.002 }')"
		# a send time read wrong once made W' 2^64 ns
		atmost "$name rank $r: compensated blocked time at most the wall, every run (s)" \
			"$(for i in $(seq $RUNS); do key_of "$d/rec.$i.json" "$r" mpi_blocked_compensated; done | sort -g | tail -1)" \
			"$rep"
		if awk -v s="$sp" -v t="$tol" 'BEGIN { exit !(s > t) }'; then
			skip "$name rank $r: injection grows the measured wall by 30 % or more" \
				"host too busy: the plain runs spread by $sp %"
			skip "$name rank $r: parallel-compensated wall vs plain ($tol %)" \
				"host too busy: the plain runs spread by $sp %"
			[ "$name" = mw ] && [ "$r" -eq 0 ] &&
				skip "$name master: local compensation off by 10 % or more" "host too busy"
			continue
		fi
		# with a core taken by another job, a rank waiting for a message
		# waits for the scheduler, and the injected spin hides in that
		# wait: the premise of the comparison is gone, not the tool wrong
		# (the overhead it reports shows the injection ran)
		if awk -v g="$(pct "$rec" "$plain")" -v o="$ovh" -v m="$rec" -v p="$plain" \
			'BEGIN { exit !(g < 30 && m - p < o / 2) }'; then
			local why="host too busy: $ovh s injected grew the wall by $(pct "$rec" "$plain") % only"
			skip "$name rank $r: injection grows the measured wall by 30 % or more" "$why"
			skip "$name rank $r: parallel-compensated wall vs plain" "$why"
			[ "$name" = mw ] && [ "$r" -eq 0 ] &&
				skip "$name master: local compensation off by 10 % or more" "host too busy"
			continue
		fi
		atleast "$name rank $r: injection grows the measured wall by 30 % or more (%)" "$(pct "$rec" "$plain")" 30
		if [ -n "$COMP_STRICT" ]; then
			within "$name rank $r: parallel-compensated wall = plain within $tol % (s)" "$comp" "$plain" \
				"$(awk -v w="$plain" -v t="$tol" 'BEGIN { print w * t / 100 }')"
		else
			atmost "$name rank $r: parallel compensation nearer plain than measured (|comp - plain| vs |measured - plain|, s)" \
				"$(awk -v c="$comp" -v p="$plain" 'BEGIN { d = c - p; print d < 0 ? -d : d }')" \
				"$(awk -v m="$rec" -v p="$plain" 'BEGIN { print m - p }')"
		fi
		if [ "$name" = mw ] && [ "$r" -eq 0 ]; then
			local off
			off=$(pct "$loc" "$plain")
			atleast "mw master: local compensation off by 10 % or more (%, paper's Table 1)" \
				"$(awk -v o="$off" 'BEGIN { if (o == "") print ""; else print (o < 0) ? -o : o }')" 10
		fi
	done
}

# cp_compensated NAME NP ARGS...: the critical path in compensated time
# does not depend on the overhead: RUNS runs without injection (their own
# overhead small) and RUNS with NAME's injection, alternating so that a
# change in the host's load falls on both; the injected lengths are 30 %
# and more longer, the compensated ones the same (medians)
cp_compensated() {
	local name=$1 np=$2 d=$WORK/cp-$1 l0 l0s lc lcs li i sp spi
	shift 2
	mkdir -p "$d"
	for i in $(seq $RUNS); do
		mpi_run "$np" "$RECORD" -q -o "$d/def.$i" "$WORK/comp-$name" "$@" > /dev/null 2>&1
		"$CPPERF" report "$d/def.$i" --format=json > "$d/def.$i.json" 2> /dev/null
		CPPERF_INJECT_MPI_NS=$INJECT mpi_run "$np" "$RECORD" -q -o "$d/inj.$i" \
			"$WORK/comp-$name" "$@" > /dev/null 2>&1
		"$CPPERF" report "$d/inj.$i" --format=json > "$d/inj.$i.json" 2> /dev/null
	done
	l0s=$(for i in $(seq $RUNS); do jq -r '.critical_path.length_compensated // empty' "$d/def.$i.json" 2> /dev/null; done)
	l0=$(echo "$l0s" | median)
	sp=$(echo "$l0s" | spread)
	lcs=$(for i in $(seq $RUNS); do jq -r '.critical_path.length_compensated // empty' "$d/inj.$i.json" 2> /dev/null; done)
	lc=$(echo "$lcs" | median)
	spi=$(echo "$lcs" | spread)
	li=$(for i in $(seq $RUNS); do jq -r '.critical_path.length // empty' "$d/inj.$i.json" 2> /dev/null; done | median)
	echo "# $name critical path: without injection $(echo $l0s) s compensated (spread $sp %); injected $li s, compensated $(echo $lcs) s (spread $spi %)"
	if [ "$(echo "$l0s" | grep -c .)" -ne $RUNS ] || [ "$(echo "$lcs" | grep -c .)" -ne $RUNS ]; then
		fail "$name: $RUNS reports with a critical path each, with and without injection" \
			"got $(echo $l0s) and $(echo $lcs)"
		return
	fi
	if awk -v s="$sp" -v i="$spi" 'BEGIN { exit !(s > 5 || i > 5) }'; then
		skip "$name: compensated critical path with and without injection" \
			"host too busy: the compensated lengths spread by $sp % without injection, $spi % with"
		return
	fi
	atleast "$name: the injected runs' critical path is 30 % longer (%)" "$(pct "$li" "$l0")" 30
	within "$name: compensated critical path with injection = without (5 %, s)" "$lc" "$l0" \
		"$(awk -v l="$l0" 'BEGIN { print l * 0.05 }')"
}

# ring: two ranks that compute and swap a double after every step
# (tests/progs/comp-ring.c).  A sample's charge that reaches the delay only
# once the drain thread folds it, tens of ms later, is lost at the next
# exchange (the rule keeps the partner's smaller delay).  Charged at once,
# it travels, but never beyond what the partner really waited, so the
# delay is bounded by the run's real dilation, whatever the charge.  Each
# sample is charged 100 us (CPPERF_SAMPLE_COST_NS), above what it costs
# on the hosts measured (16-57 us), and each rank's median delay must
# reach half its dilation (the median recorded wall less the median plain
# one, 3 runs each, alternating): on a KVM guest 1.09-1.36 charged at
# once, 0.17 when charged as folded.  Against the overhead instead, the
# result hung on the host's real cost of a sample: 0.5 of it where a
# sample costs 16-29 us, 1.0 at 42-57.  On a host busy with other jobs
# the ring's ranks wait for the scheduler (0.72 s runs took 4-17 s with
# two other tests beside them): where the runs of one kind spread by more
# than half the dilation, the comparison is skipped with the figures.
ring() {
	local d=$WORK/ring r n w p sp
	mkdir -p "$d"
	if ! mpi_build comp-ring comp-ring.c; then
		fail "ring: builds"
		return
	fi
	for i in 1 2 3; do
		mpi_run 2 "$WORK/comp-ring" > "$d/plain-$i" 2> /dev/null
		CPPERF_SAMPLE_COST_NS=100000 mpi_run 2 "$RECORD" -q -e task-clock -o "$d/exp-$i" \
			"$WORK/comp-ring" > "$d/rec-$i" 2> "$d/err"
		"$CPPERF" report "$d/exp-$i" --format=json > "$d/rep-$i.json" 2> "$d/rep.err"
	done
	for r in 0 1; do
		n=$(jq -r --argjson r "$r" '.ranks[] | select(.rank == $r) | .overhead_sources.samples' \
			"$d/rep-1.json" 2> /dev/null)
		atleast "ring rank $r: samples charged" "$n" 50
		w=$(cat "$d"/rec-* | ring_walls "$r" | median)
		p=$(cat "$d"/plain-* | ring_walls "$r" | median)
		echo "# ring rank $r: plain $(cat "$d"/plain-* | ring_walls "$r" | tr '\n' ' ')(median $p)," \
			"recorded $(cat "$d"/rec-* | ring_walls "$r" | tr '\n' ' ')(median $w)," \
			"delay $(for i in 1 2 3; do key_of "$d/rep-$i.json" "$r" delay; done | tr '\n' ' ')"
		# where recording dilates the run by less than 1 %, the host's noise
		# is as large as what is compared
		if awk -v w="$w" -v p="$p" 'BEGIN { exit !(w != "" && p != "" && w < p * 1.01) }'; then
			skip "ring rank $r: the delay keeps the samples' real cost" \
				"recording dilated the run by under 1 % ($w s against $p s plain)"
			continue
		fi
		# on a host busy with other jobs the runs of one kind spread by as
		# much as the dilation: what the delay is compared with is then noise
		sp=$( (cat "$d"/plain-* | ring_walls "$r" | range; cat "$d"/rec-* | ring_walls "$r" | range) |
			sort -g | tail -1)
		if awk -v s="$sp" -v w="$w" -v p="$p" 'BEGIN { exit !(s > (w - p) / 2) }'; then
			skip "ring rank $r: the delay keeps the samples' real cost" \
				"host too busy: the runs of one kind spread by $sp s, over half the dilation ($w s against $p s plain)"
			continue
		fi
		atleast "ring rank $r: the delay keeps the samples' real cost (delay / dilation)" \
			"$(awk -v d="$(for i in 1 2 3; do key_of "$d/rep-$i.json" "$r" delay; done | median)" \
				-v w="$w" -v p="$p" 'BEGIN { if (w > p && d != "") printf "%.3f\n", d / (w - p) }')" 0.5
	done
}

# ring_walls R: rank R's walls in comp-ring's output on stdin
ring_walls() { awk -v r="$1" '$1 == "rank" && $2 == r { print $4 }'; }
ring

# cost_cache: a sample's cost measured at MPI_Init is kept per host and
# boot (--cost-cache), the latest 5; every run measures its own all the
# same, and the kept ones stand in only when the host is too busy to
# measure.  Kept costs are made recognisable (7xxxxx ns) to tell them from
# measured ones.  Along the run the drain thread measures it again, so
# what a run charged in all does not say what its start got: the start's
# own is in the run's <experiment>/.sample-cost.<run>.<host> (0 when the
# host was too busy at the start to measure it).  The report says how
# many of the drain thread's pairs it kept and rejected.
cost_cache() {
	local d=$WORK/cost-cache kept first got i
	mkdir -p "$d"
	sample_cost() {
		mpi_run 2 "$RECORD" -q -e task-clock "$@" "$WORK/comp-ring" 200 > /dev/null 2> "$d/err"
		"$CPPERF" report "${@: -1}" --format=json 2> /dev/null |
			jq -r '.ranks[] | select(.rank == 0) | .overhead_sources.sample_cost_ns'
	}
	# start_cost EXP: the cost EXP's start got (measured, kept or 0)
	start_cost() { head -1 "$1"/.sample-cost.* 2> /dev/null; }
	# "measured" for a positive cost that was not made up here
	measured() { awk -v c="$1" 'BEGIN { print (c + 0 > 0 && c !~ /^7.....$/) ? "measured" : "got " c }'; }
	lines() { [ -n "$kept" ] && wc -l < "$kept"; }
	# a busy host may leave the start of a run without a cost: try thrice
	for i in 1 2 3; do
		rm -rf "$d/c" "$d/e1"
		first=$(sample_cost --cost-cache="$d/c" -o "$d/e1")
		[ "$(start_cost "$d/e1")" = 0 ] || break
	done
	kept=$(ls "$d"/c/sample-cost.* 2> /dev/null)
	if [ "$(start_cost "$d/e1")" = 0 ]; then
		skip "cost cache" "the host was too busy at the start of 3 runs to measure a sample's cost"
		return
	fi
	is "cost cache: the start's cost is the run's own" "$(measured "$(start_cost "$d/e1")")" measured
	is "cost cache: the measured sample's cost is kept" \
		"$([ -n "$kept" ] && cat "$kept")" "$(start_cost "$d/e1")"
	is "cost cache: and charged" "$(measured "$first")" measured
	is "cost cache: the run's pairs along the run are counted" \
		"$("$CPPERF" report "$d/e1" --format=json | jq -r '.ranks[] | select(.rank == 0) |
			.overhead_sources | .sample_probes + .sample_probes_busy > 0')" true
	[ -n "$kept" ] && printf '710000\n790000\n730000\n700000\n770000\n' > "$kept"
	got=$(sample_cost --cost-cache="$d/c" -o "$d/e3")
	if [ "$(start_cost "$d/e3")" = 730000 ]; then
		skip "cost cache: 5 kept, the run measures its own" "the host was too busy to measure it"
	else
		is "cost cache: with 5 kept, a run measures its own all the same" \
			"$(measured "$(start_cost "$d/e3")")" measured
		is "cost cache: and charges it" "$(measured "$got")" measured
		is "cost cache: the latest 5 kept, the oldest dropped" \
			"$([ -n "$kept" ] && head -1 "$kept")" 790000
	fi
	is "cost cache: --cost-cache=none measures" \
		"$(measured "$(sample_cost --cost-cache=none -o "$d/e4")")" measured
	[ -n "$kept" ] && touch -d '2 days ago' "$kept"
	is "cost cache: costs kept two days ago are not used" \
		"$(measured "$(sample_cost --cost-cache="$d/c" -o "$d/e5")")" measured
	# the kept file is rewritten only when the start measured one
	if [ "$(start_cost "$d/e5")" = 0 ]; then
		skip "cost cache: and the new one kept alone" \
			"the host was too busy at the run's start to measure a sample's cost"
	else
		is "cost cache: and the new one kept alone" "$(lines)" 1
	fi
}
cost_cache

# make check runs three of the six at about 0.6 s a run without the tool;
# COMP_STRICT=1 all six at the programs' defaults (about 1 s), where the
# fixed costs of a run (start-up, the first call of each site) weigh less
if [ -n "$COMP_STRICT" ]; then
	scenario mw 4 5
	scenario handshake 2 2
	scenario allreduce 4 2
	scenario pipeline 4 2
	scenario tworecv 3 2
	scenario stencil 4 2
else
	scenario mw 4 5 80
	scenario handshake 2 2 500
	scenario allreduce 4 2 460
fi
cp_compensated handshake 2 $([ -z "$COMP_STRICT" ] && echo 500)
done_testing
