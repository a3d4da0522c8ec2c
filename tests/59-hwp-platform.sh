#!/bin/bash
# Suite 59: platform events on the emulated HWP machine, boots "platform" and "dec"
# (NAME-guest.sh, checked by check.py NAME). hwp-machine.md, "The suites that boot it".
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
out=$BUILD/state/59-hwp-platform
logs=$BUILD/logs
mkdir -p "$out" "$logs"

. "$REPO/tools/lib/ktap.sh"
. "$REPO/tools/lib/hwp-machine.sh"
# per boot: the guest's run, and the checker's nested document
ktap_plan 4

hwp_prepare "$out" || ktap_stop "$HWP_WHY"

# boot NAME GUEST_SCRIPT HWP_OPTS [qemu-run.sh options]: the guest's run (ok only
# without a GUEST-ERROR line), then "NAME checks", check.py NAME on its console and record
boot() {
	if ! hwp_initrd "$out/initrd-$1.cpio.gz" "$2"; then
		ktap_fail "$1 guest run" "$HWP_WHY"
	elif hwp_guest_run "$1 guest run" "59-hwp-platform-$1" "$out/console-$1.txt" --hwp-opts "$3" \
		--kernel "$HWP_IMG" --initrd "$out/initrd-$1.cpio.gz" \
		--append "intel_pstate=passive cpufreq.default_governor=schedutil" "${@:4}"; then
		ktap_sub "$1 checks" python3 "$REPO/tests/hwp-machine/check.py" "$1" "$out/console-$1.txt" "$HWP_REC"
		return
	fi
	ktap_fail "$1 checks" "not run: no guest run to check"
}
boot platform "$REPO/tests/hwp-machine/platform-guest.sh" hwp-highest=30:24,hwp-guaranteed=18,hwp-base=20 \
	--monitor-relay
boot dec "$REPO/tests/hwp-machine/dec-guest.sh" hwp-highest=30:24,hwp-dec=on
exit 0
