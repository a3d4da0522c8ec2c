#!/bin/bash
# Suite 56: the real intel_pstate on the emulated HWP machine. One boot of
# the x86 test kernel (tools/test-kernel.sh; its KUnit suites are modules
# that this boot does not load, so no test code runs) with
# intel_pstate=passive and schedutil, -smp 2, vCPU 1 an efficiency core
# (highest level 24 against 30). The guest (tests/hwp-machine/guest.sh)
# runs the loads and the scenarios; the host checks the machine's own
# record of every HWP_REQUEST write (tests/hwp-machine/check.py): HWP
# enabled, full load, idle, a periodic load, a 99%-busy thread, no rewrite
# of an unchanged request under schedutil, scaling_max_freq, no_turbo,
# turbo disabled by the firmware, governor switches, CPU offline/online,
# suspend to idle, passive -> active -> passive, and the series' kselftest
# in the guest. Every figure is simulated by the emulated machine.
# KTAP: 4 results (the builds, the kselftest's build, the guest's run, and
# the checker's nested document); a prerequisite that does not build
# or a guest that does not finish fails every result not yet reported.
#
# Environment: REPO BUILD KSRC (the series tree). HWP_SUITE_TIMEOUT bounds
# the guest run (default 600 s).
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
out=$BUILD/state/56-hwp-driver
logs=$BUILD/logs
mkdir -p "$out" "$logs"

. "$REPO/tools/lib/ktap.sh"
. "$REPO/tools/lib/hwp-machine.sh"
# the machine and kernel, the kselftest's build, the guest's run, and the
# checker's nested document (tests/hwp-machine/check.py)
ktap_plan 4

if ! hwp_prepare "$out"; then
	ktap_fail "kernel and machine build" "$HWP_WHY"
	ktap_fail_rest "$HWP_WHY"
	exit 0
fi
img=$HWP_IMG
ktap_ok "kernel and machine build" "$HWP_QEMU, $img"

# guest programs: the loads and the markers, and the series' kselftest
extra=()
extra+=("$out/hwpload:/bin/hwpload" "$REPO/tests/hwp-machine/guest-lib.sh:/lib/hwp-guest-lib.sh")
selftest=$KSRC/tools/testing/selftests/cpufreq_hwp
if MAKEFLAGS='' MAKELEVEL='' make -s -C "$selftest" OUTPUT="$out" ARCH=x86_64 \
	LDFLAGS=-static >"$out/selftest.log" 2>&1 && [ -x "$out/hwp_request" ]; then
	extra+=("$out/hwp_request:/bin/hwp_request")
	ktap_ok "kselftest cpufreq_hwp builds"
else
	ktap_fail "kselftest cpufreq_hwp builds" "$(tail -n 3 "$out/selftest.log" | tr '\n' '|')"
fi

if ! "$REPO/tools/mkinitramfs.sh" "$out/initrd.cpio.gz" "$REPO/tests/hwp-machine/guest.sh" \
	"${extra[@]}" >"$out/initramfs.log" 2>&1; then
	ktap_fail_rest "initramfs: $(tail -n 3 "$out/initramfs.log" | tr '\n' '|')"
	exit 0
fi

log=$logs/56-hwp-driver.console.log
record=$logs/56-hwp-driver.record
rm -f "$record"
if ! "$REPO/tools/qemu-run.sh" --arch x86_64 --hwp --hwp-log "$record" \
	--hwp-opts hwp-highest=30:24 --kernel "$img" --initrd "$out/initrd.cpio.gz" \
	--append "intel_pstate=passive cpufreq.default_governor=schedutil msr.allow_writes=on" \
	--timeout "${HWP_SUITE_TIMEOUT:-600}" --log "$log" >"$out/qemu.out" 2>&1; then
	sed 's/^/  /' "$out/qemu.out" | tail -n 20
	ktap_fail "guest run" "the guest did not finish (console: $log, record: $record)"
	ktap_fail_rest "the guest did not finish"
	exit 0
fi
tr -d '\r' <"$log" >"$out/console.txt"
errs=$(grep '^GUEST-ERROR=' "$out/console.txt" | cut -d= -f2- | tr '\n' ';')
if [ -n "$errs" ]; then
	ktap_fail "guest run" "the guest reported: $errs"
else
	ktap_ok "guest run" "$(grep -c . "$record") events in the record"
fi
ktap_sub "checks" python3 "$REPO/tests/hwp-machine/check.py" --levels 30:24:18:8 "$out/console.txt" "$record"
exit 0
