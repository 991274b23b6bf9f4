#!/usr/bin/env bash
# deb.t - the Debian package of the committed tree (debian/):
# dpkg-buildpackage -us -uc -b builds it from a clean copy (git archive
# HEAD: what is not committed is not in it); lintian's tags are printed
# and none may be an error; the package's files are unpacked into a
# scratch root, and the demo runs there under mpirun with the build tree
# out of reach: cpperf-record finds its runtimes beside itself; as root
# with debootstrap, the package installs into a fresh Debian root
# (bookworm, from the mirror apt uses) and the demo runs inside it.
# Outside a git clone it skips; `make check`'s second pass as an ordinary
# user (tests/as-user.sh) does not run it: the first pass built the same
# package.  TAP on stdout.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

if ! command -v dpkg-buildpackage > /dev/null || ! command -v dh > /dev/null; then
	echo "1..0 # skip dpkg-buildpackage or debhelper is not installed (apt-get install debhelper)"
	exit 0
fi
if ! git -C "$TOP" rev-parse -q --verify HEAD > /dev/null 2>&1; then
	echo "1..0 # skip $TOP is not a git clone: the package is built from its committed tree"
	exit 0
fi
. "$TOP/tests/mpi-lib.sh"
mpi_tools openmpi

# as root, the fresh Debian root (below) is made while the package builds:
# debootstrap mostly waits for the mirror; on the way out, it is waited
# for before its root is unmounted and removed
fresh=$WORK/fresh
mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2> /dev/null | head -1)
boot=
if [ "$(id -u)" -eq 0 ] && command -v debootstrap > /dev/null && [ -n "${MPICC:-}" ]; then
	debootstrap --variant=minbase bookworm "$fresh" "${mirror:-http://deb.debian.org/debian}" \
		> "$WORK/debootstrap.log" 2>&1 &
	boot=$!
	trap '[ -n "$boot" ] && wait "$boot"; umount "$fresh/proc" 2> /dev/null; rm -rf "$WORK"' EXIT
fi

src=$WORK/src/cpperf-0.1.0
mkdir -p "$src"
git -C "$TOP" archive HEAD | tar -C "$src" -xf -
(cd "$src" && DEB_BUILD_OPTIONS="parallel=$(nproc) ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -us -uc -b) > "$WORK/build.log" 2>&1
is "dpkg-buildpackage -us -uc -b" "$?:$(tail -3 "$WORK/build.log" | tr '\n' ' ' | head -c 300)" \
	"0:$(tail -3 "$WORK/build.log" | tr '\n' ' ' | head -c 300)"
deb=$(ls "$WORK"/src/cpperf_*_amd64.deb 2> /dev/null | head -1)
if [ -z "$deb" ]; then
	fail "the .deb" "none in $WORK/src: $(tail -20 "$WORK/build.log")"
	done_testing
	exit
fi
ok "the .deb: $(basename "$deb")"
if command -v lintian > /dev/null; then
	lintian "$deb" > "$WORK/lintian" 2>&1
	sed 's/^/# lintian: /' "$WORK/lintian"
	is "lintian: no error" "$(grep -c '^E:' "$WORK/lintian")" 0
else
	skip "lintian" "lintian is not installed"
fi
is "the package's files" "$(dpkg-deb -c "$deb" | awk '{ print $6 }' | grep -E \
	'/usr/bin/cpperf-record$|/usr/lib/cpperf/libcpperf.so$|/usr/share/man/man1/cpperf.1.gz$|/usr/share/doc/cpperf/threads.md.gz$' |
	sort | tr '\n' ' ')" \
	"./usr/bin/cpperf-record ./usr/lib/cpperf/libcpperf.so ./usr/share/doc/cpperf/threads.md.gz ./usr/share/man/man1/cpperf.1.gz "
root=$WORK/root
dpkg-deb -x "$deb" "$root"
if mpi_tools openmpi; then
	"$MPICC" -O2 -g -o "$WORK/demo" "$TOP/contrib/demo-mpi.c"
	(cd "$WORK" && env -u CPPERF_TOP PATH="$root/usr/bin:$PATH" \
		timeout 120 "$MPIRUN" -np 2 cpperf-record -q -o "$WORK/exp" "$WORK/demo" 500) > /dev/null 2>&1
	is "the demo under the package's cpperf-record: two ranks' profiles" \
		"$(ls "$WORK/exp"/*.cpprof 2> /dev/null | wc -l)" 2
	"$root/usr/bin/cpperf" report "$WORK/exp" > "$WORK/report.txt" 2>&1
	check "the package's cpperf reports it" grep -q '^# processes: 2' "$WORK/report.txt"
else
	skip "the demo under the package's cpperf-record" "$WHY"
fi

# the fresh Debian root (debootstrap from the mirror apt uses, started
# above): the package installs there with its dependencies, and the demo
# runs there
if [ -z "$boot" ]; then
	skip "the package in a fresh root" "needs root, debootstrap (apt-get install debootstrap) and Open MPI"
elif ! wait "$boot"; then
	boot=
	skip "the package in a fresh root" "debootstrap failed: $(tail -1 "$WORK/debootstrap.log")"
else
	boot=
	mount -t proc proc "$fresh/proc"
	cp /etc/resolv.conf "$fresh/etc/"
	cp "$deb" "$fresh/tmp/cpperf.deb"
	cp "$WORK/demo" "$fresh/tmp/demo"
	chroot "$fresh" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/cpperf.deb' \
		> "$WORK/fresh-install.log" 2>&1
	is "the package installs into a fresh root with its dependencies" \
		"$?:$(chroot "$fresh" dpkg-query -W -f='${Status}' cpperf 2>&1)" "0:install ok installed"
	chroot "$fresh" env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		OMPI_MCA_rmaps_base_oversubscribe=1 sh -c 'cd /tmp && timeout 120 mpirun -np 2 \
		cpperf-record -q -o /tmp/exp ./demo 500 > /dev/null && cpperf report /tmp/exp' \
		> "$WORK/fresh-report.txt" 2>&1
	check "the demo runs there under mpirun cpperf-record, and cpperf reports its 2 ranks" \
		grep -q '^# processes: 2' "$WORK/fresh-report.txt"
	man_page=$(chroot "$fresh" sh -c 'ls /usr/share/man/man1/cpperf-record.1.gz' 2>&1)
	is "its man pages are installed" "$man_page" "/usr/share/man/man1/cpperf-record.1.gz"
fi
done_testing
