#!/usr/bin/env bash
# as-user.sh - the integration tests again as an ordinary user, with the
# locked-memory limit such a user gets by default, so that nothing that
# needs root passes unnoticed (`make check` runs it last when run as root,
# as CI is; run as an ordinary user, `make check` was this already).
#
# The user is CPPERF_TEST_USER, else nobody.  The tree is copied into a
# directory of that user's: a clone under /root cannot be read by it, and
# some tests write below the tree.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
user=${CPPERF_TEST_USER:-nobody}
# the soft `ulimit -l` of an ordinary user on Debian (systemd and the
# kernel both default to 8 MiB), in KiB
MEMLOCK_KIB=8192

if [ "$(id -u)" -ne 0 ]; then
	echo "as-user: running as $(id -un) already: the tests above were the ordinary user's"
	exit 0
fi
if ! id "$user" > /dev/null 2>&1; then
	echo "as-user: there is no user '$user': set CPPERF_TEST_USER to an unprivileged one" >&2
	exit 1
fi
if ! command -v runuser > /dev/null; then
	echo "as-user: runuser (util-linux) is missing" >&2
	exit 1
fi

tree=$(mktemp -d /tmp/cpperf-as-user.XXXXXX)	# /tmp: any user may pass through
trap 'rm -rf "$tree"' EXIT
tar -C "$TOP" --exclude=./.git --exclude=./build/obj --exclude=./build/san \
	--exclude=./build/stress -cf - . | tar -C "$tree" -xf -
mkdir -p "$tree/build/san/bin"
cp -p "$TOP/build/san/bin/cpperf" "$tree/build/san/bin/"
mkdir -p "$tree/home"
chown -R "$user" "$tree"
chmod 700 "$tree"

# Only what records depends on the user: tests that never start
# cpperf-record (the report tool, its fuzzer, the package), the report
# page in a browser (CPPERF_SECOND_PASS, tests/integration/html.t) and
# the check that the stress programs run at their rank counts (a test of
# the programs, whose recording the other tests cover) ran in the first
# pass.
FIRST_PASS_ONLY='deb|fuzz|report-cli|report-graph|report-hostile|stress-programs'

echo "as-user: the integration tests as $user (ulimit -l $MEMLOCK_KIB KiB," \
	"kernel.perf_event_mlock_kb $(cat /proc/sys/kernel/perf_event_mlock_kb 2> /dev/null || echo '?'))"
runuser -u "$user" -- env HOME="$tree/home" USER="$user" LOGNAME="$user" TMPDIR="$tree" \
	CPPERF_TOP="$tree" MEMLOCK_KIB="$MEMLOCK_KIB" FIRST_PASS_ONLY="$FIRST_PASS_ONLY" CPPERF_SECOND_PASS=1 bash -c '
	cur=$(ulimit -l)
	if [ "$cur" = unlimited ] || [ "$cur" -gt "$MEMLOCK_KIB" ]; then
		ulimit -S -l "$MEMLOCK_KIB"
	fi
	cd "$CPPERF_TOP" && prove --timer --failures $(ls tests/integration/*.t | grep -vE "/($FIRST_PASS_ONLY)\.t$")'
