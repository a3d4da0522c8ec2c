#!/bin/bash
# Boot a kernel + initramfs under QEMU (TCG only) and wait for the end marker.
#
#   tools/qemu-run.sh --arch x86_64|arm64 --kernel IMG --initrd CPIO \
#       [--append "ARGS"] [--timeout SECS] [--log FILE] [--smp N] [--mem SIZE]
#
# The serial console goes to the log (default $BUILD/logs/qemu-<time>.log).
# Exit status: 0 when the guest printed QEMU-TEST-END (see mkinitramfs.sh)
# without a panic; 1 on panic, on timeout, or when the guest stopped without
# the marker; 2 on usage errors. The guest script's own exit status is in the
# log as QEMU-TEST-RC=N; callers check it and their own output.
# KVM is never used: guests hang with it on these machines.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}

arch=x86_64 kernel="" initrd="" append="" timeout=300 log="" smp=2 mem=512M
usage() { echo "usage: $0 --arch x86_64|arm64 --kernel IMG --initrd CPIO [--append ARGS] [--timeout SECS] [--log FILE] [--smp N] [--mem SIZE]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arch=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	*) usage ;;
	esac
done
[ -f "$kernel" ] || { echo "qemu-run: error: no kernel image '$kernel'" >&2; exit 2; }
[ -f "$initrd" ] || { echo "qemu-run: error: no initramfs '$initrd'" >&2; exit 2; }
if [ -z "$log" ]; then
	mkdir -p "$BUILD/logs"
	log=$BUILD/logs/qemu-$(date +%Y%m%d-%H%M%S)-$$.log
fi
mkdir -p "$(dirname "$log")"

case "$arch" in
x86_64)
	qemu=(qemu-system-x86_64 -accel tcg -cpu Skylake-Client)
	console=ttyS0
	;;
arm64)
	qemu=(qemu-system-aarch64 -accel tcg -machine virt -cpu cortex-a57)
	console=ttyAMA0
	;;
*) usage ;;
esac
command -v "${qemu[0]}" >/dev/null || { echo "qemu-run: error: ${qemu[0]} not found (run 'make deps')" >&2; exit 2; }

qemu+=(-smp "$smp" -m "$mem" -nographic -no-reboot -monitor none -serial stdio
	-kernel "$kernel" -initrd "$initrd"
	-append "console=$console panic=-1 oops=panic $append")

start=$(date +%s)
rc=0
timeout --kill-after=10 "$timeout" "${qemu[@]}" </dev/null >"$log" 2>&1 || rc=$?
secs=$(($(date +%s) - start))

fail() {
	echo "qemu-run: FAILED: $* (after ${secs}s; log: $log)" >&2
	echo "qemu-run: last lines of the console:" >&2
	tail -n 15 "$log" | sed 's/^/  | /' >&2
	exit 1
}
if grep -q 'Kernel panic' "$log"; then
	fail "guest panicked: $(grep -m1 'Kernel panic' "$log" | tr -d '\r')"
fi
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	fail "timeout: the guest did not finish within ${timeout}s"
fi
if ! grep -q '^QEMU-TEST-END' <(tr -d '\r' <"$log"); then
	fail "QEMU exited (status $rc) before the guest reached the end marker"
fi
echo "qemu-run: guest reached the end marker in ${secs}s ($(tr -d '\r' <"$log" | sed -n 's/^QEMU-TEST-RC=//p' | head -n1 | sed 's/^/script status /')); log: $log" >&2
