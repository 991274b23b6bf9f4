#!/bin/sh
# install-deps.sh - install the Debian/Ubuntu packages cpperf needs to build,
# test and run its demo, skipping those already present, and from npm into
# build/npm, where Node.js is installed, ESLint for the report page's
# scripts (Debian's eslint runs only with Debian's own Node.js) and
# speedscope, whose own reader the tests give the speedscope export.  Runs apt-get as
# root, or through sudo otherwise.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

PKGS="gcc make pkg-config perl jq libdw-dev libelf-dev zlib1g-dev libpfm4-dev libpapi-dev
gfortran clang libclang-rt-dev libomp-dev openmpi-bin libopenmpi-dev mpich libmpich-dev linux-perf procps strace time
chromium chromium-driver python3-selenium python3-networkx libxml2-utils man-db
slurmd slurmctld slurm-client munge debuginfod debhelper lintian debootstrap python3-jsonschema golang-go"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
	echo "install-deps: installing:$missing" >&2
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

if command -v npm >/dev/null && { [ ! -x "$top/build/npm/node_modules/.bin/eslint" ] ||
	[ ! -r "$top/build/npm/node_modules/speedscope/dist/release/index.html" ]; }; then
	echo "install-deps: installing ESLint 8 and speedscope into build/npm" >&2
	npm install --silent --no-audit --no-fund --prefix "$top/build/npm" eslint@8 speedscope@1 >/dev/null
fi
