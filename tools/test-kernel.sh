#!/bin/bash
# The x86_64 test kernel and its test module, built once per CHECK_RUN_ID; prints
# the bzImage path. harness.md, "Tool reference".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
name=x86_64-test
[ "${TOOLCHAIN:-gcc}" != llvm ] || name=x86_64-test-llvm
stamp=$BUILD/state/$name.run
if [ -n "${CHECK_RUN_ID:-}" ] && [ -f "$stamp" ] &&
	[ "$(sed -n 1p "$stamp")" = "$CHECK_RUN_ID" ] && [ -f "$(sed -n 2p "$stamp")" ]; then
	sed -n 2p "$stamp"
	exit 0
fi
# T_ref, the unit of check.sh's times: the wall time of this kernel's first build here,
# from nothing, gcc, JOBS = the CPU count; recorded once, with its ccache hits. More
# hits than misses is no cold build, not recorded (in make check the walk's tip build
# shares its objects: `make kernel` in a fresh clone with an empty CCACHE_DIR measures it).
ccstats() { # hits misses of the ccache in use, or nothing without ccache
	command -v ccache >/dev/null 2>&1 || return 0
	ccache --print-stats 2>/dev/null | awk '$1 ~ /^(direct|preprocessed)_cache_hit$/ { h += $2 } $1 == "cache_miss" { m = $2 } END { print h + 0, m + 0 }' || true
}
tref=""
if [ "$name" = x86_64-test ] && [ "${JOBS:-$(nproc)}" = "$(nproc)" ] &&
	[ ! -e "$BUILD/out/$name/.config" ] && [ ! -f "$BUILD/state/t_ref" ]; then
	tref=$(date +%s)
	cc0=$(ccstats)
fi
img=$("$here/kernel.sh" build "$name")
if [ -n "$tref" ]; then
	secs=$(($(date +%s) - tref))
	cc1=$(ccstats)
	if [ -n "$cc0" ] && [ -n "$cc1" ]; then
		read -r h0 m0 <<<"$cc0"
		read -r h1 m1 <<<"$cc1"
		h=$((h1 - h0)) m=$((m1 - m0))
		cc="ccache $h hits $m misses"
		if [ "$h" -gt "$m" ]; then
			echo "test-kernel: not recorded as T_ref: $secs s with $cc (not a cold build)" >&2
			tref=""
		fi
	else
		cc="no ccache"
	fi
fi
if [ -n "$tref" ]; then
	mkdir -p "$BUILD/state"
	printf '%d cold build of x86_64-test, %s, %s, %s CPUs, %s\n' "$secs" "$(date -u +%Y-%m-%d)" \
		"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) $(sed -n 's/^cpu MHz[[:space:]]*: \([0-9]*\).*/\1 MHz/p' /proc/cpuinfo | head -n 1)" \
		"$(nproc)" "$cc" >"$BUILD/state/t_ref.tmp"
	mv "$BUILD/state/t_ref.tmp" "$BUILD/state/t_ref"
fi
"$here/build-test-module.sh" "$BUILD/out/$name" x86_64 >/dev/null
printf '%s\n%s\n' "${CHECK_RUN_ID:-none}" "$img" >"$stamp"
echo "$img"
