#!/bin/bash
# Build (once per `make check` run) the one x86_64 gcc test kernel: the
# KUnit boot (suites 40 and 45) and every boot of the emulated HWP machine
# (suites 54-59, the main job) run it. Fragments (TEST_FRAGMENTS, default):
# Kconfig.fragment, configs/x86_64-test.config, configs/kunit-x86.config
# (the series' intel_pstate_perf suite, a module) and
# configs/kunit-e2e.config (the harness-only end-to-end test module). The
# KUnit suites are modules, in OUT/kunit-modules/
# (tools/build-test-module.sh), which only the KUnit boot
# (tools/kunit-boot.sh) loads: on the HWP machine the real intel_pstate is
# the only cpufreq driver and no test code runs. With
# configs/kunit-e2e.config among the fragments the kernel is built from
# tools/harness-tree.sh's tree: the series plus five harness-only exports
# that the test module needs. Prints the bzImage path.
# TOOLCHAIN=llvm (make LLVM=1 or CC=clang on the main job) builds with
# Debian's clang and LLVM (tools/build-kernel.sh) into x86_64-test-llvm.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
default_frags=0
if [ -z "${TEST_FRAGMENTS:-}" ]; then
	default_frags=1
	TEST_FRAGMENTS="$REPO/Kconfig.fragment $REPO/configs/x86_64-test.config"
	TEST_FRAGMENTS="$TEST_FRAGMENTS $REPO/configs/kunit-x86.config $REPO/configs/kunit-e2e.config"
fi
name=x86_64-test
stamp=$BUILD/state/test-kernel.run
if [ "${TOOLCHAIN:-gcc}" = llvm ]; then
	name=$name-llvm stamp=${stamp%.run}-llvm.run
	[ -z "${SEED:-}" ] || SEED=$SEED-llvm
	export SEED
fi
if [ -n "${CHECK_RUN_ID:-}" ] && [ -f "$stamp" ] &&
	[ "$(sed -n 1p "$stamp")" = "$CHECK_RUN_ID $TEST_FRAGMENTS" ] &&
	[ -f "$(sed -n 2p "$stamp")" ]; then
	sed -n 2p "$stamp"
	exit 0
fi
e2e=0
case " $TEST_FRAGMENTS " in *"/configs/kunit-e2e.config "*) e2e=1 ;; esac
if [ $e2e = 1 ]; then
	KSRC=$("$here/harness-tree.sh")
	export KSRC
fi
# T_ref, the unit of tools/check.sh's times: the wall time (configure and
# build) of this kernel's first build in this build directory, from
# nothing, with the default fragments, gcc and JOBS = the CPU count.
# Recorded once, with the ccache hits of that build: a build with more
# hits than misses is marked "warm ccache", and tools/check.sh then says
# that its multiples are not against a cold T_ref. (A build with an empty
# ccache has hits of its own: 144 against 1126 misses in the cold run of
# 2026-12-04.)
ccstats() { # hits misses of the ccache in use, or nothing without ccache
	command -v ccache >/dev/null 2>&1 || return 0
	ccache --print-stats 2>/dev/null | awk '$1 ~ /^(direct|preprocessed)_cache_hit$/ { h += $2 } $1 == "cache_miss" { m = $2 } END { print h + 0, m + 0 }' || true
}
tref=""
if [ "$name" = x86_64-test ] && [ $default_frags = 1 ] && [ "${TOOLCHAIN:-gcc}" = gcc ] &&
	[ -z "${SEED:-}" ] && [ "${JOBS:-$(nproc)}" = "$(nproc)" ] &&
	[ ! -e "$BUILD/out/$name/.config" ] && [ ! -f "$BUILD/state/t_ref" ]; then
	tref=$(date +%s)
	cc0=$(ccstats)
fi
# shellcheck disable=SC2086
img=$("$here/build-kernel.sh" "$name" x86_64 $TEST_FRAGMENTS)
if [ -n "$tref" ]; then
	secs=$(($(date +%s) - tref))
	cc1=$(ccstats)
	if [ -n "$cc0" ] && [ -n "$cc1" ]; then
		read -r h0 m0 <<<"$cc0"
		read -r h1 m1 <<<"$cc1"
		h=$((h1 - h0)) m=$((m1 - m0))
		cc="ccache $h hits $m misses"
		[ "$h" -le "$m" ] || cc="$cc, warm ccache"
	else
		cc="no ccache"
	fi
	mkdir -p "$BUILD/state"
	printf '%d cold build of x86_64-test, %s, %s, %s CPUs, %s\n' "$secs" "$(date -u +%Y-%m-%d)" \
		"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) $(sed -n 's/^cpu MHz[[:space:]]*: \([0-9]*\).*/\1 MHz/p' /proc/cpuinfo | head -n 1)" \
		"$(nproc)" "$cc" >"$BUILD/state/t_ref.tmp"
	mv "$BUILD/state/t_ref.tmp" "$BUILD/state/t_ref"
fi
if [ $e2e = 1 ]; then
	"$here/build-test-module.sh" "$BUILD/out/$name" x86_64 >/dev/null
fi
mkdir -p "$BUILD/state"
printf '%s\n%s\n' "${CHECK_RUN_ID:-none} $TEST_FRAGMENTS" "$img" >"$stamp"
echo "$img"
