#!/bin/bash
# The cpufreq core and schedutil end to end on arm64 (issue 4, section 2):
# the KUnit suite "cpufreq-perf-test" in an arm64 test kernel
# (configs/arm64-test.config + configs/kunit-e2e.config), booted with
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

if ! image=$("$REPO/tools/build-kernel.sh" kunit-arm64 arm64 \
	"$REPO/configs/arm64-test.config" "$REPO/configs/kunit-e2e.config" 2>"$BUILD/46-build.err"); then
	sed 's/^/  /' "$BUILD/46-build.err"
	echo "FAIL: $suite: the arm64 test kernel did not build"
	exit 1
fi
grep -h 'built .* in' "$BUILD/46-build.err" | sed 's/^build-kernel: /INFO: /'
exec "$REPO/tools/kunit-boot.sh" arm64 "$image" "$suite"
