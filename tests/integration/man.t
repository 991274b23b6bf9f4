#!/usr/bin/env bash
# man.t - the man pages (build/man, from docs/man by docs/man/man.pl):
# each renders with `man -l` without a warning, has its sections, and
# names every option that its command's --help lists; and `make install`
# lays out bin/, lib/cpperf/, share/man/man1/ and share/doc/cpperf/, its
# cpperf-record preloading the installed runtime.
. "$(dirname "$0")/../lib.sh"

if ! command -v man > /dev/null; then
	echo "1..0 # skip man is not installed (contrib/install-deps.sh installs man-db)"
	exit 0
fi
# help PAGE: the --help of PAGE's command
help() {
	case $1 in
	cpperf) "$CPPERF" --help ;;
	cpperf-record) "$RECORD" --help ;;
	*) "$CPPERF" "${1#cpperf-}" --help ;;
	esac
}
for page in cpperf cpperf-record cpperf-report cpperf-list cpperf-merge cpperf-diff; do
	f=$TOP/build/man/$page.1
	if [ ! -f "$f" ]; then
		fail "$page(1) is built" "no $f: make builds it"
		continue
	fi
	MANWIDTH=1000 LC_ALL=C man --warnings -l "$f" > "$WORK/$page.txt" 2> "$WORK/$page.err"
	is "$page(1): man -l renders it without a warning" "$?:$(head -c 300 "$WORK/$page.err")" "0:"
	is "$page(1): NAME, SYNOPSIS, DESCRIPTION, OPTIONS" \
		"$(grep -cE '^(NAME|SYNOPSIS|DESCRIPTION|OPTIONS)$' "$WORK/$page.txt")" 4
	missing=""
	for o in $(help "$page" | grep -oE '(^|[ [,])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[ [,]//' | sort -u); do
		grep -qe "$o" "$WORK/$page.txt" || missing="$missing $o"
	done
	is "$page(1): every option of its --help is on the page" "$missing" ""
done

# make install into a scratch root: the layout, and the installed
# cpperf-record preloads the installed runtime, not the build tree's
root=$WORK/root
if make -s -C "$TOP" install-files DESTDIR="$root" PREFIX=/usr > "$WORK/install.out" 2>&1; then
	is "make install: the files" "$(cd "$root/usr" && for f in bin/cpperf bin/cpperf-record \
		lib/cpperf/libcpperf.so share/man/man1/cpperf-record.1 share/doc/cpperf/threads.md; do
		[ -f "$f" ] || echo "$f"; done)" ""
	"$root/usr/bin/cpperf-record" -q -o "$WORK/exp-installed" /bin/sh -c 'echo "$LD_PRELOAD"' \
		> "$WORK/preload" 2>&1
	is "the installed cpperf-record preloads the installed runtime" \
		"$(realpath -m "$(cat "$WORK/preload")")" "$root/usr/lib/cpperf/libcpperf.so"
else
	fail "make install DESTDIR=... PREFIX=/usr" "$(tail -5 "$WORK/install.out")"
fi
done_testing
