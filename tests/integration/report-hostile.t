#!/usr/bin/env bash
# report-hostile.t - `cpperf report` and `cpperf merge` on experiment
# directories written to hang or fool them: names that are FIFOs, devices
# or directories, a .live lock that is a FIFO; ranks of 2^62 events;
# counts whose sums pass 2^64; a job of 10^8 ranks; a million-rank job
# that lacks most of its ranks.  Profiles are the committed
# tests/data experiments, edited and resealed.  Every command runs under
# `timeout`, so a hang fails its test instead of blocking the suite.
. "$(dirname "$0")/../lib.sh"

DATA=$TOP/tests/data/report-exp	# two processes, not MPI
MPIDATA=$TOP/tests/data/report-mpi	# two whole MPI ranks
LIMIT=20	# seconds: what the slowest host needs, many times over

# bounded WANT NAME CMD...: run CMD under timeout with stdout in $WORK/out
# and stderr in $WORK/err; passes when it exits WANT and ASan reported
# nothing.
bounded() {
	local want=$1 name=$2 got
	shift 2
	timeout -k 5 "$LIMIT" "$@" > "$WORK/out" 2> "$WORK/err"
	got=$?
	if [ "$got" = 124 ] || [ "$got" = 137 ]; then
		fail "$name" "still running after $LIMIT s: killed"
	elif [ "$got" != "$want" ] || grep -q Sanitizer "$WORK/err"; then
		fail "$name" "exit $got, want $want" "stderr: $(head -3 "$WORK/err")"
	else
		ok "$name"
	fi
}

# err_is NAME TEXT: the one line of stderr is TEXT.
err_is() { is "$1" "$(cat "$WORK/err")" "$2"; }

