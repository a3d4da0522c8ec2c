#!/bin/bash
# The main job behind `make`: one line per stage as it starts, then a summary.
#   deps -> base -> series tree -> x86_64 test kernel -> QEMU boot (KUnit)
#   -> emulated HWP machine (patched QEMU) -> its kernel -> boot with a load
#   -> summary
# Environment: see the Makefile (REPO BUILD KSRC BASE_VERSION BOOT_ARGS ...).
# KUnit hook: if tools/kunit-summary.sh exists, it is run with the boot log
# as its argument and its last output line is the "kunit:" summary line.
set -euo pipefail
shopt -s inherit_errexit

here=$(cd "$(dirname "$0")" && pwd)
export REPO=${REPO:-$(dirname "$here")}
export BUILD=${BUILD:-$REPO/build}
export KSRC=${KSRC:-$BUILD/linux}
BASE_VERSION=${BASE_VERSION:-5.10.262-1}
BOOT_ARGS=${BOOT_ARGS:-intel_pstate=passive cpufreq.default_governor=schedutil}
export CHECK_RUN_ID=${CHECK_RUN_ID:-main-$(date +%s)-$$}

deps=1
[ "${1:-}" != --no-deps ] || deps=""
n=8
[ -n "$deps" ] || n=7
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
stage "boot: QEMU TCG x86_64, Skylake-Client, 2 CPUs: $BOOT_ARGS"
mkdir -p "$BUILD/logs" "$BUILD/state"
script=$BUILD/state/main-guest.sh
cat >"$script" <<'EOS'
echo "CPUS-ONLINE=$(cat /sys/devices/system/cpu/online)"
d=/sys/devices/system/cpu/cpu0/cpufreq
if [ -r $d/scaling_driver ]; then
	echo "CPUFREQ=$(cat $d/scaling_driver) $(cat $d/scaling_governor)"
else
	echo "CPUFREQ=none"
fi
echo "PSTATE-STATUS=$(cat /sys/devices/system/cpu/intel_pstate/status 2>/dev/null || echo absent)"
# the harness-only test module (its KUnit suite runs at load)
for ko in /kunit-modules/*.ko; do
	[ -f "$ko" ] && { insmod "$ko" || echo "TEST-MODULE=$ko not loaded"; }
done
EOS
initrd=$BUILD/state/main.cpio.gz
mods=()
for ko in "$(dirname "$img")"/../../../kunit-modules/*.ko; do
	[ -f "$ko" ] && mods+=("$ko:/kunit-modules/$(basename "$ko")")
done
"$here/mkinitramfs.sh" "$initrd" "$script" "${mods[@]}"
log=$BUILD/logs/main-boot.log
boot_start=$(date +%s)
if "$here/qemu-run.sh" --arch x86_64 --kernel "$img" --initrd "$initrd" \
	--append "$BOOT_ARGS" --timeout 300 --log "$log"; then
	boot="ok in $(($(date +%s) - boot_start))s"
	boot_ok=1
else
	boot="FAILED (log: $log)"
	boot_ok=""
fi

# ---- the emulated HWP machine: the real intel_pstate under schedutil -------
stage "HWP machine: Debian's QEMU with the emulated HWP patch (tools/build-qemu.sh)"
hwp_ok=""
hwp="not run"
if "$here/build-qemu.sh" >/dev/null; then
	stage "kernel: x86_64 kernel of the HWP machine (no KUnit, no test driver)"
	if himg=$("$here/hwp-kernel.sh"); then
		stage "boot: HWP machine, 2 CPUs (CPU 1 an efficiency core): $BOOT_ARGS"
		if hwp=$(BOOT_ARGS=$BOOT_ARGS "$here/hwp-steer.sh" main-hwp "$himg"); then
			hwp_ok=1
		elif [ -z "$hwp" ]; then
			hwp="FAILED: tools/hwp-steer.sh (see above)"
		fi
	else
		hwp="FAILED: the HWP machine's kernel did not build"
	fi
else
	hwp="FAILED: the emulated HWP machine did not build (see above)"
fi

# ---- summary ---------------------------------------------------------------
con=$(tr -d '\r' <"$log")
cpus=$(echo "$con" | sed -n 's/^CPUS-ONLINE=//p' | head -n1)
cpufreq=$(echo "$con" | sed -n 's/^CPUFREQ=//p' | head -n1)
if [ "$cpufreq" = none ]; then
	why=$(echo "$con" | grep -E '(intel_pstate|cpufreq|acpi-cpufreq): ' | grep -v 'Command line' |
		sed 's/^\[[ 0-9.]*\] *//' | paste -sd';' || true)
	cpufreq="none: no cpufreq policy on cpu0 (kernel said: ${why:-nothing})"
	if echo "$why" | grep -q 'intel_pstate'; then
		cpufreq="$cpufreq; expected under QEMU TCG: no APERF/MPERF, no HWP"
	fi
fi
read -r bsecs bsize <"$(dirname "$img")/../../../.build-stats" || true
npatch=$(git -C "$KSRC" rev-list --count "base-$BASE_VERSION..HEAD")
if [ -x "$here/kunit-summary.sh" ]; then
	kunit=$("$here/kunit-summary.sh" "$log" | tail -n1)
else
	kunit="none yet (no KUnit suites wired in)"
fi
echo
echo "Summary"
echo "  base:     linux-source-5.10 $BASE_VERSION (tag base-$BASE_VERSION, $(git -C "$KSRC" rev-parse --short=12 "base-$BASE_VERSION"))"
echo "  patches:  $npatch applied (branch $(git -C "$KSRC" symbolic-ref -q --short HEAD || echo detached), $(git -C "$KSRC" rev-parse --short=12 HEAD))"
echo "  kernel:   ${img#"$REPO"/}, $(awk -v s="${bsize:-0}" 'BEGIN { printf "%.1f MiB", s / 1048576 }'), make took ${bsecs:-?}s this run, $(if [ "${TOOLCHAIN:-gcc}" = llvm ]; then echo "clang (LLVM=1 LLVM_IAS=1)"; else echo gcc; fi)"
echo "  boot:     $boot${cpus:+, CPUs online $cpus}"
echo "  cpufreq:  ${cpufreq:-unknown (guest did not report)}"
echo "  kunit:    $kunit"
echo "  HWP machine (emulated; every figure simulated, see Documentation/project/hwp-machine.md):"
echo "$hwp" | sed 's/^/    /'
[ -n "$boot_ok" ] && [ -n "$hwp_ok" ]
