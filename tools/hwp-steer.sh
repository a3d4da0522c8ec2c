#!/bin/bash
# Boot KERNEL on the emulated HWP machine, run suite 56's guest in its short mode and
# print hwp_record.py's summary; exit status: harness.md, "Tool reference".
#   tools/hwp-steer.sh NAME KERNEL
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
initrd=$BUILD/state/$name.cpio.gz
log=$BUILD/logs/$name-boot.log
rec=$BUILD/logs/$name.record
rm -f "$rec"
. "$REPO/tools/lib/hwp-machine.sh"
hwp_hwpload "$BUILD/state" || die "$HWP_WHY"
: >"$BUILD/state/hwp-guest-short"
hwp_initrd "$initrd" "$REPO/tests/hwp-machine/guest.sh" \
	"$BUILD/state/hwp-guest-short:/etc/hwp-guest-short" || die "$HWP_WHY"
if ! "$here/qemu-run.sh" --arch x86_64 --hwp --hwp-log "$rec" --hwp-opts hwp-highest=30:24 \
	--kernel "$kernel" --initrd "$initrd" --append "$BOOT_ARGS" --timeout 300 --log "$log" >&2; then
	echo "FAILED: the guest did not finish (log: $log)"
	exit 1
fi
python3 "$here/hwp_record.py" summary "$log" "$rec"
