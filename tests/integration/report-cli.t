#!/usr/bin/env bash
# report-cli.t - the `cpperf` command line: dispatching, `cpperf report`
# options and their errors (bad values, unknown event, unwritable -o, missing
# or empty directory, truncated and corrupted profiles), -o, and the newest
# experiment being found without DIR.  Uses the committed experiment
# tests/data/report-exp (two processes; see tests/unit/test-report.c) and the
# ASan build of cpperf.
. "$(dirname "$0")/../lib.sh"

DATA=$TOP/tests/data/report-exp
MPIDATA=$TOP/tests/data/report-mpi	# two ranks with MPI statistics

# run WANT_STATUS CMD...: run CMD with stdout in $WORK/out and stderr in
# $WORK/err; passes when the exit status is WANT_STATUS.
run() {
	local want=$1; shift
	"$@" > "$WORK/out" 2> "$WORK/err"
	local got=$?
	if [ "$got" = "$want" ]; then ok "exit $want: ${*#$CPPERF }"; else
		fail "exit $want: ${*#$CPPERF }" "got exit $got" "stderr: $(head -3 "$WORK/err")"; fi
}
# err_has NAME TEXT...: stderr contains every TEXT and no sanitizer report.
err_has() {
	local name=$1 t; shift
	for t in "$@"; do
		grep -qF -- "$t" "$WORK/err" || { fail "$name" "stderr lacks '$t'" "stderr: $(head -3 "$WORK/err")"; return; }
	done
	if grep -q 'Sanitizer' "$WORK/err"; then fail "$name" "sanitizer report"; else ok "$name"; fi
}

run 0 "$CPPERF" --version
is "--version" "$(cat "$WORK/out")" "cpperf $(sed -n 's/^VERSION := //p' "$TOP/Makefile")"
run 2 "$CPPERF" frobnicate
err_has "unknown command lists the commands" "'frobnicate' is not a cpperf command" report list help
run 2 "$CPPERF"
run 0 "$CPPERF" help report
grep -q -- '--min-pct' "$WORK/out" && ok "help report shows the options" || fail "help report shows the options"

# --- the report itself
run 0 "$CPPERF" report "$DATA"
grep -q '^# call paths: cpperf report --view=callpath' "$WORK/out" && ok "text flat ends with the callpath hint" || fail "text hint"
is "two processes without MPI: no findings of ranks" "$(grep -c '^# findings' "$WORK/out")" 0
run 0 "$CPPERF" report "$DATA" --format json
is "spaced --format json parses" "$(jq -r '.experiment.samples' "$WORK/out")" 56
run 0 "$CPPERF" report --format=json --event=instructions "$DATA"
is "json flat sorted by the first event whatever --event says" "$(jq -r '.flat[0].function' "$WORK/out")" b
run 0 "$CPPERF" report "$DATA" --format=folded --event=cycles
is "folded" "$(cat "$WORK/out")" "main 2
main;a 5
main;a;b 4
main;a;b;a;b 10
main;foo::bar(int,_char) 6
main;c 3"
run 0 "$CPPERF" report "$DATA" --view=callpath --min-pct=50
is "callpath --min-pct=50 keeps two nodes" "$(grep -vc '^#' "$WORK/out")" 2

# --- --view=mpi
run 0 "$CPPERF" report "$DATA" --view=mpi
is "--view=mpi without MPI data says so" "$(cat "$WORK/out")" "no MPI data in this experiment"
run 0 "$CPPERF" report "$MPIDATA" --view=mpi
grep -q '^# most MPI time: rank 1 (0.850 s, 42.50% of wall); least: rank 0' "$WORK/out" && ok "--view=mpi: most and least MPI time" || fail "--view=mpi: most and least MPI time"
grep -q '^    1  MPI_Recv  .* main > solve > exchange$' "$WORK/out" && ok "--view=mpi: top call site first" || fail "--view=mpi: top call site first" "$(cat "$WORK/out")"
is "--view=mpi: per-rank rows" "$(grep -c '^       [01]  n[01] ' "$WORK/out")" 2
run 0 "$CPPERF" report "$MPIDATA" --format=json
is "json: MPI matrix, as pairs and dense" "$(jq -c '.mpi.matrix' "$WORK/out")" \
	'{"ranks":2,"pairs":[[0,1,3,3000],[1,0,1,8]],"count":[[0,3],[1,0]],"bytes":[[0,3000],[8,0]]}'
is "json: ranks" "$(jq -r '[.experiment.ranks, (.ranks | length)] | join(" ")' "$WORK/out")" "2 2"
run 0 "$CPPERF" help report
grep -q 'mpi (ranks, call sites, matrix)' "$WORK/out" && ok "help report lists --view=mpi" || fail "help report lists --view=mpi"
grep -q 'waits (wait states per call site' "$WORK/out" && ok "help report lists --view=waits" || fail "help report lists --view=waits"

