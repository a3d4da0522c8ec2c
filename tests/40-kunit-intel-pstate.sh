#!/bin/bash
# The intel_pstate KUnit suite (issue 4, section 1; a module since issue 21,
# item 9): the mapping of schedutil's performance hints onto HWP levels and
# the HWP_REQUEST values composed from them, on the pure functions of
# drivers/cpufreq/intel_pstate_perf.h, by drivers/cpufreq/intel_pstate_perf_test.c
# (CONFIG_X86_INTEL_PSTATE_PERF_KUNIT_TEST, tristate; =y from
# configs/kunit-x86.config). It is built into the one x86 test kernel of
# make check (tools/test-kernel.sh), booted once for all x86 KUnit suites
# by tools/kunit-boot.sh and parsed with the tree's kunit.py. The suite must
# report every KUNIT_CASE() of the file. It is also built as a module, with
# W=1, in a tree of its own (build/out/x86_64-pstate-perf-module:
# the test kernel's fragments plus configs/pstate-perf-test-module.config;
# only `make drivers/cpufreq/intel_pstate_perf_test.ko`, no image).
#
# Environment: REPO BUILD KSRC (kernel tree with the full series applied).
# Prints a KTAP document, plan 5: the test kernel builds, has the symbol,
# the KUnit boot (tools/kunit-boot.sh: boot, console, the suite's cases
# nested), every KUNIT_CASE() of the file reported, the module builds with
# W=1 and no warning. A failure before the boot fails every result after it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
export REPO BUILD
suite=intel_pstate_perf
symbol=CONFIG_X86_INTEL_PSTATE_PERF_KUNIT_TEST
src=drivers/cpufreq/intel_pstate_perf_test.c
KSRC=${KSRC:-$BUILD/linux}
# shellcheck source=tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"
ktap_plan 5

mkdir -p "$BUILD"
if ! image=$("$REPO/tools/test-kernel.sh" 2>"$BUILD/40-test-kernel.err"); then
	sed 's/^/  /' "$BUILD/40-test-kernel.err"
	ktap_fail "x86 test kernel builds" "tools/test-kernel.sh failed (above)"
	ktap_fail_rest "the x86 test kernel did not build"
	exit 0
fi
ktap_ok "x86 test kernel builds"
config=$(cd "$(dirname "$image")/../../.." && pwd)/.config
if ! grep -qx "$symbol=y" "$config"; then
	ktap_fail "kunit $suite: $symbol=y" "the x86 test kernel lacks it (configs/kunit-x86.config not among tools/test-kernel.sh's fragments, or the series lacks the KUnit patch)"
	ktap_fail_rest "the x86 test kernel lacks $symbol=y"
	exit 0
fi
ktap_ok "kunit $suite: $symbol=y"

# the boot (shared with suite 45), its cases nested; a copy for the count
kunit=$BUILD/40-kunit.ktap
# shellcheck disable=SC2317 # run by ktap_sub
kunit_boot() { "$REPO/tools/kunit-boot.sh" "$@" | tee "$kunit"; return "${PIPESTATUS[0]}"; }
ktap_sub kunit kunit_boot x86_64 "$image" "$suite"
# Every case of the file must have run: a case that the suite lost would
# otherwise go unnoticed. kunit-boot.sh nests the suite's cases at four
# spaces.
want=$(grep -c '^[[:space:]]*KUNIT_CASE(' "$KSRC/$src")
cases=$(grep -cE '^    (not )?ok [0-9]+ ' "$kunit")
ktap_check "kunit $suite: every KUNIT_CASE of $src reported" "$cases cases reported, $src has $want" \
	[ "$cases" -eq "$want" ]

# The same file as a module (tristate), with W=1: configure and prepare a
# tree of its own once, then make only the .ko.
mod=drivers/cpufreq/intel_pstate_perf_test.ko
name="kunit $suite: builds as a module with W=1, no warning"
if ! mout=$(KMAKE_TARGETS=$mod KMAKE_ARGS=W=1 "$REPO/tools/build-kernel.sh" x86_64-pstate-perf-module x86_64 \
	"$REPO/Kconfig.fragment" "$REPO/configs/x86_64-test.config" \
	"$REPO/configs/kunit-x86.config" "$REPO/configs/pstate-perf-test-module.config" \
	2>"$BUILD/40-module.err"); then
	sed 's/^/  /' "$BUILD/40-module.err" | tail -n 20
	ktap_fail "$name" "$mod does not build as a module"
elif [ ! -s "$mout/$mod" ]; then
	ktap_fail "$name" "no $mod in $mout"
elif w=$(grep -E "intel_pstate_perf(_test)?\.[ch]:[0-9]+:[0-9]+: (warning|error)" "$mout/build.log"); [ -n "$w" ]; then
	echo "$w" | head -n 5 | sed 's/^/  /'
	ktap_fail "$name" "W=1 warnings in the module build"
else
	ktap_ok "$name" "$mout/$mod, $(stat -c %s "$mout/$mod") bytes"
fi
exit 0