# copy_exp NAME SRC: a copy of experiment SRC as $WORK/NAME.
copy_exp() { rm -rf "${WORK:?}/$1" && mkdir -p "$WORK/$1" && cp "$2"/*.cpprof "$WORK/$1/"; }

# edit FILE SED...: edit a profile with sed and reseal it.
edit() { local f=$1; shift; sed -i "$@" "$f" && reseal "$f"; }

# --- only regular files are read: no FIFO, device or directory, whatever
# a symlink points to, and never a wait on one
copy_exp fifo "$DATA"
mkfifo "$WORK/fifo/x.cpprof"
bounded 1 "a FIFO named *.cpprof: refused at once" "$CPPERF" report "$WORK/fifo"
err_is "... naming the file and what it is" \
	"cpperf: $WORK/fifo/x.cpprof: a FIFO, not a regular file; cpperf reads only regular files"
rm "$WORK/fifo/x.cpprof"
mkfifo "$WORK/fifo.target"
ln -s "$WORK/fifo.target" "$WORK/fifo/y.cpprof"
bounded 1 "a symlink to a FIFO: refused at once" "$CPPERF" report "$WORK/fifo" --format=json
err_is "... naming the link" \
	"cpperf: $WORK/fifo/y.cpprof: a FIFO, not a regular file; cpperf reads only regular files"
rm "$WORK/fifo/y.cpprof"
ln -s /dev/zero "$WORK/fifo/z.cpprof"
bounded 1 "a symlink to /dev/zero: refused" "$CPPERF" report "$WORK/fifo"
err_is "... as a device" \
	"cpperf: $WORK/fifo/z.cpprof: a character device, not a regular file; cpperf reads only regular files"
rm "$WORK/fifo/z.cpprof"
mkdir "$WORK/fifo/d.cpprof"
bounded 1 "a directory named *.cpprof: refused" "$CPPERF" report "$WORK/fifo"
err_is "... as a directory" \
	"cpperf: $WORK/fifo/d.cpprof: a directory, not a regular file; cpperf reads only regular files"
rmdir "$WORK/fifo/d.cpprof"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$WORK/fifo/s.cpprof"
bounded 1 "a socket named *.cpprof: refused" "$CPPERF" report "$WORK/fifo"
err_is "... as a socket" \
	"cpperf: $WORK/fifo/s.cpprof: a socket, not a regular file; cpperf reads only regular files"
rm "$WORK/fifo/s.cpprof"

# A checkpoint whose .live lock is a FIFO: its writer's state is unknown.
sed -i 's/^partial -$/partial checkpoint/' "$WORK/fifo/app.100.cpprof"
reseal "$WORK/fifo/app.100.cpprof"
mkfifo "$WORK/fifo/.node1.100.0.live"
bounded 0 "a .live lock that is a FIFO: the report goes on" "$CPPERF" report "$WORK/fifo" --format=json
is "... the writer unknown" "$(jq -r '.experiment.partial[0].writer' "$WORK/out")" unknown

copy_exp fifo-merge "$MPIDATA"
mkfifo "$WORK/fifo-merge/x.cpprof"
bounded 1 "cpperf merge: a FIFO refused at once" "$CPPERF" merge "$WORK/fifo-merge"
err_is "... naming it" \
	"cpperf: $WORK/fifo-merge/x.cpprof: a FIFO, not a regular file; cpperf reads only regular files"
check "... and no merged profile" test ! -e "$WORK/fifo-merge/merged.cpprof"

# --- the critical-path walk costs the links it follows, not the events'
# numbers: 2^62 events a rank, one link far back
copy_exp cp "$MPIDATA"
for f in "$WORK"/cp/*.cpprof; do edit "$f" 's/^cp_events 0$/cp_events 4611686018427387904/'; done
edit "$WORK/cp/a-rank1.cpprof" -e 's/^cp_length_ns 0$/cp_length_ns 200/' \
	-e '/^end /i cp_link 3 0 4611686018427387000'
bounded 0 "2^62 events: --view=cp" "$CPPERF" report "$WORK/cp" --view=cp
is "... the path: two runs across the link" "$(sed -n 's/^# path: //p' "$WORK/out")" \
	"2 runs of segments (rank:first-last, earliest first): 0:1-4611686018427387000 > 1:4-4611686018427387903"
bounded 0 "2^62 events: JSON" "$CPPERF" report "$WORK/cp" --format=json
is "... the same path" "$(grep -o '"path":\[[^]]*\]' "$WORK/out")" \
	'"path":[{"rank":0,"from":1,"to":4611686018427387000},{"rank":1,"from":4,"to":4611686018427387903}]'
bounded 0 "2^62 events: HTML" "$CPPERF" report "$WORK/cp" --format=html -o "$WORK/cp.html"
check "... the page has the path's length" grep -q '"critical_path":{"length":2e-07,' "$WORK/cp.html"
copy_exp cp32 "$MPIDATA"
for f in "$WORK"/cp32/*.cpprof; do edit "$f" 's/^cp_events 0$/cp_events 4294967295/'; done
bounded 0 "2^32-1 events, no link: --view=cp" "$CPPERF" report "$WORK/cp32" --view=cp
is "... one run" "$(sed -n 's/^# path: //p' "$WORK/out")" \
	"1 run of segments (rank:first-last, earliest first): 0:1-4294967294"

# --- sums over the files: the tree's and the path's samples are refused
# past 2^64-1, naming the file and the records; other sums saturate there
MAX=18446744073709551615
copy_exp sum "$DATA"
edit "$WORK/sum/app.100.cpprof" "s/^node 5 4 2 10 20$/node 5 4 2 18446744073709551610 20/"
bounded 1 "node counts past 2^64-1 in one file: refused" "$CPPERF" report "$WORK/sum"
err_is "... naming the file, the event and the records" \
	"cpperf: $WORK/sum/app.100.cpprof: the samples of event 'cycles' ('root' and 'node' records) sum past 2^64-1 over the profiles read"
copy_exp sum2 "$MPIDATA"
edit "$WORK/sum2/a-rank1.cpprof" "s/^node 3 2 0 4 4$/node 3 2 0 18446744073709551614 4/"
bounded 1 "node counts past 2^64-1 over two files: refused" "$CPPERF" report "$WORK/sum2" --format=json
err_is "... naming the second file" \
	"cpperf: $WORK/sum2/b-rank0.cpprof: the samples of event 'cycles' ('root' and 'node' records) sum past 2^64-1 over the profiles read"
bounded 1 "cpperf merge: the same refused" "$CPPERF" merge "$WORK/sum2"
err_is "... with the same message" \
	"cpperf: $WORK/sum2/b-rank0.cpprof: the samples of event 'cycles' ('root' and 'node' records) sum past 2^64-1 over the profiles read"
check "... and no merged profile" test ! -e "$WORK/sum2/merged.cpprof"

copy_exp sat "$MPIDATA"
edit "$WORK/sat/a-rank1.cpprof" -e "s/^samples 8$/samples $MAX/" \
	-e "s/^\(mpi_site 1 MPI_Allreduce 2 2 1 2 16 16\) 300000000 /\1 $MAX /"
bounded 0 "a header counter and MPI time past 2^64-1: reported" "$CPPERF" report "$WORK/sat" --format=json
is "... samples saturate" "$(grep -o '"samples":[0-9]*' "$WORK/out" | head -1)" "\"samples\":$MAX"
bounded 0 "... --view=mpi" "$CPPERF" report "$WORK/sat" --view=mpi
check "... the MPI time saturates" grep -q "^# MPI: .*; MPI time 18446744073.710 s, 3 call sites" "$WORK/out"
bounded 0 "cpperf merge: saturates too" "$CPPERF" merge "$WORK/sat"
bounded 0 "... and its merged profile reads" "$CPPERF" report "$WORK/sat" --format=json
is "... with the saturated samples" "$(grep -o '"samples":[0-9]*' "$WORK/out" | head -1)" "\"samples\":$MAX"

copy_exp segs "$MPIDATA"
for f in "$WORK"/segs/*.cpprof; do edit "$f" 's/^cp_events 0$/cp_events 3/'; done
edit "$WORK/segs/a-rank1.cpprof" -e 's/^cp_length_ns 0$/cp_length_ns 200/' \
	-e '/^end /i cp_link 1 0 1' -e '/^end /i cp_seg 2 3 5 0'
edit "$WORK/segs/b-rank0.cpprof" "/^end /i cp_seg 1 3 $MAX 0"
bounded 1 "path samples past 2^64-1 over two ranks: refused" "$CPPERF" report "$WORK/segs" --view=cp
err_is "... naming the file, the rank, the event and the records" \
	"cpperf: $WORK/segs/b-rank0.cpprof: rank 0: the samples of event 'cycles' ('cp_seg' records) sum past 2^64-1 over the ranks"

# --- limits: a message names the limit that was passed
copy_exp big "$MPIDATA"
for f in "$WORK"/big/*.cpprof; do edit "$f" 's/^size 2$/size 100000000/'; done
bounded 1 "a job of 10^8 ranks: refused" "$CPPERF" report "$WORK/big"
err_is "... naming the size and the limit" \
	"cpperf: $WORK/big/a-rank1.cpprof: job size 100000000 exceeds the limit of 1048576 ranks"
bounded 0 "cpperf merge has no such limit" "$CPPERF" merge "$WORK/big"
bounded 1 "... but the report of its merged profile" "$CPPERF" report "$WORK/big"
err_is "... names it" \
	"cpperf: $WORK/big/merged.cpprof: job size 100000000 exceeds the limit of 1048576 ranks"
copy_exp neg "$MPIDATA"
edit "$WORK/neg/a-rank1.cpprof" 's/^size 2$/size -3/'
bounded 1 "a negative job size: refused" "$CPPERF" report "$WORK/neg"
err_is "... for what it is" "cpperf: $WORK/neg/a-rank1.cpprof: rank 1 is not a rank of its job of size -3"

# --- missing ranks of a million-rank job print as runs
copy_exp miss "$MPIDATA"
for f in "$WORK"/miss/*.cpprof; do
	edit "$f" -e 's/^size 2$/size 1000000/' -e 's/^cp_events 0$/cp_events 2/'
done
edit "$WORK/miss/a-rank1.cpprof" 's/^rank 1$/rank 5/'
bounded 0 "2 ranks of 10^6: text" "$CPPERF" report "$WORK/miss"
is "... # MISSING: as runs" "$(grep '^# MISSING:' "$WORK/out")" \
	"# MISSING: 999998 of 1000000 ranks left no profile: 1-4,6-999999"
bounded 0 "... JSON" "$CPPERF" report "$WORK/miss" --format=json
is "... ranks_missing lists them all, in order" \
	"$(jq -c '.experiment.ranks_missing | [length, .[:5], .[-1]]' "$WORK/out")" "[999998,[1,2,3,4,6],999999]"
is "... why the path is not computed, as runs" "$(jq -r '.critical_path.unavailable' "$WORK/out")" \
	"it needs every rank's end, and ranks 1-4,6-999999 left no profile"

done_testing
