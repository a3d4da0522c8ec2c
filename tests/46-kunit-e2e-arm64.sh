#!/bin/bash
# Suite 46: the same test module on the arm64 kernel kunit-arm64-llvm (clang,
# ld.lld) under qemu-system-aarch64 -M virt TCG, where a cpufreq driver makes
# utilization frequency-invariant: schedutil's perf path for real (its bounds
# with RT, DEADLINE and uclamp), and the clang checks of
# tools/lib/clang-kernel.sh. Environment: REPO BUILD KSRC. KTAP, plan
# CLANG_KERNEL_RESULTS (4). Documentation/project/harness.md, kernels.md.
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