# --- --view=waits: the committed ranks measured no wait states
run 1 "$CPPERF" report "$MPIDATA" --view=waits
err_has "--view=waits without wait states says so" "no wait-state data in this experiment"
run 0 "$CPPERF" report "$MPIDATA" --format=json
is "json: no waits key without wait states" "$(jq 'has("waits")' "$WORK/out")" false

# --- bad option values: exit 2, naming the option, the value and what is allowed
run 2 "$CPPERF" report "$DATA" --format=xml
err_has "bad --format" "--format" "'xml'" "text, json, folded"
run 2 "$CPPERF" report "$DATA" --view=tree
err_has "bad --view" "--view" "'tree'" "flat, callpath, mpi"
for v in abc 101 -1 5x ""; do
	run 2 "$CPPERF" report "$DATA" --min-pct="$v"
	err_has "bad --min-pct '$v'" "--min-pct" "'$v'" "0 to 100"
done
run 2 "$CPPERF" report "$DATA" --event=nope
err_has "unknown --event lists the events" "--event" "'nope'" "cycles, instructions"
run 2 "$CPPERF" report "$DATA" --bogus
err_has "unknown option" "unknown option '--bogus'"
run 2 "$CPPERF" report "$DATA" --format
err_has "option without value" "'--format' needs a value"
run 2 "$CPPERF" report "$DATA" "$DATA"
err_has "two directories" "one experiment directory at a time"

# --- -o
run 0 "$CPPERF" report "$DATA" --format=json -o "$WORK/r.json"
is "-o leaves stdout empty" "$(wc -c < "$WORK/out")" 0
is "-o writes the report" "$(jq -r '.experiment.processes' "$WORK/r.json")" 2
is "-o leaves no temporary" "$(ls "$WORK" | grep -c 'r.json.tmp')" 0
echo old > "$WORK/keep.json"
run 2 "$CPPERF" report "$DATA" --format=json --event=nope -o "$WORK/keep.json"
is "a failed report leaves the old -o file" "$(cat "$WORK/keep.json")" old
is "... and no temporary" "$(ls "$WORK" | grep -c 'keep.json.tmp')" 0
run 1 "$CPPERF" report "$DATA" -o "$WORK/no/such/dir/r.json"
err_has "unwritable -o names the file" "$WORK/no/such/dir/r.json" "cannot create"

# --- bad experiments: exit 1, naming the directory or file
run 1 "$CPPERF" report "$WORK/missing"
err_has "missing DIR" "$WORK/missing"
mkdir -p "$WORK/empty"
run 1 "$CPPERF" report "$WORK/empty"
err_has "empty DIR" "$WORK/empty" "no profiles"
run 1 "$CPPERF" report "$DATA/app.100.cpprof"
err_has "a file is not a directory" "not a directory"
mkdir -p "$WORK/trunc" "$WORK/corrupt"
cp "$DATA"/*.cpprof "$WORK/trunc/"
cp "$DATA"/*.cpprof "$WORK/corrupt/"
head -c 300 "$DATA/app.200.cpprof" > "$WORK/trunc/app.200.cpprof"
run 1 "$CPPERF" report "$WORK/trunc"
err_has "truncated profile names the file" "$WORK/trunc/app.200.cpprof"
sed -i 's/^node 5 4 2 10 20/node 5 4 2 99 20/' "$WORK/corrupt/app.100.cpprof"
run 1 "$CPPERF" report "$WORK/corrupt"
err_has "corrupted profile names the file" "$WORK/corrupt/app.100.cpprof"
printf '\0\377garbage' > "$WORK/corrupt/app.100.cpprof"
run 1 "$CPPERF" report "$WORK/corrupt" --format=json
err_has "binary garbage names the file" "$WORK/corrupt/app.100.cpprof"

# --- without DIR: the newest cpperf-* directory here
mkdir -p "$WORK/cwd/cpperf-old" "$WORK/cwd/cpperf-new"
cp "$DATA"/app.100.cpprof "$WORK/cwd/cpperf-new/"
cp "$DATA"/*.cpprof "$WORK/cwd/cpperf-old/"
touch -d '2020-01-01' "$WORK/cwd/cpperf-old"
(cd "$WORK/cwd" && "$CPPERF" report --format=json > "$WORK/out" 2> "$WORK/err")
is "no DIR: the newest experiment" "$(jq -r '.experiment.processes' "$WORK/out")" 1
mkdir -p "$WORK/none"
(cd "$WORK/none" && "$CPPERF" report > "$WORK/out" 2> "$WORK/err")
is "no experiment here: exit 1" "$?" 1
err_has "no experiment here: says so" "no experiment directory"
done_testing
