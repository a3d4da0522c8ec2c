#!/bin/bash
# The main job behind `make`, one line per stage: deps, base, tree, the x86_64
# test kernel, its KUnit boot (as suites 40 and 45), the HWP machine, the same
# kernel on it (tools/hwp-steer.sh), a summary.
#   tools/main.sh [--no-deps]
# Environment: the Makefile's (REPO BUILD KSRC BASE_VERSION BOOT_ARGS ...).
set -euo pipefail
shopt -s inherit_errexit

here=$(cd "$(dirname "$0")" && pwd)
export REPO=${REPO:-$(dirname "$here")}
export BUILD=${BUILD:-$REPO/build}
export KSRC=${KSRC:-$BUILD/linux}
: "${BASE_VERSION:?}"
BOOT_ARGS=${BOOT_ARGS:-intel_pstate=passive cpufreq.default_governor=schedutil}
export CHECK_RUN_ID=${CHECK_RUN_ID:-main-$(date +%s)-$$}

deps=1
[ "${1:-}" != --no-deps ] || deps=""
n=7
[ -n "$deps" ] || n=6
i=0
stage() { i=$((i + 1)); echo "==> [$i/$n] $*"; }

if [ -n "$deps" ]; then
	stage "dependencies (Debian packages)"
	"$here/deps.sh"
fi
stage "base: linux-source-5.10 $BASE_VERSION (fetch, verify, unpack once)"
"$here/fetch-base.sh" source
stage "series: patches/ onto the base (branch series)"
"$here/series.sh" tree
stage "kernel: x86_64 test kernel (tinyconfig + fragments, ccache, ${TOOLCHAIN:-gcc})"
img=$("$here/test-kernel.sh")
stage "boot: QEMU TCG x86_64, Skylake-Client, 2 CPUs: the KUnit suites (tools/kunit-boot.sh)"
mkdir -p "$BUILD/logs" "$BUILD/state"
kdoc=$BUILD/logs/main-kunit.ktap
boot_start=$(date +%s)
if "$here/kunit-boot.sh" x86_64 "$img" intel_pstate_perf cpufreq-perf-test >"$kdoc"; then
	boot="ok in $(($(date +%s) - boot_start))s"
	boot_ok=1
else
	boot="FAILED ($(grep -m3 '^not ok' "$kdoc" | cut -c1-120 | paste -sd';' || true); KTAP: $kdoc)"
	boot_ok=""
fi
# the suites' cases are nested at four spaces (grep -c prints 0 and fails on none)
kunit="$(grep -cE '^    ok ' "$kdoc" || true) cases passed, $(grep -cE '^    not ok ' "$kdoc" || true) failed (suites intel_pstate_perf, cpufreq-perf-test; KTAP: $kdoc)"

# ---- the emulated HWP machine: the real intel_pstate under schedutil -------
stage "HWP machine: Debian's QEMU with the emulated HWP patch (tools/build-qemu.sh)"
hwp_ok=""
hwp="not run"
if "$here/build-qemu.sh" >/dev/null; then
	stage "boot: HWP machine, 2 CPUs (CPU 1 an efficiency core), the same kernel: $BOOT_ARGS"
	if hwp=$(BOOT_ARGS=$BOOT_ARGS "$here/hwp-steer.sh" main-hwp "$img"); then
		hwp_ok=1
	elif [ -z "$hwp" ]; then
		hwp="FAILED: tools/hwp-steer.sh (see above)"
	fi
else
	hwp="FAILED: the emulated HWP machine did not build (see above)"
fi

# ---- summary ---------------------------------------------------------------
read -r bsecs bsize <"$(dirname "$img")/../../../.build-stats" || true
npatch=$(git -C "$KSRC" rev-list --count "base-$BASE_VERSION..HEAD")
echo
echo "Summary"
echo "  base:     linux-source-5.10 $BASE_VERSION (tag base-$BASE_VERSION, $(git -C "$KSRC" rev-parse --short=12 "base-$BASE_VERSION"))"
echo "  patches:  $npatch applied (branch $(git -C "$KSRC" symbolic-ref -q --short HEAD || echo detached), $(git -C "$KSRC" rev-parse --short=12 HEAD))"
echo "  kernel:   ${img#"$REPO"/}, $(awk -v s="${bsize:-0}" 'BEGIN { printf "%.1f MiB", s / 1048576 }'), make took ${bsecs:-?}s this run, $(if [ "${TOOLCHAIN:-gcc}" = llvm ]; then echo "clang (LLVM=1 LLVM_IAS=1)"; else echo gcc; fi)"
echo "  boot:     $boot"
echo "  kunit:    $kunit"
echo "  HWP machine (emulated; every figure simulated, see Documentation/project/hwp-machine.md):"
echo "$hwp" | sed 's/^/    /'
[ -n "$boot_ok" ] && [ -n "$hwp_ok" ]
