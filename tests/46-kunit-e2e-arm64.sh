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
# The arm64 kernel is built once, with Debian's clang and LLVM (make LLVM=1
# LLVM_IAS=1), and also carries the
# clang checks of suite 23 for arm64 (tools/lib/clang-kernel.sh: made by
# clang and ld.lld, no warning in a file the series touches). Until issue
# 22 a second arm64 kernel, built with gcc, served this suite alone: the
# series has no arm64 file, and gcc compiles its generic files (cpufreq
# core, schedutil) for x86_64 in suites 10, 21 and 25, so that build
# showed gcc's arm64 code generation of them, at the cost of a cold arm64
# kernel build. Lost with it: gcc's arm64 build of the harness test module,
# and a run of this suite on a gcc-built kernel (the perf path still runs
# on gcc-built x86_64 kernels in suites 45, 56 and 58); and this suite now
# needs clang, as suite 23 does (tools/deps.sh installs it).
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
clang_kernel kunit-arm64-llvm arm64 "cpufreq-perf-test" \
	"$REPO/configs/arm64-test.config" "$REPO/configs/kunit-e2e.config"
exit 0
