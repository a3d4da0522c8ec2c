#!/bin/bash
# Suite 54: the emulated HWP machine itself, counted apart (tests/NN-emulator-*);
# HWP_SUITE_TIMEOUT (s, 600). hwp-machine.md, "The machine's own checks".
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
out=$BUILD/state/54-emulator
logs=$BUILD/logs
mkdir -p "$out" "$logs"
ARGS="intel_pstate=passive cpufreq.default_governor=schedutil"

. "$REPO/tools/lib/ktap.sh"
. "$REPO/tools/lib/hwp-machine.sh"
ktap_plan 4

hwp_prepare "$out" || { ktap_fail "the HWP machine builds" "$HWP_WHY"; ktap_stop "$HWP_WHY"; }
ktap_ok "the HWP machine builds" "$HWP_QEMU"
img=$HWP_IMG
{ hwp_initrd "$out/initrd-hwp.cpio.gz" "$REPO/tests/hwp-machine/emulator-guest.sh" &&
	hwp_initrd "$out/initrd-smoke.cpio.gz" "$REPO/tests/hwp-machine/stock-guest.sh"; } || ktap_stop "$HWP_WHY"

# ---- the HWP machine, read back ----------------------------------------------
if hwp_guest_run "guest run" 54-emulator "$out/console.txt" \
	--hwp-opts hwp-highest=30:24,hwp-guaranteed=18,hwp-base=20 --monitor-relay \
	--kernel "$img" --initrd "$out/initrd-hwp.cpio.gz" --append "$ARGS" --smp 2; then
	ktap_sub "machine checks" python3 "$REPO/tests/hwp-machine/check.py" emulator \
		"$out/console.txt" "$HWP_REC" "$HWP_LOG.monitor"
else
	ktap_fail "machine checks" "not run: no guest run to check"
fi

# ---- stock behaviour: the stock machine, and the patched one with hwp=off --------

# boot NAME QEMU-RUN-OPTIONS...: the console, without CRs, on stdout
boot_smoke() {
	"$REPO/tools/qemu-run.sh" --arch x86_64 --kernel "$img" --initrd "$out/initrd-smoke.cpio.gz" \
		--append "$ARGS" --timeout 300 --smp 2 --log "$logs/54-$1.log" "${@:2}" >"$out/$1.qemu" 2>&1 &&
		tr -d '\r' <"$logs/54-$1.log"
}
val() { printf '%s\n' "$1" | sed -n "s/^$2=//p" | head -n1; }
if ! con_stock=$(boot_smoke stock); then
	ktap_fail "stock machine unchanged" "the stock machine did not reach its end marker (log: $logs/54-stock.log)"
elif ! con_off=$(boot_smoke hwp-off --hwp --hwp-opts hwp=off); then
	ktap_fail "stock machine unchanged" "the patched binary with hwp=off did not reach its end marker (log: $logs/54-hwp-off.log)"
else
	d1=$(val "$con_stock" HWP-DRIVER) d2=$(val "$con_off" HWP-DRIVER)
	s1=$(val "$con_stock" HWP-STATUS) s2=$(val "$con_off" HWP-STATUS)
	f1=$(val "$con_stock" HWP-FLAGS) f2=$(val "$con_off" HWP-FLAGS)
	[ "$d1" = none ] && [ "$d2" = none ] && [ "$s1" = absent ] && [ "$s2" = absent ] &&
		[ -n "$f1" ] && [ "$f1" = "$f2" ]
	ktap_rc "stock machine unchanged" $? "stock: driver '$d1' status '$s1'; patched hwp=off: driver '$d2' status '$s2'; flags $([ "$f1" = "$f2" ] && echo equal || echo differ)" \
		"system qemu and patched qemu with hwp=off: no cpufreq driver, same CPU flags"
fi
exit 0
