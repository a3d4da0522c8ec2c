#!/bin/bash
# The cpufreq core and schedutil end to end on x86_64:
# the KUnit suite "cpufreq-perf-test" of the harness-only test module
# tools/testing/cpufreq-perf-test (not part of the series: an external
# module built against the one x86 test kernel of make check,
# tools/test-kernel.sh, which includes configs/kunit-e2e.config and is
# built from tools/harness-tree.sh's tree), loaded by /init in the one
# boot of all x86 KUnit suites (tools/kunit-boot.sh). Under QEMU TCG
# utilization is not frequency-invariant (no APERF/MPERF), so this run
# checks schedutil's fallback to ->fast_switch(), invariance lost while
# load runs, hook selection, governor switching, CPU hotplug and driver
# re-registration under load. The perf path itself is checked on arm64
# (46-kunit-e2e-arm64).
#
# Environment: REPO BUILD KSRC (kernel tree with the full series applied).
# Prints a KTAP document, plan 3: the test kernel builds, it has
# CONFIG_MODULES=y and the test module, and the KUnit boot
# (tools/kunit-boot.sh: boot, console, the suite's cases nested). A failure
# before the boot fails every result after it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
export REPO BUILD
suite=cpufreq-perf-test
# shellcheck source=tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"
ktap_plan 3

if ! image=$("$REPO/tools/test-kernel.sh" 2>"$BUILD/45-test-kernel.err"); then
	sed 's/^/  /' "$BUILD/45-test-kernel.err"
	ktap_fail "x86 test kernel builds" "tools/test-kernel.sh failed (above)"
	ktap_fail_rest "the x86 test kernel did not build"
	exit 0
fi
ktap_ok "x86 test kernel builds"
config=$(cd "$(dirname "$image")/../../.." && pwd)/.config
out=$(dirname "$config")
if ! grep -qx 'CONFIG_MODULES=y' "$config" || [ ! -f "$out/kunit-modules/cpufreq-perf-test.ko" ]; then
	ktap_fail "$suite: CONFIG_MODULES=y and the test module" \
		"the x86 test kernel lacks CONFIG_MODULES=y or the test module $out/kunit-modules/cpufreq-perf-test.ko (configs/kunit-e2e.config not in tools/test-kernel.sh's fragments?)"
	ktap_fail_rest "no test module"
	exit 0
fi
ktap_ok "$suite: CONFIG_MODULES=y and the test module"
ktap_sub kunit "$REPO/tools/kunit-boot.sh" x86_64 "$image" "$suite"
exit 0
