#!/bin/bash
# The cpufreq core and schedutil end to end on arm64 (issue 4, section 2):
# the KUnit suite "cpufreq-perf-test" of the harness-only test module
# tools/testing/cpufreq-perf-test (not part of the series), built as an
# external module against an arm64 test kernel (configs/arm64-test.config +
# configs/kunit-e2e.config, from tools/harness-tree.sh's tree) and loaded
# by the guest's /init (tools/kunit-boot.sh), booted with
# qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 2 under TCG. There a
# registered cpufreq driver makes utilization frequency-invariant, so this
# run checks schedutil's perf path for real: ->adjust_perf() instead of
# ->fast_switch(), min_perf <= target_perf, capacity, target up under load
# and down after idle, rate_limit_us; plus hook selection, governor
# switching, CPU hotplug and driver re-registration under load.
#
# Environment: REPO BUILD KSRC (kernel tree with the full series applied).
# Prints PASS:/FAIL: lines, one per KUnit case; exit 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
export REPO BUILD
suite=cpufreq-perf-test

if ! tree=$("$REPO/tools/harness-tree.sh" 2>"$BUILD/46-build.err") ||
	! image=$(KSRC=$tree "$REPO/tools/build-kernel.sh" kunit-arm64 arm64 \
	"$REPO/configs/arm64-test.config" "$REPO/configs/kunit-e2e.config" 2>>"$BUILD/46-build.err"); then
	sed 's/^/  /' "$BUILD/46-build.err"
	echo "FAIL: $suite: the arm64 test kernel did not build"
	exit 1
fi
grep -h 'built .* in' "$BUILD/46-build.err" | sed 's/^build-kernel: /INFO: /'
if ! "$REPO/tools/build-test-module.sh" "$BUILD/out/kunit-arm64" arm64 >/dev/null 2>"$BUILD/46-module.err"; then
	sed 's/^/  /' "$BUILD/46-module.err"
	echo "FAIL: $suite: the test module did not build against the arm64 test kernel"
	exit 1
fi
exec "$REPO/tools/kunit-boot.sh" arm64 "$image" "$suite"
