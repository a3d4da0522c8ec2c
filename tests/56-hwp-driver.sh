#!/bin/bash
# Suite 56: the real intel_pstate on the emulated HWP machine (issue 12,
# item 4). One boot of the HWP machine's kernel (tools/hwp-kernel.sh: the
# series, no KUnit, no test driver) with intel_pstate=passive and schedutil,
# -smp 2, vCPU 1 an efficiency core (highest level 24 against 30). The guest
# (tests/hwp-machine/guest.sh) runs the loads and the scenarios; the host
# checks the machine's own record of every HWP_REQUEST write
# (tests/hwp-machine/check.py): full load, idle, a periodic load, a 99%-busy
# thread, no rewrite of an unchanged request under schedutil,
# scaling_max_freq, no_turbo, governor switches, CPU offline/online,
# suspend to idle, passive -> active -> passive, and the series' kselftest in
# the guest. Every figure is simulated by the emulated machine.
#
# Environment: REPO BUILD KSRC (the series tree). HWP_SUITE_TIMEOUT bounds
# the guest run (default 600 s).
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
out=$BUILD/state/56-hwp-driver
logs=$BUILD/logs
mkdir -p "$out" "$logs"

fail() { echo "FAIL: hwp-driver $1: $2"; }

if ! qemu=$("$REPO/tools/build-qemu.sh" 2>"$out/qemu-build.err"); then
	sed 's/^/  /' "$out/qemu-build.err" | tail -n 20
	fail "machine" "the emulated HWP machine did not build (tools/build-qemu.sh)"
	exit 0
fi
if ! img=$("$REPO/tools/hwp-kernel.sh" 2>"$out/kernel.err"); then
	sed 's/^/  /' "$out/kernel.err" | tail -n 20
	fail "kernel" "the HWP machine's kernel did not build (tools/hwp-kernel.sh)"
	exit 0
fi
echo "PASS: hwp-driver kernel and machine build"

# guest programs: the loads and the markers, and the series' kselftest
extra=()
if ! gcc -static -O2 -Wall -o "$out/hwpload" "$REPO/tools/hwp-guest/hwpload.c" \
	>"$out/hwpload.log" 2>&1; then
	fail "guest tools" "hwpload does not build: $(tail -n 3 "$out/hwpload.log" | tr '\n' '|')"
	exit 0
fi
extra+=("$out/hwpload:/bin/hwpload" "$REPO/tests/hwp-machine/guest-lib.sh:/lib/hwp-guest-lib.sh")
selftest=$KSRC/tools/testing/selftests/cpufreq_hwp
if MAKEFLAGS= MAKELEVEL= make -s -C "$selftest" OUTPUT="$out" ARCH=x86_64 \
	LDFLAGS=-static >"$out/selftest.log" 2>&1 && [ -x "$out/hwp_request" ]; then
	extra+=("$out/hwp_request:/bin/hwp_request")
else
	fail "guest tools" "the cpufreq_hwp kselftest does not build: $(tail -n 3 "$out/selftest.log" | tr '\n' '|')"
fi

if ! "$REPO/tools/mkinitramfs.sh" "$out/initrd.cpio.gz" "$REPO/tests/hwp-machine/guest.sh" \
	"${extra[@]}" >"$out/initramfs.log" 2>&1; then
	fail "guest" "initramfs: $(tail -n 3 "$out/initramfs.log" | tr '\n' '|')"
	exit 0
fi

log=$logs/56-hwp-driver.console.log
record=$logs/56-hwp-driver.record
rm -f "$record"
if ! "$REPO/tools/qemu-run.sh" --arch x86_64 --hwp --hwp-log "$record" \
	--hwp-opts hwp-highest=30:24 --kernel "$img" --initrd "$out/initrd.cpio.gz" \
	--append "intel_pstate=passive cpufreq.default_governor=schedutil" \
	--timeout "${HWP_SUITE_TIMEOUT:-600}" --log "$log" >"$out/qemu.out" 2>&1; then
	sed 's/^/  /' "$out/qemu.out" | tail -n 20
	fail "guest" "the guest did not finish (console: $log, record: $record)"
	exit 0
fi
echo "PASS: hwp-driver guest run ($(grep -c . "$record") events in the record)"
tr -d '\r' <"$log" >"$out/console.txt"
grep '^GUEST-ERROR=' "$out/console.txt" | sed 's/^/FAIL: hwp-driver guest: /'
python3 "$REPO/tests/hwp-machine/check.py" --levels 30:24:18:8 "$out/console.txt" "$record"
