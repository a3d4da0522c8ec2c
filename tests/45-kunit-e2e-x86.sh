#!/bin/bash
# The cpufreq core and schedutil end to end on x86_64 (issue 4, section 2):
# the KUnit suite "cpufreq-perf-test" of drivers/cpufreq/cpufreq-perf-test.c,
# built into the one x86 test kernel of make check (tools/test-kernel.sh,
# which must include configs/kunit-e2e.config) and booted once for all x86
# KUnit suites by tools/kunit-boot.sh. Under QEMU TCG utilization is not
# frequency-invariant (no APERF/MPERF), so this run checks schedutil's
# fallback to ->fast_switch(), invariance lost while load runs, hook
# selection, governor switching, CPU hotplug and driver re-registration
# under load. The perf path itself is checked on arm64 (46-kunit-e2e-arm64).
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
if ! grep -qx 'CONFIG_CPU_FREQ_PERF_TEST=y' "$config"; then
	echo "FAIL: $suite: the x86 test kernel lacks CONFIG_CPU_FREQ_PERF_TEST=y (configs/kunit-e2e.config not in tools/test-kernel.sh's fragments, or the series lacks the test driver)"
	exit 1
fi
exec "$REPO/tools/kunit-boot.sh" x86_64 "$image" "$suite"
