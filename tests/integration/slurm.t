#!/usr/bin/env bash
# slurm.t - `srun cpperf-record` under a real single-node Slurm that the
# test starts (munged, slurmctld and slurmd on this host, their files in
# the test's directory, ports of their own) and stops: the demo's 2 ranks
# launched by srun with PMIx write one experiment named by the job and
# step, and its report has the structure of the same demo's under mpirun
# (the program's functions of >= 2 % of its own samples, the ranks, the
# MPI call sites).
# Needs root (the daemons) and Debian's slurmctld, slurmd, slurm-client
# and munge; skips with the reason otherwise.
. "$(dirname "$0")/../lib.sh"
need_sampling
. "$TOP/tests/mpi-lib.sh"

why=""
[ "$(id -u)" -eq 0 ] || why="starting slurmctld and slurmd needs root"
for c in munged slurmctld slurmd srun salloc sinfo; do
	[ -n "$why" ] || command -v "$c" > /dev/null || why="$c is not installed (apt-get install slurmd slurmctld slurm-client munge)"
done
[ -n "$why" ] || mpi_tools openmpi || why=$WHY
if [ -n "$why" ]; then
	echo "1..0 # skip $why"
	exit 0
fi

S=$WORK/slurm
mkdir -p "$S/state" "$S/spool" "$S/log"
# the daemons write their state as they stop: their files go once they
# are gone (a few seconds at most)
stop() {
	local pids=() p

	for p in slurmd slurmctld munged; do
		[ -f "$S/$p.pid" ] && pids+=("$(cat "$S/$p.pid")")
	done
	kill "${pids[@]}" 2> /dev/null
	for _ in $(seq 50); do
		kill -0 "${pids[@]}" 2> /dev/null || break
		sleep 0.1
	done
	rm -rf "$WORK"
}
trap stop EXIT
head -c 1024 /dev/urandom > "$S/munge.key"
chmod 600 "$S/munge.key"
munged --force --key-file="$S/munge.key" --socket="$S/munge.socket" --pid-file="$S/munged.pid" \
	--log-file="$S/log/munged.log" --seed-file="$S/munge.seed"
port=$((20000 + $$ % 20000))
host=$(hostname)
cat > "$S/slurm.conf" <<CONF
ClusterName=cpperftest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge.socket
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
export SLURM_CONF=$S/slurm.conf
slurmctld -c -i && slurmd -c
for _ in $(seq 40); do
	sinfo -h -o %T 2> /dev/null | grep -q idle && break
	sleep 0.5
done
if ! sinfo -h -o %T 2> /dev/null | grep -q idle; then
	echo "1..0 # skip the test's Slurm did not start: $(tail -2 "$S/log/slurmctld.log" "$S/log/slurmd.log" 2> /dev/null | tr '\n' ' ' | head -c 300)"
	exit 0
fi

"$MPICC" -O2 -g -o "$WORK/demo" "$TOP/contrib/demo-mpi.c"
mkdir "$WORK/srun"
(cd "$WORK/srun" && timeout 120 salloc -n 2 sh -c \
	'echo "$SLURM_JOB_ID" > jobid; srun --mpi=pmix "$0" -q "$1" 3000' "$RECORD" "$WORK/demo") \
	> "$WORK/srun.out" 2>&1
is "srun -n 2 cpperf-record: it runs" "$?:$(grep -v '^demo:\|^salloc:' "$WORK/srun.out" | head -c 300)" "0:"
exp=$(ls -d "$WORK"/srun/cpperf-demo-* 2> /dev/null)
is "one experiment, named by the job and the step (job $(cat "$WORK/srun/jobid" 2> /dev/null))" \
	"$(basename "$exp" 2> /dev/null | sed "s/\\.$(cat "$WORK/srun/jobid" 2> /dev/null)\\.0\$/.JOB.0/")" \
	"cpperf-demo-slurm.pmix.JOB.0"
is "both ranks' profiles in it" "$(ls "$exp"/rank*.cpprof 2> /dev/null | wc -l)" 2
mpi_run 2 "$RECORD" -q -o "$WORK/mpirun" "$WORK/demo" 3000 > /dev/null 2>&1
# shape FILE: what must be alike: the ranks, the program's own functions
# of >= 2 % of its own samples (not of all: the MPI library's progress
# functions share the waits, whose length varies from run to run and
# with the host's load), the MPI call sites (function and the functions
# of its path)
shape() {
	jq -c '[.flat[] | select(.module_name == "demo")] as $own | ($own | map(.self_pct) | add) as $all |
		{ ranks: [.ranks[].rank] | sort,
		functions: [$own[] | select(.self_pct >= 0.02 * $all) | .function] | sort,
		sites: [.mpi.callsites[] | [.function, (.callpath | map(.function))]] | sort }' "$1"
}
"$CPPERF" report "$exp" --format=json > "$WORK/srun.json"
"$CPPERF" report "$WORK/mpirun" --format=json > "$WORK/mpirun.json"
is "its report has the structure of mpirun's: ranks, functions, call sites" \
	"$(shape "$WORK/srun.json")" "$(shape "$WORK/mpirun.json")"
done_testing
