# cpperf - top-level build.  `make` builds bin/cpperf, bin/cpperf-record and
# lib/libcpperf.so; `make check` runs the test suite through prove (unit
# tests and the report tool built with ASan/UBSan); `make bench` prints
# overhead ratios; `make install PREFIX=...` installs.  See README.md.

PREFIX ?= /usr/local
CC ?= cc
FUZZ_CC ?= clang
VERSION := 0.1.0

WARN := -std=c17 -Wall -Wextra -Werror
BASE_CFLAGS := $(WARN) -O2 -g -fPIC -D_GNU_SOURCE -DCPPERF_VERSION='"$(VERSION)"'
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The normal build is optimized across files: a wrapped MPI call makes
# some thirty calls between small functions of pmpi/ and sampler/, which
# then inline (bench/mpi-cost.md, "Calls across files").  The link compiles, so
# it takes the same flags.  `make LTO=` builds without.
LTO ?= -flto=auto
LTO_LINK := $(LTO) $(WARN) -O2 -g

# --- dependencies: found with pkg-config or by probing; stop with the Debian
# package names when one is missing.
ifeq ($(filter clean,$(MAKECMDGOALS)),)
ifneq ($(shell pkg-config --exists libdw libelf && echo y),y)
$(error libdw/libelf not found: install them with 'apt-get install -y libdw-dev libelf-dev pkg-config' (or run contrib/install-deps.sh))
endif
ifneq ($(shell printf '\#include <perfmon/pfmlib_perf_event.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo y),y)
$(error libpfm4 not found: install it with 'apt-get install -y libpfm4-dev' (or run contrib/install-deps.sh))
endif
endif
HAVE_PAPI := $(shell pkg-config --exists papi && echo 1 || echo 0)
DW_CFLAGS := $(shell pkg-config --cflags libdw libelf 2>/dev/null)
DW_LIBS := $(shell pkg-config --libs libdw libelf 2>/dev/null)
# libpfm4 and PAPI are not linked: sampler/lazy-libs.c opens them by
# soname when an event needs them.
soname = $(shell readelf -d "$$($(CC) -print-file-name=$(1))" 2>/dev/null | \
	sed -n 's/.*soname: \[\(.*\)\]/\1/p')
LIBPFM_SONAME := $(or $(call soname,libpfm.so),libpfm.so.4)
LIBPAPI_SONAME := $(if $(filter 1,$(HAVE_PAPI)),$(or $(call soname,libpapi.so),libpapi.so))
DEP_CFLAGS := $(DW_CFLAGS) -DHAVE_PAPI=$(HAVE_PAPI) -DLIBPFM_SONAME='"$(LIBPFM_SONAME)"' \
	-DLIBPAPI_SONAME='"$(LIBPAPI_SONAME)"'

# --- MPI: one runtime with the MPI wrappers per MPI found, built with that
# MPI's compiler wrapper.  MPICC=... builds only the one it belongs to.
ifdef MPICC
MPI_FLAVOR := $(if $(shell $(MPICC) --showme:version 2>/dev/null),openmpi,mpich)
MPICC_$(MPI_FLAVOR) := $(MPICC)
else
MPICC_openmpi := $(shell command -v mpicc.openmpi 2>/dev/null || \
	{ mpicc --showme:version >/dev/null 2>&1 && command -v mpicc; })
MPICC_mpich := $(shell command -v mpicc.mpich 2>/dev/null)
endif
MPI_FLAVORS := $(foreach f,openmpi mpich,$(if $(MPICC_$(f)),$(f)))
MPI_RUNTIMES := $(patsubst %,lib/libcpperf-%.so,$(MPI_FLAVORS))
ifeq ($(MPI_FLAVORS)$(filter clean,$(MAKECMDGOALS)),)
$(info cpperf: no MPI compiler found (mpicc.openmpi, mpicc, mpicc.mpich; or make MPICC=...): building without the MPI runtimes)
endif

# --- sources, by role.  Each folder holds one responsibility; the lists
# below say which pieces end up in which binary.
COMMON_SRC := $(wildcard common/*.c)
SYM_RT_SRC := $(filter-out symbolize/demangle.c,$(wildcard symbolize/*.c))
SYM_REPORT_SRC := symbolize/demangle.c
# The event tables: the runtime, cpperf-record and `cpperf list` use them.
SAMPLER_EVENTS_SRC := sampler/events.c sampler/events-host.c sampler/events-list.c sampler/lazy-libs.c
SAMPLER_SHARED_SRC := $(SAMPLER_EVENTS_SRC) sampler/options.c sampler/mpi-libs.c
# cpperf-record alone reads the program's ELF and launches it.
SAMPLER_RECORD_SRC := sampler/elf-needed.c sampler/loader-deps.c sampler/prog-check.c \
	sampler/record-launch.c
SAMPLER_RT_SRC := $(filter-out $(SAMPLER_RECORD_SRC),$(wildcard sampler/*.c))
REPORT_SRC := $(wildcard report/*.c)
# The commands, thin over the libraries: cpperf (report, list) and
# cpperf-record.
CLI_CPPERF_SRC := cli/main.c cli/cmd-report.c cli/cmd-list.c cli/cmd-merge.c cli/cmd-diff.c
CLI_RECORD_SRC := cli/cmd-record.c

RT_SRC := $(COMMON_SRC) $(SYM_RT_SRC) $(SAMPLER_RT_SRC)
# sampler/papi.c checks PAPI events before the program starts; only
# cpperf-record and the runtime link PAPI.  Both read the launcher's
# environment (sampler/launcher.c).
RECORD_SRC := $(COMMON_SRC) $(SAMPLER_SHARED_SRC) sampler/papi.c sampler/launcher.c \
	$(CLI_RECORD_SRC) $(SAMPLER_RECORD_SRC)
# The report page's template, style and scripts, embedded into cpperf as C
# strings (report/html/embed.pl); the joined script is also kept for lint.
MAN_PAGES := $(patsubst docs/man/%.md,build/man/%,$(wildcard docs/man/*.1.md))
HTML_JS := $(addprefix report/html/,base.js flame.js table.js charts.js waits.js classes.js \
	threads.js diff.js views.js)
HTML_GEN := build/gen/html-assets.c
CPPERF_SRC := $(COMMON_SRC) $(REPORT_SRC) $(SYM_REPORT_SRC) $(SAMPLER_EVENTS_SRC) $(HTML_GEN) \
	$(CLI_CPPERF_SRC)
# Everything a unit test may call; no constructors, no main.
TESTLIB_SRC := $(sort $(COMMON_SRC) $(SYM_RT_SRC) $(SYM_REPORT_SRC) \
	$(filter-out sampler/runtime.c,$(SAMPLER_RT_SRC)) $(SAMPLER_SHARED_SRC) $(SAMPLER_RECORD_SRC) \
	$(REPORT_SRC) $(filter-out cli/main.c,$(CLI_CPPERF_SRC)) pmpi/wire.c pmpi/pb-rules.c pmpi/wait-rules.c pmpi/key-table.c pmpi/cp-links.c pmpi/cp-prefix.c pmpi/cp-segs.c pmpi/cp-fold-msg.c \
	$(HTML_GEN))

LIBS := $(DW_LIBS) -lz -lpthread -ldl
RT_LIBS := $(LIBS)
CPPERF_LIBS := $(LIBS) -lstdc++

O := build/obj
S := build/san
obj = $(patsubst %.c,$(O)/%.o,$(1))
san = $(patsubst %.c,$(S)/%.o,$(1))

all: bin/cpperf bin/cpperf-record lib/libcpperf.so $(MPI_RUNTIMES) $(MAN_PAGES)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEP_CFLAGS) $(LTO) -MMD -MP -c $< -o $@
$(S)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEP_CFLAGS) $(SAN) -MMD -MP -c $< -o $@

# The runtime lives inside someone else's program: hidden visibility, only
# the interposers are exported (CPPERF_EXPORT).
$(O)/sampler/%.o $(O)/symbolize/%.o $(O)/common/%.o: BASE_CFLAGS += -fvisibility=hidden

lib/libcpperf.so: $(call obj,$(RT_SRC))
	@mkdir -p lib
	$(CC) -shared $(LTO_LINK) -o $@ $^ $(RT_LIBS) -Wl,--no-undefined
bin/cpperf-record: $(call obj,$(RECORD_SRC))
	@mkdir -p bin
	$(CC) $(LTO_LINK) -o $@ $^ -lz -lpthread -ldl

# Man pages: docs/man/NAME.1.md with the options of the command's --help
# (docs/man/man.pl), so that a page has every option the command takes.
build/man/%.1: docs/man/%.1.md docs/man/man.pl bin/cpperf bin/cpperf-record
	@mkdir -p build/man
	case $* in cpperf) bin/cpperf --help ;; cpperf-record) bin/cpperf-record --help ;; \
		*) bin/cpperf $(patsubst cpperf-%,%,$*) --help ;; esac > $@.help
	perl docs/man/man.pl $< $@.help $(VERSION) > $@

$(HTML_GEN): report/html/embed.pl report/html/page.html report/html/page.css $(HTML_JS)
	@mkdir -p $(dir $@)
	perl report/html/embed.pl $@ build/gen/page.js report/html/page.html report/html/page.css $(HTML_JS)

# MPI runtimes: the runtime's objects plus pmpi/ and the wrappers generated
# from pmpi/mpi-api.def, compiled per MPI (objects in build/obj/pmpi-MPI).
PMPI_SRC := $(wildcard pmpi/*.c)
build/gen/pmpi-wrappers.c: pmpi/mpi-api.def pmpi/gen-wrappers.pl
	@mkdir -p $(dir $@)
	perl pmpi/gen-wrappers.pl $< $@
define mpi_runtime
$(O)/pmpi-$(1)/%.o: pmpi/%.c
	@mkdir -p $$(dir $$@)
	$$(MPICC_$(1)) $$(BASE_CFLAGS) $$(DEP_CFLAGS) $$(LTO) -fvisibility=hidden -MMD -MP -c $$< -o $$@
$(O)/pmpi-$(1)/pmpi-wrappers.o: build/gen/pmpi-wrappers.c
	@mkdir -p $$(dir $$@)
	$$(MPICC_$(1)) $$(BASE_CFLAGS) $$(DEP_CFLAGS) $$(LTO) -fvisibility=hidden -Ipmpi -MMD -MP -c $$< -o $$@
lib/libcpperf-$(1).so: $(call obj,$(RT_SRC)) $(patsubst pmpi/%.c,$(O)/pmpi-$(1)/%.o,$(PMPI_SRC)) \
		$(O)/pmpi-$(1)/pmpi-wrappers.o
	@mkdir -p lib
	$$(MPICC_$(1)) -shared $$(LTO_LINK) -o $$@ $$^ $$(RT_LIBS) -Wl,--no-undefined
endef
$(foreach f,$(MPI_FLAVORS),$(eval $(call mpi_runtime,$(f))))
bin/cpperf: $(call obj,$(CPPERF_SRC))
	@mkdir -p bin
	$(CC) $(LTO_LINK) -o $@ $^ $(CPPERF_LIBS)

# --- tests: unit tests and the report tool with sanitizers; the runtime is
# preloaded into test programs and so is built normally.
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,build/test/%,$(UNIT_SRC))
build/test/libtest.a: $(call san,$(TESTLIB_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
build/test/%: tests/unit/%.c build/test/libtest.a
	$(CC) $(BASE_CFLAGS) $(DEP_CFLAGS) $(SAN) -Itests/unit -MMD -MP -o $@ $< build/test/libtest.a $(RT_LIBS) -lstdc++
build/san/bin/cpperf: $(call san,$(CPPERF_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(CPPERF_LIBS)
build/fuzz/profile-fuzz: tests/fuzz/profile-fuzz.c $(COMMON_SRC)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c17 -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -o $@ $^ -lz

TEST_BINS := $(UNIT_BIN) build/san/bin/cpperf build/fuzz/profile-fuzz
# Run as root (as CI is), the integration tests then run again as an
# ordinary user with default limits (tests/as-user.sh).
check: all $(TEST_BINS)
	CPPERF_TOP=$(CURDIR) prove --timer --failures --exec '' $(UNIT_BIN) tests/integration/*.t
	tests/as-user.sh

# The Debian package alone (tests/integration/deb.t, which `make check`
# runs too): built, checked by lintian, the demo run with its files and,
# as root, in a fresh Debian root it was installed into.
check-deb:
	CPPERF_TOP=$(CURDIR) prove -v tests/integration/deb.t
.PHONY: check-deb

# The critical path against its offline reference on 200 random MPI
# schedules (tests/cp-long.sh; several minutes).
check-cp-long: all build/san/bin/cpperf
	CPPERF_TOP=$(CURDIR) tests/cp-long.sh
.PHONY: check-cp-long

# The crash scenarios of docs/record.md at full length (tests/crash-long.sh;
# about two minutes per MPI): needs a quiet host.
check-crash: all build/san/bin/cpperf
	CPPERF_TOP=$(CURDIR) prove -v tests/crash-long.sh
.PHONY: check-crash

# Overhead compensation on all six scenarios with the acceptance bounds
# (2 %, 5 % for master/worker; docs/compensation.md): needs a quiet host.
check-comp: all build/san/bin/cpperf
	CPPERF_TOP=$(CURDIR) COMP_STRICT=1 prove -v tests/integration/comp.t
.PHONY: check-comp

# Stress: the runtimes again with ASan/UBSan (objects and libraries under
# build/stress, the normal build untouched), and MPI programs run in loops
# under both MPIs with a CPU load beside them (tests/stress.sh; a few
# minutes, STRESS_SECONDS=N to change).
T := build/stress/obj
stress = $(patsubst %.c,$(T)/%.o,$(1))
$(T)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEP_CFLAGS) $(SAN) -fvisibility=hidden -MMD -MP -c $< -o $@
build/stress/lib/libcpperf.so: $(call stress,$(RT_SRC))
	@mkdir -p $(dir $@)
	$(CC) -shared $(SAN) -o $@ $^ $(RT_LIBS) -Wl,--no-undefined
define stress_runtime
$(T)/pmpi-$(1)/%.o: pmpi/%.c
	@mkdir -p $$(dir $$@)
	$$(MPICC_$(1)) $$(BASE_CFLAGS) $$(DEP_CFLAGS) $$(SAN) -fvisibility=hidden -MMD -MP -c $$< -o $$@
$(T)/pmpi-$(1)/pmpi-wrappers.o: build/gen/pmpi-wrappers.c
	@mkdir -p $$(dir $$@)
	$$(MPICC_$(1)) $$(BASE_CFLAGS) $$(DEP_CFLAGS) $$(SAN) -fvisibility=hidden -Ipmpi -MMD -MP -c $$< -o $$@
build/stress/lib/libcpperf-$(1).so: $(call stress,$(RT_SRC)) \
		$(patsubst pmpi/%.c,$(T)/pmpi-$(1)/%.o,$(PMPI_SRC)) $(T)/pmpi-$(1)/pmpi-wrappers.o
	@mkdir -p $$(dir $$@)
	$$(MPICC_$(1)) -shared $$(SAN) -o $$@ $$^ $$(RT_LIBS) -Wl,--no-undefined
endef
$(foreach f,$(MPI_FLAVORS),$(eval $(call stress_runtime,$(f))))
# ThreadSanitizer: the plain runtime, for a threaded program (no MPI:
# the MPI libraries are not built for it).
$(T)-tsan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEP_CFLAGS) -fsanitize=thread -fvisibility=hidden -MMD -MP -c $< -o $@
build/stress/tsan/libcpperf.so: $(patsubst %.c,$(T)-tsan/%.o,$(RT_SRC))
	@mkdir -p $(dir $@)
	$(CC) -shared -fsanitize=thread -o $@ $^ $(RT_LIBS) -Wl,--no-undefined
STRESS_RUNTIMES := build/stress/lib/libcpperf.so build/stress/tsan/libcpperf.so \
	$(patsubst %,build/stress/lib/libcpperf-%.so,$(MPI_FLAVORS))

check-stress: all build/san/bin/cpperf $(STRESS_RUNTIMES)
	CPPERF_TOP=$(CURDIR) tests/stress.sh
.PHONY: check-stress

demo: all
	./contrib/demo.sh

bench: all
	./bench/run.sh
	./bench/resolve.sh
	./bench/busy.sh
	./bench/threads.sh
	./bench/mpi.sh
	./bench/mpi-instr.sh
	./bench/cp.sh
	./bench/comp.sh
	./bench/checkpoint.sh
	./bench/html.sh
	NAS_BIN="$(NAS_BIN)" ./bench/scale.sh
	./bench/merge.sh
	./bench/cluster.sh

# NAS Parallel Benchmarks built by the user: make bench-nas NAS_BIN=DIR
bench-nas: all
	NAS_BIN="$(NAS_BIN)" ./bench/nas.sh

# bin/, lib/cpperf/ (the runtimes, which cpperf-record finds beside
# itself), share/man/man1/ and share/doc/cpperf/; install-files copies
# what is built without checking it is up to date.
define install_files
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/cpperf \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/doc/cpperf
	install -m 755 lib/libcpperf.so $(MPI_RUNTIMES) $(DESTDIR)$(PREFIX)/lib/cpperf/
	install -m 755 bin/cpperf $(DESTDIR)$(PREFIX)/bin/
	install -m 755 bin/cpperf-record $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/cpperf/
endef
install: all
	$(install_files)
install-files:
	$(install_files)

clean:
	rm -rf build bin lib

.PHONY: all check demo bench bench-nas install install-files clean
-include $(shell find build -name '*.d' 2>/dev/null)
