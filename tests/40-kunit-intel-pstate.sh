#!/bin/bash
# Suite 40: patch 12's KUnit suite in the KUnit boot shared with 45. harness.md "Test suites".
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
suite=intel_pstate_perf
symbol=CONFIG_X86_INTEL_PSTATE_PERF_KUNIT_TEST
src=drivers/cpufreq/intel_pstate_perf_test.c
. "$REPO/tools/lib/ktap.sh"
ktap_plan 4

mkdir -p "$BUILD"
if ! image=$("$REPO/tools/test-kernel.sh" 2>"$BUILD/40-test-kernel.err"); then
	sed 's/^/  /' "$BUILD/40-test-kernel.err"
	ktap_fail "x86 test kernel builds" "tools/test-kernel.sh failed (above)"
	ktap_stop "the x86 test kernel did not build"
fi
ktap_ok "x86 test kernel builds"
config=$(cd "$(dirname "$image")/../../.." && pwd)/.config
ko=$(dirname "$config")/kunit-modules/intel_pstate_perf_test.ko
if ! grep -qx "$symbol=m" "$config" || [ ! -s "$ko" ]; then
	ktap_fail "kunit $suite: $symbol=m, the module built" "the x86 test kernel lacks $symbol=m or $ko (configs/kunit-x86.config not among tools/test-kernel.sh's fragments, or the series lacks the KUnit patch)"
	ktap_stop "no $suite module"
fi
ktap_ok "kunit $suite: $symbol=m, the module built" "$(stat -c %s "$ko") bytes"

# the boot (shared with suite 45), its cases nested; a copy for the count
kunit=$BUILD/40-kunit.ktap
# shellcheck disable=SC2317 # run by ktap_sub
kunit_boot() { "$REPO/tools/kunit-boot.sh" "$@" | tee "$kunit"; return "${PIPESTATUS[0]}"; }
ktap_sub kunit kunit_boot x86_64 "$image" "$suite"
# Every case of the file must have run, or a lost case would go unnoticed
# (kunit-boot.sh nests the suite's cases at four spaces)
want=$(grep -c '^[[:space:]]*KUNIT_CASE(' "$KSRC/$src")
cases=$(grep -cE '^    (not )?ok [0-9]+ ' "$kunit")
ktap_check "kunit $suite: every KUNIT_CASE of $src reported" "$cases cases reported, $src has $want" \
	[ "$cases" -eq "$want" ]
exit 0
