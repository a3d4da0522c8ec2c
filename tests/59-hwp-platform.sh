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
img=$HWP_IMG
extra=("$out/hwpload:/bin/hwpload" "$REPO/tests/hwp-machine/guest-lib.sh:/lib/hwp-guest-lib.sh")

# boot NAME GUEST_SCRIPT HWP_OPTS [qemu-run.sh options]: reports the guest's
# run (ok only when it finished without a GUEST-ERROR line)
boot() {
	local name=$1 script=$2 opts=$3 errs
	shift 3
	local log=$logs/59-hwp-platform-$name.console.log record=$logs/59-hwp-platform-$name.record
	rm -f "$record" "$log.monitor"
	if ! "$REPO/tools/mkinitramfs.sh" "$out/initrd-$name.cpio.gz" "$script" "${extra[@]}" \
		>"$out/initramfs-$name.log" 2>&1; then
		ktap_fail "$name guest run" "initramfs: $(tail -n 3 "$out/initramfs-$name.log" | tr '\n' '|')"
		return 1
	fi
	if ! "$REPO/tools/qemu-run.sh" --arch x86_64 --hwp --hwp-log "$record" \
		--hwp-opts "$opts" --kernel "$img" --initrd "$out/initrd-$name.cpio.gz" \
		--append "intel_pstate=passive cpufreq.default_governor=schedutil" \
		--timeout "${HWP_SUITE_TIMEOUT:-600}" --log "$log" "$@" >"$out/qemu-$name.out" 2>&1; then
		sed 's/^/  /' "$out/qemu-$name.out" | tail -n 20
		ktap_fail "$name guest run" "the guest did not finish (console: $log, record: $record)"
		return 1
	fi
	tr -d '\r' <"$log" >"$out/console-$name.txt"
	errs=$(grep '^GUEST-ERROR=' "$out/console-$name.txt" | cut -d= -f2- | tr '\n' ';')
	if [ -n "$errs" ]; then
		ktap_fail "$name guest run" "the guest reported: $errs"
	else
		ktap_ok "$name guest run" "$(grep -c . "$record") events in the record"
	fi
	return 0
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
