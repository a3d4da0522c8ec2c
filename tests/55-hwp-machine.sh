#!/bin/bash
# Suite 55: the emulated HWP machine (Documentation/project/hwp-machine.md).
# Builds the patched QEMU (tools/build-qemu.sh, reused when current), boots
# the HWP machine's kernel (tools/hwp-kernel.sh: the series, no test code)
# on it with intel_pstate=passive and schedutil, -smp 2,
# vCPU 1 an efficiency core (hwp-highest=30:24), runs
# tools/qemu-hwp/smoke-guest.sh (idle, 3 s busy loop on cpu0, idle, then
# turbo disabled with a short busy loop) and
# checks the guest's view and the host-side record (parsed by
# tools/qemu-hwp/parse-log.sh). Then boots the stock machine and the patched
# binary with hwp=off, which must both look as before (no cpufreq driver).
#
# Layout for extension: one function per case (case_*), each reading the
# console ($con_hwp, $con_stock, $con_off) or the parsed record ($rec);
# boot_* functions run the guests.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"

ARGS="intel_pstate=passive cpufreq.default_governor=schedutil msr.allow_writes=on"
HWP_OPTS=${HWP_OPTS:-hwp-highest=30:24}
dir=$BUILD/state/55
logs=$BUILD/logs
mkdir -p "$dir" "$logs"

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
# val CONSOLE KEY: the value of the first KEY=... line
val() { printf '%s\n' "$1" | sed -n "s/^$2=//p" | head -n1; }
# rec KEY: a key of the parsed host record
rec() { printf '%s\n' "$rec" | sed -n "s/^$1=//p" | head -n1; }
# field HEX SHIFT: 8-bit field of a 64-bit hex value
field() { echo $(((0x$1 >> $2) & 0xff)); }

# ---- setup -------------------------------------------------------------------
case_qemu_builds() {
	local t0=$SECONDS out
	if out=$("$REPO/tools/build-qemu.sh") && [ -x "$out" ]; then
		pass "qemu-builds ($((SECONDS - t0))s, $out)"
	else
		fail qemu-builds "tools/build-qemu.sh failed (logs: $logs/qemu-*.log)"
		return 1
	fi
}

kernel_image() {
	if ! img=$("$REPO/tools/hwp-kernel.sh"); then
		fail hwp-kernel "tools/hwp-kernel.sh failed (see above)"
		return 1
	fi
}

