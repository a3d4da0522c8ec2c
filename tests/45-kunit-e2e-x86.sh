#!/bin/bash
# Suite 45: the harness-only test module (cpufreq-perf-test) in that boot;
# TCG has no APERF/MPERF: schedutil's frequency fallback. harness.md "Test suites".
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
suite=cpufreq-perf-test
. "$REPO/tools/lib/ktap.sh"
ktap_plan 3

if ! image=$("$REPO/tools/test-kernel.sh" 2>"$BUILD/45-test-kernel.err"); then
	sed 's/^/  /' "$BUILD/45-test-kernel.err"
	ktap_fail "x86 test kernel builds" "tools/test-kernel.sh failed (above)"
	ktap_stop "the x86 test kernel did not build"
fi
ktap_ok "x86 test kernel builds"
config=$(cd "$(dirname "$image")/../../.." && pwd)/.config
out=$(dirname "$config")
if ! grep -qx 'CONFIG_MODULES=y' "$config" || [ ! -f "$out/kunit-modules/cpufreq-perf-test.ko" ]; then
	ktap_fail "$suite: CONFIG_MODULES=y and the test module" \
		"the x86 test kernel lacks CONFIG_MODULES=y or the test module $out/kunit-modules/cpufreq-perf-test.ko (configs/kunit-e2e.config not in tools/test-kernel.sh's fragments?)"
	ktap_stop "no test module"
fi
ktap_ok "$suite: CONFIG_MODULES=y and the test module"
ktap_sub kunit "$REPO/tools/kunit-boot.sh" x86_64 "$image" "$suite"
exit 0
