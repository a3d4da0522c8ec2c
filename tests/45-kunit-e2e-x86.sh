#!/bin/bash
# The cpufreq core and schedutil end to end on x86_64 (issue 4, section 2):
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
# Prints PASS:/FAIL: lines, one per KUnit case; exit 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
export REPO BUILD
suite=cpufreq-perf-test

if ! image=$("$REPO/tools/test-kernel.sh" 2>"$BUILD/45-test-kernel.err"); then
	sed 's/^/  /' "$BUILD/45-test-kernel.err"
	echo "FAIL: $suite: the x86 test kernel did not build"
	exit 1
fi
config=$(cd "$(dirname "$image")/../../.." && pwd)/.config
out=$(dirname "$config")
if ! grep -qx 'CONFIG_MODULES=y' "$config" || [ ! -f "$out/kunit-modules/cpufreq-perf-test.ko" ]; then
	echo "FAIL: $suite: the x86 test kernel lacks CONFIG_MODULES=y or the test module $out/kunit-modules/cpufreq-perf-test.ko (configs/kunit-e2e.config not in tools/test-kernel.sh's fragments?)"
	exit 1
fi
exec "$REPO/tools/kunit-boot.sh" x86_64 "$image" "$suite"
