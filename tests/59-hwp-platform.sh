#!/bin/bash
# Suite 59: platform events on the emulated HWP machine, real intel_pstate
# (passive, schedutil), two boots: "platform" (platform-guest.sh: a base ratio
# above the guaranteed level, no_turbo, active -> passive, turbo off by the
# platform, the guaranteed level lowered over QMP) and "dec" (dec-guest.sh:
# DEC on, no DESIRED written), checked by check.py platform and dec.
# Environment: REPO BUILD KSRC; HWP_SUITE_TIMEOUT (s, default 600). KTAP,
# plan 4. Documentation/project/hwp-machine.md, "The suites that boot it".
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
out=$BUILD/state/59-hwp-platform
logs=$BUILD/logs
mkdir -p "$out" "$logs"

. "$REPO/tools/lib/ktap.sh"
. "$REPO/tools/lib/hwp-machine.sh"
# per boot: the guest's run, and the checker's nested document
ktap_plan 4

if ! hwp_prepare "$out"; then
	ktap_fail_rest "$HWP_WHY"
	exit 0
fi

# boot NAME GUEST_SCRIPT HWP_OPTS [qemu-run.sh options]: reports the guest's
# run (ok only when it finished without a GUEST-ERROR line); status 1 when
# there is no run to check
boot() {
	hwp_initrd "$out/initrd-$1.cpio.gz" "$2" || { ktap_fail "$1 guest run" "$HWP_WHY"; return 1; }
	hwp_guest_run "$1 guest run" "59-hwp-platform-$1" "$out/console-$1.txt" --hwp-opts "$3" \
		--kernel "$HWP_IMG" --initrd "$out/initrd-$1.cpio.gz" \
		--append "intel_pstate=passive cpufreq.default_governor=schedutil" "${@:4}"
}

if boot platform "$REPO/tests/hwp-machine/platform-guest.sh" \
	hwp-highest=30:24,hwp-guaranteed=18,hwp-base=20 --monitor-relay; then
	ktap_sub "platform checks" python3 "$REPO/tests/hwp-machine/check.py" platform \
		"$out/console-platform.txt" "$logs/59-hwp-platform-platform.record"
else
	ktap_fail "platform checks" "not run: no guest run to check"
fi
if boot dec "$REPO/tests/hwp-machine/dec-guest.sh" hwp-highest=30:24,hwp-dec=on; then
	ktap_sub "dec checks" python3 "$REPO/tests/hwp-machine/check.py" dec \
		"$out/console-dec.txt" "$logs/59-hwp-platform-dec.record"
else
	ktap_fail "dec checks" "not run: no guest run to check"
fi
exit 0
