#!/bin/bash
# Suite 55: the series on the emulated HWP machine, a short smoke run
# (Documentation/project/hwp-machine.md). Boots the HWP machine's kernel
# (tools/hwp-kernel.sh: the series, no test code) on the patched QEMU
# (tools/build-qemu.sh) with intel_pstate=passive and schedutil, -smp 2,
# vCPU 1 an efficiency core (hwp-highest=30:24), runs
# tools/qemu-hwp/smoke-guest.sh (idle, 3 s busy loop on cpu0, idle, then
# turbo disabled with a short busy loop) and checks the guest's view and
# the host-side record (parsed by tools/qemu-hwp/parse-log.sh). What the
# machine itself does (capabilities, counters, energy, the turbo cap, the
# stock machine) is suite 54's.
#
# KTAP: 8 results, the boot and one per case (case_*), each reading the
# console ($con_hwp) or the parsed record ($rec). A prerequisite that does
# not build, or a boot that does not finish, fails every result not yet
# reported.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"

ARGS="intel_pstate=passive cpufreq.default_governor=schedutil msr.allow_writes=on"
HWP_OPTS=${HWP_OPTS:-hwp-highest=30:24}
dir=$BUILD/state/55
logs=$BUILD/logs
mkdir -p "$dir" "$logs"

