# mpi-lib.sh - what the MPI integration tests share (sourced after lib.sh):
# each MPI's compiler, launcher and runtime, and a launcher that works as
# root and on few cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# mpi_tools MPI: set MPICC, MPIFC, MPIRUN for openmpi or mpich; returns 1
# with the reason in WHY when that MPI or its cpperf runtime is missing.
mpi_tools() {
	case $1 in
	openmpi)
		MPICC=$(command -v mpicc.openmpi || command -v mpicc)
		MPIFC=$(command -v mpifort.openmpi || command -v mpifort)
		MPIRUN=$(command -v mpirun.openmpi || command -v mpirun) ;;
	mpich)
		MPICC=$(command -v mpicc.mpich)
		MPIFC=$(command -v mpifort.mpich)
		MPIRUN=$(command -v mpirun.mpich) ;;
	esac
	if [ -z "$MPICC" ] || [ -z "$MPIRUN" ]; then
		WHY="$1 is not installed (contrib/install-deps.sh installs it)"
		return 1
	fi
	if [ ! -e "$TOP/lib/libcpperf-$1.so" ]; then
		WHY="lib/libcpperf-$1.so was not built"
		return 1
	fi
}

# mpi_or_skip MPI WHAT: mpi_tools MPI, or a TAP skip of "MPI: WHAT" with
# the reason and status 1.
mpi_or_skip() {
	mpi_tools "$1" && return 0
	skip "$1: $2" "$WHY"
	return 1
}

# mpi_build NAME SRC [FLAGS...]: compile tests/progs/SRC with $MPICC (or
# $MPIFC for .f90) and FLAGS; MPICH's header makes GCC warn falsely about
# MPI_STATUSES_IGNORE.
mpi_build() {
	local name=$1 src=$2
	shift 2
	case $src in
	*.f90) "$MPIFC" -g -O1 -o "$WORK/$name" "$TOP/tests/progs/$src" "$@" ;;
	*) "$MPICC" -std=gnu17 -g -O1 -Wno-stringop-overflow -Wno-stringop-overread -o "$WORK/$name" \
		"$TOP/tests/progs/$src" "$@" -lpthread ;;
	esac
}

# mpi_end MPI WHAT: mpi_tools MPI, then tests/progs/mpi-end.c built with
# it as P ($WORK/end-MPI); when MPI is missing, skips WHAT with the reason
# and returns 1.
mpi_end() {
	mpi_or_skip "$1" "$2" || return 1
	mpi_build "end-$1" mpi-end.c
	P=$WORK/end-$1
}

# mpi_run NP ARGS...: the launcher with a time limit.
mpi_run() { local np=$1; shift; timeout 120 "$MPIRUN" -np "$np" "$@"; }

# cp_json DIR OUT [ARGS...]: the CP view of DIR as JSON into OUT, its
# stderr into OUT.err; returns the report's status.
cp_json() {
	local dir=$1 out=$2; shift 2
	"$CPPERF" report "$dir" --view=cp --format=json "$@" > "$out" 2> "$out.err"
}

# cp_filter FILTER: the jq filter of one value of .critical_path in a CP
# view, empty when absent (for jq_vars)
cp_filter() { echo ".critical_path | $1 // empty"; }

# cp_share FUNCTION: the jq filter of FUNCTION's cp_pct in a CP view
cp_share() { cp_filter "(.functions[] | select(.function == \"$1\") | .cp_pct)"; }
