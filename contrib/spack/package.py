# Spack recipe for cpperf (contrib/spack/package.py): copy it into a Spack
# repository as packages/cpperf/package.py.  The HTML page is part of
# `cpperf report` itself (its scripts are embedded at build time), so it
# needs no variant.
from spack.package import *


class Cpperf(MakefilePackage):
    """Sampling profiler for MPI, threaded and serial programs: call paths
    from perf_event_open samples unwound with elfutils, MPI call-site
    statistics, the online critical path, overhead compensation, wait
    states and thread activity; reports as text, JSON, folded stacks and
    one offline HTML page."""

    homepage = "https://example.org/cpperf"
    git = "https://example.org/cpperf.git"

    version("main", branch="main")

    variant("papi", default=False, description="PAPI as an optional sampling backend")
    variant("mpi", default=True, description="the MPI runtime (call sites, critical path, waits)")

    depends_on("gmake", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("perl", type="build")
    depends_on("elfutils")
    depends_on("zlib-api")
    depends_on("libpfm4")
    depends_on("papi", when="+papi")
    depends_on("mpi", when="+mpi")

    conflicts("platform=darwin", msg="cpperf samples through Linux's perf_event_open")

    @property
    def build_targets(self):
        targets = ["all", "HAVE_PAPI=" + ("1" if "+papi" in self.spec else "0")]
        if "+mpi" in self.spec:
            targets.append("MPICC=" + self.spec["mpi"].mpicc)
        else:
            targets += ["MPICC_openmpi=", "MPICC_mpich="]
        return targets

    def install(self, spec, prefix):
        make("install-files", "PREFIX=" + prefix, *self.build_targets[1:])
