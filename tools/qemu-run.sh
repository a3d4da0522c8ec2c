#!/bin/bash
# Boot a kernel + initramfs under QEMU TCG (never KVM: guests hang with it here) until
# mkinitramfs.sh's end marker; options: usage(); exit status: harness.md, "Tool reference".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/lib/env.sh
. "$here/lib/env.sh"
# usage errors exit 2 (1 is a failed run)
die() { echo "qemu-run: error: $*" >&2; exit 2; }

arch=x86_64 kernel="" initrd="" append="" timeout=300 log="" smp=2 mem=512M
hwp="" hwp_log="" hwp_opts="" relay="" acpitable=""
usage() { die "usage: $0 --arch x86_64|arm64 --kernel IMG --initrd CPIO [--append ARGS] [--timeout SECS] [--log FILE] [--smp N] [--mem SIZE] [--acpitable AML] [--hwp [--hwp-log FILE] [--hwp-opts PROP=VAL[,...]] [--monitor-relay]]"; }
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
	--acpitable) acpitable=$2; shift 2 ;;
	--hwp) hwp=1; shift ;;
	--hwp-log) hwp_log=$2; shift 2 ;;
	--hwp-opts) hwp_opts=$2; shift 2 ;;
	--monitor-relay) relay=1; shift ;;
	*) usage ;;
	esac
done
[ -f "$kernel" ] || die "no kernel image '$kernel'"
[ -f "$initrd" ] || die "no initramfs '$initrd'"
[ -n "$hwp" ] || [ -z "$hwp_log$hwp_opts$relay" ] || die "--hwp-log, --hwp-opts and --monitor-relay need --hwp"
log=${log:-$BUILD/logs/qemu-$(date +%Y%m%d-%H%M%S)-$$.log}
mkdir -p "$(dirname "$log")"
case "$arch" in
x86_64)
	qemu=(qemu-system-x86_64 -accel tcg -cpu Skylake-Client)
	if [ -n "$hwp" ]; then
		hwp_bin=$("$here/build-qemu.sh") || die "cannot build the HWP machine (tools/build-qemu.sh, see above)"
		cpu=Skylake-Client,hwp=on
		if [ -n "$hwp_log" ]; then
			case "$hwp_log" in *,*) die "--hwp-log path must not contain a comma: $hwp_log" ;; esac
			mkdir -p "$(dirname "$hwp_log")"
			hwp_log=$(cd "$(dirname "$hwp_log")" && pwd)/$(basename "$hwp_log")
			cpu=$cpu,hwp-log=$hwp_log
		fi
		[ -z "$hwp_opts" ] || cpu=$cpu,$hwp_opts
		# no network backend is built in: no NIC either
		qemu=("$hwp_bin" -accel tcg -cpu "$cpu" -nic none)
	fi
	console=ttyS0
	;;
arm64)
	[ -z "$hwp" ] || die "--hwp is x86_64 only"
	qemu=(qemu-system-aarch64 -accel tcg -machine virt -cpu cortex-a57)
	console=ttyAMA0
	;;
*) usage ;;
esac
command -v "${qemu[0]}" >/dev/null || die "${qemu[0]} not found (run 'make deps')"

qemu+=(-smp "$smp" -m "$mem" -nographic -no-reboot -monitor none -serial stdio
	-kernel "$kernel" -initrd "$initrd"
	-append "console=$console panic=-1 oops=panic $append")
[ -z "$acpitable" ] || qemu+=(-acpitable "file=$acpitable")
relay_pid="" relay_dir=""
if [ -n "$relay" ]; then
	relay_dir=$(mktemp -d /tmp/qemu-run-qmp.XXXXXX)
	qemu+=(-qmp "unix:$relay_dir/qmp.sock,server=on,wait=off")
	: >"$log"
	python3 "$here/hwp-monitor.py" "$log" "$relay_dir/qmp.sock" "$log.monitor" &
	relay_pid=$!
fi

start=$(date +%s)
rc=0
timeout --kill-after=10 "$timeout" "${qemu[@]}" </dev/null >"$log" 2>&1 || rc=$?
secs=$(($(date +%s) - start))
relay_rc=0
if [ -n "$relay_pid" ]; then
	# the relay ends with QEMU's monitor; give it a moment, then stop it
	for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$relay_pid" 2>/dev/null || break; sleep 0.5; done
	kill "$relay_pid" 2>/dev/null || true
	wait "$relay_pid" || relay_rc=$?
	rm -rf "$relay_dir"
fi

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
if [ "$relay_rc" -ne 0 ]; then
	fail "the monitor relay reported an error (status $relay_rc): $(tail -n 4 "$log.monitor" 2>/dev/null | tr '\n' '|')"
fi
echo "qemu-run: guest reached the end marker in ${secs}s ($(tr -d '\r' <"$log" | sed -n 's/^QEMU-TEST-RC=//p' | head -n1 | sed 's/^/script status /')); log: $log" >&2
