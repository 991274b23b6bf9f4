#!/bin/sh
# install-deps.sh - install the Debian/Ubuntu packages cpperf needs to build,
# test and run its demo, skipping those already present.  Runs apt-get as
# root, or through sudo otherwise.
set -eu

PKGS="gcc make pkg-config perl jq libdw-dev libelf-dev libpfm4-dev libpapi-dev
gfortran clang libclang-rt-dev openmpi-bin libopenmpi-dev mpich libmpich-dev linux-perf procps strace
chromium chromium-driver python3-selenium"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "install-deps: installing:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