. "$REPO/tools/lib/ktap.sh"
# pass "NAME (NOTE)", fail NAME WHY; what they saw is the emulated
# machine's: simulated
pass() {
	local n=${1%% (*} note
	note=${1#"$n"} note=${note# (} note=${note%)}
	ktap_ok "$n" "${note:+$note (simulated)}"
}
fail() { ktap_fail "$1" "$2 (simulated)"; }
# val CONSOLE KEY: the value of the first KEY=... line
val() { printf '%s\n' "$1" | sed -n "s/^$2=//p" | head -n1; }
# rec KEY: a key of the parsed host record
rec() { printf '%s\n' "$rec" | sed -n "s/^$1=//p" | head -n1; }
# field HEX SHIFT: 8-bit field of a 64-bit hex value
field() { echo $(((0x$1 >> $2) & 0xff)); }

kernel_image() {
	if ! img=$("$REPO/tools/hwp-kernel.sh"); then
		ktap_fail_rest "the HWP machine's kernel did not build (tools/hwp-kernel.sh)"
		return 1
	fi
}

# BUSY_SECS / IDLE_SECS (default 3) reach the guest script through /busy.env
initrd() {
	printf 'BUSY_SECS=%s\nIDLE_SECS=%s\n' "${BUSY_SECS:-3}" "${IDLE_SECS:-3}" >"$dir/busy.env"
	"$REPO/tools/mkinitramfs.sh" "$dir/guest.cpio.gz" "$REPO/tools/qemu-hwp/smoke-guest.sh" \
		"$dir/busy.env:/busy.env" ||
		{ ktap_fail_rest "initramfs: mkinitramfs.sh failed"; return 1; }
}

# boot NAME QEMU-RUN-OPTIONS...: console of the guest in $logs/55-NAME.log
boot() {
	local name=$1
	shift
	"$REPO/tools/qemu-run.sh" --arch x86_64 --kernel "$img" --initrd "$dir/guest.cpio.gz" \
		--append "$ARGS" --timeout 300 --smp 2 --log "$logs/55-$name.log" "$@"
}

boot_hwp() {
	hwp_log=$logs/55-hwp.record
	rm -f "$hwp_log"
	con_hwp=""
	if boot hwp --hwp --hwp-log "$hwp_log" --hwp-opts "$HWP_OPTS"; then
		con_hwp=$(tr -d '\r' <"$logs/55-hwp.log")
		pass hwp-boot
	else
		fail hwp-boot "the guest did not reach its end marker (log: $logs/55-hwp.log)"
		ktap_fail_rest "the guest did not finish"
		return 1
	fi
	rec=$("$REPO/tools/qemu-hwp/parse-log.sh" "$hwp_log" 0)
	echo "host record $hwp_log:"
	printf '%s\n' "$rec" | sed 's/^/  /'
}

# ---- the HWP machine, seen from the guest --------------------------------------
case_guest_passive_hwp() {
	local drv st gov hwp pm
	drv=$(val "$con_hwp" HWP-DRIVER) st=$(val "$con_hwp" HWP-STATUS)
	gov=$(val "$con_hwp" HWP-GOVERNOR) hwp=$(val "$con_hwp" HWP-DMESG-HWP-ENABLED)
	pm=$(val "$con_hwp" HWP-MSR-PM-ENABLE0)
	if [ "$drv" = intel_cpufreq ] && [ "$st" = passive ] && [ "$gov" = schedutil ] &&
		[ "${hwp:-0}" -ge 1 ] && [ "$pm" = 0000000000000001 ]; then
		pass "guest-intel-cpufreq-passive-hwp (driver $drv, status $st, governor $gov, 'HWP enabled', PM_ENABLE=1)"
	else
		fail guest-intel-cpufreq-passive-hwp "driver='$drv' status='$st' governor='$gov' 'HWP enabled' x${hwp:-0} PM_ENABLE='$pm'"
	fi
}

case_no_unchecked_msr() {
	local n
	n=$(val "$con_hwp" HWP-DMESG-UNCHECKED-MSR)
	if [ "$n" = 0 ]; then
		pass "no-unchecked-msr-access (#GP raised for $(rec gp) probes of $(rec gp_msrs))"
	else
		fail no-unchecked-msr-access "$n 'unchecked MSR access' messages: $(printf '%s\n' "$con_hwp" | grep -m3 'unchecked MSR' | tr '\n' ' ')"
	fi
}

# Invariance: 5.10 has no sysfs for it. Evidence: no "went wobbly" warning
# (the kernel turns invariance off at a tick where APERF/MPERF misbehave),
# DESIRED written by schedutil's perf path (the series calls ->adjust_perf()
# only while arch_scale_freq_invariant()), also read back in the guest under
# load. (That APERF/MPERF advance at level/base is the machine's: suite 54.)
case_invariance() {
	local wob req d
	wob=$(val "$con_hwp" HWP-DMESG-WOBBLY)
	req=$(val "$con_hwp" HWP-MSR-REQ0-BUSY)
	d=$(field "${req:-0}" 16)
	if [ "$wob" = 0 ] && [ "$d" -gt 0 ] && [ "$(rec p2_des_hi)" -gt 0 ] 2>/dev/null; then
		pass "frequency-invariance-stays-on (no 'went wobbly', DESIRED=$d under load)"
	else
		fail frequency-invariance-stays-on "wobbly x'$wob', DESIRED under load '$d' (REQ 0x$req), record p2_des_hi='$(rec p2_des_hi)'"
	fi
}

# ---- the HWP machine, seen from the host ----------------------------------------
case_record_in_range() {
	local w d b
	w=$(rec writes) d=$(rec des_writes) b=$(rec bad)
	if [ "${w:-0}" -gt 0 ] && [ "${d:-0}" -gt 0 ] && [ "$b" = 0 ]; then
		pass "record-writes-min-le-desired-le-max ($w writes, $d with DESIRED)"
	else
		fail record-writes-min-le-desired-le-max "writes=$w with DESIRED=$d out of range=$b $(rec bad_first)"
	fi
}

case_desired_rises() {
	local start busy
	start=$(rec p2_des_start) busy=$(rec p2_des_hi)
	if [ -n "$busy" ] && [ -n "$start" ] && [ "$busy" -ge 24 ] && [ "$busy" -gt "$start" ]; then
		pass "desired-rises-under-load (cpu0 DESIRED $start when the busy loop starts, up to $busy, $(rec p2_writes) writes)"
	else
		fail desired-rises-under-load "cpu0 DESIRED at the start of the busy loop '$start', highest during it '$busy' (want >= 24 and above the start)"
	fi
}

case_desired_falls() {
	local busy after
	busy=$(rec p2_des_hi) after=$(rec p3_des_lo)
	if [ -n "$busy" ] && [ -n "$after" ] && [ "$after" -le 12 ] && [ "$after" -lt "$busy" ]; then
		pass "desired-falls-after-idle (cpu0 DESIRED from $busy down to $after, $(rec p3_writes) writes)"
	else
		fail desired-falls-after-idle "cpu0 DESIRED highest under load '$busy', lowest after it '$after' (want <= 12)"
	fi
}

# Turbo disabled (MISC_ENABLE bit 38, written on cpu0, recorded by the
# machine): seen by intel_pstate. (That the bit is package-wide and the
# running level capped at guaranteed is the machine's: suite 54.)
case_turbo_disable() {
	local nt
	nt=$(val "$con_hwp" HWP-NO-TURBO)
	if [ "$(rec turbo_writes)" -ge 1 ] 2>/dev/null && [ "$nt" = 1 ]; then
		pass "turbo-disable-seen-by-intel_pstate (no_turbo=1)"
	else
		fail turbo-disable-seen-by-intel_pstate "turbo bit changes $(rec turbo_writes), no_turbo '$nt'"
	fi
}

# ---- run ---------------------------------------------------------------------------
ktap_plan 8
if ! "$REPO/tools/build-qemu.sh" >/dev/null; then
	ktap_fail_rest "the emulated HWP machine did not build (tools/build-qemu.sh; logs: $logs/qemu-*.log)"
	exit 0
fi
kernel_image || exit 0
initrd || exit 0
boot_hwp || exit 0
case_guest_passive_hwp
case_no_unchecked_msr
case_invariance
case_record_in_range
case_desired_rises
case_desired_falls
case_turbo_disable
exit 0
