# stress-programs.sh - the MPI programs of `make check-stress`
# (tests/stress.sh, which draws from them) and of stress-programs.t (which
# runs each once at every rank count listed, so that a change to a program
# that breaks it on some count fails the test suite, not only a stress run).
# PROGRAMS: name, source, rank counts to draw from, arguments (SEED
# stands for a drawn seed).  stress-alltoall on 4 ranks, the pattern of
# the one crash seen in the field, is listed three times to be drawn more.
PROGRAMS=(
	"stress-alltoall stress-alltoall.c 4 SEED 300"
	"stress-alltoall stress-alltoall.c 4 SEED 300"
	"stress-alltoall stress-alltoall.c 2,3,4 SEED 300"
	"stress-p2p stress-p2p.c 2,3,4 SEED 200"
	"stress-comm stress-comm.c 2,3,4 SEED 120"
	"stress-threads stress-threads.c 2,3,4 SEED 150"
	"cp-random cp-random.c 2,3,4 SEED 60"
	"mpi-semantics mpi-semantics.c 4"
	"mpi-exact mpi-exact.c 2,3,4"
	"mpi-exact-f mpi-exact.f90 2,3,4"
	"mpi-callpath mpi-callpath.c 2"
	"cp-serial cp-serial.c 2,3,4"
	"cp-zeroing cp-zeroing.c 3 1"
	"cp-interval cp-interval.c 2,3,4 1.5"
	"comp-mw comp-mw.c 4 30 2000 4"
	"comp-tworecv comp-tworecv.c 3 100 500"
	"comp-stencil comp-stencil.c 2,3,4 150 500"
	"comp-pipeline comp-pipeline.c 3,4 200 500"
	"comp-allreduce comp-allreduce.c 2,3,4 150 500"
	"comp-handshake comp-handshake.c 2 150 300"
)
