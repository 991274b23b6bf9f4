#!/usr/bin/env bash
# private.t - what cpperf writes is its user's alone (docs/record.md
# "Experiment directory"): profiles hold the command line, so the
# experiment directory is 0700 and every file in it 0600 (profiles,
# checkpoints, the lock, the costs shared at MPI_Init, merged profiles),
# as are the costs kept under ~/.cache and their directory, whatever the
# umask, the program's own included; --group-readable (or
# CPPERF_GROUP_READABLE=1) makes them 0750 and 0640; a directory given
# with -o that exists keeps its mode; `cpperf merge` writes merged.cpprof
# as readable as the profiles it merges.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

umask 022
build behave behave.c -O1 -g
B=$WORK/behave

# modes DIR [FIND-TESTS]: DIR's mode, then the modes of the files in it
# (hidden ones too) that pass FIND-TESTS, each once, sorted: "700 600".
modes() {
	local dir=$1
	shift
	echo $(stat -c %a "$dir") $(find "$dir" -mindepth 1 -type f "$@" -printf '%m\n' | sort -u)
}
# settled_modes DIR: modes of DIR without the temporaries of checkpoints
# in progress, or left by a kill.  A temporary is created 0600 less the
# program's umask (mode 0 under umask 0777) until its chmod: caught in
# between, it is stricter than 0600, never wider (open_to_others).
settled_modes() { modes "$1" ! -name '.*.tmp.*'; }
# open_to_others DIR: the files of DIR the group or others may use.
open_to_others() { find "$1" -mindepth 1 -perm /077 -printf '%P %m\n'; }
# profiles DIR: how many profiles DIR holds.
profiles() { find "$1" -maxdepth 1 -name '*.cpprof' | wc -l; }

# a serial run under umask 022
record "$WORK/plain" "$B" exit 0 > /dev/null 2>&1
is "umask 022: a profile is written" "$(profiles "$WORK/plain")" 1
is "umask 022: directory 0700, profile 0600" "$(modes "$WORK/plain")" "700 600"

# a program that sets umask 0777 before it exits
record "$WORK/u777" "$B" umask 777 0.3 > /dev/null
is "the program's umask 0777: a profile is written" "$(profiles "$WORK/u777")" 1
is "the program's umask 0777: still 0700 and 0600" "$(modes "$WORK/u777")" "700 600"

# checkpoints and the lock, written under the program's umask 0777; the
# last checkpoint stays when the process is killed
"$RECORD" -q --checkpoint=0.2 -o "$WORK/ckpt" "$B" umask 777 30 > /dev/null &
bg=$!
if wait_file "$WORK/ckpt" '*.cpprof' && wait_file "$WORK/ckpt" '.*.live'; then
	sleep 0.5	# some checkpoints more, each a temporary renamed into place
	is "while running: the lock and the checkpoint are 0600" "$(settled_modes "$WORK/ckpt")" "700 600"
	is "while running: no file the group or others may use, temporaries included" \
		"$(open_to_others "$WORK/ckpt")" ""
else
	fail "while running: a checkpoint and the lock appear" "$(ls -A "$WORK/ckpt" 2>&1)"
fi
kill -KILL "$bg"
wait "$bg" 2> /dev/null
report_json "$WORK/ckpt"
is "killed: the profile read is a checkpoint" "$(jqr '.experiment.partial[0].reason')" checkpoint
is "killed: the checkpoint is 0600" "$(settled_modes "$WORK/ckpt")" "700 600"
is "killed: no file the group or others may use, a temporary left included" \
	"$(open_to_others "$WORK/ckpt")" ""

# the group may read, from the option or its variable
record "$WORK/group" --group-readable "$B" umask 777 0.3 > /dev/null
is "--group-readable: directory 0750, profile 0640" "$(modes "$WORK/group")" "750 640"
CPPERF_GROUP_READABLE=1 record "$WORK/group-env" "$B" umask 777 0.3 > /dev/null
is "CPPERF_GROUP_READABLE=1: the same" "$(modes "$WORK/group-env")" "750 640"

# a directory that exists keeps its mode
mkdir -m 0755 "$WORK/mine"
record "$WORK/mine" "$B" exit 0 > /dev/null 2>&1
is "an existing -o directory keeps its mode, the profile is 0600" "$(modes "$WORK/mine")" "755 600"
mkdir -p "$WORK/deep"
record "$WORK/deep/a/b" "$B" exit 0 > /dev/null 2>&1
is "parents made for -o follow the umask, the directory is 0700" \
	"$(stat -c %a "$WORK/deep/a") $(modes "$WORK/deep/a/b")" "755 700 600"

# MPI: the ranks' profiles, the costs shared in the directory and kept in
# the cache, the merged profiles of --merge=mpi and of cpperf merge
ran_mpi=
for mpi in openmpi mpich; do
	mpi_end $mpi "private files" || continue
	rm -rf "$XDG_CACHE_HOME"
	mpi_run 2 "$RECORD" -q --merge=mpi -o "$WORK/mpi-$mpi" "$P" 0.5 > /dev/null 2>&1
	is "$mpi: two ranks' profiles and the merged one" "$(profiles "$WORK/mpi-$mpi")" 3
	is "$mpi: directory 0700, every file 0600" "$(modes "$WORK/mpi-$mpi")" "700 600"
	if [ -d "$XDG_CACHE_HOME/cpperf" ]; then
		is "$mpi: the cost cache: directory 0700, files 0600" \
			"$(stat -c %a "$XDG_CACHE_HOME") $(modes "$XDG_CACHE_HOME/cpperf")" "700 700 600"
	else
		skip "$mpi: the cost cache is private" "no cost was measured on this host"
	fi
	mpi_run 2 "$RECORD" -q --merge=mpi --group-readable -o "$WORK/mpig-$mpi" "$P" 0.5 > /dev/null 2>&1
	is "$mpi, --group-readable: 0750 and 0640, the merged profile too" \
		"$(profiles "$WORK/mpig-$mpi") $(modes "$WORK/mpig-$mpi")" "3 750 640"
	ran_mpi=$mpi
done
if [ -n "$ran_mpi" ]; then
	mpi_run 2 "$RECORD" -q -o "$WORK/later" "$WORK/end-$ran_mpi" 0.5 > /dev/null 2>&1
	"$CPPERF" merge "$WORK/later" > /dev/null
	is "cpperf merge of private profiles: merged.cpprof 0600" "$(stat -c %a "$WORK/later/merged.cpprof")" 600
	mpi_run 2 "$RECORD" -q --group-readable -o "$WORK/later-g" "$WORK/end-$ran_mpi" 0.5 > /dev/null 2>&1
	"$CPPERF" merge "$WORK/later-g" > /dev/null
	is "cpperf merge of group-readable profiles: merged.cpprof 0640" \
		"$(stat -c %a "$WORK/later-g/merged.cpprof")" 640
else
	skip "cpperf merge: merged.cpprof private" "no MPI"
	skip "cpperf merge: merged.cpprof group-readable" "no MPI"
fi
done_testing
