#!/bin/bash
# The cpufreq core and schedutil end to end on arm64:
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
# The arm64 kernel (kunit-arm64-llvm of configs/kernels) is built with
# Debian's clang and LLVM (make LLVM=1 LLVM_IAS=1, as Android's GKI 5.10
# is) and carries the clang checks (tools/lib/clang-kernel.sh: made by
# clang and ld.lld, no warning in a file the series touches); clang on
# x86_64 is suite 25's (W=1 on the touched files, intel_pstate included).
#
# Environment: REPO BUILD KSRC (kernel tree with the full series applied).
# Prints a KTAP document: tools/lib/clang-kernel.sh's results (plan
# CLANG_KERNEL_RESULTS, 4), the KUnit boot's nested in the last.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-$BUILD/linux}
export REPO BUILD KSRC
# shellcheck source=tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"
# shellcheck source=tools/lib/clang-kernel.sh
. "$REPO/tools/lib/clang-kernel.sh"
ktap_plan "$CLANG_KERNEL_RESULTS"
clang_kernel kunit-arm64-llvm "cpufreq-perf-test"
exit 0
