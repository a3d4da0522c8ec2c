#!/bin/bash
# Suite 23: the series built with Debian's clang and LLVM (make LLVM=1
# LLVM_IAS=1, the way Android's GKI 5.10 is built), at the series tip.
#  - The x86_64 test kernel (the configuration of suites 10, 40 and 45) is
#    built with TOOLCHAIN=llvm (tools/build-kernel.sh) in its own output
#    directory (tools/lib/clang-kernel.sh). The arm64 kernel is built with
#    clang once, by suite 46, which runs the same checks on it.
#  - It must be made by clang and linked by ld.lld (its .config and the
#    .comment of its vmlinux), and its build log must have no warning in a
#    file the series touches (the base's own warnings elsewhere are not
#    ours: clang 14 finds a few in 5.10, such as do_sys_poll's frame size).
#    The touched .c files are compiled in every run for that.
#  - It is booted under QEMU TCG with its KUnit suites (tools/kunit-boot.sh):
#    every case must pass, as it must with gcc.
#  Plan: tools/lib/clang-kernel.sh's CLANG_KERNEL_RESULTS (4); the KUnit
#  boot's results are nested in the last.
# W=1 against the base built the same way is suite 25 (its clang pass).
# The per-patch builds stay with gcc (suite 21): the issue asks for clang at
# the tip.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
export REPO BUILD KSRC
# shellcheck source=tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"
# shellcheck source=tools/lib/clang-kernel.sh
. "$REPO/tools/lib/clang-kernel.sh"
ktap_plan "$CLANG_KERNEL_RESULTS"
clang_kernel x86_64-test-llvm x86_64 "intel_pstate_perf cpufreq-perf-test" \
	"$REPO/Kconfig.fragment" "$REPO/configs/x86_64-test.config" \
	"$REPO/configs/kunit-x86.config" "$REPO/configs/kunit-e2e.config"
exit 0
