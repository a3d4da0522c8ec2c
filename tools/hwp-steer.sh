#!/bin/bash
# Boot a kernel on the emulated HWP machine (2 CPUs, CPU 1 an efficiency
# core) with intel_pstate=passive and schedutil, run suite 56's guest
# (tests/hwp-machine/guest.sh) in its short mode (idle, a load on each CPU,
# idle) and print what schedutil made intel_pstate write into HWP_REQUEST
# (the host's record, tools/hwp_record.py summary). Every figure is
# simulated.
#
#   tools/hwp-steer.sh NAME KERNEL
#
# NAME names the logs: $BUILD/logs/NAME-boot.log and NAME.record. KERNEL is
# a bzImage/vmlinuz with the msr driver built in.
# Needs the patched QEMU (tools/build-qemu.sh; run first by the callers).
# Environment: BOOT_ARGS (default: intel_pstate=passive
# cpufreq.default_governor=schedutil), REPO BUILD KSRC.
# Exit status: 0 when the guest ran on intel_cpufreq and, under load,
# HWP_REQUEST of CPU 1 was written at least once, and every request in
# effect through the load (the one its start found, and each one written
# during it) carried a DESIRED, at least one above MIN (->adjust_perf in
# use; the frequency path writes DESIRED = MIN), 1 when not, 2 on bad
# usage or a missing input.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
BOOT_ARGS=${BOOT_ARGS:-intel_pstate=passive cpufreq.default_governor=schedutil}

die() { echo "hwp-steer: error: $*" >&2; exit 2; }
[ $# -eq 2 ] || die "usage: $0 NAME KERNEL"
name=$1 kernel=$2
case $name in '' | */* | .*) die "NAME '$name' must be a plain file name" ;; esac
[ -f "$kernel" ] || die "no kernel image $kernel"

mkdir -p "$BUILD/logs" "$BUILD/state"
hwpload=$BUILD/state/hwpload
initrd=$BUILD/state/$name.cpio.gz
log=$BUILD/logs/$name-boot.log
rec=$BUILD/logs/$name.record
rm -f "$rec"
# shellcheck source=tools/lib/hwp-machine.sh
. "$REPO/tools/lib/hwp-machine.sh"
hwp_hwpload "$BUILD/state" || die "$HWP_WHY"
: >"$BUILD/state/hwp-guest-short"
extra=("$hwpload:/bin/hwpload" "$REPO/tests/hwp-machine/guest-lib.sh:/lib/hwp-guest-lib.sh"
	"$BUILD/state/hwp-guest-short:/etc/hwp-guest-short")
"$here/mkinitramfs.sh" "$initrd" "$REPO/tests/hwp-machine/guest.sh" "${extra[@]}" >&2 ||
	die "mkinitramfs failed"
if ! "$here/qemu-run.sh" --arch x86_64 --hwp --hwp-log "$rec" --hwp-opts hwp-highest=30:24 \
	--kernel "$kernel" --initrd "$initrd" --append "$BOOT_ARGS" --timeout 300 --log "$log" >&2; then
	echo "FAILED: the guest did not finish (log: $log)"
	exit 1
fi
python3 "$here/hwp_record.py" summary "$log" "$rec"