# BUSY_SECS / IDLE_SECS (default 3) reach the guest script through /busy.env
initrd() {
	printf 'BUSY_SECS=%s\nIDLE_SECS=%s\n' "${BUSY_SECS:-3}" "${IDLE_SECS:-3}" >"$dir/busy.env"
	"$REPO/tools/mkinitramfs.sh" "$dir/guest.cpio.gz" "$REPO/tools/qemu-hwp/smoke-guest.sh" \
		"$dir/busy.env:/busy.env" ||
		{ fail initramfs "mkinitramfs.sh failed"; return 1; }
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

case_capabilities() {
	local c0 c1 f1
	c0=$(val "$con_hwp" HWP-MSR-CAP0) c1=$(val "$con_hwp" HWP-MSR-CAP1)
	f1=$(val "$con_hwp" HWP-CPU1-FREQ)
	# highest guaranteed efficient lowest = 30 18 10 8 and 24 18 10 8
	if [ "$c0" = 00000000080a121e ] && [ "$c1" = 00000000080a1218 ] && [ "${f1#* }" != "$f1" ] &&
		[ "$(echo "$f1" | awk '{print $2}')" = 2400000 ]; then
		pass "hwp-capabilities-per-vcpu (cpu0 $c0, cpu1 $c1 efficiency core, cpu1 cpuinfo_max_freq 2400000)"
	else
		fail hwp-capabilities-per-vcpu "CAP0='$c0' CAP1='$c1' (want 080a121e, 080a1218) cpu1 min/max/base='$f1'"
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

case_msr_readable() {
	local r
	r=$(val "$con_hwp" HWP-MSR-REQ0)
	if printf '%s' "$r" | grep -qE '^[0-9a-f]{16}$'; then
		pass "dev-cpu-msr-hwp-request-readable (0x$r)"
	else
		fail dev-cpu-msr-hwp-request-readable "/dev/cpu/0/msr HWP_REQUEST read '$r'"
	fi
}

# Invariance: 5.10 has no sysfs for it. Evidence: no "went wobbly" warning
# (the kernel turns invariance off at a tick where APERF/MPERF misbehave),
# DESIRED written by schedutil's perf path (the series calls ->adjust_perf()
# only while arch_scale_freq_invariant()), also read back in the guest under
# load, and APERF/MPERF advancing at level/guaranteed under load.
case_invariance() {
	local wob req d ratio
	wob=$(val "$con_hwp" HWP-DMESG-WOBBLY)
	req=$(val "$con_hwp" HWP-MSR-REQ0-BUSY)
	d=$(field "${req:-0}" 16)
	ratio=0
	# shellcheck disable=SC2046
	set -- $(val "$con_hwp" HWP-APERF-MPERF-BUSY)
	if [ $# -eq 4 ]; then
		ratio=$(awk -v a=$((0x$2 - 0x$1)) -v m=$((0x$4 - 0x$3)) 'BEGIN { if (m > 0) printf "%.3f", a / m; else print 0 }')
	fi
	# 30/18 = 1.67 at the highest level; each counter is read by its own dd
	# process, so the two windows differ by a few percent
	if [ "$wob" = 0 ] && [ "$d" -gt 0 ] && [ "$(rec p2_des_hi)" -gt 0 ] 2>/dev/null &&
		awk -v r="$ratio" 'BEGIN { exit !(r > 1.2 && r < 1.85) }'; then
		pass "frequency-invariance-stays-on (no 'went wobbly', DESIRED=$d under load, APERF/MPERF=$ratio)"
	else
		fail frequency-invariance-stays-on "wobbly x'$wob', DESIRED under load '$d' (REQ 0x$req), record p2_des_hi='$(rec p2_des_hi)', APERF/MPERF='$ratio' (want 1.2..1.85)"
	fi
}

case_energy() {
	local e
	local d=0 u=0
	e=$(val "$con_hwp" HWP-PKG-ENERGY-BUSY)
	# shellcheck disable=SC2086
	set -- $e
	if [ $# -eq 3 ]; then
		d=$(((0x$2 - 0x$1) & 0xffffffff)) u=$((0x$3))
	fi
	if [ "$d" -gt 0 ] && [ "$u" = $((0xa0e03)) ]; then
		pass "simulated-energy-counter-advances (PKG_ENERGY_STATUS +$d units of 2^-14 J = $(awk -v d=$d 'BEGIN { printf "%.2f", d / 16384 }') J SIMULATED over the busy loop)"
	else
		fail simulated-energy-counter-advances "PKG_ENERGY_STATUS/RAPL_POWER_UNIT '$e'"
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

# Turbo disabled (MISC_ENABLE bit 38, written on cpu0): package-wide, seen
# by intel_pstate, and every running level capped at guaranteed (18).
case_turbo_disable() {
	local nt m1 ps lv
	nt=$(val "$con_hwp" HWP-NO-TURBO) m1=$(val "$con_hwp" HWP-MISC-ENABLE1)
	ps=$(val "$con_hwp" HWP-PERF-STATUS0-NO-TURBO) lv=$(rec p5_level_max)
	if [ "$(rec turbo_writes)" -ge 1 ] 2>/dev/null && [ "$nt" = 1 ] && [ -n "$m1" ] &&
		[ $(((0x$m1 >> 38) & 1)) = 1 ] && [ -n "$lv" ] && [ "$lv" -le 18 ] &&
		[ -n "$ps" ] && [ "$(field "$ps" 8)" -le 18 ]; then
		pass "turbo-disable-caps-at-guaranteed (no_turbo=1, cpu1 sees bit 38, cpu0 level under load $(field "$ps" 8), highest level recorded $lv)"
	else
		fail turbo-disable-caps-at-guaranteed "turbo bit changes $(rec turbo_writes), no_turbo '$nt', cpu1 MISC_ENABLE '$m1', cpu0 PERF_STATUS '$ps', recorded level max '$lv' (want <= 18)"
	fi
}

# ---- stock behaviour ---------------------------------------------------------------
boot_stock() {
	con_stock="" con_off=""
	if boot stock; then
		con_stock=$(tr -d '\r' <"$logs/55-stock.log")
	else
		fail stock-machine-unchanged "the stock machine did not reach its end marker (log: $logs/55-stock.log)"
		return 1
	fi
	if boot hwp-off --hwp --hwp-opts hwp=off; then
		con_off=$(tr -d '\r' <"$logs/55-hwp-off.log")
	else
		fail stock-machine-unchanged "the patched binary with hwp=off did not reach its end marker (log: $logs/55-hwp-off.log)"
		return 1
	fi
}

case_stock_unchanged() {
	local d1 d2 f1 f2 s1 s2
	d1=$(val "$con_stock" HWP-DRIVER) d2=$(val "$con_off" HWP-DRIVER)
	s1=$(val "$con_stock" HWP-STATUS) s2=$(val "$con_off" HWP-STATUS)
	f1=$(val "$con_stock" HWP-FLAGS) f2=$(val "$con_off" HWP-FLAGS)
	if [ "$d1" = none ] && [ "$d2" = none ] && [ "$s1" = absent ] && [ "$s2" = absent ] &&
		[ -n "$f1" ] && [ "$f1" = "$f2" ]; then
		pass "stock-machine-unchanged (system qemu and patched qemu with hwp=off: no cpufreq driver, same CPU flags)"
	else
		fail stock-machine-unchanged "stock: driver '$d1' status '$s1'; patched hwp=off: driver '$d2' status '$s2'; flags $([ "$f1" = "$f2" ] && echo equal || echo differ)"
	fi
}

# ---- run ---------------------------------------------------------------------------
case_qemu_builds || exit 0
kernel_image || exit 0
initrd || exit 0
if boot_hwp; then
	case_guest_passive_hwp
	case_capabilities
	case_no_unchecked_msr
	case_msr_readable
	case_invariance
	case_energy
	case_record_in_range
	case_desired_rises
	case_desired_falls
	case_turbo_disable
fi
boot_stock && case_stock_unchanged
exit 0
